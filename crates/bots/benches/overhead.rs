//! The cost of taskrec on the BOTS kernels: each kernel at a size of some tens of
//! milliseconds, on plain rayon, on taskrec with recording off, and on taskrec recording
//! (`taskrec::record`, the DAG dropped outside the timing). All three run inside the
//! rayon pool (`rayon::scope`, as `taskrec::run` and `taskrec::record` do).
//!
//! After criterion's report, `cargo bench` prints a summary: the three variants run
//! interleaved, round after round, and the ratios of their median (and minimum) times
//! to plain rayon's, per kernel. Targets: on/plain ≤ 1.10, off/plain ≤ 1.02.
//!
//! `BOTS_BENCH_ROUNDS=K` sets the summary's rounds (default 15);
//! `BOTS_BENCH_SUMMARY_ONLY=1` skips criterion and prints only the summary;
//! `BOTS_BENCH_LARGE=1` runs sizes inside the paper's training ranges that take about half a
//! second to a second (fib 42, nqueens 12, sort 2^23, sparselu 120, strassen 1024, fft
//! 2^22) instead of tens of milliseconds. Recording costs a fixed time per task, so its
//! share falls as the tasks at the default cut-offs grow with n.
//!
//! Then the summary prints the recording cost per task of each recorder on one worker,
//! fib and nqueens (medians of interleaved rounds; (recorded − plain) / tasks created):
//! taskrec on the Rust kernels (`taskrec::record` against plain rayon, in a one-thread pool);
//! the OMPT tool on the C/OpenMP kernels of `openmp/` (built with `clang -O2 -fopenmp`, or
//! `CC`; the tool built from its source by `taskpar::campaign::ompt::build_tool`; the
//! program's own `seconds=`, the parallel region, with `OMP_TOOL_LIBRARIES` and
//! `VATES_TASKREC` against without a tool); DAG Recorder on the C programs of
//! `../taskpar/tests/data/dag-recorder/progs` built against the MassiveThreads install
//! `VATES_DR_PREFIX_DIR` names (the process's wall-clock time with `DR=1`, no file written,
//! against `DR=0`; the tasks counted from one recorded `.dag`). A recorder that cannot run
//! here is a line saying what to install or set.

use bots::{fft, fib, nqueens, plain, sort, sparselu, strassen, traced};
use criterion::{black_box, BatchSize, Criterion};
use std::time::{Duration, Instant};

/// Rounds of the interleaved summary (`BOTS_BENCH_ROUNDS`, default 15).
fn rounds() -> usize {
    std::env::var("BOTS_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&k| k > 0)
        .unwrap_or(15)
}

/// One kernel at one size: its input and the two instantiations.
struct Case<I> {
    name: String,
    setup: Box<dyn Fn() -> I>,
    plain: Box<dyn Fn(I) + Sync>,
    traced: Box<dyn Fn(I) + Sync>,
}

#[derive(Clone, Copy, Debug)]
enum Variant {
    Plain,
    Off,
    On,
}

const VARIANTS: [Variant; 3] = [Variant::Plain, Variant::Off, Variant::On];

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Plain => "plain",
            Variant::Off => "off",
            Variant::On => "on",
        }
    }
}

impl<I: Send> Case<I> {
    /// Runs the variant on `input`; the recorded DAG is returned so that its drop is not
    /// timed.
    fn run(&self, v: Variant, input: I) -> Option<taskrec::Dag> {
        let (plain, traced) = (&self.plain, &self.traced);
        match v {
            Variant::Plain => {
                rayon::scope(|_| plain(input));
                None
            }
            Variant::Off => {
                rayon::scope(|_| traced(input));
                None
            }
            Variant::On => Some(taskrec::record(|| traced(input)).1),
        }
    }

    fn criterion(&self, c: &mut Criterion) {
        let mut g = c.benchmark_group(&self.name);
        g.sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        for v in VARIANTS {
            g.bench_function(v.name(), |b| {
                b.iter_batched(&self.setup, |i| self.run(v, i), BatchSize::PerIteration)
            });
        }
        g.finish();
    }

    /// Median and minimum seconds of each variant over interleaved rounds.
    fn summary(&self) -> [(f64, f64); 3] {
        let mut times: [Vec<f64>; 3] = Default::default();
        for round in 0..rounds() {
            for k in 0..3 {
                let idx = (round + k) % 3;
                let input = (self.setup)();
                let t0 = Instant::now();
                let out = self.run(VARIANTS[idx], input);
                times[idx].push(t0.elapsed().as_secs_f64());
                drop(out);
            }
        }
        times.map(|mut t| {
            t.sort_by(f64::total_cmp);
            (t[t.len() / 2], t[0])
        })
    }
}

/// The kernels that share a summary table: name and the two measuring functions.
trait Bench {
    fn criterion(&self, c: &mut Criterion);
    fn summary(&self) -> (String, [(f64, f64); 3]);
}

impl<I: Send> Bench for Case<I> {
    fn criterion(&self, c: &mut Criterion) {
        Case::criterion(self, c);
    }
    fn summary(&self) -> (String, [(f64, f64); 3]) {
        (self.name.clone(), Case::summary(self))
    }
}

fn cases() -> Vec<Box<dyn Bench>> {
    let mut v: Vec<Box<dyn Bench>> = Vec::new();

    let large = std::env::var("BOTS_BENCH_LARGE").is_ok_and(|v| v == "1");
    let (n, cfg) = (if large { 42 } else { 35 }, fib::Config::default());
    v.push(Box::new(Case {
        name: format!("fib n={n}"),
        setup: Box::new(|| ()),
        plain: Box::new(move |()| {
            black_box(plain::fib::run(n, &cfg));
        }),
        traced: Box::new(move |()| {
            black_box(traced::fib::run(n, &cfg));
        }),
    }));

    let (n, cfg) = (if large { 12 } else { 10 }, nqueens::Config::default());
    v.push(Box::new(Case {
        name: format!("nqueens n={n}"),
        setup: Box::new(|| ()),
        plain: Box::new(move |()| {
            black_box(plain::nqueens::run(n, &cfg));
        }),
        traced: Box::new(move |()| {
            black_box(traced::nqueens::run(n, &cfg));
        }),
    }));

    let (n, cfg) = (
        1usize << if large { 23 } else { 19 },
        sort::Config::default(),
    );
    let input = sort::input(n, 1);
    v.push(Box::new(Case {
        name: format!("sort n={n}"),
        setup: Box::new(move || (input.clone(), vec![0i64; n])),
        plain: Box::new(move |(mut d, mut t): (Vec<i64>, Vec<i64>)| {
            plain::sort::run(&mut d, &mut t, &cfg);
            black_box(d);
        }),
        traced: Box::new(move |(mut d, mut t): (Vec<i64>, Vec<i64>)| {
            traced::sort::run(&mut d, &mut t, &cfg);
            black_box(d);
        }),
    }));

    let (n, cfg) = (if large { 120 } else { 35 }, sparselu::Config::default());
    let input = sparselu::input(n, &cfg, 1325);
    v.push(Box::new(Case {
        name: format!("sparselu n={n} m={}", cfg.block),
        setup: Box::new(move || input.clone()),
        plain: Box::new(|mut m: sparselu::Matrix| {
            plain::sparselu::run(&mut m);
            black_box(m);
        }),
        traced: Box::new(|mut m: sparselu::Matrix| {
            traced::sparselu::run(&mut m);
            black_box(m);
        }),
    }));

    let (n, cfg) = (if large { 1024 } else { 512 }, strassen::Config::default());
    let (a, b) = strassen::input(n, 1);
    let (a2, b2) = (a.clone(), b.clone());
    v.push(Box::new(Case {
        name: format!("strassen n={n}"),
        setup: Box::new(move || vec![0.0; n * n]),
        plain: Box::new(move |mut c: Vec<f64>| {
            plain::strassen::run(&a, &b, &mut c, n, &cfg);
            black_box(c);
        }),
        traced: Box::new(move |mut c: Vec<f64>| {
            traced::strassen::run(&a2, &b2, &mut c, n, &cfg);
            black_box(c);
        }),
    }));

    let (n, cfg) = (
        1usize << if large { 22 } else { 19 },
        fft::Config::default(),
    );
    let input = fft::input(n, 1);
    type Buffers = (Vec<fft::Complex>, Vec<fft::Complex>);
    v.push(Box::new(Case {
        name: format!("fft n={n}"),
        setup: Box::new(move || (input.clone(), vec![fft::Complex::default(); n])),
        plain: Box::new(move |(mut i, mut o): Buffers| {
            plain::fft::run(&mut i, &mut o, &cfg);
            black_box(o);
        }),
        traced: Box::new(move |(mut i, mut o): Buffers| {
            traced::fft::run(&mut i, &mut o, &cfg);
            black_box(o);
        }),
    }));
    v
}

fn main() {
    let cases = cases();
    if std::env::var_os("BOTS_BENCH_SUMMARY_ONLY").is_none() {
        let mut c = Criterion::default().configure_from_args();
        for case in &cases {
            case.criterion(&mut c);
        }
        c.final_summary();
    }
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: no summary there.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    println!(
        "\ntaskrec overhead, {} interleaved rounds, {} rayon threads (ratios of medians; of minima in brackets)",
        rounds(),
        rayon::current_num_threads()
    );
    println!(
        "{:<22} {:>11} {:>15} {:>15}",
        "kernel", "plain (ms)", "off/plain", "on/plain"
    );
    for case in &cases {
        let (name, [p, off, on]) = case.summary();
        println!(
            "{:<22} {:>11.2} {:>6.3} [{:.3}] {:>6.3} [{:.3}]",
            name,
            p.0 * 1e3,
            off.0 / p.0,
            off.1 / p.1,
            on.0 / p.0,
            on.1 / p.1
        );
    }
    per_task::print(rounds());
}

/// The recording cost per task of taskrec, the OMPT tool and DAG Recorder (one worker).
mod per_task {
    use super::*;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// One line of the table: a recorder on a kernel.
    struct Line {
        recorder: &'static str,
        kernel: String,
        tasks: u64,
        plain: f64,
        recorded: f64,
    }

    /// The median of `k` interleaved rounds of `a` and `b` (seconds each).
    fn medians(k: usize, mut a: impl FnMut() -> f64, mut b: impl FnMut() -> f64) -> (f64, f64) {
        let (mut x, mut y) = (Vec::with_capacity(k), Vec::with_capacity(k));
        for round in 0..k {
            if round % 2 == 0 {
                x.push(a());
                y.push(b());
            } else {
                y.push(b());
                x.push(a());
            }
        }
        let m = |v: &[f64]| stats::median(v).expect("at least one round");
        (m(&x), m(&y))
    }

    pub fn print(rounds: usize) {
        let large = std::env::var("BOTS_BENCH_LARGE").is_ok_and(|v| v == "1");
        let (fib_n, queens_n) = if large { (42, 12) } else { (35, 10) };
        println!("\nrecording cost per task, one worker, {rounds} interleaved rounds (medians)");
        println!(
            "{:<14} {:<14} {:>10} {:>12} {:>12} {:>12}",
            "recorder", "kernel", "tasks", "plain (ms)", "recorded", "ns per task"
        );
        let mut lines = taskrec_lines(rounds, fib_n, queens_n);
        let dir = std::env::temp_dir().join(format!("vates-bench-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        match ompt_lines(rounds, fib_n, queens_n, &dir) {
            Ok(l) => lines.extend(l),
            Err(why) => {
                println!("OMPT tool: skipped ({why}); install clang and libomp-dev (Debian)")
            }
        }
        match std::env::var_os("VATES_DR_PREFIX_DIR") {
            None => println!(
                "DAG Recorder: skipped; set VATES_DR_PREFIX_DIR to a MassiveThreads install prefix"
            ),
            Some(prefix) => match dr_lines(rounds, Path::new(&prefix), &dir) {
                Ok(l) => lines.extend(l),
                Err(why) => println!("DAG Recorder: skipped ({why})"),
            },
        }
        let _ = std::fs::remove_dir_all(&dir);
        for l in lines {
            println!(
                "{:<14} {:<14} {:>10} {:>12.2} {:>12.2} {:>12.1}",
                l.recorder,
                l.kernel,
                l.tasks,
                l.plain * 1e3,
                l.recorded * 1e3,
                (l.recorded - l.plain) / l.tasks as f64 * 1e9
            );
        }
    }

    fn taskrec_lines(rounds: usize, fib_n: u32, queens_n: usize) -> Vec<Line> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a one-thread pool");
        let time = |f: &dyn Fn()| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64()
        };
        let fcfg = fib::Config::default();
        let qcfg = nqueens::Config::default();
        let (fp, fr) = pool.install(|| {
            medians(
                rounds,
                || {
                    time(&|| {
                        rayon::scope(|_| {
                            black_box(plain::fib::run(fib_n, &fcfg));
                        })
                    })
                },
                || {
                    let t0 = Instant::now();
                    let (_, dag) = taskrec::record(|| black_box(traced::fib::run(fib_n, &fcfg)));
                    let t = t0.elapsed().as_secs_f64();
                    drop(dag);
                    t
                },
            )
        });
        let (qp, qr) = pool.install(|| {
            medians(
                rounds,
                || {
                    time(&|| {
                        rayon::scope(|_| {
                            black_box(plain::nqueens::run(queens_n, &qcfg));
                        })
                    })
                },
                || {
                    let t0 = Instant::now();
                    let (_, dag) =
                        taskrec::record(|| black_box(traced::nqueens::run(queens_n, &qcfg)));
                    let t = t0.elapsed().as_secs_f64();
                    drop(dag);
                    t
                },
            )
        });
        vec![
            Line {
                recorder: "taskrec",
                kernel: format!("fib {fib_n}"),
                tasks: fib::counts(fib_n, &fcfg).creates,
                plain: fp,
                recorded: fr,
            },
            Line {
                recorder: "taskrec",
                kernel: format!("nqueens {queens_n}"),
                tasks: nqueens::counts(queens_n, &qcfg).creates,
                plain: qp,
                recorded: qr,
            },
        ]
    }

    /// Runs `cmd` and returns its standard output, or why it failed.
    fn output(cmd: &mut Command) -> Result<String, String> {
        let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{cmd:?} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// The number after `key` in a kernel's result line.
    fn field(text: &str, key: &str) -> Result<f64, String> {
        text.split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("no {key} in {text:?}"))
    }

    /// `CC` split into the program and its first arguments, else `default`.
    fn cc(default: &str) -> (String, Vec<String>) {
        let cc = std::env::var("CC").unwrap_or_default();
        let mut words = cc.split_whitespace().map(String::from);
        match words.next() {
            Some(p) => (p, words.collect()),
            None => (default.into(), Vec::new()),
        }
    }

    fn ompt_lines(
        rounds: usize,
        fib_n: u32,
        queens_n: usize,
        dir: &Path,
    ) -> Result<Vec<Line>, String> {
        let (program, args) = cc("clang");
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openmp");
        let (tool, _) =
            taskpar::campaign::ompt::build_tool(&program, &args, dir).map_err(|e| e.to_string())?;
        let dag = dir.join("ompt.dag");
        let mut lines = Vec::new();
        for (kernel, n) in [
            ("fib", fib_n.to_string()),
            ("nqueens", queens_n.to_string()),
        ] {
            let exe = dir.join(kernel);
            output(
                Command::new(&program)
                    .args(&args)
                    .args(["-O2", "-fopenmp", "-o"])
                    .arg(&exe)
                    .arg(src.join(format!("{kernel}.c")))
                    .arg("-lm"),
            )?;
            let run = |traced: bool| -> Result<f64, String> {
                let mut c = Command::new(&exe);
                c.arg(&n).env("OMP_NUM_THREADS", "1");
                if traced {
                    c.env("OMP_TOOL_LIBRARIES", &tool)
                        .env("VATES_TASKREC", &dag);
                } else {
                    c.env_remove("OMP_TOOL_LIBRARIES")
                        .env_remove("VATES_TASKREC");
                }
                field(&output(&mut c)?, "seconds=")
            };
            let tasks = field(
                &output(
                    Command::new(&exe)
                        .args([n.as_str(), "count=1"])
                        .env("OMP_NUM_THREADS", "1")
                        .env_remove("OMP_TOOL_LIBRARIES"),
                )?,
                "tasks=",
            )? as u64;
            run(true)?; // one of each before the rounds: a failure stops here
            run(false)?;
            let (plain, recorded) = medians(
                rounds,
                || run(false).expect("an untraced run"),
                || run(true).expect("a traced run"),
            );
            lines.push(Line {
                recorder: "OMPT tool",
                kernel: format!("{kernel} {n}"),
                tasks,
                plain,
                recorded,
            });
        }
        Ok(lines)
    }

    fn dr_lines(rounds: usize, prefix: &Path, dir: &Path) -> Result<Vec<Line>, String> {
        let (program, args) = cc("cc");
        let progs = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../taskpar/tests/data/dag-recorder/progs");
        let file_prefix = dir.join("dr");
        let mut lines = Vec::new();
        // fib.c spawns at every level (no cut-off): fib 28 creates about as many tasks as
        // the Rust and C kernels' fib 35 at their cut-off.
        for (kernel, n) in [("fib", "28"), ("nqueens", "10")] {
            let exe = dir.join(format!("dr-{kernel}"));
            output(
                Command::new(&program)
                    .args(&args)
                    .args(["-O2", "-o"])
                    .arg(&exe)
                    .arg(progs.join(format!("{kernel}.c")))
                    .arg(format!("-I{}", prefix.join("include").display()))
                    .arg(format!("-L{}", prefix.join("lib").display()))
                    .arg(format!("-Wl,-rpath,{}", prefix.join("lib").display()))
                    .args(["-ldr", "-lmyth", "-lpthread"]),
            )?;
            let command = |on: bool, write: bool| {
                let mut c = Command::new(&exe);
                c.arg(n)
                    .env("MYTH_NUM_WORKERS", "1")
                    .env("DAG_RECORDER", if on { "1" } else { "0" })
                    .env("DAG_RECORDER_FILE_PREFIX", &file_prefix);
                for k in ["DAG_RECORDER_DAG_FILE", "DAG_RECORDER_STAT_FILE"] {
                    c.env(k, if write { "1" } else { "0" });
                }
                for k in [
                    "DAG_RECORDER_GPL_FILE",
                    "DAG_RECORDER_DOT_FILE",
                    "DAG_RECORDER_TEXT_FILE",
                ] {
                    c.env(k, "0");
                }
                c
            };
            // The tasks, from one recorded file.
            output(&mut command(true, true))?;
            let bytes = std::fs::read(file_prefix.with_extension("dag"))
                .map_err(|e| format!("DAG Recorder wrote no file: {e}"))?;
            let f = taskpar::dag::dr::read(&bytes, &taskpar::dag::Limits::default(), 1e9)
                .map_err(|e| e.to_string())?;
            let tasks = f.graph.counts().creates;
            let run = |on: bool| {
                let t0 = Instant::now();
                output(&mut command(on, false)).expect("a DAG Recorder run");
                t0.elapsed().as_secs_f64()
            };
            let (plain, recorded) = medians(rounds, || run(false), || run(true));
            lines.push(Line {
                recorder: "DAG Recorder",
                kernel: format!("{kernel} {n}"),
                tasks,
                plain,
                recorded,
            });
        }
        Ok(lines)
    }
}
