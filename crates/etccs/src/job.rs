//! The front door of the ETCCS analyses: a [`Job`] holds the model text, the values given
//! to its constants (single values, ranges or lists), the constants made symbolic, the
//! agents, the limits and what the caller will draw; [`Job::plan`] checks it and parses the
//! model at every assignment, and [`Plan::run`] analyses every agent there, in parallel on
//! the sweep runner ([`sweep::map`]), each with the concrete or the parametric analysis
//! ([`crate::analyse_report`]). One assignment (or none) gives every agent's [`Report`]
//! ([`Results::One`]); several give a table ([`Results::Table`]) where an analysis that
//! stopped at a limit is a cell and the table goes on.
//!
//! ```
//! use etccs::job::{Job, Results};
//! let text = "const t = 2;\nagent A = tau@t . nil;\nanalyse A";
//! let one = Job::new("m.etccs", text).run()?;
//! let Results::One(one) = one else { panic!("one assignment") };
//! assert_eq!(one.reports[0].states(), 2);
//!
//! let grid = expr::grid::parse_binding("t=2..4").unwrap();
//! let table = Job { bindings: vec![grid], ..Job::new("m.etccs", text) }.run()?;
//! let Results::Table(table) = table else { panic!("a sweep") };
//! assert_eq!((table.rows.len(), table.stopped()), (3, 0));
//! # Ok::<(), etccs::job::JobError>(())
//! ```

use std::sync::Arc;

use expr::grid::Values;
use expr::Name;
use sweep::{Meter, Space, SpaceError};

use crate::parametric::{self, ParamAnalysis};
use crate::parse::{parse_with_symbolic, Model};
use crate::plot::{check_sweep, Column, PlotError, Times};
use crate::table::{Assignment, Row};
use crate::{analyse_report, Analysis, Error, Report};

/// The most assignments in one job (the points of a table).
pub const MAX_POINTS: u64 = 10_000;

/// What the caller will draw from the results, checked before any analysis runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Want {
    /// The region map of one parametric agent: one assignment only.
    pub map: bool,
    /// The witness runs (explained steps or timelines): one assignment only.
    pub witnesses: bool,
    /// The times plot over a swept constant ([`check_sweep`]).
    pub plot: bool,
}

/// Analyses of one model over assignments of its constants.
#[derive(Clone, Debug)]
pub struct Job<'a> {
    /// The model's label in messages (its file name).
    pub name: &'a str,
    /// The model text.
    pub text: &'a str,
    /// The agents to analyse; empty: the model's `analyse` lines.
    pub agents: Vec<String>,
    /// Values of constants (or parameters): one each, or ranges and lists to sweep.
    pub bindings: Vec<(Name, Values)>,
    /// Constants treated as symbolic parameters.
    pub symbolic: Vec<String>,
    /// The most states an analysis explores.
    pub max_states: usize,
    /// Merge a parametric result's regions into `max`/`min` expressions.
    pub merge: bool,
    /// What will be drawn.
    pub want: Want,
}

impl<'a> Job<'a> {
    /// The model's `analyse` lines with no bindings, the concrete analysis's state limit
    /// and merged regions.
    pub fn new(name: &'a str, text: &'a str) -> Job<'a> {
        Job {
            name,
            text,
            agents: Vec::new(),
            bindings: Vec::new(),
            symbolic: Vec::new(),
            max_states: crate::Options::default().max_states,
            merge: true,
            want: Want::default(),
        }
    }

    /// [`Job::plan`] and [`Plan::run`] without a progress display.
    ///
    /// # Errors
    /// As those.
    pub fn run(&self) -> Result<Results, JobError> {
        self.plan()?.run(&Unwatched)
    }

    /// Checks the job and parses the model at every assignment, so that a value the model
    /// rejects fails before any analysis runs.
    ///
    /// # Errors
    /// [`JobError::BoundAndSymbolic`], [`JobError::Space`] (more than [`MAX_POINTS`]
    /// assignments, a name given twice …), [`JobError::MapOfSweep`],
    /// [`JobError::WitnessOfSweep`], [`JobError::Plot`], [`JobError::Model`],
    /// [`JobError::NoAnalyse`].
    pub fn plan(&self) -> Result<Plan, JobError> {
        if let Some((n, _)) = self
            .bindings
            .iter()
            .find(|(n, _)| self.symbolic.iter().any(|s| **s == **n))
        {
            return Err(JobError::BoundAndSymbolic(n.clone()));
        }
        let space = Space::new(self.bindings.clone(), MAX_POINTS).map_err(JobError::Space)?;
        let swept = space.len() > 1;
        if self.want.map && swept {
            return Err(JobError::MapOfSweep);
        }
        if self.want.witnesses && swept {
            return Err(JobError::WitnessOfSweep);
        }
        if self.want.plot {
            check_sweep(&space).map_err(JobError::Plot)?;
        }
        let points = (0..space.len())
            .map(|k| self.point(&space, k))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Plan {
            concrete: crate::Options {
                max_states: self.max_states,
                ..crate::Options::default()
            },
            parametric: parametric::Options {
                max_states: self.max_states,
                merge: self.merge,
                ..parametric::Options::default()
            },
            space,
            points,
        })
    }

    /// The model parsed at assignment `k` and the agents to analyse there.
    fn point(&self, space: &Space, k: u64) -> Result<Point, JobError> {
        let assignment = space.exact(k);
        let overrides: Vec<(&str, crate::Time)> =
            assignment.iter().map(|(n, v)| (&**n, v.clone())).collect();
        let at = if space.len() > 1 {
            assignment
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            String::new()
        };
        let symbolic: Vec<&str> = self.symbolic.iter().map(String::as_str).collect();
        let model =
            parse_with_symbolic(self.name, self.text, &overrides, &symbolic).map_err(|error| {
                JobError::Model {
                    at: at.clone(),
                    error,
                }
            })?;
        if self.agents.is_empty() && model.analyses.is_empty() {
            return Err(JobError::NoAnalyse {
                agents: model.agents.iter().map(|(n, _)| n.clone()).collect(),
            });
        }
        let agents = if self.agents.is_empty() {
            model.analyses.clone()
        } else {
            self.agents.clone()
        };
        Ok(Point {
            assignment,
            model,
            agents,
            at,
        })
    }
}

/// A checked job: the assignments, the model parsed at each, and the analyses' options.
#[derive(Debug)]
pub struct Plan {
    space: Space,
    points: Vec<Point>,
    concrete: crate::Options,
    parametric: parametric::Options,
}

/// One assignment's model and agents.
#[derive(Debug)]
struct Point {
    assignment: Assignment,
    model: Model,
    agents: Vec<String>,
    /// `p=4, n=2` in a sweep, empty otherwise.
    at: String,
}

/// What a progress display calls an analysis's phases (the state space explored, then
/// folded) and what its meter counts.
pub const METER_UNITS: sweep::Units = sweep::Units {
    running: "exploring",
    analysing: "analysing",
    noun: "states",
};

/// Sees the analyses start and end (a progress display): `begin` gets the label (the agent,
/// with the assignment in a sweep) and the meter the analysis updates, and returns a slot
/// that `end` gets back.
pub trait Watch: Sync {
    /// An analysis starts.
    fn begin(&self, label: String, meter: Arc<Meter>) -> usize;
    /// The analysis in `slot` ended.
    fn end(&self, slot: usize);
}

/// A pair of closures watches: `begin` and `end`.
impl<B, E> Watch for (B, E)
where
    B: Fn(String, Arc<Meter>) -> usize + Sync,
    E: Fn(usize) + Sync,
{
    fn begin(&self, label: String, meter: Arc<Meter>) -> usize {
        (self.0)(label, meter)
    }
    fn end(&self, slot: usize) {
        (self.1)(slot);
    }
}

/// No display.
pub struct Unwatched;

impl Watch for Unwatched {
    fn begin(&self, _: String, _: Arc<Meter>) -> usize {
        0
    }
    fn end(&self, _: usize) {}
}

impl Plan {
    /// The assignments (the sweep's space).
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// Whether there are several assignments (a table).
    pub fn is_sweep(&self) -> bool {
        self.space.len() > 1
    }

    /// The number of analyses (agents over all assignments).
    pub fn analyses(&self) -> usize {
        self.points.iter().map(|p| p.agents.len()).sum()
    }

    /// Runs every analysis: the assignments in parallel on [`sweep::map`], and the agents of
    /// each in parallel.
    ///
    /// # Errors
    /// With one assignment, the first analysis that failed ([`JobError::Analysis`]); in a
    /// table, the first that failed other than at a limit.
    pub fn run(self, watch: &dyn Watch) -> Result<Results, JobError> {
        let swept = self.is_sweep();
        let eval = sweep::Evaluation {
            chunk: self.space.len(),
            ..sweep::Evaluation::default()
        };
        let mut analysed: Vec<Analysed> = Vec::with_capacity(self.points.len());
        sweep::map(
            &self.space,
            &eval,
            |k| Ok::<_, JobError>(self.analyse(&self.points[k as usize], watch)),
            |_, chunk| {
                analysed.extend(chunk);
                Ok(())
            },
        )?;
        if !swept {
            let (point, results) = analysed.pop().unwrap_or_default();
            let reports = results
                .into_iter()
                .map(|(_, o)| o.map_err(JobError::Analysis))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Results::One(One { point, reports }));
        }
        let mut rows: Vec<Row> = Vec::with_capacity(analysed.len());
        for (point, results) in analysed {
            let mut cells = Vec::with_capacity(results.len());
            for (agent, outcome) in results {
                match outcome {
                    Ok(r) => cells.push((agent, Ok(r))),
                    Err(e) => match e.stopped() {
                        Some(st) => cells.push((agent, Err(st))),
                        None => return Err(JobError::Analysis(e)),
                    },
                }
            }
            rows.push((point, cells));
        }
        Ok(Results::Table(Table {
            rows,
            space: self.space,
        }))
    }

    /// Every agent's analysis at one assignment.
    fn analyse(&self, p: &Point, watch: &dyn Watch) -> Analysed {
        use rayon::prelude::*;
        let results = p
            .agents
            .par_iter()
            .map(|agent| {
                let label = if p.at.is_empty() {
                    agent.clone()
                } else {
                    format!("{agent} ({})", p.at)
                };
                let meter = Arc::new(Meter::default());
                let slot = watch.begin(label, Arc::clone(&meter));
                let concrete = crate::Options {
                    meter: Some(Arc::clone(&meter)),
                    ..self.concrete.clone()
                };
                let parametric = parametric::Options {
                    meter: Some(meter),
                    ..self.parametric.clone()
                };
                let mut model = p.model.clone();
                let r = analyse_report(&mut model, agent, &concrete, &parametric);
                // The model holds every state's term: freeing it is part of the analysis.
                drop(model);
                watch.end(slot);
                (agent.clone(), r)
            })
            .collect();
        (p.assignment.clone(), results)
    }
}

/// An assignment and what each agent's analysis gave there.
type Analysed = (Assignment, Vec<(String, Result<Report, Error>)>);

/// What a job gave.
#[derive(Debug)]
pub enum Results {
    /// One assignment (or none): every agent's report.
    One(One),
    /// Several: a row per assignment, a cell per agent.
    Table(Table),
}

/// The reports at one assignment.
#[derive(Debug)]
pub struct One {
    /// The assignment (empty without bindings).
    pub point: Assignment,
    /// The agents' reports, in order.
    pub reports: Vec<Report>,
}

impl One {
    /// The one parametric agent among the reports, whose regions a map draws; `None` when
    /// there is none or more than one.
    pub fn map_target(&self) -> Option<&ParamAnalysis> {
        let mut maps = self.reports.iter().filter_map(|r| match r {
            Report::Parametric(p) => Some(&**p),
            Report::Concrete(_) => None,
        });
        match (maps.next(), maps.next()) {
            (Some(first), None) => Some(first),
            _ => None,
        }
    }

    /// The concrete agents' analyses.
    pub fn concrete(&self) -> Vec<&Analysis> {
        self.reports
            .iter()
            .filter_map(|r| match r {
                Report::Concrete(a) => Some(&**a),
                Report::Parametric(_) => None,
            })
            .collect()
    }

    /// The slowest (and fastest) runs of the concrete agents as a timeline
    /// ([`crate::witness::trace`]); `None` when no terminating concrete agent was analysed.
    pub fn witness_trace(&self) -> Option<trace::Trace> {
        let runs = self.concrete();
        if runs.iter().all(|r| r.max.is_none()) {
            return None;
        }
        Some(crate::witness::trace(&runs))
    }

    /// The reports as the one row of a table (for [`crate::table::table_csv`]).
    pub fn into_rows(self) -> Vec<Row> {
        let cells = self
            .reports
            .into_iter()
            .map(|r| (r.name().to_string(), Ok(r)))
            .collect();
        vec![(self.point, cells)]
    }
}

/// The rows of a sweep.
#[derive(Debug)]
pub struct Table {
    /// A row per assignment, in order.
    pub rows: Vec<Row>,
    /// The assignments.
    pub space: Space,
}

impl Table {
    /// The analyses that stopped at a limit.
    pub fn stopped(&self) -> usize {
        self.rows
            .iter()
            .flat_map(|(_, r)| r)
            .filter(|(_, o)| o.is_err())
            .count()
    }

    /// All analyses.
    pub fn cells(&self) -> usize {
        self.rows.iter().map(|(_, r)| r.len()).sum()
    }

    /// The times plot's columns ([`crate::plot::times_svg`]), one per row.
    pub fn columns(&self) -> Vec<Column<'_>> {
        self.rows
            .iter()
            .map(|(_, results)| Column {
                agents: results
                    .iter()
                    .map(|(n, o)| (n.as_str(), o.as_ref().ok().and_then(Times::of)))
                    .collect(),
            })
            .collect()
    }
}

/// Why a job did not run, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A constant is given a value and made symbolic.
    #[error("`{0}` is given a value and made symbolic")]
    BoundAndSymbolic(Name),
    /// The assignments cannot be enumerated (too many, a name given twice …).
    #[error(transparent)]
    Space(SpaceError),
    /// A map draws one analysis, not a sweep.
    #[error("a region map draws one analysis, not a sweep")]
    MapOfSweep,
    /// Witness runs are shown for one analysis, not a sweep.
    #[error("witness runs are shown for one analysis, not a sweep")]
    WitnessOfSweep,
    /// The times plot cannot be drawn over these assignments.
    #[error(transparent)]
    Plot(PlotError),
    /// The model is rejected (at the assignment `at`, empty outside a sweep).
    #[error("{error}")]
    Model {
        /// `p=4, n=2` in a sweep, empty otherwise.
        at: String,
        /// The error.
        error: Error,
    },
    /// No agent was named and the model has no `analyse` line.
    #[error("the model has no `analyse` line")]
    NoAnalyse {
        /// The model's agents.
        agents: Vec<String>,
    },
    /// An analysis failed.
    #[error(transparent)]
    Analysis(Error),
}
