//! The search Extra-P 4.2.5's default single-parameter modeler makes
//! (`modelers/single_parameter/basic.py`): the `extrap` modeler for one parameter.

use super::blocks::BlockOptions;
use super::term::{Factor, Term};
use crate::model::{smape, Basis, Fitted, Measurement, Model, ModelTerm, Quality};
use crate::FitError;

/// A term must contribute at least this fraction of some measurement (Extra-P's ε).
pub(crate) const MIN_CONTRIBUTION: f64 = 0.0005;

/// Options of the `extrap` modeler.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtrapOptions {
    /// The building blocks.
    pub blocks: BlockOptions,
}

/// Checks measurements of `dims` parameters: at least one, each with values, every number
/// finite.
pub(crate) fn check(ms: &[Measurement], dims: usize) -> Result<(), FitError> {
    if ms.is_empty() {
        return Err(FitError::Empty {
            rows: 0,
            columns: dims,
        });
    }
    for (i, m) in ms.iter().enumerate() {
        if m.values.is_empty() {
            return Err(FitError::NoValues { measurement: i });
        }
        if m.point.len() != dims {
            return Err(FitError::Dimensions {
                measurement: i,
                len: m.point.len(),
                expected: dims,
            });
        }
        if let Some(&v) = m.point.iter().chain(&m.values).find(|v| !v.is_finite()) {
            return Err(FitError::NotFinite {
                what: "measurement",
                index: i,
                value: v,
            });
        }
    }
    Ok(())
}

/// Running sums of a straight-line fit `y ≈ c0 + c1·t`, centred for accuracy.
#[derive(Clone, Copy, Debug)]
struct Line {
    n: f64,
    t_mean: f64,
    y_mean: f64,
    stt: f64,
    sty: f64,
}

impl Line {
    fn fit(t: &[f64], y: &[f64], skip: Option<usize>) -> Line {
        let keep = |i: &usize| Some(*i) != skip;
        let n = (0..t.len()).filter(keep).count() as f64;
        let t_mean = (0..t.len()).filter(keep).map(|i| t[i]).sum::<f64>() / n;
        let y_mean = (0..t.len()).filter(keep).map(|i| y[i]).sum::<f64>() / n;
        let (mut stt, mut sty) = (0.0, 0.0);
        for i in (0..t.len()).filter(keep) {
            stt += (t[i] - t_mean) * (t[i] - t_mean);
            sty += (t[i] - t_mean) * (y[i] - y_mean);
        }
        Line {
            n,
            t_mean,
            y_mean,
            stt,
            sty,
        }
    }

    /// The sums without point `(t, y)`, or `None` when removing it cancels most of `stt`
    /// (then the caller refits from scratch).
    fn without(&self, t: f64, y: f64) -> Option<Line> {
        let m = self.n - 1.0;
        let f = self.n / m;
        let (dt, dy) = (t - self.t_mean, y - self.y_mean);
        let stt = self.stt - f * dt * dt;
        (stt > 1e-6 * self.stt).then(|| Line {
            n: m,
            t_mean: (self.n * self.t_mean - t) / m,
            y_mean: (self.n * self.y_mean - y) / m,
            stt,
            sty: self.sty - f * dt * dy,
        })
    }

    /// `(c0, c1)`: the least-squares line, or the minimum-norm solution when `t` is
    /// constant over the points (as `numpy.linalg.lstsq` gives).
    fn coefficients(&self) -> (f64, f64) {
        let scale = self.stt + self.n * self.t_mean * self.t_mean;
        if self.stt <= f64::EPSILON * self.n * scale {
            let k = self.t_mean;
            let c = self.y_mean / (1.0 + k * k);
            return (c, c * k);
        }
        let c1 = self.sty / self.stt;
        (self.y_mean - c1 * self.t_mean, c1)
    }
}

/// The one-term hypothesis `c0 + c1·term` scored as Extra-P scores it: leave-one-out RSS and
/// SMAPE (with the constant cleared where it is negligible), then refitted on all points.
struct Scored {
    c0: f64,
    c1: f64,
    rss: f64,
    smape: f64,
}

fn score(t: &[f64], y: &[f64], min2: (usize, f64, f64)) -> Scored {
    let n = y.len();
    let all = Line::fit(t, y, None);
    let (mut rss, mut sm) = (0.0, 0.0);
    for k in 0..n {
        let fold = all
            .without(t[k], y[k])
            .unwrap_or_else(|| Line::fit(t, y, Some(k)));
        let (mut c0, c1) = fold.coefficients();
        let min = if k == min2.0 { min2.2 } else { min2.1 };
        let negligible = if min == 0.0 {
            c0.abs() < MIN_CONTRIBUTION
        } else {
            (c0 / min).abs() < MIN_CONTRIBUTION
        };
        if negligible {
            c0 = 0.0;
        }
        let p = c0 + c1 * t[k];
        rss += (p - y[k]) * (p - y[k]);
        if y[k].abs() + p.abs() != 0.0 {
            sm += 2.0 * (p - y[k]).abs() / (y[k].abs() + p.abs()) * 100.0 / n as f64;
        }
    }
    let (c0, c1) = all.coefficients();
    Scored {
        c0,
        c1,
        rss,
        smape: sm,
    }
}

/// The index of the smallest value, the smallest and the second smallest.
fn two_smallest(y: &[f64]) -> (usize, f64, f64) {
    let (mut at, mut a, mut b) = (0, f64::INFINITY, f64::INFINITY);
    for (i, &v) in y.iter().enumerate() {
        if v < a {
            (at, b, a) = (i, a, v);
        } else if v < b {
            b = v;
        }
    }
    (at, a, b)
}

/// The largest `|c·term(x)/y|` over the points: how much of some measurement the term
/// explains (NaN ratios, from `y = 0`, are ignored).
pub(crate) fn contribution(c: f64, t: &[f64], y: &[f64]) -> f64 {
    t.iter()
        .zip(y)
        .map(|(&ti, &yi)| (c * ti / yi).abs())
        .fold(0.0f64, |a, b| if b.is_nan() { a } else { a.max(b) })
}

/// The model Extra-P's default single-parameter modeler chooses for measurements of one
/// parameter: the constant (the mean of the means) unless some one-term hypothesis, in the
/// blocks' order, has a lower leave-one-out SMAPE than the constant's in-sample SMAPE and
/// contributes at least 0.05% of some measurement; the first of equal SMAPE wins. Log
/// blocks are left out when some x is below 1. The quality of a term model is its
/// leave-one-out RSS and SMAPE and the adjusted R² `1 − (RSS/TSS)·(n−1)/(n−2)` from them.
///
/// # Errors
/// [`FitError::Empty`] without measurements; [`FitError::NoValues`],
/// [`FitError::Dimensions`] or [`FitError::NotFinite`] for a bad measurement.
pub fn extrap_single(ms: &[Measurement], opts: &ExtrapOptions) -> Result<Fitted, FitError> {
    check(ms, 1)?;
    let x: Vec<f64> = ms.iter().map(|m| m.point[0]).collect();
    let y: Vec<f64> = ms.iter().map(Measurement::mean).collect();
    Ok(search_line(&x, &y, opts))
}

/// [`extrap_single`] on the means `y` at `x`.
pub(crate) fn search_line(x: &[f64], y: &[f64], opts: &ExtrapOptions) -> Fitted {
    let n = y.len();
    let mean = y.iter().sum::<f64>() / n as f64;
    let tss: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    let mut best = Fitted {
        model: Model::constant(mean),
        quality: Quality {
            rss: tss,
            smape: smape(y, &vec![mean; n]),
            adjusted_r2: 0.0,
            cv: None,
        },
    };
    if tss == 0.0 || n < 2 {
        return best;
    }
    let logs = opts.blocks.logs_usable(x.iter().copied());
    let min2 = two_smallest(y);
    let mut t = vec![0.0; n];
    let mut best_smape = best.quality.smape;
    for term in opts.blocks.blocks() {
        if term.has_log() && !logs {
            continue;
        }
        for (ti, &xi) in t.iter_mut().zip(x) {
            *ti = term.eval(xi);
        }
        if t.iter().any(|v| !v.is_finite()) {
            continue;
        }
        let s = score(&t, y, min2);
        if !s.rss.is_finite() || s.c1 == 0.0 || contribution(s.c1, &t, y) < MIN_CONTRIBUTION {
            continue;
        }
        if s.smape < best_smape {
            best_smape = s.smape;
            best = Fitted {
                model: one_term(s.c0, s.c1, 0, term),
                quality: Quality {
                    rss: s.rss,
                    smape: s.smape,
                    adjusted_r2: if n > 2 {
                        1.0 - (s.rss / tss) * (n as f64 - 1.0) / (n as f64 - 2.0)
                    } else {
                        f64::NAN
                    },
                    cv: Some(s.smape),
                },
            };
        }
    }
    best
}

/// `c0 + c1·term(x_param)`.
pub(crate) fn one_term(c0: f64, c1: f64, param: usize, term: Term) -> Model {
    Model {
        constant: c0,
        terms: vec![ModelTerm {
            coefficient: c1,
            basis: Basis::Pmnf(vec![Factor { param, term }]),
        }],
    }
}
