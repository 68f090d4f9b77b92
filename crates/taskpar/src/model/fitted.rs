//! A trained model: its sub-models (each a linear model on named features), the choices
//! cross-validation made, the training domain and the bootstrap replicates behind the
//! intervals. This is what the model file holds.

use serde::{Deserialize, Serialize};

use super::features::{Feature, Inputs, Transform};
use super::options::TrainOptions;

/// One fitted sub-model: `target ≈ intercept + Σ coefficients[j]·features[j]`, fitted by a
/// positive (or, for the direct regression, signed) Lasso-LARS with α chosen by K-fold
/// cross-validation on scaled columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubModel {
    /// What it predicts (`work_serial`, `create_task`, …, `ln(elapsed)`).
    pub target: String,
    /// Which form of the sub-model this is (`paper`, `intercept`, `span linear`, …).
    pub variant: String,
    /// What each row was divided by in the fit: `none` (plain least squares, the paper's),
    /// `target` or `p*elapsed` (relative errors).
    pub weighting: String,
    /// The columns.
    pub features: Vec<Feature>,
    /// The divisor of each column before the fit (the L2 norm of the column, centred when
    /// there is an intercept).
    pub scales: Vec<f64>,
    /// The divisor of the (weighted) target before the fit (its largest magnitude).
    pub target_scale: f64,
    /// The coefficients in the target's units (0 for a column left out).
    pub coefficients: Vec<f64>,
    /// The intercept (0 without one).
    pub intercept: f64,
    /// Whether an intercept was fitted by centring (without weights; with weights the
    /// intercept is the feature `1`).
    pub fit_intercept: bool,
    /// Whether the coefficients were kept ≥ 0.
    pub positive: bool,
    /// The α cross-validation chose, on the scaled problem.
    pub alpha: f64,
    /// The Lasso's mean squared error over the folds at that α, of the weighted target (in
    /// the target's units squared without weights; relative errors squared with them).
    pub cv_mse: Option<f64>,
    /// The out-of-fold mean squared (weighted) error of the whole fitting procedure (α,
    /// refit and pruning redone in each fold), by which forms were chosen (`None` for a
    /// sub-model that had no rival forms).
    pub cv_score: Option<f64>,
    /// Columns left out because they are (numerically) combinations of earlier ones.
    pub dropped: Vec<Feature>,
    /// Columns the Lasso selected and the pruning F tests left out.
    pub pruned: Vec<Feature>,
    /// Left-out columns that are, on the training rows, a multiple of a kept one: the
    /// training cannot tell them apart, and the kept one stands for both.
    #[serde(default)]
    pub confounded: Vec<Confound>,
    /// Rows the sub-model was fitted on.
    pub rows: usize,
    /// The model is of ln(target): its value is exp of the linear model (a power law).
    #[serde(default)]
    pub log_target: bool,
    /// The terms were chosen by the `fit` engine's PMNF search (the first feature is the
    /// constant): refits keep every term and solve least squares.
    #[serde(default)]
    pub searched: bool,
}

impl SubModel {
    /// The sub-model's value at `x`.
    pub fn eval(&self, x: &Inputs) -> f64 {
        self.link(eval_with(
            &self.features,
            &self.coefficients,
            self.intercept,
            x,
        ))
    }

    /// The sub-model's value at `x` with other coefficients (a bootstrap replicate's).
    pub fn eval_coefs(&self, c: &Coefs, x: &Inputs) -> f64 {
        self.link(eval_with(&self.features, &c.coefficients, c.intercept, x))
    }

    /// The linear model's value at `x` (ln of the value for a power law).
    pub fn eval_linear(&self, x: &Inputs) -> f64 {
        eval_with(&self.features, &self.coefficients, self.intercept, x)
    }

    fn link(&self, v: f64) -> f64 {
        if self.log_target {
            v.exp()
        } else {
            v
        }
    }

    /// The selected terms: features with a non-zero coefficient.
    pub fn selected(&self) -> Vec<(Feature, f64)> {
        self.features
            .iter()
            .zip(&self.coefficients)
            .filter(|(_, c)| **c != 0.0)
            .map(|(f, c)| (*f, *c))
            .collect()
    }
}

/// A column left out because, on the training rows, it is a multiple of a kept column
/// (`term ≈ ratio · stands_in` in every row: at p ∈ {1, 2}, (p−1) and (p−1)/p are).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Confound {
    /// The column left out.
    pub term: Feature,
    /// The kept column that stands for both.
    pub stands_in: Feature,
    /// `term / stands_in` on the training rows.
    pub ratio: f64,
}

impl Confound {
    /// How many times what the kept column gives at `x` is what the left-out one would
    /// have given with the same fit (1 on the training rows; infinite where the left-out
    /// column is 0 and the kept one is not).
    pub fn factor(&self, x: &Inputs) -> f64 {
        let (kept, left) = (self.stands_in.value(x), self.term.value(x));
        if kept == 0.0 && left == 0.0 {
            1.0
        } else {
            self.ratio * kept / left
        }
    }
}

impl SubModel {
    /// The confounds whose kept column is in the fit (a non-zero coefficient), each with
    /// its [`Confound::factor`] at `x`.
    pub fn confounds_at(&self, x: &Inputs) -> Vec<(&Confound, f64)> {
        self.confounded
            .iter()
            .filter(|c| {
                self.features
                    .iter()
                    .zip(&self.coefficients)
                    .any(|(f, k)| *f == c.stands_in && *k != 0.0)
            })
            .map(|c| (c, c.factor(x)))
            .collect()
    }
}

fn eval_with(features: &[Feature], coefficients: &[f64], intercept: f64, x: &Inputs) -> f64 {
    let mut sum = intercept;
    for (f, c) in features.iter().zip(coefficients) {
        if *c != 0.0 {
            sum += c * f.value(x);
        }
    }
    sum
}

/// Coefficients and intercept of one sub-model in a bootstrap replicate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Coefs {
    /// The coefficients, one per feature of the sub-model.
    pub coefficients: Vec<f64>,
    /// The intercept.
    pub intercept: f64,
}

/// One bootstrap replicate of the chain: every sub-model refitted on resampled residuals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replicate {
    /// T1'(n).
    pub serial: Coefs,
    /// create_task(n).
    pub create_task: Coefs,
    /// wait_tasks(n).
    pub wait_tasks: Coefs,
    /// T1 − T1'.
    pub work: Coefs,
    /// delay.
    pub delay: Coefs,
    /// no_work.
    pub no_work: Coefs,
    /// T∞(n), when the model has it.
    pub span: Option<Coefs>,
}

/// A form of a sub-model that was tried.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The form.
    pub variant: String,
    /// Its out-of-fold mean squared (weighted) error ([`SubModel::cv_score`]; `None` when it
    /// was not scored: a fixed form, or too few sizes).
    pub cv_score: Option<f64>,
}

/// A choice cross-validation made between forms of a sub-model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// The sub-model (`create_task`, `wait_tasks`, `no_work`).
    pub sub_model: String,
    /// The form chosen.
    pub chosen: String,
    /// Every form tried, scored on the same folds.
    pub candidates: Vec<Candidate>,
    /// Whether the form was fixed by the options rather than chosen.
    pub fixed: bool,
}

/// The runs a model was trained on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Domain {
    /// The smallest size (before the transform).
    pub n_min: f64,
    /// The largest size.
    pub n_max: f64,
    /// The fewest workers.
    pub p_min: f64,
    /// The most workers.
    pub p_max: f64,
    /// Runs.
    pub rows: usize,
    /// Distinct sizes.
    pub sizes: usize,
}

/// How the prediction intervals are made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IntervalMethod {
    /// A description of the method.
    pub method: String,
    /// The coverage aimed at ([`fit::run::INTERVAL_LEVEL`] by default: 0.95, the 2.5% and
    /// 97.5% quantiles).
    pub level: f64,
}

/// The two-step model of time(n, p) for one application (Namsraijav & Taura, §4.3), with
/// the span-based no_work forms, the direct-regression baseline and the bootstrap
/// replicates for intervals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// [`super::file::FORMAT`].
    pub format: String,
    /// [`super::file::VERSION`].
    pub version: u32,
    /// The application, when the runs named one.
    pub app: Option<String>,
    /// The transform of n.
    pub transform: Transform,
    /// The training domain.
    pub domain: Domain,
    /// The options the model was trained with.
    pub options: TrainOptions,
    /// T1'(n), eq. 11.
    pub serial: SubModel,
    /// create_task(n), eq. 13.
    pub create_task: SubModel,
    /// wait_tasks(n), eq. 14.
    pub wait_tasks: SubModel,
    /// T1 − T1', eq. 10.
    pub work: SubModel,
    /// delay, eq. 12.
    pub delay: SubModel,
    /// no_work: eq. 15 or a span-based form.
    pub no_work: SubModel,
    /// T∞(n), when the runs recorded the span.
    pub span: Option<SubModel>,
    /// The direct regression of ln(elapsed) on ln n and ln p.
    pub direct: SubModel,
    /// The choices made by cross-validation.
    pub choices: Vec<Choice>,
    /// How intervals are made.
    pub interval: IntervalMethod,
    /// The bootstrap replicates (empty: no intervals).
    pub bootstrap: Vec<Replicate>,
    /// The forward-validation errors and the repetitions' spread behind the calibrated
    /// intervals ([`fit::interval`]); empty in a model file written before them.
    #[serde(default)]
    pub calibration: fit::interval::Calibration,
}

impl Model {
    /// The sub-models by name, in the chain's order (the span when there is one, the direct
    /// regression last).
    pub fn sub_models(&self) -> Vec<(&'static str, &SubModel)> {
        let mut out = vec![
            ("work_serial", &self.serial),
            ("create_task", &self.create_task),
            ("wait_tasks", &self.wait_tasks),
            ("work", &self.work),
            ("delay", &self.delay),
            ("no_work", &self.no_work),
        ];
        if let Some(s) = &self.span {
            out.push(("span", s));
        }
        out.push(("direct", &self.direct));
        out
    }
}
