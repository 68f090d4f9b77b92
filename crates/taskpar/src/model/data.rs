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

/// The numeric columns a training file must have (`app`, `rep` and `span` are optional).
pub const COLUMNS: [&str; 9] = [
    "n",
    "p",
    "work",
    "work_serial",
    "delay",
    "no_work",
    "create_task",
    "wait_tasks",
    "elapsed",
];

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
                COLUMNS.join(", ")
            )),
            location: None,
        });
    }
    let src = (name, text);
    let rows = fit::read::csv::rows(
        name,
        text,
        &COLUMNS,
        &["rep", "span", "elapsed_untraced"],
        &["app"],
    )?;
    let col = |j: usize| rows.numbers[j].as_deref().unwrap_or(&[]);
    let (rep, span) = (
        rows.numbers[COLUMNS.len()].as_deref(),
        rows.numbers[COLUMNS.len() + 1].as_deref(),
    );
    let untraced = rows.numbers[COLUMNS.len() + 2].as_deref();
    let apps = rows.texts[0].as_deref();
    let mut runs = Vec::with_capacity(rows.starts.len());
    for i in 0..rows.starts.len() {
        let v = |j: usize| col(j)[i];
        let check = |c: &str, value: f64, ok: bool, why: &str| -> Result<(), ReadError> {
            if ok {
                return Ok(());
            }
            Err(rows.value_error(
                src,
                i,
                c,
                format!("`{}` in column `{c}` {why}", trace::text::num(value)),
                "each line is one run: a size n > 0, p ≥ 1 workers, non-negative times and counts",
            ))
        };
        let (n, p) = (v(0), v(1));
        check("n", n, n > 0.0, "is not a positive size")?;
        check(
            "p",
            p,
            p >= 1.0 && p.fract() == 0.0,
            "is not a whole number of workers ≥ 1",
        )?;
        for (j, c) in COLUMNS.iter().enumerate().skip(2) {
            if *c == "elapsed" {
                check(c, v(j), v(j) > 0.0, "is not a positive time")?;
            } else {
                check(c, v(j), v(j) >= 0.0, "is negative")?;
            }
        }
        let s = span.map(|s| s[i]);
        if let Some(s) = s {
            check("span", s, s >= 0.0, "is negative")?;
        }
        runs.push(Run {
            app: apps.map_or_else(String::new, |a| a[i].clone()),
            n,
            p,
            rep: rep.map_or(0.0, |r| r[i]),
            work: v(2),
            work_serial: v(3),
            delay: v(4),
            no_work: v(5),
            create_task: v(6),
            wait_tasks: v(7),
            span: s,
            elapsed: v(8),
            elapsed_untraced: untraced.map(|u| u[i]).filter(|u| *u > 0.0),
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
