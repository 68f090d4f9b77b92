//! Recording campaigns: a program run over sizes × worker counts × repetitions, traced and
//! untraced, one training row appended per run to a CSV file, resuming where an earlier
//! campaign stopped.
//!
//! [`run`] takes a [`Job`] (what to run and where the rows go), a [`Backend`] (where the
//! programs run: [`LocalBackend`] here) and a callback told of the plan and of each row
//! ([`Event`]); it returns a [`Summary`] or a typed [`CampaignError`] that the caller turns
//! into a message. Scratch files are removed on every way out.

mod backend;
mod local;
pub mod ompt;
mod request;
mod show;

pub use backend::{Backend, Invocation, Outcome, StartError, Status, STDERR_TAIL};
pub use local::{file_tail, LocalBackend, GRACE};
pub use request::Request;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::dag::{self, LoadError};
use crate::experiment::{self, csv_header, csv_line, Done, Measured, Mismatch, Plan, Point};
use crate::stats::{Stats, StatsOptions, BURDEN_CYCLES};
use fit::read::ReadError;

pub use crate::lists::MAX_RUNS;
/// The largest training file a campaign resumes.
pub const MAX_CSV_BYTES: u64 = 1 << 30;
/// The longest application name.
pub const MAX_APP_LEN: usize = 100;
/// The placeholder an argument holds for the size.
pub const SIZE_PLACEHOLDER: &str = "{n}";
/// The placeholder an argument holds for the worker count.
pub const WORKERS_PLACEHOLDER: &str = "{p}";

/// The parallel runtime a campaign's program runs on: how its worker count is set and how
/// its runs are recorded and timed.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Runtime {
    /// A Rust program on rayon's global pool, recorded by taskrec: the worker count in
    /// `RAYON_NUM_THREADS`; the program writes its DAG file and elapsed time itself.
    #[default]
    Rayon,
    /// An OpenMP program (LLVM's libomp, which loads OMPT tools): the worker count in
    /// `OMP_NUM_THREADS`; the OMPT tool `tool` (the shared library built from
    /// `crates/bots/openmp/ompt/vates_ompt.c`) is loaded through `OMP_TOOL_LIBRARIES` and
    /// writes the DAG file (traced runs) or the parallel part's elapsed time alone
    /// (untraced runs, its light mode).
    OpenMp {
        /// The tool's shared library.
        tool: PathBuf,
    },
    /// A program built with DAG Recorder (MassiveThreads' profiler): the worker count in
    /// MassiveThreads' `MYTH_NUM_WORKERS`; DAG Recorder writes `PREFIX.dag` when the
    /// program calls `dr_dump()`, the prefix named by `DR_PREFIX` and
    /// `DAG_RECORDER_FILE_PREFIX` (the one it reads first); its times are clock ticks,
    /// `clock_hz` a second (the file does not say). It times no untraced run: nothing in
    /// such a program times its parallel part alone.
    DagRecorder {
        /// The rate of the clock that times the records (the time-stamp counter).
        clock_hz: f64,
    },
}

diag::choices! {
    /// The kind of a [`Runtime`], as a user names it (before its recorder is found).
    pub enum RuntimeKind {
        /// [`Runtime::Rayon`].
        Rayon = "rayon": "A Rust program on rayon's global pool, recorded by taskrec",
        /// [`Runtime::OpenMp`].
        OpenMp = "openmp": "An OpenMP program (LLVM's libomp), recorded by the OMPT tool",
        /// [`Runtime::DagRecorder`].
        DagRecorder = "dag-recorder": "A program built with DAG Recorder (MassiveThreads' profiler)",
    }
}

impl RuntimeKind {
    /// Whether an untraced run can be timed beside each traced one: not in a DAG Recorder
    /// program (nothing in it times its parallel part alone).
    pub fn times_untraced(self) -> bool {
        self != RuntimeKind::DagRecorder
    }
}

/// DAG Recorder's variables naming its files' prefix: it reads the first, then the second
/// (`DAG_RECORDER_DAG_FILE_PREFIX`, which its help prints, is read by nothing).
pub const DR_PREFIX_VARIABLES: [&str; 2] = ["DAG_RECORDER_FILE_PREFIX", "DR_PREFIX"];

/// DAG Recorder's switches a campaign sets, each in its long and short names (DAG Recorder
/// reads the long one first): recording on, the `.dag` file written, the plot, graph and
/// text files not written (the `.stat` file is left as the environment says).
const DR_SWITCHES: [(&str, &str); 10] = [
    ("DAG_RECORDER", "1"),
    ("DR", "1"),
    ("DAG_RECORDER_DAG_FILE", "1"),
    ("DR_DAG", "1"),
    ("DAG_RECORDER_GPL_FILE", "0"),
    ("DR_GPL", "0"),
    ("DAG_RECORDER_DOT_FILE", "0"),
    ("DR_DOT", "0"),
    ("DAG_RECORDER_TEXT_FILE", "0"),
    ("DR_TEXT", "0"),
];

impl Runtime {
    /// The environment variable that sets the worker count.
    pub fn workers_variable(&self) -> &'static str {
        match self {
            Runtime::Rayon => "RAYON_NUM_THREADS",
            Runtime::OpenMp { .. } => "OMP_NUM_THREADS",
            Runtime::DagRecorder { .. } => "MYTH_NUM_WORKERS",
        }
    }

    /// Its kind.
    pub fn kind(&self) -> RuntimeKind {
        match self {
            Runtime::Rayon => RuntimeKind::Rayon,
            Runtime::OpenMp { .. } => RuntimeKind::OpenMp,
            Runtime::DagRecorder { .. } => RuntimeKind::DagRecorder,
        }
    }

    /// Whether an untraced run can be timed beside each traced one.
    pub fn times_untraced(&self) -> bool {
        self.kind().times_untraced()
    }

    /// The rate of the recordings' clock when their files do not say (DAG Recorder's).
    fn clock_hz(&self) -> Option<f64> {
        match self {
            Runtime::DagRecorder { clock_hz } => Some(*clock_hz),
            _ => None,
        }
    }

    /// The environment that asks a traced run for its DAG file `file`.
    fn file_env(&self, file: &Path) -> Vec<(&'static str, std::ffi::OsString)> {
        match self {
            Runtime::DagRecorder { .. } => {
                let prefix = dr_prefix(file);
                DR_PREFIX_VARIABLES
                    .iter()
                    .map(|&k| (k, prefix.clone().into_os_string()))
                    .chain(DR_SWITCHES.iter().map(|&(k, v)| (k, v.into())))
                    .collect()
            }
            _ => vec![(experiment::ENV_FILE, file.as_os_str().to_owned())],
        }
    }

    /// The environment of a run on `p` workers (besides the variable naming its file).
    fn env(&self, p: u32) -> Vec<(&'static str, std::ffi::OsString)> {
        let mut env = vec![(self.workers_variable(), p.to_string().into())];
        if let Runtime::OpenMp { tool } = self {
            env.push(("OMP_TOOL", "enabled".into()));
            env.push(("OMP_TOOL_LIBRARIES", tool.as_os_str().to_owned()));
        }
        env
    }
}

/// A campaign.
#[derive(Clone, Debug)]
pub struct Job {
    /// The application's name in the rows (and in the kept DAG files' names).
    pub app: String,
    /// The runs.
    pub plan: Plan,
    /// The program and its arguments; the size replaces [`SIZE_PLACEHOLDER`] in an
    /// argument, or is appended when none has it; the worker count replaces
    /// [`WORKERS_PLACEHOLDER`] (it is also in the runtime's variable).
    pub command: Vec<String>,
    /// The training CSV the rows are appended to (created with its header if missing).
    pub output: PathBuf,
    /// A directory to keep each run's DAG file in.
    pub keep_dags: Option<PathBuf>,
    /// Whether an untraced run is timed beside each traced one (not for a runtime that
    /// cannot time them: [`Runtime::times_untraced`]).
    pub untraced: bool,
    /// How long one run may take.
    pub timeout: Duration,
    /// The runtime the program runs on.
    pub runtime: Runtime,
    /// Whether the plan must hold runs on one worker ([`PlanError::NoSerialRuns`]). A cell
    /// of a larger campaign whose serial runs are other cells sets it false; its rows' T1'
    /// is then each run's own work until the campaign's rows are put together.
    pub require_serial: bool,
}

/// A job that cannot be run as given.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// No run on one worker: the serial work of each size comes from those.
    #[error("the worker counts have no 1: the serial work T1' of each size comes from its runs on one worker")]
    NoSerialRuns,
    /// No repetitions.
    #[error("the repetitions must be at least 1")]
    NoReps,
    /// More runs than [`MAX_RUNS`].
    #[error("{runs} runs asked for; the limit is {limit}")]
    TooManyRuns {
        /// Runs asked for.
        runs: usize,
        /// [`MAX_RUNS`].
        limit: usize,
    },
    /// A worker count over what a DAG file may record.
    #[error("{p} workers is over the limit of {limit} a recording may have")]
    TooManyWorkers {
        /// The count.
        p: u32,
        /// [`dag::Limits::MAX_WORKERS`].
        limit: u32,
    },
    /// An application name that is not a plain file-name-safe name.
    #[error("the application name `{app}` {why}")]
    App {
        /// The name.
        app: String,
        /// What is wrong with it.
        why: String,
    },
    /// No program.
    #[error("no program to run")]
    NoCommand,
    /// Untraced runs asked of a runtime that cannot time them ([`Runtime::times_untraced`]).
    #[error(
        "a {runtime} program times no untraced run: nothing in it times its parallel part alone"
    )]
    NoUntraced {
        /// The runtime's name.
        runtime: &'static str,
    },
}

impl diag::Advise for PlanError {
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::usage(match self {
            PlanError::NoSerialRuns => "{procs}: add 1 (e.g. {procs} 1,2)",
            PlanError::NoReps => "{reps}: give at least 1",
            PlanError::TooManyRuns { .. } => "give fewer {sizes}, {procs} or {reps}",
            PlanError::TooManyWorkers { .. } => "{procs}: give smaller worker counts",
            PlanError::App { .. } => "{app}: give a plain name such as `fib` or `sort-4k`",
            PlanError::NoCommand => "give {command}",
            PlanError::NoUntraced { .. } => "give {no-untraced}",
        }))
    }
}

/// Why a campaign stopped.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The job cannot be run as given.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A file or directory could not be read or written.
    #[error("cannot {action} `{}`: {error}", path.display())]
    Io {
        /// What was being done (`read`, `write`, `create`).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The output exists and is not a training file of this version.
    #[error("`{}` is not a training file of this vates: its header differs", path.display())]
    NotTrainingFile {
        /// The file.
        path: PathBuf,
    },
    /// The output exists and is larger than [`MAX_CSV_BYTES`].
    #[error("`{}` is larger than {limit} bytes, the limit for a training file", path.display())]
    TooBig {
        /// The file.
        path: PathBuf,
        /// The limit.
        limit: u64,
    },
    /// The output's rows cannot be read (to resume).
    #[error(transparent)]
    Existing(#[from] ReadError),
    /// The program could not be started.
    #[error(transparent)]
    Start(#[from] StartError),
    /// A run failed.
    #[error("`{command}` failed ({status}) with {variable}={p}")]
    Failed {
        /// The command.
        command: String,
        /// How it ended.
        status: String,
        /// The environment variable that set the workers ([`Runtime::workers_variable`]).
        variable: &'static str,
        /// The workers.
        p: u32,
        /// The end of its standard error.
        stderr_tail: String,
    },
    /// A run exceeded the timeout and was stopped.
    #[error("`{command}` ran longer than {} s and was stopped", trace::text::num(.timeout.as_secs_f64()))]
    TimedOut {
        /// The command.
        command: String,
        /// The timeout.
        timeout: Duration,
    },
    /// The campaign was cancelled (the program running was stopped).
    #[error("interrupted; the program running was stopped and its files removed")]
    Cancelled,
    /// A run did not write a file it should have.
    #[error("`{command}` wrote no {variable} file")]
    NoFile {
        /// The command.
        command: String,
        /// The environment variable that names the file.
        variable: &'static str,
        /// The program's runtime.
        runtime: RuntimeKind,
    },
    /// A run of a DAG Recorder program wrote no `.dag` file.
    #[error(
        "`{command}` wrote no DAG Recorder file `{}` (DR_PREFIX={})",
        path.display(),
        dr_prefix(path).display()
    )]
    NoDrFile {
        /// The command.
        command: String,
        /// The file DAG Recorder was asked for (`$DR_PREFIX.dag`).
        path: PathBuf,
    },
    /// A run's DAG file cannot be read.
    #[error(transparent)]
    Dag(#[from] LoadError),
    /// A run's recording is of another run.
    #[error("{mismatch} (`{}`)", path.display())]
    Mismatch {
        /// What differs.
        mismatch: Mismatch,
        /// The DAG file.
        path: PathBuf,
        /// The program's runtime.
        runtime: RuntimeKind,
    },
    /// The elapsed time a run wrote is not a number.
    #[error("`{command}` wrote `{text}` as its elapsed time")]
    BadElapsed {
        /// The command.
        command: String,
        /// What it wrote.
        text: String,
        /// The program's runtime.
        runtime: RuntimeKind,
    },
    /// A row with a value the training reader would refuse (not finite, negative, or an
    /// elapsed time of 0); it is not written.
    #[error("the run at n = {}, p = {} has {column} = {value}: {why}; the row is not written", trace::text::num(.point.n), .point.p)]
    BadRow {
        /// The run.
        point: Point,
        /// The column.
        column: &'static str,
        /// The value.
        value: f64,
        /// Why it is refused.
        why: &'static str,
    },
}

impl CampaignError {
    /// How to fix the program or its environment, where the error says nothing a caller's
    /// options could change ([`diag::Advise`] adds what they can).
    pub fn program_advice(&self) -> Option<String> {
        let text = match self {
            CampaignError::Io { .. } => "check the path, its directory and their permissions",
            CampaignError::Failed { stderr_tail, .. } => {
                return Some(if stderr_tail.trim().is_empty() {
                    "run it by hand to see why".to_string()
                } else {
                    format!("its standard error ends with:\n{}", stderr_tail.trim_end())
                })
            }
            CampaignError::NoFile { runtime, .. } => match runtime {
                RuntimeKind::Rayon => {
                    "the program must run its parallel part under taskrec::run (see the \
                     taskrec crate)"
                }
                RuntimeKind::OpenMp => {
                    "the program must be an OpenMP program on LLVM's libomp (clang -fopenmp), \
                     which loads the OMPT tool, and run at least one parallel region; GCC's \
                     libgomp loads no tool"
                }
                RuntimeKind::DagRecorder => "the program must be built with DAG Recorder",
            },
            CampaignError::NoDrFile { .. } => {
                "DAG Recorder writes $DR_PREFIX.dag only when the program calls dr_dump() after \
                 dr_stop() (dr_stop() alone writes nothing), and records only when the program \
                 defines DAG_RECORDER=2 before including dag_recorder.h; check that the program \
                 does both and that its directory is writable"
            }
            CampaignError::Mismatch { runtime, .. } => match runtime {
                RuntimeKind::Rayon => {
                    "the program must run in rayon's global pool, which RAYON_NUM_THREADS \
                     sizes, and read its size where the placeholder puts it"
                }
                RuntimeKind::OpenMp => {
                    "the program's outermost parallel regions must use the threads \
                     OMP_NUM_THREADS asks for (no num_threads clause or \
                     omp_set_num_threads), and it must read its size where the placeholder \
                     puts it"
                }
                RuntimeKind::DagRecorder => {
                    "DAG Recorder's file names more workers than MYTH_NUM_WORKERS asked for: \
                     the program must take its workers from MassiveThreads' MYTH_NUM_WORKERS"
                }
            },
            CampaignError::BadElapsed { runtime, .. } => match runtime {
                RuntimeKind::Rayon => {
                    "the program must write its elapsed seconds as one number (taskrec::run \
                     does)"
                }
                RuntimeKind::OpenMp => {
                    "the OMPT tool writes the elapsed seconds: check that the tool is \
                     vates_ompt.c built for this vates"
                }
                RuntimeKind::DagRecorder => "DAG Recorder programs time no untraced run",
            },
            CampaignError::BadRow { .. } => {
                "check the program's clock and the file it writes its elapsed time to; the \
                 training file is unchanged by this run"
            }
            _ => return None,
        };
        Some(text.to_string())
    }
}

impl diag::Advise for CampaignError {
    /// The program's advice ([`CampaignError::program_advice`]), else what the caller's
    /// options can change: `{output}`, `{sizes}`, `{timeout}` and the plan's keys.
    fn advice(&self) -> Option<diag::Advice> {
        if let Some(fix) = self.program_advice() {
            return Some(diag::Advice::fix(fix));
        }
        Some(diag::Advice::fix(match self {
            CampaignError::Plan(e) => return e.advice(),
            CampaignError::NotTrainingFile { .. } => format!(
                "give another {{output}}, or a file whose first line is `{}`",
                csv_header().trim_end()
            ),
            CampaignError::TooBig { .. } => "give another {output}".into(),
            CampaignError::TimedOut { .. } => "give smaller {sizes}, or a larger {timeout}".into(),
            _ => return None,
        }))
    }
}

/// What a campaign tells its caller as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// The plan: `todo` runs to make now, `done` already in the file.
    Planned {
        /// Runs to make.
        todo: usize,
        /// Runs the file already holds.
        done: usize,
    },
    /// A run finished and its row was appended.
    Row {
        /// Its index among the runs made now (from 0).
        index: usize,
        /// The run.
        point: Point,
        /// Its row.
        row: &'a Measured,
    },
}

/// What a finished campaign did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Rows appended.
    pub written: usize,
    /// Runs of the plan the file already held.
    pub skipped: usize,
}

impl Job {
    /// A campaign of `app`: `plan`'s runs of `command` on `runtime`, the rows appended to
    /// `output`; an untraced run timed beside each traced one if `untraced` and the runtime
    /// can time them; each run stopped after `timeout`; no DAG file kept; runs on one worker
    /// required. The one way `vates taskpar record` and a study's cells make their job.
    pub fn new(
        app: &str,
        plan: Plan,
        command: &[String],
        output: PathBuf,
        runtime: Runtime,
        untraced: bool,
        timeout: Duration,
    ) -> Job {
        Job {
            app: app.to_string(),
            plan,
            command: command.to_vec(),
            output,
            keep_dags: None,
            untraced: untraced && runtime.times_untraced(),
            timeout,
            runtime,
            require_serial: true,
        }
    }

    /// Checks the job before any run.
    ///
    /// # Errors
    /// The first [`PlanError`].
    pub fn check(&self) -> Result<(), PlanError> {
        check_app(&self.app)?;
        if self.command.is_empty() {
            return Err(PlanError::NoCommand);
        }
        if self.require_serial && !self.plan.procs.contains(&1) {
            return Err(PlanError::NoSerialRuns);
        }
        let limit = dag::Limits::MAX_WORKERS;
        if let Some(&p) = self.plan.procs.iter().find(|&&p| p > limit) {
            return Err(PlanError::TooManyWorkers { p, limit });
        }
        if self.plan.reps == 0 {
            return Err(PlanError::NoReps);
        }
        if self.untraced && !self.runtime.times_untraced() {
            return Err(PlanError::NoUntraced {
                runtime: "DAG Recorder",
            });
        }
        let runs = (self.plan.sizes.len() as u128)
            * (self.plan.procs.len() as u128)
            * u128::from(self.plan.reps);
        if runs > MAX_RUNS as u128 {
            return Err(PlanError::TooManyRuns {
                runs: usize::try_from(runs).unwrap_or(usize::MAX),
                limit: MAX_RUNS,
            });
        }
        Ok(())
    }

    /// The arguments of the run at `point`.
    fn args(&self, point: Point) -> Vec<String> {
        command_args(&self.command, point.n, point.p)
    }
}

/// The arguments of `command` (program first) at size `n` on `p` workers: `n` replaces
/// [`SIZE_PLACEHOLDER`] in an argument, or is appended when none has it; `p` replaces
/// [`WORKERS_PLACEHOLDER`].
pub fn command_args(command: &[String], n: f64, p: u32) -> Vec<String> {
    // Every digit: a size of 10^15 + 1 must reach the program as itself.
    let n = format!("{n}");
    let p = p.to_string();
    let rest = command.get(1..).unwrap_or(&[]);
    let mut args: Vec<String> = rest
        .iter()
        .map(|s| {
            s.replace(SIZE_PLACEHOLDER, &n)
                .replace(WORKERS_PLACEHOLDER, &p)
        })
        .collect();
    if !rest.iter().any(|s| s.contains(SIZE_PLACEHOLDER)) {
        args.push(n);
    }
    args
}

/// Checks that `app` is a plain name, safe as part of a file name: letters, digits, `.`,
/// `_`, `-` and `+`, not beginning with `.` or `-`, at most [`MAX_APP_LEN`] bytes.
///
/// # Errors
/// [`PlanError::App`] saying what is wrong.
pub fn check_app(app: &str) -> Result<(), PlanError> {
    let bad = |why: String| PlanError::App {
        app: app.to_string(),
        why,
    };
    if app.is_empty() {
        return Err(bad("is empty".into()));
    }
    if app.len() > MAX_APP_LEN {
        return Err(bad(format!("is longer than {MAX_APP_LEN} bytes")));
    }
    if let Some(c) = app
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || "._-+".contains(*c)))
    {
        return Err(bad(format!(
            "holds `{c}`; a name is letters, digits, `.`, `_`, `-` and `+`"
        )));
    }
    if app.starts_with('.') || app.starts_with('-') {
        return Err(bad("begins with `.` or `-`".into()));
    }
    Ok(())
}

/// Distinct scratch directories for the campaigns of one process.
static CAMPAIGNS: AtomicUsize = AtomicUsize::new(0);

/// Removes a directory and what it holds when dropped.
struct RemoveDir(PathBuf);

impl Drop for RemoveDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the campaign `job` on `backend`, telling `on` of the plan and of each row.
///
/// # Errors
/// [`CampaignError`]: a job that cannot run, an output that is not a training file, a run
/// that cannot start, fails, times out, writes nothing or another run's recording, a row
/// with a value that cannot be, a cancellation, a file that cannot be written.
pub fn run(
    job: &Job,
    backend: &dyn Backend,
    on: &mut dyn FnMut(Event<'_>),
) -> Result<Summary, CampaignError> {
    job.check()?;
    let points = job.plan.points();
    let existing = read_existing(&job.output)?;
    if !existing.is_empty() && existing.lines().next() != csv_header().lines().next() {
        return Err(CampaignError::NotTrainingFile {
            path: job.output.clone(),
        });
    }
    let mut done = Done::read(&job.output.display().to_string(), &existing, &job.app)?;
    let todo: Vec<Point> = points
        .iter()
        .copied()
        .filter(|p| !done.contains(*p))
        .collect();
    let summary = Summary {
        written: todo.len(),
        skipped: points.len() - todo.len(),
    };
    on(Event::Planned {
        todo: summary.written,
        done: summary.skipped,
    });
    if todo.is_empty() {
        return Ok(summary);
    }
    if let Some(dir) = &job.keep_dags {
        std::fs::create_dir_all(dir).map_err(|error| CampaignError::Io {
            action: "create",
            path: dir.clone(),
            error,
        })?;
    }
    let scratch = std::env::temp_dir().join(format!(
        "vates-taskpar-{}-{}",
        std::process::id(),
        CAMPAIGNS.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&scratch).map_err(|error| CampaignError::Io {
        action: "create",
        path: scratch.clone(),
        error,
    })?;
    let _remove = RemoveDir(scratch.clone());
    let mut out = Appender {
        path: &job.output,
        file: None,
        // The header goes in with the first row, so a run that fails leaves no empty file;
        // a file whose last line has no newline gets one first.
        prefix: if existing.is_empty() {
            csv_header()
        } else if !existing.ends_with('\n') {
            "\n".to_string()
        } else {
            String::new()
        },
    };
    for (index, &point) in todo.iter().enumerate() {
        if backend.cancelled() {
            return Err(CampaignError::Cancelled);
        }
        let row = run_point(job, backend, point, &done, &scratch)?;
        out.append(&csv_line(&row))?;
        done.add(&row.run);
        on(Event::Row {
            index,
            point,
            row: &row,
        });
    }
    Ok(summary)
}

/// The text of the training file `path`, empty if it does not exist.
fn read_existing(path: &Path) -> Result<String, CampaignError> {
    let io = |error| CampaignError::Io {
        action: "read",
        path: path.to_path_buf(),
        error,
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(String::new()),
        Err(e) => return Err(io(e)),
    };
    let mut text = String::new();
    file.take(MAX_CSV_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    if text.len() as u64 > MAX_CSV_BYTES {
        return Err(CampaignError::TooBig {
            path: path.to_path_buf(),
            limit: MAX_CSV_BYTES,
        });
    }
    Ok(text)
}

/// Appends rows to the training file, opening it at the first.
struct Appender<'a> {
    path: &'a Path,
    file: Option<std::fs::File>,
    prefix: String,
}

impl Appender<'_> {
    fn append(&mut self, line: &str) -> Result<(), CampaignError> {
        let io = |error| CampaignError::Io {
            action: "write",
            path: self.path.to_path_buf(),
            error,
        };
        let f = match &mut self.file {
            Some(f) => f,
            None => self.file.insert(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(self.path)
                    .map_err(io)?,
            ),
        };
        let mut text = std::mem::take(&mut self.prefix);
        text.push_str(line);
        f.write_all(text.as_bytes()).map_err(io)
    }
}

/// Makes the run at `point` (traced, then untraced if asked) and returns its row.
fn run_point(
    job: &Job,
    backend: &dyn Backend,
    point: Point,
    done: &Done,
    scratch: &Path,
) -> Result<Measured, CampaignError> {
    let dag_path = match &job.keep_dags {
        Some(dir) => dir.join(format!(
            "{}-n{}-p{}-r{}.dag",
            job.app, point.n, point.p, point.rep
        )),
        None => scratch.join("run.dag"),
    };
    // A file left by an earlier run must not pass for this run's.
    let _ = std::fs::remove_file(&dag_path);
    let (command, written) = run_program(
        job,
        backend,
        point,
        job.runtime.file_env(&dag_path),
        &dag_path,
        scratch,
    )?;
    if !written {
        return Err(match job.runtime {
            Runtime::DagRecorder { .. } => CampaignError::NoDrFile {
                command,
                path: dag_path,
            },
            _ => CampaignError::NoFile {
                command,
                variable: experiment::ENV_FILE,
                runtime: job.runtime.kind(),
            },
        });
    }
    let rec = dag::load_with(&dag_path, &dag::Limits::default(), job.runtime.clock_hz())?;
    // DAG Recorder's header counts the workers that ran recording code, which may be fewer
    // than the run had; the others had nothing to do, and the statistics count them idle.
    let fewer_seen =
        matches!(job.runtime, Runtime::DagRecorder { .. }) && rec.header.workers < point.p;
    if !fewer_seen {
        experiment::check_recording(&rec.header, point).map_err(|mismatch| {
            CampaignError::Mismatch {
                mismatch,
                path: dag_path.clone(),
                runtime: job.runtime.kind(),
            }
        })?;
    }
    let opts = StatsOptions {
        workers: Some(point.p),
        burden: rec.header.cycles_to_clock(BURDEN_CYCLES),
        profile_points: 0,
    };
    let st = Stats::of(&rec.graph(), rec.header.workers, rec.nodes, &opts);
    let untraced = if job.untraced {
        let t = scratch.join("elapsed.txt");
        let _ = std::fs::remove_file(&t);
        let env = vec![(experiment::ENV_ELAPSED, t.as_os_str().to_owned())];
        let (command, written) = run_program(job, backend, point, env, &t, scratch)?;
        if !written {
            return Err(CampaignError::NoFile {
                command,
                variable: experiment::ENV_ELAPSED,
                runtime: job.runtime.kind(),
            });
        }
        let mut text = String::new();
        std::fs::File::open(&t)
            .and_then(|f| f.take(1 << 10).read_to_string(&mut text))
            .map_err(|error| CampaignError::Io {
                action: "read",
                path: t.clone(),
                error,
            })?;
        let text = text.trim();
        Some(text.parse::<f64>().map_err(|_| CampaignError::BadElapsed {
            command,
            text: text.to_string(),
            runtime: job.runtime.kind(),
        })?)
    } else {
        None
    };
    let row = experiment::measured(
        &job.app,
        point,
        &st,
        rec.header.clock.frequency_hz,
        done.serial_work(point.n),
        untraced,
    );
    if let Some((column, value, why)) = experiment::refused(&row) {
        return Err(CampaignError::BadRow {
            point,
            column,
            value,
            why,
        });
    }
    Ok(row)
}

/// Runs the program once at `point` with `file_env` asking for the file `file`; returns
/// the command as shown and whether the file was written.
fn run_program(
    job: &Job,
    backend: &dyn Backend,
    point: Point,
    file_env: Vec<(&'static str, std::ffi::OsString)>,
    file: &Path,
    scratch: &Path,
) -> Result<(String, bool), CampaignError> {
    let args = job.args(point);
    let mut env = job.runtime.env(point.p);
    env.extend(file_env);
    let outputs = [file.to_path_buf()];
    let inv = Invocation {
        program: &job.command[0],
        args: &args,
        env: &env,
        env_remove: &[experiment::ENV_FILE, experiment::ENV_ELAPSED],
        outputs: &outputs,
        stdout: None,
        timeout: job.timeout,
        scratch,
    };
    let command = inv.shown();
    let outcome = backend.run(&inv)?;
    match outcome.status {
        Status::Success => {}
        Status::Failed(status) => {
            return Err(CampaignError::Failed {
                command,
                status,
                variable: job.runtime.workers_variable(),
                p: point.p,
                stderr_tail: outcome.stderr_tail,
            })
        }
        Status::TimedOut => {
            let _ = std::fs::remove_file(file);
            return Err(CampaignError::TimedOut {
                command,
                timeout: job.timeout,
            });
        }
        Status::Cancelled => {
            let _ = std::fs::remove_file(file);
            return Err(CampaignError::Cancelled);
        }
    }
    Ok((command, !outcome.written.is_empty()))
}

/// The prefix DAG Recorder is given for the file `dag` (`dir/name.dag` → `dir/name`).
pub fn dr_prefix(dag: &Path) -> PathBuf {
    dag.with_extension("")
}
