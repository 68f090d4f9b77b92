//! The `vates` modeler: a PMNF search made to extrapolate.
//!
//! Extra-P fits one term to the means by unweighted least squares and picks it by
//! leave-one-out SMAPE. Two things then go wrong beyond the measured range: a second term
//! that is small where the program was measured but dominates at scale is lost, and the
//! largest measurements decide the fit, so the shape at the small sizes, which the growth
//! rate is read from, is fitted worst. The `vates` modeler
//!
//! * fits **relative errors**: weighted least squares on the means with weights
//!   `reps/ȳ²` (each point counts by its repetitions, and a 5% miss is a 5% miss at
//!   every size);
//! * tries hypotheses of **up to two terms** `c0 + c1·b1 + c2·b2` over the building blocks
//!   (and user bases), the two terms of the same sign, each contributing at least 0.5%
//!   somewhere, the pair not collinear over the data;
//! * scores each by its **leave-one-out relative error** (exact, from the hat matrix of the
//!   weighted fit), and charges each extra term a **complexity penalty**: a hypothesis with
//!   more terms wins only if its error is lower by more than the penalty.

use super::model::{smape, Basis, Fitted, Measurement, Model, ModelTerm, Quality};
use super::pmnf::{BlockOptions, Factor};
use crate::pmnf::Term;
use crate::FitError;

/// Options of the `vates` modeler.
#[derive(Clone, Debug, PartialEq)]
pub struct VatesOptions {
    /// The building blocks.
    pub blocks: BlockOptions,
    /// At most this many terms besides the constant (1 or 2; default 2).
    pub max_terms: usize,
    /// Each extra term must lower the leave-one-out error by this fraction (default 0.1).
    pub penalty: f64,
    /// A bigger hypothesis is considered only when the smaller one's lack of fit against
    /// the repetitions' noise has a p-value below this (default 0.01).
    pub significance: f64,
    /// Fit relative errors (weights `reps/ȳ²`; default) or absolute ones (weights `reps`).
    pub relative: bool,
    /// How many runner-up hypotheses to keep (default 4).
    pub alternatives: usize,
}

impl Default for VatesOptions {
    fn default() -> Self {
        VatesOptions {
            blocks: BlockOptions::default(),
            max_terms: 2,
            penalty: 0.1,
            significance: 0.01,
            relative: true,
            alternatives: 4,
        }
    }
}

/// A chosen model and the best hypotheses it was chosen over.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// The chosen model.
    pub best: Fitted,
    /// The runner-up hypotheses, best first (by the penalised error).
    pub alternatives: Vec<Fitted>,
}

/// A term must explain at least this fraction of some measurement.
const MIN_SHARE: f64 = 0.005;

/// A weighted least-squares fit of the means on `[1, columns...]` with its exact
/// leave-one-out residuals.
struct Wls {
    coef: Vec<f64>,
    pred: Vec<f64>,
    loo: Vec<f64>,
}

/// Solves the weighted problem by Cholesky on the column-scaled Gram matrix; `None` when
/// the columns are collinear over the data (or a point alone decides the fit).
fn wls(cols: &[&[f64]], y: &[f64], w: &[f64]) -> Option<Wls> {
    let n = y.len();
    let k = cols.len() + 1;
    if n <= k {
        return None;
    }
    let col = |j: usize, i: usize| if j == 0 { 1.0 } else { cols[j - 1][i] };
    let norm: Vec<f64> = (0..k)
        .map(|j| {
            (0..n)
                .map(|i| w[i] * col(j, i) * col(j, i))
                .sum::<f64>()
                .sqrt()
        })
        .collect();
    if norm
        .iter()
        .any(|&v| v.is_nan() || v <= 0.0 || v.is_infinite())
    {
        return None;
    }
    let mut g = vec![0.0; k * k];
    let mut b = vec![0.0; k];
    for i in 0..n {
        for a in 0..k {
            let xa = col(a, i) / norm[a];
            b[a] += w[i] * xa * y[i];
            for c in 0..=a {
                g[a * k + c] += w[i] * xa * col(c, i) / norm[c];
            }
        }
    }
    // Cholesky G = L·Lᵀ (lower triangle in place); the scaled Gram has a unit diagonal, so
    // a tiny pivot means collinear columns.
    for a in 0..k {
        for c in 0..=a {
            let mut s = g[a * k + c];
            for m in 0..c {
                s -= g[a * k + m] * g[c * k + m];
            }
            if a == c {
                if s <= 1e-10 {
                    return None;
                }
                g[a * k + a] = s.sqrt();
            } else {
                g[a * k + c] = s / g[c * k + c];
            }
        }
    }
    let solve = |rhs: &mut [f64]| {
        for a in 0..k {
            let mut s = rhs[a];
            for m in 0..a {
                s -= g[a * k + m] * rhs[m];
            }
            rhs[a] = s / g[a * k + a];
        }
        for a in (0..k).rev() {
            let mut s = rhs[a];
            for m in a + 1..k {
                s -= g[m * k + a] * rhs[m];
            }
            rhs[a] = s / g[a * k + a];
        }
    };
    let mut z = b;
    solve(&mut z);
    let coef: Vec<f64> = z.iter().zip(&norm).map(|(z, s)| z / s).collect();
    let mut pred = vec![0.0; n];
    let mut loo = vec![0.0; n];
    let mut v = vec![0.0; k];
    for i in 0..n {
        pred[i] = (0..k).map(|j| coef[j] * col(j, i)).sum();
        // h_ii = w_i · x̃_iᵀ G⁻¹ x̃_i with x̃ the scaled row: ‖L⁻¹ x̃_i‖² · w_i.
        for (j, vj) in v.iter_mut().enumerate() {
            *vj = col(j, i) / norm[j];
        }
        for a in 0..k {
            let mut s = v[a];
            for m in 0..a {
                s -= g[a * k + m] * v[m];
            }
            v[a] = s / g[a * k + a];
        }
        let h = w[i] * v.iter().map(|x| x * x).sum::<f64>();
        if h >= 1.0 - 1e-9 {
            return None;
        }
        loo[i] = (y[i] - pred[i]) / (1.0 - h);
    }
    Some(Wls { coef, pred, loo })
}

/// One scored hypothesis.
struct Scored {
    bases: Vec<Basis>,
    fit: Wls,
    /// Root mean square leave-one-out relative error.
    cv: f64,
    /// The penalised score.
    score: f64,
}

/// Per measurement: the mean, the number of repetitions, and the repetitions' sum of
/// squared deviations from the mean.
fn moments(ms: &[Measurement]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let y: Vec<f64> = ms.iter().map(Measurement::mean).collect();
    let reps: Vec<f64> = ms.iter().map(|m| m.values.len() as f64).collect();
    let spread: Vec<f64> = ms
        .iter()
        .zip(&y)
        .map(|(m, &mean)| m.values.iter().map(|v| (v - mean) * (v - mean)).sum())
        .collect();
    (y, reps, spread)
}

/// The `vates` model of measurements of one parameter.
///
/// # Errors
/// [`FitError::Empty`] without measurements; [`FitError::NoValues`],
/// [`FitError::Dimensions`] or [`FitError::NotFinite`] for a bad measurement.
pub fn vates_single(ms: &[Measurement], opts: &VatesOptions) -> Result<Search, FitError> {
    crate::pmnf::check_measurements(ms, 1)?;
    let x: Vec<f64> = ms.iter().map(|m| m.point[0]).collect();
    let (y, reps, spread) = moments(ms);
    let blocks: Vec<Term> = {
        let logs = opts.blocks.logs_usable(x.iter().copied());
        opts.blocks
            .blocks()
            .into_iter()
            .filter(|t| logs || !t.has_log())
            .collect()
    };
    let columns: Vec<(Basis, Vec<f64>)> = blocks
        .iter()
        .map(|&term| {
            let b = Basis::Pmnf(vec![Factor { param: 0, term }]);
            let v: Vec<f64> = x.iter().map(|&xi| term.eval(xi)).collect();
            (b, v)
        })
        .filter(|(_, v)| v.iter().all(|c| c.is_finite()))
        .collect();
    Ok(search(&columns, &y, &reps, &spread, opts))
}

/// The search over hypotheses built from `columns` (basis functions with their values at
/// the points) for the means `y` with `reps` repetitions each.
pub(crate) fn search(
    columns: &[(Basis, Vec<f64>)],
    y: &[f64],
    reps: &[f64],
    spread: &[f64],
    opts: &VatesOptions,
) -> Search {
    let n = y.len();
    let relative = opts.relative && y.iter().all(|&v| v > 0.0);
    let w: Vec<f64> = y
        .iter()
        .zip(reps)
        .map(|(&v, &r)| if relative { r / (v * v) } else { r })
        .collect();
    let scale: Vec<f64> = y.iter().map(|&v| if relative { v } else { 1.0 }).collect();
    // The pure error: the repetitions' squared deviations from their means, weighted as the
    // means are (per repetition), with its degrees of freedom.
    let dof_pe: f64 = reps.iter().map(|r| r - 1.0).sum();
    let pure_error = (dof_pe > 0.0).then(|| {
        let ss: f64 = (0..n).map(|i| w[i] / reps[i] * spread[i]).sum();
        (ss, dof_pe)
    });
    let wsum: f64 = w.iter().sum();
    let mean = y.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>() / wsum;
    let tss: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    let rel_cv = |loo: &[f64]| -> f64 {
        (loo.iter()
            .zip(&scale)
            .map(|(e, s)| (e / s) * (e / s))
            .sum::<f64>()
            / n as f64)
            .sqrt()
    };
    // The constant model's leave-one-out errors: y_i − mean of the others (weighted).
    let constant_loo: Vec<f64> = (0..n)
        .map(|i| {
            let m = (wsum * mean - w[i] * y[i]) / (wsum - w[i]);
            y[i] - m
        })
        .collect();
    let c_cv = if n > 1 { rel_cv(&constant_loo) } else { 0.0 };
    let mut scored: Vec<Scored> = vec![Scored {
        bases: Vec::new(),
        fit: Wls {
            coef: vec![mean],
            pred: vec![mean; n],
            loo: constant_loo,
        },
        cv: c_cv,
        score: c_cv,
    }];
    let penalty = |terms: usize, cv: f64| cv * (1.0 + opts.penalty).powi(terms as i32);
    let contributes = |c: f64, v: &[f64]| {
        v.iter()
            .zip(y)
            .any(|(&vi, &yi)| (c * vi / yi).abs() >= MIN_SHARE)
    };
    if tss > 0.0 {
        for (a, (ba, va)) in columns.iter().enumerate() {
            if let Some(fit) = wls(&[va], y, &w) {
                if fit.coef[1] != 0.0 && contributes(fit.coef[1], va) {
                    let cv = rel_cv(&fit.loo);
                    scored.push(Scored {
                        bases: vec![ba.clone()],
                        score: penalty(1, cv),
                        fit,
                        cv,
                    });
                }
            }
            if opts.max_terms < 2 {
                continue;
            }
            for (bb, vb) in &columns[a + 1..] {
                let Some(fit) = wls(&[va, vb], y, &w) else {
                    continue;
                };
                let (c1, c2) = (fit.coef[1], fit.coef[2]);
                if c1 * c2 <= 0.0 || !contributes(c1, va) || !contributes(c2, vb) {
                    continue;
                }
                let cv = rel_cv(&fit.loo);
                scored.push(Scored {
                    bases: vec![ba.clone(), bb.clone()],
                    score: penalty(2, cv),
                    fit,
                    cv,
                });
            }
        }
    }
    scored.retain(|s| s.score.is_finite());
    // The lack-of-fit test against the repetitions' pure error: does the hypothesis miss the
    // means by more than the noise explains?
    let misfit = |s: &Scored| -> f64 {
        let Some((ss_pe, dof_pe)) = pure_error else {
            return 0.0;
        };
        let dof = n as f64 - s.bases.len() as f64 - 1.0;
        if dof <= 0.0 || ss_pe <= 0.0 {
            return if ss_pe <= 0.0 { 0.0 } else { 1.0 };
        }
        let ss: f64 = (0..n)
            .map(|i| w[i] * (y[i] - s.fit.pred[i]) * (y[i] - s.fit.pred[i]))
            .sum();
        crate::stats::f_sf((ss / dof) / (ss_pe / dof_pe), dof, dof_pe)
    };
    // The best hypothesis of each size; a bigger one is taken only when the smaller one
    // misses the data by more than the noise (when repetitions tell) and the bigger one's
    // leave-one-out error is lower by more than the penalty.
    let best_of = |k: usize| {
        scored
            .iter()
            .enumerate()
            .filter(|(_, s)| s.bases.len() == k)
            .min_by(|a, b| a.1.cv.total_cmp(&b.1.cv))
            .map(|(i, _)| i)
    };
    let mut chosen = 0;
    for k in 1..=opts.max_terms {
        let Some(i) = best_of(k) else { continue };
        let lack = misfit(&scored[chosen]) < opts.significance;
        if lack && scored[i].cv * (1.0 + opts.penalty) < scored[chosen].cv {
            chosen = i;
        }
    }
    let chosen = scored.swap_remove(chosen);
    scored.sort_by(|a, b| a.cv.total_cmp(&b.cv));
    let to_fitted = |s: &Scored| {
        let model = Model {
            constant: s.fit.coef[0],
            terms: s
                .bases
                .iter()
                .zip(&s.fit.coef[1..])
                .map(|(b, &c)| ModelTerm {
                    coefficient: c,
                    basis: b.clone(),
                })
                .collect(),
        };
        let rss: f64 = s
            .fit
            .pred
            .iter()
            .zip(y)
            .map(|(p, a)| (p - a) * (p - a))
            .sum();
        let k = s.bases.len() as f64;
        Fitted {
            model,
            quality: Quality {
                rss,
                smape: smape(y, &s.fit.pred),
                adjusted_r2: if tss > 0.0 && n as f64 > k + 1.0 {
                    1.0 - (rss / tss) * (n as f64 - 1.0) / (n as f64 - k - 1.0)
                } else {
                    f64::NAN
                },
                cv: Some(s.cv),
            },
        }
    };
    let best = to_fitted(&chosen);
    let alternatives = scored
        .iter()
        .take(opts.alternatives)
        .map(to_fitted)
        .collect();
    Search { best, alternatives }
}

/// The `vates` model of measurements of `dims` parameters. One parameter is
/// [`vates_single`]. Otherwise, as Extra-P's multi-parameter search: each parameter gets a
/// `vates` model on its line of points; the parameters whose model is not constant are kept
/// with their fastest-growing term; the hypotheses are their product, their sum and the mixed
/// forms, each fitted on every point by relative-error weighted least squares and chosen by
/// leave-one-out relative error.
///
/// # Errors
/// As [`vates_single`].
pub fn vates(ms: &[Measurement], dims: usize, opts: &VatesOptions) -> Result<Search, FitError> {
    crate::pmnf::check_measurements(ms, dims)?;
    if dims == 1 {
        return vates_single(ms, opts);
    }
    let means: Vec<f64> = ms.iter().map(Measurement::mean).collect();
    let mut kept: Vec<Factor> = Vec::new();
    for p in 0..dims {
        let line: Vec<Measurement> = crate::pmnf::line(ms, &means, p)
            .into_iter()
            .map(|(x, v)| Measurement::one(x, vec![v]))
            .collect();
        let single = vates_single(&line, opts)?;
        let fastest = single.best.model.terms.iter().max_by(|a, b| {
            a.basis
                .growth()
                .partial_cmp(&b.basis.growth())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        if let Some(Basis::Pmnf(f)) = fastest.map(|t| &t.basis) {
            kept.push(Factor {
                param: p,
                term: f[0].term,
            });
        }
    }
    let (_, reps, spread) = moments(ms);
    let hyps: Vec<Vec<Basis>> = if kept.len() == 1 {
        vec![vec![Basis::Pmnf(kept.clone())]]
    } else if kept.is_empty() {
        Vec::new()
    } else {
        crate::pmnf::hypotheses(&kept)
    };
    // Each hypothesis is one candidate "column set"; reuse the search on precomputed columns
    // by scoring every hypothesis as a whole.
    let mut all: Vec<Fitted> = hyps
        .iter()
        .map(|h| {
            let cols: Vec<Vec<f64>> = h
                .iter()
                .map(|b| ms.iter().map(|m| b.eval(&m.point)).collect())
                .collect();
            score_fixed(h, &cols, &means, &reps, &spread, opts).best
        })
        .collect();
    if all.is_empty() {
        return Ok(search(&[], &means, &reps, &spread, opts));
    }
    all.sort_by(|a, b| {
        let cv = |f: &Fitted| f.quality.cv.unwrap_or(f64::INFINITY);
        cv(a).total_cmp(&cv(b))
    });
    let best = all.remove(0);
    all.truncate(opts.alternatives);
    Ok(Search {
        best,
        alternatives: all,
    })
}

/// Scores one fixed hypothesis (all of `bases` together) as [`search`] scores its candidates.
fn score_fixed(
    bases: &[Basis],
    cols: &[Vec<f64>],
    y: &[f64],
    reps: &[f64],
    spread: &[f64],
    opts: &VatesOptions,
) -> Search {
    let relative = opts.relative && y.iter().all(|&v| v > 0.0);
    let w: Vec<f64> = y
        .iter()
        .zip(reps)
        .map(|(&v, &r)| if relative { r / (v * v) } else { r })
        .collect();
    let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
    let Some(fit) = wls(&refs, y, &w) else {
        // Collinear over the points: fall back to the constant.
        return search(&[], y, reps, spread, opts);
    };
    let n = y.len() as f64;
    let scale = |i: usize| if relative { y[i] } else { 1.0 };
    let cv = (fit
        .loo
        .iter()
        .enumerate()
        .map(|(i, e)| (e / scale(i)) * (e / scale(i)))
        .sum::<f64>()
        / n)
        .sqrt();
    let rss: f64 = fit.pred.iter().zip(y).map(|(p, a)| (p - a) * (p - a)).sum();
    let mean = y.iter().sum::<f64>() / n;
    let tss: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    let k = bases.len() as f64;
    Search {
        best: Fitted {
            model: Model::from_coefficients(bases, &fit.coef),
            quality: Quality {
                rss,
                smape: smape(y, &fit.pred),
                adjusted_r2: if tss > 0.0 && n > k + 1.0 {
                    1.0 - (rss / tss) * (n - 1.0) / (n - k - 1.0)
                } else {
                    f64::NAN
                },
                cv: Some(cv),
            },
        },
        alternatives: Vec::new(),
    }
}

/// Refits `c0 + Σ c_k·basis_k` to the measurements' means by weighted least squares
/// (weights `reps/ȳ²` when `relative`, else `reps`): `(c0, [c_k])`, or `None` when the
/// bases are collinear over the points.
pub(crate) fn wls_refit(
    ms: &[Measurement],
    bases: &[Basis],
    relative: bool,
) -> Option<(f64, Vec<f64>)> {
    let y: Vec<f64> = ms.iter().map(Measurement::mean).collect();
    let relative = relative && y.iter().all(|&v| v > 0.0);
    let w: Vec<f64> = ms
        .iter()
        .zip(&y)
        .map(|(m, &v)| {
            let r = m.values.len() as f64;
            if relative {
                r / (v * v)
            } else {
                r
            }
        })
        .collect();
    let cols: Vec<Vec<f64>> = bases
        .iter()
        .map(|b| ms.iter().map(|m| b.eval(&m.point)).collect())
        .collect();
    let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
    let fit = wls(&refs, &y, &w)?;
    Some((fit.coef[0], fit.coef[1..].to_vec()))
}
