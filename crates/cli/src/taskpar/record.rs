//! `vates taskpar record`: flags → a [`Request`] → its checked job (made as a study's cells
//! make theirs) → [`taskpar::campaign::run`] on the local backend, its rows shown as they
//! come and its errors as messages that name the flags.

use std::io::Write;
use std::path::PathBuf;

use taskpar::campaign::{self, CampaignError, LocalBackend, Request, RuntimeKind};
use taskpar::dag::LoadError;

use crate::error::{flag_of, note, print, CliError, Result};

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

/// Runs a `vates taskpar record`.
pub fn run(a: RecordArgs, out: &mut dyn Write) -> Result<()> {
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
    let mut job = request.job(&flag_of)?;
    // The runtime is found once the job checks (building the OMPT tool can take a second).
    job.runtime = super::recorder(
        a.runtime,
        a.ompt_tool.as_deref(),
        a.clock_hz,
        "--runtime dag-recorder: DAG Recorder's files do not say how fast their clock ran, and \
         this machine's CPU clock is unknown (/proc/cpuinfo); give --clock-hz, the time-stamp \
         counter's rate",
    )?;
    for text in request.notes(&job.runtime, &flag_of) {
        note(&format!("note: {text}"));
    }
    // Ctrl-C or SIGTERM stops the program running (its whole process group) and removes the
    // scratch files; a second one ends vates at once.
    let backend = LocalBackend::new(termio::interrupt::flag());
    let mut bar = termio::progress::Counter::default();
    let mut shown: std::io::Result<()> = Ok(());
    let result = campaign::run(&job, &backend, &mut |event| {
        if let campaign::Event::Planned { todo, .. } = event {
            bar.start(todo as u64, &format!("recording {}", a.app));
        }
        if let Some(line) = event.line(job.untraced) {
            let r = bar.println(out, &line);
            if shown.is_ok() {
                shown = r;
            }
        }
        if let campaign::Event::Row { .. } = event {
            bar.add(1);
        }
    });
    bar.finish();
    shown.map_err(CliError::Stdout)?;
    let s = result.map_err(|e| match request.stopped(e, &flag_of) {
        Ok(refusal) => refusal.into(),
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
