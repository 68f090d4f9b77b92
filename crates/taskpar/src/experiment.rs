//! Experiments over sizes × worker counts × repetitions: the order of the runs, the training
//! row of a traced run (its DAG's statistics in seconds), the CSV lines of the training file,
//! and what an existing file already holds (to resume after an interruption).

pub use taskrec::{ENV_COLLAPSE, ENV_ELAPSED, ENV_FILE};

use crate::model::{read_runs, Column, Run};
use crate::stats::Stats;
use fit::read::ReadError;

/// A grid of runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Problem sizes.
    pub sizes: Vec<f64>,
    /// Worker counts.
    pub procs: Vec<u32>,
    /// Repetitions of each (size, workers).
    pub reps: u32,
}

/// One run of a plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The size.
    pub n: f64,
    /// Workers.
    pub p: u32,
    /// The repetition (from 0).
    pub rep: u32,
}

impl Plan {
    /// The runs, by size, then workers (1 first, so each size's serial work T1' is known
    /// before its parallel runs), then repetition.
    pub fn points(&self) -> Vec<Point> {
        let mut sizes = self.sizes.clone();
        sizes.sort_by(f64::total_cmp);
        sizes.dedup();
        let mut procs = self.procs.clone();
        procs.sort_unstable();
        procs.dedup();
        let mut out = Vec::new();
        for &n in &sizes {
            for &p in &procs {
                for rep in 0..self.reps {
                    out.push(Point { n, p, rep });
                }
            }
        }
        out
    }
}

/// A measured run: the training row and the two extra columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The row the model trains on.
    pub run: Run,
    /// The elapsed time of the same run without recording (seconds), if measured.
    pub elapsed_untraced: Option<f64>,
    /// The burdened span (seconds).
    pub burdened_span: f64,
}

/// The row of a traced run of `app` at `point` whose DAG has statistics `st` (clock at
/// `clock_hz`); `work_serial` is T1' (the work at p = 1 for this size; this run's own work
/// when it is that run).
pub fn measured(
    app: &str,
    point: Point,
    st: &Stats,
    clock_hz: f64,
    work_serial: Option<f64>,
    elapsed_untraced: Option<f64>,
) -> Measured {
    let s = 1.0 / clock_hz;
    let work = st.work as f64 * s;
    Measured {
        run: Run {
            app: app.to_string(),
            n: point.n,
            p: f64::from(point.p),
            rep: f64::from(point.rep),
            work,
            work_serial: work_serial.unwrap_or(work),
            delay: st.delay as f64 * s,
            no_work: st.no_work as f64 * s,
            create_task: st.create_task as f64,
            wait_tasks: st.wait_tasks as f64,
            span: Some(st.span as f64 * s),
            elapsed: st.elapsed as f64 * s,
            elapsed_untraced,
        },
        elapsed_untraced,
        burdened_span: st.burdened_span as f64 * s,
    }
}

/// The first value of `m` that the training reader would refuse, if any: its column, the
/// value and why (a time or count that is not finite or is negative, an elapsed time that
/// is not positive). Such a row is not written.
pub fn refused(m: &Measured) -> Option<(&'static str, f64, &'static str)> {
    let r = &m.run;
    let values = [
        (Column::Work, Some(r.work)),
        (Column::WorkSerial, Some(r.work_serial)),
        (Column::Delay, Some(r.delay)),
        (Column::NoWork, Some(r.no_work)),
        (Column::CreateTask, Some(r.create_task)),
        (Column::WaitTasks, Some(r.wait_tasks)),
        (Column::Span, r.span),
        (Column::Elapsed, Some(r.elapsed)),
        (Column::ElapsedUntraced, m.elapsed_untraced),
        (Column::BurdenedSpan, Some(m.burdened_span)),
    ];
    values.into_iter().find_map(|(c, v)| {
        let v = v?;
        let why = if !v.is_finite() {
            "not a finite number"
        } else if v < 0.0 {
            "negative"
        } else if c == Column::Elapsed && v == 0.0 {
            "an elapsed time must be positive"
        } else {
            return None;
        };
        Some((c.name(), v, why))
    })
}

/// The header line of a training file (the names of [`Column::ALL`]).
pub fn csv_header() -> String {
    trace::csv::Table::new(Column::ALL.map(Column::name)).to_string()
}

/// The line of a measured run: a cell for each of [`Column::ALL`].
pub fn csv_line(m: &Measured) -> String {
    use trace::csv::Cell;
    let r = &m.run;
    let cell = |c: Column| match c {
        Column::App => Cell::from(r.app.as_str()),
        Column::N => Cell::from(r.n),
        Column::P => Cell::from(r.p),
        Column::Rep => Cell::from(r.rep),
        Column::Work => Cell::from(r.work),
        Column::WorkSerial => Cell::from(r.work_serial),
        Column::Delay => Cell::from(r.delay),
        Column::NoWork => Cell::from(r.no_work),
        Column::CreateTask => Cell::from(r.create_task),
        Column::WaitTasks => Cell::from(r.wait_tasks),
        Column::Span => Cell::from(r.span),
        Column::Elapsed => Cell::from(r.elapsed),
        Column::ElapsedUntraced => Cell::from(m.elapsed_untraced),
        Column::BurdenedSpan => Cell::from(m.burdened_span),
    };
    let mut t = trace::csv::Table::new(Vec::<String>::new());
    t.push_row(Column::ALL.map(cell));
    let text = t.to_string();
    // The table's first line is its (empty) header.
    text.split_once('\n')
        .map(|(_, rest)| rest.to_string())
        .unwrap_or_default()
}

/// A recording that is not of the run asked for.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Mismatch {
    /// Another worker count (a program with a pool of its own ignores the one asked for).
    #[error("the run at n = {n}, p = {p} recorded {recorded} workers")]
    Workers {
        /// The size asked for.
        n: f64,
        /// The workers asked for.
        p: u32,
        /// The workers recorded.
        recorded: u32,
    },
    /// Another size (the header's parameter `n`).
    #[error("the run at n = {n} recorded the parameter n = {recorded}")]
    Size {
        /// The size asked for.
        n: f64,
        /// The size recorded.
        recorded: f64,
    },
}

/// Checks that a recording's header is of the run at `point`: its worker count and, when
/// the header names it, its size `n`.
///
/// # Errors
/// The [`Mismatch`].
pub fn check_recording(h: &crate::dag::Header, point: Point) -> Result<(), Mismatch> {
    if h.workers != point.p {
        return Err(Mismatch::Workers {
            n: point.n,
            p: point.p,
            recorded: h.workers,
        });
    }
    match h.parameters.get("n") {
        Some(Some(n)) if *n != point.n => Err(Mismatch::Size {
            n: point.n,
            recorded: *n,
        }),
        _ => Ok(()),
    }
}

/// What a training file already holds for `app`: the runs done, and the serial work of each
/// size (the mean work of its p = 1 runs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Done {
    runs: Vec<(f64, u32, u32)>,
    serial: Vec<(f64, f64, u32)>,
}

impl Done {
    /// Reads the runs of `app` in a training file's text (an empty text holds none).
    ///
    /// # Errors
    /// The training reader's located [`ReadError`].
    pub fn read(name: &str, text: &str, app: &str) -> Result<Done, ReadError> {
        let mut d = Done::default();
        // Nothing, or only the header: no runs yet.
        if text.trim().lines().count() <= 1 {
            return Ok(d);
        }
        for r in read_runs(name, text)?.runs.iter().filter(|r| r.app == app) {
            d.add(r);
        }
        Ok(d)
    }

    /// Notes a finished run.
    pub fn add(&mut self, r: &Run) {
        self.runs.push((r.n, r.p as u32, r.rep as u32));
        if r.p == 1.0 {
            match self.serial.iter_mut().find(|s| s.0 == r.n) {
                Some(s) => {
                    s.1 += r.work;
                    s.2 += 1;
                }
                None => self.serial.push((r.n, r.work, 1)),
            }
        }
    }

    /// Whether `point` was run.
    pub fn contains(&self, point: Point) -> bool {
        self.runs.contains(&(point.n, point.p, point.rep))
    }

    /// The serial work T1' of size `n` (the mean work of its p = 1 runs), if any ran.
    pub fn serial_work(&self, n: f64) -> Option<f64> {
        self.serial
            .iter()
            .find(|s| s.0 == n)
            .map(|s| s.1 / f64::from(s.2))
    }

    /// Runs done.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// True when none is.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}
