//! `vates etccs analyse`: execution times of Eager Timed CCS agents (MacDonald).
//!
//! ```text
//! vates etccs analyse MODEL [--agent NAME]... [--format text|thesis|json] [--max-states N]
//! ```
//!
//! Analyses the agents named by the model's `analyse` lines (or by `--agent`): the multiset of
//! execution times EXEC, their distribution PEXEC with exact probabilities, the fastest and
//! slowest runs, the number of states, and the outcome (terminated, deadlock through the
//! `Terminated` placeholder, or non-termination). `--format thesis` prints the thesis tool's
//! output ("Execution times are: … Summary: 4 (50.0%)"); `--format json` prints
//! `{"agents": [{"name", "states", "exec", "pexec": [{"time", "prob"}], "min", "max",
//! "outcome", "warnings"}]}` with times and probabilities as exact rational strings.

use std::io::Write;
use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};

use crate::error::CliError;
use crate::graph_cmd::Failure;

/// The `vates etccs` commands.
#[derive(Subcommand, Debug)]
pub enum EtccsCommand {
    /// Execution-time multiset and distribution, extremes and outcome of ETCCS agents.
    Analyse(AnalyseArgs),
}

/// Output formats of `vates etccs analyse`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtccsFormat {
    /// Readable text.
    Text,
    /// The thesis tool's output.
    Thesis,
    /// JSON.
    Json,
}

/// Options of `vates etccs analyse`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// The model file (`.etccs`).
    model: PathBuf,
    /// Analyse this agent (repeatable) instead of the model's `analyse` lines.
    #[arg(long, value_name = "NAME")]
    agent: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EtccsFormat::Text)]
    format: EtccsFormat,
    /// Stop with an error after exploring this many states.
    #[arg(long, default_value_t = 10_000_000, value_name = "N")]
    max_states: usize,
}

/// Runs an `etccs` command.
pub fn run(cmd: EtccsCommand, out: &mut dyn Write) -> Result<(), Failure> {
    let EtccsCommand::Analyse(a) = cmd;
    if a.max_states == 0 {
        return Err(CliError::usage("--max-states must be at least 1").into());
    }
    let text = std::fs::read_to_string(&a.model).map_err(|e| CliError::read(&a.model, &e))?;
    let name = a.model.display().to_string();
    let mut model = etccs::parse(&name, &text).map_err(failure)?;
    let opts = etccs::Options {
        max_states: a.max_states,
        ..etccs::Options::default()
    };
    let results = if a.agent.is_empty() {
        if model.analyses.is_empty() {
            let names: Vec<&str> = model.agents.iter().map(|(n, _)| n.as_str()).collect();
            return Err(CliError::with_help(
                format!("`{name}` has no `analyse` line"),
                format!(
                    "add `analyse NAME` to the file or pass --agent NAME; agents: {}",
                    names.join(", ")
                ),
            )
            .into());
        }
        etccs::analyse_all(&mut model, &opts).map_err(failure)?
    } else {
        let mut v = Vec::with_capacity(a.agent.len());
        for agent in &a.agent {
            v.push(etccs::analyse(&mut model, agent, &opts).map_err(failure)?);
        }
        v
    };
    let mut s = String::new();
    match a.format {
        EtccsFormat::Json => {
            s = serde_json::to_string_pretty(&etccs::json(&results))
                .map_err(|e| CliError::msg(format!("cannot encode JSON: {e}")))?;
            s.push('\n');
        }
        EtccsFormat::Thesis | EtccsFormat::Text => {
            for (k, r) in results.iter().enumerate() {
                if k > 0 {
                    s.push('\n');
                }
                if a.format == EtccsFormat::Thesis {
                    s.push_str(&etccs::thesis_text(r));
                } else {
                    s.push_str(&etccs::readable_text(r));
                }
                if !s.ends_with('\n') {
                    s.push('\n');
                }
            }
        }
    }
    out.write_all(s.as_bytes())
        .map_err(|e| Failure::Cli(CliError::Stdout(e)))
}

/// An analysis error as the command reports it: a state-limit error names the flag.
fn failure(e: etccs::Error) -> Failure {
    match e {
        etccs::Error::Limit { agent, max_states } => Failure::Cli(CliError::with_help(
            format!("exploring `{agent}` produced more than {max_states} states"),
            "raise --max-states, restrict more channels, or simplify the model",
        )),
        e => Failure::Report(e.into()),
    }
}
