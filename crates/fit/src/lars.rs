//! The Lasso by least-angle regression (Efron, Hastie, Johnstone and Tibshirani, 2004): the
//! whole piecewise-linear path of coefficients as the penalty α falls, optionally with
//! every coefficient kept ≥ 0, and α chosen by K-fold cross-validation — the behaviour of
//! scikit-learn's `lars_path(method="lasso")` and `LassoLarsCV`, which the task-parallel
//! method fits its sub-models with.

use nalgebra::{DMatrix, DVector};

use crate::matrix::{check_observations, Design};
use crate::{cv, FitError};

/// Options of [`lasso_lars_path`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LarsOptions {
    /// Keep every coefficient ≥ 0.
    pub positive: bool,
    /// The most steps (variables entering or leaving); scikit-learn's default is 500.
    pub max_iter: usize,
    /// Stop the path at this α (the last segment is interpolated to it).
    pub alpha_min: f64,
}

impl Default for LarsOptions {
    fn default() -> Self {
        LarsOptions {
            positive: false,
            max_iter: 500,
            alpha_min: 0.0,
        }
    }
}

/// A Lasso path: at each breakpoint α (falling), the coefficients.
#[derive(Clone, Debug, PartialEq)]
pub struct LarsPath {
    /// The breakpoints, falling: α = max |Xᵀ(y − Xβ)| / n over the variables not in the model.
    pub alphas: Vec<f64>,
    /// The coefficients at each breakpoint.
    pub coefs: Vec<Vec<f64>>,
    /// The variables in the model at the end, in the order they entered.
    pub active: Vec<usize>,
    /// Steps taken.
    pub iterations: usize,
}

/// The Lasso path of `y ≈ X·β` (no intercept: center `X` and `y` first for one), minimising
/// ‖y − Xβ‖² / (2n) + α‖β‖₁ for every α from the first breakpoint down to `alpha_min`.
///
/// # Errors
/// As [`crate::least_squares`] for the input.
pub fn lasso_lars_path(x: &Design, y: &[f64], opts: &LarsOptions) -> Result<LarsPath, FitError> {
    check_observations(x, y)?;
    let (n, p) = (x.rows(), x.columns());
    let xm = &x.m;
    let yv = DVector::from_column_slice(y);
    let gram: DMatrix<f64> = xm.transpose() * xm;
    // Correlations of the variables not in the model with the residual.
    let mut cov: Vec<f64> = (xm.transpose() * &yv).iter().copied().collect();
    let mut coef = vec![0.0; p];
    let mut active: Vec<usize> = Vec::new();
    let mut signs: Vec<f64> = Vec::new();
    let mut inactive: Vec<bool> = vec![true; p];
    let mut path = LarsPath {
        alphas: Vec::new(),
        coefs: Vec::new(),
        active: Vec::new(),
        iterations: 0,
    };
    let eps = f64::EPSILON;
    let (tiny, tiny32) = (f64::MIN_POSITIVE, f64::from(f32::MIN_POSITIVE));
    let mut drop = false;
    loop {
        // The strongest correlation among the variables outside the model.
        let pick = (0..p).filter(|&j| inactive[j]).max_by(|&a, &b| {
            let key = |j: usize| if opts.positive { cov[j] } else { cov[j].abs() };
            key(a).total_cmp(&key(b))
        });
        let (c_idx, c_signed) = match pick {
            Some(j) => (Some(j), cov[j]),
            None => (None, 0.0),
        };
        let c = if opts.positive {
            c_signed
        } else {
            c_signed.abs()
        };
        let mut alpha = c / n as f64;
        if alpha <= opts.alpha_min + eps {
            if (alpha - opts.alpha_min).abs() > eps {
                if let (Some(&pa), Some(pc)) = (path.alphas.last(), path.coefs.last()) {
                    let ss = (pa - opts.alpha_min) / (pa - alpha);
                    for (k, v) in coef.iter_mut().enumerate() {
                        *v = pc[k] + ss * (*v - pc[k]);
                    }
                }
                alpha = opts.alpha_min;
            }
            path.alphas.push(alpha);
            path.coefs.push(coef.clone());
            break;
        }
        path.alphas.push(alpha);
        path.coefs.push(coef.clone());
        if path.iterations >= opts.max_iter || active.len() >= p {
            break;
        }
        if !drop {
            let Some(j) = c_idx else { break };
            active.push(j);
            signs.push(if c_signed >= 0.0 { 1.0 } else { -1.0 });
            inactive[j] = false;
        }
        // The equiangular direction: G_AA w = s, scaled so that every active correlation
        // falls at the rate AA.
        let k = active.len();
        let g_aa = DMatrix::from_fn(k, k, |a, b| gram[(active[a], active[b])]);
        let s = DVector::from_column_slice(&signs);
        let Some(chol) = g_aa.cholesky() else {
            // The entering variable is a combination of the active ones: stop the path here.
            break;
        };
        let mut w = chol.solve(&s);
        let aa = 1.0 / w.dot(&s).sqrt();
        w *= aa;
        // How fast each outside correlation falls along the direction.
        let dir: Vec<f64> = (0..p)
            .map(|j| {
                if inactive[j] {
                    (0..k).map(|a| gram[(j, active[a])] * w[a]).sum()
                } else {
                    0.0
                }
            })
            .collect();
        let mut gamma = c / aa;
        for j in (0..p).filter(|&j| inactive[j]) {
            let g1 = (c - cov[j]) / (aa - dir[j] + tiny);
            if g1 > 0.0 {
                gamma = gamma.min(g1);
            }
            if !opts.positive {
                let g2 = (c + cov[j]) / (aa + dir[j] + tiny);
                if g2 > 0.0 {
                    gamma = gamma.min(g2);
                }
            }
        }
        // The Lasso modification: a coefficient that would cross zero leaves the model.
        let z: Vec<f64> = (0..k).map(|a| -coef[active[a]] / (w[a] + tiny32)).collect();
        let z_pos = z
            .iter()
            .copied()
            .filter(|&v| v > 0.0)
            .fold(f64::INFINITY, f64::min);
        drop = z_pos < gamma;
        if drop {
            gamma = z_pos;
        }
        path.iterations += 1;
        for a in 0..k {
            coef[active[a]] += gamma * w[a];
        }
        for j in (0..p).filter(|&j| inactive[j]) {
            cov[j] -= gamma * dir[j];
        }
        if drop {
            let leaving: Vec<usize> = (0..k).filter(|&a| z[a] == z_pos).collect();
            let mut left = Vec::with_capacity(leaving.len());
            for &a in leaving.iter().rev() {
                let j = active.remove(a);
                signs.remove(a);
                coef[j] = 0.0;
                inactive[j] = true;
                left.push(j);
            }
            // The leaving variables' correlations with the current residual.
            let residual = &yv - xm * DVector::from_column_slice(&coef);
            for j in left {
                cov[j] = xm.column(j).dot(&residual);
            }
        }
    }
    path.active = active;
    Ok(path)
}

/// Options of [`lasso_lars_cv`] (scikit-learn's `LassoLarsCV` defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LassoLarsCvOptions {
    /// Folds: `cv` contiguous folds of the rows in order ([`cv::kfold`]).
    pub cv: usize,
    /// Shuffle the rows with this seed before making the folds.
    pub shuffle: Option<u64>,
    /// Keep every coefficient ≥ 0.
    pub positive: bool,
    /// Fit an intercept (center the data by the training rows' means).
    pub fit_intercept: bool,
    /// The most steps of each path.
    pub max_iter: usize,
    /// The most α values the cross-validation scores (the union of the folds' breakpoints,
    /// thinned evenly past this).
    pub max_n_alphas: usize,
}

impl Default for LassoLarsCvOptions {
    fn default() -> Self {
        LassoLarsCvOptions {
            cv: 5,
            shuffle: None,
            positive: false,
            fit_intercept: true,
            max_iter: 500,
            max_n_alphas: 1000,
        }
    }
}

/// A Lasso fit with α chosen by cross-validation.
#[derive(Clone, Debug, PartialEq)]
pub struct LassoLarsCv {
    /// The chosen α.
    pub alpha: f64,
    /// The coefficients at that α, fitted on every row.
    pub coefficients: Vec<f64>,
    /// The intercept (0 without one).
    pub intercept: f64,
    /// The α values scored, rising.
    pub cv_alphas: Vec<f64>,
    /// The mean squared error of each scored α, per fold.
    pub mse_path: Vec<Vec<f64>>,
}

/// The cross-validation curve of the Lasso: the α values scored (rising: the union of the
/// folds' breakpoints, thinned evenly past `max_n_alphas`) and, per α, each fold's mean
/// squared test error.
#[derive(Clone, Debug, PartialEq)]
pub struct CvCurve {
    /// The α values, rising.
    pub alphas: Vec<f64>,
    /// Per α, the mean squared test error of each fold (folds with no training or no test
    /// rows are left out).
    pub mse_path: Vec<Vec<f64>>,
}

/// The Lasso's cross-validation curve over the given `splits` of the rows (scikit-learn's
/// `LassoLarsCV`): each fold's path is computed on its training rows (centred by their
/// means with an intercept), and its test residuals are interpolated at the union of the
/// folds' breakpoints. [`lasso_lars_cv`] uses K-fold splits; a caller may give others
/// (folds that keep groups of rows together).
///
/// # Errors
/// As [`lasso_lars_path`].
pub fn cv_curve(
    x: &Design,
    y: &[f64],
    splits: &[cv::Split],
    opts: &LassoLarsCvOptions,
) -> Result<CvCurve, FitError> {
    check_observations(x, y)?;
    let folds: Vec<&cv::Split> = splits
        .iter()
        .filter(|f| !f.train.is_empty() && !f.test.is_empty())
        .collect();
    let path_opts = LarsOptions {
        positive: opts.positive,
        max_iter: opts.max_iter,
        alpha_min: 0.0,
    };
    // Per fold: its breakpoints and the test residuals at each.
    let mut paths: Vec<(Vec<f64>, Vec<Vec<f64>>)> = Vec::with_capacity(folds.len());
    for f in folds.iter().copied() {
        let (xt, yt, xmean, ymean) = centered(x, y, &f.train, opts.fit_intercept);
        let path = lasso_lars_path(&xt, &yt, &path_opts)?;
        let residues: Vec<Vec<f64>> = path
            .coefs
            .iter()
            .map(|c| {
                f.test
                    .iter()
                    .map(|&i| {
                        let pred: f64 = (0..x.columns())
                            .map(|j| (x.get(i, j) - xmean[j]) * c[j])
                            .sum();
                        pred - (y[i] - ymean)
                    })
                    .collect()
            })
            .collect();
        paths.push((path.alphas, residues));
    }
    let mut all: Vec<f64> = paths.iter().flat_map(|(a, _)| a.iter().copied()).collect();
    all.sort_by(f64::total_cmp);
    all.dedup();
    let stride = (all.len() / opts.max_n_alphas.max(1)).max(1);
    let all: Vec<f64> = all.into_iter().step_by(stride).collect();
    let top = all.last().copied().unwrap_or(0.0);
    let mut mse_path = vec![vec![f64::NAN; paths.len()]; all.len()];
    for (fold, (alphas, residues)) in paths.iter().enumerate() {
        // Rising α, extended to 0 and to the largest α of any fold.
        let mut a: Vec<f64> = alphas.iter().rev().copied().collect();
        let mut r: Vec<&Vec<f64>> = residues.iter().rev().collect();
        if a.first() != Some(&0.0) {
            a.insert(0, 0.0);
            r.insert(0, r[0]);
        }
        if a.last() != Some(&top) {
            a.push(top);
            r.push(r[r.len() - 1]);
        }
        for (i, &t) in all.iter().enumerate() {
            // Linear interpolation between the breakpoints around t.
            let hi = a.partition_point(|&v| v < t).min(a.len() - 1);
            let lo = hi.saturating_sub(1);
            let w = if a[hi] > a[lo] {
                (t - a[lo]) / (a[hi] - a[lo])
            } else {
                1.0
            };
            let m = r[lo].len().max(1) as f64;
            mse_path[i][fold] = r[lo]
                .iter()
                .zip(r[hi].iter())
                .map(|(l, h)| {
                    let v = l + w * (h - l);
                    v * v
                })
                .sum::<f64>()
                / m;
        }
    }
    Ok(CvCurve {
        alphas: all,
        mse_path,
    })
}

/// The Lasso of `y ≈ c + X·β` with α chosen by K-fold cross-validation, as scikit-learn's
/// `LassoLarsCV`: each fold's path is computed on its training rows, its test residuals are
/// interpolated at the union of the folds' breakpoints, the α with the least mean squared
/// error over the folds is chosen, and the path on all rows is stopped there.
///
/// # Errors
/// As [`lasso_lars_path`].
pub fn lasso_lars_cv(
    x: &Design,
    y: &[f64],
    opts: &LassoLarsCvOptions,
) -> Result<LassoLarsCv, FitError> {
    check_observations(x, y)?;
    let n = x.rows();
    let folds = match opts.shuffle {
        Some(seed) => cv::kfold_shuffled(n, opts.cv, seed),
        None => cv::kfold(n, opts.cv),
    };
    let CvCurve {
        alphas: all,
        mse_path,
    } = cv_curve(x, y, &folds, opts)?;
    let mean = |row: &Vec<f64>| row.iter().sum::<f64>() / row.len().max(1) as f64;
    let best = (0..all.len())
        .filter(|&i| mse_path[i].iter().all(|v| v.is_finite()))
        .min_by(|&a, &b| mean(&mse_path[a]).total_cmp(&mean(&mse_path[b])))
        .unwrap_or(0);
    let alpha = all.get(best).copied().unwrap_or(0.0);
    let rows: Vec<usize> = (0..n).collect();
    let (xc, yc, xmean, ymean) = centered(x, y, &rows, opts.fit_intercept);
    let path = lasso_lars_path(
        &xc,
        &yc,
        &LarsOptions {
            positive: opts.positive,
            max_iter: opts.max_iter,
            alpha_min: alpha,
        },
    )?;
    let coefficients = path
        .coefs
        .last()
        .cloned()
        .unwrap_or_else(|| vec![0.0; x.columns()]);
    let intercept = if opts.fit_intercept {
        ymean
            - xmean
                .iter()
                .zip(&coefficients)
                .map(|(m, c)| m * c)
                .sum::<f64>()
    } else {
        0.0
    };
    Ok(LassoLarsCv {
        alpha,
        coefficients,
        intercept,
        cv_alphas: all,
        mse_path,
    })
}

/// The rows `rows` of the design and observations, centered by their means when `center`;
/// with the means (zeros otherwise).
fn centered(
    x: &Design,
    y: &[f64],
    rows: &[usize],
    center: bool,
) -> (Design, Vec<f64>, Vec<f64>, f64) {
    let k = x.columns();
    let m = rows.len().max(1) as f64;
    let xmean: Vec<f64> = (0..k)
        .map(|j| {
            if center {
                rows.iter().map(|&i| x.get(i, j)).sum::<f64>() / m
            } else {
                0.0
            }
        })
        .collect();
    let ymean = if center {
        rows.iter().map(|&i| y[i]).sum::<f64>() / m
    } else {
        0.0
    };
    let xt = Design {
        m: DMatrix::from_fn(rows.len(), k, |r, j| x.get(rows[r], j) - xmean[j]),
    };
    let yt = rows.iter().map(|&i| y[i] - ymean).collect();
    (xt, yt, xmean, ymean)
}
