//! The recorder's cost per join at one worker: naive Fibonacci, plain `rayon::join` against
//! `taskrec::join` under `taskrec::record`, in a one-thread pool, interleaved rounds,
//! medians.
//!
//! `cargo run --release -p taskrec --example cost -- [n] [rounds] [mode] [cutoff]`
//! (defaults 27, 9, `both`, none): calls at depth `< cutoff` join, deeper ones run
//! sequentially (BOTS fib's `-x`; the overhead bench uses n = 35, cut-off 19). Mode
//! `record` runs only the recorded kernel (for a profiler).

use std::hint::black_box;
use std::time::Instant;

fn seq(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    seq(n - 1) + seq(n - 2)
}

fn plain(n: u64, d: u32, cutoff: u32) -> u64 {
    if n < 2 {
        return n;
    }
    if d >= cutoff {
        return seq(n);
    }
    let (a, b) = rayon::join(
        || plain(n - 1, d + 1, cutoff),
        || plain(n - 2, d + 1, cutoff),
    );
    a + b
}

fn traced(n: u64, d: u32, cutoff: u32) -> u64 {
    if n < 2 {
        return n;
    }
    if d >= cutoff {
        return seq(n);
    }
    let (a, b) = taskrec::join(
        || traced(n - 1, d + 1, cutoff),
        || traced(n - 2, d + 1, cutoff),
    );
    a + b
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(27);
    let rounds: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(9);
    let only_record = args.get(3).is_some_and(|a| a == "record");
    let cutoff: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(u32::MAX);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let time_plain = || {
        let t0 = Instant::now();
        black_box(rayon::scope(|_| plain(black_box(n), 0, cutoff)));
        t0.elapsed().as_secs_f64()
    };
    let time_recorded = || {
        let t0 = Instant::now();
        let (v, dag) = taskrec::record(|| traced(black_box(n), 0, cutoff));
        let t = t0.elapsed().as_secs_f64();
        black_box((v, dag.creates()));
        t
    };
    let (mut p, mut r) = (Vec::new(), Vec::new());
    let mut joins = 0;
    pool.install(|| {
        let (_, dag) = taskrec::record(|| traced(n, 0, cutoff));
        joins = dag.creates();
        for round in 0..rounds {
            if only_record {
                r.push(time_recorded());
                continue;
            }
            if round % 2 == 0 {
                p.push(time_plain());
                r.push(time_recorded());
            } else {
                r.push(time_recorded());
                p.push(time_plain());
            }
        }
    });
    let r = stats::median(&r).unwrap_or(f64::NAN);
    if only_record {
        println!("fib {n}: {joins} joins, recorded {:.2} ms", r * 1e3);
        return;
    }
    let p = stats::median(&p).unwrap_or(f64::NAN);
    println!(
        "fib {n}: {joins} joins, plain {:.2} ms, recorded {:.2} ms, ratio {:.2}, {:.1} ns per join",
        p * 1e3,
        r * 1e3,
        r / p,
        (r - p) / joins as f64 * 1e9
    );
}
