//! Speed of model search (issue 18 acceptance 4): 10^6 rows of one parameter read from CSV,
//! merged into repetitions, fitted and selected; 1000 callpaths of a one-parameter
//! experiment (six points, five repetitions each) modelled with bootstrap intervals.
//! `cargo bench -p fit --bench modelers`.
#![allow(missing_docs)] // criterion's macros define undocumented items

use criterion::{criterion_group, criterion_main, Criterion};
use fit::read::csv::{read, CsvOptions};
use fit::read::{Experiment, Series};
use fit::run::{model_experiment, Modeler, RunOptions};
use fit::Measurement;
use stats::rng::Draw;

/// A deterministic pseudo-random factor around 1 (±5%).
fn jitter(i: u64) -> f64 {
    1.0 + 0.1 * (stats::rng::seeded(i).uniform() - 0.5)
}

/// 10^6 rows `p,time`: p = 2, 4, …, 2^20, 50,000 runs each, time = 3 + 0.5·p·log2(p).
fn csv_rows() -> String {
    let mut s = String::from("p,time\n");
    for i in 0..1_000_000u64 {
        let p = 2f64.powi((i % 20) as i32 + 1);
        let t = (3.0 + 0.5 * p * p.log2()) * jitter(i);
        s.push_str(&format!("{p},{t}\n"));
    }
    s
}

/// 1000 callpaths, each measured at p = 2..64 with five repetitions, each a different
/// one-term model.
fn callpaths() -> Experiment {
    let series = (0..1000u64)
        .map(|c| {
            let e = 0.25 * (1 + c % 12) as f64;
            let measurements = (1..=6)
                .map(|k| {
                    let p = 2f64.powi(k);
                    let values = (0..5)
                        .map(|r| (10.0 + 2.0 * p.powf(e)) * jitter(c * 100 + k as u64 * 10 + r))
                        .collect();
                    Measurement::one(p, values)
                })
                .collect();
            Series {
                callpath: format!("main->f{c}"),
                metric: "time".into(),
                measurements,
            }
        })
        .collect();
    Experiment {
        parameters: vec!["p".into()],
        series,
    }
}

fn benches(c: &mut Criterion) {
    let text = csv_rows();
    let mut g = c.benchmark_group("fit");
    g.sample_size(10);
    let e = callpaths();
    for modeler in [Modeler::Vates, Modeler::Extrap] {
        let with = RunOptions {
            modeler,
            ..RunOptions::default()
        };
        g.bench_function(
            format!("csv_1e6_rows_{}", diag::Choice::name(modeler)),
            |b| {
                b.iter(|| {
                    let e = read("rows.csv", &text, &CsvOptions::default()).unwrap();
                    assert!(model_experiment(&e, &with)[0].is_ok());
                })
            },
        );
        let bare = RunOptions {
            bootstrap: 0,
            ..with.clone()
        };
        for (suffix, opts) in [("", &with), ("_no_intervals", &bare)] {
            g.bench_function(
                format!("callpaths_1000_{}{suffix}", diag::Choice::name(modeler)),
                |b| b.iter(|| assert_eq!(model_experiment(&e, opts).len(), 1000)),
            );
        }
    }
    g.finish();
}

criterion_group!(modelers, benches);
criterion_main!(modelers);
