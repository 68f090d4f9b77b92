//! `vates taskpar record`: flags → a [`taskpar::campaign::Job`] → [`taskpar::campaign::run`]
//! on the local backend, its rows shown as they come and its errors as messages that name
//! the flags.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use expr::grid::parse_binding;
use taskpar::campaign::{
    self, CampaignError, Event, Job, LocalBackend, PlanError, Runtime, MAX_RUNS,
};
use taskpar::experiment::Plan;
use trace::text::{num, seconds};

use crate::error::{CliError, Result};
use termio::progress::Progress;

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
    #[arg(long, value_enum, default_value = "rayon", value_name = "RUNTIME")]
    runtime: RuntimeArg,
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

/// The values of --runtime.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum RuntimeArg {
    /// A Rust program on rayon's global pool, recorded by taskrec.
    Rayon,
    /// An OpenMP program (LLVM's libomp), recorded by the OMPT tool.
    #[value(name = "openmp")]
    OpenMp,
    /// A program built with DAG Recorder (MassiveThreads' profiler).
    DagRecorder,
}

/// The values of a list or range option; a malformed or non-positive one is a usage error.
pub fn values(flag: &str, text: &str) -> Result<Vec<f64>> {
    let bad = |why: String| {
        CliError::usage(format!(
            "{flag} `{text}`: {why} (give a list `1,2,4`, a range `1..8` or a range with a \
             step `10..40:10`)"
        ))
    };
    let (_, v) = parse_binding(&format!("x={text}"))
        .map_err(|e| bad(e.to_string().replace("`x=", "`").replace("NAME=", "")))?;
    let count: u64 = v
        .count()
        .try_into()
        .ok()
        .filter(|&c| c as usize <= MAX_RUNS)
        .ok_or_else(|| bad(format!("more than {MAX_RUNS} values")))?;
    (0..count)
        .map(|k| {
            v.get(k)
                .map(|r| expr::number::to_f64(&r))
                .filter(|x| x.is_finite() && *x > 0.0)
                .ok_or_else(|| bad("every value must be a positive number".into()))
        })
        .collect()
}

/// The job the flags describe.
fn job(a: &RecordArgs) -> Result<Job> {
    let procs = values("--procs", &a.procs)?
        .into_iter()
        .map(|p| {
            (p.fract() == 0.0 && p <= f64::from(u32::MAX))
                .then_some(p as u32)
                .ok_or_else(|| {
                    CliError::usage(format!("--procs: `{}` is not a whole worker count", num(p)))
                })
        })
        .collect::<Result<_>>()?;
    Ok(Job {
        app: a.app.clone(),
        plan: Plan {
            sizes: values("--sizes", &a.sizes)?,
            procs,
            reps: a.reps,
        },
        command: a.command.clone(),
        output: a.output.clone(),
        keep_dags: a.keep_dags.clone(),
        untraced: !a.no_untraced && a.runtime != RuntimeArg::DagRecorder,
        timeout: Duration::from_secs_f64(a.timeout.min(1e9)),
        // Set by `run` once the job checks (building the OMPT tool can take a second).
        runtime: Runtime::Rayon,
        require_serial: true,
    })
}

/// The runtime the flags name, with the OMPT tool built or found for OpenMP.
fn runtime(a: &RecordArgs) -> Result<Runtime> {
    if a.ompt_tool.is_some() && a.runtime != RuntimeArg::OpenMp {
        return Err(CliError::usage(
            "--ompt-tool is for OpenMP programs: give --runtime openmp too",
        ));
    }
    if a.clock_hz.is_some() && a.runtime != RuntimeArg::DagRecorder {
        return Err(CliError::usage(
            "--clock-hz is for DAG Recorder programs, whose files do not say how fast their \
             clock ran: give --runtime dag-recorder too",
        ));
    }
    match a.runtime {
        RuntimeArg::Rayon => Ok(Runtime::Rayon),
        RuntimeArg::OpenMp => Ok(Runtime::OpenMp {
            tool: super::ompt::tool(a.ompt_tool.as_deref())?,
        }),
        RuntimeArg::DagRecorder => {
            let clock_hz = super::dag_clock(a.clock_hz).ok_or_else(|| {
                CliError::usage(
                    "--runtime dag-recorder: DAG Recorder's files do not say how fast their \
                     clock ran, and this machine's CPU clock is unknown (/proc/cpuinfo); give \
                     --clock-hz, the time-stamp counter's rate",
                )
            })?;
            if a.clock_hz.is_none() {
                crate::error::note(&format!(
                    "note: DAG Recorder's ticks are read at this machine's {} MHz (give \
                     --clock-hz to say otherwise)",
                    clock_hz / 1e6
                ));
            }
            if !a.no_untraced {
                crate::error::note(
                    "note: DAG Recorder programs are recorded without untraced runs (nothing \
                     in them times their parallel part alone); elapsed_untraced stays empty",
                );
            }
            Ok(Runtime::DagRecorder { clock_hz })
        }
    }
}

/// Runs a `vates taskpar record`.
pub fn run(a: RecordArgs, out: &mut dyn Write) -> Result<()> {
    crate::error::check_output(&a.output)?;
    let mut job = job(&a)?;
    job.check().map_err(plan_error)?;
    job.runtime = runtime(&a)?;
    // Ctrl-C or SIGTERM stops the program running (its whole process group) and removes the
    // scratch files; a second one ends vates at once.
    let backend = LocalBackend::new(termio::interrupt::flag());
    let untraced = job.untraced;
    let mut bar: Option<Progress> = None;
    let mut shown: std::io::Result<()> = Ok(());
    let result = campaign::run(&job, &backend, &mut |event| match event {
        Event::Planned { todo, .. } if todo > 0 => {
            bar = Some(Progress::new(
                Some(todo as u64),
                &format!("recording {}", a.app),
            ));
            let mut head = format!("{:>10} {:>4} {:>4} {:>12}", "n", "p", "rep", "traced");
            // Without untraced runs, no columns for them.
            if untraced {
                head.push_str(&format!(" {:>12} {:>9}", "untraced", "overhead"));
            }
            shown = writeln!(out, "{head}");
        }
        Event::Planned { .. } => {}
        Event::Row { index, point, row } => {
            let mut line = format!(
                "{:>10} {:>4} {:>4} {:>12}",
                num(point.n),
                point.p,
                point.rep,
                seconds(row.run.elapsed)
            );
            if untraced {
                let u = row.elapsed_untraced;
                let overhead = u.map_or(String::new(), |u| {
                    format!("{:.1}%", 100.0 * (row.run.elapsed / u - 1.0))
                });
                line.push_str(&format!(
                    " {:>12} {:>9}",
                    u.map_or(String::new(), seconds),
                    overhead
                ));
            }
            if let Some(b) = &mut bar {
                let r = b.bar().suspend(|| writeln!(out, "{line}"));
                if shown.is_ok() {
                    shown = r;
                }
                b.set(index as u64 + 1);
            }
        }
    });
    if let Some(b) = bar {
        b.finish();
    }
    shown.map_err(CliError::Stdout)?;
    let s = result.map_err(|e| campaign_error(&a.output, &job.runtime, e))?;
    writeln!(
        out,
        "{} runs of {} appended to {} ({} were there already)",
        s.written,
        a.app,
        a.output.display(),
        s.skipped
    )
    .map_err(CliError::Stdout)
}

/// A job that cannot run, as a usage error naming the flag.
fn plan_error(e: PlanError) -> CliError {
    CliError::advised(&e).expect("every plan error has advice")
}

/// A campaign that stopped, as a message with its fix: the library's advice, or what the
/// flags can change.
pub fn campaign_error(output: &Path, runtime: &Runtime, e: CampaignError) -> CliError {
    let msg = e.to_string();
    if let Some(advice) = e.advice(runtime) {
        return CliError::with_help(msg, advice);
    }
    match e {
        CampaignError::Plan(e) => plan_error(e),
        CampaignError::NotTrainingFile { .. } => CliError::with_help(
            msg,
            format!(
                "give another --output, or a file whose first line is `{}`",
                taskpar::experiment::csv_header().trim_end()
            ),
        ),
        CampaignError::TooBig { .. } => CliError::with_help(msg, "give another --output"),
        CampaignError::Existing(e) => e.into(),
        CampaignError::Start { .. } => CliError::with_help(
            msg,
            "give the program's path after `--` (e.g. -- ./target/release/bots fib {n})",
        ),
        CampaignError::TimedOut { .. } => {
            CliError::with_help(msg, "give smaller --sizes, or a larger --timeout")
        }
        CampaignError::Cancelled => CliError::msg(format!(
            "{msg}; the rows of the runs that finished are in `{}` (run again to resume)",
            output.display()
        )),
        CampaignError::Dag(taskpar::dag::LoadError::Io { path, error }) => {
            CliError::read(&path, &error)
        }
        CampaignError::Dag(e) => CliError::Report(e.into()),
        e => CliError::msg(e.to_string()),
    }
}
