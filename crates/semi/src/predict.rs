//! Prediction (spec §4 steps 7–8): a model with its coefficients is instantiated at the
//! target parameters and traversed by Algorithm G ([`crate::validate`] compares predictions
//! with measured runs).

use std::time::Instant;

use fit::read::ReadError;

use crate::collapse::Collapsed;
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
    /// Collapse each cluster of identical threads to one representative (eq. 2.5,
    /// [`crate::collapse`]) before the traversal.
    pub collapse: bool,
    /// Traverse this many times, with the seeds `sim.seed`, `sim.seed + 1`, …, and give the
    /// mean (0 and 1: once). A graph with branches draws an arm at random each time.
    pub draws: usize,
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
    /// The loop entries and exits the paper counts in Θ besides `size.events`
    /// ([`crate::instantiate::Count::loop_events`]).
    pub loop_events: u64,
    /// What eq. 2.5's collapse did with each cluster ([`PredictOptions::collapse`]).
    pub collapsed: Vec<Collapsed>,
    /// Whether the graph has branches: `outcome` is then one random draw of their arms.
    pub branches: bool,
    /// The seed of `outcome`'s traversal.
    pub seed: u64,
    /// The times of [`PredictOptions::draws`] traversals, when more than one was asked for.
    pub draws: Option<Draws>,
}

/// The times of several traversals of one graph with different seeds: with branches, the
/// expectation over their random draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Draws {
    /// The traversals.
    pub count: usize,
    /// The first seed (`count` seeds from it).
    pub seed: u64,
    /// Their mean time: the expectation over the draws.
    pub mean: f64,
    /// The standard deviation of the times (n − 1).
    pub sd: f64,
    /// The shortest time.
    pub min: f64,
    /// The longest.
    pub max: f64,
}

/// The most traversals [`PredictOptions::draws`] may ask for.
pub const MAX_DRAWS: usize = 100_000;

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
    /// More traversals than [`MAX_DRAWS`] asked for.
    #[error("{draws} draws asked for; at most {MAX_DRAWS}")]
    TooManyDraws {
        /// The number asked for.
        draws: usize,
    },
    /// The parameter the processor count is read from is not a given parameter of the model.
    #[error("the model has no given parameter `{name}` to read the processor count from")]
    NoProcessors {
        /// The name.
        name: String,
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
    if opts.draws > MAX_DRAWS {
        return Err(PredictError::TooManyDraws { draws: opts.draws });
    }
    let started = Instant::now();
    let inst = instantiate(model, b, &opts.limits)?;
    let notes = if opts.notes {
        costs.beyond(&inst.graph)
    } else {
        Vec::new()
    };
    let (graph, collapsed) = if opts.collapse {
        crate::collapse::collapse(&inst.graph, &inst.clusters)
    } else {
        (inst.graph, Vec::new())
    };
    let finite = |outcome: &Outcome| {
        // A thread ending at NaN (inf − inf) would not move the maximum: check every end.
        let bad = outcome
            .threads
            .iter()
            .filter_map(|t| t.end)
            .find(|e| !e.is_finite());
        match bad.or((!outcome.time.is_finite()).then_some(outcome.time)) {
            Some(time) => Err(PredictError::NotFinite {
                point: point_text(&inst.params),
                time,
            }),
            None => Ok(()),
        }
    };
    let outcome = simulate(&graph, costs, &opts.sim)?;
    finite(&outcome)?;
    let draws = if opts.draws > 1 {
        let mut times = vec![outcome.time];
        for k in 1..opts.draws {
            let sim = Options {
                seed: opts.sim.seed.wrapping_add(k as u64),
                schedule: false,
                ..opts.sim
            };
            let o = simulate(&graph, costs, &sim)?;
            finite(&o)?;
            times.push(o.time);
        }
        let n = times.len() as f64;
        let mean = times.iter().sum::<f64>() / n;
        let var = times.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1.0);
        Some(Draws {
            count: times.len(),
            seed: opts.sim.seed,
            mean,
            sd: var.sqrt(),
            min: times.iter().copied().fold(f64::INFINITY, f64::min),
            max: times.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        })
    } else {
        None
    };
    Ok(Prediction {
        params: inst.params,
        branches: graph.has_branches(),
        seed: opts.sim.seed,
        threads: graph.threads.into_iter().map(|t| t.name).collect(),
        size: inst.size,
        outcome,
        estimate_seconds: started.elapsed().as_secs_f64(),
        notes,
        loop_events: inst.loop_events,
        collapsed,
        draws,
    })
}
