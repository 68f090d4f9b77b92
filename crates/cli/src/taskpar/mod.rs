//! `vates taskpar`: task-parallel programs (Namsraijav & Taura) — statistics of recorded
//! DAGs, recording runs, the two-step model; the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use taskpar::analysis::{Analysis, StatsFormat};
use taskpar::campaign::ompt;
use taskpar::campaign::{self, CampaignError, LocalBackend, Request, Runtime, RuntimeKind};
use taskpar::dag::{self, DagError, Limits, LoadError, Recording};
use taskpar::dr_stat;
use taskpar::stats::BURDEN_CYCLES;

use crate::error::{flag_of, note, print, write_file, CliError, Result};
use crate::timeline::{chart, TimelineArgs};

mod model;

/// The `vates taskpar` subcommands.
#[derive(Subcommand, Debug)]
pub enum TaskparCommand {
    /// Statistics of a recorded DAG: work, delay and no_work (DAG Recorder's definitions),
    /// span, burdened span, counts and the bounds at P.
    Stats(StatsArgs),
    /// Run a program (Rust with taskrec, or OpenMP with --runtime openmp) over sizes ×
    /// worker counts × repetitions, traced and untraced, and append one training row per
    /// run to a CSV file (resumes where it stopped).
    Record(RecordArgs),
    /// Fit the two-step model (six sub-models chained, eqs. 9–15) and the direct-regression
    /// baseline to a training CSV; write the model file.
    Fit(model::FitArgs),
    /// Predict time(n, p) with its breakdown (work, delay, no_work), interval, baseline,
    /// bounds and extrapolation warnings.
    Predict(model::PredictArgs),
    /// Fit on a training CSV and report the relative errors on a test CSV, per application
    /// and sub-model, beside the baseline's.
    Report(model::ReportArgs),
}

/// Options of `vates taskpar stats`.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// The DAG file: vates' (a program run with `VATES_TASKREC=FILE`) or DAG Recorder's
    /// (`.dag` of MassiveThreads' profiler, format 1.24).
    #[arg(value_name = "DAG")]
    dag: PathBuf,
    /// A DAG Recorder file's clock rate in ticks per second (its times are time-stamp
    /// counter ticks and it does not say how fast they ran; default: this machine's CPU
    /// clock as /proc/cpuinfo reports it, with a note).
    #[arg(long, value_name = "HZ", value_parser = crate::input::parse_scale)]
    clock_hz: Option<f64>,
    /// Output format.
    #[arg(long, value_parser = crate::input::choice::<StatsFormat>(), default_value = "text")]
    format: StatsFormat,
    /// Cilkview's burden per spawn, in CPU cycles, for the burdened span.
    #[arg(long, default_value_t = BURDEN_CYCLES, value_name = "CYCLES", value_parser = crate::input::parse_scale)]
    burden: f64,
    /// Write the parallelism profile (running and available nodes over time) as an SVG plot.
    #[arg(long, value_name = "FILE.svg")]
    profile: Option<PathBuf>,
    /// Read the `.stat` file DAG Recorder wrote for the same run and print it beside vates'
    /// figures for the DAG, field by field, flagging each that differs (text or JSON).
    #[arg(long, value_name = "FILE.stat")]
    compare: Option<PathBuf>,
    #[command(flatten)]
    timeline: TimelineArgs,
}

/// Runs a `vates taskpar` subcommand.
pub fn run(cmd: TaskparCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        TaskparCommand::Stats(a) => stats(a, out),
        TaskparCommand::Record(a) => record(a, out),
        TaskparCommand::Fit(a) => model::fit(a, out),
        TaskparCommand::Predict(a) => model::predict(a, out),
        TaskparCommand::Report(a) => model::report(a, out),
    }
}

/// Reads the DAG file `path` (its magic first, so another kind of file costs nothing); a
/// DAG Recorder file's clock runs at `clock_hz` ([`dag_clock`]).
pub fn load_dag(path: &Path, clock_hz: Option<f64>) -> Result<Recording> {
    let rec =
        dag::load_with(path, &Limits::default(), dag_clock(clock_hz)).map_err(|e| match e {
            LoadError::Io { path, error } => CliError::read(&path, &error),
            e @ LoadError::Dag { .. } => CliError::keyed(&e),
            e => CliError::Report(e.into()),
        })?;
    note_dag_clock(&rec, clock_hz);
    Ok(rec)
}

/// The clock rate for a DAG Recorder file: `--clock-hz`, else this machine's CPU clock
/// ([`probe::cpu_mhz`]; its time-stamp counter runs at the nominal clock).
pub fn dag_clock(clock_hz: Option<f64>) -> Option<f64> {
    clock_hz.or_else(|| probe::cpu_mhz().map(|mhz| mhz * 1e6))
}

/// The note for a DAG Recorder file read at this machine's clock rate.
pub fn note_dag_clock(rec: &Recording, clock_hz: Option<f64>) {
    if let Some(text) = rec.clock_note().filter(|_| clock_hz.is_none()) {
        note(&format!("note: {}", diag::spell_keys(&text, &flag_of)));
    }
}

/// The message of a DAG file `path` that cannot be read (the error's own hint).
pub fn dag_error(path: &Path, error: DagError) -> CliError {
    CliError::keyed(&LoadError::Dag {
        path: path.into(),
        error,
    })
}

/// The runtime of `kind` on this machine ([`ompt::recorder`]): the OMPT tool `tool`, else
/// the one built in the cache with `$CC` (with a note saying where); for DAG Recorder the
/// clock rate `hz`, else [`dag_clock`]'s, whose lack `no_clock` (keyed) says.
pub fn recorder(
    kind: RuntimeKind,
    tool: Option<&Path>,
    hz: Option<f64>,
    no_clock: &str,
) -> Result<Runtime> {
    let setting = || -> Result<_> {
        let dir = termio::files::cache_dir("set one, or give a built tool with --ompt-tool PATH")?;
        Ok((std::env::var("CC").unwrap_or_default(), dir))
    };
    let (runtime, built) = ompt::recorder(kind, tool, dag_clock(hz), no_clock, setting)?;
    if let Some(text) = built {
        note(&format!("note: {text}"));
    }
    Ok(runtime)
}

/// A document that JSON cannot encode, as every command's.
pub fn json_error(e: serde_json::Error) -> CliError {
    CliError::msg(format!("cannot encode JSON: {e}"))
}

/// The SVG of a plot (`what`, for the message when it cannot be drawn) into `path`.
fn draw(
    svg: std::result::Result<String, trace::TraceError>,
    path: &Path,
    what: &str,
) -> Result<()> {
    let svg = svg.map_err(|e| CliError::msg(format!("cannot draw {what}: {e}")))?;
    Ok(write_file(path, svg.as_bytes())?)
}

fn stats(a: StatsArgs, out: &mut dyn Write) -> Result<()> {
    a.timeline.check()?;
    if let Some(p) = &a.profile {
        crate::error::check_output(p)?;
    }
    if a.compare.is_some() {
        a.format.comparable()?;
    }
    // The .stat file first: a file that cannot be read stops before the DAG is read.
    let theirs = match &a.compare {
        Some(path) => {
            let what = "a DAG Recorder stats file (`.stat`)";
            let text = crate::input::read_text(path, dr_stat::MAX_BYTES, what, "")?;
            let name = path.display().to_string();
            let parsed = dr_stat::parse(&name, &text).map_err(|e| CliError::Report(e.into()))?;
            Some((parsed, name))
        }
        None => None,
    };
    let rec = load_dag(&a.dag, a.clock_hz)?;
    let an = Analysis::of(&rec, a.burden, a.profile.is_some());
    if a.timeline.wanted() {
        let chart = chart(&an.title(), "time (s)");
        a.timeline.write_seconds(&an.timeline(), &chart)?;
    }
    if let Some(p) = &a.profile {
        draw(an.profile_plot().render_svg(900, 420), p, "the profile")?;
    }
    let theirs = theirs.as_ref().map(|(t, name)| (t, name.as_str()));
    print(
        out,
        &an.document(a.format, theirs, &a.dag.display().to_string()),
    )
}

/// Options of `vates taskpar record`.
#[derive(clap::Args, Debug)]
pub struct RecordArgs {
    /// Problem sizes: a list `20,22,24`, a range `20..26` or a range with a step `20..26:2`.
    #[arg(long, value_name = "LIST")]
    sizes: String,
    /// Worker counts (RAYON_NUM_THREADS, OMP_NUM_THREADS with --runtime openmp,
    /// MYTH_NUM_WORKERS with --runtime dag-recorder), in the same forms.
    #[arg(long, value_name = "LIST", default_value = "1,2")]
    procs: String,
    /// Repetitions of each size and worker count.
    #[arg(long, default_value_t = 3, value_name = "K")]
    reps: u32,
    /// The application's name in the CSV (runs of one program with different kernels or
    /// inputs are different applications; resuming skips the runs of this name). Letters,
    /// digits, `.`, `_`, `-`, `+`: it also names the files of --keep-dags.
    #[arg(long, value_name = "NAME")]
    app: String,
    /// The training CSV to append to (created with its header if missing).
    #[arg(short, long, value_name = "FILE.csv", default_value = "train.csv")]
    output: PathBuf,
    /// Keep each run's DAG file in this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    keep_dags: Option<PathBuf>,
    /// Do not time an untraced run beside each traced one (implied by --runtime
    /// dag-recorder).
    #[arg(long)]
    no_untraced: bool,
    /// Stop a run (and every process it started) that takes longer than this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0, value_parser = crate::input::parse_scale)]
    timeout: f64,
    /// The program's parallel runtime: rayon (a Rust program recorded by taskrec), openmp
    /// (an OpenMP program built with clang -fopenmp, recorded by the OMPT tool) or
    /// dag-recorder (a program built with DAG Recorder, MassiveThreads' profiler, which
    /// writes $DR_PREFIX.dag when it calls dr_dump()).
    #[arg(long, value_parser = crate::input::choice::<RuntimeKind>(), default_value = "rayon")]
    runtime: RuntimeKind,
    /// With --runtime dag-recorder: the rate of the clock (time-stamp counter) in ticks per
    /// second; default: this machine's CPU clock as /proc/cpuinfo reports it, with a note.
    #[arg(long, value_name = "HZ", value_parser = crate::input::parse_scale)]
    clock_hz: Option<f64>,
    /// With --runtime openmp: the OMPT tool's shared library (libvates_ompt.so); without
    /// it the tool is built from the source in this vates with clang (or $CC) into
    /// $XDG_CACHE_HOME/vates (or ~/.cache/vates) on first use.
    #[arg(long, value_name = "PATH")]
    ompt_tool: Option<PathBuf>,
    /// The program and its arguments: the size replaces the placeholder (an n in braces) in
    /// an argument, or is appended as the last argument when none has it.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<String>,
}

/// Runs a `vates taskpar record`: flags → a [`Request`] → its checked job (made as a study's
/// cells make theirs) → [`campaign::run`] on the local backend, its rows shown as they come
/// and its errors as messages that name the flags.
fn record(a: RecordArgs, out: &mut dyn Write) -> Result<()> {
    crate::error::check_output(&a.output)?;
    let request = Request {
        app: &a.app,
        sizes: &a.sizes,
        procs: &a.procs,
        reps: a.reps,
        command: &a.command,
        output: &a.output,
        keep_dags: a.keep_dags.as_deref(),
        no_untraced: a.no_untraced,
        timeout_s: a.timeout,
        runtime: a.runtime,
        tool_given: a.ompt_tool.is_some(),
        clock_given: a.clock_hz.is_some(),
    };
    let mut job = request.job()?;
    // The runtime is found once the job checks (building the OMPT tool can take a second).
    let (tool, no_clock) = (a.ompt_tool.as_deref(), Request::NO_CLOCK);
    job.runtime = recorder(a.runtime, tool, a.clock_hz, no_clock)?;
    for text in request.notes(&job.runtime) {
        note(&format!("note: {}", crate::error::spell(&text)));
    }
    // Ctrl-C or SIGTERM stops the program running (its whole process group) and removes the
    // scratch files; a second one ends vates at once.
    let backend = LocalBackend::new(termio::interrupt::flag());
    let (what, untraced) = (format!("recording {}", a.app), job.untraced);
    let (result, shown) = termio::progress::follow(&what, out, |on| {
        campaign::run(&job, &backend, &mut |e| on(e.tick(untraced)))
    });
    shown.map_err(CliError::Stdout)?;
    let s = result.map_err(|e| match request.stopped(e) {
        Ok(keyed) => keyed.into(),
        Err(CampaignError::Start(e)) => CliError::with_help(
            e.to_string(),
            "give the program's path after `--` (e.g. -- ./target/release/bots fib {n})",
        ),
        Err(CampaignError::Existing(e)) => e.into(),
        Err(CampaignError::Dag(LoadError::Io { path, error })) => CliError::read(&path, &error),
        Err(CampaignError::Dag(e)) => CliError::Report(e.into()),
        Err(e) => CliError::msg(e.to_string()),
    })?;
    print(out, &s.text(&a.app, &a.output))
}
