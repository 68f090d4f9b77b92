//! Prediction by Eq 2.2 (`T = Σ cᵢ tᵢ`), the thesis' prediction difference
//! (`(predicted − measured) / measured × 100`, positive when the prediction is too high),
//! the summaries of Tables 2-8 and 2-9 (maximum, minimum, average magnitude and the
//! population SD of the magnitudes), and the Mflop/s baseline of Tables 2-10 and 2-11
//! (`flops / rate`).

use super::ops::{Counts, OpTimes};
use crate::Difference;
use expr::eval::EvalError;
use expr::Name;

/// The predicted time of a fragment with `counts` at `bindings` on a platform with `times`
/// (Eq 2.2), in seconds.
///
/// # Errors
/// An [`EvalError`] when a parameter of the counts is unbound.
pub fn predict(
    counts: &Counts,
    times: &OpTimes,
    bindings: &[(Name, f64)],
) -> Result<f64, EvalError> {
    Ok(times.time(&counts.at(bindings)?))
}

/// The prediction difference in percent of the measured time.
pub fn percent(predicted: f64, measured: f64) -> f64 {
    (predicted - measured) / measured * 100.0
}

/// The time `flops` floating-point operations take at `mflops` million per second (the
/// baseline of Table 2-11), in seconds.
pub fn flop_rate_time(flops: f64, mflops: f64) -> f64 {
    flops / (mflops * 1e6)
}

/// The geometric mean of positive values; `None` when there are none or one is not positive.
pub fn geometric_mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| !(*v > 0.0 && v.is_finite())) {
        return None;
    }
    Some((values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp())
}

/// A row of Tables 2-8, 2-9, 2-11, 2-15 to 2-17: the signed extremes of a set of prediction
/// differences, and the mean and population SD of their magnitudes.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// The largest signed difference (%).
    pub max: f64,
    /// The smallest signed difference (%).
    pub min: f64,
    /// Mean, population SD, largest and median magnitude (%), and the count.
    pub magnitude: Difference,
}

impl Summary {
    /// The summary of signed differences in percent; `None` for none.
    pub fn of_percent(diffs: &[f64]) -> Option<Summary> {
        if diffs.is_empty() {
            return None;
        }
        Some(Summary {
            max: diffs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            min: diffs.iter().copied().fold(f64::INFINITY, f64::min),
            magnitude: Difference::of(diffs.iter().map(|d| (100.0 + d, 100.0))),
        })
    }

    /// `[max, min, average magnitude, SD]`, the columns as the thesis prints them.
    pub fn row(&self) -> [f64; 4] {
        [self.max, self.min, self.magnitude.mean, self.magnitude.sd]
    }
}

/// One cell of a Table 2-7 style comparison: a fragment at a vector length, in a column
/// (a platform, or an optimisation level), predicted and measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Cell {
    /// The fragment's name.
    pub fragment: String,
    /// The vector length (the value of the fragment's parameter).
    pub n: i64,
    /// The column: a platform or an optimisation level.
    pub column: String,
    /// The predicted time, seconds.
    pub predicted: f64,
    /// The measured time, seconds.
    pub measured: f64,
}

impl Cell {
    /// The prediction difference, percent.
    pub fn percent(&self) -> f64 {
        percent(self.predicted, self.measured)
    }
}

/// Table 2-7's cells and their summaries by fragment (Table 2-8) and by column (Table 2-9).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Comparison {
    /// The cells, in the order they were added.
    pub cells: Vec<Cell>,
}

impl Comparison {
    /// The summary of the cells that `keep` selects.
    pub fn summary(&self, keep: impl Fn(&Cell) -> bool) -> Option<Summary> {
        let d: Vec<f64> = self
            .cells
            .iter()
            .filter(|c| keep(c))
            .map(Cell::percent)
            .collect();
        Summary::of_percent(&d)
    }

    /// Distinct values of `key` in first-seen order.
    fn keys(&self, key: impl Fn(&Cell) -> &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for c in &self.cells {
            if !out.iter().any(|k| k == key(c)) {
                out.push(key(c).to_string());
            }
        }
        out
    }

    /// Summaries by fragment (Table 2-8).
    pub fn by_fragment(&self) -> Vec<(String, Summary)> {
        self.keys(|c| &c.fragment)
            .into_iter()
            .filter_map(|f| Some((f.clone(), self.summary(|c| c.fragment == f)?)))
            .collect()
    }

    /// Summaries by column (Table 2-9).
    pub fn by_column(&self) -> Vec<(String, Summary)> {
        self.keys(|c| &c.column)
            .into_iter()
            .filter_map(|k| Some((k.clone(), self.summary(|c| c.column == k)?)))
            .collect()
    }

    /// The same cells with each prediction replaced by the Mflop/s baseline: `flops` of a
    /// cell divided by the rate of its column (`rate(cell)` in Mflop/s). Tables 2-10, 2-11.
    pub fn baseline(
        &self,
        flops: impl Fn(&Cell) -> f64,
        rate: impl Fn(&Cell) -> f64,
    ) -> Comparison {
        Comparison {
            cells: self
                .cells
                .iter()
                .map(|c| Cell {
                    predicted: flop_rate_time(flops(c), rate(c)),
                    ..c.clone()
                })
                .collect(),
        }
    }
}
