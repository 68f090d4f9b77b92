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
//!   weighted fit), and takes a bigger hypothesis only when the current one **misses the
//!   means by more than the repetitions' noise** (a lack-of-fit F test against the pure
//!   error) and the bigger one's error is lower by more than a **complexity penalty**; the
//!   stages are the constant, one block, one term with a **fitted exponent**
//!   (`x^a·log2(x)^j`, `a` to 1/200, for forms between the blocks), and two blocks;
//! * given **two sizes** only, whose means differ beyond the repetitions' noise, takes the
//!   power law through both (`c·x^a`), since no hypothesis with a term can be scored by
//!   leaving one of two sizes out and the constant is refuted by the data.

mod search;
mod wls;

use crate::model::{smape, Basis, Fitted, Measurement, Model, Quality};
use crate::pmnf::{BlockOptions, Exponent, Factor, Term};
use crate::FitError;
use search::{search as search_hypotheses, weights};
use wls::{solve, Problem};

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
    /// Also try one term with a fitted exponent, `x^a·log2(x)^j` with `a` to 1/200, when no
    /// block describes the data within its noise (default true).
    pub fit_exponent: bool,
    /// Basis functions a user wrote, tried beside the blocks (one parameter: alone and in
    /// pairs with blocks; several: alone).
    pub user: Vec<crate::UserBasis>,
    /// Also try decreasing blocks (`x^-a·log2(x)^j`, as with `blocks.negative`) for a
    /// series whose means decrease with the parameter: strong scaling, `c0 + c1/x`
    /// (default true). See [`decreasing_blocks`].
    pub decreasing: bool,
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
            fit_exponent: true,
            user: Vec::new(),
            decreasing: true,
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

/// Per measurement: the mean, the number of repetitions, and the repetitions' sum of
/// squared deviations from the mean.
pub(crate) fn moments(ms: &[Measurement]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
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
pub fn search_single(ms: &[Measurement], opts: &VatesOptions) -> Result<Search, FitError> {
    crate::pmnf::check_measurements(ms, 1)?;
    let x: Vec<f64> = ms.iter().map(|m| m.point[0]).collect();
    let (y, reps, spread) = moments(ms);
    let blocks = single_blocks(opts, &x, &y);
    let columns: Vec<search::Column> = blocks
        .iter()
        .map(|&term| {
            let b = Basis::Pmnf(vec![Factor { param: 0, term }]);
            let v: Vec<f64> = x.iter().map(|&xi| term.eval(xi)).collect();
            (b, v)
        })
        .chain(opts.user.iter().map(|u| {
            let v: Vec<f64> = ms.iter().map(|m| u.eval(&m.point)).collect();
            (Basis::User(u.clone()), v)
        }))
        .filter(|(_, v)| v.iter().all(|c| c.is_finite()))
        .collect();
    let logs = opts.blocks.logs && x.iter().all(|&v| v >= 1.0);
    let fit_exponent = || refine(&x, &y, &reps, logs, opts);
    let fitter: Option<search::Refine<'_>> = opts.fit_exponent.then_some(&fit_exponent);
    let found = search_hypotheses(&columns, fitter, &y, &reps, &spread, opts);
    if !found.best.model.terms.is_empty() {
        return Ok(found);
    }
    Ok(match two_points(&x, &y, &reps, &spread, &blocks, opts) {
        Some(power) => {
            let mut alternatives = vec![found.best];
            alternatives.extend(found.alternatives);
            alternatives.truncate(opts.alternatives);
            Search {
                best: power,
                alternatives,
            }
        }
        None => found,
    })
}

/// The model of two sizes whose means differ beyond the repetitions' noise: the power law
/// through both, `c·x^a` with `a = log(y₂/y₁)/log(x₂/x₁)` (to 1/200, |a| ≤ 3; with
/// `fit_exponent` off, the nearest exponent among the `blocks` without a logarithm), `c` by
/// the weighted least squares of the search. It is the semi-empirical method's ratio
/// scaling, and has no leave-one-out error.
///
/// Two sizes cannot score a constant and a term by leaving a point out (one point cannot
/// place two coefficients), so the search keeps the constant even when the data refute it;
/// a constant is then the one model certain to be wrong beyond the measured sizes. `None`
/// unless there are exactly two sizes, both sizes and means positive, and the constant's
/// lack of fit is significant (always, without repetitions to measure the noise).
fn two_points(
    x: &[f64],
    y: &[f64],
    reps: &[f64],
    spread: &[f64],
    blocks: &[Term],
    opts: &VatesOptions,
) -> Option<Fitted> {
    let positive = |v: &[f64]| v.iter().all(|&t| t > 0.0 && t.is_finite());
    if x.len() != 2 || x[0] == x[1] || !positive(x) || !positive(y) {
        return None;
    }
    let (w, _) = weights(y, reps, opts.relative);
    let wsum: f64 = w.iter().sum();
    let mean = w.iter().zip(y).map(|(a, b)| a * b).sum::<f64>() / wsum;
    let wss: f64 = w
        .iter()
        .zip(y)
        .map(|(a, b)| a * (b - mean) * (b - mean))
        .sum();
    let pure = search::pure_error(&w, reps, spread);
    if wss <= 0.0 || wss.is_nan() || search::lack_of_fit(wss, 1.0, pure) >= opts.significance {
        return None;
    }
    let a = ((y[1] / y[0]).ln() / (x[1] / x[0]).ln()).clamp(-3.0, 3.0);
    if a < 0.0 && !(opts.decreasing || opts.blocks.negative) {
        return None;
    }
    let poly = if opts.fit_exponent {
        Exponent::new((a * 200.0).round() as i32, 200)
    } else {
        let value = |e: Exponent| f64::from(e.num()) / f64::from(e.den());
        blocks
            .iter()
            .filter(|t| t.log == Exponent::ZERO && t.poly != Exponent::ZERO)
            .map(|t| t.poly)
            .min_by(|p, q| (value(*p) - a).abs().total_cmp(&(value(*q) - a).abs()))?
    };
    if poly == Exponent::ZERO {
        return None;
    }
    let term = Term {
        poly,
        log: Exponent::ZERO,
    };
    let v: Vec<f64> = x.iter().map(|&xi| term.eval(xi)).collect();
    let c = (0..2).map(|i| w[i] * v[i] * y[i]).sum::<f64>()
        / (0..2).map(|i| w[i] * v[i] * v[i]).sum::<f64>();
    let pred: Vec<f64> = v.iter().map(|vi| c * vi).collect();
    c.is_finite().then(|| Fitted {
        model: Model::from_coefficients(&[Basis::Pmnf(vec![Factor { param: 0, term }])], &[0.0, c]),
        quality: Quality {
            rss: pred.iter().zip(y).map(|(p, a)| (p - a) * (p - a)).sum(),
            smape: smape(y, &pred),
            adjusted_r2: f64::NAN,
            cv: None,
        },
    })
}

/// The blocks of a one-parameter search at the points `x` with means `y`: the growing
/// blocks (with `log2(x)` only where every x ≥ 1), and, with negative exponents asked for
/// or a decreasing series ([`decreasing_blocks`]), their decreasing mirror images
/// `x^-a·log2(x)^j` (every x > 0; `x^-1` among them) and Extra-P's negative powers of the
/// logarithm (every x > 1).
///
/// Extra-P adds only the latter when logarithms are allowed, and its rule leaves out every
/// log block when some x ≤ 1, so with x = 1 measured its negative exponents added nothing.
fn single_blocks(opts: &VatesOptions, x: &[f64], y: &[f64]) -> Vec<Term> {
    let logs = opts.blocks.logs && x.iter().all(|&v| v >= 1.0);
    let growing = BlockOptions {
        negative: false,
        ..opts.blocks.clone()
    };
    let mut b: Vec<Term> = growing
        .blocks()
        .into_iter()
        .filter(|t| logs || !t.has_log())
        .collect();
    let negative = opts.blocks.negative || (opts.decreasing && decreasing_blocks(x, y));
    if negative && x.iter().all(|&v| v > 0.0) {
        let mirrored: Vec<Term> = b
            .iter()
            .filter(|t| t.poly.num() > 0)
            .map(|&t| crate::pmnf::negate(t))
            .collect();
        b.extend(mirrored);
        if logs && x.iter().all(|&v| v > 1.0) {
            b.extend(crate::pmnf::NEGATIVE_LOG_BLOCKS);
        }
    }
    // Without duplicates, in order (the order decides ties).
    let mut seen = std::collections::HashSet::new();
    b.retain(|t| seen.insert(*t));
    b
}

/// Whether a series calls for decreasing blocks: at least three points, the mean at the
/// largest x below the mean at the smallest, and at least two thirds of the steps between
/// neighbouring x downwards.
pub fn decreasing_blocks(x: &[f64], y: &[f64]) -> bool {
    let mut pts: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    if pts.len() < 3 {
        return false;
    }
    let down = pts.windows(2).filter(|w| w[1].1 < w[0].1).count();
    pts[pts.len() - 1].1 < pts[0].1 && 3 * down >= 2 * (pts.len() - 1)
}

/// The term `x^a·log2(x)^j` (j = 0, 1, 2; a in [0.1, 3] to 1/200) that fits the means best by
/// relative-error weighted least squares, for data no block describes within its noise.
fn refine(
    x: &[f64],
    y: &[f64],
    reps: &[f64],
    logs: bool,
    opts: &VatesOptions,
) -> Option<search::Column> {
    let (w, scale) = weights(y, reps, opts.relative);
    let problem = Problem {
        y,
        w: &w,
        scale: &scale,
    };
    let mut col = vec![0.0; x.len()];
    let mut wss = |term: Term| -> f64 {
        for (c, &xi) in col.iter_mut().zip(x) {
            *c = term.eval(xi);
        }
        if col.iter().any(|v| !v.is_finite()) {
            return f64::INFINITY;
        }
        solve(&[&col], &problem).map_or(f64::INFINITY, |s| s.wss)
    };
    let mut best: Option<(f64, Term)> = None;
    for j in 0..=if logs { 2 } else { 0 } {
        // A coarse grid in steps of 1/50, then 1/200 around its best.
        let at = |k: i32| Term {
            poly: Exponent::new(k, 200),
            log: Exponent::int(j),
        };
        let coarse = (5..=150)
            .map(|k| (wss(at(4 * k)), 4 * k))
            .min_by(|a, b| a.0.total_cmp(&b.0))?;
        let fine = (coarse.1 - 3..=coarse.1 + 3)
            .filter(|&k| k >= 20)
            .map(|k| (wss(at(k)), at(k)))
            .min_by(|a, b| a.0.total_cmp(&b.0))?;
        if best.as_ref().is_none_or(|b| fine.0 < b.0) {
            best = Some(fine);
        }
    }
    let (_, term) = best.filter(|b| b.0.is_finite())?;
    let values = x.iter().map(|&xi| term.eval(xi)).collect();
    Some((Basis::Pmnf(vec![Factor { param: 0, term }]), values))
}

/// The `vates` model of measurements of `dims` parameters. One parameter is
/// [`search_single`]. Otherwise, as Extra-P's multi-parameter search: each parameter gets a
/// `vates` model on its line of points; the parameters whose model is not constant are kept
/// with their fastest-growing term; the hypotheses are their product, their sum and the mixed
/// forms, each fitted on every point by relative-error weighted least squares and chosen by
/// leave-one-out relative error.
///
/// # Errors
/// As [`search_single`].
pub fn search(ms: &[Measurement], dims: usize, opts: &VatesOptions) -> Result<Search, FitError> {
    crate::pmnf::check_measurements(ms, dims)?;
    if dims == 1 {
        return search_single(ms, opts);
    }
    let means: Vec<f64> = ms.iter().map(Measurement::mean).collect();
    let mut kept: Vec<Factor> = Vec::new();
    for p in 0..dims {
        let line: Vec<Measurement> = crate::pmnf::line(ms, &means, p)
            .into_iter()
            .map(|(x, v)| Measurement::one(x, vec![v]))
            .collect();
        // One block per parameter, as Extra-P: a line's means carry no repetitions to tell a
        // second term or a fitted exponent from noise.
        let per_line = VatesOptions {
            user: Vec::new(),
            max_terms: 1,
            fit_exponent: false,
            ..opts.clone()
        };
        let single = search_single(&line, &per_line)?;
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
    let mut hyps: Vec<Vec<Basis>> = if kept.len() == 1 {
        vec![vec![Basis::Pmnf(kept.clone())]]
    } else if kept.is_empty() {
        Vec::new()
    } else {
        crate::pmnf::hypotheses(&kept)
    };
    hyps.extend(opts.user.iter().map(|u| vec![Basis::User(u.clone())]));
    // Each hypothesis is one candidate "column set"; reuse the search on precomputed columns
    // by scoring every hypothesis as a whole.
    let mut all: Vec<Fitted> = hyps
        .iter()
        .filter_map(|h| {
            let cols: Vec<Vec<f64>> = h
                .iter()
                .map(|b| ms.iter().map(|m| b.eval(&m.point)).collect())
                .collect();
            let f = score_fixed(h, &cols, &means, &reps, opts)?;
            // Every term must explain a share of some measurement, as in the one-parameter
            // search.
            let explains = f.model.terms.iter().zip(&cols).all(|(t, v)| {
                v.iter()
                    .zip(&means)
                    .any(|(vi, yi)| (t.coefficient * vi / yi).abs() >= search::MIN_SHARE)
            });
            explains.then_some(f)
        })
        .collect();
    if all.is_empty() {
        return Ok(search_hypotheses(&[], None, &means, &reps, &spread, opts));
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

/// Scores one fixed hypothesis (all of `bases` together, their values at the points in
/// `cols`) by its leave-one-out relative error; `None` when the bases are collinear over the
/// points.
fn score_fixed(
    bases: &[Basis],
    cols: &[Vec<f64>],
    y: &[f64],
    reps: &[f64],
    opts: &VatesOptions,
) -> Option<Fitted> {
    let (w, scale) = weights(y, reps, opts.relative);
    let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
    let fit = solve(
        &refs,
        &Problem {
            y,
            w: &w,
            scale: &scale,
        },
    )?;
    let c = fit.coef();
    let pred: Vec<f64> = (0..y.len())
        .map(|i| {
            c[0] + cols
                .iter()
                .zip(&c[1..])
                .map(|(v, ck)| ck * v[i])
                .sum::<f64>()
        })
        .collect();
    let n = y.len() as f64;
    let rss: f64 = pred.iter().zip(y).map(|(p, a)| (p - a) * (p - a)).sum();
    let mean = y.iter().sum::<f64>() / n;
    let tss: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    let k = bases.len() as f64;
    Some(Fitted {
        model: Model::from_coefficients(bases, c),
        quality: Quality {
            rss,
            smape: smape(y, &pred),
            adjusted_r2: if tss > 0.0 && n > k + 1.0 {
                1.0 - (rss / tss) * (n - 1.0) / (n - k - 1.0)
            } else {
                f64::NAN
            },
            cv: Some(100.0 * fit.cv),
        },
    })
}

/// Refits `c0 + Σ c_k·col_k` to the means `y` (with `reps` repetitions each) by weighted
/// least squares (weights `reps/ȳ²` when `relative`, else `reps`): `[c0, c_1, …]`, or `None`
/// when the columns are collinear over the points.
pub(crate) fn refit(cols: &[&[f64]], y: &[f64], reps: &[f64], relative: bool) -> Option<Vec<f64>> {
    let (w, scale) = weights(y, reps, relative);
    let fit = solve(
        cols,
        &Problem {
            y,
            w: &w,
            scale: &scale,
        },
    )?;
    Some(fit.coef().to_vec())
}
