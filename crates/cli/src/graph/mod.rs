//! `vates graph analyze|sweep|convert|gen`: deterministic task graph analysis (Adve &
//! Vernon); the manual is in `docs/cli.md`.

mod sweep;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use taskgraph::analysis::policy::PolicyName;
use taskgraph::analysis::scaling::{parse_procs, Procs};
use taskgraph::analysis::setup::Setup;
use taskgraph::gen::{GenKind, GenOptions, TimeDist};
use taskgraph::{Format as GraphFormat, GraphError, Limits, TaskGraph};

use crate::error::{flag_of, print, write_file, CliError, Result};
use crate::timeline::TimelineArgs;
use crate::Format;
use termio::files::write_or_stdout;

/// The `vates graph` subcommands.
#[derive(Subcommand, Debug)]
pub enum GraphCommand {
    /// Predict the makespan of a task graph on P processes and explain where time went.
    #[command(alias = "analyse")]
    Analyze(AnalyzeArgs),
    /// Analyse a task graph over a range of process counts: speedup, efficiency, bounds.
    Sweep(GraphSweepArgs),
    /// Convert a task graph between formats (read json, dot, wfcommons, stg; write json, dot).
    Convert(ConvertArgs),
    /// Generate a reproducible random task graph (layered, forkjoin, wavefront, sp).
    Gen(GenArgs),
}

/// The graph, policy and system model (shared by `analyze` and `sweep`).
#[derive(clap::Args, Debug, Clone)]
pub struct GraphInput {
    /// The task graph file (.json, .dot, .stg, or a WfCommons .json instance).
    #[arg(value_name = "GRAPH")]
    pub graph: PathBuf,
    /// Input format (default: from the extension and content).
    #[arg(long, value_name = "FMT", value_parser = parsed::<GraphFormat>)]
    pub from: Option<GraphFormat>,
    /// Scheduling policy.
    #[arg(long, default_value = "fifo", value_parser = crate::input::choice::<PolicyName>())]
    pub policy: PolicyName,
    /// With `--policy queues`: an idle process takes tasks from other queues.
    #[arg(long)]
    pub steal: bool,
    /// A system model (TOML: queueing and delay centers, optional lock).
    #[arg(long, value_name = "FILE.toml")]
    pub system: Option<PathBuf>,
    /// A DAG Recorder file's clock rate in ticks per second (default: this machine's CPU
    /// clock, with a note).
    #[arg(long, value_name = "HZ", value_parser = crate::input::parse_scale)]
    pub clock_hz: Option<f64>,
}

/// Options of `vates graph analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    input: GraphInput,
    /// Number of processes P (also as `-D P=8`, like every method's parameters).
    #[arg(long, short = 'p', short_alias = 'D', value_name = "P", value_parser = parse_one_proc)]
    procs: usize,
    /// The schedule as a timeline.
    #[command(flatten)]
    timeline: TimelineArgs,
    /// Write the parallelism profile over time as CSV: `time,running` (and, with
    /// `--policy queues`, `processes_per_active_queue`), one row per change.
    #[arg(long, value_name = "FILE")]
    profile: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Options of `vates graph sweep`.
#[derive(clap::Args, Debug)]
pub struct GraphSweepArgs {
    #[command(flatten)]
    input: GraphInput,
    /// Process counts: a range `1..64`, `1..64:4`, a list `1,2,4,8`, or one value (also as
    /// `-D P=1..64`, like every method's parameters).
    #[arg(long, short = 'p', short_alias = 'D', value_name = "RANGE", value_parser = procs)]
    procs: Procs,
    #[command(flatten)]
    output: crate::SweepOutput,
}

/// Options of `vates graph convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// The input graph.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// The output file (`-` for standard output).
    #[arg(value_name = "OUT")]
    output: PathBuf,
    /// Input format (default: from the extension and content).
    #[arg(long, value_name = "FMT", value_parser = parsed::<GraphFormat>)]
    from: Option<GraphFormat>,
    /// Output format, json or dot (default: from the extension; json for `-`).
    #[arg(long, value_name = "FMT", value_parser = parsed::<GraphFormat>)]
    to: Option<GraphFormat>,
}

/// Options of `vates graph gen`.
#[derive(clap::Args, Debug)]
pub struct GenArgs {
    /// Kind of graph: layered, forkjoin, wavefront, sp.
    #[arg(value_name = "KIND", value_parser = parsed::<GenKind>)]
    kind: GenKind,
    /// Number of tasks.
    #[arg(long, value_name = "N")]
    tasks: usize,
    /// Width: layer width, tasks per fork, grid width, or largest fork.
    #[arg(long, default_value_t = 10, value_name = "W")]
    width: usize,
    /// Mean number of predecessors per task (layered).
    #[arg(long, default_value_t = 2.0, value_name = "D")]
    degree: f64,
    /// Task time distribution: const:C, uniform:LO,HI, exp:MEAN.
    #[arg(long, default_value = "const:1", value_name = "DIST", value_parser = parsed::<TimeDist>)]
    time: TimeDist,
    /// Random seed.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// Output file (format from the extension: .json or .dot); standard output when absent.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

/// clap value parser of a task-graph option value: the library's message and its hint.
fn parsed<T: std::str::FromStr<Err = GraphError>>(s: &str) -> std::result::Result<T, String> {
    s.parse::<T>()
        .map_err(|e| format!("{e} ({})", e.help.as_deref().unwrap_or_default()))
}

/// clap value parser of `--procs` ([`parse_procs`]).
fn procs(s: &str) -> std::result::Result<Procs, String> {
    parse_procs(s).map_err(|e| diag::spell_keys(&e, &flag_of))
}

/// clap value parser for `graph analyze --procs`: one process count (a range or list is a
/// usage error that points to `graph sweep`).
fn parse_one_proc(s: &str) -> std::result::Result<usize, String> {
    match procs(s)?.counts.as_slice() {
        [p] => Ok(*p),
        _ => Err(format!(
            "`{s}` gives several process counts, but `graph analyze` takes one; sweep them \
             with `vates graph sweep GRAPH --procs {s}`"
        )),
    }
}

/// `e` as the command's error, its `{key}`s spelt as flags in its message and its advice
/// (a usage error when the advice says so).
pub fn keyed(e: &dyn diag::Advise) -> CliError {
    let spell = |t: &str| diag::spell_keys(t, &flag_of);
    match e.advice() {
        Some(a) if a.usage && a.fix.is_empty() => CliError::usage(spell(&e.to_string())),
        Some(a) if a.usage => {
            CliError::usage(format!("{}; {}", spell(&e.to_string()), spell(&a.fix)))
        }
        Some(a) => CliError::with_help(spell(&e.to_string()), spell(&a.fix)),
        None => CliError::msg(e.to_string()),
    }
}

/// An error with advice and no input keys in its message ([`CliError::advised`]).
pub fn advised(e: &dyn diag::Advise) -> CliError {
    CliError::advised(e).unwrap_or_else(|| CliError::msg(e.to_string()))
}

/// Runs a `graph` subcommand.
pub fn run(cmd: GraphCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        GraphCommand::Analyze(a) => analyze(a, out),
        GraphCommand::Sweep(a) => sweep::run(a, out),
        GraphCommand::Convert(a) => {
            let path = Some(a.output.as_path()).filter(|p| p.as_os_str() != "-");
            let to = GraphFormat::of_output(path, a.to).map_err(|e| keyed(&e))?;
            let text = taskgraph::format::write(&load_graph(&a.input, a.from, None)?, to)?;
            Ok(write_or_stdout(Some(&a.output), text.as_bytes(), out)?)
        }
        GraphCommand::Gen(a) => {
            let to = GraphFormat::of_output(a.output.as_deref(), None).map_err(|e| keyed(&e))?;
            let opts = GenOptions {
                tasks: a.tasks,
                width: a.width,
                degree: a.degree,
                time: a.time,
                seed: a.seed,
                limits: Limits::default(),
            };
            // A generator option that makes no sense is a usage error, like a malformed one.
            let g = taskgraph::gen::generate(a.kind, &opts).map_err(|e| match e.kind {
                taskgraph::ErrorKind::BadOption => CliError::usage(e.message),
                _ => e.into(),
            })?;
            let text = taskgraph::format::write(&g, to)?;
            Ok(write_or_stdout(a.output.as_deref(), text.as_bytes(), out)?)
        }
    }
}

/// Reads and validates a task graph, or a recorded run's DAG file as one; the format is
/// `from`, else detected.
pub fn load_graph(
    path: &Path,
    from: Option<GraphFormat>,
    clock_hz: Option<f64>,
) -> Result<TaskGraph> {
    let (limits, what) = (Limits::default(), "a task graph file");
    let recording = &taskpar::dag::is_recording;
    let bytes = crate::input::read_text_unless(path, limits.max_bytes, what, recording)?;
    let clock = crate::taskpar::dag_clock(clock_hz);
    if let Some(rec) = taskpar::dag::sniff_with(&bytes, &Default::default(), clock) {
        let rec = rec.map_err(|e| crate::taskpar::dag_error(path, e))?;
        crate::taskpar::note_dag_clock(&rec, clock_hz);
        let secs = 1.0 / rec.header.clock.frequency_hz;
        return Ok(taskpar::replay::task_graph(&rec.graph(), secs)?);
    }
    let text = crate::input::utf8(path, bytes, what)?;
    let format = GraphFormat::of_input(from, path, &text).map_err(|e| advised(&e))?;
    Ok(taskgraph::format::read(
        &text,
        &path.display().to_string(),
        format,
        &limits,
    )?)
}

/// The graph and the setup of `input`: its policy and system model.
fn load(input: &GraphInput) -> Result<(TaskGraph, Setup)> {
    let g = load_graph(&input.graph, input.from, input.clock_hz)?;
    let text = match &input.system {
        Some(path) => Some(crate::input::read_text(
            path,
            1 << 20,
            "a system model file (TOML)",
            "",
        )?),
        None => None,
    };
    let file = input.system.as_ref().map(|p| p.display().to_string());
    let system = file.as_deref().zip(text.as_deref());
    Ok((
        g,
        Setup::new(input.policy, input.steal, system).map_err(|e| keyed(&e))?,
    ))
}

/// The names of `input`'s files in a report.
fn labels(setup: &Setup, input: &GraphInput) -> taskgraph::analysis::explain::Labels {
    let system = input.system.as_ref().map(|p| p.display().to_string());
    setup.labels(input.graph.display().to_string(), system)
}

fn analyze(a: AnalyzeArgs, out: &mut dyn Write) -> Result<()> {
    let (g, setup) = load(&a.input)?;
    let units = termio::progress::Units {
        running: "scheduling",
        analysing: "reporting",
        noun: "tasks",
    };
    let labels = labels(&setup, &a.input);
    let an = termio::progress::with_meter(units, "", |meter| {
        setup.explain(&g, a.procs, labels, Some(meter))
    })
    .map_err(|e| advised(&e))?;
    if let Some(path) = &a.profile {
        write_file(path, an.profile_csv(&g).as_bytes())?;
    }
    if a.timeline.wanted() {
        let file = a.input.graph.file_name().map_or_else(
            || an.labels.graph.clone(),
            |f| f.to_string_lossy().into_owned(),
        );
        let (tr, title) = an.timeline(&g, &file);
        a.timeline
            .write(&tr, &crate::timeline::chart(&title, "time"))?;
    }
    let text = an
        .render(a.format == Format::Json)
        .map_err(|e| CliError::msg(e.to_string()))?;
    print(out, &text)
}
