//! An analysis configured once and run at many process counts: the policy, the optional
//! system model, and the scaling figures of one process count for a sweep.
//!
//! ```
//! use taskgraph::analysis::{policy::PolicyKind, setup::{Setup, SCALING_COLUMNS}};
//! let g = taskgraph::read_json(r#"{"tasks": [
//!     {"id": "A", "time": 2}, {"id": "B", "time": 3, "preds": ["A"]},
//!     {"id": "C", "time": 5, "preds": ["A"]}, {"id": "D", "time": 1, "preds": ["B", "C"]}
//! ]}"#).unwrap();
//! let setup = Setup { policy: PolicyKind::Fifo, system: None };
//! let base = setup.baseline(&g).unwrap();
//! assert_eq!((base.makespan, base.average_parallelism), (11.0, 11.0 / 8.0));
//! let at2 = setup.scaling(&g, 2, &base).unwrap();
//! assert_eq!(SCALING_COLUMNS[1], "speedup");
//! assert_eq!(at2[..2], [8.0, 11.0 / 8.0]);
//! ```

use super::engine::{self, Schedule};
use super::policy::PolicyKind;
use super::system::{MvaModel, NoOverhead, SystemModel, SystemSpec};
use super::AnalysisError;
use crate::TaskGraph;

/// A policy and an optional system model, to analyse a graph at any number of processes.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The scheduling policy.
    pub policy: PolicyKind,
    /// The system model (a closed queueing network solved by MVA), if any.
    pub system: Option<SystemSpec>,
}

/// The schedule of one analysis.
#[derive(Clone, Debug)]
pub struct Run {
    /// The schedule.
    pub schedule: Schedule,
    /// How many times the system model's network was solved (with a system model).
    pub solves: Option<usize>,
}

/// What the figures of other process counts are measured against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Baseline {
    /// The makespan on one process.
    pub makespan: f64,
    /// Work / span, the bound on the speedup at any process count (0 for an empty span).
    pub average_parallelism: f64,
}

/// The figures of [`Setup::scaling`], in order.
pub const SCALING_COLUMNS: [&str; 5] = [
    "makespan",
    "speedup",
    "efficiency",
    "work_bound",
    "span_bound",
];

impl Setup {
    /// Analyses `g` on `procs` processes, counting finished tasks in `meter`.
    ///
    /// # Errors
    /// As [`engine::analyze`].
    pub fn analyze(
        &self,
        g: &TaskGraph,
        procs: usize,
        meter: Option<&sweep::Meter>,
    ) -> Result<Run, AnalysisError> {
        let mut policy = self.policy.build();
        let mut mva = self.system.as_ref().map(|spec| MvaModel::new(spec.clone()));
        let system: &mut dyn SystemModel = match &mut mva {
            None => &mut NoOverhead,
            Some(m) => m,
        };
        let limits = engine::Limits::default();
        let schedule = engine::analyze_metered(g, procs, policy.as_mut(), system, &limits, meter)?;
        Ok(Run {
            schedule,
            solves: mva.map(|m| m.solves),
        })
    }

    /// The one-process makespan and the average parallelism of `g`.
    ///
    /// # Errors
    /// As [`Setup::analyze`] on one process.
    pub fn baseline(&self, g: &TaskGraph) -> Result<Baseline, AnalysisError> {
        Ok(Baseline {
            makespan: self.analyze(g, 1, None)?.schedule.makespan,
            average_parallelism: g.average_parallelism(),
        })
    }

    /// The figures of `procs` processes against `base`, in the order of
    /// [`SCALING_COLUMNS`]: the makespan, the speedup (one-process makespan / makespan)
    /// and the efficiency (speedup / procs), both NaN for a zero makespan, and the two
    /// bounds on the speedup: `procs` (work) and the average parallelism (span).
    ///
    /// # Errors
    /// As [`Setup::analyze`].
    pub fn scaling(
        &self,
        g: &TaskGraph,
        procs: usize,
        base: &Baseline,
    ) -> Result<[f64; 5], AnalysisError> {
        let makespan = self.analyze(g, procs, None)?.schedule.makespan;
        let speedup = if makespan > 0.0 {
            base.makespan / makespan
        } else {
            f64::NAN
        };
        Ok([
            makespan,
            speedup,
            speedup / procs as f64,
            procs as f64,
            base.average_parallelism,
        ])
    }
}
