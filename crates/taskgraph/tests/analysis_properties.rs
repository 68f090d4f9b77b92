//! Spec §8.2 property tests of the analysis on generated graphs of every kind: Graham's
//! bounds, P = 1 gives the work, P >= the maximum parallelism gives the critical path, every
//! task completes once after its predecessors, zero request rates equal the basic model, and
//! results are bit-exact across runs.

use proptest::prelude::*;
use taskgraph::analysis::analyze_graph;
use taskgraph::analysis::policy::PolicyKind;
use taskgraph::analysis::system::{ConstantLatency, NoOverhead};
use taskgraph::gen::{generate, GenKind, GenOptions, TimeDist};

fn kind(k: u8) -> GenKind {
    match k % 4 {
        0 => GenKind::Layered,
        1 => GenKind::ForkJoin,
        2 => GenKind::Wavefront,
        _ => GenKind::SeriesParallel,
    }
}

const POLICIES: [PolicyKind; 4] = [
    PolicyKind::Fifo,
    PolicyKind::Lifo,
    PolicyKind::Lpt,
    PolicyKind::Cp,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn schedule_invariants(k in 0u8..4, tasks in 2usize..120, width in 1usize..8,
                           seed in any::<u64>(), p in 2usize..9, pol in 0usize..4) {
        let g = generate(kind(k), &GenOptions {
            tasks, width, degree: 2.0, time: TimeDist::Uniform(1.0, 9.0), seed,
            ..GenOptions::default()
        }).unwrap();
        let policy = POLICIES[pol];
        let work = g.work();
        let span = g.span();
        let one = analyze_graph(&g, 1, policy, &mut NoOverhead).unwrap();
        prop_assert!((one.makespan - work).abs() <= 1e-9 * work.max(1.0), "P=1: {} vs work {work}", one.makespan);
        let wide = analyze_graph(&g, g.len(), policy, &mut NoOverhead).unwrap();
        prop_assert!((wide.makespan - span).abs() <= 1e-9 * span.max(1.0), "P>=N: {} vs span {span}", wide.makespan);
        let s = analyze_graph(&g, p, policy, &mut NoOverhead).unwrap();
        let lower = (work / p as f64).max(span);
        prop_assert!(s.makespan >= lower - 1e-9 * lower.max(1.0), "{} < {lower}", s.makespan);
        prop_assert!(s.makespan <= work / p as f64 + span + 1e-9 * work.max(1.0), "Graham's upper bound");
        prop_assert!(s.steps <= g.len());
        for t in 0..g.len() as u32 {
            let r = s.runs[t as usize];
            prop_assert!(r.end.is_finite() && (r.end - r.start - g.time(t)).abs() < 1e-9);
            for &c in g.succs(t) {
                prop_assert!(s.runs[c as usize].start >= r.end - 1e-9);
            }
        }
        let ran: u32 = s.procs.iter().map(|q| q.tasks).sum();
        prop_assert_eq!(ran as usize, g.len());
        prop_assert_eq!(&s, &analyze_graph(&g, p, policy, &mut NoOverhead).unwrap());
        // The generated graphs have no request rates: any latency model adds nothing.
        let full = analyze_graph(&g, p, policy, &mut ConstantLatency(5.0)).unwrap();
        prop_assert!((full.makespan - s.makespan).abs() <= 1e-9 * s.makespan.max(1.0));
    }
}
