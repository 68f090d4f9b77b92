//! `vates semi check|fit|predict|validate`: the semi-empirical method's flags and glue; the
//! manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use semi::instantiate::Limits;
use semi::job::{Job, JobError, Over};
use semi::lang::{self, Model};
use semi::predict::{read_measured, PredictError};
use semi::report::{
    fit_json, fit_text, model_summary, prediction_json, prediction_text, schedule_trace,
    validation_json, validation_text,
};
use semi::samples::{read_samples, SampleSet, SamplesError};
use semi::sim::SimError;

use crate::error::{json_text, CliError, Result};
use crate::input::{self, Define};
use crate::timeline::{chart, TimelineArgs};
use crate::Format;

/// The largest model, samples or measurements file read.
const MAX_FILE: usize = 1 << 26;
/// The largest machine profile read.
const MAX_PROFILE: usize = 1 << 22;

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

/// Limits as their flags: `--max-steps 500 and --max-ops 10`.
fn flags(over: &[(&str, u64)]) -> String {
    let f: Vec<String> = over.iter().map(|(f, v)| format!("{f} {v}")).collect();
    f.join(" and ")
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
        Limits {
            max_steps: self.max_steps,
            max_ops: self.max_ops,
            ..Limits::default()
        }
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
    #[arg(short = 'C', value_name = "NAME=VALUE", value_parser = parse_coeff)]
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
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    processors: Option<u64>,
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

/// The most points of one `semi sweep`.
const MAX_SWEEP_POINTS: u64 = 100_000;

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
    /// The processor-count parameter: rows of the table, and the samples fitted per value.
    #[arg(long, value_name = "PARAM", default_value = "P")]
    by: String,
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

fn parse_coeff(s: &str) -> std::result::Result<(String, f64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=VALUE"))?;
    let v: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("`{value}` is not a number"))?;
    if !v.is_finite() {
        return Err(format!("`{value}` is not a finite number"));
    }
    Ok((name.trim().to_string(), v))
}

/// Runs a `vates semi` command.
pub fn run(cmd: SemiCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        SemiCommand::Check(a) => check(&a, out),
        SemiCommand::Fit(a) => fit(&a, out),
        SemiCommand::Predict(a) => predict_cmd(&a, out),
        SemiCommand::Validate(a) => validate_cmd(&a, out),
        SemiCommand::Sweep(a) => sweep_cmd(&a, out),
    }
}

fn model_error(e: Box<lang::ModelError>) -> CliError {
    let mut e = e;
    if e.kind == lang::ErrorKind::Limit
        && e.help
            .as_deref()
            .is_some_and(|h| h.ends_with("raise the limit"))
    {
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

fn samples_error(e: SamplesError) -> CliError {
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

fn predict_error(e: PredictError) -> CliError {
    match e {
        PredictError::Model(e) => model_error(e),
        PredictError::Sim(e) => sim_error(e),
        PredictError::Read(r) => r.into(),
        PredictError::Samples(e) => samples_error(e),
        e @ PredictError::NoGroup { .. } => CliError::usage(format!(
            "--by: {e}; validate makes a table row per value of a parameter (the processor count, `P` by default)"
        )),
        e @ PredictError::NotFinite { .. } => CliError::with_help(
            e.to_string(),
            "check the coefficients (-C, --samples) and the event costs of --machine",
        ),
        other => CliError::msg(other.to_string()),
    }
}

fn sim_error(e: SimError) -> CliError {
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

fn read(path: &Path, what: &str) -> Result<String> {
    input::read_text(path, MAX_FILE, what, "")
}

fn load(path: &Path) -> Result<Model> {
    let text = read(path, "model")?;
    lang::parse(&path.display().to_string(), &text).map_err(model_error)
}

fn params(defines: &[Define]) -> Result<Vec<(String, f64)>> {
    input::single_values(defines, "semi", None).map(|v| {
        v.into_iter()
            .map(|(n, r)| (n.to_string(), expr::number::to_f64(&r)))
            .collect()
    })
}

/// A job on the model with the flags every command shares.
fn job(m: Model, limits: &LimitArgs) -> Job {
    Job {
        limits: limits.limits(),
        ..Job::new(m)
    }
}

/// The samples of `--samples`, if given.
fn samples(m: &Model, path: Option<&Path>) -> Result<Option<SampleSet>> {
    path.map(|p| load_samples(m, p)).transpose()
}

/// The -C, --samples, --by and --machine flags of a job.
fn coeff_job(m: Model, limits: &LimitArgs, c: &CoeffArgs, mach: &MachineArgs) -> Result<Job> {
    Ok(Job {
        samples: samples(&m, c.samples.as_deref())?,
        given: c.coeff.clone(),
        by: c.by.clone(),
        by_chosen: c.by != "P",
        profile: profile(mach.machine.as_deref())?,
        processors_given: mach
            .processors
            .map(|p| usize::try_from(p).unwrap_or(usize::MAX)),
        seed: mach.seed,
        ..job(m, limits)
    })
}

fn check(a: &CheckArgs, out: &mut dyn Write) -> Result<()> {
    let m = load(&a.model.model)?;
    let mut text = model_summary(&a.model.model.display().to_string(), &m);
    if !a.model.define.is_empty() {
        let j = Job {
            params: params(&a.model.define)?,
            ..job(m, &a.model.limits)
        };
        let semi::job::Counted {
            count: c,
            params: all,
            over,
        } = j.check().map_err(|e| job_error(e, &j.by))?;
        text.push_str(&format!(
            "at {}: Θ = {} event processings, {} steps, {} ops{}\n",
            semi::samples::point_text(&all),
            c.size.events,
            c.size.steps,
            c.ops,
            match over_flags(&over)[..] {
                [] => String::new(),
                ref over => format!(" (over {}: predict would refuse it)", flags(over)),
            }
        ));
    }
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

fn load_samples(m: &Model, path: &Path) -> Result<SampleSet> {
    let text = read(path, "samples")?;
    read_samples(m, &path.display().to_string(), &text).map_err(samples_error)
}

fn fit(a: &FitArgs, out: &mut dyn Write) -> Result<()> {
    let m = load(&a.model)?;
    let j = Job {
        samples: Some(load_samples(&m, &a.samples)?),
        by: a.by.clone(),
        profile: profile(a.machine.as_deref())?,
        ..Job::new(m)
    };
    let mut fits = Vec::new();
    for (g, f) in j.fit().map_err(|e| job_error(e, &a.by))? {
        let label = match g {
            Some(v) => format!("{}={v}", a.by),
            None => "all samples".to_string(),
        };
        let f = f.map_err(|e| match e {
            SamplesError::Fit(_)
            | SamplesError::Underdetermined { .. }
            | SamplesError::Unsampled { .. }
            | SamplesError::Traversal { .. }
            | SamplesError::Unsettled { .. } => CliError::msg(format!("{label}: {e}")),
            other => samples_error(other),
        })?;
        fits.push((label, f));
    }
    let text = match a.format {
        Format::Text => fits.iter().map(|(l, f)| fit_text(l, f)).collect::<String>(),
        Format::Json => json_text(&serde_json::Value::Array(
            fits.iter().map(|(l, f)| fit_json(l, f)).collect(),
        ))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// The machine profile, if one is given.
fn profile(path: Option<&Path>) -> Result<Option<probe::Profile>> {
    let Some(path) = path else { return Ok(None) };
    let text = input::read_text(path, MAX_PROFILE, "machine profile", "")?;
    probe::Profile::from_json(&text).map(Some).map_err(|e| {
        CliError::with_help(
            format!("{}: {e}", path.display()),
            "make a profile of this machine with `vates probe -o machine.json`",
        )
    })
}

/// The limits a job's point is over, as the flags that raise them (`--max-steps 500`).
fn over_flags(over: &[Over]) -> Vec<(&'static str, u64)> {
    over.iter()
        .map(|o| match *o {
            Over::Steps(v) => ("--max-steps", v),
            Over::Ops(v) => ("--max-ops", v),
        })
        .collect()
}

fn job_error(e: JobError, by: &str) -> CliError {
    match e {
        JobError::By(e) => CliError::usage(format!("--by {by}: {e}")),
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
            let raise: Vec<&str> = over.iter().map(|o| o.0).collect();
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

fn predict_cmd(a: &PredictArgs, out: &mut dyn Write) -> Result<()> {
    a.timeline.check()?;
    let m = load(&a.model.model)?;
    let job = Job {
        params: params(&a.model.define)?,
        schedule: a.timeline.wanted(),
        ..coeff_job(m, &a.model.limits, &a.coeffs, &a.machine)?
    };
    let done = job.predict().map_err(|e| job_error(e, &a.coeffs.by))?;
    for n in &done.notes {
        crate::error::note(&format!("note: {n}"));
    }
    for w in &done.warnings {
        crate::error::note(&format!("warning: {w}"));
    }
    let p = done.prediction;
    if a.timeline.wanted() {
        let title = a.model.model.display().to_string();
        let tr = schedule_trace(&title, &p.threads, &p.outcome);
        // Times are seconds: a microsecond per second unless the flag says otherwise.
        let mut files = a.timeline.clone();
        if files.trace_unit_us == 1.0 {
            files.trace_unit_us = 1e6;
        }
        files.write(&tr, &chart(&title, "seconds"))?;
    }
    let text = match a.format {
        Format::Text => prediction_text(&a.model.model.display().to_string(), &p),
        Format::Json => json_text(&prediction_json(&p))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

fn validate_cmd(a: &ValidateArgs, out: &mut dyn Write) -> Result<()> {
    let m = load(&a.model)?;
    let text = read(&a.measured, "measurements")?;
    let measured =
        read_measured(&m, &a.measured.display().to_string(), &text).map_err(predict_error)?;
    let j = Job {
        samples: Some(load_samples(&m, &a.samples)?),
        by: a.by.clone(),
        profile: profile(a.machine.as_deref())?,
        seed: a.seed,
        ..job(m, &a.limits)
    };
    let (checked, table, notes) = j
        .validate(&measured, a.sample_seconds)
        .map_err(|e| job_error(e, &a.by))?;
    for n in notes {
        crate::error::note(&format!("warning: {n}"));
    }
    let text = match a.format {
        Format::Text => validation_text(&checked, &table),
        Format::Json => json_text(&validation_json(&checked, &table))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

fn sweep_cmd(a: &SweepArgs, out: &mut dyn Write) -> Result<()> {
    use sweep::{Sample, Space, TextColumn};
    let m = load(&a.model)?;
    let bindings: Vec<(expr::Name, expr::grid::Values)> = a
        .define
        .iter()
        .map(|d| (d.name.clone(), d.values.clone()))
        .collect();
    let space =
        Space::new(bindings, MAX_SWEEP_POINTS).map_err(|e| CliError::usage(e.to_string()))?;
    let names: Vec<String> = space.axes().iter().map(|x| x.name().to_string()).collect();
    // The values of --by that the grid has: the coefficients are fitted at each.
    let by_values: Vec<f64> = space
        .axes()
        .iter()
        .find(|x| **x.name() == *a.coeffs.by)
        .map(|axis| {
            (0..axis.len())
                .filter_map(|k| axis.values().get(k).map(|r| expr::number::to_f64(&r)))
                .collect()
        })
        .unwrap_or_default();
    let j = coeff_job(m, &a.limits, &a.coeffs, &a.machine)?;
    let costs = j.costs();
    let (sw, notes) = j
        .sweep(
            &costs,
            names.clone(),
            &by_values,
            rayon::current_num_threads(),
        )
        .map_err(|e| job_error(e, &a.coeffs.by))?;
    for n in notes {
        crate::error::note(&format!("note: {n}"));
    }
    let columns: Vec<String> = semi::sweep::COLUMNS.map(String::from).to_vec();
    let wiring = crate::sweep_out::Wiring {
        output: &a.output,
        table: Sample::new(space.len(), 60),
        lines: semi::sweep::lines(),
        json_points: true,
        what: "predicting",
    };
    let swept = crate::sweep_out::run(
        &space,
        &columns,
        wiring,
        |_, p, o| sw.point(p, o),
        CliError::msg,
    )?;
    let x = names.first().cloned().unwrap_or_default();
    let title = format!("{}: predicted time", a.model.display());
    swept.write_plot(&a.output, &title, &x, "seconds")?;
    let text = match a.output.format {
        Format::Text => {
            let mut cols = TextColumn::swept(&space);
            for (k, c) in semi::sweep::COLUMNS.iter().enumerate() {
                cols.push(TextColumn::num(*c, k));
            }
            swept.table.table(&cols).render("")
        }
        Format::Json => swept.json_array(),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
