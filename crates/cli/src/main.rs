//! `vates`: predicts how long parallel programs run, and explains why.
//!
//! The binary is the definition of the command line and the glue that brings the vates
//! libraries together (see `docs/ARCHITECTURE.md`). The user manual of every command is
//! `docs/cli.md`.

mod bound_cmd;
mod demo;
mod error;
mod etccs_cmd;
mod etccs_map;
mod graph_cmd;
mod graph_sweep;
mod input;
mod limits;
mod progress;
mod sim_cmd;
mod sweep;
mod timeline_files;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use error::{CliError, Result};
use input::Define;

/// Predict how long parallel programs run, and explain why.
#[derive(Parser, Debug)]
#[command(
    name = "vates",
    version,
    about,
    long_about = None,
    propagate_version = true,
    after_help = "Start with `vates demo`. Exit status: 0 success, 1 model or input error, 2 usage error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// A five-minute tour on the embedded example models (start here).
    Demo(DemoArgs),
    /// PAMELA (van Gemund): symbolic lower bound T^l and exact simulation T of process
    /// models.
    #[command(subcommand)]
    Pamela(PamelaCommand),
    /// Deterministic task graph analysis (Adve & Vernon): makespan, schedule and critical
    /// path of task DAGs under a scheduling policy and system model.
    #[command(subcommand)]
    Graph(graph_cmd::GraphCommand),
    /// Eager Timed CCS (MacDonald): execution-time multisets and distributions of timed
    /// process-algebra models of message-passing programs.
    #[command(subcommand)]
    Etccs(etccs_cmd::EtccsCommand),
}

/// Options of `vates demo`.
#[derive(clap::Args, Debug)]
struct DemoArgs {
    /// Also write SVG plots and a Gantt chart into this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum PamelaCommand {
    /// Symbolic lower bound T^l, critical path φ, contention bound ω, θ and the binding term.
    Bound(BoundArgs),
    /// Exact discrete-event simulation: execution time T and resource utilisation.
    Sim(SimArgs),
    /// Evaluate T^l and/or simulate T over a grid of parameter values.
    Sweep(SweepArgs),
}

/// The model and how to bind it (shared by the PAMELA commands).
#[derive(clap::Args, Debug)]
struct ModelArgs {
    /// The model file (`.pam`).
    #[arg(value_name = "MODEL")]
    model: PathBuf,
    /// Bind a parameter: NAME=VALUE (sweep also NAME=LO..HI, NAME=LO..HI:STEP, NAME=V1,V2,...).
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = input::parse_define)]
    define: Vec<Define>,
    /// The root process (default: `main`).
    #[arg(long, value_name = "NAME")]
    root: Option<String>,
}

/// Options of `vates pamela bound`.
#[derive(clap::Args, Debug)]
struct BoundArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = BoundFormat::Text)]
    format: BoundFormat,
}

/// Output formats of `bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoundFormat {
    /// Aligned text for people.
    Text,
    /// One JSON object (documented schema).
    Json,
    /// LaTeX equations.
    Latex,
}

/// Output formats of `sim` and `sweep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned text for people.
    Text,
    /// JSON (documented schema).
    Json,
}

/// Queue discipline of the simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ArbitrationArg {
    /// First come, first served.
    Fcfs,
    /// A uniformly random waiter (seeded).
    Random,
}

impl From<ArbitrationArg> for pamela::sim::Arbitration {
    fn from(a: ArbitrationArg) -> Self {
        match a {
            ArbitrationArg::Fcfs => pamela::sim::Arbitration::Fcfs,
            ArbitrationArg::Random => pamela::sim::Arbitration::Random,
        }
    }
}

/// Simulator options shared by `sim` and `sweep`.
#[derive(clap::Args, Debug, Clone)]
pub struct SimFlags {
    /// Seed of the random arbitration and of `prob(p)` conditions.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// How a released server picks the next waiting request.
    #[arg(long, value_enum, default_value_t = ArbitrationArg::Fcfs)]
    arbitration: ArbitrationArg,
    /// Stop with an error after this many use/delay events (per simulation; `1e9` notation
    /// allowed).
    #[arg(long, default_value = "1e9", value_parser = parse_count, value_name = "N")]
    max_events: u64,
    /// The most intervals kept for --trace and --gantt (about 300 bytes each); past it the
    /// files show the run up to that point, and a note says when they stop.
    #[arg(long, default_value = "1e6", value_parser = parse_count, value_name = "N")]
    max_timeline: u64,
}

impl SimFlags {
    /// The simulator options these flags select.
    pub fn options(&self, record_trace: bool) -> pamela::sim::SimOptions {
        pamela::sim::SimOptions {
            arbitration: self.arbitration.into(),
            seed: self.seed,
            max_events: self.max_events,
            record_trace,
            max_trace_intervals: usize::try_from(self.max_timeline).unwrap_or(usize::MAX),
        }
    }
}

/// Options of `vates pamela sim`.
#[derive(clap::Args, Debug)]
struct SimArgs {
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    sim: SimFlags,
    /// The resource servers and the processes (think, queueing wait, service) as a timeline.
    #[command(flatten)]
    timeline: timeline_files::TimelineArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// A sweep engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// The symbolic bound T^l (with φ and ω), compiled and evaluated per point.
    Bound,
    /// The discrete-event simulator, one run per point.
    Sim,
}

/// Options of `vates pamela sweep`.
#[derive(clap::Args, Debug)]
struct SweepArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// Engines to run, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Engine::Bound, Engine::Sim])]
    engine: Vec<Engine>,
    /// Write every point to a CSV file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write an SVG line plot over the first swept parameter.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    sim: SimFlags,
}

/// Parses a count such as `1000000`, `1e9` or `2.5e6` (a whole number >= 1).
fn parse_count(s: &str) -> std::result::Result<u64, String> {
    let r = expr::number::parse_rational(s).map_err(|e| e.to_string())?;
    let v = expr::number::to_f64(&r);
    if r.is_integer() && (1.0..=9.0e18).contains(&v) {
        Ok(v as u64)
    } else {
        Err(format!("`{s}` is not a whole number between 1 and 9e18"))
    }
}

/// Parses a positive finite time scale.
fn parse_scale(s: &str) -> std::result::Result<f64, String> {
    let r = expr::number::parse_rational(s).map_err(|e| e.to_string())?;
    let v = expr::number::to_f64(&r);
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(format!("`{s}` is not a positive number"))
    }
}

/// The allocator: analyses allocate and free many small blocks and large
/// growing arrays; mimalloc reuses freed memory instead of returning it
/// to the system and faulting it back in.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Reports are wrapped for a reader at a terminal only: piped into a log or a
    // `grep`, each message stays on one line whatever the length of the file path.
    let wrap = std::io::stderr().is_terminal();
    miette::set_hook(Box::new(move |_| {
        Box::new(
            miette::MietteHandlerOpts::new()
                .terminal_links(false)
                .width(100)
                .wrap_lines(wrap)
                .build(),
        )
    }))
    .ok();
    let cli = Cli::parse();
    let path: &[&str] = match &cli.command {
        Command::Demo(_) => &["demo"],
        Command::Pamela(PamelaCommand::Bound(_)) => &["pamela", "bound"],
        Command::Pamela(PamelaCommand::Sim(_)) => &["pamela", "sim"],
        Command::Pamela(PamelaCommand::Sweep(_)) => &["pamela", "sweep"],
        Command::Graph(g) => match g.name() {
            "analyze" => &["graph", "analyze"],
            "sweep" => &["graph", "sweep"],
            "convert" => &["graph", "convert"],
            _ => &["graph", "gen"],
        },
        Command::Etccs(_) => &["etccs", "analyse"],
    };
    let mut out = std::io::stdout().lock();
    let result = match cli.command {
        Command::Graph(g) => match graph_cmd::run(g, &mut out) {
            Ok(()) => Ok(()),
            Err(graph_cmd::Failure::Cli(e)) => Err(e),
            Err(graph_cmd::Failure::Report(r)) => {
                eprintln!("{r:?}");
                return ExitCode::from(1);
            }
        },
        Command::Etccs(c) => match etccs_cmd::run(c, &mut out) {
            Ok(()) => Ok(()),
            Err(graph_cmd::Failure::Cli(e)) => Err(e),
            Err(graph_cmd::Failure::Report(r)) => {
                eprintln!("{r:?}");
                return ExitCode::from(1);
            }
        },
        command => run(command, &mut out),
    }
    .and_then(|()| out.flush().map_err(CliError::Stdout));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Stdout(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Usage(msg)) => {
            // Shown like clap's own errors, with the subcommand's usage line.
            let mut cmd = Cli::command();
            cmd.build();
            let mut sub = cmd;
            for name in path {
                match sub.find_subcommand(name) {
                    Some(s) => sub = s.clone(),
                    None => break,
                }
            }
            let _ = sub
                .error(clap::error::ErrorKind::ArgumentConflict, msg)
                .print();
            ExitCode::from(2)
        }
        Err(e) => {
            e.report();
            ExitCode::from(1)
        }
    }
}

fn run(command: Command, out: &mut dyn Write) -> Result<()> {
    match command {
        Command::Demo(a) => demo::run(a.out.as_deref(), out),
        Command::Pamela(PamelaCommand::Bound(a)) => {
            let loaded = input::load(&a.model.model, a.model.root.as_deref())?;
            bound_cmd::run(&loaded, &a.model.define, a.format, out)
        }
        Command::Pamela(PamelaCommand::Sim(a)) => {
            let loaded = input::load(&a.model.model, a.model.root.as_deref())?;
            sim_cmd::run(&loaded, &a.model.define, &a.sim, &a.timeline, a.format, out)
        }
        Command::Pamela(PamelaCommand::Sweep(a)) => {
            let loaded = input::load(&a.model.model, a.model.root.as_deref())?;
            let mut engines: Vec<Engine> = Vec::new();
            for e in a.engine {
                if !engines.contains(&e) {
                    engines.push(e);
                }
            }
            let opts = sweep::Options {
                engines,
                csv: a.csv,
                plot: a.plot,
                format: a.format,
                sim: a.sim,
            };
            sweep::run(&loaded, &a.model.define, &opts, out)
        }
        Command::Graph(_) => unreachable!("graph commands are run by graph_cmd::run"),
        Command::Etccs(_) => unreachable!("etccs commands are run by etccs_cmd::run"),
    }
}
