//! The semi engine's errors turned into messages that name the flags.

use semi::job::{JobError, Over};
use semi::lang;
use semi::predict::PredictError;
use semi::samples::SamplesError;
use semi::sim::SimError;

use crate::error::CliError;

/// Limits as their flags: `--max-steps 500 and --max-ops 10`.
pub(super) fn flags(over: &[(String, u64)]) -> String {
    let f: Vec<String> = over.iter().map(|(f, v)| format!("{f} {v}")).collect();
    f.join(" and ")
}

pub(super) fn model_error(e: Box<lang::ModelError>) -> CliError {
    let mut e = e;
    // An instantiation over its steps or ops: the flags that raise them.
    if e.reached.is_some_and(|r| {
        matches!(
            r.limit,
            sweep::Limit::TraversalSteps | sweep::Limit::GraphOps
        )
    }) {
        e.help = Some("predict at smaller parameters, or raise --max-steps and --max-ops".into());
    }
    if !e.missing_coeffs.is_empty() {
        let given: Vec<String> = e
            .missing_coeffs
            .iter()
            .map(|m| format!("-C {m}=…"))
            .collect();
        e.help = Some(format!(
            "fit them to sample runs with --samples FILE, or give them with {}",
            given.join(" ")
        ));
    }
    if !e.missing.is_empty() {
        let binds: Vec<String> = e.missing.iter().map(|m| format!("-D {m}=…")).collect();
        let hint = format!("bind with {}", binds.join(" "));
        e.help = Some(match e.help.take() {
            Some(h) => format!("{hint}; {h}"),
            None => hint,
        });
    }
    CliError::Report(miette::Report::new(*e))
}

pub(super) fn samples_error(e: SamplesError) -> CliError {
    match e {
        SamplesError::Read(r) => r.into(),
        SamplesError::Model { point, source } => {
            let mut source = source;
            source.message = format!("at the sample point {point}: {}", source.message);
            model_error(source)
        }
        other => CliError::msg(other.to_string()),
    }
}

pub(super) fn predict_error(e: PredictError) -> CliError {
    match e {
        PredictError::Model(e) => model_error(e),
        PredictError::Sim(e) => sim_error(e),
        PredictError::Read(r) => r.into(),
        PredictError::Samples(e) => samples_error(e),
        e @ PredictError::NoGroup { .. } => CliError::usage(format!(
            "--by: {e}; validate makes a table row per value of a parameter (the processor count, `P` by default)"
        )),
        e @ PredictError::NoProcessors { .. } => CliError::usage(format!(
            "--processors: {e}; give a number, or one of the model's parameters"
        )),
        e @ PredictError::TooManyDraws { .. } => CliError::usage(format!("--draws: {e}")),
        e @ PredictError::NotFinite { .. } => CliError::with_help(
            e.to_string(),
            "check the coefficients (-C, --samples) and the event costs of --machine",
        ),
        other => CliError::msg(other.to_string()),
    }
}

pub(super) fn sim_error(e: SimError) -> CliError {
    match e {
        SimError::TooLarge { .. } => CliError::with_help(
            e.to_string(),
            "raise --max-steps, or predict at smaller parameters",
        ),
        SimError::NotHeld { .. } => CliError::with_help(
            e.to_string(),
            "a lock belongs to the thread that took it: unlock it there; to signal another thread, send it a message (send/recv)",
        ),
        other => CliError::msg(other.to_string()),
    }
}

/// The limits a job's point is over, as the flags that raise them (`--max-steps 500`).
pub(super) fn over_flags(over: &[Over]) -> Vec<(String, u64)> {
    over.iter()
        .map(|o| (crate::limits::flag(o.limit), o.value))
        .collect()
}

pub(super) fn job_error(e: JobError, by: &str) -> CliError {
    match e {
        JobError::By(e) => CliError::usage(format!("--by {by}: {e}")),
        e @ (JobError::UnknownParam { .. } | JobError::DerivedParam { .. }) => {
            CliError::usage(format!("-D: {e}"))
        }
        JobError::Given(e) => CliError::usage(format!("-C {}: {e}", e.name())),
        JobError::Model(e) => model_error(e),
        JobError::Samples(e) => samples_error(e),
        JobError::Predict(e) => predict_error(e),
        JobError::OverLimits {
            point,
            events,
            steps,
            ops,
            over,
        } => {
            let over = over_flags(&over);
            let raise: Vec<&str> = over.iter().map(|o| o.0.as_str()).collect();
            CliError::with_help(
                format!(
                    "at {point}: Θ = {events} event processings, {steps} steps, {ops} ops, over {}",
                    flags(&over)
                ),
                format!(
                    "raise {}, or predict at smaller parameters",
                    raise.join(" and ")
                ),
            )
        }
    }
}

pub(super) fn ratio_error(e: semi::scaling::RatioError, by: &str) -> CliError {
    use semi::scaling::RatioError;
    match e {
        e @ RatioError::Count { .. } => CliError::usage(format!("--count: {e}")),
        e @ RatioError::Unbound { .. } => {
            CliError::usage(format!("--from: {e}; give it with --from NAME=VALUE"))
        }
        RatioError::Twice { name, which } => CliError::usage(format!(
            "{}: `{name}` is given twice; give each parameter once",
            if which == "target" { "--to" } else { "--from" }
        )),
        e @ RatioError::UnknownTarget { .. } => CliError::usage(format!(
            "--to: {e}; every parameter is given with --from, and --to changes some of them"
        )),
        e @ RatioError::Eval { .. } => CliError::usage(format!("--count: {e}")),
        e @ RatioError::NoProcessors { .. } => CliError::usage(format!(
            "--from: {e}; give it with --from {by}=N₀ (and --to {by}=N), or name it with --by"
        )),
        e @ RatioError::BadProcessors { .. } => CliError::usage(format!("--from/--to: {e}")),
        RatioError::Scaling(e) => CliError::with_help(
            e.to_string(),
            "check --count at the --from point (a count of iterations is positive) and --seconds",
        ),
    }
}
