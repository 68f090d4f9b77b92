//! `vates graph analyze|sweep|convert|gen`: deterministic task graph analysis (Adve &
//! Vernon); the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use sweep::Sample;
use taskgraph::analysis::engine::METER_UNITS;
use taskgraph::analysis::explain::{sweep_lines, Labels};
use taskgraph::analysis::policy::{PolicyKind, PolicyName};
use taskgraph::analysis::scaling::{parse_procs, BaselineError, Procs, ScalingError, Sweep};
use taskgraph::analysis::setup::{Setup, SetupError};
use taskgraph::analysis::AnalysisError;
use taskgraph::format::FormatError;
use taskgraph::gen::{GenKind, GenOptions, TimeDist};
use taskgraph::{Format as GraphFormat, GraphError, Limits, TaskGraph};

use crate::error::{print, spell, write_file, CliError, Result};
use crate::timeline::{chart, TimelineArgs};
use crate::Format;
use termio::files::write_or_stdout;
use termio::sweep_out::{self, Wiring};

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
    /// Output format, json or dot (default: from the extension; json on standard output).
    #[arg(long, value_name = "FMT", value_parser = parsed::<GraphFormat>)]
    to: Option<GraphFormat>,
}

/// clap value parser of a task-graph option value: the library's message and its hint.
fn parsed<T: std::str::FromStr<Err = GraphError>>(s: &str) -> std::result::Result<T, String> {
    s.parse::<T>()
        .map_err(|e| format!("{e} ({})", e.help.as_deref().unwrap_or_default()))
}

/// clap value parser of `--procs` ([`parse_procs`]).
fn procs(s: &str) -> std::result::Result<Procs, String> {
    parse_procs(s).map_err(|e| spell(&e))
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

crate::keyed_from! { SetupError, ScalingError, BaselineError, AnalysisError, FormatError }

/// Runs a `graph` subcommand.
pub fn run(cmd: GraphCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        GraphCommand::Analyze(a) => analyze(a, out),
        GraphCommand::Sweep(a) => sweep(a, out),
        GraphCommand::Convert(a) => {
            let path = Some(a.output.as_path()).filter(|p| p.as_os_str() != "-");
            let to = GraphFormat::of_output(path, a.to)?;
            let text = taskgraph::format::write(&load_graph(&a.input, a.from, None)?, to)?;
            Ok(write_or_stdout(Some(&a.output), text.as_bytes(), out)?)
        }
        GraphCommand::Gen(a) => {
            let to = GraphFormat::of_output(a.output.as_deref(), a.to)?;
            let opts = GenOptions::new(a.tasks, a.width, a.degree, a.time, a.seed);
            let g = taskgraph::gen::generate(a.kind, &opts)
                .map_err(|e| CliError::advised(&e).unwrap_or_else(|| e.into()))?;
            let text = taskgraph::format::write(&g, to)?;
            Ok(write_or_stdout(a.output.as_deref(), text.as_bytes(), out)?)
        }
    }
}

/// Reads and validates a task graph, or a recorded run's DAG file as one; the format is
/// `from`, else detected.
fn load_graph(path: &Path, from: Option<GraphFormat>, hz: Option<f64>) -> Result<TaskGraph> {
    let (limits, what) = (Limits::default(), "a task graph file");
    let recording = &taskpar::dag::is_recording;
    let bytes = crate::input::read_text_unless(path, limits.max_bytes, what, recording)?;
    let clock = crate::taskpar::dag_clock(hz);
    if let Some(rec) = taskpar::dag::sniff_with(&bytes, &Default::default(), clock) {
        let rec = rec.map_err(|e| crate::taskpar::dag_error(path, e))?;
        crate::taskpar::note_dag_clock(&rec, hz);
        let secs = 1.0 / rec.header.clock.frequency_hz;
        return Ok(taskpar::replay::task_graph(&rec.graph(), secs)?);
    }
    let text = crate::input::utf8(path, bytes, what)?;
    let format = GraphFormat::of_input(from, path, &text)?;
    let name = path.display().to_string();
    Ok(taskgraph::format::read(&text, &name, format, &limits)?)
}

/// The graph, the setup (policy and system model) and the names in reports of `input`.
fn load(input: &GraphInput) -> Result<(TaskGraph, Setup, Labels)> {
    let g = load_graph(&input.graph, input.from, input.clock_hz)?;
    PolicyKind::new(input.policy, input.steal)?; // a misused --steal before the system model
    let file = input.system.as_ref().map(|p| p.display().to_string());
    let read = |p: &Path| crate::input::read_text(p, 1 << 20, "a system model file (TOML)", "");
    let text = input.system.as_deref().map(read).transpose()?;
    let system = file.as_deref().zip(text.as_deref());
    let setup = Setup::new(input.policy, input.steal, system)?;
    let labels = setup.labels(input.graph.display().to_string(), file);
    Ok((g, setup, labels))
}

fn analyze(a: AnalyzeArgs, out: &mut dyn Write) -> Result<()> {
    let (g, setup, labels) = load(&a.input)?;
    let an = termio::progress::with_meter(METER_UNITS, "", |meter| {
        setup.explain(&g, a.procs, labels, Some(meter))
    })?;
    if let Some(path) = &a.profile {
        write_file(path, an.profile_csv(&g).as_bytes())?;
    }
    if a.timeline.wanted() {
        let (tr, title) = an.timeline(&g, &a.input.graph);
        a.timeline.write(&tr, &chart(&title, "time"))?;
    }
    print(out, &an.render(a.format == Format::Json))
}

/// `vates graph sweep`: the analysis over process counts ([`Sweep`]) on the shared sweep
/// runner.
fn sweep(a: GraphSweepArgs, out: &mut dyn Write) -> Result<()> {
    let (g, setup, labels) = load(&a.input)?;
    let sweep = Sweep::new(&setup, &g, &a.procs)?;
    let base = sweep.baseline()?;
    let outputs = a.output.outputs();
    let table = Sample::all(sweep.space.len());
    let wiring = Wiring::new(&outputs, table, sweep_lines(), "analysing");
    let point = |_: u64, p: &[f64], out: &mut [f64]| sweep.point(&base, p, out);
    let swept = sweep_out::run(&sweep.space, &sweep.columns(), wiring, point)?
        .finished(|_, e| CliError::from(e))?;
    swept.write_plot(&Sweep::plot_title(&labels), "P (processes)", "speedup")?;
    let json = a.output.format == Format::Json;
    print(out, &sweep.report(&labels, &base, &swept.table, json))
}
