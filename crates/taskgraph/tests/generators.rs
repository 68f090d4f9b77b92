//! Generators: exact sizes, reproducibility, shapes, series-parallel structure; and
//! JSON/DOT round trips of generated graphs.

use std::collections::BTreeSet;

use proptest::prelude::*;
use taskgraph::dot::{read_dot, write_dot};
use taskgraph::gen::{self, GenKind, GenOptions, TimeDist};
use taskgraph::{read_json, write_json, TaskGraph};

const KINDS: [GenKind; 4] = [
    GenKind::Layered,
    GenKind::ForkJoin,
    GenKind::Wavefront,
    GenKind::SeriesParallel,
];

fn opts(tasks: usize, width: usize, degree: f64, time: &str, seed: u64) -> GenOptions {
    GenOptions {
        tasks,
        width,
        degree,
        time: time.parse().unwrap(),
        seed,
        ..Default::default()
    }
}

/// Reduces a DAG by series and parallel reductions (Hartleb & Mertsiotakis, spec §2);
/// true if it reduces to one vertex.
fn is_series_parallel(g: &TaskGraph) -> bool {
    let n = g.len();
    let mut alive = vec![true; n];
    let mut preds: Vec<BTreeSet<u32>> = (0..n as u32)
        .map(|i| g.preds(i).iter().copied().collect())
        .collect();
    let mut succs: Vec<BTreeSet<u32>> = (0..n as u32)
        .map(|i| g.succs(i).iter().copied().collect())
        .collect();
    let mut left = n;
    loop {
        let mut changed = false;
        // Series: v's only child is u and u's only parent is v: merge u into v.
        for v in 0..n {
            if !alive[v] || succs[v].len() != 1 {
                continue;
            }
            let u = *succs[v].iter().next().unwrap() as usize;
            if preds[u].len() != 1 {
                continue;
            }
            let us = std::mem::take(&mut succs[u]);
            for &c in &us {
                preds[c as usize].remove(&(u as u32));
                preds[c as usize].insert(v as u32);
            }
            succs[v] = us;
            alive[u] = false;
            left -= 1;
            changed = true;
        }
        // Parallel: same parents and same children: drop one.
        for v in 0..n {
            if !alive[v] {
                continue;
            }
            for u in v + 1..n {
                if alive[u] && preds[u] == preds[v] && succs[u] == succs[v] {
                    for &p in &preds[u].clone() {
                        succs[p as usize].remove(&(u as u32));
                    }
                    for &c in &succs[u].clone() {
                        preds[c as usize].remove(&(u as u32));
                    }
                    alive[u] = false;
                    left -= 1;
                    changed = true;
                }
            }
        }
        if left <= 1 {
            return true;
        }
        if !changed {
            return false;
        }
    }
}

#[test]
fn exact_task_counts_and_acyclic() {
    for kind in KINDS {
        for n in [0usize, 1, 2, 3, 7, 10, 101, 1000] {
            for w in [1usize, 2, 5, 16] {
                let g = gen::generate(kind, &opts(n, w, 2.5, "uniform:1,10", 9)).unwrap();
                assert_eq!(g.len(), n, "{kind:?} n={n} w={w}");
                assert_eq!(g.topo_order().len(), n);
                assert!(g.times().iter().all(|&t| (1.0..=10.0).contains(&t)));
                // Ids t0.. follow a topological order.
                for i in 0..n as u32 {
                    assert_eq!(g.id(i), format!("t{i}"));
                    assert!(g.preds(i).iter().all(|&p| p < i), "{kind:?}");
                }
            }
        }
    }
}

#[test]
fn same_seed_same_graph_other_seed_other_graph() {
    for kind in KINDS {
        let a = gen::generate(kind, &opts(500, 8, 3.0, "exp:5", 42)).unwrap();
        let b = gen::generate(kind, &opts(500, 8, 3.0, "exp:5", 42)).unwrap();
        assert_eq!(a, b);
        assert_eq!(write_json(&a), write_json(&b));
        let c = gen::generate(kind, &opts(500, 8, 3.0, "exp:5", 43)).unwrap();
        assert_ne!(a.times(), c.times(), "{kind:?}");
        // The structure does not depend on the time distribution.
        let d = gen::generate(kind, &opts(500, 8, 3.0, "const:1", 42)).unwrap();
        let edges = |g: &TaskGraph| -> Vec<Vec<u32>> {
            (0..g.len() as u32).map(|i| g.preds(i).to_vec()).collect()
        };
        assert_eq!(edges(&a), edges(&d), "{kind:?}");
    }
    let a = gen::layered(&opts(500, 8, 3.0, "const:1", 1)).unwrap();
    let c = gen::layered(&opts(500, 8, 3.0, "const:1", 2)).unwrap();
    assert_ne!(a, c);
    let a = gen::sp(&opts(500, 8, 3.0, "const:1", 1)).unwrap();
    let c = gen::sp(&opts(500, 8, 3.0, "const:1", 2)).unwrap();
    assert_ne!(a, c);
}

#[test]
fn layered_shape_and_degree() {
    let g = gen::layered(&opts(10_000, 100, 4.0, "const:1", 5)).unwrap();
    assert_eq!(g.level_widths(), vec![100; 100]);
    assert_eq!(g.edge_count(), 9_900 * 4);
    assert_eq!(g.span(), 100.0);
    assert_eq!(g.work(), 10_000.0);
    assert_eq!(g.average_parallelism(), 100.0);
    // Fractional degree: mean close to D.
    let g = gen::layered(&opts(20_000, 50, 2.3, "const:1", 5)).unwrap();
    let mean = g.edge_count() as f64 / (20_000 - 50) as f64;
    assert!((mean - 2.3).abs() < 0.02, "{mean}");
    // Degree above the width: every task depends on the whole previous layer.
    let g = gen::layered(&opts(30, 3, 10.0, "const:1", 5)).unwrap();
    assert_eq!(g.edge_count(), 27 * 3);
    // Degree 0 still links each layer to the previous one.
    let g = gen::layered(&opts(30, 3, 0.0, "const:1", 5)).unwrap();
    assert_eq!(g.edge_count(), 27);
    assert_eq!(g.span(), 10.0);
}

#[test]
fn layered_large_is_linear() {
    // 10^5 tasks, about 4·10^5 edges (the 10^6 case is the same code, 10x larger).
    let g = gen::layered(&opts(100_000, 316, 4.0, "uniform:1,10", 1)).unwrap();
    assert_eq!(g.len(), 100_000);
    assert_eq!(g.edge_count(), (100_000 - 316) * 4);
    assert_eq!(g.level_widths().len(), 100_000usize.div_ceil(316));
}

#[test]
fn forkjoin_and_wavefront_shapes() {
    let g = gen::forkjoin(&opts(1 + 3 * 11, 10, 0.0, "const:2", 0)).unwrap();
    assert_eq!(g.level_widths(), vec![1, 10, 1, 10, 1, 10, 1]);
    assert_eq!(g.span(), 14.0);
    assert_eq!(g.work(), 68.0);
    assert!(is_series_parallel(&g));
    let g = gen::wavefront(&opts(100, 10, 0.0, "const:1", 0)).unwrap();
    assert_eq!(g.span(), 19.0);
    assert_eq!(g.max_level_width(), 10);
    assert_eq!(g.edge_count(), 2 * 10 * 9);
    assert!(!is_series_parallel(&g));
}

#[test]
fn sp_graphs_are_series_parallel() {
    for seed in 0..20 {
        let g = gen::sp(&opts(150, 4, 0.0, "const:1", seed)).unwrap();
        assert_eq!(g.len(), 150);
        assert!(g.edge_count() < 2 * 150);
        assert_eq!(g.roots().len(), 1);
        assert_eq!(g.sinks().len(), 1);
        assert!(is_series_parallel(&g), "seed {seed}");
    }
    // A layered graph with crossing edges is not.
    let g = gen::layered(&opts(40, 4, 2.0, "const:1", 1)).unwrap();
    assert!(!is_series_parallel(&g));
}

#[test]
fn time_distribution_parsing_in_options() {
    let o = opts(10, 2, 1.0, "uniform:3,3", 0);
    assert_eq!(o.time, TimeDist::Uniform(3.0, 3.0));
    let g = gen::wavefront(&o).unwrap();
    assert_eq!(g.work(), 30.0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn json_and_dot_round_trips(kind in 0usize..4, n in 0usize..120, w in 1usize..12,
                                deg in 0.0f64..5.0, seed in any::<u64>()) {
        let g = gen::generate(KINDS[kind], &opts(n, w, deg, "exp:3", seed)).unwrap();
        let j = write_json(&g);
        let gj = read_json(&j).unwrap();
        prop_assert_eq!(&gj, &g);
        prop_assert_eq!(write_json(&gj), j);
        let d = write_dot(&g);
        let gd = read_dot(&d).unwrap();
        prop_assert_eq!(&gd, &g);
        prop_assert_eq!(write_dot(&gd), d);
        // Graham-style sanity: span <= work, average parallelism <= N.
        prop_assert!(g.span() <= g.work() + 1e-9);
        prop_assert!(g.average_parallelism() <= n as f64 + 1e-9);
        // Bottom levels of roots reach the span; top levels of sinks too.
        let bl = g.bottom_levels();
        let best = g.roots().iter().map(|&r| bl[r as usize]).fold(0.0, f64::max);
        // (summed in the other direction, so equal up to rounding)
        prop_assert!((best - g.span()).abs() <= 1e-12 * g.span().max(1.0));
        let cp = g.critical_path();
        prop_assert_eq!(cp.length, g.span());
    }
}

/// The size: 10^6 tasks, about 4·10^6 edges. Ignored in debug runs (slow without
/// optimisation); run with `cargo test --release -p taskgraph -- --ignored`.
#[test]
#[ignore]
fn layered_million() {
    let t = std::time::Instant::now();
    let g = gen::layered(&opts(1_000_000, 1000, 4.0, "uniform:1,10", 1)).unwrap();
    let built = t.elapsed();
    assert_eq!(g.len(), 1_000_000);
    assert_eq!(g.edge_count(), 999_000 * 4);
    assert_eq!(g.level_widths(), vec![1000; 1000]);
    let cp = g.critical_path();
    assert_eq!(cp.tasks.len(), 1000);
    eprintln!(
        "layered 10^6 built in {built:?}, analysed in {:?}",
        t.elapsed() - built
    );
    let t = std::time::Instant::now();
    let j = write_json(&g);
    let w = t.elapsed();
    let back = read_json(&j).unwrap();
    eprintln!(
        "JSON ({} MB) written in {w:?}, read in {:?}",
        j.len() >> 20,
        t.elapsed() - w
    );
    assert_eq!(back, g);
}

/// Reading a 10^6-task JSON file (profiling aid; ignored in debug runs).
#[test]
#[ignore]
fn json_read_million() {
    let g = gen::layered(&opts(1_000_000, 1000, 4.0, "uniform:1,10", 1)).unwrap();
    let j = write_json(&g);
    let t = std::time::Instant::now();
    let back = read_json(&j).unwrap();
    eprintln!("JSON read in {:?}", t.elapsed());
    assert_eq!(back.edge_count(), g.edge_count());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Odd ids (quotes, backslashes, newlines, `->`, unicode), attributes and rates survive
    /// both formats.
    #[test]
    fn odd_ids_attrs_and_rates_round_trip(
        ids in proptest::collection::btree_set("[a-c\"\\\\ \n>é{}#/*-]{1,6}", 1..12),
        edges in proptest::collection::vec((any::<u16>(), any::<u16>()), 0..30),
        times in proptest::collection::vec(0.0f64..1e6, 12),
        prio in proptest::option::of(-5i64..5),
        rate in 0.0f64..1.0,
    ) {
        let ids: Vec<String> = ids.into_iter().collect();
        let n = ids.len();
        let mut b = taskgraph::TaskGraphBuilder::new();
        for (k, id) in ids.iter().enumerate() {
            b.task(id, times[k]);
        }
        for (a, c) in edges {
            let (a, c) = (a as usize % n, c as usize % n);
            if a < c {
                b.edge(a as u32, c as u32);
            }
        }
        b.rate(0, "bus \"x\"", rate);
        b.attrs(n as u32 - 1, taskgraph::TaskAttrs { priority: prio, proc: Some(1), ..Default::default() });
        let g = b.build().unwrap();
        let gj = read_json(&write_json(&g)).unwrap();
        prop_assert_eq!(&gj, &g);
        let gd = read_dot(&write_dot(&g)).unwrap();
        prop_assert_eq!(&gd, &g);
    }
}
