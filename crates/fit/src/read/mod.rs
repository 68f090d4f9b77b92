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

/// The formats the readers read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Extra-P's text format.
    Text,
    /// Extra-P's JSON Lines.
    Jsonl,
    /// CSV with one row per run.
    Csv,
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
    /// When none is left: a message (for a person) listing the callpaths and metrics the
    /// experiment has, with the closest name to a missing one.
    pub fn select(&mut self, callpath: Option<&str>, metrics: &[String]) -> Result<(), String> {
        let (all_callpaths, all_metrics): (Vec<String>, Vec<String>) = (
            self.callpaths().into_iter().map(String::from).collect(),
            self.metrics().into_iter().map(String::from).collect(),
        );
        self.series.retain(|s| {
            callpath.is_none_or(|c| s.callpath == c)
                && (metrics.is_empty() || metrics.contains(&s.metric))
        });
        if !self.series.is_empty() {
            return Ok(());
        }
        let closest = |name: &str, known: &[String]| {
            diag::did_you_mean(&diag::suggest(name, known.iter().map(String::as_str)))
        };
        let hint = match (callpath, metrics.first()) {
            (Some(c), _) if !all_callpaths.iter().any(|k| k == c) => closest(c, &all_callpaths),
            (_, Some(m)) if !all_metrics.contains(m) => closest(m, &all_metrics),
            _ => None,
        };
        let list = |v: &[String]| {
            v.iter()
                .take(20)
                .map(|s| format!("`{}`", short(s)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        Err(format!(
            "no series matches; the file has callpaths {} and metrics {}{}",
            list(&all_callpaths),
            list(&all_metrics),
            hint.map(|h| format!("; {h}")).unwrap_or_default()
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
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0, |base, line| {
        let start = *base;
        *base += line.len();
        Some((start, line))
    })
}

pub(crate) use diag::short;

/// The text without a leading byte-order mark.
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Reads a number the way every reader does: a decimal or scientific literal, finite.
pub(crate) fn number(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}
