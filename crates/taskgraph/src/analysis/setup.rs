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
use super::explain::{Explained, Labels};
use super::policy::{PolicyKind, PolicyName};
use super::system::{MvaModel, NoOverhead, SystemError, SystemModel, SystemSpec};
use super::AnalysisError;
use crate::TaskGraph;

/// Why a setup cannot be made; the messages name inputs by `{key}`s, as [`diag::Advice`].
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// Stealing asked of a policy other than `queues`.
    #[error("{{steal}} applies only to {{policy}} queues, not `{0}`")]
    Steal(PolicyName),
    /// The system model file is not a system model.
    #[error("`{}`: {}", diag::literal(file), diag::literal(&error.to_string()))]
    System {
        /// The file's name.
        file: String,
        /// Why.
        error: SystemError,
    },
}

impl diag::Advise for SetupError {
    fn advice(&self) -> Option<diag::Advice> {
        Some(match self {
            SetupError::Steal(_) => diag::Advice::usage(""),
            SetupError::System { .. } => diag::Advice::fix(
                "a system model has `[[center]]` tables with name, kind = \"queueing\" or \
                 \"delay\", service and visits; optional top-level rate and exact_limit, and an \
                 optional [lock] with hold",
            ),
        })
    }

    /// The text with its input keys spelt.
    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        diag::spell_keys(&self.to_string(), spell)
    }
}

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
    /// The policy `policy` (`steal`: `queues` takes from other queues) with the system model
    /// of the text `system` (its file's name and its TOML), if any.
    ///
    /// # Errors
    /// [`SetupError`]: stealing without `queues`, a system model that does not parse.
    pub fn new(
        policy: PolicyName,
        steal: bool,
        system: Option<(&str, &str)>,
    ) -> Result<Setup, SetupError> {
        let policy = PolicyKind::new(policy, steal)?;
        let system = match system {
            None => None,
            Some((file, text)) => {
                Some(SystemSpec::parse(text).map_err(|error| SetupError::System {
                    file: file.to_string(),
                    error,
                })?)
            }
        };
        Ok(Setup { policy, system })
    }

    /// The report's names of the inputs: the graph's and the system model's files.
    pub fn labels(&self, graph: String, system: Option<String>) -> Labels {
        Labels {
            graph,
            policy: self.policy.name().to_string(),
            steal: matches!(self.policy, PolicyKind::Queues { steal: true }),
            system,
        }
    }

    /// The report of `g` analysed on `procs` processes (counting finished tasks in `meter`),
    /// with the one-process run for the speedup beside it (on another core); a failed
    /// one-process run is noted in the report.
    ///
    /// # Errors
    /// As [`Setup::analyze`] on `procs` processes.
    pub fn explain(
        &self,
        g: &TaskGraph,
        procs: usize,
        labels: Labels,
        meter: Option<&sweep::Meter>,
    ) -> Result<Explained, AnalysisError> {
        let baseline = || {
            (procs != 1).then(|| {
                self.baseline(g)
                    .map(|b| b.makespan)
                    .map_err(|e| format!("the P = 1 baseline run failed: {e}"))
            })
        };
        let (run, p1) = rayon::join(|| self.analyze(g, procs, meter), baseline);
        Ok(Explained::new(g, labels, self, procs, run?, p1))
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use diag::Advise;

    const DIAMOND: &str = r#"{"tasks": [
        {"id": "A", "time": 2}, {"id": "B", "time": 3, "preds": ["A"]},
        {"id": "C", "time": 5, "preds": ["A"]}, {"id": "D", "time": 1, "preds": ["B", "C"]}
    ]}"#;

    #[test]
    fn stealing_needs_queues_and_a_system_model_must_parse() {
        let e = Setup::new(PolicyName::Lpt, true, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "{steal} applies only to {policy} queues, not `lpt`"
        );
        assert!(e.advice().unwrap().usage);
        let s = Setup::new(PolicyName::Queues, true, None).unwrap();
        assert_eq!(s.policy, PolicyKind::Queues { steal: true });
        let l = s.labels("g.json".into(), None);
        assert_eq!((l.policy.as_str(), l.steal), ("queues", true));
        let e = Setup::new(PolicyName::Fifo, false, Some(("bus.toml", ""))).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("`bus.toml`: system model: no [[center]]"));
        assert!(!e.advice().unwrap().usage);
    }

    #[test]
    fn the_explained_run_has_the_one_process_makespan_beside_it() {
        let g = crate::read_json(DIAMOND).unwrap();
        let s = Setup::new(PolicyName::Fifo, false, None).unwrap();
        let an = s.explain(&g, 2, s.labels("g".into(), None), None).unwrap();
        // Work 11 on one process; 8 on two (the critical path A, C, D).
        assert_eq!((an.makespan_p1, an.schedule.makespan), (Some(11.0), 8.0));
        let (tr, title) = an.timeline(&g, std::path::Path::new("dir/g.json"));
        assert_eq!(title, "g.json: policy fifo, P = 2: makespan 8");
        assert_eq!(tr.intervals.len(), 4);
        let e = s
            .explain(&g, 0, s.labels("g".into(), None), None)
            .unwrap_err();
        assert!(e.advice().unwrap().fix.contains("{procs}"));
    }
}
