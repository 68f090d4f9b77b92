//! One sub-model's regression: the rows weighted (relative errors), the feature columns
//! scaled (they span 25 orders of magnitude), columns that are combinations of earlier ones
//! left out, α of the positive Lasso-LARS chosen by cross-validation over folds of sizes,
//! the selected terms refitted without penalty and pruned from the fastest-growing down by
//! F tests, and the coefficients brought back to the target's units; the refit of the
//! bootstrap at the same α; and the out-of-fold error of the whole procedure, by which
//! forms are chosen.

use fit::{Design, FitError, LarsOptions};

use super::cv_curve::{self, Curve};
use super::error::TrainError;
use super::features::{Feature, Inputs};
use super::fitted::{Coefs, Confound, SubModel};
use super::options::Selection;

/// A column whose part outside the span of the earlier (unit-norm) columns is below this
/// is left out: LARS stops at an exactly collinear column.
const COLLINEAR: f64 = 1e-7;

/// What to fit.
pub(crate) struct Spec<'a> {
    /// The sub-model's name (for errors).
    pub model: &'static str,
    /// The target's name.
    pub target: &'a str,
    /// The variant's name.
    pub variant: &'a str,
    /// The columns.
    pub features: &'a [Feature],
    /// Fit an intercept.
    pub intercept: bool,
    /// Keep the coefficients ≥ 0.
    pub positive: bool,
    /// What the rows are divided by (`none`, or the reference the weights came from).
    pub weighting: &'a str,
    /// Fit ln(target) (unweighted: a least-squares error in ln is a relative error) and
    /// predict exp of the linear model: a power law `c·n^a` on the feature `ln(n)`.
    pub log_target: bool,
}

/// The rows of one regression.
#[derive(Clone, Copy)]
pub(crate) struct Data<'a> {
    /// The inputs of the features.
    pub x: &'a [Inputs],
    /// The targets.
    pub y: &'a [f64],
    /// Each row's weight (`None`: plain least squares).
    pub w: Option<&'a [f64]>,
    /// Each row's size, `0..sizes` (folds hold whole sizes).
    pub groups: &'a [usize],
}

/// How α is chosen from the cross-validation curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// The least mean error (scikit-learn's `LassoLarsCV`).
    Min,
    /// The largest α whose mean error is within one standard error of the least.
    OneSe,
}

/// The fitting procedure's settings.
#[derive(Clone, Copy)]
pub(crate) struct Cv {
    /// Folds of the cross-validation.
    pub folds: usize,
    /// Their seed.
    pub seed: u64,
    /// The most steps of a Lasso path.
    pub max_iter: usize,
    /// The transform's name (for errors).
    pub transform: &'static str,
    /// How α is chosen.
    pub rule: Rule,
    /// Refit the selected terms without penalty.
    pub relaxed: bool,
    /// The level of the pruning F test (0: no pruning; only when relaxed).
    pub prune: f64,
    /// How rival forms are scored.
    pub selection: Selection,
}

/// The columns of `features` at `rows`, each row multiplied by its weight.
/// How close to ±1 the cosine of two columns must be for one to stand for the other.
const PROPORTIONAL: f64 = 1.0 - 1e-9;

/// The left-out columns (not in `keep`) that are a multiple of a kept one, each with the
/// kept column most nearly parallel to it.
fn confounds(features: &[Feature], cols: &[Vec<f64>], keep: &[usize]) -> Vec<Confound> {
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    (0..features.len())
        .filter(|j| !keep.contains(j))
        .filter_map(|j| {
            let cj = &cols[j];
            let nj = dot(cj, cj).sqrt();
            let (k, cos) = keep
                .iter()
                .map(|&k| {
                    let ck = &cols[k];
                    let nk = dot(ck, ck).sqrt();
                    (k, dot(cj, ck) / (nj * nk))
                })
                .filter(|(_, c)| c.is_finite())
                .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))?;
            (cos.abs() >= PROPORTIONAL).then(|| Confound {
                term: features[j],
                stands_in: features[k],
                ratio: dot(cj, &cols[k]) / dot(&cols[k], &cols[k]),
            })
        })
        .collect()
}

fn columns(
    model: &'static str,
    features: &[Feature],
    d: Data,
    transform: &'static str,
) -> Result<Vec<Vec<f64>>, TrainError> {
    features
        .iter()
        .map(|f| {
            d.x.iter()
                .enumerate()
                .map(|(i, x)| {
                    let v = f.value(x) * d.w.map_or(1.0, |w| w[i]);
                    if v.is_finite() {
                        Ok(v)
                    } else {
                        Err(TrainError::NotFinite {
                            model,
                            feature: f.name().into_owned(),
                            n: x.n,
                            transform,
                        })
                    }
                })
                .collect()
        })
        .collect()
}

/// The targets multiplied by the weights.
/// ln of the targets (every one must be positive).
fn log_data(model: &'static str, d: Data) -> Result<Vec<f64>, TrainError> {
    d.y.iter()
        .map(|&v| {
            (v > 0.0 && v.is_finite())
                .then(|| v.ln())
                .ok_or(TrainError::Fit {
                    model,
                    source: fit::FitError::NotFinite {
                        what: "observation",
                        index: 0,
                        value: v,
                    },
                })
        })
        .collect()
}

fn weighted(d: Data) -> Vec<f64> {
    d.y.iter()
        .enumerate()
        .map(|(i, v)| v * d.w.map_or(1.0, |w| w[i]))
        .collect()
}

/// The column divisor: the L2 norm of the column (centred when `center`), 1 for a zero column.
fn scale_of(col: &[f64], center: bool) -> f64 {
    let mean = if center {
        col.iter().sum::<f64>() / col.len().max(1) as f64
    } else {
        0.0
    };
    let s = col
        .iter()
        .map(|v| (v - mean) * (v - mean))
        .sum::<f64>()
        .sqrt();
    if s.is_finite() && s > 0.0 {
        s
    } else {
        1.0
    }
}

fn target_scale(y: &[f64]) -> f64 {
    let s = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if s.is_finite() && s > 0.0 {
        s
    } else {
        1.0
    }
}

/// Fits `y ≈ intercept + Σ β·feature` on `d`, minimising Σ (wᵢ·(yᵢ − ŷᵢ))² (with weights the
/// intercept is a column of ones, kept ≥ 0 with the others when the fit is positive).
pub(crate) fn fit(spec: &Spec, d: Data, cv: Cv) -> Result<SubModel, TrainError> {
    if spec.log_target {
        let ln = log_data(spec.model, d)?;
        let plain = Spec {
            log_target: false,
            ..*spec
        };
        let logged = Data {
            y: &ln,
            w: None,
            ..d
        };
        let mut sub = fit(&plain, logged, cv)?;
        sub.log_target = true;
        return Ok(sub);
    }
    let err = |source| TrainError::Fit {
        model: spec.model,
        source,
    };
    let fit_intercept = spec.intercept && d.w.is_none();
    let mut features = spec.features.to_vec();
    if spec.intercept && d.w.is_some() {
        features.insert(0, Feature::One);
    }
    let cols = columns(spec.model, &features, d, cv.transform)?;
    let scales: Vec<f64> = cols.iter().map(|c| scale_of(c, fit_intercept)).collect();
    let keep = fit::independent_columns(&cols, fit_intercept, COLLINEAR);
    let yw = weighted(d);
    let ys = target_scale(&yw);
    let mut coefficients = vec![0.0; features.len()];
    let dropped: Vec<Feature> = (0..features.len())
        .filter(|j| !keep.contains(j))
        .map(|j| features[j])
        .collect();
    let confounded = confounds(&features, &cols, &keep);
    let mut out = SubModel {
        target: spec.target.to_string(),
        variant: spec.variant.to_string(),
        weighting: spec.weighting.to_string(),
        features,
        scales: scales.clone(),
        target_scale: ys,
        coefficients: coefficients.clone(),
        intercept: 0.0,
        fit_intercept,
        positive: spec.positive,
        alpha: 0.0,
        cv_mse: None,
        cv_score: None,
        dropped,
        confounded,
        pruned: Vec::new(),
        rows: d.y.len(),
        log_target: false,
        searched: false,
    };
    let yscaled: Vec<f64> = yw.iter().map(|v| v / ys).collect();
    if keep.is_empty() {
        // Nothing to regress on: the mean (with an intercept) or zero.
        if fit_intercept {
            out.intercept = d.y.iter().sum::<f64>() / d.y.len().max(1) as f64;
        }
        return Ok(out);
    }
    let scaled: Vec<Vec<f64>> = keep
        .iter()
        .map(|&j| cols[j].iter().map(|v| v / scales[j]).collect())
        .collect();
    let curve = cv_curve::curve(
        &scaled,
        &yscaled,
        d.groups,
        cv.folds,
        cv.seed,
        fit_intercept,
        spec.positive,
        cv.max_iter,
    )
    .map_err(err)?;
    let (alpha, cv_mse) = choose_alpha(&curve, cv.rule);
    // Breakpoints computed as 0 can come out a rounding error below it.
    let alpha = alpha.max(0.0);
    let orders: Vec<u8> = keep.iter().map(|&j| out.features[j].order()).collect();
    let solved = solve_at(
        &scaled,
        &orders,
        &yscaled,
        alpha,
        fit_intercept,
        spec.positive,
        cv,
    )
    .map_err(err)?;
    for (k, &j) in keep.iter().enumerate() {
        coefficients[j] = solved.beta[k] * ys / scales[j];
    }
    out.pruned = solved
        .pruned
        .iter()
        .map(|&k| out.features[keep[k]])
        .collect();
    out.coefficients = coefficients;
    out.intercept = solved.intercept * ys;
    out.alpha = alpha;
    out.cv_mse = cv_mse.map(|v| v * ys * ys).filter(|v| v.is_finite());
    Ok(out)
}

/// The out-of-fold mean squared (weighted) error of the whole procedure of [`fit`] on `d`:
/// for each fold of sizes, fitted on the others (with its own inner cross-validation) and
/// scored on its rows (the folds as `cv.selection` says). `None` without a fold.
pub(crate) fn score(spec: &Spec, d: Data, cv: Cv) -> Result<Option<f64>, TrainError> {
    score_by(d, cv, |train, _| fit(spec, train, cv))
}

/// The out-of-fold mean squared (weighted) error of a fitting procedure `fit_on` on `d`: for
/// each fold of sizes, `fit_on(rows, indices)` fits on the training sizes' rows (`indices`
/// their indices in `d`) and the fold's rows are scored: with [`Selection::Shuffled`] the
/// folds are shuffled K folds of the sizes; with [`Selection::Forward`] each of the larger
/// half of the sizes (beyond the third) is predicted from the sizes below it. `None` with fewer than two sizes.
pub(crate) fn score_by(
    d: Data,
    cv: Cv,
    fit_on: impl Fn(Data, &[usize]) -> Result<SubModel, TrainError>,
) -> Result<Option<f64>, TrainError> {
    let count = d.groups.iter().max().map_or(0, |g| g + 1);
    let splits = match cv.selection {
        Selection::Shuffled => fit::cv::kfold_shuffled(count, cv.folds, cv.seed ^ 0x5C0E),
        // Each of the three largest sizes from those below (at least 3 sizes to fit on).
        Selection::Forward => fit::cv::forward(count, 3.max(count.saturating_sub(3))),
    };
    let (mut sum, mut rows) = (0.0, 0usize);
    for s in &splits {
        let mut renumber = vec![usize::MAX; count];
        for (k, &g) in s.train.iter().enumerate() {
            renumber[g] = k;
        }
        let train: Vec<usize> = (0..d.y.len())
            .filter(|&i| renumber[d.groups[i]] != usize::MAX)
            .collect();
        let x: Vec<Inputs> = train.iter().map(|&i| d.x[i]).collect();
        let y: Vec<f64> = train.iter().map(|&i| d.y[i]).collect();
        let w: Option<Vec<f64>> = d.w.map(|w| train.iter().map(|&i| w[i]).collect());
        let groups: Vec<usize> = train.iter().map(|&i| renumber[d.groups[i]]).collect();
        let sub = fit_on(
            Data {
                x: &x,
                y: &y,
                w: w.as_deref(),
                groups: &groups,
            },
            &train,
        )?;
        for i in (0..d.y.len()).filter(|&i| renumber[d.groups[i]] == usize::MAX) {
            let r = (d.y[i] - sub.eval(&d.x[i])) * d.w.map_or(1.0, |w| w[i]);
            sum += r * r;
            rows += 1;
        }
    }
    Ok((rows > 0 && sum.is_finite()).then(|| sum / rows as f64))
}

/// A sub-model whose terms a search chose (`features`, the first the constant `1`) with
/// its `coefficients`, in the layout [`refit`] reads: no penalty, signed, every term kept.
pub(crate) fn searched(
    model: &'static str,
    variant: &str,
    features: Vec<Feature>,
    coefficients: Vec<f64>,
    d: Data,
    relative: bool,
) -> SubModel {
    let scales = match columns(model, &features, d, "") {
        Ok(cols) => cols.iter().map(|c| scale_of(c, false)).collect(),
        Err(_) => vec![1.0; features.len()],
    };
    SubModel {
        target: model.to_string(),
        variant: variant.to_string(),
        weighting: if relative { "target" } else { "none" }.to_string(),
        scales,
        target_scale: target_scale(&weighted(d)),
        coefficients,
        features,
        intercept: 0.0,
        fit_intercept: false,
        positive: false,
        alpha: 0.0,
        cv_mse: None,
        cv_score: None,
        dropped: Vec::new(),
        confounded: Vec::new(),
        pruned: Vec::new(),
        rows: d.y.len(),
        log_target: false,
        searched: true,
    }
}

/// The α of `rule` and its mean cross-validated error (scaled units); α = 0 (least squares)
/// without a curve.
fn choose_alpha(curve: &Curve, rule: Rule) -> (f64, Option<f64>) {
    let stats: Vec<(f64, f64, f64)> = curve
        .alphas
        .iter()
        .zip(&curve.mse)
        .filter(|(_, row)| !row.is_empty() && row.iter().all(|v| v.is_finite()))
        .map(|(&a, row)| {
            let k = row.len() as f64;
            let mean = row.iter().sum::<f64>() / k;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (k - 1.0).max(1.0);
            (a, mean, (var / k).sqrt())
        })
        .collect();
    // The first least mean: the smallest such α, as scikit-learn.
    let Some(&(a_min, best, se)) = stats.iter().min_by(|a, b| a.1.total_cmp(&b.1)) else {
        return (0.0, None);
    };
    match rule {
        Rule::Min => (a_min, Some(best)),
        Rule::OneSe => stats
            .iter()
            .filter(|s| s.1 <= best + se)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map_or((a_min, Some(best)), |s| (s.0, Some(s.1))),
    }
}

/// The scaled solution of [`solve_at`].
struct Solved {
    beta: Vec<f64>,
    intercept: f64,
    /// Columns the Lasso selected and the F tests left out.
    pruned: Vec<usize>,
}

/// The Lasso at `alpha` on scaled columns `cols` (the path stopped there); when relaxed, its
/// selected columns refitted without penalty (non-negative least squares when positive) and,
/// while the fastest-growing selected column (by `orders`) adds nothing significant (an F
/// test at level `cv.prune`), that column left out.
fn solve_at(
    cols: &[Vec<f64>],
    orders: &[u8],
    y: &[f64],
    alpha: f64,
    intercept: bool,
    positive: bool,
    cv: Cv,
) -> Result<Solved, FitError> {
    let m = y.len().max(1) as f64;
    let mean = |v: &[f64]| {
        if intercept {
            v.iter().sum::<f64>() / m
        } else {
            0.0
        }
    };
    let ymean = mean(y);
    let yc: Vec<f64> = y.iter().map(|v| v - ymean).collect();
    let means: Vec<f64> = cols.iter().map(|c| mean(c)).collect();
    let centred: Vec<Vec<f64>> = cols
        .iter()
        .zip(&means)
        .map(|(c, mu)| c.iter().map(|v| v - mu).collect())
        .collect();
    let path = fit::lasso_lars_path(
        &Design::from_columns(&centred)?,
        &yc,
        &LarsOptions {
            positive,
            max_iter: cv.max_iter,
            alpha_min: alpha,
        },
    )?;
    let mut beta = path
        .coefs
        .last()
        .cloned()
        .unwrap_or_else(|| vec![0.0; cols.len()]);
    let mut pruned = Vec::new();
    if cv.relaxed {
        let mut support: Vec<usize> = (0..beta.len()).filter(|&j| beta[j] != 0.0).collect();
        let solve = |support: &[usize]| -> Result<(Vec<f64>, f64), FitError> {
            if support.is_empty() {
                return Ok((Vec::new(), yc.iter().map(|v| v * v).sum()));
            }
            let sub: Vec<Vec<f64>> = support.iter().map(|&j| centred[j].clone()).collect();
            let d = Design::from_columns(&sub)?;
            let x = if positive {
                let opts = fit::NnlsOptions {
                    max_iter: Some(30 * sub.len()),
                };
                fit::nnls(&d, &yc, &opts)?.x
            } else {
                fit::least_squares(&d, &yc)?.coefficients
            };
            let rss = d
                .predict(&x)
                .iter()
                .zip(&yc)
                .map(|(p, v)| (v - p) * (v - p))
                .sum();
            Ok((x, rss))
        };
        let (mut solved, mut rss) = solve(&support)?;
        while cv.prune > 0.0 && support.len() > 1 {
            let df = yc.len() as f64 - support.len() as f64 - f64::from(u8::from(intercept));
            if df < 1.0 {
                break;
            }
            let top = support.iter().map(|&j| orders[j]).max().unwrap_or(0);
            // The least significant of the fastest-growing columns.
            let mut weakest: Option<(usize, f64, Vec<f64>, f64)> = None;
            for (k, &j) in support.iter().enumerate() {
                if orders[j] != top {
                    continue;
                }
                let rest: Vec<usize> = support.iter().copied().filter(|&i| i != j).collect();
                let (x, r) = solve(&rest)?;
                let f = (r - rss).max(0.0) / (rss.max(f64::MIN_POSITIVE) / df);
                let pv = fit::stats::f_sf(f, 1.0, df);
                if weakest.as_ref().is_none_or(|w| pv > w.1) {
                    weakest = Some((k, pv, x, r));
                }
            }
            match weakest {
                Some((k, pv, x, r)) if pv > cv.prune => {
                    pruned.push(support.remove(k));
                    solved = x;
                    rss = r;
                }
                _ => break,
            }
        }
        beta.iter_mut().for_each(|b| *b = 0.0);
        for (k, &j) in support.iter().enumerate() {
            beta[j] = solved[k];
        }
    }
    let b0 = ymean - means.iter().zip(&beta).map(|(mu, b)| mu * b).sum::<f64>();
    Ok(Solved {
        beta,
        intercept: if intercept { b0 } else { 0.0 },
        pruned,
    })
}

/// Refits `sub` on new targets `y` (at `d`'s rows and weights) at its α, with its columns,
/// scaling and variant (a bootstrap replicate).
pub(crate) fn refit(
    model: &'static str,
    sub: &SubModel,
    d: Data,
    cv: Cv,
) -> Result<Coefs, TrainError> {
    if sub.log_target {
        let ln = log_data(model, d)?;
        let plain = SubModel {
            log_target: false,
            ..sub.clone()
        };
        let logged = Data {
            y: &ln,
            w: None,
            ..d
        };
        return refit(model, &plain, logged, cv);
    }
    // A searched model's terms are the search's: all kept, fitted by least squares.
    let cv = if sub.searched {
        Cv {
            relaxed: false,
            prune: 0.0,
            ..cv
        }
    } else {
        cv
    };
    let err = |source| TrainError::Fit { model, source };
    let cols = columns(model, &sub.features, d, cv.transform)?;
    let keep: Vec<usize> = (0..sub.features.len())
        .filter(|j| !sub.dropped.contains(&sub.features[*j]))
        .collect();
    let ys = sub.target_scale;
    let yscaled: Vec<f64> = weighted(d).iter().map(|v| v / ys).collect();
    let mut coefficients = vec![0.0; sub.features.len()];
    if keep.is_empty() {
        let m = d.y.len().max(1) as f64;
        return Ok(Coefs {
            coefficients,
            intercept: if sub.fit_intercept {
                d.y.iter().sum::<f64>() / m
            } else {
                0.0
            },
        });
    }
    let scaled: Vec<Vec<f64>> = keep
        .iter()
        .map(|&j| cols[j].iter().map(|v| v / sub.scales[j]).collect())
        .collect();
    let orders: Vec<u8> = keep.iter().map(|&j| sub.features[j].order()).collect();
    let solved = solve_at(
        &scaled,
        &orders,
        &yscaled,
        sub.alpha,
        sub.fit_intercept,
        sub.positive,
        cv,
    )
    .map_err(err)?;
    for (k, &j) in keep.iter().enumerate() {
        coefficients[j] = solved.beta[k] * ys / sub.scales[j];
    }
    Ok(Coefs {
        coefficients,
        intercept: solved.intercept * ys,
    })
}
