//! The cross-validation curve of the Lasso over folds of sizes: scikit-learn's
//! `LassoLarsCV` (each fold's path computed on its training rows, its test residuals
//! interpolated at the union of the folds' breakpoints), with every run of one size in the
//! same fold. With a fold holding some runs of a size and training on the others, the
//! error would not see how a model bends between sizes, which is what extrapolation in n
//! depends on. With one row per size this is `fit::lasso_lars_cv`'s curve, fold for fold.

use fit::{cv, Design, FitError, LassoLarsCvOptions};

/// The mean squared test error of every fold at each α.
pub(crate) struct Curve {
    /// The α values scored, rising.
    pub alphas: Vec<f64>,
    /// Per α, the mean squared error of each fold.
    pub mse: Vec<Vec<f64>>,
}

/// The curve of the Lasso of `y` on the columns `cols` (one value per row), folds made of
/// whole groups (`groups[i]` is row i's group, `0..groups`) shuffled with `seed`: the
/// groups' K-fold splits turned into splits of their rows, for `fit::cv_curve`.
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
    let count = groups.iter().max().map_or(0, |g| g + 1);
    let splits: Vec<cv::Split> = cv::kfold_shuffled(count, folds, seed)
        .into_iter()
        .map(|s| {
            let mut in_train = vec![false; count];
            s.train.iter().for_each(|&g| in_train[g] = true);
            cv::Split {
                train: (0..y.len()).filter(|&i| in_train[groups[i]]).collect(),
                test: (0..y.len()).filter(|&i| !in_train[groups[i]]).collect(),
            }
        })
        .collect();
    let opts = LassoLarsCvOptions {
        positive,
        fit_intercept: intercept,
        max_iter,
        ..LassoLarsCvOptions::default()
    };
    let c = fit::cv_curve(&Design::from_columns(cols)?, y, &splits, &opts)?;
    Ok(Curve {
        alphas: c.alphas,
        mse: c.mse_path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::features::{Feature, Inputs};
    use crate::model::regress::{self, Cv, Data, Rule, Spec};
    use stats::rng::Draw;

    /// With one row per group the curve, α and coefficients are `fit::lasso_lars_cv`'s
    /// (scikit-learn's `LassoLarsCV` with shuffled folds).
    #[test]
    fn one_row_per_group_is_lasso_lars_cv() {
        let mut rng = stats::rng::seeded(3);
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
                selection: crate::model::Selection::Shuffled,
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
