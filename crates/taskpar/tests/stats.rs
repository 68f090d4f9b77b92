//! The golden cases of spec §5.8: the Fig. 1 DAG, a stats file worked by hand, the sweep
//! cases (a)–(c) and the Cilkview bound; and the statistics of real recordings.

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

/// Sweep case (b): A and B ready at 0; A runs 0–10 on w0, B 5–10 on w1.
fn case_b() -> Child {
    use EndKind::*;
    task(vec![
        section(vec![
            create(
                s(0, 0, 0, Create),
                task(vec![Item::Strand(s(5, 10, 1, End))]),
            ),
            Item::Strand(s(0, 10, 0, Wait)),
        ]),
        Item::Strand(s(10, 10, 0, End)),
    ])
}

#[test]
fn stats_file_of_a_run_worked_by_hand() {
    // Worked by hand from case (b) on 2 workers: work 0 + 10 + 5 + 0 = 15; B waits 0–5
    // with w1 free: delay 5; no worker idle: no_work 0; elapsed 10 (15 + 5 + 0 = 2·10); the
    // span runs create → A → end: 10. 1 create, 1 wait, 2 ends, 4 strands (7 logical
    // nodes: 4 + 1 + 1 + 1). The edges: create → B (create-child, w0 → w1), create → A
    // (create-cont, w0 → w0), B → end (end-parent, w1 → w0), A → end (wait-cont, w0 → w0).
    let expected = "\
create_task           = 1
wait_tasks            = 1
end_task              = 2
work (T1)             = 15
delay                 = 5
no_work               = 0
critical_path (T_inf) = 10
n_workers (P)         = 2
elapsed               = 10
T1/P                  = 7.500
T1/P+T_inf            = 17.500
T1/T_inf              = 1.500
greedy speedup        = 0.857
observed speedup      = 1.500
observed/greedy       = 1.750
task granularity      = 15.000
interval granularity  = 3.750
dag nodes             = 7
materialized nodes    = 4
compression ratio     = 0.571429
end-parent edges:
 0 0 0
 1 0 0
 0 0 0
create-child edges:
 0 1 0
 0 0 0
 0 0 0
create-cont edges:
 1 0 0
 0 0 0
 0 0 0
wait-cont edges:
 1 0 0
 0 0 0
 0 0 0
other-cont edges:
 0 0 0
 0 0 0
 0 0 0
";
    assert_eq!(stats(&case_b(), 2).stat_text(), expected);
}

#[test]
fn sweep_a_one_strand_on_two_workers_is_half_no_work() {
    let st = stats(&task(vec![Item::Strand(s(0, 10, 0, EndKind::End))]), 2);
    assert_eq!((st.work, st.delay, st.no_work, st.elapsed), (10, 0, 10, 10));
    assert_eq!(st.identity_gap(), 0);
}

#[test]
fn sweep_b_a_ready_task_waiting_for_a_free_worker_is_delay() {
    let st = stats(&case_b(), 2);
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
fn cilkview_bound_of_fig1_worked_by_hand() {
    // Fig. 1 with a burden of 100 per continuation and return edge: work 9, burdened span
    // 6 + 2·100 (see the next test); at P = 2, T1/P + 1.7·T̂∞ = 4.5 + 1.7·206 = 354.7.
    let g = Graph::from_root(&fig1());
    let opts = StatsOptions {
        burden: 100.0,
        workers: Some(2),
        ..StatsOptions::default()
    };
    let st = Stats::of(&g, 2, 9, &opts);
    assert!(
        (st.cilkview_bound() - 354.7).abs() < 1e-9,
        "{}",
        st.cilkview_bound()
    );
    // Never below the greedy bound T1/P + T∞ (the burdened span is at least the span).
    assert!(st.cilkview_bound() >= st.greedy_bound());
    assert!((cilkview_bound(9.0, 206.0, 2) - 354.7).abs() < 1e-9);
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
