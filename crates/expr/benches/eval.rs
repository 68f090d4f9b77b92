//! Evaluation speed: the compiled evaluator on closed forms, folds and a 10^6-point sweep,
//! against the tree evaluators.
//!
//! Run with `cargo bench -p expr --bench eval`; criterion reports the median of each.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use expr::compile::{Compiled, Scratch};
use expr::eval::{eval_exact, eval_f64, EvalLimits};
use expr::{Expr, Name, Rational};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

fn v(n: &str) -> Expr {
    Expr::var(n)
}

fn names(v: &[&str]) -> Vec<Name> {
    v.iter().map(|s| Name::from(*s)).collect()
}

/// `N*max(P*tau_s, tau_l + tau_s)`, the PAMELA paper's closed form.
fn closed_form() -> Expr {
    v("N") * Expr::max(vec![v("P") * v("tau_s"), v("tau_l") + v("tau_s")])
}

/// A three-term max plus a sum: `max(P*tau_s, tau_l + tau_s, N/P*tau_c) + N*tau_s + (P - 1)*tau_b`.
fn three_term() -> Expr {
    Expr::Add(vec![
        Expr::max(vec![
            v("P") * v("tau_s"),
            v("tau_l") + v("tau_s"),
            Expr::Mul(vec![v("N"), Expr::Pow(Box::new(v("P")), -1), v("tau_c")]),
        ]),
        v("N") * v("tau_s"),
        (v("P") - Expr::int(1)) * v("tau_b"),
    ])
}

const SLOTS: [&str; 6] = ["N", "P", "tau_s", "tau_l", "tau_c", "tau_b"];
const VALS: [f64; 6] = [1000.0, 16.0, 0.5, 2.0, 0.25, 0.125];

fn float_env() -> BTreeMap<Name, f64> {
    SLOTS
        .iter()
        .zip(VALS)
        .map(|(n, x)| (Name::from(*n), x))
        .collect()
}

fn exact_env() -> BTreeMap<Name, Rational> {
    SLOTS
        .iter()
        .zip(VALS)
        .map(|(n, x)| (Name::from(*n), Rational::from_float(x).unwrap()))
        .collect()
}

fn closed_forms(c: &mut Criterion) {
    let slots = names(&SLOTS);
    let limits = EvalLimits::default();
    let fenv = float_env();
    let xenv = exact_env();
    let mut g = c.benchmark_group("closed_form");
    for (label, e) in [("n_max", closed_form()), ("three_term", three_term())] {
        let compiled = Compiled::new(&e, &slots).unwrap();
        g.bench_with_input(BenchmarkId::new("compiled", label), &VALS, |b, vals| {
            b.iter(|| compiled.eval(black_box(vals)).unwrap())
        });
        let mut scratch = Scratch::new();
        g.bench_with_input(
            BenchmarkId::new("compiled_scratch", label),
            &VALS,
            |b, vals| b.iter(|| compiled.eval_with(black_box(vals), &mut scratch).unwrap()),
        );
        g.bench_function(BenchmarkId::new("tree_f64", label), |b| {
            b.iter(|| eval_f64(black_box(&e), &fenv, &limits).unwrap())
        });
        g.bench_function(BenchmarkId::new("tree_exact", label), |b| {
            b.iter(|| eval_exact(black_box(&e), &xenv, &limits).unwrap())
        });
        g.bench_function(BenchmarkId::new("compile", label), |b| {
            b.iter(|| Compiled::new(black_box(&e), &slots).unwrap())
        });
    }
    g.finish();
}

fn folds(c: &mut Criterion) {
    let slots = names(&["N", "t"]);
    let limits = EvalLimits::default();
    // sum(i = 1..N, i*t) and max(p = 0..N - 1, (p mod 7)*t) at N = 1000.
    let sum = Expr::sum_over("i", Expr::int(1), v("N"), v("i") * v("t"));
    let max = Expr::max_over(
        "p",
        Expr::int(0),
        v("N") - Expr::int(1),
        Expr::Mul(vec![
            Expr::Mod(Box::new(v("p")), Box::new(Expr::int(7))),
            v("t"),
        ]),
    );
    let fenv: BTreeMap<Name, f64> = [(Name::from("N"), 1000.0), (Name::from("t"), 0.5)].into();
    let mut g = c.benchmark_group("fold_1000");
    g.throughput(Throughput::Elements(1000));
    for (label, e) in [("sum", sum), ("max_mod", max)] {
        let compiled = Compiled::new(&e, &slots).unwrap();
        g.bench_function(BenchmarkId::new("compiled", label), |b| {
            b.iter(|| compiled.eval(black_box(&[1000.0, 0.5])).unwrap())
        });
        g.bench_function(BenchmarkId::new("tree_f64", label), |b| {
            b.iter(|| eval_f64(black_box(&e), &fenv, &limits).unwrap())
        });
    }
    g.finish();
}

fn sweep(c: &mut Criterion) {
    let slots = names(&SLOTS);
    let compiled = Compiled::new(&closed_form(), &slots).unwrap();
    let limits = EvalLimits::default();
    let e = closed_form();
    let mut g = c.benchmark_group("sweep_1e6_points");
    g.sample_size(10);
    g.throughput(Throughput::Elements(1_000_000));
    g.bench_function("compiled", |b| {
        b.iter(|| {
            let mut vals = VALS;
            let mut total = 0.0;
            for p in 1..=1_000_000u32 {
                vals[1] = f64::from(p);
                total += compiled.eval(black_box(&vals)).unwrap();
            }
            total
        })
    });
    g.bench_function("tree_f64", |b| {
        b.iter(|| {
            let mut env = float_env();
            let p_name = Name::from("P");
            let mut total = 0.0;
            for p in 1..=1_000_000u32 {
                env.insert(p_name.clone(), f64::from(p));
                total += eval_f64(black_box(&e), &env, &limits).unwrap();
            }
            total
        })
    });
    g.finish();
}

/// The benchmark group (in a private module: `criterion_group!` makes an undocumented
/// public function).
mod group {
    use super::*;

    criterion_group! {
        name = benches;
        config = Criterion::default()
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        targets = closed_forms, folds, sweep
    }
}
criterion_main!(group::benches);
