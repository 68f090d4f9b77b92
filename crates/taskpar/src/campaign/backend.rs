//! Where a campaign's runs execute: the [`Backend`] interface and what a run returns.
//!
//! The runner ([`super::run`]) asks a backend to run one command with an environment and a
//! timeout and to say how it ended, how long it took and which of the files it was to
//! write exist. [`super::LocalBackend`] runs it on this machine; another backend (a batch
//! scheduler such as Slurm) can run it elsewhere, copying the files back, without any
//! change to the runner.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// One run of a program.
#[derive(Clone, Debug)]
pub struct Invocation<'a> {
    /// The program.
    pub program: &'a str,
    /// Its arguments.
    pub args: &'a [String],
    /// Environment variables to set for it.
    pub env: &'a [(&'a str, std::ffi::OsString)],
    /// Environment variables to remove from what it inherits.
    pub env_remove: &'a [&'a str],
    /// The files it is expected to write (e.g. its DAG file).
    pub outputs: &'a [PathBuf],
    /// A file to write its standard output to (discarded when `None`).
    pub stdout: Option<&'a Path>,
    /// How long it may run before it is stopped.
    pub timeout: Duration,
    /// A directory for the backend's own scratch files (its standard error); the runner
    /// removes it at the end.
    pub scratch: &'a Path,
}

impl Invocation<'_> {
    /// The command as a person would type it, for messages (`prog arg1 arg2`).
    pub fn shown(&self) -> String {
        std::iter::once(self.program)
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// It exited with status 0.
    Success,
    /// It exited otherwise (the status as the system describes it, e.g. `exit status: 3`).
    Failed(String),
    /// It ran past its timeout and was stopped (with everything it started).
    TimedOut,
    /// The campaign was cancelled while it ran; it was stopped (with everything it started).
    Cancelled,
}

/// What a backend reports of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// Wall-clock time from start to end.
    pub elapsed: Duration,
    /// The end of its standard error (at most [`STDERR_TAIL`] bytes), for messages.
    pub stderr_tail: String,
    /// Those of [`Invocation::outputs`] that exist after the run.
    pub written: Vec<PathBuf>,
}

/// The most bytes of a run's standard error an [`Outcome`] keeps.
pub const STDERR_TAIL: usize = 2000;

/// A program could not be started.
#[derive(Debug, thiserror::Error)]
#[error("cannot run `{command}`: {error}")]
pub struct StartError {
    /// The command as shown.
    pub command: String,
    /// The system's reason.
    pub error: std::io::Error,
}

/// Runs the programs of a campaign.
pub trait Backend {
    /// Runs `inv` to its end, its timeout or a cancellation, and reports how it went.
    /// A run that exceeds its timeout or is cancelled is stopped with every process it
    /// started, and its [`Outcome::status`] says so.
    ///
    /// # Errors
    /// [`StartError`] when the program cannot be started at all.
    fn run(&self, inv: &Invocation<'_>) -> Result<Outcome, StartError>;

    /// Whether the campaign was cancelled (the runner stops before the next run).
    fn cancelled(&self) -> bool {
        false
    }
}
