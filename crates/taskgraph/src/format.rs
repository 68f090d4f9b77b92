//! One entry point for all formats: pick the format from a name, a file extension or the
//! text, then read or write.

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;

use serde::de::IgnoredAny;

use crate::dot::{read_dot_with, write_dot, DotOptions};
use crate::error::{ErrorKind, GraphError};
use crate::graph::{Limits, TaskGraph};
use crate::json::{read_json_with, write_json};
use crate::stg::{read_stg_with, StgOptions};
use crate::wfcommons::{read_wfcommons_with, WfOptions};

/// A task-graph file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The task-graph JSON format (read and write).
    Json,
    /// DOT (read and write).
    Dot,
    /// WfCommons WfFormat JSON (read only).
    WfCommons,
    /// Standard Task Graph format (read only).
    Stg,
}

impl FromStr for Format {
    type Err = GraphError;

    /// `json`, `dot` (or `gv`), `wfcommons` (or `wfformat`), `stg`.
    fn from_str(s: &str) -> Result<Self, GraphError> {
        match s.to_ascii_lowercase().as_str() {
            "json" => Ok(Format::Json),
            "dot" | "gv" => Ok(Format::Dot),
            "wfcommons" | "wfformat" => Ok(Format::WfCommons),
            "stg" => Ok(Format::Stg),
            _ => Err(GraphError::new(
                ErrorKind::BadOption,
                format!("unknown task-graph format `{s}`"),
            )
            .with_help("formats: json, dot, wfcommons, stg")),
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Json => "json",
            Format::Dot => "dot",
            Format::WfCommons => "wfcommons",
            Format::Stg => "stg",
        })
    }
}

impl Format {
    /// The format a path's extension names (`.json` is [`Format::Json`]; use
    /// [`Format::detect`] to tell WfCommons JSON apart).
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(Format::Json),
            "dot" | "gv" => Some(Format::Dot),
            "stg" => Some(Format::Stg),
            _ => None,
        }
    }

    /// The format of `text` read from `path`: by extension, except that a `.json` (or
    /// extensionless) text whose top-level object has a `workflow` key and no `tasks` key
    /// is WfCommons.
    pub fn detect(path: &Path, text: &str) -> Option<Format> {
        let by_ext = Format::from_path(path);
        let looks_json = text.trim_start().starts_with('{');
        if matches!(by_ext, Some(Format::Json) | None) && looks_json {
            // A file whose first key is `tasks` is a task graph: no need to scan the rest.
            let first = text.trim_start()[1..].trim_start();
            if first.starts_with("\"tasks\"") {
                return Some(Format::Json);
            }
            // The top-level keys (values are skipped, not built).
            let keys: Result<BTreeMap<String, IgnoredAny>, _> = serde_json::from_str(text);
            return Some(match keys {
                Ok(k) if k.contains_key("workflow") && !k.contains_key("tasks") => {
                    Format::WfCommons
                }
                _ => Format::Json,
            });
        }
        by_ext
    }

    /// True if graphs can be written in this format.
    pub fn can_write(self) -> bool {
        matches!(self, Format::Json | Format::Dot)
    }

    /// The format of `text` read from `path`: `from` when given, else [`Format::detect`].
    ///
    /// # Errors
    /// [`FormatError::Unknown`]: neither tells it.
    pub fn of_input(from: Option<Format>, path: &Path, text: &str) -> Result<Format, FormatError> {
        from.or_else(|| Format::detect(path, text))
            .ok_or_else(|| FormatError::Unknown(path.display().to_string()))
    }

    /// The format to write to `path` (`None`: standard output): `to`, else the extension,
    /// else JSON.
    ///
    /// # Errors
    /// [`FormatError::UnknownOutput`], [`FormatError::NotWritten`].
    pub fn of_output(path: Option<&Path>, to: Option<Format>) -> Result<Format, FormatError> {
        let f = match (to, path) {
            (Some(f), _) => f,
            (None, None) => Format::Json,
            (None, Some(p)) => Format::from_path(p)
                .ok_or_else(|| FormatError::UnknownOutput(p.display().to_string()))?,
        };
        match f.can_write() {
            true => Ok(f),
            false => Err(FormatError::NotWritten(f)),
        }
    }
}

/// A format that cannot be told or written; the messages name inputs by `{key}`s, as
/// [`diag::Advice`] does (`{from}`, `{to}`: the input's and the output's format).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FormatError {
    /// Neither a name nor the file tells the input's format.
    #[error("cannot tell the format of `{}` from its extension", diag::literal(.0))]
    Unknown(String),
    /// The output file's extension does not name a format.
    #[error(
        "cannot tell the output format of `{}` from its extension; use .json or .dot, or \
         {{to}} json|dot",
        diag::literal(.0)
    )]
    UnknownOutput(String),
    /// Graphs are not written in this format.
    #[error("cannot write {0}: only json and dot are written")]
    NotWritten(Format),
}

impl diag::Advise for FormatError {
    fn advice(&self) -> Option<diag::Advice> {
        Some(match self {
            FormatError::Unknown(_) => {
                diag::Advice::fix("name the format with {from} json|dot|wfcommons|stg")
            }
            _ => diag::Advice::usage(""),
        })
    }

    /// The text with its input keys spelt.
    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        diag::spell_keys(&self.to_string(), spell)
    }
}

/// Reads `text` (named `name` in diagnostics) in `format` with `limits`; a missing task time
/// (DOT, WfCommons) is an error.
pub fn read(
    text: &str,
    name: &str,
    format: Format,
    limits: &Limits,
) -> Result<TaskGraph, GraphError> {
    match format {
        Format::Json => read_json_with(text, name, limits),
        Format::Dot => read_dot_with(
            text,
            name,
            &DotOptions {
                default_time: None,
                limits: *limits,
            },
        ),
        Format::WfCommons => read_wfcommons_with(
            text,
            name,
            &WfOptions {
                default_time: None,
                limits: *limits,
            },
        ),
        Format::Stg => read_stg_with(
            text,
            name,
            &StgOptions {
                drop_dummies: false,
                limits: *limits,
            },
        ),
    }
}

/// Writes `g` in `format` (JSON or DOT).
pub fn write(g: &TaskGraph, format: Format) -> Result<String, GraphError> {
    match format {
        Format::Json => Ok(write_json(g)),
        Format::Dot => Ok(write_dot(g)),
        other => Err(GraphError::new(
            ErrorKind::BadOption,
            format!("cannot write {other}: only json and dot are written"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_and_conversion() {
        let p = Path::new;
        assert_eq!(Format::from_path(p("a/b.DOT")), Some(Format::Dot));
        assert_eq!(Format::from_path(p("x.stg")), Some(Format::Stg));
        assert_eq!(Format::from_path(p("x")), None);
        assert_eq!(
            Format::detect(p("w.json"), r#"{"name": "x", "workflow": {"tasks": []}}"#),
            Some(Format::WfCommons)
        );
        assert_eq!(
            Format::detect(p("g.json"), r#"{"tasks": [{"id": "workflow", "time": 1}]}"#),
            Some(Format::Json)
        );
        assert_eq!(Format::detect(p("g.dot"), "digraph {}"), Some(Format::Dot));
        assert_eq!(Format::detect(p("g.txt"), "digraph {}"), None);
        assert_eq!("GV".parse::<Format>().unwrap(), Format::Dot);
        assert_eq!("wfformat".parse::<Format>().unwrap(), Format::WfCommons);
        assert_eq!(
            "xml".parse::<Format>().unwrap_err().kind,
            ErrorKind::BadOption
        );
        for f in [Format::Json, Format::Dot, Format::WfCommons, Format::Stg] {
            assert_eq!(f.to_string().parse::<Format>().unwrap(), f);
        }

        let l = Limits::default();
        let g = read(
            "2\n0 0 0\n1 5 1 0\n2 3 1 0\n3 0 2 1 2\n",
            "s",
            Format::Stg,
            &l,
        )
        .unwrap();
        let dot = write(&g, Format::Dot).unwrap();
        let h = read(&dot, "d", Format::Dot, &l).unwrap();
        assert_eq!(h, g);
        let json = write(&h, Format::Json).unwrap();
        assert_eq!(read(&json, "j", Format::Json, &l).unwrap(), g);
        assert!(!Format::Stg.can_write());
        assert_eq!(
            Format::of_input(None, p("g.txt"), "x").unwrap_err(),
            FormatError::Unknown("g.txt".into())
        );
        assert_eq!(
            Format::of_input(Some(Format::Stg), p("g.txt"), "x"),
            Ok(Format::Stg)
        );
        assert_eq!(Format::of_output(None, None), Ok(Format::Json));
        assert_eq!(Format::of_output(Some(p("o.dot")), None), Ok(Format::Dot));
        assert_eq!(
            Format::of_output(Some(p("o.x")), None).unwrap_err(),
            FormatError::UnknownOutput("o.x".into())
        );
        assert_eq!(
            Format::of_output(None, Some(Format::Stg)),
            Err(FormatError::NotWritten(Format::Stg))
        );
        assert_eq!(
            write(&g, Format::Stg).unwrap_err().kind,
            ErrorKind::BadOption
        );
    }
}
