//! DAG Recorder's `.dag` files (MassiveThreads' profiler, format version 1.24, as its
//! `dr_dump.c` writes them on a 64-bit little-endian machine): a 45-byte version string;
//! the node count n, the edge count m, the absolute clock at `dr_start` and the worker
//! count (8-byte integers); n node records of 432 bytes; m edge records of 24 bytes; a
//! string table of source files. Times are clock ticks (`rdtsc`) since `dr_start`; the file
//! does not say how fast the clock ran.
//!
//! The graph read is DAG Recorder's leaves (intervals and collapsed sections or tasks) with
//! its stored edges: the statistics of [`crate::stats`] then give its `.stat` file, field
//! for field, with elapsed time counted from `dr_start` ([`Graph::ready_at`]).
//!
//! ```
//! use taskpar::dag::dr;
//! assert!(dr::is_dr_file(b"DAG_RECORDER FORMAT VERSION  1.24 2014/09/18\n..."));
//! // Too short to hold the header: a typed error, never a panic.
//! let e = dr::read(dr::VERSION, &taskpar::dag::Limits::default(), 2.6e9).unwrap_err();
//! assert!(e.to_string().contains("truncated"));
//! ```

use std::collections::BTreeMap;

use super::graph::{Counts, EdgeKind, Graph, Node, NodeKind};
use super::{Clock, DagError, Header, Limits, Machine, OUTSIDE_POOL};
use sweep::{Limit, Reached};
use taskrec::tree::EndKind;

/// The version string this reader knows (45 bytes, newline included).
pub const VERSION: &[u8; 45] = b"DAG_RECORDER FORMAT VERSION  1.24 2014/09/18\n";
/// What every DAG Recorder file begins with, whatever its version.
const PREFIX: &[u8] = b"DAG_RECORDER FORMAT VERSION";
/// The bytes of the header: the version string and four 8-byte integers.
const HEADER: usize = 45 + 4 * 8;
/// A node record's bytes.
const NODE: usize = 432;
/// An edge record's bytes.
const EDGE: usize = 24;
/// The string table's own header: count, size and two pointers.
const TABLE_HEADER: usize = 32;

/// The kinds of a node record (`dr_dag_node_kind_t`).
const CREATE_TASK: u32 = 0;
const WAIT_TASKS: u32 = 1;
const OTHER: u32 = 2;
const END_TASK: u32 = 3;
const SECTION: u32 = 4;
const TASK: u32 = 5;

/// True if `bytes` begin as a DAG Recorder file does (any version).
pub fn is_dr_file(bytes: &[u8]) -> bool {
    bytes.starts_with(PREFIX)
}

/// True if `head`, a file's first bytes (at least 8), may begin a DAG Recorder file.
pub fn begins_dr_file(head: &[u8]) -> bool {
    head.len() >= 8 && (PREFIX.starts_with(head) || head.starts_with(PREFIX))
}

/// A DAG Recorder file read.
#[derive(Clone, Debug)]
pub struct DrFile {
    /// The recording's header in vates' terms: DAG Recorder as the recorder, the worker
    /// count, the clock (`tsc` at the frequency given), the root's end as `elapsed`, the
    /// first source file as the program.
    pub header: Header,
    /// The leaves and stored edges as a graph, ready at time 0 (`dr_start`).
    pub graph: Graph,
    /// Node records in the file (DAG Recorder's materialised nodes).
    pub nodes: u64,
    /// Edge records in the file.
    pub edges: u64,
    /// The absolute clock at `dr_start`.
    pub start_clock: u64,
    /// The source files the records name.
    pub files: Vec<String>,
    /// The root task's critical path as DAG Recorder computed it.
    pub root_span: u64,
}

/// A little-endian reader of fixed-size records.
struct At<'a>(&'a [u8]);

impl At<'_> {
    fn bytes<const N: usize>(&self, off: usize) -> [u8; N] {
        let mut b = [0u8; N];
        b.copy_from_slice(&self.0[off..off + N]);
        b
    }
    fn u32(&self, off: usize) -> u32 {
        u32::from_le_bytes(self.bytes(off))
    }
    fn i32(&self, off: usize) -> i32 {
        self.u32(off) as i32
    }
    fn u64(&self, off: usize) -> u64 {
        u64::from_le_bytes(self.bytes(off))
    }
    fn i64(&self, off: usize) -> i64 {
        self.u64(off) as i64
    }
}

/// One node record's fields that the statistics read.
struct Rec {
    start: u64,
    end: u64,
    t_1: u64,
    t_inf: u64,
    last_start: u64,
    node_counts: [i64; 4],
    edge_counts: [i64; 5],
    worker: i32,
    kind: u32,
    begin: i64,
    end_off: i64,
}

fn record(bytes: &[u8]) -> Rec {
    let a = At(bytes);
    Rec {
        start: a.u64(0),
        end: a.u64(72),
        t_1: a.u64(152),
        t_inf: a.u64(160),
        last_start: a.u64(176),
        node_counts: [a.i64(224), a.i64(232), a.i64(240), a.i64(248)],
        edge_counts: [a.i64(256), a.i64(264), a.i64(272), a.i64(280), a.i64(288)],
        worker: a.i32(320),
        kind: a.u32(328),
        begin: a.i64(416),
        end_off: a.i64(424),
    }
}

impl Rec {
    /// A leaf: an interval, or a section or task collapsed (no stored children).
    fn is_leaf(&self) -> bool {
        self.kind < SECTION || self.begin == self.end_off
    }
}

/// Reads a DAG Recorder `.dag` file's bytes; its clock ticks `frequency_hz` times a second
/// (the file does not say).
///
/// # Errors
/// [`DagError`]: another version ([`DagError::DrVersion`]), sizes that do not fit the 64-bit
/// little-endian layout ([`DagError::DrLayout`]), a truncated file, a record that cannot
/// be (a kind, an offset, an edge or a worker out of range, a cycle), or more nodes or
/// workers than `limits` allow.
pub fn read(bytes: &[u8], limits: &Limits, frequency_hz: f64) -> Result<DrFile, DagError> {
    if bytes.len() < HEADER {
        return Err(DagError::Truncated {
            offset: bytes.len(),
            what: "DAG Recorder's header (77 bytes)".into(),
        });
    }
    if &bytes[..45] != VERSION {
        let found = String::from_utf8_lossy(&bytes[..45]).trim_end().to_string();
        return Err(DagError::DrVersion { found });
    }
    let a = At(bytes);
    let (n, m, start_clock, workers) = (a.u64(45), a.u64(53), a.u64(61), a.u64(69));
    check_layout(bytes, n, m)?;
    if n > limits.max_nodes {
        return Err(DagError::TooLarge {
            reached: Reached::new(Limit::Nodes, limits.max_nodes),
        });
    }
    if workers == 0 {
        return Err(DagError::Corrupt {
            offset: 69,
            what: "the header names 0 workers; a run has at least one".into(),
        });
    }
    let workers = u32::try_from(workers)
        .ok()
        .filter(|&w| w <= limits.max_workers)
        .ok_or(DagError::TooManyWorkers {
            workers: u32::try_from(workers).unwrap_or(u32::MAX),
            reached: Reached::new(Limit::Workers, u64::from(limits.max_workers)),
        })?;
    let (n, m) = (n as usize, m as usize);
    let edges_at = HEADER + NODE * n;
    let table_at = edges_at + EDGE * m;
    let recs: Vec<Rec> = (0..n)
        .map(|i| record(&bytes[HEADER + NODE * i..HEADER + NODE * (i + 1)]))
        .collect();
    let corrupt = |i: usize, what: String| DagError::Corrupt {
        offset: HEADER + NODE * i,
        what,
    };
    // Every record's kind and children, and which records are leaves.
    for (i, r) in recs.iter().enumerate() {
        if r.kind > TASK {
            return Err(corrupt(i, format!("node {i} has kind {}", r.kind)));
        }
        let inside =
            |off: i64| off > 0 && (i as i64).checked_add(off).is_some_and(|k| k <= n as i64);
        let children_ok = match r.kind {
            CREATE_TASK => inside(r.begin) && (i as i64 + r.begin) < n as i64,
            SECTION | TASK if !r.is_leaf() => {
                inside(r.begin) && inside(r.end_off) && r.begin < r.end_off
            }
            _ => true,
        };
        if !children_ok {
            return Err(corrupt(
                i,
                format!(
                    "node {i}'s children ({}, {}) lie outside the file's {n} nodes",
                    r.begin, r.end_off
                ),
            ));
        }
        if r.is_leaf() && (r.worker < -1 || (r.worker >= 0 && r.worker as u32 >= workers)) {
            return Err(DagError::Worker {
                offset: HEADER + NODE * i + 320,
                worker: r.worker as u32,
                workers,
            });
        }
    }
    // The leaves, numbered in file order, and their stored edges.
    let mut leaf_of = vec![u32::MAX; n];
    let mut leaves = Vec::new();
    for (i, r) in recs.iter().enumerate() {
        if r.is_leaf() {
            leaf_of[i] = leaves.len() as u32;
            leaves.push(i);
        }
    }
    let mut preds: Vec<Vec<(u32, EdgeKind)>> = vec![Vec::new(); leaves.len()];
    let mut succs: Vec<Vec<u32>> = vec![Vec::new(); leaves.len()];
    for k in 0..m {
        let at = edges_at + EDGE * k;
        let e = At(&bytes[at..at + EDGE]);
        let (kind, u, v) = (e.u32(0), e.i64(8), e.i64(16));
        let leaf = |x: i64| {
            usize::try_from(x)
                .ok()
                .and_then(|x| leaf_of.get(x))
                .copied()
                .filter(|&l| l != u32::MAX)
        };
        let (Some(kind), Some(lu), Some(lv)) = (EdgeKind::ALL.get(kind as usize), leaf(u), leaf(v))
        else {
            return Err(DagError::Corrupt {
                offset: at,
                what: format!("edge {k} ({u} → {v}, kind {kind}) does not join two leaves"),
            });
        };
        preds[lv as usize].push((lu, *kind));
        succs[lu as usize].push(lv);
    }
    let order = topological(&preds, &succs).ok_or_else(|| DagError::Corrupt {
        offset: edges_at,
        what: "the edges form a cycle".into(),
    })?;
    // Renumber in that order.
    let mut new_of = vec![0u32; leaves.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of[old as usize] = new as u32;
    }
    let nodes: Vec<Node> = order
        .iter()
        .map(|&l| node(&recs[leaves[l as usize]]))
        .collect();
    let preds: Vec<Vec<(u32, EdgeKind)>> = order
        .iter()
        .map(|&l| {
            preds[l as usize]
                .iter()
                .map(|&(u, k)| (new_of[u as usize], k))
                .collect()
        })
        .collect();
    let files = string_table(bytes, table_at)?;
    let root = recs.first();
    let header = Header {
        format: "dag-recorder".into(),
        version: 1,
        recorder: String::from_utf8_lossy(&VERSION[..44]).into_owned(),
        program: files.first().cloned().unwrap_or_default(),
        parameters: BTreeMap::new(),
        workers,
        clock: Clock {
            unit: "tsc".into(),
            frequency_hz,
        },
        elapsed: root.map_or(0, |r| r.end),
        collapse: recs.iter().any(|r| r.kind >= SECTION && r.is_leaf()),
        // The time-stamp counter runs at the CPU's nominal clock.
        machine: Machine {
            cpu_mhz: Some(frequency_hz / 1e6),
            ..Machine::default()
        },
    };
    Ok(DrFile {
        header,
        graph: Graph::from_nodes(nodes, &preds, Some(0)),
        nodes: n as u64,
        edges: m as u64,
        start_clock,
        files,
        root_span: root.map_or(0, |r| r.t_inf),
    })
}

/// Checks that the file is exactly the header, n nodes, m edges and a string table; a file
/// that is not, but would be with its integers read big-endian, says so.
fn check_layout(bytes: &[u8], n: u64, m: u64) -> Result<(), DagError> {
    let fits = |n: u64, m: u64| {
        let body = (n as u128) * NODE as u128 + (m as u128) * EDGE as u128 + TABLE_HEADER as u128;
        (HEADER as u128 + body) <= bytes.len() as u128
    };
    if fits(n, m) {
        return Ok(());
    }
    let be = |off: usize| u64::from_be_bytes(At(bytes).bytes(off));
    let why = if fits(be(45), be(53)) {
        "its counts read as big-endian integers: it was written on a big-endian machine, and \
         vates reads DAG Recorder files of 64-bit little-endian machines (x86-64, AArch64)"
            .to_string()
    } else {
        format!(
            "its header counts {n} nodes of {NODE} bytes and {m} edges of {EDGE} bytes, more \
             than its {} bytes hold (a truncated file, or one written by a 32-bit build)",
            bytes.len()
        )
    };
    Err(DagError::DrLayout { why })
}

/// The source-file names of the string table at `at` (count, size, two pointers, the
/// strings' offsets, the strings).
fn string_table(bytes: &[u8], at: usize) -> Result<Vec<String>, DagError> {
    let bad = |what: String| DagError::Corrupt { offset: at, what };
    let a = At(&bytes[at..]);
    let (count, size) = (a.u64(0), a.u64(8));
    let rest = (bytes.len() - at) as u64;
    if size != rest {
        return Err(bad(format!(
            "the string table says it has {size} bytes, the file has {rest} after the edges"
        )));
    }
    let chars = count
        .checked_mul(8)
        .and_then(|b| b.checked_add(TABLE_HEADER as u64))
        .filter(|&c| c <= size)
        .ok_or_else(|| {
            bad(format!(
                "{count} strings do not fit the table's {size} bytes"
            ))
        })? as usize;
    let area = &bytes[at + chars..];
    (0..count as usize)
        .map(|k| {
            let off = a.u64(TABLE_HEADER + 8 * k) as usize;
            let s = area.get(off..).unwrap_or_default();
            let len = s.iter().position(|&c| c == 0).ok_or_else(|| {
                bad(format!(
                    "string {k} (at {off}) is not inside the table or not ended"
                ))
            })?;
            Ok(String::from_utf8_lossy(&s[..len]).into_owned())
        })
        .collect()
}

/// A leaf record as a node of the graph.
fn node(r: &Rec) -> Node {
    let c = |x: i64| x.max(0) as u64;
    let counts = Counts {
        creates: c(r.node_counts[0]),
        waits: c(r.node_counts[1]),
        ends: c(r.node_counts[3]),
        strands: r.node_counts.iter().map(|&x| c(x)).sum(),
    };
    let kind = match r.kind {
        CREATE_TASK => NodeKind::Strand(EndKind::Create),
        WAIT_TASKS => NodeKind::Strand(EndKind::Wait),
        END_TASK => NodeKind::Strand(EndKind::End),
        OTHER => NodeKind::Strand(EndKind::Other),
        _ => NodeKind::Collapsed,
    };
    Node {
        kind,
        worker: u32::try_from(r.worker).unwrap_or(OUTSIDE_POOL),
        start: r.start,
        end: r.end,
        last_start: r.last_start,
        work: r.t_1,
        span: r.t_inf,
        span_burdens: 0,
        counts,
        inner_edges: r.edge_counts.map(c),
    }
}

/// A topological order of the leaves (Kahn's, the lowest file index first among the
/// ready), or `None` when the edges form a cycle.
fn topological(preds: &[Vec<(u32, EdgeKind)>], succs: &[Vec<u32>]) -> Option<Vec<u32>> {
    use std::cmp::Reverse;
    let mut missing: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut ready: std::collections::BinaryHeap<Reverse<u32>> = (0..preds.len() as u32)
        .filter(|&v| missing[v as usize] == 0)
        .map(Reverse)
        .collect();
    let mut order = Vec::with_capacity(preds.len());
    while let Some(Reverse(v)) = ready.pop() {
        order.push(v);
        for &w in &succs[v as usize] {
            missing[w as usize] -= 1;
            if missing[w as usize] == 0 {
                ready.push(Reverse(w));
            }
        }
    }
    (order.len() == preds.len()).then_some(order)
}
