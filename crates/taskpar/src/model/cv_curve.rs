//! The cross-validation curve of the Lasso over folds of sizes: scikit-learn's
//! `LassoLarsCV` (each fold's path computed on its training rows, its test residuals
//! interpolated at the union of the folds' breakpoints), with every run of one size in the
//! same fold. With a fold holding some runs of a size and training on the others, the
//! error would not see how a model bends between sizes, which is what extrapolation in n
//! depends on. With one row per size this is `fit::lasso_lars_cv`'s curve, fold for fold.

use fit::{cv, Design, FitError, LarsOptions};

/// The mean squared test error of every fold at each α.
pub(crate) struct Curve {
    /// The α values scored, rising.
    pub alphas: Vec<f64>,
    /// Per α, the mean squared error of each fold.
    pub mse: Vec<Vec<f64>>,
}

/// The most α values scored (scikit-learn's `max_n_alphas`).
const MAX_ALPHAS: usize = 1000;

/// The curve of the Lasso of `y` on the columns `cols` (one value per row), folds made of
/// whole groups (`groups[i]` is row i's group, `0..groups`) shuffled with `seed`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn curve(
    cols: &[Vec<f64>],
    y: &[f64],
    groups: &[usize],
    folds: usize,
    seed: u64,
    intercept: bool,
    positive: bool,
    max_iter: usize,
) -> Result<Curve, FitError> {
    let k = cols.len();
    let count = groups.iter().max().map_or(0, |g| g + 1);
    let splits = cv::kfold_shuffled(count, folds, seed);
    let opts = LarsOptions {
        positive,
        max_iter,
        alpha_min: 0.0,
    };
    // Per fold: its breakpoints (falling) and the test residuals at each.
    let mut paths: Vec<(Vec<f64>, Vec<Vec<f64>>)> = Vec::with_capacity(splits.len());
    for s in &splits {
        let mut in_train = vec![false; count];
        s.train.iter().for_each(|&g| in_train[g] = true);
        let train: Vec<usize> = (0..y.len()).filter(|&i| in_train[groups[i]]).collect();
        let test: Vec<usize> = (0..y.len()).filter(|&i| !in_train[groups[i]]).collect();
        if train.is_empty() || test.is_empty() {
            continue;
        }
        let m = train.len() as f64;
        let mean = |v: &dyn Fn(usize) -> f64| {
            if intercept {
                train.iter().map(|&i| v(i)).sum::<f64>() / m
            } else {
                0.0
            }
        };
        let xmean: Vec<f64> = (0..k).map(|j| mean(&|i| cols[j][i])).collect();
        let ymean = mean(&|i| y[i]);
        let centred: Vec<Vec<f64>> = (0..k)
            .map(|j| train.iter().map(|&i| cols[j][i] - xmean[j]).collect())
            .collect();
        let yc: Vec<f64> = train.iter().map(|&i| y[i] - ymean).collect();
        let path = fit::lasso_lars_path(&Design::from_columns(&centred)?, &yc, &opts)?;
        let residues: Vec<Vec<f64>> = path
            .coefs
            .iter()
            .map(|c| {
                test.iter()
                    .map(|&i| {
                        let pred: f64 = (0..k).map(|j| (cols[j][i] - xmean[j]) * c[j]).sum();
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
    let stride = (all.len() / MAX_ALPHAS).max(1);
    let all: Vec<f64> = all.into_iter().step_by(stride).collect();
    let top = all.last().copied().unwrap_or(0.0);
    let mut mse = vec![vec![f64::NAN; paths.len()]; all.len()];
    for (fold, (alphas, residues)) in paths.iter().enumerate() {
        // Rising α, extended to 0 and to the largest α of any fold.
        let mut a: Vec<f64> = alphas.iter().rev().copied().collect();
        let mut r: Vec<&Vec<f64>> = residues.iter().rev().collect();
        if r.is_empty() {
            continue;
        }
        if a.first() != Some(&0.0) {
            a.insert(0, 0.0);
            r.insert(0, r[0]);
        }
        if a.last() != Some(&top) {
            a.push(top);
            r.push(r[r.len() - 1]);
        }
        for (i, &t) in all.iter().enumerate() {
            let hi = a.partition_point(|&v| v < t).min(a.len() - 1);
            let lo = hi.saturating_sub(1);
            let w = if a[hi] > a[lo] {
                (t - a[lo]) / (a[hi] - a[lo])
            } else {
                1.0
            };
            let m = r[lo].len().max(1) as f64;
            mse[i][fold] = r[lo]
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
    Ok(Curve { alphas: all, mse })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::features::{Feature, Inputs};
    use crate::model::regress::{self, Cv, Data, Rule, Spec};

    /// With one row per group the curve, α and coefficients are `fit::lasso_lars_cv`'s
    /// (scikit-learn's `LassoLarsCV` with shuffled folds).
    #[test]
    fn one_row_per_group_is_lasso_lars_cv() {
        let mut rng = fit::rng::SplitMix64::new(3);
        let x: Vec<Inputs> = (0..23)
            .map(|_| Inputs {
                n: 1.0 + 9.0 * rng.uniform(),
                p: 1.0,
                ..Inputs::default()
            })
            .collect();
        let features = [Feature::N, Feature::NLnN, Feature::N2, Feature::NLnLnN];
        let y: Vec<f64> = x
            .iter()
            .map(|i| 2.0 + 3.0 * i.n + 0.5 * i.n * i.n + 0.3 * rng.gauss())
            .collect();
        let cols: Vec<Vec<f64>> = features
            .iter()
            .map(|f| x.iter().map(|i| f.value(i)).collect())
            .collect();
        let groups: Vec<usize> = (0..y.len()).collect();
        for (intercept, positive) in [(true, true), (true, false), (false, true)] {
            let ours = curve(&cols, &y, &groups, 5, 9, intercept, positive, 500).unwrap();
            let opts = fit::LassoLarsCvOptions {
                cv: 5,
                shuffle: Some(9),
                positive,
                fit_intercept: intercept,
                ..fit::LassoLarsCvOptions::default()
            };
            let theirs =
                fit::lasso_lars_cv(&Design::from_columns(&cols).unwrap(), &y, &opts).unwrap();
            assert_eq!(ours.alphas, theirs.cv_alphas);
            assert_eq!(ours.mse.len(), theirs.mse_path.len());
            for (a, b) in ours
                .mse
                .iter()
                .flatten()
                .zip(theirs.mse_path.iter().flatten())
            {
                assert!((a - b).abs() <= 1e-9 * b.abs().max(1e-12), "{a} vs {b}");
            }
            // Unweighted, α of least error, no refit: the same model as `lasso_lars_cv` on the
            // columns and target scaled as `regress` scales them.
            let scale = |c: &[f64], center: bool| {
                let mean = if center {
                    c.iter().sum::<f64>() / c.len() as f64
                } else {
                    0.0
                };
                c.iter()
                    .map(|v| (v - mean) * (v - mean))
                    .sum::<f64>()
                    .sqrt()
            };
            let scales: Vec<f64> = cols.iter().map(|c| scale(c, intercept)).collect();
            let ys = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let scaled: Vec<Vec<f64>> = cols
                .iter()
                .zip(&scales)
                .map(|(c, s)| c.iter().map(|v| v / s).collect())
                .collect();
            let yscaled: Vec<f64> = y.iter().map(|v| v / ys).collect();
            let theirs =
                fit::lasso_lars_cv(&Design::from_columns(&scaled).unwrap(), &yscaled, &opts)
                    .unwrap();
            let spec = Spec {
                model: "test",
                target: "y",
                variant: "test",
                features: &features,
                intercept,
                positive,
                weighting: "none",
                log_target: false,
            };
            let cv = Cv {
                folds: 5,
                seed: 9,
                max_iter: 500,
                transform: "none",
                rule: Rule::Min,
                relaxed: false,
                prune: 0.0,
            };
            let data = Data {
                x: &x,
                y: &y,
                w: None,
                groups: &groups,
            };
            let sub = regress::fit(&spec, data, cv).unwrap();
            let pred: Vec<f64> = x.iter().map(|i| sub.eval(i)).collect();
            let design = Design::from_columns(&scaled).unwrap();
            let want: Vec<f64> = design
                .predict(&theirs.coefficients)
                .iter()
                .map(|v| (v + theirs.intercept) * ys)
                .collect();
            assert_eq!(sub.alpha, theirs.alpha.max(0.0));
            for (a, b) in pred.iter().zip(&want) {
                assert!((a - b).abs() <= 1e-6 * b.abs().max(1.0), "{a} vs {b}");
            }
        }
    }
}
