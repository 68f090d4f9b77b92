//! DAG Recorder's files (MassiveThreads 07569c5): every fixture's `.dag`, read by
//! `taskpar::dag::dr` and summarised by `taskpar::stats`, gives the `.stat` DAG Recorder
//! wrote for the same run, field for field (counts exactly, times to the clock tick, the
//! ratios as it prints them). Fixtures: `tests/data/dag-recorder/` (its README says how
//! each was made).

use std::path::PathBuf;

use taskpar::dag::{dr, DagError, Limits};
use taskpar::stats::{Stats, StatsOptions};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/dag-recorder")
        .join(name)
}

const FIXTURES: [&str; 12] = [
    "fib-10-w1",
    "fib-10-w2",
    "fib-12-w2",
    "fib-12-w2-a0",
    "fib-6-w1-nc",
    "fib-6-w2-nc",
    "nqueens-6-w1",
    "nqueens-6-w2",
    "nqueens-7-w2",
    "nqueens-7-w2-a0",
    "nqueens-4-w1-nc",
    "nqueens-4-w2-nc",
];

/// The time-stamp counter's rate on the machine that recorded the fixtures.
const TSC_HZ: f64 = 2.59614e9;

fn stats_of(name: &str) -> (dr::DrFile, Stats) {
    let bytes = std::fs::read(data(&format!("{name}.dag"))).expect("fixture");
    assert!(dr::is_dr_file(&bytes));
    let f = dr::read(&bytes, &Limits::default(), TSC_HZ).expect("a DAG Recorder file");
    let st = Stats::of(
        &f.graph,
        f.header.workers,
        f.nodes,
        &StatsOptions::default(),
    );
    (f, st)
}

#[test]
fn every_fixture_gives_dag_recorders_own_stat_file() {
    for name in FIXTURES {
        let (_, st) = stats_of(name);
        let want = std::fs::read_to_string(data(&format!("{name}.stat"))).expect("stat");
        let got = st.stat_text();
        if got != want {
            let diff: Vec<String> = want
                .lines()
                .zip(got.lines())
                .filter(|(a, b)| a != b)
                .map(|(a, b)| format!("  DAG Recorder: {a}\n  vates:        {b}"))
                .collect();
            panic!("{name}: the stat files differ\n{}", diff.join("\n"));
        }
    }
}

#[test]
fn counts_are_the_programs_closed_forms() {
    // fib(n) creates fib's call count minus the leaves: C(n) = C(n−1) + C(n−2) + 1 for
    // n ≥ 2, C(0) = C(1) = 0; one wait per create; the root ends besides each task.
    let creates = |n: u32| {
        let (mut a, mut b) = (0u64, 0u64);
        for _ in 2..=n {
            (a, b) = (b, a + b + 1);
        }
        b
    };
    for (name, n) in [("fib-10-w2", 10), ("fib-12-w2", 12), ("fib-6-w2-nc", 6)] {
        let (_, st) = stats_of(name);
        assert_eq!(st.create_task, creates(n), "{name}");
        assert_eq!(st.wait_tasks, creates(n), "{name}");
        assert_eq!(st.end_task, creates(n) + 1, "{name}");
    }
    // nqueens(n) creates a task per partial placement that is safe: rows 1..n of the
    // search tree (4: 16 safe partial placements below the root… counted by brute force).
    fn safe_placements(n: usize) -> u64 {
        fn go(row: usize, n: usize, cols: &mut Vec<usize>) -> u64 {
            if row == n {
                return 0;
            }
            let mut count = 0;
            for c in 0..n {
                let ok = cols
                    .iter()
                    .enumerate()
                    .all(|(r, &q)| q != c && (row - r) != c.abs_diff(q));
                if ok {
                    cols.push(c);
                    count += 1 + go(row + 1, n, cols);
                    cols.pop();
                }
            }
            count
        }
        go(0, n, &mut Vec::new())
    }
    for (name, n) in [
        ("nqueens-6-w2", 6),
        ("nqueens-7-w2", 7),
        ("nqueens-4-w2-nc", 4),
    ] {
        let (_, st) = stats_of(name);
        assert_eq!(st.create_task, safe_placements(n), "{name}");
        assert_eq!(st.end_task, st.create_task + 1, "{name}");
    }
}

#[test]
fn the_graph_is_dag_recorders_leaves_and_edges() {
    let (f, st) = stats_of("fib-6-w2-nc");
    // Nothing collapsed: every node is an interval.
    assert_eq!(st.materialized, f.nodes);
    assert_eq!(f.graph.nodes.len() as u64, st.intervals);
    assert_eq!(f.graph.edge_count() as u64, f.edges);
    assert_eq!(f.files, vec!["fib.c".to_string()]);
    assert_eq!(f.header.program, "fib.c");
    assert_eq!(f.header.workers, 2);
    // The span through the graph is the one DAG Recorder computed for the root.
    assert_eq!(st.span, f.root_span);
    // One worker, collapsed: one node, and the counts survive collapsing.
    let (one, st1) = stats_of("fib-10-w1");
    assert_eq!((one.nodes, one.edges, one.graph.nodes.len()), (1, 0, 1));
    assert_eq!(st1.create_task, 88);
    // The runtime's and the recorder's time per task: the collapsed node's span less its
    // work, over the tasks created in it (all 88).
    assert_eq!(st1.inner_creates, 88);
    let node = &one.graph.nodes[0];
    let inner = (node.end - node.start - node.work) as f64;
    assert_eq!(st1.runtime_per_task(), Some(inner / 88.0));
    // Nothing collapsed: no such figure.
    assert_eq!(st.runtime_per_task(), None);
    // T1 + delay + no_work = P · elapsed.
    for name in FIXTURES {
        assert_eq!(stats_of(name).1.identity_gap(), 0, "{name}");
    }
}

#[test]
fn damaged_and_foreign_files_are_typed_errors() {
    let good = std::fs::read(data("fib-10-w2.dag")).expect("fixture");
    let limits = Limits::default();
    // Every truncation is an error, never a panic.
    for cut in (0..good.len())
        .step_by(97)
        .chain([44, 45, 76, 77, good.len() - 1])
    {
        assert!(
            dr::read(&good[..cut], &limits, TSC_HZ).is_err(),
            "cut at {cut} read"
        );
    }
    // Another version.
    let mut other = good.clone();
    other[29..33].copy_from_slice(b"1.23");
    assert!(matches!(
        dr::read(&other, &limits, TSC_HZ),
        Err(DagError::DrVersion { found }) if found.contains("1.23")
    ));
    // Counts written big-endian (another machine's byte order) are named as such.
    let mut be = good.clone();
    for off in [45, 53, 61, 69] {
        be[off..off + 8].reverse();
    }
    let e = dr::read(&be, &limits, TSC_HZ).unwrap_err();
    assert!(e.to_string().contains("big-endian"), "{e}");
    // A node kind, a worker or an edge out of range.
    let mut kind = good.clone();
    kind[77 + 328] = 9;
    assert!(matches!(
        dr::read(&kind, &limits, TSC_HZ),
        Err(DagError::Corrupt { .. })
    ));
    let n = u64::from_le_bytes(good[45..53].try_into().unwrap()) as usize;
    let edges_at = 77 + 432 * n;
    let mut edge = good.clone();
    edge[edges_at + 16..edges_at + 24].copy_from_slice(&(1u64 << 40).to_le_bytes());
    assert!(matches!(
        dr::read(&edge, &limits, TSC_HZ),
        Err(DagError::Corrupt { .. })
    ));
    // Past the limits.
    let small = Limits {
        max_nodes: 3,
        ..Limits::default()
    };
    assert!(matches!(
        dr::read(&good, &small, TSC_HZ),
        Err(DagError::TooLarge { .. })
    ));
    // Flipping any byte of the records gives a result or an error, never a panic.
    for at in (77..edges_at).step_by(53) {
        let mut b = good.clone();
        b[at] ^= 0xA5;
        let _ = dr::read(&b, &limits, TSC_HZ);
    }
}

// DAG Recorder's `.stat` files read (`taskpar::dr_stat`).

use taskpar::dr_stat::{self, Value};

fn stat_text(name: &str) -> String {
    std::fs::read_to_string(data(&format!("{name}.stat"))).expect("stat")
}

#[test]
fn every_fixtures_stat_file_reads_and_agrees_with_its_dag() {
    for name in FIXTURES {
        let (_, st) = stats_of(name);
        let text = stat_text(name);
        let file = dr_stat::parse(name, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.values[0], Value::Count(st.create_task), "{name}");
        assert_eq!(file.values[8], Value::Count(st.elapsed), "{name}");
        assert_eq!(file.workers(), u64::from(st.workers), "{name}");
        assert_eq!(file.edges, st.edges, "{name}");
        let c = dr_stat::compare(&file, &st);
        assert_eq!(c.differences(), 0, "{name}: {c:#?}");
        assert_eq!(c.rows.len(), 20);
    }
}

#[test]
fn a_stat_file_of_another_run_differs_where_it_should() {
    // fib 10 on one worker against the two-worker run's .stat: the counts agree (both are
    // fib 10), the times, the worker count and the matrices' sizes do not.
    let (_, st) = stats_of("fib-10-w1");
    let file = dr_stat::parse("w2", &stat_text("fib-10-w2")).unwrap();
    let c = dr_stat::compare(&file, &st);
    let differs = |f: &str| c.rows.iter().find(|r| r.field == f).unwrap().differs;
    for same in ["create_task", "wait_tasks", "end_task", "dag nodes"] {
        assert!(!differs(same), "{same}");
    }
    for other in ["work (T1)", "elapsed", "n_workers (P)", "T1/T_inf"] {
        assert!(differs(other), "{other}");
    }
    let elapsed = c.rows.iter().find(|r| r.field == "elapsed").unwrap();
    assert_eq!(elapsed.difference, Some(1_670_188 - 3_246_386));
    assert!(c.matrices.iter().all(|m| m.sides == (3, 2) && m.differs()));
    // One entry changed: one figure differs, and the entry is named.
    let mut file = dr_stat::parse("w2", &stat_text("fib-10-w2")).unwrap();
    let (_, st2) = stats_of("fib-10-w2");
    file.edges[1][0][0] += 1;
    let c = dr_stat::compare(&file, &st2);
    assert_eq!(c.differences(), 1);
    assert_eq!(c.matrices[1].differing, vec![(0, 0, 82, 81)]);
}

/// The error's message for `text`, which must start with `name:line:col:`.
fn stat_error(text: &str, at: &str) -> String {
    let e = dr_stat::parse("s.stat", text).expect_err("refused");
    let msg = e.to_string();
    assert!(msg.starts_with(&format!("s.stat:{at}: ")), "{msg}");
    assert!(e.location.is_some() && e.help.is_some(), "{e:?}");
    msg
}

#[test]
fn hostile_stat_files_are_located_errors() {
    let good = stat_text("fib-10-w2");
    // Truncated: at every byte, an error (never a panic), but at the full length.
    for cut in 0..good.len() {
        let e = dr_stat::parse("s.stat", &good[..cut]);
        assert!(e.is_err(), "cut at {cut} read");
    }
    assert!(stat_error(&good[..good.len() - 1], "40:7").contains("cut inside it"));
    assert!(stat_error("", "1:1").contains("ends before the field `create_task`"));
    // Huge numbers.
    let huge = good.replace("= 1674218", "= 18446744073709551616");
    assert!(stat_error(&huge, "4:25").contains("largest 64-bit count"));
    let workers = good.replace(
        "n_workers (P)         = 2",
        "n_workers (P)         = 100000",
    );
    assert!(stat_error(&workers, "8:25").contains("1 to 1024 workers"));
    let entry = good.replacen(" 75 1 0", " 75 99999999999999999999 0", 1);
    assert!(stat_error(&entry, "22:5").contains("more than the largest 64-bit count"));
    // Not numbers, misspelt and misplaced fields, ragged matrices, junk after them.
    let neg = good.replace("= 2094352", "= -5");
    assert!(stat_error(&neg, "5:25").contains("unsigned integer"));
    let misspelt = good.replace("no_work ", "no_wrok ");
    let msg = stat_error(&misspelt, "6:1");
    assert!(
        msg.contains("`no_wrok` where `no_work` was expected"),
        "{msg}"
    );
    let swapped = good.replacen("create_task", "wait_tasks", 1);
    assert!(stat_error(&swapped, "1:1").contains("where `create_task` was expected"));
    let no_eq = good.replace("delay                 = ", "delay ");
    assert!(stat_error(&no_eq, "5:1").contains("`delay = VALUE` is expected"));
    let short_row = good.replacen(" 75 1 0", " 75 1", 1);
    assert!(stat_error(&short_row, "22:6").contains("has 2 entries, not 3"));
    let long_row = good.replacen(" 75 1 0", " 75 1 0 4", 1);
    assert!(stat_error(&long_row, "22:9").contains("more than 3 entries"));
    let word = good.replacen(" 75 1 0", " 75 x 0", 1);
    assert!(stat_error(&word, "22:5").contains("`x`"));
    let name = good.replace("wait-cont edges:", "wait-count edges:");
    assert!(stat_error(&name, "33:1").contains("`wait-cont edges:` matrix was expected"));
    let after = format!("{good}more\n");
    assert!(stat_error(&after, "41:1").contains("after the last matrix"));
    // Binary junk that is text (the command line refuses NUL bytes before this).
    let junk: String = (0..5000u32)
        .map(|i| char::from_u32(0x21 + (i * 7919) % 0x5e).unwrap())
        .collect();
    stat_error(&junk, "1:1");
    // A 1 MB line: the message stays short.
    let long = format!("{}\n", "x".repeat(1 << 20));
    assert!(stat_error(&long, "1:1").len() < 300);
    // The warning line, when the identity does not hold, is read.
    let warned = good.replace(
        "elapsed               = 3246386\n",
        "elapsed               = 3246386\n*** warning (running + delay + no_work) / n_workers = 5 != elapsed_time\n",
    );
    let f = dr_stat::parse("s.stat", &warned).unwrap();
    assert!(f.warning.is_some());
    let (_, st) = stats_of("fib-10-w2");
    assert_eq!(dr_stat::compare(&f, &st).differences(), 1);
}
