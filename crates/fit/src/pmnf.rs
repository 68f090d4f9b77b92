//! Performance-model normal form, one parameter: hypotheses `c0 + c1·x^i·log2(x)^j`, and the
//! search Extra-P's default single-parameter modeler makes over them (Extra-P 4.2.5,
//! `modelers/single_parameter/basic.py`): the `extrap` modeler.

use std::fmt;

use crate::{least_squares, Design, FitError};

/// An exponent `num/den`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Exponent {
    /// Numerator.
    pub num: i32,
    /// Denominator (positive).
    pub den: i32,
}

impl Exponent {
    const fn new(num: i32, den: i32) -> Self {
        Exponent { num, den }
    }

    /// The value.
    pub fn value(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }
}

impl fmt::Display for Exponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// One building block `x^poly · log2(x)^log`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Term {
    /// The polynomial exponent.
    pub poly: Exponent,
    /// The exponent of `log2(x)`.
    pub log: i32,
}

impl Term {
    /// The term's value at `x`.
    pub fn eval(self, x: f64) -> f64 {
        let mut v = if self.poly.num == 0 {
            1.0
        } else {
            x.powf(self.poly.value())
        };
        if self.log != 0 {
            v *= x.log2().powi(self.log);
        }
        v
    }
}

impl fmt::Display for Term {
    /// Extra-P's notation: `x^(3/2) * log2(x)^(1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.poly.num != 0 {
            parts.push(format!("x^({})", self.poly));
        }
        if self.log != 0 {
            parts.push(format!("log2(x)^({})", self.log));
        }
        f.write_str(&parts.join(" * "))
    }
}

const fn t(num: i32, den: i32, log: i32) -> Term {
    Term {
        poly: Exponent::new(num, den),
        log,
    }
}

/// Extra-P's 42 default building blocks, in its search order (which decides ties).
pub const DEFAULT_BLOCKS: [Term; 42] = [
    t(0, 1, 1),
    t(0, 1, 2),
    t(1, 4, 0),
    t(1, 3, 0),
    t(1, 4, 1),
    t(1, 3, 1),
    t(1, 4, 2),
    t(1, 3, 2),
    t(1, 2, 0),
    t(1, 2, 1),
    t(1, 2, 2),
    t(2, 3, 0),
    t(3, 4, 0),
    t(2, 3, 1),
    t(3, 4, 1),
    t(4, 5, 0),
    t(2, 3, 2),
    t(3, 4, 2),
    t(1, 1, 0),
    t(1, 1, 1),
    t(1, 1, 2),
    t(5, 4, 0),
    t(5, 4, 1),
    t(4, 3, 0),
    t(4, 3, 1),
    t(3, 2, 0),
    t(3, 2, 1),
    t(3, 2, 2),
    t(5, 3, 0),
    t(7, 4, 0),
    t(2, 1, 0),
    t(2, 1, 1),
    t(2, 1, 2),
    t(9, 4, 0),
    t(7, 3, 0),
    t(5, 2, 0),
    t(5, 2, 1),
    t(5, 2, 2),
    t(8, 3, 0),
    t(11, 4, 0),
    t(3, 1, 0),
    t(3, 1, 1),
];

/// Measurements at one value of the parameter: its repetitions.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The parameter's value.
    pub x: f64,
    /// The measured values (repetitions).
    pub values: Vec<f64>,
}

/// A one-parameter model `c0 + c1·term` (or the constant `c0`) with its quality.
#[derive(Clone, Debug, PartialEq)]
pub struct SingleModel {
    /// The constant.
    pub c0: f64,
    /// The term and its coefficient; `None` for the constant model.
    pub term: Option<(f64, Term)>,
    /// Residual sum of squares (leave-one-out for a term model, in-sample for the constant).
    pub rss: f64,
    /// Symmetric mean absolute percentage error, in percent (same convention).
    pub smape: f64,
    /// Adjusted R² from the leave-one-out RSS: `1 − (RSS/TSS)·(n−1)/(n−2)`.
    pub adjusted_r2: f64,
}

impl SingleModel {
    /// The model's value at `x`.
    pub fn eval(&self, x: f64) -> f64 {
        self.c0 + self.term.map_or(0.0, |(c, t)| c * t.eval(x))
    }
}

impl fmt::Display for SingleModel {
    /// `200 + 10 * x^(3/2) * log2(x)^(1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.term {
            None => write!(f, "{}", self.c0),
            Some((c, t)) => write!(f, "{} + {c} * {t}", self.c0),
        }
    }
}

/// Options of [`extrap_single`].
#[derive(Clone, Debug, PartialEq)]
pub struct ExtrapOptions {
    /// The building blocks, in search order (default: [`DEFAULT_BLOCKS`]).
    pub blocks: Vec<Term>,
}

impl Default for ExtrapOptions {
    fn default() -> Self {
        ExtrapOptions {
            blocks: DEFAULT_BLOCKS.to_vec(),
        }
    }
}

/// SMAPE in percent of `predicted` against `actual`: `100/n · Σ 2|p − a|/(|a| + |p|)`, terms
/// with a zero denominator left out of the sum but counted in n.
fn smape(actual: &[f64], predicted: &[f64]) -> f64 {
    let n = actual.len().max(1) as f64;
    actual
        .iter()
        .zip(predicted)
        .filter(|(a, p)| a.abs() + p.abs() != 0.0)
        .map(|(a, p)| 2.0 * (p - a).abs() / (a.abs() + p.abs()))
        .sum::<f64>()
        * 100.0
        / n
}

/// Fits `c0 + c1·term` to `(x, y)` by least squares.
fn fit_term(x: &[f64], y: &[f64], term: Term) -> Result<(f64, f64), FitError> {
    let rows: Vec<Vec<f64>> = x.iter().map(|&x| vec![1.0, term.eval(x)]).collect();
    let f = least_squares(&Design::from_rows(&rows)?, y)?;
    Ok((f.coefficients[0], f.coefficients[1]))
}

/// The model Extra-P's default single-parameter modeler chooses for `points`: the constant
/// unless some one-term hypothesis (in the blocks' order) has a lower leave-one-out SMAPE
/// than the constant's in-sample SMAPE and contributes at least 0.05% somewhere, the first
/// of equal SMAPE winning. Log blocks are left out when some x is below 1.
///
/// # Errors
/// [`FitError::Empty`] without points or with a point without values,
/// [`FitError::NotFinite`] for a value or x that is not finite.
pub fn extrap_single(points: &[Point], opts: &ExtrapOptions) -> Result<SingleModel, FitError> {
    if points.is_empty() || points.iter().any(|p| p.values.is_empty()) {
        return Err(FitError::Empty {
            rows: points.len(),
            columns: 1,
        });
    }
    for (i, p) in points.iter().enumerate() {
        if let Some(&v) = std::iter::once(&p.x)
            .chain(&p.values)
            .find(|v| !v.is_finite())
        {
            return Err(FitError::NotFinite {
                what: "point",
                index: i,
                value: v,
            });
        }
    }
    let x: Vec<f64> = points.iter().map(|p| p.x).collect();
    let y: Vec<f64> = points
        .iter()
        .map(|p| p.values.iter().sum::<f64>() / p.values.len() as f64)
        .collect();
    let n = y.len();
    let mean = y.iter().sum::<f64>() / n as f64;
    let tss: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    let mut best = SingleModel {
        c0: mean,
        term: None,
        rss: tss,
        smape: smape(&y, &vec![mean; n]),
        adjusted_r2: 0.0,
    };
    if tss == 0.0 || n < 2 {
        return Ok(best);
    }
    let logs_ok = x.iter().all(|&v| v >= 1.0);
    for &term in opts.blocks.iter().filter(|t| logs_ok || t.log == 0) {
        // Leave one out: fit on the others, predict the one left out.
        let (mut rss, mut sm) = (0.0, 0.0);
        for k in 0..n {
            let (tx, ty): (Vec<f64>, Vec<f64>) =
                (0..n).filter(|&i| i != k).map(|i| (x[i], y[i])).unzip();
            let (mut c0, c1) = fit_term(&tx, &ty, term)?;
            let min = ty.iter().copied().fold(f64::INFINITY, f64::min);
            let negligible = if min == 0.0 {
                c0.abs() < 0.0005
            } else {
                (c0 / min).abs() < 0.0005
            };
            if negligible {
                c0 = 0.0;
            }
            let p = c0 + c1 * term.eval(x[k]);
            rss += (p - y[k]) * (p - y[k]);
            if y[k].abs() + p.abs() != 0.0 {
                sm += 2.0 * (p - y[k]).abs() / (y[k].abs() + p.abs()) * 100.0 / n as f64;
            }
        }
        if !rss.is_finite() {
            continue;
        }
        let (c0, c1) = fit_term(&x, &y, term)?;
        // The term must contribute at least 0.05% of some measurement.
        let contribution = x
            .iter()
            .zip(&y)
            .map(|(&xi, &yi)| (c1 * term.eval(xi) / yi).abs())
            .fold(0.0f64, |a, b| if b.is_nan() { a } else { a.max(b) });
        if c1 == 0.0 || contribution < 0.0005 {
            continue;
        }
        if sm < best.smape {
            best = SingleModel {
                c0,
                term: Some((c1, term)),
                rss,
                smape: sm,
                adjusted_r2: if n > 2 {
                    1.0 - (rss / tss) * (n as f64 - 1.0) / (n as f64 - 2.0)
                } else {
                    f64::NAN
                },
            };
        }
    }
    Ok(best)
}
