//! The golden cases of spec §5.8: the Fig. 1 DAG, DAG Recorder's sample stats file, the
//! sweep cases (a)–(c) and the Cilkview bound; and the statistics of real recordings.

use taskpar::dag::tree::{Child, EndKind, Item, Section, Strand, Task};
use taskpar::dag::{self, Graph, Limits};
use taskpar::stats::{cilkview_bound, critical_paths, Stats, StatsOptions};

fn s(start: u64, end: u64, worker: u32, kind: EndKind) -> Strand {
    Strand {
        start,
        end,
        worker,
        kind,
    }
}

fn task(items: Vec<Item>) -> Child {
    Child::Task(Box::new(Task { items }))
}

fn section(items: Vec<Item>) -> Item {
    Item::Section(Box::new(Section { scope: 0, items }))
}

fn create(strand: Strand, child: Child) -> Item {
    Item::Create {
        strand,
        target: 0,
        child,
    }
}

fn stats(root: &Child, workers: u32) -> Stats {
    let g = Graph::from_root(root);
    Stats::of(&g, workers, g.nodes.len() as u64, &StatsOptions::default())
}

/// Fig. 1 of the paper (spec §5.8 case 1): strands 1..9 of unit time, 2 spawns; strand `k`
/// starts at time 10·k so the nodes can be named.
fn fig1() -> Child {
    use EndKind::*;
    let u = |k: u64, kind| s(10 * k, 10 * k + 1, 0, kind);
    task(vec![
        Item::Strand(u(1, Other)),
        section(vec![
            create(
                u(2, Create),
                task(vec![Item::Strand(u(7, Other)), Item::Strand(u(8, End))]),
            ),
            section(vec![
                create(u(3, Create), task(vec![Item::Strand(u(5, End))])),
                Item::Strand(u(4, Wait)),
            ]),
            Item::Strand(u(6, Wait)),
        ]),
        Item::Strand(u(9, End)),
    ])
}

#[test]
fn fig1_work_9_span_6_and_both_critical_paths() {
    let g = Graph::from_root(&fig1());
    let st = Stats::of(&g, 1, 9, &StatsOptions::default());
    assert_eq!(st.work, 9);
    assert_eq!(st.span, 6);
    assert_eq!(st.parallelism(), 1.5);
    assert_eq!((st.create_task, st.wait_tasks, st.end_task), (2, 2, 3));
    let name = |v: u32| g.nodes[v as usize].start / 10;
    let mut paths: Vec<Vec<u64>> = critical_paths(&g, 10)
        .iter()
        .map(|p| p.iter().map(|&v| name(v)).collect())
        .collect();
    paths.sort();
    assert_eq!(paths, vec![vec![1, 2, 3, 4, 6, 9], vec![1, 2, 3, 5, 6, 9]]);
    // The edges of the figure: 2 → 7 (spawn), 3 → 5 (spawn), 4 → 6, 5 → 6, 8 → 9.
    let edges: Vec<(u64, u64)> = (0..g.nodes.len())
        .flat_map(|v| g.preds(v).iter().map(move |&(u, _)| (u, v as u32)))
        .map(|(u, v)| (name(u), name(v)))
        .collect();
    for e in [
        (1, 2),
        (2, 3),
        (2, 7),
        (3, 4),
        (3, 5),
        (4, 6),
        (5, 6),
        (6, 9),
        (7, 8),
        (8, 9),
    ] {
        assert!(edges.contains(&e), "edge {e:?} missing from {edges:?}");
    }
    assert_eq!(edges.len(), 10);
}

#[test]
fn dag_recorder_sample_stats_file() {
    // docs/texinfo/examples/00dr.stat of MassiveThreads (spec §5.8 case 2).
    let st = Stats {
        workers: 4,
        create_task: 1048575,
        wait_tasks: 1048575,
        end_task: 1048576,
        intervals: 3145726,
        work: 1313026836,
        delay: 9031849743,
        inner_delay: 0,
        no_work: 11285973,
        span: 91285263,
        burdened_span: 0,
        burden: 0.0,
        elapsed: 2589040638,
        cum_running: 10068352000,
        materialized: 351,
        edges: Vec::new(),
        profile: Vec::new(),
    };
    assert_eq!(st.identity_gap(), 0);
    assert_eq!(st.work + st.delay + st.no_work, 10356162552);
    let expected = "\
create_task           = 1048575
wait_tasks            = 1048575
end_task              = 1048576
work (T1)             = 1313026836
delay                 = 9031849743
no_work               = 11285973
critical_path (T_inf) = 91285263
n_workers (P)         = 4
elapsed               = 2589040638
T1/P                  = 328256709.000
T1/P+T_inf            = 419541972.000
T1/T_inf              = 14.384
greedy speedup        = 3.130
observed speedup      = 0.507
observed/greedy       = 0.162
task granularity      = 9601.938
interval granularity  = 3200.645
dag nodes             = 5242877
materialized nodes    = 351
compression ratio     = 0.000067
";
    assert_eq!(st.stat_text(), expected);
    // Eq. 9: time = (T1 + delay + no_work) / P.
    assert_eq!((st.work + st.delay + st.no_work) / 4, st.elapsed);
}

#[test]
fn sweep_a_one_strand_on_two_workers_is_half_no_work() {
    let st = stats(&task(vec![Item::Strand(s(0, 10, 0, EndKind::End))]), 2);
    assert_eq!((st.work, st.delay, st.no_work, st.elapsed), (10, 0, 10, 10));
    assert_eq!(st.identity_gap(), 0);
}

#[test]
fn sweep_b_a_ready_task_waiting_for_a_free_worker_is_delay() {
    use EndKind::*;
    // A and B ready at 0; A runs 0–10 on w0, B 5–10 on w1.
    let root = task(vec![
        section(vec![
            create(
                s(0, 0, 0, Create),
                task(vec![Item::Strand(s(5, 10, 1, End))]),
            ),
            Item::Strand(s(0, 10, 0, Wait)),
        ]),
        Item::Strand(s(10, 10, 0, End)),
    ]);
    let st = stats(&root, 2);
    assert_eq!((st.work, st.delay, st.no_work, st.elapsed), (15, 5, 0, 10));
    assert_eq!(st.identity_gap(), 0);
}

#[test]
fn sweep_c_a_gap_before_the_child_starts_is_delay_not_no_work() {
    use EndKind::*;
    // P = 1: create 0–2, the parent's strand 2–3 waits, the child runs 5–8, then 8–9.
    let root = task(vec![
        section(vec![
            create(
                s(0, 2, 0, Create),
                task(vec![Item::Strand(s(5, 8, 0, End))]),
            ),
            Item::Strand(s(2, 3, 0, Wait)),
        ]),
        Item::Strand(s(8, 9, 0, End)),
    ]);
    let st = stats(&root, 1);
    assert_eq!((st.work, st.delay, st.no_work, st.elapsed), (7, 2, 0, 9));
    assert_eq!(st.identity_gap(), 0);
}

#[test]
fn cilkview_bound_of_the_spec() {
    // T1 = 1e9, burdened span 1e6, P = 8: T_P ≤ 1e9/8 + 1.7e6 = 1.267e8.
    assert_eq!(cilkview_bound(1e9, 1e6, 8), 1.267e8);
}

#[test]
fn the_burdened_span_adds_the_burden_on_continuation_and_return_edges() {
    let g = Graph::from_root(&fig1());
    let opts = StatsOptions {
        burden: 100.0,
        ..StatsOptions::default()
    };
    let st = Stats::of(&g, 1, 9, &opts);
    // 1,2,3,5,6,9 crosses 2's continuation, 3's spawn and 5's return: two burdens;
    // 1,2,3,4,6,9 crosses two continuations (2→3, 3→4).
    assert_eq!(st.burdened_span, 6 + 200);
}

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = taskrec::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

#[test]
fn recorded_runs_satisfy_the_identity_and_count_every_join() {
    for collapse in [true, false] {
        let (v, dag) = taskrec::record_with(taskrec::Options { collapse }, || fib(18));
        assert_eq!(v, 2584);
        let bytes = taskrec::encode(&dag, &taskrec::Meta::default());
        let rec = dag::read(&bytes, &Limits::default()).expect("reads back");
        let st = Stats::of(
            &rec.graph(),
            rec.header.workers,
            rec.nodes,
            &StatsOptions::default(),
        );
        // fib(18) joins once per call with n ≥ 2: fib(19) − 1 times.
        assert_eq!(
            (st.create_task, st.wait_tasks, st.end_task),
            (4180, 4180, 4181)
        );
        assert_eq!(st.identity_gap(), 0, "{}", st.stat_text());
        assert!(st.span <= st.work && st.work <= st.cum_running);
        if !collapse {
            assert_eq!(rec.nodes as usize, rec.graph().nodes.len() + 4181 + 4180);
        }
    }
}
