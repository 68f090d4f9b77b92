//! `vates campaign`: a campaign file's runs, here or as a Slurm job array, into a study
//! folder ([`study`]); the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use study::cell::{CellError, Runner};
use study::file::{Campaign, ProfileKind, RuntimeKind};
use study::folder::{Study, StudyError};
use study::local::Event;
use taskpar::campaign::{LocalBackend, Runtime};
use termio::progress::Progress;

use crate::error::{CliError, Result};
use crate::Format;

mod slurm;

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
    pub(super) file: PathBuf,
    /// The study folder (default: `NAME-study`, NAME the campaign's application).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub(super) output: Option<PathBuf>,
    /// Where the cells run: one after the other here, or as Slurm job arrays (one per
    /// worker count; the study folder and this vates must be on a file system the nodes
    /// share).
    #[arg(long, value_enum, default_value_t = BackendArg::Local)]
    backend: BackendArg,
    #[command(flatten)]
    pub(super) slurm: slurm::SlurmArgs,
    #[command(flatten)]
    pub(super) recorder: RecorderArgs,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
}

/// Where a campaign's cells run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendArg {
    /// Here, one cell after the other.
    Local,
    /// As Slurm job arrays (sbatch, squeue, sacct, scancel).
    Slurm,
}

/// How the task-parallel runtimes' recorders are found.
#[derive(clap::Args, Debug)]
pub struct RecorderArgs {
    /// The built OMPT tool for `runtime = "openmp"` (default: built from the embedded
    /// source with $CC, else clang, into the cache).
    #[arg(long, value_name = "PATH")]
    pub(super) ompt_tool: Option<PathBuf>,
    /// DAG Recorder's clock rate in ticks per second for `runtime = "dag-recorder"`
    /// (default: the file's `clock_hz`, else this machine's CPU clock).
    #[arg(long, value_name = "HZ")]
    pub(super) clock_hz: Option<f64>,
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
    /// The cell's index (`vates campaign plan` lists them); the number of cells measures
    /// the machine's profile into the study.
    #[arg(value_name = "INDEX")]
    index: usize,
    #[command(flatten)]
    recorder: RecorderArgs,
}

/// Runs a `vates campaign` subcommand.
pub fn run(cmd: CampaignCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        CampaignCommand::Run(a) if a.backend == BackendArg::Slurm => slurm::run(a, out),
        CampaignCommand::Run(a) => run_local(a, out),
        CampaignCommand::Plan(a) => plan(a, out),
        CampaignCommand::Cell(a) => cell(a, out),
    }
}

/// The campaign file `path`, read and checked, and its text.
pub(super) fn read_campaign(path: &Path) -> Result<(Campaign, String)> {
    let text = termio::files::read_text(
        path,
        study::file::MAX_FILE_BYTES,
        "a campaign file",
        "; a campaign file is a short TOML document",
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
    if let Some(flag) = a.slurm.given() {
        return Err(CliError::usage(format!(
            "{flag} is an option of the Slurm backend: give --backend slurm too"
        )));
    }
    let (c, text) = read_campaign(&a.file)?;
    let dir = a
        .output
        .clone()
        .unwrap_or_else(|| study::folder::default_dir(&c));
    let study = Study::open(&dir, &c, &text).map_err(|e| study_error(&dir, None, e))?;
    let recorder = recorder(&c, &a.recorder)?;
    profile(&c, &study)?;
    // Ctrl-C stops the program running (its whole process group); a second ends vates.
    let backend = LocalBackend::new(termio::interrupt::flag());
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
    write_manifest(&manifest, &dir, a.format, out)
}

/// Prints what a campaign left in the study `dir`.
pub(super) fn write_manifest(
    m: &study::folder::Manifest,
    dir: &Path,
    format: Format,
    out: &mut dyn Write,
) -> Result<()> {
    let text = match format {
        Format::Json => crate::error::json_text(m)?,
        Format::Text => study::report::manifest_text(m, dir),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// `vates campaign cell`: one cell of a study, as a job array's task runs it.
fn cell(a: CellArgs, out: &mut dyn Write) -> Result<()> {
    let (c, study) = Study::load(&a.study).map_err(|e| study_error(&a.study, None, e))?;
    let cells = study::plan::cells(&c);
    // The index after the last cell measures the machine (the Slurm backend's probe task).
    if a.index == cells.len() && c.keep.profile != ProfileKind::None {
        profile(&c, &study)?;
        return writeln!(
            out,
            "the machine's profile is in {}",
            study.dir.join(study::folder::MACHINE).display()
        )
        .map_err(CliError::Stdout);
    }
    let cell = cells.get(a.index).ok_or_else(|| {
        CliError::usage(format!(
            "INDEX {}: the campaign has {} cells (0 to {}{})",
            a.index,
            cells.len(),
            cells.len().saturating_sub(1),
            if c.keep.profile == ProfileKind::None {
                String::new()
            } else {
                format!("; {} measures the machine", cells.len())
            }
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
pub(super) fn study_error(dir: &Path, recorder: Option<&Runtime>, e: StudyError) -> CliError {
    let msg = e.to_string();
    match e {
        StudyError::Campaign(e) => CliError::Report(miette::Report::new(e)),
        StudyError::Changed { .. } => CliError::with_help(
            msg,
            "give another study folder with -o, or remove this one to measure anew",
        ),
        StudyError::BadCell { path, .. } => CliError::with_help(
            msg,
            format!(
                "remove the cell's folder `{}` and run the campaign again: the cell runs anew",
                path.parent().unwrap_or(&path).display()
            ),
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
