//! `vates campaign`: a campaign file's runs, here or as a Slurm job array, into a study
//! folder ([`study`]); the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::Subcommand;
use study::cell::{CellError, Runner};
use study::file::{Campaign, ProfileKind, RuntimeKind};
use study::folder::{Study, StudyError};
use study::local::Event;
use taskpar::campaign::{LocalBackend, Runtime};
use termio::progress::Progress;

use crate::error::{CliError, Result};
use crate::Format;

/// The `vates campaign` subcommands.
#[derive(Subcommand, Debug)]
pub enum CampaignCommand {
    /// Run a campaign file's cells (sizes × worker counts, repetitions inside) into a study
    /// folder: times, training rows, samples, DAGs and the machine's profile. Resumes where
    /// it stopped.
    Run(RunArgs),
    /// Show a campaign's cells and runs without running anything.
    Plan(PlanArgs),
    /// Run one cell of a study (what each task of a Slurm job array runs).
    Cell(CellArgs),
}

/// Options of `vates campaign run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The campaign file (TOML; its keys are in docs/cli.md).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The study folder (default: `NAME-study`, NAME the campaign's application).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: Option<PathBuf>,
    /// Where the cells run: one after the other here, or as Slurm job arrays (one per
    /// worker count; the study folder and this vates must be on a file system the nodes
    /// share).
    #[arg(long, value_enum, default_value_t = BackendArg::Local)]
    backend: BackendArg,
    #[command(flatten)]
    slurm: SlurmArgs,
    #[command(flatten)]
    recorder: RecorderArgs,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Where a campaign's cells run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendArg {
    /// Here, one cell after the other.
    Local,
    /// As Slurm job arrays (sbatch, squeue, sacct, scancel).
    Slurm,
}

/// The job arrays' options (over the campaign file's `[slurm]`).
#[derive(clap::Args, Debug)]
pub struct SlurmArgs {
    /// With --backend slurm: the partition.
    #[arg(long, value_name = "NAME")]
    partition: Option<String>,
    /// With --backend slurm: the account.
    #[arg(long, value_name = "NAME")]
    account: Option<String>,
    /// With --backend slurm: no other job on a cell's node.
    #[arg(long)]
    exclusive: bool,
    /// With --backend slurm: a further sbatch option, one word (`--qos=short`); repeatable.
    #[arg(
        long = "sbatch-option",
        value_name = "OPTION",
        allow_hyphen_values = true
    )]
    sbatch_options: Vec<String>,
    /// With --backend slurm: seconds between two looks at the queue.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    poll: f64,
}

impl SlurmArgs {
    /// The options of the campaign file `c`'s `[slurm]` with these flags over them.
    fn options(&self, c: &Campaign) -> Result<study::file::SlurmOptions> {
        if let Some(bad) = self
            .sbatch_options
            .iter()
            .find(|o| !o.starts_with('-') || o.chars().any(char::is_whitespace))
        {
            return Err(CliError::usage(format!(
                "--sbatch-option `{bad}` is not one sbatch option: give each as one word, \
                 e.g. --sbatch-option=--qos=short"
            )));
        }
        let mut o = c.slurm.clone();
        o.partition = self.partition.clone().or(o.partition);
        o.account = self.account.clone().or(o.account);
        o.exclusive |= self.exclusive;
        o.options.extend(self.sbatch_options.iter().cloned());
        Ok(o)
    }
}

/// How the task-parallel runtimes' recorders are found.
#[derive(clap::Args, Debug)]
pub struct RecorderArgs {
    /// The built OMPT tool for `runtime = "openmp"` (default: built from the embedded
    /// source with $CC, else clang, into the cache).
    #[arg(long, value_name = "PATH")]
    ompt_tool: Option<PathBuf>,
    /// DAG Recorder's clock rate in ticks per second for `runtime = "dag-recorder"`
    /// (default: the file's `clock_hz`, else this machine's CPU clock).
    #[arg(long, value_name = "HZ")]
    clock_hz: Option<f64>,
}

/// Options of `vates campaign plan`.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// The campaign file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Options of `vates campaign cell`.
#[derive(clap::Args, Debug)]
pub struct CellArgs {
    /// The study folder (made by `vates campaign run`).
    #[arg(value_name = "STUDY")]
    study: PathBuf,
    /// The cell's index (`vates campaign plan` lists them).
    #[arg(value_name = "INDEX")]
    index: usize,
    #[command(flatten)]
    recorder: RecorderArgs,
}

/// Runs a `vates campaign` subcommand.
pub fn run(cmd: CampaignCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        CampaignCommand::Run(a) if a.backend == BackendArg::Slurm => run_slurm(a, out),
        CampaignCommand::Run(a) => run_local(a, out),
        CampaignCommand::Plan(a) => plan(a, out),
        CampaignCommand::Cell(a) => cell(a, out),
    }
}

/// The campaign file `path`, read and checked, and its text.
fn read_campaign(path: &Path) -> Result<(Campaign, String)> {
    let text = termio::files::read_text(
        path,
        study::file::MAX_FILE_BYTES,
        "campaign file",
        "a campaign file is a short TOML document",
    )?;
    let c = study::file::parse(&path.display().to_string(), &text)
        .map_err(|e| CliError::Report(miette::Report::new(e)))?;
    Ok((c, text))
}

/// `vates campaign plan`.
fn plan(a: PlanArgs, out: &mut dyn Write) -> Result<()> {
    let (c, _) = read_campaign(&a.file)?;
    let cells = study::plan::cells(&c);
    let text = match a.format {
        Format::Json => crate::error::json_text(&study::report::PlanJson {
            campaign: &c,
            cells: &cells,
        })?,
        Format::Text => study::report::plan_text(&c, &cells),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// `vates campaign run`: every cell here.
fn run_local(a: RunArgs, out: &mut dyn Write) -> Result<()> {
    let (c, text) = read_campaign(&a.file)?;
    let dir = a
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}-study", c.name)));
    let study = Study::open(&dir, &c, &text).map_err(|e| study_error(&dir, None, e))?;
    let recorder = recorder(&c, &a.recorder)?;
    profile(&c, &study)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    // Ctrl-C stops the program running (its whole process group); a second ends vates.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    let backend = LocalBackend::new(cancel);
    let runner = Runner {
        campaign: &c,
        recorder,
        dags: c.keep.dags.then(|| study.dags_dir()),
        backend: &backend,
    };
    let mut bar: Option<Progress> = None;
    let mut done_runs = 0;
    let result = study::local::run(&study, &c, &runner, &mut |e| match e {
        Event::Planned { runs, .. } if runs > 0 => {
            bar = Some(Progress::new(Some(runs), &format!("measuring {}", c.name)));
        }
        Event::Run => {
            done_runs += 1;
            if let Some(b) = &mut bar {
                b.set(done_runs);
            }
        }
        _ => {}
    });
    if let Some(b) = bar {
        b.finish();
    }
    let manifest = result.map_err(|e| study_error(&dir, runner.recorder.as_ref(), e))?;
    let text = match a.format {
        Format::Json => crate::error::json_text(&manifest)?,
        Format::Text => study::report::manifest_text(&manifest, &dir),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// `vates campaign run --backend slurm`: every unfinished cell as job arrays.
fn run_slurm(a: RunArgs, out: &mut dyn Write) -> Result<()> {
    let (c, text) = read_campaign(&a.file)?;
    if !(a.slurm.poll.is_finite() && (0.05..=3600.0).contains(&a.slurm.poll)) {
        return Err(CliError::usage(format!(
            "--poll {}: give seconds from 0.05 to 3600",
            a.slurm.poll
        )));
    }
    let options = a.slurm.options(&c)?;
    let dir = a
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}-study", c.name)));
    // The tasks run on other nodes: the study is named by its absolute path.
    std::fs::create_dir_all(&dir).map_err(|e| CliError::write(&dir, &e))?;
    let dir = std::fs::canonicalize(&dir).map_err(|e| CliError::read(&dir, &e))?;
    let study = Study::open(&dir, &c, &text).map_err(|e| study_error(&dir, None, e))?;
    let mut cell_args = Vec::new();
    if let Some(t) = &a.recorder.ompt_tool {
        let t = std::fs::canonicalize(t).map_err(|e| CliError::read(t, &e))?;
        cell_args.extend(["--ompt-tool".to_string(), t.display().to_string()]);
    }
    if let Some(hz) = a.recorder.clock_hz {
        cell_args.extend(["--clock-hz".to_string(), hz.to_string()]);
    }
    let cfg = study::slurm::SlurmConfig {
        vates: std::env::current_exe()
            .map_err(|e| CliError::msg(format!("cannot find this vates binary: {e}")))?,
        cell_args,
        options,
        poll: std::time::Duration::from_secs_f64(a.slurm.poll),
        commands: study::slurm::Commands::default(),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    let mut bar: Option<Progress> = None;
    let mut done_runs = 0;
    let result = study::slurm::run(&study, &c, &cfg, &cancel, &mut |e| match e {
        Event::Planned { runs, .. } if runs > 0 => {
            bar = Some(Progress::new(
                Some(runs),
                &format!("measuring {} on Slurm", c.name),
            ));
        }
        Event::Submitted { job, cells } => crate::error::note(&format!(
            "note: submitted job array {job} ({cells} cell{})",
            if cells == 1 { "" } else { "s" }
        )),
        Event::Cell(cell) => {
            done_runs += cell.runs();
            if let Some(b) = &mut bar {
                b.set(done_runs);
            }
        }
        _ => {}
    });
    if let Some(b) = bar {
        b.finish();
    }
    let manifest = result.map_err(|e| slurm_error(&dir, e))?;
    let text = match a.format {
        Format::Json => crate::error::json_text(&manifest)?,
        Format::Text => study::report::manifest_text(&manifest, &dir),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// A Slurm campaign that stopped, as a message with its fix.
fn slurm_error(dir: &Path, e: study::slurm::SlurmError) -> CliError {
    use study::slurm::SlurmError;
    let msg = e.to_string();
    match e {
        SlurmError::Study(e) => study_error(dir, None, e),
        SlurmError::NotInstalled { .. } => CliError::with_help(
            msg,
            "run on a host with Slurm's commands (Debian: apt install slurm-client), or give \
             --backend local",
        ),
        SlurmError::Command { .. } => CliError::with_help(
            msg,
            "check --partition, --account and --sbatch-option against `sinfo` and your \
             site's documentation",
        ),
        SlurmError::Failed { .. } => CliError::with_help(
            msg,
            "fix the cause and run the campaign again: the finished cells are kept and the \
             failed ones are submitted again",
        ),
        SlurmError::Cancelled { .. } => CliError::msg(format!(
            "{msg}; the finished cells are in `{}` (run again to resume)",
            dir.display()
        )),
    }
}

/// `vates campaign cell`: one cell of a study, as a job array's task runs it.
fn cell(a: CellArgs, out: &mut dyn Write) -> Result<()> {
    let (c, study) = Study::load(&a.study).map_err(|e| study_error(&a.study, None, e))?;
    let cells = study::plan::cells(&c);
    let cell = cells.get(a.index).ok_or_else(|| {
        CliError::usage(format!(
            "INDEX {}: the campaign has {} cells (0 to {})",
            a.index,
            cells.len(),
            cells.len().saturating_sub(1)
        ))
    })?;
    let backend = LocalBackend::default();
    let runner = Runner {
        campaign: &c,
        recorder: recorder(&c, &a.recorder)?,
        dags: c.keep.dags.then(|| study.dags_dir()),
        backend: &backend,
    };
    runner
        .run(cell, &study.cell_dir(cell), &mut || {})
        .map_err(|e| study_error(&a.study, runner.recorder.as_ref(), e.into()))?;
    writeln!(out, "cell {} ({}) finished", a.index, cell.id()).map_err(CliError::Stdout)
}

/// The recorder of a task-parallel runtime, found on this machine.
fn recorder(c: &Campaign, a: &RecorderArgs) -> Result<Option<Runtime>> {
    Ok(match c.runtime {
        RuntimeKind::Rayon => Some(Runtime::Rayon),
        RuntimeKind::OpenMp => Some(Runtime::OpenMp {
            tool: crate::taskpar::ompt::tool(a.ompt_tool.as_deref())?,
        }),
        RuntimeKind::DagRecorder => {
            let clock_hz =
                crate::taskpar::dag_clock(a.clock_hz.or(c.clock_hz)).ok_or_else(|| {
                    CliError::usage(
                        "runtime = \"dag-recorder\": this machine's CPU clock is unknown; give \
                     clock_hz in the campaign file or --clock-hz",
                    )
                })?;
            Some(Runtime::DagRecorder { clock_hz })
        }
        RuntimeKind::Plain | RuntimeKind::Threads => None,
    })
}

/// Measures the machine's probe profile into the study, unless the campaign asks for none
/// or the study has it.
fn profile(c: &Campaign, study: &Study) -> Result<()> {
    let path = study.dir.join(study::folder::MACHINE);
    if c.keep.profile == ProfileKind::None || path.exists() {
        return Ok(());
    }
    let options = probe::Options::new(c.keep.profile == ProfileKind::Quick);
    let profile =
        termio::progress::with_steps("probing the machine", |step| probe::run(&options, step))
            .map_err(|e| {
                CliError::with_help(
                    format!("the machine's probe stopped: {e}"),
                    "run again on an otherwise idle host, or set `profile = \"none\"` under [keep]",
                )
            })?;
    Ok(crate::error::write_file(
        &path,
        profile.to_json().as_bytes(),
    )?)
}

/// A study that stopped, as a message with its fix (the recorder's advice for a run of a
/// task-parallel runtime).
fn study_error(dir: &Path, recorder: Option<&Runtime>, e: StudyError) -> CliError {
    let msg = e.to_string();
    match e {
        StudyError::Campaign(e) => CliError::Report(miette::Report::new(e)),
        StudyError::Changed { .. } => CliError::with_help(
            msg,
            "give another study folder with -o, or remove this one to measure anew",
        ),
        StudyError::NotStudy { .. } => {
            CliError::with_help(msg, "give a folder made by `vates campaign run`")
        }
        StudyError::Cell(CellError::Recorded(e)) => match recorder.and_then(|r| e.advice(r)) {
            Some(advice) => CliError::with_help(msg, advice),
            None => CliError::msg(msg),
        },
        StudyError::Cell(CellError::Rows(e)) => e.into(),
        StudyError::Cell(CellError::Cancelled) => CliError::msg(format!(
            "{msg}; the finished cells are in `{}` (run again to resume)",
            dir.display()
        )),
        StudyError::Cell(CellError::TimedOut { .. }) => CliError::with_help(
            msg,
            "give smaller sizes, or a larger `timeout` in the campaign file",
        ),
        StudyError::Cell(CellError::Start(_)) => CliError::with_help(
            msg,
            "give the program's path in `command` (relative to where vates runs)",
        ),
        StudyError::Cell(e) => CliError::msg(e.to_string()),
    }
}
