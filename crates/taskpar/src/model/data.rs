//! The runs a model is trained and tested on, and their reader from CSV text.

use fit::read::{ReadError, ReadErrorKind};

/// One traced run: the statistics of its DAG (times in seconds).
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The application (`""` when the file names none).
    pub app: String,
    /// The problem size (before any transform).
    pub n: f64,
    /// The worker count (≥ 1).
    pub p: f64,
    /// The repetition (0 when the file has no `rep` column).
    pub rep: f64,
    /// T1, the work: time in application code summed over the workers.
    pub work: f64,
    /// T1', the work at p = 1 for the same n.
    pub work_serial: f64,
    /// Time ready tasks waited while workers were free, plus runtime overhead.
    pub delay: f64,
    /// Time workers had no ready task.
    pub no_work: f64,
    /// Task creations.
    pub create_task: f64,
    /// Task waits.
    pub wait_tasks: f64,
    /// The span T∞, when recorded.
    pub span: Option<f64>,
    /// The elapsed time.
    pub elapsed: f64,
    /// The elapsed time of the same run without recording, when measured.
    pub elapsed_untraced: Option<f64>,
}

/// The runs of a training (or test) set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainingSet {
    /// The runs, in the file's order.
    pub runs: Vec<Run>,
}

/// A column of a training file. [`Column::ALL`] is the one definition of the file's
/// columns: the recorder writes them in that order
/// ([`crate::experiment::csv_header`]) and [`read_runs`] reads them by [`Column::need`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The application's name.
    App,
    /// The problem size.
    N,
    /// The worker count.
    P,
    /// The repetition.
    Rep,
    /// The work T1 (seconds).
    Work,
    /// The serial work T1' (seconds).
    WorkSerial,
    /// The delay (seconds).
    Delay,
    /// The no_work (seconds).
    NoWork,
    /// Task creations.
    CreateTask,
    /// Task waits.
    WaitTasks,
    /// The span T∞ (seconds).
    Span,
    /// The traced run's elapsed time (seconds).
    Elapsed,
    /// The untraced run's elapsed time (seconds).
    ElapsedUntraced,
    /// The burdened span (seconds).
    BurdenedSpan,
}

/// What the reader of training files does with a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// A number every row must have.
    Required,
    /// A number the reader uses when the file has the column.
    Optional,
    /// Text the reader uses when the file has the column.
    Text,
    /// Written by the recorder, not read by the model.
    Extra,
}

impl Column {
    /// Every column, in the order of a training file.
    pub const ALL: [Column; 14] = [
        Column::App,
        Column::N,
        Column::P,
        Column::Rep,
        Column::Work,
        Column::WorkSerial,
        Column::Delay,
        Column::NoWork,
        Column::CreateTask,
        Column::WaitTasks,
        Column::Span,
        Column::Elapsed,
        Column::ElapsedUntraced,
        Column::BurdenedSpan,
    ];

    /// Its name in the header line.
    pub fn name(self) -> &'static str {
        match self {
            Column::App => "app",
            Column::N => "n",
            Column::P => "p",
            Column::Rep => "rep",
            Column::Work => "work",
            Column::WorkSerial => "work_serial",
            Column::Delay => "delay",
            Column::NoWork => "no_work",
            Column::CreateTask => "create_task",
            Column::WaitTasks => "wait_tasks",
            Column::Span => "span",
            Column::Elapsed => "elapsed",
            Column::ElapsedUntraced => "elapsed_untraced",
            Column::BurdenedSpan => "burdened_span",
        }
    }

    /// What the reader does with it.
    pub fn need(self) -> Need {
        match self {
            Column::App => Need::Text,
            Column::Rep | Column::Span | Column::ElapsedUntraced => Need::Optional,
            Column::BurdenedSpan => Need::Extra,
            _ => Need::Required,
        }
    }

    /// The names of the columns the reader treats as `need`, in file order.
    pub fn names(need: Need) -> Vec<&'static str> {
        Column::ALL
            .iter()
            .filter(|c| c.need() == need)
            .map(|c| c.name())
            .collect()
    }
}

impl TrainingSet {
    /// The set of `runs`.
    pub fn new(runs: Vec<Run>) -> Self {
        TrainingSet { runs }
    }

    /// The distinct application names, in order of first appearance.
    pub fn apps(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.runs {
            if !out.contains(&r.app) {
                out.push(r.app.clone());
            }
        }
        out
    }

    /// The runs of application `app`.
    pub fn for_app(&self, app: &str) -> TrainingSet {
        TrainingSet {
            runs: self.runs.iter().filter(|r| r.app == app).cloned().collect(),
        }
    }
}

/// Reads runs from CSV text (named `name` in messages): a header, then one run per line.
/// Required columns: `n, p, work, work_serial, delay, no_work, create_task, wait_tasks,
/// elapsed`; optional: `app`, `rep`, `span`, `elapsed_untraced`; other columns are ignored.
/// `work_serial` is replaced by the mean work of the p = 1 runs of the same application and
/// size where the file has them.
///
/// # Errors
/// A located [`ReadError`]: an empty text, malformed CSV, a missing column (with the closest
/// name), a value that is not a finite number, a value out of range (p < 1 or not whole,
/// n ≤ 0, a negative time or count, elapsed ≤ 0), no rows.
pub fn read_runs(name: &str, text: &str) -> Result<TrainingSet, ReadError> {
    if text.trim().is_empty() {
        return Err(ReadError {
            kind: ReadErrorKind::Empty,
            message: format!("{name}: the file is empty"),
            help: Some(format!(
                "the first line names the columns ({}); each further line is one run",
                Column::names(Need::Required).join(", ")
            )),
            location: None,
        });
    }
    let src = (name, text);
    let required = Column::names(Need::Required);
    let optional = Column::names(Need::Optional);
    let rows = fit::read::csv::rows(name, text, &required, &optional, &Column::names(Need::Text))?;
    // The numbers of column `c` (required columns first, then the optional ones).
    let numbers = |c: Column| -> Option<&[f64]> {
        let j = required
            .iter()
            .chain(&optional)
            .position(|x| *x == c.name())?;
        rows.numbers.get(j)?.as_deref()
    };
    let apps = rows.texts.first().and_then(|t| t.as_deref());
    let mut runs = Vec::with_capacity(rows.starts.len());
    for i in 0..rows.starts.len() {
        let v = |c: Column| numbers(c).map_or(0.0, |col| col[i]);
        let check =
            |c: Column, value: f64, ok: bool, why: &str| -> Result<(), ReadError> {
                if ok {
                    return Ok(());
                }
                Err(rows.value_error(
                src,
                i,
                c.name(),
                format!("`{}` in column `{}` {why}", trace::text::num(value), c.name()),
                "each line is one run: a size n > 0, p ≥ 1 workers, non-negative times and counts",
            ))
            };
        let (n, p, rep) = (v(Column::N), v(Column::P), v(Column::Rep));
        check(
            Column::Rep,
            rep,
            rep >= 0.0 && rep.fract() == 0.0,
            "is not a whole repetition number ≥ 0",
        )?;
        check(Column::N, n, n > 0.0, "is not a positive size")?;
        check(
            Column::P,
            p,
            p >= 1.0 && p.fract() == 0.0,
            "is not a whole number of workers ≥ 1",
        )?;
        for c in Column::ALL.iter().skip(3) {
            match (c, c.need()) {
                (Column::Elapsed, _) => check(*c, v(*c), v(*c) > 0.0, "is not a positive time")?,
                (_, Need::Required) => check(*c, v(*c), v(*c) >= 0.0, "is negative")?,
                _ => {}
            }
        }
        // An empty optional field (NaN) is a value not measured.
        let s = numbers(Column::Span).map(|s| s[i]).filter(|s| !s.is_nan());
        if let Some(s) = s {
            check(Column::Span, s, s >= 0.0, "is negative")?;
        }
        runs.push(Run {
            app: apps.map_or_else(String::new, |a| a[i].clone()),
            n,
            p,
            rep,
            work: v(Column::Work),
            work_serial: v(Column::WorkSerial),
            delay: v(Column::Delay),
            no_work: v(Column::NoWork),
            create_task: v(Column::CreateTask),
            wait_tasks: v(Column::WaitTasks),
            span: s,
            elapsed: v(Column::Elapsed),
            elapsed_untraced: numbers(Column::ElapsedUntraced)
                .map(|u| u[i])
                .filter(|u| *u > 0.0),
        });
    }
    serial_from_p1(&mut runs);
    Ok(TrainingSet { runs })
}

/// Sets each run's `work_serial` to the mean work of its application's p = 1 runs at the
/// same size, where there are such runs (a file written run by run can only hold the
/// p = 1 runs made before each row).
fn serial_from_p1(runs: &mut [Run]) {
    let mut sums: Vec<(String, f64, f64, usize)> = Vec::new();
    for r in runs.iter().filter(|r| r.p == 1.0) {
        match sums.iter_mut().find(|s| s.0 == r.app && s.1 == r.n) {
            Some(s) => {
                s.2 += r.work;
                s.3 += 1;
            }
            None => sums.push((r.app.clone(), r.n, r.work, 1)),
        }
    }
    for r in runs.iter_mut() {
        if let Some(s) = sums.iter().find(|s| s.0 == r.app && s.1 == r.n) {
            r.work_serial = s.2 / s.3 as f64;
        }
    }
}
