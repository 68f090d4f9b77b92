#![allow(missing_docs)] // criterion_group! generates undocumented items
//! Speed of the symbolic bound: parse to closed form for every example model, evaluation of
//! a closed form, and a 10^6-point sweep of the machine-repair model.
//!
//! Run with `cargo bench -p pamela --bench bound`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use expr::compile::Compiled;
use expr::Name;
use std::path::PathBuf;

fn examples() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/pamela");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("examples/pamela")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pam"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect();
    out.sort();
    out
}

fn parse_to_closed_form(c: &mut Criterion) {
    let mut g = c.benchmark_group("bound/parse_to_closed_form");
    for (name, text) in examples() {
        g.bench_function(&name, |b| {
            b.iter(|| {
                let m = pamela::parse(&name, black_box(&text)).expect("parses");
                let root = pamela::check::root(&m, None).expect("root");
                pamela::bound::bound(&m, root).expect("bound")
            })
        });
    }
    g.finish();
}

fn mrm_closed_form() -> (Compiled, Vec<Name>) {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/pamela/mrm.pam"),
    )
    .expect("mrm.pam");
    let m = pamela::parse("mrm.pam", &text).expect("parses");
    let root = pamela::check::root(&m, None).expect("root");
    let r = pamela::bound::bound(&m, root).expect("bound");
    assert!(r.is_closed_form());
    let slots: Vec<Name> = ["N", "P", "tau_l", "tau_s"]
        .iter()
        .map(|s| Name::from(*s))
        .collect();
    (Compiled::new(&r.tl, &slots).expect("compiles"), slots)
}

fn evaluate_closed_form(c: &mut Criterion) {
    let (f, _) = mrm_closed_form();
    c.bench_function("bound/eval_mrm_point", |b| {
        b.iter(|| f.eval(black_box(&[1000.0, 64.0, 3.0, 1.0])).unwrap())
    });
}

fn sweep_million(c: &mut Criterion) {
    let (f, _) = mrm_closed_form();
    let mut g = c.benchmark_group("bound/sweep");
    g.sample_size(10);
    g.bench_function("mrm_1e6_points", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for p in 1..=1_000_000u32 {
                acc += f.eval(&[1000.0, p as f64, 3.0, 1.0]).unwrap();
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    parse_to_closed_form,
    evaluate_closed_form,
    sweep_million
);
criterion_main!(benches);
