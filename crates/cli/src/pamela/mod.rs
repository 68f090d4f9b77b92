//! `vates pamela bound|sim|sweep`: the flags of the PAMELA commands and their glue; the
//! manual is in `docs/cli.md`.

mod sim;
mod sweep;

use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;
use pamela::report::{analyse_bound, bound_json, bound_latex, bound_text};
use pamela::sim::Arbitration;
use pamela::sweep_plan::Engine;
use pamela::{LoadError, Loaded};

use crate::error::{json_text, print, CliError, Result};
use crate::input::{self, Define};
use crate::Format;
use fit::report::Format as TexFormat;

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
    #[arg(long, value_parser = input::choice::<TexFormat>(), default_value = "text")]
    format: TexFormat,
}

/// Simulator options shared by `sim` and `sweep`.
#[derive(clap::Args, Debug, Clone)]
pub struct SimFlags {
    /// Seed of the random arbitration and of `prob(p)` conditions.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// How a released server picks the next waiting request.
    #[arg(long, value_parser = input::choice::<Arbitration>(), default_value = "fcfs")]
    arbitration: Arbitration,
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
            arbitration: self.arbitration,
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

/// Options of `vates pamela sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// Engines to run, comma-separated.
    #[arg(long, value_parser = input::choice::<Engine>(), value_delimiter = ',', default_value = "bound,sim")]
    engine: Vec<Engine>,
    #[command(flatten)]
    output: crate::SweepOutput,
    #[command(flatten)]
    sim: SimFlags,
}

impl ModelArgs {
    /// The model of the file, its root chosen and the names of `-D` checked.
    fn load(&self) -> Result<Loaded> {
        let text = input::read_text(
            &self.model,
            pamela::syntax::MAX_INPUT_BYTES,
            "a model file (`.pam`)",
            input::MODEL_TOO_LARGE,
        )?;
        let (name, root) = (self.model.display().to_string(), self.root.as_deref());
        let given = self.define.iter().map(|d| (&*d.name, &*d.text));
        // A `--root` or `-D` name the model lacks is a usage error, its model's a located one.
        pamela::load_checked(&name, &text, root, given).map_err(|e| match e {
            LoadError::Model(m) => CliError::from(m),
            e => CliError::keyed(&e),
        })
    }
}

/// Runs a `pamela` command.
pub fn run(command: PamelaCommand, out: &mut dyn Write) -> Result<()> {
    match command {
        PamelaCommand::Bound(a) => {
            let loaded = a.model.load()?;
            let given =
                input::single_values(&a.model.define, "pamela bound", Some("pamela sweep"))?;
            let b = analyse_bound(&loaded.model, loaded.root, given)?;
            let text = match a.format {
                TexFormat::Text => bound_text(&loaded.model, loaded.root, &b),
                TexFormat::Json => json_text(&bound_json(&b))?,
                TexFormat::Latex => bound_latex(&b),
            };
            print(out, &text)
        }
        PamelaCommand::Sim(a) => sim::run(&a.model.load()?, &a, out),
        PamelaCommand::Sweep(a) => sweep::run(&a.model.load()?, &a, out),
    }
}
