//! `vates pamela bound|sim|sweep`: the flags of the PAMELA commands and their glue; the
//! manual is in `docs/cli.md`.

mod bound;
mod sim;
mod sweep;

use std::io::Write;
use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};

use crate::error::Result;
use crate::input::{self, Define};
use crate::Format;

/// The `vates pamela` commands.
#[derive(Subcommand, Debug)]
pub enum PamelaCommand {
    /// Symbolic lower bound T^l, critical path φ, contention bound ω, θ and the binding term.
    Bound(BoundArgs),
    /// Exact discrete-event simulation: execution time T and resource utilisation.
    Sim(SimArgs),
    /// Evaluate T^l and/or simulate T over a grid of parameter values.
    Sweep(SweepArgs),
}

/// The model and how to bind it (shared by the PAMELA commands).
#[derive(clap::Args, Debug)]
pub struct ModelArgs {
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
pub struct BoundArgs {
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
    #[arg(long, default_value = "1e9", value_parser = crate::input::parse_count, value_name = "N")]
    max_events: u64,
    /// The most intervals kept for --trace and --gantt (about 300 bytes each); past it the
    /// files show the run up to that point, and a note says when they stop.
    #[arg(long, default_value = "1e6", value_parser = crate::input::parse_count, value_name = "N")]
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
pub struct SimArgs {
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    sim: SimFlags,
    /// The resource servers and the processes (think, queueing wait, service) as a timeline.
    #[command(flatten)]
    timeline: crate::timeline::TimelineArgs,
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
pub struct SweepArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// Engines to run, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Engine::Bound, Engine::Sim])]
    engine: Vec<Engine>,
    #[command(flatten)]
    output: crate::SweepOutput,
    #[command(flatten)]
    sim: SimFlags,
}

/// Runs a `pamela` command.
pub fn run(command: PamelaCommand, out: &mut dyn Write) -> Result<()> {
    match command {
        PamelaCommand::Bound(a) => {
            let loaded = input::load(&a.model.model, a.model.root.as_deref())?;
            input::check_pamela_names(&loaded.model, &a.model.define)?;
            bound::run(&loaded, &a.model.define, a.format, out)
        }
        PamelaCommand::Sim(a) => {
            let loaded = input::load(&a.model.model, a.model.root.as_deref())?;
            input::check_pamela_names(&loaded.model, &a.model.define)?;
            sim::run(&loaded, &a.model.define, &a.sim, &a.timeline, a.format, out)
        }
        PamelaCommand::Sweep(a) => {
            let loaded = input::load(&a.model.model, a.model.root.as_deref())?;
            input::check_pamela_names(&loaded.model, &a.model.define)?;
            let mut engines: Vec<Engine> = Vec::new();
            for e in a.engine {
                if !engines.contains(&e) {
                    engines.push(e);
                }
            }
            let opts = sweep::Options {
                engines,
                output: a.output,
                sim: a.sim,
            };
            sweep::run(&loaded, &a.model.define, &opts, out)
        }
    }
}
