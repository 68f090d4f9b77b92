//! `vates campaign`: a campaign file's runs, here or as a Slurm job array, into a study
//! folder ([`study`]); the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use study::cell::CellError;
use study::file::{Campaign, RuntimeKind, SlurmOptions};
use study::folder::{Manifest, Study, StudyError};
use study::local::Event;
use study::plan::Task;
use study::slurm::SlurmError;
use study::Backend;
use taskpar::campaign::{LocalBackend, Runtime};

use crate::error::{print, CliError, Result};
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
    #[arg(long, value_parser = crate::input::choice::<Backend>(), default_value = "local")]
    backend: Backend,
    #[command(flatten)]
    slurm: SlurmArgs,
    #[command(flatten)]
    recorder: RecorderArgs,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
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
    #[arg(long, value_name = "HZ", value_parser = crate::input::parse_scale)]
    clock_hz: Option<f64>,
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
    #[arg(long, value_name = "SECONDS", default_value_t = study::slurm::DEFAULT_POLL)]
    poll: f64,
}

impl SlurmArgs {
    /// The job arrays' options these flags give.
    fn given(&self) -> SlurmOptions {
        SlurmOptions {
            partition: self.partition.clone(),
            account: self.account.clone(),
            exclusive: self.exclusive,
            options: self.sbatch_options.clone(),
        }
    }
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
        CampaignCommand::Run(a) if a.backend == Backend::Slurm => run_slurm(a, out),
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
    print(
        out,
        &study::report::plan(&c, a.format == Format::Json).map_err(crate::taskpar::json_error)?,
    )
}

/// `vates campaign run`: every cell here.
fn run_local(a: RunArgs, out: &mut dyn Write) -> Result<()> {
    study::slurm::unused_here(&a.slurm.given(), a.slurm.poll)?;
    let (c, text) = read_campaign(&a.file)?;
    let dir = a.output.unwrap_or_else(|| study::folder::default_dir(&c));
    let study = Study::open(&dir, &c, &text).map_err(study_error)?;
    let recorder = recorder(&c, &a.recorder)?;
    profile(&c, &study)?;
    // Ctrl-C stops the program running (its whole process group); a second ends vates.
    let backend = LocalBackend::new(termio::interrupt::flag());
    let runner = study.runner(&c, recorder, &backend);
    let what = format!("measuring {}", c.name);
    let m = follow(&what, true, |on| study::local::run(&study, &c, &runner, on))
        .map_err(study_error)?;
    write_manifest(&m, &dir, a.format, out)
}

/// Runs a campaign with a bar over its runs named `what` (counted run by run if `per_run`,
/// else cell by cell) and its notes on standard error.
fn follow<E>(
    what: &str,
    per_run: bool,
    run: impl FnOnce(&mut dyn FnMut(Event<'_>)) -> std::result::Result<Manifest, E>,
) -> std::result::Result<Manifest, E> {
    let sink = &mut std::io::sink();
    termio::progress::follow(what, sink, |on| run(&mut |e| on(e.tick(per_run)))).0
}

/// Prints what a campaign left in the study `dir`.
fn write_manifest(m: &Manifest, dir: &Path, format: Format, out: &mut dyn Write) -> Result<()> {
    print(
        out,
        &study::report::manifest(m, dir, format == Format::Json)
            .map_err(crate::taskpar::json_error)?,
    )
}

/// `vates campaign cell`: one cell of a study, as a job array's task runs it.
fn cell(a: CellArgs, out: &mut dyn Write) -> Result<()> {
    let (c, study) = Study::load(&a.study).map_err(study_error)?;
    let cells = study::plan::cells(&c);
    let task = study::plan::task(&cells, c.probes(), a.index);
    let cell = match task.map_err(|e| CliError::usage(format!("INDEX {}: {e}", a.index)))? {
        Task::Cell(cell) => cell,
        // The index after the last cell measures the machine (the Slurm backend's probe).
        Task::Probe => {
            profile(&c, &study)?;
            let path = study.dir.join(study::folder::MACHINE);
            return print(
                out,
                &format!("the machine's profile is in {}\n", path.display()),
            );
        }
    };
    let backend = LocalBackend::default();
    let runner = study.runner(&c, recorder(&c, &a.recorder)?, &backend);
    let dir = study.cell_dir(cell);
    runner
        .run(cell, &dir, &mut || {})
        .map_err(|e| study_error(e.into()))?;
    print(out, &format!("cell {} ({}) finished\n", a.index, cell.id()))
}

/// The recorder of a task-parallel runtime, found on this machine.
fn recorder(c: &Campaign, a: &RecorderArgs) -> Result<Option<Runtime>> {
    let (tool, hz) = (a.ompt_tool.as_deref(), a.clock_hz.or(c.clock_hz));
    let found = |k| crate::taskpar::recorder(k, tool, hz, RuntimeKind::NO_CLOCK);
    c.runtime.recorder().map(found).transpose()
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
fn study_error(e: StudyError) -> CliError {
    match e {
        StudyError::Campaign(e) => CliError::Report(miette::Report::new(e)),
        StudyError::Cell(CellError::Rows(e)) => e.into(),
        e => CliError::keyed(&e),
    }
}

/// `vates campaign run --backend slurm`: every unfinished cell as job arrays.
fn run_slurm(a: RunArgs, out: &mut dyn Write) -> Result<()> {
    let (c, text) = read_campaign(&a.file)?;
    let poll = study::slurm::poll(a.slurm.poll);
    let poll = poll.map_err(|e| CliError::usage(format!("--poll {e}")))?;
    let options = c.slurm.checked_over(&a.slurm.given(), "--sbatch-option");
    let options = options.map_err(|e| CliError::usage(format!("--sbatch-option {e}")))?;
    let dir = a.output.unwrap_or_else(|| study::folder::default_dir(&c));
    // The tasks run on other nodes: the study is named by its absolute path.
    std::fs::create_dir_all(&dir).map_err(|e| CliError::write(&dir, &e))?;
    let dir = std::fs::canonicalize(&dir).map_err(|e| CliError::read(&dir, &e))?;
    let study = Study::open(&dir, &c, &text).map_err(study_error)?;
    let mut cell_args = Vec::new();
    if let Some(t) = &a.recorder.ompt_tool {
        let t = std::fs::canonicalize(t).map_err(|e| CliError::read(t, &e))?;
        cell_args.extend(["--ompt-tool".to_string(), t.display().to_string()]);
    }
    if let Some(hz) = a.recorder.clock_hz {
        cell_args.extend(["--clock-hz".to_string(), hz.to_string()]);
    }
    let vates = std::env::current_exe()
        .map_err(|e| CliError::msg(format!("cannot find this vates binary: {e}")))?;
    let cfg = study::slurm::SlurmConfig::new(vates, cell_args, options, poll);
    let cancel = termio::interrupt::flag();
    let what = format!("measuring {} on Slurm", c.name);
    let m = follow(&what, false, |on| {
        study::slurm::run(&study, &c, &cfg, &cancel, on)
    })
    .map_err(|e| match e {
        SlurmError::Study(e) => study_error(e),
        e => CliError::keyed(&e),
    })?;
    write_manifest(&m, &dir, a.format, out)
}
