//! A PAMELA sweep's plan: which engines run, the grid within their limits, how the points
//! are evaluated (chunks, stop or skip at a failing point) and shown (a sample of rows, or
//! every point as JSON), and why a sweep stopped, with the point named.

use ::diag::{Advice, Advise};
use expr::grid::Values;
use expr::Name;
use sweep::{OnError, Sample, Space, SpaceError};

use crate::evaluate::{Engines, PointError, Undefined};
use crate::report::SweepJson;

::diag::choices! {
    /// One engine of a sweep, as a user names it.
    pub enum Engine {
        /// The symbolic bound T^l (with φ and ω), compiled and evaluated per point.
        Bound = "bound": "The symbolic bound T^l (with φ and ω), compiled and evaluated per point",
        /// The discrete-event simulator, one run per point.
        Sim = "sim": "The discrete-event simulator, one run per point",
    }
}

/// The largest grid with the simulator.
pub const MAX_POINTS_SIM: u64 = 10_000_000;
/// The largest grid with the bound alone.
pub const MAX_POINTS_BOUND: u64 = 100_000_000;
/// At most this many rows in the text table (an even sample of a larger grid).
pub const MAX_TEXT_ROWS: u64 = 60;
/// The most points in a JSON document (every point is held until the document is written;
/// a CSV file streams any number).
pub const MAX_JSON_POINTS: u64 = 1_000_000;
/// Points per chunk with the bound alone.
const CHUNK_BOUND: u64 = 1 << 16;
/// Points per chunk and thread with the simulator.
const CHUNK_SIM_PER_THREAD: u64 = 8;

/// Why a sweep cannot start.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// More points than the engines' limit.
    #[error("the sweep has {points} points, more than the limit of {limit}{}", if *sim { " with the sim engine" } else { "" })]
    TooManyPoints {
        /// The number of points (exact; it may not fit in 64 bits).
        points: String,
        /// The limit.
        limit: u64,
        /// Whether the simulator is among the engines.
        sim: bool,
    },
    /// More points than a JSON document holds.
    #[error("the sweep has {points} points, more than the {MAX_JSON_POINTS} a JSON document on standard output holds")]
    TooManyForJson {
        /// The number of points.
        points: u64,
    },
    /// A malformed grid (a name bound twice, an invalid name).
    #[error("{0}")]
    Grid(SpaceError),
}

impl Advise for PlanError {
    fn advice(&self) -> Option<Advice> {
        Some(match self {
            // The bound alone takes grids up to 10^8 points: advice only where it would help.
            PlanError::TooManyPoints {
                sim: true, points, ..
            } if points
                .parse::<u128>()
                .is_ok_and(|p| p <= u128::from(MAX_POINTS_BOUND)) =>
            {
                Advice::fix(
                    "use fewer values or coarser steps, or {engine} bound (up to 10^8 points)",
                )
            }
            PlanError::TooManyPoints { .. } => Advice::fix("use fewer values or coarser steps"),
            PlanError::TooManyForJson { .. } => Advice::fix(
                "write every point with {csv} FILE (and text on standard output), or use fewer \
                 values or coarser steps",
            ),
            PlanError::Grid(_) => Advice::usage(""),
        })
    }
}

/// Points where the bound is undefined: the point where the sweep stopped, or the first of
/// the points it skipped.
#[derive(Debug, thiserror::Error)]
pub enum UndefinedAt {
    /// The sweep stopped at the point.
    #[error("the bound is undefined at {point}: {error}; the sweep stopped there")]
    Stopped {
        /// The point, described.
        point: String,
        /// Why.
        error: Undefined,
    },
    /// The sweep skipped `count` points.
    #[error("the bound is undefined at {count} point(s) of the sweep (their rows have no value); first at {point}: {error}")]
    Skipped {
        /// How many.
        count: u64,
        /// The first, described.
        point: String,
        /// Why.
        error: Undefined,
    },
}

impl Advise for UndefinedAt {
    fn advice(&self) -> Option<Advice> {
        Some(Advice::fix(
            "the simulator rejects these points too; change the {define} ranges or guard the \
             model's expressions with `if`",
        ))
    }
}

/// Why a sweep failed at a point.
#[derive(Debug)]
pub enum Failure {
    /// The bound is undefined there.
    Undefined(UndefinedAt),
    /// The binding or the simulation failed (the error names the point).
    Sim(Box<crate::diag::ModelError>),
}

/// A planned sweep.
#[derive(Debug)]
pub struct SweepPlan {
    /// The grid.
    pub space: Space,
    /// The engines, in the order given, each once.
    pub engines: Vec<Engine>,
    /// Whether every point is shown as JSON (else a sample as a text table).
    pub json: bool,
}

impl SweepPlan {
    /// The sweep of `bindings` by `engines` (repeats ignored), shown as JSON or as text.
    ///
    /// # Errors
    /// A grid over the engines' limit, or over [`MAX_JSON_POINTS`] for JSON; a malformed grid.
    ///
    /// ```
    /// use pamela::sweep_plan::{Engine, PlanError, SweepPlan};
    /// let grid = |hi: &str| vec![expr::grid::parse_binding(&format!("P=1..{hi}")).unwrap()];
    /// let plan = SweepPlan::new(grid("64"), &[Engine::Sim, Engine::Sim], false).unwrap();
    /// assert_eq!(plan.engines, [Engine::Sim]);
    /// assert_eq!(plan.sample().rows().len(), 0);
    /// let big = SweepPlan::new(grid("100000000"), &[Engine::Sim], false).unwrap_err();
    /// assert!(matches!(big, PlanError::TooManyPoints { sim: true, .. }));
    /// assert!(SweepPlan::new(grid("100000000"), &[Engine::Bound], false).is_ok());
    /// ```
    pub fn new(
        bindings: Vec<(Name, Values)>,
        engines: &[Engine],
        json: bool,
    ) -> Result<Self, PlanError> {
        let mut once: Vec<Engine> = Vec::new();
        for e in engines {
            if !once.contains(e) {
                once.push(*e);
            }
        }
        let sim = once.contains(&Engine::Sim);
        let limit = if sim {
            MAX_POINTS_SIM
        } else {
            MAX_POINTS_BOUND
        };
        let space = Space::new(bindings, limit).map_err(|e| match e {
            SpaceError::TooManyPoints { points, .. } => {
                PlanError::TooManyPoints { points, limit, sim }
            }
            other => PlanError::Grid(other),
        })?;
        if json && space.len() > MAX_JSON_POINTS {
            return Err(PlanError::TooManyForJson {
                points: space.len(),
            });
        }
        Ok(SweepPlan {
            space,
            engines: once,
            json,
        })
    }

    /// The text table of the rows kept of the sweep of `loaded`
    /// ([`crate::report::sweep_text`]).
    pub fn text(&self, loaded: &crate::Loaded, rows: &Sample) -> String {
        let (model, root) = (&loaded.model, loaded.root);
        crate::report::sweep_text(model, root, &self.space, rows, self.engine_set())
    }

    /// The title of the plot of the sweep of `loaded` drawn as `lines`, and its x axis: the
    /// swept parameter the lines run over, else the point's index.
    pub fn plot_labels(&self, loaded: &crate::Loaded, lines: &sweep::Lines) -> (String, &str) {
        let x = lines
            .x_axis()
            .map_or("point", |a| self.space.axes()[a].name());
        let title = format!("{} ({}): time vs {x}", loaded.label(), loaded.root_name());
        (title, x)
    }

    /// The engines as the point function takes them.
    pub fn engine_set(&self) -> Engines {
        Engines {
            bound: self.engines.contains(&Engine::Bound),
            sim: self.engines.contains(&Engine::Sim),
        }
    }

    /// The rows to keep for showing: every point for JSON, an even sample of at most
    /// [`MAX_TEXT_ROWS`] for text.
    pub fn sample(&self) -> Sample {
        match self.json {
            true => Sample::all(self.space.len()),
            false => Sample::new(self.space.len(), MAX_TEXT_ROWS),
        }
    }

    /// Points per chunk on `threads` threads: small with the simulator (a run per point),
    /// large for the compiled bound alone.
    pub fn chunk(&self, threads: usize) -> u64 {
        match self.engine_set().sim {
            true => threads as u64 * CHUNK_SIM_PER_THREAD,
            false => CHUNK_BOUND,
        }
    }

    /// A failing point stops a simulating sweep; the bound alone skips it (its row has no
    /// value) and the sweep fails at the end.
    pub fn on_error(&self) -> OnError {
        match self.engine_set().sim {
            true => OnError::Stop,
            false => OnError::Skip,
        }
    }

    /// The JSON document of `rows` (all of them, in point order) with `columns`.
    pub fn json_doc<'a>(&'a self, columns: &'a [String], rows: &'a Sample) -> SweepJson<'a> {
        let names = self
            .engines
            .iter()
            .map(|e| ::diag::Choice::name(*e))
            .collect();
        SweepJson::new(&self.space, names, columns, rows.rows())
    }

    /// The failure at `point`: where the sweep stopped, or (with `skipped`, their number) the
    /// first of the points it skipped.
    pub fn failure(&self, point: u64, error: PointError, skipped: Option<u64>) -> Failure {
        let point = self.space.describe_point(point);
        match (error, skipped) {
            (PointError::Sim(e), _) => Failure::Sim(e),
            (PointError::Bound(error), None) => {
                Failure::Undefined(UndefinedAt::Stopped { point, error })
            }
            (PointError::Bound(error), Some(count)) => Failure::Undefined(UndefinedAt::Skipped {
                count,
                point,
                error,
            }),
        }
    }
}
