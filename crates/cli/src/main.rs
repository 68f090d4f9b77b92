//! `vates`: predicts how long parallel programs run, and explains why.
//!
//! The binary is the definition of the command line and the glue that brings the vates
//! libraries together (see `docs/ARCHITECTURE.md`). The user manual of every command is
//! `docs/cli.md`.

mod campaign;
mod collectives;
mod compare;
mod demo;
mod error;
mod etccs;
mod fit;
mod graph;
mod input;
mod pamela;
mod probe;
mod semi;
mod taskpar;
mod timeline;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use error::CliError;

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
    Pamela(pamela::PamelaCommand),
    /// Deterministic task graph analysis (Adve & Vernon): makespan, schedule and critical
    /// path of task DAGs under a scheduling policy and system model.
    #[command(subcommand)]
    Graph(graph::GraphCommand),
    /// Eager Timed CCS (MacDonald): execution-time multisets and distributions of timed
    /// process-algebra models of message-passing programs.
    #[command(subcommand)]
    Etccs(etccs::EtccsCommand),
    /// Empirical performance models (Extra-P's PMNF and beyond): fit measurements of runs,
    /// choose a model per callpath and metric, predict with intervals, rank by growth.
    Fit(fit::FitArgs),
    /// Task-parallel programs (Namsraijav & Taura): statistics of recorded rayon runs
    /// (work, delay, no_work, span), the two-step model of time(n, p), replay.
    #[command(subcommand)]
    Taskpar(taskpar::TaskparCommand),
    /// Measure this host for the semi-empirical method (Xu, Zhang & Sun): barrier, lock,
    /// fork/join, message, atomic, memory latency and bandwidth; write the machine profile.
    Probe(probe::ProbeArgs),
    /// Semi-empirical prediction (Xu, Zhang & Sun): thread-graph models, coefficients fitted
    /// to sample runs, Algorithm G, validation against measured runs.
    #[command(subcommand)]
    Semi(semi::SemiCommand),
    /// Collective communication (MacDonald, thesis ch. 3): models of MPI barrier, broadcast,
    /// scatter, gather, send-receive, … in processes and message size, fitted to
    /// measurements (CSV, OSU, IMB; `vates probe --mpi` measures this host).
    #[command(subcommand)]
    Collectives(collectives::CollectivesCommand),
    /// Measurement campaigns of your program (sizes × worker counts × repetitions) run here
    /// or as a Slurm job array, into a study folder the methods read.
    #[command(subcommand)]
    Campaign(campaign::CampaignCommand),
    /// Every method whose inputs a study holds, against the study's held-out measurements:
    /// a table, a plot, and the method to trust chosen from the training data alone.
    Compare(compare::CompareArgs),
}

/// Options of `vates demo`.
#[derive(clap::Args, Debug)]
struct DemoArgs {
    /// Also write SVG plots and a Gantt chart into this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Output formats of `sim` and `sweep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned text for people.
    Text,
    /// JSON (documented schema).
    Json,
}

/// What a sweep writes besides its table (`pamela sweep`, `graph sweep`, `semi sweep`).
#[derive(clap::Args, Debug, Clone)]
pub struct SweepOutput {
    /// Write every point to a CSV file, one row per point (the format of every vates sweep).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write an SVG line plot over the first swept parameter, a line per combination of the
    /// others (`graph sweep`: the speedup with the work and span bounds; the others: the
    /// predicted time).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The line under a sweep's text table that shows only a sample of its `total` points
/// (empty when it shows them all).
pub fn sample_note(table: &sweep::Sample, total: u64) -> String {
    match table.is_partial() {
        true => format!(
            "  ({} of {total} points shown, evenly spaced; --csv FILE writes them all)\n",
            table.rows().len()
        ),
        false => String::new(),
    }
}

impl SweepOutput {
    /// The outputs these flags ask for.
    pub fn outputs(&self) -> termio::sweep_out::Outputs {
        termio::sweep_out::Outputs {
            csv: self.csv.clone(),
            plot: self.plot.clone(),
            json: self.format == Format::Json,
        }
    }
}

/// `cmd` with every option of every subcommand taking a negative number as its value
/// (`-n -5`, `--seed -1`): the value parser then accepts it or says why it is out of range,
/// instead of clap's reading `-5` as a flag and suggesting `-- -5`, which only works for
/// positional arguments.
fn negative_values(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| {
        if !a.is_positional() && a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    })
    .mut_subcommands(negative_values)
}

/// The tip for a negative value given to a flag of unsigned whole numbers.
fn negative_tip(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation || !e.to_string().contains("invalid digit") {
        return None;
    }
    match (
        e.get(ContextKind::InvalidValue),
        e.get(ContextKind::InvalidArg),
    ) {
        (Some(ContextValue::String(v)), Some(ContextValue::String(arg))) if v.starts_with('-') => {
            Some(format!("tip: {arg} cannot be negative (got `{v}`)"))
        }
        _ => None,
    }
}

/// The allocator: analyses allocate and free many small blocks and large
/// growing arrays; mimalloc reuses freed memory instead of returning it
/// to the system and faulting it back in.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    termio::error::install_report_style();
    let matches = negative_values(Cli::command())
        .try_get_matches()
        .unwrap_or_else(|e| {
            let _ = e.print();
            // A negative value for a flag of whole numbers: the parser's reason ("invalid
            // digit found in string") does not say what the flag takes.
            if let Some(tip) = negative_tip(&e) {
                error::note(&tip);
            }
            std::process::exit(e.exit_code())
        });
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let mut out = std::io::stdout().lock();
    let result = match cli.command {
        Command::Demo(a) => demo::run(a.out.as_deref(), &mut out),
        Command::Pamela(c) => pamela::run(c, &mut out),
        Command::Graph(c) => graph::run(c, &mut out),
        Command::Etccs(c) => etccs::run(c, &mut out),
        Command::Fit(a) => fit::run(a, &mut out),
        Command::Taskpar(c) => taskpar::run(c, &mut out),
        Command::Probe(a) => probe::run(a, &mut out),
        Command::Semi(c) => semi::run(c, &mut out),
        Command::Collectives(c) => collectives::run(c, &mut out),
        Command::Campaign(c) => campaign::run(c, &mut out),
        Command::Compare(a) => compare::run(a, &mut out),
    }
    .and_then(|()| out.flush().map_err(CliError::Stdout));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Stdout(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Usage(msg)) => {
            // Shown like clap's own errors, with the usage line of the subcommand run.
            let mut cmd = Cli::command();
            cmd.build();
            let mut at = &matches;
            while let Some((name, next)) = at.subcommand() {
                cmd = cmd.find_subcommand(name).expect("a parsed name").clone();
                at = next;
            }
            let _ = cmd
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
