//! `vates semi check|fit|predict|validate`: the semi-empirical method's flags and glue; the
//! manual is in `docs/cli.md`.

use std::io::Write;
use std::path::PathBuf;

use clap::builder::RangedU64ValueParser;
use clap::Subcommand;
use semi::instantiate::Limits;
use semi::scaling::{Ceiling, LawName};
use semi::user_values::parse_named;

use crate::error::Result;
use crate::input::{self, Define};
use crate::timeline::TimelineArgs;
use crate::Format;

mod commands;
use commands::{check, fit, predict_cmd, scale_cmd, sweep_cmd, validate_cmd};

/// The `vates semi` commands.
#[derive(Subcommand, Debug)]
pub enum SemiCommand {
    /// Parse and check a thread-graph model; with -D, instantiate it and print Θ.
    Check(CheckArgs),
    /// Fit the model's coefficients to sample runs.
    Fit(FitArgs),
    /// Predict the run time at -D values with Algorithm G, and where each thread's time goes.
    Predict(PredictArgs),
    /// Predict measured runs and print E, Ē and R_conservative per processor count (the
    /// paper's Tables II–VI).
    Validate(ValidateArgs),
    /// Predict over a grid of parameter values (-D N=1000..4000:1000 -D P=1,2,4).
    Sweep(SweepArgs),
    /// Scale one measured run to another size by the ratio of counts (eq. 2.3) or of sizes
    /// spread over the processors (eq. 2.6).
    Scale(ScaleArgs),
}

/// Options of `vates semi scale`.
#[derive(clap::Args, Debug)]
pub struct ScaleArgs {
    /// 𝓕, the iteration count (eq. 2.3) or data-parallel size (eq. 2.6), as an expression
    /// of the parameters: 'N^3/P'.
    #[arg(long, value_name = "EXPR")]
    count: String,
    /// The measured run's time, seconds.
    #[arg(long, value_name = "SECONDS", value_parser = input::parse_scale)]
    seconds: f64,
    /// A parameter of the measured run: NAME=VALUE (repeat for each).
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_named, required = true)]
    from: Vec<(String, f64)>,
    /// A parameter of the target that differs from the measured run: NAME=VALUE.
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_named)]
    to: Vec<(String, f64)>,
    /// The scaling law: `shared` (eq. 2.3, the count holds the processors) or
    /// `data-parallel` (eq. 2.6, the size spread over the --by processors).
    #[arg(long, value_parser = crate::input::choice::<LawName>(), default_value = "shared")]
    law: LawName,
    /// Where eq. 2.6 takes the ceiling: `whole` (the paper's, over the whole ratio) or
    /// `per-processor` (of each point's iterations per processor).
    #[arg(long, value_parser = crate::input::choice::<Ceiling>())]
    ceiling: Option<Ceiling>,
    /// The processor-count parameter: its values in --from and --to are N₀ and N.
    #[arg(long, value_name = "PARAM", default_value = "P")]
    by: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The model and its parameter values.
#[derive(clap::Args, Debug)]
pub struct ModelArgs {
    /// The thread-graph model (`.tg`).
    #[arg(value_name = "MODEL")]
    model: PathBuf,
    /// Bind a parameter: NAME=VALUE.
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = input::parse_define)]
    define: Vec<Define>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The limits of an instantiation and its traversal.
#[derive(clap::Args, Debug)]
pub struct LimitArgs {
    /// The most steps (Θ, segments, loop control) of an instantiation and traversal.
    #[arg(long, default_value_t = 1 << 32, value_name = "N", value_parser = input::parse_count)]
    max_steps: u64,
    /// The most ops of an instantiated graph (segments and events, each iteration of an
    /// unrolled loop counted; about 100 bytes of memory each; a sweep shares the limit
    /// among the points it predicts at once).
    #[arg(long, default_value_t = Limits::default().max_ops, value_name = "N", value_parser = input::parse_count)]
    max_ops: u64,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        Limits::with(self.max_steps, self.max_ops)
    }
}

/// Options of `vates semi check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    model: ModelArgs,
}

/// Where the coefficients come from.
#[derive(clap::Args, Debug)]
pub struct CoeffArgs {
    /// Sample runs (CSV: a column per parameter, `segment`, `seconds`).
    #[arg(long, value_name = "SAMPLES.csv")]
    samples: Option<PathBuf>,
    /// Give a coefficient's value: NAME=VALUE (instead of, or over, the samples' fit).
    #[arg(short = 'C', value_name = "NAME=VALUE", value_parser = parse_named)]
    coeff: Vec<(String, f64)>,
    /// Fit only the samples whose processor-count parameter equals the prediction's (the
    /// paper's N₀ = N), when there are any.
    #[arg(long, value_name = "PARAM", default_value = "P")]
    by: String,
}

/// The machine: a profile of `vates probe`, or no event costs.
#[derive(clap::Args, Debug)]
pub struct MachineArgs {
    /// The machine profile (`vates probe -o machine.json`); without it events cost nothing.
    #[arg(long, value_name = "MACHINE.json")]
    machine: Option<PathBuf>,
    /// Processors (default: the value of the --by parameter, else unlimited).
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    processors: Option<usize>,
    /// Seed of the random order of simultaneous events and of branches.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Options of `vates semi fit`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// The thread-graph model (`.tg`).
    #[arg(value_name = "MODEL")]
    model: PathBuf,
    /// Sample runs (CSV: a column per parameter, `segment`, `seconds`).
    #[arg(long, value_name = "SAMPLES.csv")]
    samples: PathBuf,
    /// Fit each value of this parameter's samples apart (the paper fits per processor
    /// count); `--by none` fits them all together.
    #[arg(long, value_name = "PARAM", default_value = "P")]
    by: String,
    /// The machine profile: event costs for a fit to whole-program times (samples with
    /// `run` rows only), which runs Algorithm G; without it events cost nothing.
    #[arg(long, value_name = "MACHINE.json")]
    machine: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Options of `vates semi predict`.
#[derive(clap::Args, Debug)]
pub struct PredictArgs {
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    coeffs: CoeffArgs,
    #[command(flatten)]
    machine: MachineArgs,
    #[command(flatten)]
    timeline: TimelineArgs,
    /// Collapse each cluster of identical threads (a class thread's instances) to one
    /// representative before Algorithm G (the paper's eq. 2.5): fewer events to traverse.
    #[arg(long)]
    collapse: bool,
    /// Traverse K times (seeds --seed, --seed + 1, …) and print the mean time too: with
    /// branches, the expectation over their random draws.
    #[arg(long, value_name = "K", value_parser = RangedU64ValueParser::<usize>::new().range(2..=semi::predict::MAX_DRAWS as u64))]
    draws: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Options of `vates semi sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// The thread-graph model (`.tg`).
    #[arg(value_name = "MODEL")]
    model: PathBuf,
    /// Bind a parameter: NAME=VALUE, NAME=LO..HI, NAME=LO..HI:STEP or NAME=V1,V2,...
    #[arg(short = 'D', value_name = "NAME=VALUES", value_parser = input::parse_define)]
    define: Vec<Define>,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    coeffs: CoeffArgs,
    #[command(flatten)]
    machine: MachineArgs,
    #[command(flatten)]
    output: crate::SweepOutput,
}

/// Options of `vates semi validate`.
#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    /// The thread-graph model (`.tg`).
    #[arg(value_name = "MODEL")]
    model: PathBuf,
    /// Sample runs (CSV: a column per parameter, `segment`, `seconds`; optional `run`).
    #[arg(long, value_name = "SAMPLES.csv")]
    samples: PathBuf,
    /// Measured runs (CSV: a column per parameter, `seconds`).
    #[arg(long, value_name = "MEASURED.csv")]
    measured: PathBuf,
    /// The parameter the table has a row per value of, and the samples are fitted per value
    /// of (the processor count, as in the paper's tables).
    #[arg(long, value_name = "PARAM", default_value = "P")]
    by: String,
    /// The processors of each measured point: a number, or the parameter that holds it
    /// (default: `P` when the model has it, else the --by parameter).
    #[arg(long, value_name = "N|PARAM", value_parser = clap::value_parser!(semi::validate::Processors))]
    processors: Option<semi::validate::Processors>,
    /// The machine profile (`vates probe -o machine.json`); without it events cost nothing.
    #[arg(long, value_name = "MACHINE.json")]
    machine: Option<PathBuf>,
    /// The time the sample runs took, seconds (T_sample of R_conservative; default: the sum
    /// of the samples' `run` rows, if they have them).
    #[arg(long, value_name = "SECONDS", value_parser = input::parse_scale)]
    sample_seconds: Option<f64>,
    /// Seed of the random order of simultaneous events and of branches.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    limits: LimitArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs a `vates semi` command.
pub fn run(cmd: SemiCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        SemiCommand::Check(a) => check(&a, out),
        SemiCommand::Fit(a) => fit(&a, out),
        SemiCommand::Predict(a) => predict_cmd(&a, out),
        SemiCommand::Validate(a) => validate_cmd(&a, out),
        SemiCommand::Sweep(a) => sweep_cmd(&a, out),
        SemiCommand::Scale(a) => scale_cmd(&a, out),
    }
}
