#![allow(missing_docs)] // criterion_group! generates undocumented items
//! Speed of the deterministic task graph analysis and of reading graphs, on a generated
//! layered DAG of 10^6 tasks (about 4·10^6 edges):
//!
//! - `analysis/…`: the analysis on 64 processes with the FIFO policy, the basic model and an
//!   MVA bus model (graph generation is outside the timed part);
//! - `read/…`: the graph written as task-graph JSON and as DOT, read back (the text is in
//!   memory; the file read is outside the timed part);
//! - `whole/…`: what `vates graph analyze g.json --procs 64` (and `g.dot`) does in process: read, analyse
//!   at P = 64 and at P = 1 (on two threads, as the command does), critical path, summary.
//!
//! Run with `cargo bench -p taskgraph`. For the process itself: `vates graph gen layered
//! --tasks 1000000 --width 1000 --degree 4 --time uniform:1,10 --seed 1 -o g.json` and
//! `/usr/bin/time vates graph analyze g.json --procs 64`.

use criterion::{criterion_group, criterion_main, Criterion};
use taskgraph::analysis::engine::analyze;
use taskgraph::analysis::policy::PolicyKind;
use taskgraph::analysis::report;
use taskgraph::analysis::system::{MvaModel, NoOverhead, SystemSpec};
use taskgraph::analysis::UniformRate;
use taskgraph::gen::{layered, GenOptions, TimeDist};
use taskgraph::{dot, json, Limits, TaskGraph};

const BUS: &str = "
[[center]]
name = \"bus\"
kind = \"queueing\"
service = 0.003
[[center]]
name = \"memory\"
kind = \"delay\"
service = 0.005
";

/// The layered DAG of 10^6 tasks every benchmark here uses.
fn graph() -> TaskGraph {
    layered(&GenOptions {
        tasks: 1_000_000,
        width: 1000,
        degree: 4.0,
        time: TimeDist::Uniform(1.0, 10.0),
        seed: 1,
        ..GenOptions::default()
    })
    .expect("generates")
}

fn large(c: &mut Criterion) {
    let g = graph();
    assert!(g.edge_count() > 3_900_000);
    let mut group = c.benchmark_group("analysis/layered_1e6_tasks_p64_fifo");
    group.sample_size(10);
    group.bench_function("basic", |b| {
        b.iter(|| {
            let mut pol = PolicyKind::Fifo.build();
            analyze(&g, 64, pol.as_mut(), &mut NoOverhead, &Default::default())
                .expect("analyses")
                .makespan
        })
    });
    let view = UniformRate {
        graph: &g,
        rate: 20.0,
    };
    group.bench_function("mva_bus", |b| {
        b.iter(|| {
            let mut pol = PolicyKind::Fifo.build();
            let mut mva = MvaModel::new(SystemSpec::parse(BUS).expect("valid"));
            analyze(&view, 64, pol.as_mut(), &mut mva, &Default::default())
                .expect("analyses")
                .makespan
        })
    });
    group.finish();
}

/// What `graph analyze` computes after reading.
fn analyse(g: &TaskGraph) -> f64 {
    let run = |p| {
        let mut pol = PolicyKind::Fifo.build();
        analyze(g, p, pol.as_mut(), &mut NoOverhead, &Default::default()).expect("analyses")
    };
    let (s, s1) = rayon::join(|| run(64), || run(1));
    let cp = g.critical_path();
    let summary = report::summarize(g, &s, cp.length);
    summary.makespan + s1.makespan
}

fn read(c: &mut Criterion) {
    let g = graph();
    let json_text = json::write_json(&g);
    let dot_text = dot::write_dot(&g);
    let limits = Limits::default();
    let dot_opts = dot::DotOptions::default();
    let mut group = c.benchmark_group("read/layered_1e6_tasks");
    group.sample_size(10);
    group.bench_function("json", |b| {
        b.iter(|| json::read_json_with(&json_text, "g.json", &limits).expect("reads"))
    });
    group.bench_function("dot", |b| {
        b.iter(|| dot::read_dot_with(&dot_text, "g.dot", &dot_opts).expect("reads"))
    });
    group.finish();
    let mut group = c.benchmark_group("whole/layered_1e6_tasks_p64");
    group.sample_size(10);
    group.bench_function("json", |b| {
        b.iter(|| {
            let g = json::read_json_with(&json_text, "g.json", &limits).expect("reads");
            analyse(&g)
        })
    });
    group.bench_function("dot", |b| {
        b.iter(|| {
            let g = dot::read_dot_with(&dot_text, "g.dot", &dot_opts).expect("reads");
            analyse(&g)
        })
    });
    group.finish();
}

criterion_group!(benches, large, read);
criterion_main!(benches);
