//! Replay of recorded DAGs through the task-graph engine (acceptance item 2's property): a
//! recording of a random fork-join program, replayed at P = 1, takes its work; with a
//! worker for every node, its span; at a few workers, between the work and span laws and
//! Graham's bound.

use proptest::prelude::*;
use taskgraph::analysis::policy::PolicyKind;
use taskgraph::analysis::setup::Setup;
use taskpar::dag::{self, Limits};
use taskpar::replay;
use taskpar::stats::{Stats, StatsOptions};

/// A random fork-join program: spin, a join of two programs, a scope of several, or a
/// sequence.
#[derive(Clone, Debug)]
enum Prog {
    Spin(u32),
    Join(Box<Prog>, Box<Prog>),
    Scope(Vec<Prog>),
    Seq(Vec<Prog>),
}

fn prog() -> impl Strategy<Value = Prog> {
    let leaf = (1u32..2000).prop_map(Prog::Spin);
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Prog::Join(Box::new(a), Box::new(b))),
            prop::collection::vec(inner.clone(), 1..4).prop_map(Prog::Scope),
            prop::collection::vec(inner, 1..3).prop_map(Prog::Seq),
        ]
    })
}

fn spin(k: u32) -> u64 {
    let mut x = u64::from(k);
    for i in 0..k {
        x = std::hint::black_box(stats::rng::mix(x ^ u64::from(i)));
    }
    x
}

fn exec(p: &Prog) -> u64 {
    match p {
        Prog::Spin(k) => spin(*k),
        Prog::Join(a, b) => {
            let (x, y) = taskrec::join(|| exec(a), || exec(b));
            x ^ y
        }
        Prog::Scope(ps) => taskrec::scope(|s| {
            for q in ps {
                s.spawn(move |_| {
                    exec(q);
                });
            }
            0
        }),
        Prog::Seq(ps) => ps.iter().map(exec).fold(0, |a, b| a ^ b),
    }
}

fn makespan(g: &taskgraph::TaskGraph, procs: usize) -> f64 {
    let setup = Setup {
        policy: PolicyKind::Fifo,
        system: None,
    };
    setup
        .analyze(g, procs, None)
        .expect("replays")
        .schedule
        .makespan
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn replay_at_one_worker_is_the_work_and_at_many_the_span(p in prog()) {
        let ((), dag) = taskrec::record_with(taskrec::Options { collapse: false }, || {
            exec(&p);
        });
        let bytes = taskrec::encode(&dag, &taskrec::Meta::default());
        let rec = dag::read(&bytes, &Limits::default()).expect("reads back");
        let g = rec.graph();
        let st = Stats::of(&g, rec.header.workers, rec.nodes, &StatsOptions::default());
        prop_assert_eq!(st.identity_gap(), 0);
        // Times in clock units (1 ns) as seconds of 1 each: sums stay exact integers.
        let tg = replay::task_graph(&g, 1.0).expect("a task graph");
        prop_assert_eq!(makespan(&tg, 1), st.work as f64);
        prop_assert_eq!(makespan(&tg, g.nodes.len()), st.span as f64);
        prop_assert_eq!(replay::collapsed_share(&g), 0.0);
    }

    /// At P = 2 and 3 the replay (a greedy list schedule: no worker idles while a task is
    /// ready) obeys the work and span laws and Graham's bound: max(T1/P, T∞) ≤ T_P ≤
    /// (T1 − T∞)/P + T∞.
    #[test]
    fn replay_at_p_obeys_the_work_and_span_laws_and_grahams_bound(p in prog()) {
        let ((), dag) = taskrec::record_with(taskrec::Options { collapse: false }, || {
            exec(&p);
        });
        let bytes = taskrec::encode(&dag, &taskrec::Meta::default());
        let rec = dag::read(&bytes, &Limits::default()).expect("reads back");
        let g = rec.graph();
        let st = Stats::of(&g, rec.header.workers, rec.nodes, &StatsOptions::default());
        let tg = replay::task_graph(&g, 1.0).expect("a task graph");
        let (work, span) = (st.work as f64, st.span as f64);
        for procs in [2usize, 3] {
            let t = makespan(&tg, procs);
            let lower = (work / procs as f64).max(span);
            let graham = (work - span) / procs as f64 + span;
            prop_assert!(t >= lower - 1e-6, "P = {}: {} < {}", procs, t, lower);
            prop_assert!(t <= graham + 1e-6, "P = {}: {} > {}", procs, t, graham);
        }
    }
}
