//! The options of training: the forms of the sub-models, the weighting of the rows, how α
//! is chosen, the refit and pruning of the selected terms, the bootstrap.

use serde::{Deserialize, Serialize};

use super::features::{self, Feature, Transform};

/// The most bootstrap replicates a model keeps.
pub const MAX_BOOTSTRAP: usize = 200;

/// The forms of the no_work sub-model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoWorkForm {
    /// Eq. 15: (p−1)²·(f1 + f2·n + f3·n ln n + f4·n²).
    #[serde(rename = "paper")]
    Paper,
    /// g0·(p−1) + g1·(p−1)·T∞(n) (Graham's bound plus a start-up cost per extra worker).
    #[serde(rename = "span linear")]
    SpanLinear,
    /// g1·(p−1)·T∞(n) + g2·(p−1)²·T∞(n) (the paper's ramps with the span as their length).
    #[serde(rename = "span quadratic")]
    SpanQuadratic,
}

impl NoWorkForm {
    /// Every form, the paper's first.
    pub const ALL: [NoWorkForm; 3] = [
        NoWorkForm::Paper,
        NoWorkForm::SpanLinear,
        NoWorkForm::SpanQuadratic,
    ];

    /// The form's name (as a model file records it).
    pub fn name(self) -> &'static str {
        match self {
            NoWorkForm::Paper => "paper",
            NoWorkForm::SpanLinear => "span linear",
            NoWorkForm::SpanQuadratic => "span quadratic",
        }
    }

    /// The form's columns.
    pub fn features(self) -> &'static [Feature] {
        match self {
            NoWorkForm::Paper => &features::NO_WORK_PAPER,
            NoWorkForm::SpanLinear => &features::NO_WORK_SPAN_LINEAR,
            NoWorkForm::SpanQuadratic => &features::NO_WORK_SPAN_QUADRATIC,
        }
    }

    /// Whether the form needs the span.
    pub fn uses_span(self) -> bool {
        self != NoWorkForm::Paper
    }
}

/// How the rows of a sub-model's regression are weighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Weighting {
    /// Relative errors: the size models' rows divided by their target, the (n, p) models'
    /// rows by the run's p·elapsed (= T1 + delay + no_work, so each row's error counts as its
    /// share of the time). The intercepts become columns of ones, kept ≥ 0.
    #[default]
    #[serde(rename = "relative")]
    Relative,
    /// Plain least squares (the paper's `LassoLarsCV`): the largest runs dominate.
    #[serde(rename = "none")]
    None,
}

diag::choices! {
    /// How rival forms of a sub-model (the size models' bases, the power law, the PMNF
    /// search, the no_work forms) are scored against each other.
    #[derive(Default, Serialize, Deserialize)]
    pub enum Selection {
        /// Forward (rolling-origin) validation: each of the larger half of the training sizes
        /// predicted from the sizes below it. The forms are then chosen by how they
        /// extrapolate, which is what a prediction at larger n asks of them.
        #[default]
        #[serde(rename = "forward")]
        Forward = "forward": "Each of the larger half of the training sizes predicted from the sizes below it",
        /// Shuffled K-fold cross-validation over the sizes (the paper's choice of α, applied to
        /// forms): mostly interpolation, so a form that bends at the largest sizes can win.
        #[serde(rename = "shuffled")]
        Shuffled = "shuffled": "Shuffled K-fold cross-validation over the sizes",
    }
}

/// How the Lasso's α is chosen from the cross-validation curve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AlphaRule {
    /// The α of least mean cross-validated error (scikit-learn's `LassoLarsCV`).
    #[default]
    #[serde(rename = "min")]
    Min,
    /// The largest α whose mean error is within one standard error of the least (fewer
    /// terms).
    #[serde(rename = "one standard error")]
    OneSe,
}

/// How to train.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainOptions {
    /// The transform of n (the paper: 2^n for fib and nqueens).
    pub transform: Transform,
    /// Folds of the cross-validations (5).
    pub folds: usize,
    /// The seed of the shuffled folds and of the bootstrap.
    pub seed: u64,
    /// Bootstrap replicates for the intervals (at most [`MAX_BOOTSTRAP`]; 0: no intervals).
    pub bootstrap: usize,
    /// An intercept in the task-count models: `None` chooses by cross-validation, `Some`
    /// fixes it (the paper: `Some(false)`).
    pub count_intercept: Option<bool>,
    /// The no_work form: `None` chooses by cross-validation among the forms the runs
    /// allow (the span forms need a `span` column).
    pub no_work: Option<NoWorkForm>,
    /// The weighting of the rows (relative errors; the paper: none).
    pub weighting: Weighting,
    /// How α is chosen (the paper: min).
    pub alpha_rule: AlphaRule,
    /// Refit the terms the Lasso selected without penalty (non-negative least squares),
    /// undoing its shrinkage (the paper: no).
    pub relaxed: bool,
    /// With `relaxed`, the level of the F tests that prune the selected terms from the
    /// fastest-growing down while they add nothing significant (0.05; 0: no pruning; the
    /// paper: 0). A term of 1% at the largest training size that is noise becomes 5× the
    /// time at 8× the size under n³: extrapolation needs the sparser model.
    pub prune: f64,
    /// Offer a power law c·n^a (any exponent, fitted in ln) beside the paper's basis for
    /// the size models (T1', the task counts, the span), chosen by cross-validation (the
    /// paper: no). Work such as n^log2(7) (Strassen) or φ^n (fib) lies between the basis
    /// terms, and the basis misses it by a growing factor outside the training sizes.
    #[serde(default)]
    pub power_laws: bool,
    /// Offer the `fit` engine's PMNF search (a constant and up to two terms
    /// `n^a·log2(n)^j`, exact or fitted exponents) as a further size-model candidate,
    /// chosen by cross-validation (the paper: no). A fixed cost plus a growing term
    /// (runtime overhead per task under the work) is a form neither the basis nor the power
    /// law has.
    #[serde(default)]
    pub pmnf_search: bool,
    /// How rival forms are scored (forward validation; the paper chose no forms).
    #[serde(default)]
    pub selection: Selection,
    /// The most steps of each Lasso path (500, as scikit-learn).
    pub max_iter: usize,
}

impl TrainOptions {
    /// The paper's settings, as far as it states them (with positive coefficients and 5
    /// folds): plain least squares, α of least cross-validated error, the Lasso's
    /// coefficients as they are, no intercept in the task counts, eq. 15 for no_work.
    pub fn paper() -> Self {
        TrainOptions {
            count_intercept: Some(false),
            no_work: Some(NoWorkForm::Paper),
            weighting: Weighting::None,
            alpha_rule: AlphaRule::Min,
            relaxed: false,
            prune: 0.0,
            power_laws: false,
            pmnf_search: false,
            ..TrainOptions::default()
        }
    }
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            transform: Transform::None,
            folds: 5,
            seed: 0,
            bootstrap: fit::run::BOOTSTRAP_REPLICATES,
            count_intercept: None,
            no_work: None,
            weighting: Weighting::Relative,
            alpha_rule: AlphaRule::Min,
            relaxed: true,
            prune: 0.05,
            power_laws: true,
            pmnf_search: false,
            selection: Selection::Forward,
            max_iter: 500,
        }
    }
}
