//! Readers of measurement files: Extra-P's text format ([`text`]), Extra-P's JSON Lines
//! ([`jsonl`]) and CSV with one row per run ([`csv`]). Each gives an [`Experiment`]; each
//! answers a malformed file with a [`ReadError`] that names the line and column and says
//! how to fix it.

pub mod csv;
mod error;
pub mod jsonl;
pub mod text;

use std::collections::HashMap;

pub use error::{ReadError, ReadErrorKind};

use crate::Measurement;

/// The largest measurement file a front end should read (bytes, 256 MiB): millions of
/// runs, and memory for their values stays well under a gigabyte.
pub const MAX_BYTES: usize = 256 << 20;

/// The advice for a measurement file over [`MAX_BYTES`] (appended to the message).
pub const TOO_LARGE: &str = "; a file of measurements this large is more runs than a model \
     needs: keep a few repetitions per point, or split it by callpath or metric";

diag::choices! {
    /// The formats the readers read.
    pub enum Format {
        /// Extra-P's text format.
        Text = "text": "Extra-P's text format (PARAMETER / POINTS / REGION / METRIC / DATA)",
        /// Extra-P's JSON Lines.
        Jsonl = "jsonl": "Extra-P's JSON Lines (`{\"params\": {...}, \"value\": ...}` per line)",
        /// CSV with one row per run.
        Csv = "csv": "CSV with a header, one row per run",
    }
}

impl Format {
    /// The format of a file with this extension and text: `.txt`, `.jsonl`/`.ndjson`,
    /// `.csv`; otherwise a first line (comments skipped) starting with `{` is JSON Lines,
    /// one starting with `PARAMETER` Extra-P text, anything else CSV.
    pub fn guess(extension: Option<&str>, text: &str) -> Format {
        match extension {
            Some("txt") => Format::Text,
            Some("jsonl" | "ndjson") => Format::Jsonl,
            Some("csv") => Format::Csv,
            _ => {
                let first = text
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty() && !l.starts_with('#'))
                    .unwrap_or("");
                if first.starts_with('{') {
                    Format::Jsonl
                } else if first.starts_with("PARAMETER") {
                    Format::Text
                } else {
                    Format::Csv
                }
            }
        }
    }
}

/// Reads `text` (named `name` in messages) in `format` (`csv` chooses the CSV columns).
///
/// # Errors
/// The format's reader's [`ReadError`].
pub fn read(
    format: Format,
    name: &str,
    text: &str,
    csv: &csv::CsvOptions,
) -> Result<Experiment, ReadError> {
    match format {
        Format::Text => text::read(name, text),
        Format::Jsonl => jsonl::read(name, text),
        Format::Csv => csv::read(name, text, csv),
    }
}

/// What to read a measurement file as: its name and extension, the format when the user
/// chose one, and the CSV columns chosen (names the file must have).
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// The file's name in messages.
    pub name: String,
    /// Its extension, which tells the format when none is chosen ([`Format::guess`]).
    pub extension: Option<String>,
    /// The format chosen, if any.
    pub format: Option<Format>,
    /// CSV: the parameter columns (none: [`csv::CsvOptions`]' default); other formats name
    /// their parameters themselves, and refuse any ([`LoadError::ParamsNeedCsv`]).
    pub params: &'a [String],
    /// The metrics: CSV columns, or the metrics of the series kept in other formats.
    pub metrics: &'a [String],
}

/// A measurement file read as a [`Request`] asked.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The measurements.
    pub experiment: Experiment,
    /// The format read.
    pub format: Format,
    /// The metrics whose series to keep (CSV reads only the chosen columns already).
    pub metrics: Vec<String>,
    /// Which CSV columns were taken for what when none were chosen: ``reading the CSV
    /// columns `p` as parameters and `time` as metrics``.
    pub guessed: Option<String>,
}

/// Why a measurement file cannot be read as asked.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file is malformed.
    #[error(transparent)]
    Read(ReadError),
    /// A CSV column chosen as a parameter (`key` `param`) or a metric (`metric`) that the
    /// file lacks: the message and its hint.
    #[error("{}{}", .error.message, .error.help.as_deref().map(|h| format!("; {h}")).unwrap_or_default())]
    Column {
        /// The input that named it: `param` or `metric`.
        key: &'static str,
        /// The reader's error.
        error: ReadError,
    },
    /// Parameters chosen for a format that names its own.
    #[error("chooses CSV columns; Extra-P files name their parameters themselves")]
    ParamsNeedCsv,
}

impl diag::Advise for LoadError {
    /// None: a column or parameters chosen wrongly are usage errors whose message says what
    /// to change, and a malformed file's error is located.
    fn advice(&self) -> Option<diag::Advice> {
        None
    }
}

impl LoadError {
    /// The input the message is about, as a key of [`diag::Advice`], and what joins it to
    /// the message (`metric`, `": "`); `None` for a malformed file.
    pub fn input(&self) -> Option<(&'static str, &'static str)> {
        match self {
            LoadError::Read(_) => None,
            LoadError::Column { key, .. } => Some((key, ": ")),
            LoadError::ParamsNeedCsv => Some(("param", " ")),
        }
    }
}

impl<'a> Request<'a> {
    /// The request for the file at `path` (its name and extension: the file is not opened).
    pub fn of_path(
        path: &std::path::Path,
        format: Option<Format>,
        params: &'a [String],
        metrics: &'a [String],
    ) -> Self {
        Request {
            name: path.display().to_string(),
            extension: path.extension().and_then(|e| e.to_str()).map(String::from),
            format,
            params,
            metrics,
        }
    }

    /// Reads `text` in the chosen or guessed format.
    ///
    /// # Errors
    /// A [`LoadError`].
    pub fn read(&self, text: &str) -> Result<Loaded, LoadError> {
        let format = self
            .format
            .unwrap_or_else(|| Format::guess(self.extension.as_deref(), text));
        let csv = csv::CsvOptions {
            params: self.params.to_vec(),
            metrics: self.metrics.to_vec(),
            callpath: None,
        };
        let experiment = read(format, &self.name, text, &csv).map_err(|error| {
            if error.kind != ReadErrorKind::UnknownName {
                return LoadError::Read(error);
            }
            let named = |n: &String| error.message.contains(&format!("`{}`", short(n)));
            let key = if self.metrics.iter().any(named) {
                "metric"
            } else {
                "param"
            };
            LoadError::Column { key, error }
        })?;
        if format != Format::Csv && !self.params.is_empty() {
            return Err(LoadError::ParamsNeedCsv);
        }
        let guessed = (format == Format::Csv && self.params.is_empty() && self.metrics.is_empty())
            .then(|| {
                let quoted = |v: Vec<&str>| {
                    v.iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                format!(
                    "reading the CSV columns {} as parameters and {} as metrics",
                    quoted(experiment.parameters.iter().map(String::as_str).collect()),
                    quoted(experiment.metrics())
                )
            });
        Ok(Loaded {
            metrics: match format {
                Format::Csv => Vec::new(),
                _ => self.metrics.to_vec(),
            },
            experiment,
            format,
            guessed,
        })
    }
}

/// Measurements of one callpath and metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The callpath (region), `""` when the file names none.
    pub callpath: String,
    /// The metric, `""` when the file names none.
    pub metric: String,
    /// One measurement per point, in the file's order, repetitions merged.
    pub measurements: Vec<Measurement>,
}

/// What a measurement file holds.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Experiment {
    /// The parameters' names, in order.
    pub parameters: Vec<String>,
    /// One series per callpath and metric, in the order the file first names them.
    pub series: Vec<Series>,
}

impl Experiment {
    /// The callpaths, in the order the file first names them.
    pub fn callpaths(&self) -> Vec<&str> {
        let mut v: Vec<&str> = Vec::new();
        for s in &self.series {
            if !v.contains(&s.callpath.as_str()) {
                v.push(&s.callpath);
            }
        }
        v
    }

    /// The metrics, in the order the file first names them.
    pub fn metrics(&self) -> Vec<&str> {
        let mut v: Vec<&str> = Vec::new();
        for s in &self.series {
            if !v.contains(&s.metric.as_str()) {
                v.push(&s.metric);
            }
        }
        v
    }

    /// Keeps the series of `callpath` (if given) and of one of `metrics` (if any).
    ///
    /// # Errors
    /// A message (for a person): a callpath or metric the experiment does not have (the
    /// first such name, with the closest known one or the list of them), or no series of
    /// the callpath with one of the metrics.
    pub fn select(&mut self, callpath: Option<&str>, metrics: &[String]) -> Result<(), String> {
        let (all_callpaths, all_metrics): (Vec<String>, Vec<String>) = (
            self.callpaths().into_iter().map(String::from).collect(),
            self.metrics().into_iter().map(String::from).collect(),
        );
        let list = |v: &[String]| {
            v.iter()
                .take(20)
                .map(|s| format!("`{}`", short(s)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let unknown = |what: &str, name: &str, known: &[String]| {
            let hint = diag::did_you_mean(&diag::suggest(name, known.iter().map(String::as_str)))
                .unwrap_or_else(|| {
                    if known.iter().all(String::is_empty) {
                        format!(
                            "the file names no {what}s (a CSV file names callpaths in a \
                             `callpath` column)"
                        )
                    } else {
                        format!("the {what}s are {}", list(known))
                    }
                });
            format!("no {what} `{}` in the file; {hint}", short(name))
        };
        if let Some(c) = callpath.filter(|c| !all_callpaths.iter().any(|k| k == c)) {
            return Err(unknown("callpath", c, &all_callpaths));
        }
        if let Some(m) = metrics.iter().find(|m| !all_metrics.contains(m)) {
            return Err(unknown("metric", m, &all_metrics));
        }
        self.series.retain(|s| {
            callpath.is_none_or(|c| s.callpath == c)
                && (metrics.is_empty() || metrics.contains(&s.metric))
        });
        if !self.series.is_empty() {
            return Ok(());
        }
        Err(format!(
            "no series of callpath `{}` has the metric{} {}",
            short(callpath.unwrap_or_default()),
            if metrics.len() == 1 { "" } else { "s" },
            list(metrics)
        ))
    }
}

/// Builds an [`Experiment`], merging repetitions of the same point.
#[derive(Default)]
pub(crate) struct Builder {
    parameters: Vec<String>,
    series: Vec<Series>,
    by_name: HashMap<(String, String), usize>,
    points: Vec<HashMap<Vec<u64>, usize>>,
    /// The last series looked up (rows of one series usually follow each other).
    last: Option<usize>,
    /// A reusable key buffer.
    key: Vec<u64>,
}

impl Builder {
    pub(crate) fn new(parameters: Vec<String>) -> Self {
        Builder {
            parameters,
            ..Builder::default()
        }
    }

    /// The series of `callpath` and `metric`, created on first use.
    pub(crate) fn series(&mut self, callpath: &str, metric: &str) -> usize {
        if let Some(k) = self.last {
            let s = &self.series[k];
            if s.callpath == callpath && s.metric == metric {
                return k;
            }
        }
        if let Some(&k) = self
            .by_name
            .get(&(callpath.to_string(), metric.to_string()))
        {
            self.last = Some(k);
            return k;
        }
        let next = self.series.len();
        let k = *self
            .by_name
            .entry((callpath.to_string(), metric.to_string()))
            .or_insert(next);
        if k == next {
            self.series.push(Series {
                callpath: callpath.to_string(),
                metric: metric.to_string(),
                measurements: Vec::new(),
            });
            self.points.push(HashMap::new());
        }
        self.last = Some(k);
        k
    }

    /// Adds `values` at `point` to series `s`.
    pub(crate) fn add(&mut self, s: usize, point: &[f64], values: &[f64]) {
        let ms = &mut self.series[s].measurements;
        // Repetitions usually follow each other: the last point first.
        if let Some(m) = ms.last_mut() {
            if m.point == point {
                m.values.extend_from_slice(values);
                return;
            }
        }
        self.key.clear();
        self.key.extend(
            point
                .iter()
                .map(|v| if *v == 0.0 { 0 } else { v.to_bits() }),
        );
        let at = match self.points[s].get(self.key.as_slice()) {
            Some(&at) => at,
            None => {
                self.points[s].insert(self.key.clone(), ms.len());
                ms.push(Measurement {
                    point: point.to_vec(),
                    values: Vec::new(),
                });
                ms.len() - 1
            }
        };
        ms[at].values.extend_from_slice(values);
    }

    pub(crate) fn finish(self) -> Experiment {
        Experiment {
            parameters: self.parameters,
            series: self.series,
        }
    }
}

/// The lines of `text` (with their line break) and the byte offset each starts at.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0, |base, line| {
        let start = *base;
        *base += line.len();
        Some((start, line))
    })
}

pub(crate) use diag::short;

/// The text without a leading byte-order mark.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Reads a number the way every reader does: a decimal or scientific literal, finite and
/// not subnormal.
pub(crate) fn number(s: &str) -> Result<f64, BadNumber> {
    value(s.parse::<f64>().map_err(|_| BadNumber::NotANumber)?)
}

/// Field `field` of a measurement file (named and held by `src`), at `range` of its text,
/// read as every reader reads a number; an error names the field, the column `column` and
/// the fix. The one number reader of every measurement format (fit's and the collective
/// tables').
///
/// ```
/// let src = ("t.csv", "p,time\n2,abc\n");
/// assert_eq!(fit::read::number_at(src, 7..8, "2", "p").unwrap(), 2.0);
/// let e = fit::read::number_at(src, 9..12, "abc", "time").unwrap_err();
/// assert!(e.message.starts_with("t.csv:2:3: `abc` in column `time` is not a number"));
/// ```
pub fn number_at(
    src: (&str, &str),
    range: std::ops::Range<usize>,
    field: &str,
    column: &str,
) -> Result<f64, ReadError> {
    number(field).map_err(|bad| {
        ReadError::at(
            bad.kind(),
            src,
            range,
            format!(
                "`{}` in column `{}` {}",
                short(field),
                short(column),
                bad.what()
            ),
        )
        .help(match bad {
            BadNumber::Subnormal => bad.help(),
            _ => "values are decimal numbers such as 12, 0.5 or 1.5e-3",
        })
    })
}

/// A value as every reader takes it: finite, and zero or of normal size (a subnormal
/// value, nonzero below `f64::MIN_POSITIVE` ≈ 2.2e-308, has lost precision, and its square,
/// which a relative-error fit divides by, is zero).
pub(crate) fn value(v: f64) -> Result<f64, BadNumber> {
    if !v.is_finite() {
        Err(BadNumber::NotFinite)
    } else if v.is_subnormal() {
        Err(BadNumber::Subnormal)
    } else {
        Ok(v)
    }
}

/// Why a field is not a value a reader takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BadNumber {
    /// Not a decimal or scientific literal.
    NotANumber,
    /// NaN or infinite.
    NotFinite,
    /// Finite and nonzero, but below the smallest normal `f64`.
    Subnormal,
}

impl BadNumber {
    /// The error's class.
    pub(crate) fn kind(self) -> ReadErrorKind {
        match self {
            BadNumber::NotANumber => ReadErrorKind::NotANumber,
            BadNumber::NotFinite => ReadErrorKind::NotFinite,
            BadNumber::Subnormal => ReadErrorKind::OutOfRange,
        }
    }

    /// What is wrong, after the value: "is not a number".
    pub(crate) fn what(self) -> &'static str {
        match self {
            BadNumber::NotANumber => "is not a number",
            BadNumber::NotFinite => "is not a finite number",
            BadNumber::Subnormal => {
                "is too small to model: nonzero but below 2.2e-308, the smallest normal \
                 double, where values lose precision"
            }
        }
    }

    /// How to fix it.
    pub(crate) fn help(self) -> &'static str {
        match self {
            BadNumber::Subnormal => {
                "give the values in a smaller unit (e.g. ns rather than s), or write 0 for a \
                 value that is zero"
            }
            _ => "values are decimal numbers such as 12, 0.5 or 1.5e-3",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request<'a>(name: &str, params: &'a [String], metrics: &'a [String]) -> Request<'a> {
        Request::of_path(std::path::Path::new(name), None, params, metrics)
    }

    #[test]
    fn a_request_guesses_the_format_and_says_which_columns_it_took() {
        let l = request("runs.dat", &[], &[])
            .read("p,time\n1,2\n2,4\n4,8\n")
            .unwrap();
        assert_eq!(l.format, Format::Csv);
        assert_eq!(
            l.guessed.as_deref(),
            Some("reading the CSV columns `p` as parameters and `time` as metrics")
        );
        let text = "PARAMETER p\nPOINTS 1 2\nREGION r\nMETRIC time\nDATA 1\nDATA 2\n";
        let metrics = ["time".to_string()];
        let l = request("x.txt", &[], &metrics).read(text).unwrap();
        assert_eq!(
            (l.format, l.guessed, l.metrics),
            (Format::Text, None, metrics.to_vec())
        );
    }

    #[test]
    fn a_request_names_the_input_that_is_wrong() {
        let metrics = ["tme".to_string()];
        let e = request("r.csv", &[], &metrics)
            .read("p,time\n1,2\n")
            .unwrap_err();
        assert_eq!(e.input(), Some(("metric", ": ")));
        assert!(
            e.to_string()
                .contains("no column `tme`; did you mean `time`?"),
            "{e}"
        );
        let params = ["q".to_string()];
        let e = request("r.csv", &params, &[])
            .read("p,time\n1,2\n")
            .unwrap_err();
        assert_eq!(e.input(), Some(("param", ": ")));
        let text = "PARAMETER p\nPOINTS 1\nREGION r\nMETRIC time\nDATA 1\n";
        let params = ["p".to_string()];
        let e = request("x.txt", &params, &[]).read(text).unwrap_err();
        assert!(matches!(e, LoadError::ParamsNeedCsv));
        assert_eq!(e.input(), Some(("param", " ")));
        assert_eq!(diag::Choice::name(Format::Jsonl), "jsonl");
    }
}
