//! Times the simulator on the Machine Repair Model:
//!
//! ```text
//! main = par p in 1..=P { seq i in 1..=N { delay(tau_l); use(s, tau_s) } }
//! ```
//!
//! Usage: `cargo run --release -p pamela --example mrm_sim -- [P] [N] [tau_l] [tau_s] [reps]`
//! (defaults 1000 1000 3 1 5). Prints one `key=value` line per quantity: the simulated time
//! `T`, the event count, the peak number of live threads, and the wall-clock seconds of each
//! repetition and their median (lowering included). `bench/compare_simpy.sh` parses it.

use expr::{Expr, Name};
use pamela::model::{
    Binding, Compose, Loop, Model, Param, Process, Resource, SourceFile, Term, TermKind,
};
use pamela::sim::{simulate, SimOptions};
use std::time::Instant;

fn term(kind: TermKind) -> Term {
    Term {
        kind,
        span: (0..0).into(),
    }
}

/// The MRM, built directly as the checked IR (no parser needed).
fn mrm() -> Model {
    let param = |n: &str| Param {
        name: Name::from(n),
        integer: false,
        lower: None,
        upper: None,
        definition: None,
        span: (0..0).into(),
    };
    let body = term(TermKind::Compose(
        Compose::Seq,
        vec![
            term(TermKind::Delay(Expr::var("tau_l"))),
            term(TermKind::Use {
                res: 0,
                index: None,
                time: Expr::var("tau_s"),
            }),
        ],
    ));
    let seq = term(TermKind::Loop(Loop {
        kind: Compose::Seq,
        var: Name::from("i"),
        lo: Expr::int(1),
        hi: Expr::var("N"),
        body: Box::new(body),
    }));
    let par = term(TermKind::Loop(Loop {
        kind: Compose::Par,
        var: Name::from("p"),
        lo: Expr::int(1),
        hi: Expr::var("P"),
        body: Box::new(seq),
    }));
    Model {
        source: SourceFile {
            name: "mrm".into(),
            text: "".into(),
        },
        params: ["P", "N", "tau_l", "tau_s"].map(param).to_vec(),
        resources: vec![Resource {
            name: Name::from("s"),
            multiplicity: Some(Expr::int(1)),
            family: None,
            span: (0..0).into(),
        }],
        processes: vec![Process {
            name: Name::from("main"),
            args: vec![],
            body: par,
            span: (0..0).into(),
        }],
    }
}

fn main() {
    let args: Vec<i64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("arguments are integers: P N tau_l tau_s reps")
        })
        .collect();
    let arg = |k: usize, d: i64| args.get(k).copied().unwrap_or(d);
    let (p, n, tl, ts, reps) = (arg(0, 1000), arg(1, 1000), arg(2, 3), arg(3, 1), arg(4, 5));
    let model = mrm();
    let mut binding = Binding::default();
    for (k, v) in [("P", p), ("N", n), ("tau_l", tl), ("tau_s", ts)] {
        binding
            .values
            .insert(Name::from(k), expr::Rational::from_integer(v.into()));
    }
    let mut secs = Vec::new();
    let mut last = None;
    for _ in 0..reps.max(1) {
        let t0 = Instant::now();
        let r = simulate(&model, 0, &binding, &SimOptions::default()).expect("simulation");
        secs.push(t0.elapsed().as_secs_f64());
        last = Some(r);
    }
    let r = last.expect("at least one repetition");
    let mut sorted = secs.clone();
    sorted.sort_by(f64::total_cmp);
    println!("P={p} N={n} tau_l={tl} tau_s={ts}");
    println!("T={}", r.time);
    println!("events={}", r.events);
    println!("peak_active={}", r.peak_active);
    println!(
        "runs={}",
        secs.iter()
            .map(|s| format!("{s:.4}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    println!("seconds={:.6}", sorted[sorted.len() / 2]);
}
