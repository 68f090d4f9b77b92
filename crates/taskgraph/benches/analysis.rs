#![allow(missing_docs)] // criterion_group! generates undocumented items
//! Speed of the deterministic task graph analysis on a generated layered DAG of 10^6 tasks
//! (about 4·10^6 edges) on 64 processes with the FIFO policy: the basic model, and an MVA bus
//! model. Graph generation is outside the timed part.
//!
//! Run with `cargo bench -p taskgraph --bench analysis`.

use criterion::{criterion_group, criterion_main, Criterion};
use taskgraph::analysis::engine::analyze;
use taskgraph::analysis::policy::PolicyKind;
use taskgraph::analysis::system::{MvaModel, NoOverhead, SystemSpec};
use taskgraph::analysis::UniformRate;
use taskgraph::gen::{layered, GenOptions, TimeDist};

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

fn large(c: &mut Criterion) {
    let g = layered(&GenOptions {
        tasks: 1_000_000,
        width: 1000,
        degree: 4.0,
        time: TimeDist::Uniform(1.0, 10.0),
        seed: 1,
        ..GenOptions::default()
    })
    .expect("generates");
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

criterion_group!(benches, large);
criterion_main!(benches);
