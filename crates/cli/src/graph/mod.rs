//! `vates graph analyze|convert|gen`: deterministic task graph analysis (Adve & Vernon);
//! the manual is in `docs/cli.md`.

mod files;
mod sweep;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use taskgraph::analysis::explain::{Explained, Labels};
use taskgraph::analysis::policy::PolicyKind;
use taskgraph::analysis::system::SystemSpec;
use taskgraph::analysis::{report, AnalysisError};
use taskgraph::gen::{GenKind, TimeDist};
use taskgraph::{Format as GraphFormat, Limits, TaskGraph};

use self::sweep::{parse_one_proc, parse_procs};
use crate::error::{write_file, CliError, Result};
use crate::timeline::TimelineArgs;
use crate::Format;
use trace::text::num;

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
    #[arg(long, value_name = "FMT", value_parser = parse_format)]
    pub from: Option<GraphFormat>,
    /// Scheduling policy.
    #[arg(long, default_value = "fifo", value_parser = clap::builder::PossibleValuesParser::new(PolicyKind::NAMES))]
    pub policy: String,
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
    #[arg(long, short = 'p', short_alias = 'D', value_name = "RANGE", value_parser = parse_procs)]
    procs: sweep::ProcList,
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
    #[arg(long, value_name = "FMT", value_parser = parse_format)]
    from: Option<GraphFormat>,
    /// Output format, json or dot (default: from the extension; json for `-`).
    #[arg(long, value_name = "FMT", value_parser = parse_format)]
    to: Option<GraphFormat>,
}

/// Options of `vates graph gen`.
#[derive(clap::Args, Debug)]
pub struct GenArgs {
    /// Kind of graph: layered, forkjoin, wavefront, sp.
    #[arg(value_name = "KIND", value_parser = parse_kind)]
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
    #[arg(long, default_value = "const:1", value_name = "DIST", value_parser = parse_dist)]
    time: TimeDist,
    /// Random seed.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// Output file (format from the extension: .json or .dot); standard output when absent.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

fn parse_format(s: &str) -> std::result::Result<GraphFormat, String> {
    s.parse::<GraphFormat>()
        .map_err(|e| format!("{e} (formats: json, dot, wfcommons, stg)"))
}

fn parse_kind(s: &str) -> std::result::Result<GenKind, String> {
    s.parse::<GenKind>()
        .map_err(|e| format!("{e} (kinds: layered, forkjoin, wavefront, sp)"))
}

fn parse_dist(s: &str) -> std::result::Result<TimeDist, String> {
    s.parse::<TimeDist>()
        .map_err(|e| format!("{e} (const:C, uniform:LO,HI, exp:MEAN)"))
}

/// Runs a `graph` subcommand.
pub fn run(cmd: GraphCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        GraphCommand::Analyze(a) => analyze(a, out),
        GraphCommand::Sweep(a) => {
            let g = load_graph(&a.input.graph, a.input.from, a.input.clock_hz)?;
            let setup = Setup::new(&a.input)?;
            let opts = sweep::Options {
                procs: a.procs,
                output: a.output,
            };
            sweep::run(&g, &a.input.graph, &setup, &opts, out)
        }
        GraphCommand::Convert(a) => files::convert(a, out),
        GraphCommand::Gen(a) => files::gen(a, out),
    }
}

// ---------------------------------------------------------------------------------------
// loading

/// Reads and validates a task graph; the format is `from`, else detected.
pub fn load_graph(
    path: &Path,
    from: Option<GraphFormat>,
    clock_hz: Option<f64>,
) -> Result<TaskGraph> {
    let limits = Limits::default();
    // Text formats, or a recorded run's DAG file (binary, recognised by its first bytes).
    let bytes = crate::input::read_text_unless(
        path,
        limits.max_bytes,
        "a task graph file",
        &taskpar::dag::is_recording,
    )?;
    let clock = crate::taskpar::dag_clock(clock_hz);
    if let Some(rec) = taskpar::dag::sniff_with(&bytes, &taskpar::dag::Limits::default(), clock) {
        // A recorded run: its DAG with strand times in seconds.
        let rec = rec.map_err(|e| crate::taskpar::dag_error(path, e))?;
        crate::taskpar::note_dag_clock(&rec, clock_hz);
        let secs = 1.0 / rec.header.clock.frequency_hz;
        return Ok(taskpar::replay::task_graph(&rec.graph(), secs)?);
    }
    let text = crate::input::utf8(path, bytes, "a task graph file")?;
    let format = match from.or_else(|| GraphFormat::detect(path, &text)) {
        Some(f) => f,
        None => {
            return Err(CliError::with_help(
                format!(
                    "cannot tell the format of `{}` from its extension",
                    path.display()
                ),
                "name the format with --from json|dot|wfcommons|stg",
            ))
        }
    };
    Ok(taskgraph::format::read(
        &text,
        &path.display().to_string(),
        format,
        &limits,
    )?)
}

/// The policy and system model of a run, with the names the user gave them.
pub struct Setup {
    /// The configured analysis.
    pub run: taskgraph::analysis::setup::Setup,
    /// The policy's name as given.
    pub policy_name: String,
    /// Whether `--steal` was given.
    pub steal: bool,
    /// The system model's file, if any.
    pub system_file: Option<PathBuf>,
}

impl Setup {
    /// The names of the inputs for a report on the graph `path`.
    pub fn labels(&self, path: &Path) -> Labels {
        Labels {
            graph: path.display().to_string(),
            policy: self.policy_name.clone(),
            steal: self.steal,
            system: self.system_file.as_ref().map(|p| p.display().to_string()),
        }
    }

    /// Parses the policy and reads the system model.
    pub fn new(input: &GraphInput) -> Result<Setup> {
        let policy = PolicyKind::parse(&input.policy, input.steal).ok_or_else(|| {
            CliError::usage(format!(
                "unknown policy `{}`; policies: {}",
                input.policy,
                PolicyKind::NAMES.join(", ")
            ))
        })?;
        if input.steal && !matches!(policy, PolicyKind::Queues { .. }) {
            return Err(CliError::usage(format!(
                "--steal applies only to --policy queues, not `{}`",
                input.policy
            )));
        }
        let system = match &input.system {
            None => None,
            Some(path) => {
                let text =
                    crate::input::read_text(path, 1 << 20, "a system model file (TOML)", "")?;
                let spec = SystemSpec::parse(&text).map_err(|e| {
                    CliError::with_help(
                        format!("`{}`: {e}", path.display()),
                        "a system model has `[[center]]` tables with name, kind = \"queueing\" \
                         or \"delay\", service and visits; optional top-level rate and \
                         exact_limit, and an optional [lock] with hold",
                    )
                })?;
                Some(spec)
            }
        };
        Ok(Setup {
            run: taskgraph::analysis::setup::Setup { policy, system },
            policy_name: input.policy.clone(),
            steal: input.steal,
            system_file: input.system.clone(),
        })
    }
}

/// An analysis error as a CLI error with a hint.
pub fn analysis_error(e: AnalysisError) -> CliError {
    let help = match &e {
        AnalysisError::Procs { .. } | AnalysisError::TooManyProcs { .. } => {
            "give --procs a number of processes within the limit"
        }
        AnalysisError::Attribute { .. } => {
            "policies `assigned` need attrs.proc, `queues` attrs.queue, `priority` \
             attrs.priority on every task; or choose another --policy"
        }
        AnalysisError::Cycle { .. } => "remove the cycle: a task graph must be acyclic",
        AnalysisError::Overflow { .. } => {
            "keep times, rates and service demands in a unit where their sums and products \
             stay finite numbers"
        }
        AnalysisError::Deadlock { .. } => {
            "with --policy queues and fewer processes than queues, add --steal; with \
             static policies check the assignment attributes"
        }
    };
    CliError::with_help(e.to_string(), help)
}

// ---------------------------------------------------------------------------------------
// analyze

fn analyze(a: AnalyzeArgs, out: &mut dyn Write) -> Result<()> {
    let g = load_graph(&a.input.graph, a.input.from, a.input.clock_hz)?;
    let setup = Setup::new(&a.input)?;
    let units = termio::progress::Units {
        running: "scheduling",
        analysing: "reporting",
        noun: "tasks",
    };
    // The run at P and the P = 1 baseline (for the speedup) are independent: one per core.
    let baseline = || {
        (a.procs != 1).then(|| {
            let base = setup.run.baseline(&g);
            base.map(|b| b.makespan)
                .map_err(|e| format!("the P = 1 baseline run failed: {e}"))
        })
    };
    let (run, p1) = rayon::join(
        || {
            termio::progress::with_meter(units, "", |meter| {
                setup.run.analyze(&g, a.procs, Some(meter))
            })
        },
        baseline,
    );
    let labels = setup.labels(&a.input.graph);
    let an = Explained::new(
        &g,
        labels,
        &setup.run,
        a.procs,
        run.map_err(analysis_error)?,
        p1,
    );
    if let Some(path) = &a.profile {
        write_file(path, an.profile_csv(&g).as_bytes())?;
    }
    if a.timeline.wanted() {
        let file = a.input.graph.file_name().map_or_else(
            || an.labels.graph.clone(),
            |f| f.to_string_lossy().into_owned(),
        );
        let name = format!("{file}: policy {}, P = {}", setup.policy_name, an.procs);
        let tr = report::to_trace(&g, &an.schedule, &name);
        let title = format!("{name}: makespan {}", num(an.schedule.makespan));
        a.timeline
            .write(&tr, &crate::timeline::chart(&title, "time"))?;
    }
    let text = match a.format {
        Format::Text => an.text(),
        Format::Json => crate::error::json_text(&an.json())?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
