//! The speed of Algorithm G (issue 20, acceptance item 4: at least 10^7 events per second)
//! on the GE thread graph of `examples/semi/ge.tg` at N = 4096, P = 64: the instantiation and
//! the traversal timed apart, medians over rounds, events (Θ) and steps per second.
//!
//!   cargo bench -p semi --bench g            # N = 4096, P = 64, 5 rounds
//!   SEMI_BENCH_N=1024 SEMI_BENCH_P=16 cargo bench -p semi --bench g

use std::time::Instant;

use semi::instantiate::{instantiate, Bindings, Limits};
use semi::sim::{simulate, FixedCosts, Options};

fn var(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let (n, p) = (var("SEMI_BENCH_N", 4096.0), var("SEMI_BENCH_P", 64.0));
    let rounds = var("SEMI_BENCH_ROUNDS", 5.0) as usize;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/semi/ge.tg");
    let text = std::fs::read_to_string(path).expect("examples/semi/ge.tg");
    let model = semi::lang::parse("ge.tg", &text).expect("parses");
    let b = Bindings {
        params: vec![("N".into(), n), ("P".into(), p)],
        coeffs: vec![
            ("c_init".into(), 2e-9),
            ("c_pivot".into(), 5e-9),
            ("c_elim".into(), 1e-9),
            ("c_solve".into(), 1e-9),
        ],
    };
    let costs = FixedCosts {
        barrier: 2e-6,
        fork: 3e-5,
        join: 3e-5,
        ..FixedCosts::default()
    };
    let opts = Options {
        processors: p as usize,
        ..Options::default()
    };
    let (mut build, mut walk) = (Vec::new(), Vec::new());
    let mut last = None;
    for _ in 0..rounds.max(1) {
        let t = Instant::now();
        let inst = instantiate(&model, &b, &Limits::default()).expect("instantiates");
        build.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let out = simulate(&inst.graph, &costs, &opts).expect("traverses");
        walk.push(t.elapsed().as_secs_f64());
        last = Some((inst.size, out));
    }
    let (size, out) = last.expect("a round");
    let med = |v: &[f64]| stats::median(v).unwrap_or(f64::NAN);
    let (b, w) = (med(&build), med(&walk));
    println!(
        "Algorithm G on ge.tg, N = {n}, P = {p} ({} rounds; medians)",
        rounds.max(1)
    );
    println!("  predicted time         {:.4} s", out.time);
    println!("  Θ (events)             {}", out.events);
    println!(
        "  steps                  {} (of at most {})",
        out.steps, size.steps
    );
    println!("  instantiation          {:.1} ms", b * 1e3);
    println!("  traversal              {:.1} ms", w * 1e3);
    println!("  events per second      {:.3e}", out.events as f64 / w);
    println!("  steps per second       {:.3e}", out.steps as f64 / w);
}
