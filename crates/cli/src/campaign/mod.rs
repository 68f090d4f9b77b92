//! `vates campaign`: a campaign file's runs, here or as a Slurm job array, into a study
//! folder ([`study`]); the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use study::cell::{CellError, Runner};
use study::file::{Campaign, ProfileKind};
use study::folder::{Manifest, Study, StudyError};
use study::local::Event;
use study::Backend;
use taskpar::campaign::{LocalBackend, Runtime};

use crate::error::{print, CliError, Result};
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
    #[arg(long, value_parser = crate::input::choice::<Backend>(), default_value = "local")]
    backend: Backend,
    #[command(flatten)]
    pub(super) slurm: slurm::SlurmArgs,
    #[command(flatten)]
    pub(super) recorder: RecorderArgs,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
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
        CampaignCommand::Run(a) if a.backend == Backend::Slurm => slurm::run(a, out),
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
    print(out, &text)
}

/// `vates campaign run`: every cell here.
fn run_local(a: RunArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(flag) = a.slurm.given() {
        return Err(CliError::usage(format!(
            "{flag} is an option of the Slurm backend: give --backend slurm too"
        )));
    }
    let (c, text) = read_campaign(&a.file)?;
    let dir = a.output.unwrap_or_else(|| study::folder::default_dir(&c));
    let study = Study::open(&dir, &c, &text).map_err(study_error)?;
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
    let what = format!("measuring {}", c.name);
    let m = follow(&what, true, |on| study::local::run(&study, &c, &runner, on))
        .map_err(study_error)?;
    write_manifest(&m, &dir, a.format, out)
}

/// Runs a campaign with a bar over its runs named `what` (counted run by run if `per_run`,
/// else cell by cell) and its notes on standard error.
pub(super) fn follow<E>(
    what: &str,
    per_run: bool,
    run: impl FnOnce(&mut dyn FnMut(Event<'_>)) -> std::result::Result<Manifest, E>,
) -> std::result::Result<Manifest, E> {
    let mut bar = termio::progress::Counter::default();
    let result = run(&mut |e| {
        if let Event::Planned { runs, .. } = e {
            bar.start(runs, what);
        }
        if let Some(text) = e.note() {
            crate::error::note(&format!("note: {text}"));
        }
        bar.add(e.runs_finished(per_run));
    });
    bar.finish();
    result
}

/// Prints what a campaign left in the study `dir`.
pub(super) fn write_manifest(
    m: &Manifest,
    dir: &Path,
    format: Format,
    out: &mut dyn Write,
) -> Result<()> {
    let text = match format {
        Format::Json => crate::error::json_text(m)?,
        Format::Text => study::report::manifest_text(m, dir),
    };
    print(out, &text)
}

/// `vates campaign cell`: one cell of a study, as a job array's task runs it.
fn cell(a: CellArgs, out: &mut dyn Write) -> Result<()> {
    let (c, study) = Study::load(&a.study).map_err(study_error)?;
    let cells = study::plan::cells(&c);
    let probes = c.keep.profile != ProfileKind::None;
    // The index after the last cell measures the machine (the Slurm backend's probe task).
    if a.index == cells.len() && probes {
        profile(&c, &study)?;
        let path = study.dir.join(study::folder::MACHINE);
        return print(
            out,
            &format!("the machine's profile is in {}\n", path.display()),
        );
    }
    let cell = cells.get(a.index).ok_or_else(|| {
        CliError::usage(format!(
            "INDEX {}: the campaign has {} cells (0 to {}{})",
            a.index,
            cells.len(),
            cells.len().saturating_sub(1),
            match probes {
                true => format!("; {} measures the machine", cells.len()),
                false => String::new(),
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
    let dir = study.cell_dir(cell);
    runner
        .run(cell, &dir, &mut || {})
        .map_err(|e| study_error(e.into()))?;
    print(out, &format!("cell {} ({}) finished\n", a.index, cell.id()))
}

/// The recorder of a task-parallel runtime, found on this machine.
fn recorder(c: &Campaign, a: &RecorderArgs) -> Result<Option<Runtime>> {
    let no_clock = "runtime = \"dag-recorder\": this machine's CPU clock is unknown; give \
                    clock_hz in the campaign file or --clock-hz";
    let hz = a.clock_hz.or(c.clock_hz);
    let found = c
        .runtime
        .recorder()
        .map(|k| crate::taskpar::recorder(k, a.ompt_tool.as_deref(), hz, no_clock));
    found.transpose()
}

/// Measures the machine's probe profile into the study, unless the campaign asks for none
/// or the study has it.
fn profile(c: &Campaign, study: &Study) -> Result<()> {
    let measured = termio::progress::with_steps("probing the machine", |step| study.probe(c, step));
    match measured.map_err(study_error)? {
        Some((path, json)) => Ok(crate::error::write_file(&path, json.as_bytes())?),
        None => Ok(()),
    }
}

/// A study that stopped, as a message with its fix.
pub(super) fn study_error(e: StudyError) -> CliError {
    match e {
        StudyError::Campaign(e) => CliError::Report(miette::Report::new(e)),
        StudyError::Cell(CellError::Rows(e)) => e.into(),
        StudyError::Changed { .. } => CliError::with_help(
            e.to_string(),
            "give another study folder with -o, or remove this one to measure anew",
        ),
        e => CliError::Diag(crate::error::Diag {
            help: e.help(),
            message: e.to_string(),
        }),
    }
}
