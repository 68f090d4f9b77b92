//! What can go wrong when a model is trained or asked for a prediction.

/// Why a model cannot be trained on a set of runs.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// No runs.
    #[error("no runs to train on")]
    Empty,
    /// Runs of several applications.
    #[error("the runs belong to {} applications ({}); a model describes one application", .apps.len(), .apps.join(", "))]
    SeveralApps {
        /// The applications.
        apps: Vec<String>,
    },
    /// Too few distinct sizes or worker counts.
    #[error("the runs have {found} distinct {what}; the model needs at least {needed}")]
    TooFew {
        /// `sizes n` or `worker counts p`.
        what: &'static str,
        /// How many there are.
        found: usize,
        /// How many are needed.
        needed: usize,
    },
    /// A run with a value out of range.
    #[error("run {row} (n = {n}, p = {p}): {message}")]
    BadRun {
        /// The run (0-based).
        row: usize,
        /// Its size.
        n: f64,
        /// Its workers.
        p: f64,
        /// What is wrong.
        message: String,
    },
    /// A span-based no_work form asked for, and runs without a span.
    #[error("the no_work form `{form}` needs the span of every run, and some runs have none")]
    NeedsSpan {
        /// The form.
        form: &'static str,
    },
    /// A feature is not a finite number (n³ or 2^n overflowing).
    #[error("the {model} model: feature `{feature}` is not a finite number at n = {n} (after the transform {transform})")]
    NotFinite {
        /// The sub-model.
        model: &'static str,
        /// The feature.
        feature: String,
        /// The size.
        n: f64,
        /// The transform.
        transform: &'static str,
    },
    /// The regression failed.
    #[error("fitting the {model} model: {source}")]
    Fit {
        /// The sub-model.
        model: &'static str,
        /// The regression's error.
        #[source]
        source: fit::FitError,
    },
}

/// Why a model cannot predict at a point.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PredictError {
    /// The size is not usable (not finite, ≤ 0, or overflowing after the transform).
    #[error("cannot predict at n = {n}: {why}")]
    Size {
        /// The size asked for.
        n: f64,
        /// Why not.
        why: &'static str,
    },
    /// The worker count is not usable (not finite or < 1).
    #[error("cannot predict at p = {p}: the worker count must be a finite number ≥ 1")]
    Workers {
        /// The workers asked for.
        p: f64,
    },
}
