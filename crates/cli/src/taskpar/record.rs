//! `vates taskpar record`: runs a program linked with taskrec over sizes × worker counts ×
//! repetitions and appends a training row per run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use expr::grid::parse_binding;
use taskpar::experiment::{self, csv_header, csv_line, Done, Plan, Point};
use taskpar::stats::{Stats, StatsOptions, BURDEN_CYCLES};
use trace::text::{num, seconds};

use crate::error::{CliError, Result};
use crate::progress::Progress;

/// Options of `vates taskpar record`.
#[derive(clap::Args, Debug)]
pub struct RecordArgs {
    /// Problem sizes: a list `20,22,24`, a range `20..26` or a range with a step `20..26:2`.
    #[arg(long, value_name = "LIST")]
    sizes: String,
    /// Worker counts (RAYON_NUM_THREADS), in the same forms.
    #[arg(long, value_name = "LIST", default_value = "1,2")]
    procs: String,
    /// Repetitions of each size and worker count.
    #[arg(long, default_value_t = 3, value_name = "K")]
    reps: u32,
    /// The application's name in the CSV (runs of one program with different kernels or
    /// inputs are different applications; resuming skips the runs of this name).
    #[arg(long, value_name = "NAME")]
    app: String,
    /// The training CSV to append to (created with its header if missing).
    #[arg(short, long, value_name = "FILE.csv", default_value = "train.csv")]
    output: PathBuf,
    /// Keep each run's DAG file in this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    keep_dags: Option<PathBuf>,
    /// Do not time an untraced run beside each traced one.
    #[arg(long)]
    no_untraced: bool,
    /// Stop a run that takes longer than this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0, value_parser = crate::input::parse_scale)]
    timeout: f64,
    /// The program and its arguments: the size replaces the placeholder (an n in braces) in
    /// an argument, or is appended as the last argument when none has it.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<String>,
}

/// The most runs one command makes.
const MAX_RUNS: usize = 100_000;

/// The values of a list or range option.
pub fn values(flag: &str, text: &str) -> Result<Vec<f64>> {
    let bad = |why: String| {
        CliError::with_help(
            format!("{flag} `{text}`: {why}"),
            "give a list `1,2,4`, a range `1..8` or a range with a step `10..40:10`",
        )
    };
    let (_, v) = parse_binding(&format!("x={text}"))
        .map_err(|e| bad(e.to_string().replace("`x=", "`").replace("NAME=", "")))?;
    let count = v.count();
    let count: u64 = count
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

/// Runs a `vates taskpar record`.
pub fn run(a: RecordArgs, out: &mut dyn Write) -> Result<()> {
    crate::error::check_output(&a.output)?;
    let sizes = values("--sizes", &a.sizes)?;
    let procs: Vec<u32> = values("--procs", &a.procs)?
        .into_iter()
        .map(|p| {
            (p.fract() == 0.0 && p <= 4096.0)
                .then_some(p as u32)
                .ok_or_else(|| {
                    CliError::usage(format!(
                        "--procs: `{}` is not a whole worker count up to 4096",
                        num(p)
                    ))
                })
        })
        .collect::<Result<_>>()?;
    if !procs.contains(&1) {
        return Err(CliError::with_help(
            "--procs has no 1: the serial work T1' of each size comes from its runs on one worker",
            "add 1 to --procs (e.g. --procs 1,2)",
        ));
    }
    if a.reps == 0 {
        return Err(CliError::usage("--reps must be at least 1"));
    }
    let plan = Plan {
        sizes,
        procs,
        reps: a.reps,
    };
    let points = plan.points();
    if points.len() > MAX_RUNS {
        return Err(CliError::usage(format!(
            "{} runs asked for; the limit is {MAX_RUNS}",
            points.len()
        )));
    }
    let app = a.app.clone();
    // What the output already holds.
    let existing = if a.output.exists() {
        crate::input::read_text(&a.output, 1 << 30, "a training CSV file", "")?
    } else {
        String::new()
    };
    if !existing.is_empty() && existing.lines().next() != csv_header().lines().next() {
        return Err(CliError::with_help(
            format!(
                "`{}` is not a training file of this vates: its header differs",
                a.output.display()
            ),
            format!(
                "give another --output, or a file whose first line is `{}`",
                csv_header().trim_end()
            ),
        ));
    }
    let mut done = Done::read(&a.output.display().to_string(), &existing, &app)?;
    let todo: Vec<Point> = points
        .iter()
        .copied()
        .filter(|p| !done.contains(*p))
        .collect();
    if let Some(dir) = &a.keep_dags {
        std::fs::create_dir_all(dir).map_err(|e| CliError::write(dir, &e))?;
    }
    let scratch = std::env::temp_dir().join(format!("vates-taskpar-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| CliError::write(&scratch, &e))?;
    let result = record_all(
        &a,
        &app,
        &todo,
        &mut done,
        &scratch,
        existing.is_empty(),
        out,
    );
    let _ = std::fs::remove_dir_all(&scratch);
    let written = result?;
    writeln!(
        out,
        "{written} runs of {app} appended to {} ({} were there already)",
        a.output.display(),
        points.len() - todo.len()
    )
    .map_err(CliError::Stdout)
}

fn record_all(
    a: &RecordArgs,
    app: &str,
    todo: &[Point],
    done: &mut Done,
    scratch: &Path,
    new_file: bool,
    out: &mut dyn Write,
) -> Result<usize> {
    let mut file: Option<std::fs::File> = None;
    // The header goes in with the first row, so a run that fails leaves no empty file.
    let mut header = new_file;
    let mut bar = Progress::new(Some(todo.len() as u64), &format!("recording {app}"));
    if todo.is_empty() {
        bar.finish();
        return Ok(0);
    }
    writeln!(
        out,
        "{:>10} {:>4} {:>4} {:>12} {:>12} {:>9}",
        "n", "p", "rep", "traced", "untraced", "overhead"
    )
    .map_err(CliError::Stdout)?;
    for (k, &pt) in todo.iter().enumerate() {
        let dag_path = match &a.keep_dags {
            Some(dir) => dir.join(format!("{app}-n{}-p{}-r{}.dag", num(pt.n), pt.p, pt.rep)),
            None => scratch.join("run.dag"),
        };
        // A file left by an earlier run must not pass for this run's.
        let _ = std::fs::remove_file(&dag_path);
        run_program(a, pt, &[(experiment::ENV_FILE, &dag_path)])?;
        let rec = super::load_dag(&dag_path)?;
        check_header(&rec.header, pt, &dag_path)?;
        let opts = StatsOptions {
            workers: None,
            burden: rec.header.cycles_to_clock(BURDEN_CYCLES),
            profile_points: 0,
        };
        let st = Stats::of(&rec.graph(), rec.header.workers, rec.nodes, &opts);
        let untraced = if a.no_untraced {
            None
        } else {
            let t = scratch.join("elapsed.txt");
            let _ = std::fs::remove_file(&t);
            run_program(a, pt, &[(experiment::ENV_ELAPSED, &t)])?;
            let text = crate::input::read_text(&t, 1 << 10, "the elapsed time a run wrote", "")?;
            Some(text.trim().parse::<f64>().map_err(|_| {
                CliError::msg(format!(
                    "the program wrote `{}` as its elapsed time",
                    text.trim()
                ))
            })?)
        };
        let m = experiment::measured(
            app,
            pt,
            &st,
            rec.header.clock.frequency_hz,
            done.serial_work(pt.n),
            untraced,
        );
        let mut line = if std::mem::take(&mut header) {
            csv_header()
        } else {
            String::new()
        };
        line.push_str(&csv_line(&m));
        let f = match &mut file {
            Some(f) => f,
            None => file.insert(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&a.output)
                    .map_err(|e| CliError::write(&a.output, &e))?,
            ),
        };
        f.write_all(line.as_bytes())
            .map_err(|e| CliError::write(&a.output, &e))?;
        done.add(&m.run);
        let overhead = untraced.map_or(String::new(), |u| {
            format!("{:.1}%", 100.0 * (m.run.elapsed / u - 1.0))
        });
        let shown = untraced.map_or(String::new(), seconds);
        bar.bar()
            .suspend(|| {
                writeln!(
                    out,
                    "{:>10} {:>4} {:>4} {:>12} {:>12} {:>9}",
                    num(pt.n),
                    pt.p,
                    pt.rep,
                    seconds(m.run.elapsed),
                    shown,
                    overhead
                )
            })
            .map_err(CliError::Stdout)?;
        bar.set(k as u64 + 1);
    }
    bar.finish();
    Ok(todo.len())
}

/// A recording that is not of the run asked for, as a message.
fn check_header(h: &taskpar::dag::Header, pt: Point, path: &Path) -> Result<()> {
    experiment::check_recording(h, pt).map_err(|e| {
        CliError::with_help(
            format!("{e} (`{}`)", path.display()),
            "the program must run in rayon's global pool, which RAYON_NUM_THREADS sizes, and \
             read its size where the placeholder puts it",
        )
    })
}

/// Runs the program once at `pt` with the environment `env`; its standard output is
/// discarded, its standard error kept for the message if it fails.
fn run_program(a: &RecordArgs, pt: Point, env: &[(&str, &Path)]) -> Result<()> {
    let n = num(pt.n);
    let mut args: Vec<String> = a.command[1..]
        .iter()
        .map(|s| s.replace("{n}", &n))
        .collect();
    if !a.command[1..].iter().any(|s| s.contains("{n}")) {
        args.push(n.clone());
    }
    let err_path =
        std::env::temp_dir().join(format!("vates-taskpar-{}-stderr.txt", std::process::id()));
    let err_file = std::fs::File::create(&err_path).map_err(|e| CliError::write(&err_path, &e))?;
    // Removed on every way out (a timeout, a program that cannot start).
    let _remove = RemoveOnDrop(&err_path);
    let mut cmd = Command::new(&a.command[0]);
    cmd.args(&args)
        .env("RAYON_NUM_THREADS", pt.p.to_string())
        .env_remove(experiment::ENV_FILE)
        .env_remove(experiment::ENV_ELAPSED)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err_file);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let shown = format!("`{} {}`", a.command[0], args.join(" "));
    let mut child = cmd.spawn().map_err(|e| {
        CliError::with_help(
            format!("cannot run {shown}: {e}"),
            "give the program's path after `--` (e.g. -- ./target/release/bots fib {n})",
        )
    })?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed().as_secs_f64() > a.timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(CliError::with_help(
                    format!(
                        "{shown} ran longer than {} s and was stopped",
                        num(a.timeout)
                    ),
                    "give smaller --sizes, or a larger --timeout",
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(CliError::msg(format!("cannot wait for {shown}: {e}"))),
        }
    };
    let text = std::fs::read(&err_path).unwrap_or_default();
    if !status.success() {
        let tail = String::from_utf8_lossy(&text[text.len().saturating_sub(2000)..]).into_owned();
        return Err(CliError::with_help(
            format!("{shown} failed ({status}) with RAYON_NUM_THREADS={}", pt.p),
            if tail.trim().is_empty() {
                "run it by hand to see why".to_string()
            } else {
                format!("its standard error ends with:\n{}", tail.trim_end())
            },
        ));
    }
    for (k, v) in env {
        if !v.exists() {
            return Err(CliError::with_help(
                format!("{shown} wrote no {k} file"),
                "the program must run its parallel part under taskrec::run (see the taskrec crate)",
            ));
        }
    }
    Ok(())
}

/// Removes a scratch file when dropped.
struct RemoveOnDrop<'a>(&'a Path);

impl Drop for RemoveOnDrop<'_> {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.0);
    }
}
