//! The errors of reading and writing files and of standard output, as messages with a hint
//! (rendered by `miette` like every other diagnostic of the command line).

use std::path::Path;

/// A located-nowhere diagnostic: a message and an optional hint.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
pub struct Diag {
    /// One-line description.
    pub message: String,
    /// How to fix it.
    #[help]
    pub help: Option<String>,
}

impl Diag {
    /// A diagnostic with a message and no hint.
    pub fn msg(message: impl Into<String>) -> Self {
        Diag {
            message: message.into(),
            help: None,
        }
    }

    /// A diagnostic with a message and a hint.
    pub fn with_help(message: impl Into<String>, help: impl Into<String>) -> Self {
        Diag {
            message: message.into(),
            help: Some(help.into()),
        }
    }
}

/// Why reading an input or writing an output failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file that cannot be read or written, or holds what it should not, with a hint.
    #[error(transparent)]
    Diag(#[from] Diag),
    /// Writing to standard output failed (e.g. a closed pipe).
    #[error("cannot write to standard output: {}", io_reason(.0))]
    Stdout(std::io::Error),
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The file `path` could not be read.
    pub fn read(path: &Path, err: &std::io::Error) -> Self {
        use std::io::ErrorKind as K;
        let help = match err.kind() {
            K::NotFound | K::PermissionDenied => "check the path and its permissions",
            K::OutOfMemory => {
                "the input is too large for the memory available; give a smaller file"
            }
            _ => "check that the path names a readable file",
        };
        Error::from(Diag::with_help(
            format!("cannot read `{}`: {}", path.display(), io_reason(err)),
            help,
        ))
    }

    /// The file `path` could not be written.
    pub fn write(path: &Path, err: &std::io::Error) -> Self {
        Error::from(Diag::with_help(
            format!("cannot write `{}`: {}", path.display(), io_reason(err)),
            "check that the directory exists and is writable",
        ))
    }
}

/// A short reason for an I/O error, without the OS error number.
pub fn io_reason(err: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match err.kind() {
        K::NotFound => "no such file or directory".to_string(),
        K::PermissionDenied => "permission denied".to_string(),
        K::InvalidData => "the file is not valid UTF-8 text".to_string(),
        _ => {
            let s = err.to_string();
            // "Is a directory (os error 21)" → "is a directory"
            let s = s.split(" (os error").next().unwrap_or(&s).to_string();
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_lowercase().chain(c).collect(),
                None => s,
            }
        }
    }
}

/// Writes `text` and a newline to standard error. A closed standard error (`2>&1 | head
/// -1`) is not an error worth a panic: the text is dropped.
pub fn note(text: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// `value` as pretty-printed JSON text with a final newline (the `--format json` output of
/// every command).
///
/// # Errors
/// A value serde cannot encode (a map with keys that are not strings).
pub fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> Result<String> {
    let mut s = serde_json::to_string_pretty(value)
        .map_err(|e| Error::from(Diag::msg(format!("cannot encode JSON: {e}"))))?;
    s.push('\n');
    Ok(s)
}

/// Renders every error report of the process in one style: 100 columns, no terminal links,
/// and wrapped for a reader at a terminal only (piped into a log or a `grep`, each message
/// stays on one line whatever the length of the file path).
pub fn install_report_style() {
    use std::io::IsTerminal;
    let wrap = std::io::stderr().is_terminal();
    miette::set_hook(Box::new(move |_| {
        Box::new(
            miette::MietteHandlerOpts::new()
                .terminal_links(false)
                .width(100)
                .wrap_lines(wrap)
                .build(),
        )
    }))
    .ok();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_reasons_are_short_and_lower_case() {
        let e = std::io::Error::from_raw_os_error(21);
        assert_eq!(io_reason(&e), "is a directory");
        let e = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert_eq!(io_reason(&e), "no such file or directory");
    }

    #[test]
    fn json_text_is_pretty_with_a_final_newline() {
        let v = std::collections::BTreeMap::from([("a", vec![1, 2])]);
        let t = json_text(&v).unwrap();
        assert_eq!(t, "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n");
    }
}
