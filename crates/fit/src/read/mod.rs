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

/// A word of the input as a message quotes it: at most 40 characters, the rest elided (a
/// 10 MB token must not make a 10 MB message).
pub(crate) fn short(w: &str) -> String {
    const MAX: usize = 40;
    match w.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &w[..cut]),
        None => w.to_string(),
    }
}

/// The text without a leading byte-order mark.
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Reads a number the way every reader does: a decimal or scientific literal, finite.
pub(crate) fn number(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}
