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
}
