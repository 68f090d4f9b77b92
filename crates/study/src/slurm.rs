//! The Slurm backend: a campaign's unfinished cells submitted as job arrays (`sbatch
//! --array`), one array per worker count (an array has one `--cpus-per-task`), one cell
//! (its repetitions inside) per index; followed with `squeue` until every task has left
//! the queue, each finished cell put into the study as its `done` marker appears;
//! cancelled with `scancel`.
//!
//! Each array task runs `vates campaign cell STUDY INDEX` on its compute node: the same
//! code as a local campaign's cells ([`crate::cell::Runner`]), so both backends give the
//! same rows. The study folder must be on a file system the nodes share, as the `vates`
//! binary must be. A cell that leaves the queue without its marker failed: its state
//! (from `sacct` when accounting is on) and the end of its log are reported, and a resumed
//! campaign submits it again. The jobs of a campaign are kept in the study
//! (`cells/slurm-jobs.txt`); a campaign resumed while they still run follows them instead
//! of submitting their cells twice.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::cell::{io, write_atomically, CellError};
use crate::file::{Campaign, SlurmOptions};
use crate::folder::{Manifest, Study, StudyError};
use crate::local::Event;
use crate::plan::{cells, Cell};

/// Where the study keeps the ids of the jobs it submitted.
pub const JOBS_FILE: &str = "slurm-jobs.txt";
/// The most bytes of a failed task's log quoted.
pub const LOG_TAIL: usize = 1500;
/// Minutes a cell is given beyond its runs' timeouts (start-up, the file system).
pub const MARGIN_MINUTES: u64 = 2;

/// How to reach Slurm and what each task runs.
#[derive(Clone, Debug)]
pub struct SlurmConfig {
    /// The `vates` binary the tasks run (a path the compute nodes see).
    pub vates: PathBuf,
    /// Arguments `vates campaign cell` needs besides the study and the index (the recorder
    /// found here: `--ompt-tool`, `--clock-hz`).
    pub cell_args: Vec<String>,
    /// The job arrays' options: the campaign file's, with the command line's over them.
    pub options: SlurmOptions,
    /// How often the queue is asked.
    pub poll: Duration,
    /// The programs: `sbatch`, `squeue`, `sacct`, `scancel` (names on the `PATH`, or paths).
    pub commands: Commands,
}

/// Seconds between two looks at the queue by default.
pub const DEFAULT_POLL: f64 = 5.0;

/// Checks that a campaign that runs here was given no option of the Slurm backend: the
/// job arrays' options `given` and the seconds `poll_s` between two looks at the queue.
///
/// # Errors
/// A usage error naming the first option given by its key (`{partition}`, `{account}`,
/// `{exclusive}`, `{sbatch-option}`, `{poll}`).
pub fn unused_here(given: &SlurmOptions, poll_s: f64) -> Result<(), diag::Keyed> {
    let first = [
        (given.partition.is_some(), "partition"),
        (given.account.is_some(), "account"),
        (given.exclusive, "exclusive"),
        (!given.options.is_empty(), "sbatch-option"),
        (poll_s != DEFAULT_POLL, "poll"),
    ]
    .into_iter()
    .find_map(|(given, key)| given.then_some(key));
    match first {
        None => Ok(()),
        Some(key) => Err(diag::Keyed::usage(format!(
            "{{{key}}} is an option of the Slurm backend: give {{backend}} slurm too"
        ))),
    }
}

/// A time between two looks at the queue that is not from 0.05 s to an hour.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("{0}: give seconds from 0.05 to 3600")]
pub struct BadPoll(pub f64);

/// The time between two looks at the queue, `seconds` from 0.05 to 3600.
///
/// # Errors
/// [`BadPoll`].
pub fn poll(seconds: f64) -> Result<Duration, BadPoll> {
    match seconds.is_finite() && (0.05..=3600.0).contains(&seconds) {
        true => Ok(Duration::from_secs_f64(seconds)),
        false => Err(BadPoll(seconds)),
    }
}

impl SlurmConfig {
    /// The configuration of tasks running `vates` with `cell_args`, submitted with
    /// `options` through Slurm's usual programs, the queue looked at every `poll` (as
    /// [`poll()`] checks it).
    pub fn new(
        vates: PathBuf,
        cell_args: Vec<String>,
        options: SlurmOptions,
        poll: Duration,
    ) -> SlurmConfig {
        SlurmConfig {
            vates,
            cell_args,
            options,
            poll,
            commands: Commands::default(),
        }
    }
}

/// Slurm's programs.
#[derive(Clone, Debug)]
pub struct Commands {
    /// Submits.
    pub sbatch: String,
    /// Lists the queue.
    pub squeue: String,
    /// Reports finished jobs (accounting; may be off).
    pub sacct: String,
    /// Cancels.
    pub scancel: String,
}

impl Default for Commands {
    fn default() -> Self {
        Commands {
            sbatch: "sbatch".into(),
            squeue: "squeue".into(),
            sacct: "sacct".into(),
            scancel: "scancel".into(),
        }
    }
}

/// Why a Slurm campaign stopped.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    /// The study folder.
    #[error(transparent)]
    Study(#[from] StudyError),
    /// A Slurm program could not be started.
    #[error("cannot run `{program}`: {error}")]
    NotInstalled {
        /// The program.
        program: String,
        /// The system's reason.
        error: std::io::Error,
    },
    /// A Slurm program failed.
    #[error("`{command}` failed ({status}): {stderr}")]
    Command {
        /// The command.
        command: String,
        /// How it ended.
        status: String,
        /// What it said.
        stderr: String,
    },
    /// Cells left the queue without finishing.
    #[error("{} of the campaign's cells failed on Slurm; the first: cell {} ({}){}{}", .failed.len(), .failed[0].index, .failed[0].cell, .failed[0].state_note(), .failed[0].log_note())]
    Failed {
        /// Each failed cell.
        failed: Vec<FailedCell>,
    },
    /// Cancelled: the jobs were cancelled with `scancel`.
    #[error("interrupted; the campaign's Slurm jobs ({}) were cancelled; the finished cells are in `{}` (run again to resume)", .jobs.join(", "), .dir.display())]
    Cancelled {
        /// The jobs.
        jobs: Vec<String>,
        /// The study.
        dir: PathBuf,
    },
}

impl diag::Advise for SlurmError {
    /// What to do: about Slurm's programs (`{backend}`, `{partition}`, `{account}`,
    /// `{sbatch-option}` name the options), about failed cells, or the study's help.
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::fix(match self {
            SlurmError::Study(e) => return diag::Advise::advice(e),
            SlurmError::NotInstalled { .. } => {
                "run on a host with Slurm's commands (Debian: apt install slurm-client), or \
                 give {backend} local"
            }
            SlurmError::Command { .. } => {
                "check {partition}, {account} and {sbatch-option} against `sinfo` and your \
                 site's documentation"
            }
            SlurmError::Failed { .. } => {
                "fix the cause and run the campaign again: the finished cells are kept and \
                 the failed ones are submitted again"
            }
            SlurmError::Cancelled { .. } => return None,
        }))
    }
}

/// A cell that left the queue without finishing.
#[derive(Clone, Debug, PartialEq)]
pub struct FailedCell {
    /// Its index.
    pub index: usize,
    /// Its name.
    pub cell: String,
    /// Its state as `sacct` gives it (`FAILED`, `TIMEOUT`, …), when accounting is on.
    pub state: Option<String>,
    /// The end of its log.
    pub log_tail: String,
    /// The log's path.
    pub log: PathBuf,
}

impl FailedCell {
    fn state_note(&self) -> String {
        self.state
            .as_ref()
            .map_or(String::new(), |s| format!(", state {s}"))
    }

    fn log_note(&self) -> String {
        if self.log_tail.trim().is_empty() {
            format!("; its log `{}` is empty", self.log.display())
        } else {
            format!(
                "; its log `{}` ends:\n{}",
                self.log.display(),
                self.log_tail.trim_end()
            )
        }
    }
}

/// One job array to submit: the cells of one worker count.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// The worker count of its cells.
    pub workers: u32,
    /// The cells' indices.
    pub indices: Vec<usize>,
    /// Its file's name in the study's `cells/` (`slurm-p2.sh`, `slurm-profile.sh`).
    pub file: String,
    /// The batch script.
    pub text: String,
}

/// The time limit of a cell in minutes: its runs' timeouts (a traced and an untraced run
/// per repetition where the campaign times both) and [`MARGIN_MINUTES`].
pub fn cell_minutes(c: &Campaign, cell: &Cell) -> u64 {
    let per_rep = if c.runtime.traced() && c.keep.untraced {
        2.0
    } else {
        1.0
    };
    let seconds = f64::from(cell.reps) * per_rep * c.timeout_s;
    (seconds / 60.0).ceil() as u64 + MARGIN_MINUTES
}

/// The indices as `sbatch --array` takes them: runs of consecutive indices as ranges
/// (`0-3,5,7-8`).
pub fn array_spec(indices: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        parts.push(if j == i {
            indices[i].to_string()
        } else {
            format!("{}-{}", indices[i], indices[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

/// Quotes `s` for a POSIX shell.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Minutes the machine's probe is given on a node.
pub const PROBE_MINUTES: u64 = 15;

/// The index `vates campaign cell` takes for the machine's probe: the number of cells.
pub fn probe_index(c: &Campaign) -> usize {
    cells(c).len()
}

/// The batch scripts of `todo` (cells of `c` in `study`): one job array per worker count,
/// and with `probe` one more of the probe's index ([`probe_index`]) on at least two CPUs
/// (as many as the largest worker count).
pub fn scripts(
    c: &Campaign,
    study: &Study,
    todo: &[&Cell],
    probe: bool,
    cfg: &SlurmConfig,
) -> Vec<Script> {
    let mut by_p: BTreeMap<u32, Vec<&Cell>> = BTreeMap::new();
    for x in todo {
        by_p.entry(x.p).or_default().push(x);
    }
    let mut groups: Vec<(u32, Vec<usize>, u64, String)> = by_p
        .into_iter()
        .map(|(p, group)| {
            let minutes = group.iter().map(|x| cell_minutes(c, x)).max().unwrap_or(1);
            (
                p,
                group.iter().map(|x| x.index).collect(),
                minutes,
                format!("p{p}"),
            )
        })
        .collect();
    if probe {
        let widest = c
            .train
            .workers
            .iter()
            .chain(c.test.iter().flat_map(|t| t.workers.iter()))
            .copied()
            .max()
            .unwrap_or(1);
        groups.push((
            widest.max(2),
            vec![probe_index(c)],
            PROBE_MINUTES,
            "profile".into(),
        ));
    }
    let logs = study.dir.join("cells");
    groups
        .into_iter()
        .map(|(cpus, indices, minutes, tag)| {
            let o = &cfg.options;
            let mut lines = vec![
                "#!/bin/sh".to_string(),
                format!("#SBATCH --job-name=vates-{}-{tag}", c.name),
                format!("#SBATCH --array={}", array_spec(&indices)),
                format!("#SBATCH --cpus-per-task={cpus}"),
                "#SBATCH --ntasks=1".to_string(),
                format!("#SBATCH --time={minutes}"),
                format!(
                    "#SBATCH --output={}",
                    shell_quote(&logs.join("slurm-%A_%a.log").display().to_string())
                ),
            ];
            if let Some(part) = &o.partition {
                lines.push(format!("#SBATCH --partition={}", shell_quote(part)));
            }
            if let Some(acc) = &o.account {
                lines.push(format!("#SBATCH --account={}", shell_quote(acc)));
            }
            if o.exclusive {
                lines.push("#SBATCH --exclusive".to_string());
            }
            for extra in &o.options {
                lines.push(format!("#SBATCH {extra}"));
            }
            let mut cmd = vec![
                shell_quote(&cfg.vates.display().to_string()),
                "campaign".into(),
                "cell".into(),
                shell_quote(&study.dir.display().to_string()),
                "\"$SLURM_ARRAY_TASK_ID\"".into(),
            ];
            cmd.extend(cfg.cell_args.iter().map(|a| shell_quote(a)));
            lines.push(format!("exec {}", cmd.join(" ")));
            Script {
                workers: cpus,
                indices,
                file: format!("slurm-{tag}.sh"),
                text: lines.join("\n") + "\n",
            }
        })
        .collect()
}

/// Runs `program args`, returning its standard output.
fn call(program: &str, args: &[&str]) -> Result<String, SlurmError> {
    let out =
        Command::new(program)
            .args(args)
            .output()
            .map_err(|error| SlurmError::NotInstalled {
                program: program.to_string(),
                error,
            })?;
    if !out.status.success() {
        return Err(SlurmError::Command {
            command: std::iter::once(program)
                .chain(args.iter().copied())
                .collect::<Vec<_>>()
                .join(" "),
            status: out.status.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The array tasks of `jobs` still in the queue: (job, index) pairs.
fn queued(cfg: &SlurmConfig, jobs: &[String]) -> Result<Vec<(String, usize)>, SlurmError> {
    if jobs.is_empty() {
        return Ok(Vec::new());
    }
    let list = jobs.join(",");
    let text = match call(
        &cfg.commands.squeue,
        &["-h", "-r", "-j", &list, "-o", "%F|%K"],
    ) {
        Ok(t) => t,
        // squeue refuses ids it no longer knows ("Invalid job id specified"): none queued.
        Err(SlurmError::Command { ref stderr, .. }) if stderr.contains("Invalid job id") => {
            String::new()
        }
        Err(e) => return Err(e),
    };
    Ok(text
        .lines()
        .filter_map(|l| {
            let (job, index) = l.trim().split_once('|')?;
            Some((job.to_string(), index.trim().parse().ok()?))
        })
        .collect())
}

/// The state of the finished task `job_index`: `sacct`'s when accounting is on, else the
/// queue's record of it (kept for the cluster's `MinJobAge`), with its reason.
fn accounted(cfg: &SlurmConfig, job: &str, index: usize) -> Option<String> {
    let id = format!("{job}_{index}");
    let from_sacct = call(
        &cfg.commands.sacct,
        &["-n", "-X", "-P", "-j", &id, "-o", "JobID,State"],
    )
    .ok()
    .and_then(|text| {
        text.lines().find_map(|l| {
            let (jid, state) = l.trim().split_once('|')?;
            (jid == id).then(|| state.to_string())
        })
    });
    from_sacct.or_else(|| {
        let text = call(
            &cfg.commands.squeue,
            &["-h", "-t", "all", "-j", &id, "-o", "%T|%r"],
        )
        .ok()?;
        let (state, reason) = text.lines().next()?.trim().split_once('|')?;
        Some(match reason {
            "" | "None" => state.to_string(),
            r => format!("{state} ({r})"),
        })
    })
}

/// Cancels the jobs `ids` (what `scancel` says is not waited on: a job may have ended).
fn cancel_jobs(cfg: &SlurmConfig, ids: &[String]) {
    if !ids.is_empty() {
        let _ = call(
            &cfg.commands.scancel,
            &ids.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }
}

/// The jobs a study submitted before (`job index,index,…` a line).
fn read_jobs(path: &Path) -> Vec<(String, Vec<usize>)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (job, list) = l.split_once(' ')?;
            let idx = list.split(',').filter_map(|i| i.parse().ok()).collect();
            Some((job.to_string(), idx))
        })
        .collect()
}

/// Submits the unfinished cells of `c` in `study` as job arrays (after following any jobs
/// of an earlier campaign still queued), follows them until every task has left the
/// queue, putting the study together as cells finish; `cancel` cancels the jobs.
///
/// # Errors
/// [`SlurmError`]: Slurm's programs missing or failing, cells that failed (after the
/// others finished), a cancellation, the study's files.
pub fn run(
    study: &Study,
    c: &Campaign,
    cfg: &SlurmConfig,
    cancel: &AtomicBool,
    on: &mut dyn FnMut(Event<'_>),
) -> Result<Manifest, SlurmError> {
    let result = follow(study, c, cfg, cancel, on);
    // However the campaign stopped, a cancellation cancels its jobs.
    if cancel.load(Ordering::Relaxed) && !matches!(result, Err(SlurmError::Cancelled { .. })) {
        let ids: Vec<String> = read_jobs(&study.dir.join("cells").join(JOBS_FILE))
            .into_iter()
            .map(|(j, _)| j)
            .collect();
        cancel_jobs(cfg, &ids);
        return Err(SlurmError::Cancelled {
            jobs: ids,
            dir: study.dir.clone(),
        });
    }
    result
}

/// [`run`] up to its end or its first error.
fn follow(
    study: &Study,
    c: &Campaign,
    cfg: &SlurmConfig,
    cancel: &AtomicBool,
    on: &mut dyn FnMut(Event<'_>),
) -> Result<Manifest, SlurmError> {
    let all = cells(c);
    let cells_dir = study.dir.join("cells");
    std::fs::create_dir_all(&cells_dir)
        .map_err(|e| StudyError::from(io("create", &cells_dir)(e)))?;
    let jobs_path = cells_dir.join(JOBS_FILE);
    // Jobs of an earlier campaign that are still queued keep their cells.
    let earlier = read_jobs(&jobs_path);
    let earlier_ids: Vec<String> = earlier.iter().map(|(j, _)| j.clone()).collect();
    let still = queued(cfg, &earlier_ids)?;
    let mut jobs: Vec<(String, Vec<usize>)> = earlier
        .into_iter()
        .map(|(j, idx)| {
            let keep: Vec<usize> = idx
                .into_iter()
                .filter(|i| still.iter().any(|(sj, si)| *sj == j && si == i))
                .collect();
            (j, keep)
        })
        .filter(|(_, idx)| !idx.is_empty())
        .collect();
    let followed: Vec<usize> = jobs.iter().flat_map(|(_, i)| i.iter().copied()).collect();
    let probe_at = probe_index(c);
    let machine = study.dir.join(crate::folder::MACHINE);
    let probe = c.probes() && !machine.exists() && !followed.contains(&probe_at);
    let todo: Vec<&Cell> = all
        .iter()
        .filter(|x| !study.done(x) && !followed.contains(&x.index))
        .collect();
    let pending: Vec<&Cell> = all.iter().filter(|x| !study.done(x)).collect();
    on(Event::Planned {
        cells: pending.len(),
        runs: pending.iter().map(|x| x.runs()).sum(),
        done: all.len() - pending.len(),
    });
    for s in scripts(c, study, &todo, probe, cfg) {
        let path = cells_dir.join(&s.file);
        write_atomically(&path, &s.text)?;
        let out = call(
            &cfg.commands.sbatch,
            &["--parsable", &path.display().to_string()],
        )?;
        // `--parsable` prints `id` or `id;cluster`.
        let id = out.trim().split(';').next().unwrap_or("").to_string();
        on(Event::Submitted {
            job: id.clone(),
            cells: s.indices.len(),
        });
        jobs.push((id, s.indices));
        let text: String = jobs
            .iter()
            .map(|(j, idx)| {
                let list: Vec<String> = idx.iter().map(ToString::to_string).collect();
                format!("{j} {}\n", list.join(","))
            })
            .collect();
        write_atomically(&jobs_path, &text)?;
    }
    let ids: Vec<String> = jobs.iter().map(|(j, _)| j.clone()).collect();
    let mut open: Vec<(String, usize)> = jobs
        .iter()
        .flat_map(|(j, idx)| idx.iter().map(move |i| (j.clone(), *i)))
        .collect();
    let mut failed = Vec::new();
    let mut last = Instant::now() - cfg.poll;
    while !open.is_empty() {
        if cancel.load(Ordering::Relaxed) {
            cancel_jobs(cfg, &ids);
            study.combine(c)?;
            return Err(SlurmError::Cancelled {
                jobs: ids,
                dir: study.dir.clone(),
            });
        }
        if last.elapsed() < cfg.poll {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        last = Instant::now();
        let q = queued(cfg, &ids)?;
        let mut still_open = Vec::new();
        let mut finished_any = false;
        for (job, index) in open {
            // The probe's task: done when the profile is there.
            let Some(cell) = all.get(index) else {
                if machine.exists() {
                    continue;
                }
                if !q.iter().any(|(j, i)| *j == job && *i == index) {
                    let log = cells_dir.join(format!("slurm-{job}_{index}.log"));
                    failed.push(FailedCell {
                        index,
                        cell: "the machine's profile".into(),
                        state: accounted(cfg, &job, index),
                        log_tail: taskpar::campaign::file_tail(&log, LOG_TAIL),
                        log,
                    });
                } else {
                    still_open.push((job, index));
                }
                continue;
            };
            if study.done(cell) {
                on(Event::Cell(cell));
                finished_any = true;
            } else if q.iter().any(|(j, i)| *j == job && *i == index) {
                still_open.push((job, index));
            } else {
                // Left the queue: its marker may lag its end on a shared file system.
                std::thread::sleep(Duration::from_millis(200));
                if study.done(cell) {
                    on(Event::Cell(cell));
                    finished_any = true;
                    continue;
                }
                let log = cells_dir.join(format!("slurm-{job}_{index}.log"));
                failed.push(FailedCell {
                    index,
                    cell: cell.id(),
                    state: accounted(cfg, &job, index),
                    log_tail: taskpar::campaign::file_tail(&log, LOG_TAIL),
                    log,
                });
            }
        }
        open = still_open;
        if finished_any {
            study.combine(c)?;
        }
    }
    let manifest = study.combine(c)?;
    if failed.is_empty() {
        Ok(manifest)
    } else {
        failed.sort_by_key(|f| f.index);
        Err(SlurmError::Failed { failed })
    }
}

impl From<CellError> for SlurmError {
    fn from(e: CellError) -> Self {
        SlurmError::Study(e.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_options_are_refused_here() {
        let none = SlurmOptions::default();
        assert!(unused_here(&none, DEFAULT_POLL).is_ok());
        let e = unused_here(&none, 1.0).unwrap_err();
        assert!(
            e.message.starts_with("{poll} is an option"),
            "{}",
            e.message
        );
        let exclusive = SlurmOptions {
            exclusive: true,
            ..SlurmOptions::default()
        };
        let e = unused_here(&exclusive, 1.0).unwrap_err();
        assert!(e.message.starts_with("{exclusive} "), "{}", e.message);
    }
    use diag::Advise;

    #[test]
    fn the_poll_is_from_a_twentieth_of_a_second_to_an_hour() {
        assert_eq!(poll(5.0), Ok(Duration::from_secs(5)));
        assert_eq!(poll(0.0), Err(BadPoll(0.0)));
        assert_eq!(
            BadPoll(f64::NAN).to_string(),
            "NaN: give seconds from 0.05 to 3600"
        );
    }

    #[test]
    fn advice_names_the_options_by_key() {
        let e = SlurmError::NotInstalled {
            program: "sbatch".into(),
            error: std::io::ErrorKind::NotFound.into(),
        };
        let fix = e.advice().unwrap().fix;
        assert!(fix.ends_with("or give {backend} local"), "{fix}");
        let e = SlurmError::Cancelled {
            jobs: vec!["7".into()],
            dir: PathBuf::from("s"),
        };
        assert!(e.advice().is_none());
        assert!(e.to_string().ends_with("are in `s` (run again to resume)"));
    }
}
