//! One cell's runs (its repetitions at one size and worker count), into the cell's folder:
//! the same code runs a cell here and on a Slurm compute node, so both backends give the
//! same rows.
//!
//! A cell's folder holds `times.csv` (`n,p,seconds`, a row per run), `rows.csv` (the
//! training rows of the task-parallel runtimes), `samples.csv` (the segment times of the
//! threads runtime) and, written last, the marker `done`. A cell without the marker is
//! run again from its start (the task-parallel runtimes resume inside it from `rows.csv`),
//! so an interruption never loses or duplicates a row.

use std::io::Read;
use std::path::{Path, PathBuf};

use taskpar::campaign::{self, Backend, Invocation, Runtime, Status};
use taskpar::experiment::Plan;

use crate::file::{Campaign, RuntimeKind};
use crate::plan::Cell;

/// The marker a finished cell's folder holds.
pub const DONE: &str = "done";
/// A cell's times.
pub const TIMES: &str = "times.csv";
/// A cell's training rows (task-parallel runtimes).
pub const ROWS: &str = "rows.csv";
/// A cell's segment times (threads runtime).
pub const SAMPLES: &str = "samples.csv";
/// The most bytes of a run's standard output read (threads runtime).
pub const MAX_STDOUT_BYTES: u64 = 16 << 20;

/// Why a cell stopped.
#[derive(Debug, thiserror::Error)]
pub enum CellError {
    /// A file of the cell could not be read or written.
    #[error("cannot {action} `{}`: {error}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// A run of a task-parallel runtime stopped (through `taskpar`'s campaign runner).
    #[error(transparent)]
    Recorded(#[from] campaign::CampaignError),
    /// The program could not be started.
    #[error(transparent)]
    Start(#[from] campaign::StartError),
    /// A run failed.
    #[error("`{command}` failed ({status}) at {cell}{}", stderr_note(stderr_tail))]
    Failed {
        /// The command.
        command: String,
        /// How it ended.
        status: String,
        /// The cell, as `n = …, p = …`.
        cell: String,
        /// The end of its standard error.
        stderr_tail: String,
    },
    /// A run exceeded the timeout.
    #[error("`{command}` ran longer than {} s and was stopped", trace::text::num(*.timeout_s))]
    TimedOut {
        /// The command.
        command: String,
        /// The timeout.
        timeout_s: f64,
    },
    /// The campaign was cancelled.
    #[error("interrupted; the program running was stopped")]
    Cancelled,
    /// A threads program printed what is not its segment times.
    #[error("`{command}` printed `{line}` on line {number}: {why}")]
    Output {
        /// The command.
        command: String,
        /// The line.
        line: String,
        /// Its number (from 1).
        number: usize,
        /// What is wrong.
        why: &'static str,
    },
    /// A training file of a cell cannot be read.
    #[error(transparent)]
    Rows(#[from] fit::read::ReadError),
    /// The recorder the runtime needs was not given.
    #[error("the {0} runtime needs its recorder resolved before the cell runs")]
    NoRecorder(&'static str),
}

/// How a failed run's message ends: the end of its standard error, if it wrote any.
fn stderr_note(tail: &str) -> String {
    if tail.trim().is_empty() {
        String::new()
    } else {
        format!("; its standard error ends:\n{}", tail.trim_end())
    }
}

/// What runs a campaign's cells: the campaign, the recorder of its task-parallel runtime
/// (the OMPT tool found, DAG Recorder's clock), where kept DAG files go, and the backend
/// that starts the programs.
pub struct Runner<'a> {
    /// The campaign.
    pub campaign: &'a Campaign,
    /// The task-parallel runtime as `taskpar` runs it (`None` for plain and threads).
    pub recorder: Option<Runtime>,
    /// Where each run's DAG file is kept (`None`: not kept).
    pub dags: Option<PathBuf>,
    /// Starts the programs.
    pub backend: &'a dyn Backend,
}

impl Runner<'_> {
    /// Runs `cell` into the folder `dir` (created if missing), telling `on_run` after each
    /// run; writes the [`DONE`] marker last. A finished cell is not run again.
    ///
    /// # Errors
    /// [`CellError`]: a run that fails, times out or is cancelled, output that cannot be
    /// read, a file that cannot be written.
    pub fn run(&self, cell: &Cell, dir: &Path, on_run: &mut dyn FnMut()) -> Result<(), CellError> {
        if dir.join(DONE).exists() {
            return Ok(());
        }
        std::fs::create_dir_all(dir).map_err(io("create", dir))?;
        match self.campaign.runtime {
            k if k.traced() => self.recorded(cell, dir, on_run)?,
            _ => self.timed(cell, dir, on_run)?,
        }
        write_atomically(&dir.join(DONE), "")
    }

    /// A cell of a task-parallel runtime: `taskpar`'s campaign runner on the cell's plan,
    /// then the times taken from its rows.
    fn recorded(&self, cell: &Cell, dir: &Path, on_run: &mut dyn FnMut()) -> Result<(), CellError> {
        let c = self.campaign;
        let runtime = self
            .recorder
            .clone()
            .ok_or(CellError::NoRecorder(c.runtime.name()))?;
        let rows = dir.join(ROWS);
        let plan = Plan {
            sizes: vec![cell.n],
            procs: vec![cell.p],
            reps: cell.reps,
        };
        let untraced = c.keep.untraced;
        let mut job = campaign::Job::new(
            &c.name,
            plan,
            &c.command,
            rows.clone(),
            runtime,
            untraced,
            c.timeout(),
        );
        job.keep_dags = self.dags.clone();
        // The serial runs of the campaign's sizes are other cells.
        job.require_serial = false;
        campaign::run(&job, self.backend, &mut |e| {
            if let campaign::Event::Row { .. } = e {
                on_run();
            }
        })?;
        let text = read(&rows)?;
        let runs = training_rows(&rows.display().to_string(), &text)?;
        let mut t = times_table(c);
        for r in &runs {
            t.push_row([r.n, r.p, r.elapsed_untraced.unwrap_or(r.elapsed)]);
        }
        write_atomically(&dir.join(TIMES), &t.to_string())
    }

    /// A cell of the plain or threads runtime: each repetition timed by the backend (plain)
    /// or read from the program's own output (threads).
    fn timed(&self, cell: &Cell, dir: &Path, on_run: &mut dyn FnMut()) -> Result<(), CellError> {
        let c = self.campaign;
        let args = campaign::command_args(&c.command, cell.n, cell.p);
        let p = cell.p.to_string();
        let env: Vec<(&str, std::ffi::OsString)> = ["OMP_NUM_THREADS", "RAYON_NUM_THREADS"]
            .into_iter()
            .map(|k| (k, p.clone().into()))
            .collect();
        let scratch = dir.join("scratch");
        std::fs::create_dir_all(&scratch).map_err(io("create", &scratch))?;
        let stdout = scratch.join("stdout.txt");
        let threads = c.runtime == RuntimeKind::Threads;
        let mut times = times_table(c);
        let mut samples = trace::csv::Table::new([
            c.names.size.as_str(),
            c.names.workers.as_str(),
            "rep",
            "segment",
            "seconds",
        ]);
        for rep in 0..cell.reps {
            if self.backend.cancelled() {
                return Err(CellError::Cancelled);
            }
            let inv = Invocation {
                program: &c.command[0],
                args: &args,
                env: &env,
                env_remove: &[],
                outputs: &[],
                stdout: threads.then_some(stdout.as_path()),
                timeout: c.timeout(),
                scratch: &scratch,
            };
            let command = inv.shown();
            let outcome = self.backend.run(&inv)?;
            match outcome.status {
                Status::Success => {}
                Status::Failed(status) => {
                    return Err(CellError::Failed {
                        command,
                        status,
                        cell: format!(
                            "{} = {}, {} = {}",
                            c.names.size,
                            trace::text::num(cell.n),
                            c.names.workers,
                            cell.p
                        ),
                        stderr_tail: outcome.stderr_tail,
                    })
                }
                Status::TimedOut => {
                    return Err(CellError::TimedOut {
                        command,
                        timeout_s: c.timeout_s,
                    })
                }
                Status::Cancelled => return Err(CellError::Cancelled),
            }
            let seconds = if threads {
                let text = read_capped(&stdout)?;
                let (segments, run) = segment_times(&command, &text)?;
                for (segment, s) in segments {
                    samples.push_row([
                        trace::csv::Cell::from(cell.n),
                        f64::from(cell.p).into(),
                        f64::from(rep).into(),
                        segment.into(),
                        s.into(),
                    ]);
                }
                run
            } else {
                outcome.elapsed.as_secs_f64()
            };
            times.push_row([cell.n, f64::from(cell.p), seconds]);
            on_run();
        }
        let _ = std::fs::remove_dir_all(&scratch);
        if threads {
            write_atomically(&dir.join(SAMPLES), &samples.to_string())?;
        }
        write_atomically(&dir.join(TIMES), &times.to_string())
    }
}

/// The training runs of a `taskpar` training file.
///
/// # Errors
/// [`CellError::Rows`], located.
pub fn training_rows(name: &str, text: &str) -> Result<Vec<taskpar::model::Run>, CellError> {
    Ok(taskpar::model::read_runs(name, text)?.runs)
}

/// An empty times table of the campaign (`n,p,seconds` in its column names).
pub fn times_table(c: &Campaign) -> trace::csv::Table {
    trace::csv::Table::new([c.names.size.as_str(), c.names.workers.as_str(), "seconds"])
}

/// The segment times and the whole run's time a threads program printed: `segment,seconds`
/// rows (a header `segment,seconds` may come first) and one `run,SECONDS` row.
///
/// # Errors
/// [`CellError::Output`] naming the line: a row that is not `name,seconds`, a time that
/// is not a finite number of 0 or more, no `run` row.
pub fn segment_times(command: &str, text: &str) -> Result<(Vec<(String, f64)>, f64), CellError> {
    let bad = |number: usize, line: &str, why| CellError::Output {
        command: command.to_string(),
        line: line.chars().take(200).collect(),
        number,
        why,
    };
    let mut segments = Vec::new();
    let mut run = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || (i == 0 && line == "segment,seconds") {
            continue;
        }
        let Some((name, value)) = line.split_once(',') else {
            return Err(bad(i + 1, line, "a row is `segment,seconds`"));
        };
        let v: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| {
                bad(
                    i + 1,
                    line,
                    "the time is not a number of seconds, 0 or more",
                )
            })?;
        let name = name.trim();
        if name == "run" {
            if run.is_some() {
                return Err(bad(i + 1, line, "a second `run` row"));
            }
            run = Some(v);
        } else {
            segments.push((name.to_string(), v));
        }
    }
    let run = run.ok_or_else(|| bad(0, "", "no `run,SECONDS` row (the whole run's time)"))?;
    Ok((segments, run))
}

/// A closure making [`CellError::Io`] for `action` on `path`.
pub(crate) fn io<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl Fn(std::io::Error) -> CellError + 'a {
    move |error| CellError::Io {
        action,
        path: path.to_path_buf(),
        error,
    }
}

/// The most bytes of a cell's file read.
pub const MAX_CELL_FILE: u64 = 256 << 20;

/// The text of the cell file `path`, at most [`MAX_CELL_FILE`] bytes.
pub(crate) fn read(path: &Path) -> Result<String, CellError> {
    read_limited(path, MAX_CELL_FILE)
}

/// The text of the regular file `path`, refused beyond `limit` bytes ([`crate::text_file`]).
pub(crate) fn read_limited(path: &Path, limit: u64) -> Result<String, CellError> {
    crate::text_file::read(path, limit).map_err(io("read", path))
}

/// The text of `path`, at most [`MAX_STDOUT_BYTES`].
fn read_capped(path: &Path) -> Result<String, CellError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_STDOUT_BYTES).read_to_end(&mut bytes))
        .map_err(io("read", path))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Writes `text` to `path` through a temporary file renamed into place, so that a reader
/// never sees half of it.
pub(crate) fn write_atomically(path: &Path, text: &str) -> Result<(), CellError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(io("write", &tmp))?;
    std::fs::rename(&tmp, path).map_err(io("write", path))
}
