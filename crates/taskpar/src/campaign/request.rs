//! A recording campaign as a front end asks for it (`vates taskpar record`): the texts of
//! its lists and the options given, turned into a checked [`Job`] and the notes its runtime
//! calls for, every input named by its key (`{procs}`) for the front end to spell.

use std::path::Path;
use std::time::Duration;

use super::{CampaignError, Job, Runtime, RuntimeKind};
use crate::experiment::Plan;
use crate::lists::{self, ValuesError};
use diag::{literal, Keyed};

/// What a front end asks of a recording campaign, before the runtime's recorder is found.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// The application's name.
    pub app: &'a str,
    /// The sizes as written (a list or range, [`lists::values`]).
    pub sizes: &'a str,
    /// The worker counts as written ([`lists::workers`]).
    pub procs: &'a str,
    /// Repetitions.
    pub reps: u32,
    /// The program and its arguments.
    pub command: &'a [String],
    /// The training CSV.
    pub output: &'a Path,
    /// Where to keep each run's DAG file.
    pub keep_dags: Option<&'a Path>,
    /// Whether untraced runs were turned off.
    pub no_untraced: bool,
    /// Seconds a run may take (at most 10^9).
    pub timeout_s: f64,
    /// The runtime.
    pub runtime: RuntimeKind,
    /// Whether an OMPT tool was given.
    pub tool_given: bool,
    /// Whether a clock rate was given.
    pub clock_given: bool,
}

/// A list's error as a usage error naming the input `key`.
fn list_error(key: &str, e: ValuesError) -> Keyed {
    let sep = if matches!(e, ValuesError::NotWhole(_)) {
        ":"
    } else {
        ""
    };
    Keyed::usage(format!("{{{key}}}{sep} {}", literal(&e.to_string())))
}

impl Request<'_> {
    /// The job asked for, checked, its runtime [`Runtime::Rayon`] until the caller finds
    /// the recorder (`{procs}`, `{sizes}`, `{runtime}`, `{ompt-tool}`, `{clock-hz}` and the
    /// plan's keys name the inputs).
    ///
    /// # Errors
    /// [`Keyed`], a usage error: a list that is not one, a plan that cannot run, a
    /// recorder's option given for another runtime.
    pub fn job(&self) -> Result<Job, Keyed> {
        let procs = lists::workers(self.procs).map_err(|e| list_error("procs", e))?;
        let sizes = lists::values(self.sizes).map_err(|e| list_error("sizes", e))?;
        let plan = Plan {
            sizes,
            procs,
            reps: self.reps,
        };
        let untraced = !self.no_untraced && self.runtime.times_untraced();
        let timeout = Duration::from_secs_f64(self.timeout_s.min(1e9));
        let output = self.output.to_path_buf();
        let mut job = Job::new(
            self.app,
            plan,
            self.command,
            output,
            Runtime::Rayon,
            untraced,
            timeout,
        );
        job.keep_dags = self.keep_dags.map(Path::to_path_buf);
        job.check().map_err(|e| {
            let fix = diag::Advise::advice(&e).map_or(String::new(), |a| a.fix);
            Keyed::usage(format!("{}; {fix}", literal(&e.to_string())))
        })?;
        if self.tool_given && self.runtime != RuntimeKind::OpenMp {
            return Err(Keyed::usage(
                "{ompt-tool} is for OpenMP programs: give {runtime} openmp too",
            ));
        }
        if self.clock_given && self.runtime != RuntimeKind::DagRecorder {
            return Err(Keyed::usage(
                "{clock-hz} is for DAG Recorder programs, whose files do not say how fast their \
                 clock ran: give {runtime} dag-recorder too",
            ));
        }
        Ok(job)
    }

    /// Why the runtime asked for has no recorder here: DAG Recorder's clock rate unknown.
    pub const NO_CLOCK: &'static str =
        "{runtime} dag-recorder: DAG Recorder's files do not say how fast their clock ran, and \
         this machine's CPU clock is unknown (/proc/cpuinfo); give {clock-hz}, the time-stamp \
         counter's rate";

    /// The campaign's stop `e` as a keyed error: the program's advice, else what the inputs
    /// can change, a cancellation with where the finished runs are.
    ///
    /// # Errors
    /// `e` itself when the front end must say more than the library can: a training file
    /// that cannot be read ([`CampaignError::Existing`]) and a DAG file that cannot be
    /// ([`CampaignError::Dag`]), both located, and a program that cannot start
    /// ([`CampaignError::Start`], whose fix is where the front end takes the command).
    pub fn stopped(&self, e: CampaignError) -> Result<Keyed, CampaignError> {
        let message = literal(&e.to_string());
        if let Some(help) = e.program_advice() {
            return Ok(Keyed::fix(message, literal(&help)));
        }
        Ok(match e {
            CampaignError::Existing(_) | CampaignError::Dag(_) | CampaignError::Start(_) => {
                return Err(e)
            }
            CampaignError::Cancelled => Keyed::fix(
                format!(
                    "{message}; the rows of the runs that finished are in `{}` (run again to \
                     resume)",
                    literal(&self.output.display().to_string())
                ),
                "",
            ),
            e => match diag::Advise::advice(&e) {
                Some(advice) => Keyed { message, advice },
                None => Keyed::fix(message, ""),
            },
        })
    }

    /// What the user is told once the recorder is `runtime`, inputs named by key: a DAG
    /// Recorder's clock read at this machine's rate, its runs recorded without untraced ones.
    pub fn notes(&self, runtime: &Runtime) -> Vec<String> {
        let mut notes = Vec::new();
        if let (Runtime::DagRecorder { clock_hz }, false) = (runtime, self.clock_given) {
            notes.push(format!(
                "DAG Recorder's ticks are read at this machine's {} MHz (give {{clock-hz}} to \
                 say otherwise)",
                clock_hz / 1e6,
            ));
        }
        if self.runtime == RuntimeKind::DagRecorder && !self.no_untraced {
            notes.push(
                "DAG Recorder programs are recorded without untraced runs (nothing in them \
                 times their parallel part alone); elapsed_untraced stays empty"
                    .into(),
            );
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diag::Advise;

    fn flags(k: &str) -> Option<String> {
        Some(format!("--{k}"))
    }

    fn said(e: &Keyed) -> String {
        e.message(&flags)
    }

    fn request<'a>(command: &'a [String]) -> Request<'a> {
        Request {
            app: "fib",
            sizes: "20..22",
            procs: "1,2",
            reps: 2,
            command,
            output: Path::new("train.csv"),
            keep_dags: None,
            no_untraced: false,
            timeout_s: 1e12,
            runtime: RuntimeKind::Rayon,
            tool_given: false,
            clock_given: false,
        }
    }

    #[test]
    fn a_request_is_a_checked_job() {
        let command = vec!["fib".to_string()];
        let job = request(&command).job().unwrap();
        assert_eq!(job.plan.sizes, [20.0, 21.0, 22.0]);
        assert_eq!(job.plan.procs, [1, 2]);
        assert!(job.untraced && job.require_serial);
        assert_eq!(job.timeout, Duration::from_secs(1_000_000_000));
    }

    #[test]
    fn refusals_name_the_inputs() {
        let command = vec!["fib".to_string()];
        let mut r = request(&command);
        r.procs = "1.5";
        let e = said(&r.job().unwrap_err());
        assert_eq!(e, "--procs: `1.5` is not a whole worker count");
        r.procs = "2";
        let e = said(&r.job().unwrap_err());
        assert!(e.ends_with("; --procs: add 1 (e.g. --procs 1,2)"), "{e}");
        r.procs = "{n}";
        let e = said(&r.job().unwrap_err());
        assert!(e.starts_with("--procs"), "{e}");
        assert!(e.contains("{n}"), "{e}");
        r.procs = "1";
        r.clock_given = true;
        let e = said(&r.job().unwrap_err());
        assert!(e.starts_with("--clock-hz is for DAG Recorder"), "{e}");
    }

    #[test]
    fn a_dag_recorder_campaign_is_noted() {
        let command = vec!["fib".to_string()];
        let mut r = request(&command);
        r.runtime = RuntimeKind::DagRecorder;
        let notes = r.notes(&Runtime::DagRecorder { clock_hz: 2e9 });
        assert_eq!(notes.len(), 2);
        assert!(
            notes[0].contains("2000 MHz (give {clock-hz}"),
            "{}",
            notes[0]
        );
    }

    #[test]
    fn a_stop_says_what_to_change() {
        let command = vec!["fib".to_string()];
        let r = request(&command);
        let e = CampaignError::TimedOut {
            command: "fib 20".into(),
            timeout: Duration::from_secs(2),
        };
        let stop = r.stopped(e).unwrap();
        assert_eq!(
            stop.advice.spelt(&flags),
            "give smaller --sizes, or a larger --timeout"
        );
        let stop = r.stopped(CampaignError::Cancelled).unwrap();
        assert!(said(&stop).ends_with("are in `train.csv` (run again to resume)"));
        let start = super::super::StartError {
            command: "x".into(),
            error: std::io::ErrorKind::NotFound.into(),
        };
        assert!(r.stopped(CampaignError::Start(start)).is_err());
    }
}
