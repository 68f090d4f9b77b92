//! Version 2 of the DAG file: the dependence list (OpenMP's `depend` clauses as edges from
//! one task's end to a sibling's start). Hand-written files with hand-computed spans: the
//! span is the longest path through the extra edges, not the series-parallel formula, in
//! the statistics and in the replay; a version 1 file still reads; a list that cannot be
//! (a sink before its source, inside it, past the tasks, cut short) is refused.

use taskgraph::analysis::policy::PolicyKind;
use taskgraph::analysis::setup::Setup;
use taskpar::dag::{self, DagError, EdgeKind, Limits};
use taskpar::replay;
use taskpar::stats::{critical_paths, Stats, StatsOptions};
use taskrec::{TAG_CREATE, TAG_SECTION, TAG_STRAND, TAG_TASK};

/// A file of `version` with two workers, 1 ns ticks, the body `body` and `deps`.
fn file(version: u32, body: &Body, deps: &[(u64, u64)]) -> Vec<u8> {
    let h = format!(
        r#"{{"format":"vates-taskdag","version":{version},"workers":2,"clock":{{"unit":"ns","frequency_hz":1e9}}}}"#
    );
    let mut b = b"VATESDAG".to_vec();
    b.extend_from_slice(&version.to_le_bytes());
    b.extend_from_slice(&(h.len() as u32).to_le_bytes());
    b.extend_from_slice(h.as_bytes());
    b.extend_from_slice(&body.bytes);
    if version >= 2 {
        b.extend_from_slice(&(deps.len() as u64).to_le_bytes());
        for &(f, t) in deps {
            b.extend_from_slice(&f.to_le_bytes());
            b.extend_from_slice(&t.to_le_bytes());
        }
    }
    b.extend_from_slice(b"END.");
    b.extend_from_slice(&body.nodes.to_le_bytes());
    b
}

#[derive(Default)]
struct Body {
    bytes: Vec<u8>,
    nodes: u64,
}

impl Body {
    fn strand_fields(&mut self, worker: u32, start: u64, end: u64) {
        self.bytes.extend_from_slice(&worker.to_le_bytes());
        self.bytes.extend_from_slice(&start.to_le_bytes());
        self.bytes.extend_from_slice(&end.to_le_bytes());
    }
    fn strand(&mut self, kind: u8, worker: u32, start: u64, end: u64) {
        self.nodes += 1;
        self.bytes.extend_from_slice(&[TAG_STRAND, kind]);
        self.strand_fields(worker, start, end);
    }
    fn task(&mut self, items: u32) {
        self.nodes += 1;
        self.bytes.push(TAG_TASK);
        self.bytes.extend_from_slice(&items.to_le_bytes());
    }
    fn section(&mut self, items: u32) {
        self.nodes += 1;
        self.bytes.push(TAG_SECTION);
        self.bytes.extend_from_slice(&0u64.to_le_bytes());
        self.bytes.extend_from_slice(&items.to_le_bytes());
    }
    /// A create strand on worker 0 and the created task: one end strand on worker 1.
    fn create_leaf(&mut self, start: u64, end: u64, leaf: (u64, u64)) {
        self.nodes += 1;
        self.bytes.push(TAG_CREATE);
        self.strand_fields(0, start, end);
        self.bytes.extend_from_slice(&0u64.to_le_bytes());
        self.task(1);
        self.strand(2, 1, leaf.0, leaf.1);
    }
}

/// The root creates the leaf tasks `leaves` (a 10-tick create strand each, from 0 on
/// worker 0; each leaf one strand on worker 1 at the times given), waits at `wait` (a
/// zero-length strand) and ends with a 5-tick strand. Tasks: the root 0, the leaves 1, 2, …
fn fan(leaves: &[(u64, u64)], wait: u64) -> Body {
    let mut b = Body::default();
    b.task(2);
    b.section(leaves.len() as u32 + 1);
    for (i, &leaf) in leaves.iter().enumerate() {
        let at = 10 * i as u64;
        b.create_leaf(at, at + 10, leaf);
    }
    b.strand(1, 0, wait, wait);
    b.strand(2, 0, wait, wait + 5);
    b
}

fn stats(bytes: &[u8]) -> (dag::Recording, Stats) {
    let rec = dag::read(bytes, &Limits::default()).expect("reads");
    let g = rec.graph();
    let s = Stats::of(&g, rec.header.workers, rec.nodes, &StatsOptions::default());
    (rec, s)
}

fn makespan(g: &dag::Graph, procs: usize) -> f64 {
    let tg = replay::task_graph(g, 1.0).expect("a task graph");
    Setup {
        policy: PolicyKind::Fifo,
        system: None,
    }
    .analyze(&tg, procs, None)
    .expect("replays")
    .schedule
    .makespan
}

/// A chain A(100) → B(200) → C(50) ordered by dependences only: the span is the creation
/// of A (10) + 100 + 200 + 50 + the wait (0) + the end (5) = 365, where the same tasks
/// without the list give max(10 + 100, 20 + 200, 30 + 50) + 5 = 225. Work: three creates
/// (30), the leaves (350), the end (5) = 385. The replay at two workers cannot beat the
/// chain: 365 as well.
#[test]
fn a_chain_of_dependences_is_the_span() {
    let body = fan(&[(30, 130), (130, 330), (330, 380)], 380);
    let (rec, s) = stats(&file(2, &body, &[(1, 2), (2, 3)]));
    assert_eq!(rec.dependences, vec![(1, 2), (2, 3)]);
    assert_eq!((s.work, s.span, s.dependences), (385, 365, 2));
    assert_eq!(s.identity_gap(), 0);
    assert!(s.stat_text().contains("dependence edges      = 2\n"));
    // The same file without the list (version 1): the series-parallel span.
    let (rec1, s1) = stats(&file(1, &body, &[]));
    assert!(rec1.dependences.is_empty());
    assert_eq!((s1.work, s1.span, s1.dependences), (385, 225, 0));
    assert!(!s1.stat_text().contains("dependence"));
    let g = rec.graph();
    assert_eq!(makespan(&g, 2), 365.0);
    assert_eq!(makespan(&g, g.nodes.len()), 365.0);
    assert_eq!(makespan(&rec1.graph(), g.nodes.len()), 225.0);
    // The critical path crosses both dependence edges.
    let path = &critical_paths(&g, 1)[0];
    let crossed = path
        .windows(2)
        .filter(|w| g.preds(w[1] as usize).contains(&(w[0], EdgeKind::Depend)))
        .count();
    assert_eq!(crossed, 2, "{path:?}");
}

/// A diamond A(100); B(200) and C(50) after A; D(30) after B and C: the span is
/// 10 + 100 + 200 + 30 + 0 + 5 = 345 (through B, the longer side); work 40 + 380 + 5 = 425;
/// at two workers the replay runs B and C side by side: 345 as well.
#[test]
fn a_diamond_of_dependences_takes_its_longer_side() {
    let body = fan(&[(40, 140), (140, 340), (140, 190), (340, 370)], 370);
    let deps = [(1, 2), (1, 3), (2, 4), (3, 4)];
    let (rec, s) = stats(&file(2, &body, &deps));
    assert_eq!((s.work, s.span, s.dependences), (425, 345, 4));
    let g = rec.graph();
    assert_eq!(makespan(&g, 2), 345.0);
    // One worker: the work.
    assert_eq!(makespan(&g, 1), 425.0);
}

/// A version 2 file's list is checked: a source after its sink, a sink inside its source,
/// a task past the file's, a list cut short, a header whose version is not the layout's.
#[test]
fn impossible_dependences_are_refused() {
    let body = fan(&[(30, 130), (130, 330)], 330);
    for (deps, what) in [
        (vec![(2u64, 1u64)], "before its sink"),
        (vec![(1, 1)], "before its sink"),
        (vec![(1, 3)], "tasks 0 to 2"),
        (vec![(0, 1)], "inside its source"),
    ] {
        let e = dag::read(&file(2, &body, &deps), &Limits::default()).unwrap_err();
        assert!(
            matches!(&e, DagError::Corrupt { what: w, .. } if w.contains(what)),
            "{deps:?}: {e}"
        );
    }
    // The trailer (12 bytes) and half the one dependence gone.
    let mut cut = file(2, &body, &[(1, 2)]);
    cut.truncate(cut.len() - 20);
    let e = dag::read(&cut, &Limits::default()).unwrap_err();
    assert!(matches!(e, DagError::Truncated { .. }), "{e}");
    let mut mismatch = file(2, &body, &[]);
    mismatch[8] = 1; // a version 1 layout with a version 2 header
    let e = dag::read(&mismatch, &Limits::default()).unwrap_err();
    assert!(matches!(e, DagError::Header { .. }), "{e}");
}

/// Every byte of a version 2 file changed in turn, and every truncation: an error or
/// another valid file, never a panic (the dependence list's numbers included).
#[test]
fn a_damaged_version_2_file_is_an_error_never_a_panic() {
    let body = fan(&[(40, 140), (140, 340), (140, 190), (340, 370)], 370);
    let bytes = file(2, &body, &[(1, 2), (1, 3), (2, 4), (3, 4)]);
    for at in 8..bytes.len() {
        for delta in [1u8, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[at] = b[at].wrapping_add(delta);
            if let Ok(rec) = dag::read(&b, &Limits::default()) {
                // What reads must also make a graph and statistics.
                let g = rec.graph();
                let _ = Stats::of(&g, rec.header.workers, rec.nodes, &StatsOptions::default());
            }
        }
    }
    for len in 0..bytes.len() {
        assert!(
            dag::read(&bytes[..len], &Limits::default()).is_err(),
            "{len}"
        );
    }
}
