//! `vates taskpar`: task-parallel programs (Namsraijav & Taura) — statistics of recorded
//! DAGs, recording runs, the two-step model; the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use taskpar::dag::{self, DagError, Limits, LoadError, Recording};
use taskpar::report::{self, RunInfo};
use taskpar::stats::{Stats, StatsOptions, BURDEN_CYCLES};

use crate::error::{write_file, CliError, Result};
use crate::timeline::{chart, TimelineArgs};

mod model;
pub mod ompt;
mod predict;
mod record;

/// The `vates taskpar` subcommands.
#[derive(Subcommand, Debug)]
pub enum TaskparCommand {
    /// Statistics of a recorded DAG: work, delay and no_work (DAG Recorder's definitions),
    /// span, burdened span, counts and the bounds at P.
    Stats(StatsArgs),
    /// Run a program (Rust with taskrec, or OpenMP with --runtime openmp) over sizes ×
    /// worker counts × repetitions, traced and untraced, and append one training row per
    /// run to a CSV file (resumes where it stopped).
    Record(record::RecordArgs),
    /// Fit the two-step model (six sub-models chained, eqs. 9–15) and the direct-regression
    /// baseline to a training CSV; write the model file.
    Fit(model::FitArgs),
    /// Predict time(n, p) with its breakdown (work, delay, no_work), interval, baseline,
    /// bounds and extrapolation warnings.
    Predict(predict::PredictArgs),
    /// Fit on a training CSV and report the relative errors on a test CSV, per application
    /// and sub-model, beside the baseline's.
    Report(model::ReportArgs),
}

/// Output formats of `vates taskpar stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatsFormat {
    /// Aligned text for people.
    Text,
    /// One JSON object (documented schema).
    Json,
    /// DAG Recorder's stats file, field for field.
    Stat,
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
    #[arg(long, value_enum, default_value_t = StatsFormat::Text)]
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
        TaskparCommand::Record(a) => record::run(a, out),
        TaskparCommand::Fit(a) => model::fit(a, out),
        TaskparCommand::Predict(a) => predict::run(a, out),
        TaskparCommand::Report(a) => model::report(a, out),
    }
}

/// Reads the DAG file `path` (its magic first, so another kind of file costs nothing); a
/// DAG Recorder file's clock runs at `clock_hz` ([`dag_clock`]).
pub fn load_dag(path: &Path, clock_hz: Option<f64>) -> Result<Recording> {
    let rec =
        dag::load_with(path, &Limits::default(), dag_clock(clock_hz)).map_err(|e| match e {
            LoadError::Io { path, error } => CliError::read(&path, &error),
            LoadError::Dag { path, error } => dag_error(&path, error),
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
    if clock_hz.is_none() && matches!(rec.body, dag::Body::Graph(_)) {
        crate::error::note(&format!(
            "note: a DAG Recorder file does not say how fast its clock ran; its ticks are read \
             at this machine's {} MHz (give --clock-hz for the machine that recorded it)",
            rec.header.clock.frequency_hz / 1e6
        ));
    }
}

/// The message of a DAG file `path` that cannot be read (the error's own hint).
pub fn dag_error(path: &Path, e: DagError) -> CliError {
    let help = match e {
        DagError::DrClock => Some(
            "give --clock-hz, the time-stamp counter's rate of the machine that recorded it"
                .to_string(),
        ),
        ref e => miette::Diagnostic::help(e).map(|h| h.to_string()),
    };
    CliError::Diag(crate::error::Diag {
        message: format!("`{}`: {e}", path.display()),
        help,
    })
}

/// The largest `.stat` file read: five (P + 1)² matrices at 1024 workers, with room.
const MAX_STAT: usize = 64 << 20;

fn stats(a: StatsArgs, out: &mut dyn Write) -> Result<()> {
    a.timeline.check()?;
    if let Some(p) = &a.profile {
        crate::error::check_output(p)?;
    }
    if a.compare.is_some() && a.format == StatsFormat::Stat {
        return Err(CliError::usage(
            "--compare prints a comparison (text or JSON): give --format text or json, or \
             leave out --compare to print the stats file",
        ));
    }
    // The .stat file first: a file that cannot be read stops before the DAG is read.
    let theirs = match &a.compare {
        Some(path) => {
            let text =
                crate::input::read_text(path, MAX_STAT, "a DAG Recorder stats file (`.stat`)", "")?;
            Some(
                taskpar::dr_stat::parse(&path.display().to_string(), &text)
                    .map_err(|e| CliError::Report(e.into()))?,
            )
        }
        None => None,
    };
    let rec = load_dag(&a.dag, a.clock_hz)?;
    let g = rec.graph();
    let opts = StatsOptions {
        workers: None,
        burden: rec.header.cycles_to_clock(a.burden),
        profile_points: if a.profile.is_some() { 2000 } else { 0 },
    };
    let st = Stats::of(&g, rec.header.workers, rec.nodes, &opts);
    let info = RunInfo {
        header: &rec.header,
        burden_cycles: a.burden,
    };
    let secs = 1.0 / rec.header.clock.frequency_hz;
    let title = format!("{} on {} workers", info_title(&rec), st.workers);
    if a.timeline.wanted() {
        let tr = taskpar::timeline::timeline(&g, rec.header.workers, secs, &title);
        // Recorded times are seconds.
        let mut files = a.timeline.clone();
        if files.trace_unit_us == 1.0 {
            files.trace_unit_us = 1e6;
        }
        files.write(&tr, &chart(&title, "time (s)"))?;
    }
    if let Some(p) = &a.profile {
        let plot = taskpar::timeline::profile_plot(&st.profile, st.workers, secs, &title);
        let svg = plot
            .render_svg(900, 420)
            .map_err(|e| CliError::msg(format!("cannot draw the profile: {e}")))?;
        write_file(p, svg.as_bytes())?;
    }
    if let (Some(theirs), Some(path)) = (&theirs, &a.compare) {
        let c = taskpar::dr_stat::compare(theirs, &st);
        let text = match a.format {
            StatsFormat::Json => crate::error::json_text(&report::comparison_json(&c))?,
            _ => report::comparison_text(
                &c,
                &path.display().to_string(),
                &a.dag.display().to_string(),
            ),
        };
        return out.write_all(text.as_bytes()).map_err(CliError::Stdout);
    }
    let text = match a.format {
        StatsFormat::Text => report::text(&st, &info),
        StatsFormat::Stat => st.stat_text(),
        StatsFormat::Json => crate::error::json_text(&report::json(&st, &info))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

fn info_title(rec: &Recording) -> String {
    if rec.header.program.is_empty() {
        "recorded run".to_string()
    } else {
        rec.header.program.clone()
    }
}
