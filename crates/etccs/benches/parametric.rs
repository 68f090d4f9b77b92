//! Parametric analysis time: the thesis's Example 7.2.5 (T7-12) and the
//! non-blocking scatter on a bus with symbolic send overhead and bandwidth.
#![allow(missing_docs)]

/// The allocator of the `vates` binary, so that the figures are the CLI's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{criterion_group, criterion_main, Criterion};
use etccs::parametric::{analyse_parametric, Options};
use etccs::parse::parse_with_consts;
use etccs::Time;

fn scatter_symbolic() -> String {
    let src = include_str!("../../../examples/etccs/scatter.etccs");
    let src = src
        .replace("const tsend = 100;", "param tsend;")
        .replace("const b = 1;", "param b;");
    assert!(src.contains("param tsend;") && src.contains("param b;"));
    src
}

fn bench(c: &mut Criterion) {
    let t7_12 = "define P12 = ((a,t1).nil | (a,t1).(b,t2).nil | (a',t3).nil)\\{a}\nanalyse P12";
    let scatter = scatter_symbolic();
    let cases: [(&str, &str, &str, i64); 4] = [
        ("t7_12", t7_12, "P12", 0),
        ("scatter_nb_bus_p2", &scatter, "NonBlockingBus", 2),
        ("scatter_nb_bus_p3", &scatter, "NonBlockingBus", 3),
        ("scatter_nb_bus_p4", &scatter, "NonBlockingBus", 4),
    ];
    let mut g = c.benchmark_group("parametric");
    g.sample_size(10);
    for (name, src, agent, p) in cases {
        let consts: Vec<(&str, Time)> = if p > 0 {
            vec![("p", Time::from_integer(p.into()))]
        } else {
            Vec::new()
        };
        let run = || {
            let mut m = parse_with_consts("bench.etccs", src, &consts).expect("parses");
            analyse_parametric(&mut m, agent, &Options::default()).expect("analyses")
        };
        let r = run();
        eprintln!("{name}: {} states, {} regions", r.states, r.regions.len());
        g.bench_function(name, |b| b.iter(run));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
