//! Prediction (spec §4 steps 7–8): a model with its coefficients is instantiated at the
//! target parameters and traversed by Algorithm G ([`crate::validate`] compares predictions
//! with measured runs).

use std::time::Instant;

use fit::read::ReadError;

use crate::graph::Size;
use crate::instantiate::{instantiate, Bindings, Limits};
use crate::lang::{Model, ModelError};
use crate::metrics::MetricError;
use crate::point::point_text;
use crate::samples::SamplesError;
use crate::sim::{simulate, EventCosts, Options, Outcome, SimError};

/// How to predict.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PredictOptions {
    /// The instantiation's limits.
    pub limits: Limits,
    /// Algorithm G's options (processors, seed, step limit, schedule).
    pub sim: Options,
    /// Compare the graph's events with what the event costs were measured for and note the
    /// gaps ([`EventCosts::beyond`], a walk over the graph): for predictions a user reads,
    /// not for the many a fit makes.
    pub notes: bool,
}

/// One prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// Every parameter's value, derived ones included.
    pub params: Vec<(String, f64)>,
    /// The threads' names (`main`, `worker[3]`), in the order of `outcome.threads`.
    pub threads: Vec<String>,
    /// Θ and the traversal's steps.
    pub size: Size,
    /// What G found: the time and where each thread's time went.
    pub outcome: Outcome,
    /// The time spent instantiating and traversing, seconds (T_estimate of eq. 4.8).
    pub estimate_seconds: f64,
    /// What the user should know: events whose costs are extrapolated beyond the machine
    /// profile ([`EventCosts::beyond`]; with [`PredictOptions::notes`]).
    pub notes: Vec<String>,
}

/// Why a prediction failed.
#[derive(Debug, thiserror::Error)]
pub enum PredictError {
    /// The model cannot be instantiated at the point.
    #[error(transparent)]
    Model(#[from] Box<ModelError>),
    /// The traversal failed.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// A measured file is not valid.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The validation metrics cannot be computed.
    #[error(transparent)]
    Metric(#[from] MetricError),
    /// The samples cannot be fitted.
    #[error(transparent)]
    Samples(#[from] SamplesError),
    /// The predicted time is not a finite number: segment times and event costs added up past
    /// the largest number.
    #[error("at {point}: the predicted time is {time} s, not a finite number: the segment times and event costs add up past the largest number")]
    NotFinite {
        /// The point (`N=800, P=8`).
        point: String,
        /// The time (infinite or NaN).
        time: f64,
    },
    /// The processor-count parameter is not a parameter of the model.
    #[error("the model has no parameter `{name}` to group the validation by")]
    NoGroup {
        /// The name.
        name: String,
    },
}

/// Predicts `model` at `b` (parameters and coefficients) with event costs `costs`.
///
/// # Errors
/// [`PredictError::Model`] (a binding, a value, a limit with Θ), [`PredictError::Sim`]
/// (a deadlock, the step limit) or [`PredictError::NotFinite`].
pub fn predict<C: EventCosts>(
    model: &Model,
    b: &Bindings,
    costs: &C,
    opts: &PredictOptions,
) -> Result<Prediction, PredictError> {
    let started = Instant::now();
    let inst = instantiate(model, b, &opts.limits)?;
    let notes = if opts.notes {
        costs.beyond(&inst.graph)
    } else {
        Vec::new()
    };
    let outcome = simulate(&inst.graph, costs, &opts.sim)?;
    // A thread ending at NaN (inf − inf) would not move the maximum: check every end.
    let bad = outcome
        .threads
        .iter()
        .filter_map(|t| t.end)
        .find(|e| !e.is_finite());
    if let Some(time) = bad.or((!outcome.time.is_finite()).then_some(outcome.time)) {
        return Err(PredictError::NotFinite {
            point: point_text(&inst.params),
            time,
        });
    }
    Ok(Prediction {
        params: inst.params,
        threads: inst.graph.threads.into_iter().map(|t| t.name).collect(),
        size: inst.size,
        outcome,
        estimate_seconds: started.elapsed().as_secs_f64(),
        notes,
    })
}
