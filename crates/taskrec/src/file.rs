//! The DAG file: `MAGIC`, the format version (u32), the header's length (u32) and the header
//! (JSON: program, parameters, workers, clock, elapsed, machine), then the root node, then
//! `TRAILER` and the number of nodes written (u64). Every integer is little-endian.
//!
//! A node is a tag byte and its fields:
//! * `TAG_STRAND`: end kind (u8), worker (u32), start, end (u64);
//! * `TAG_CREATE`: worker (u32), start, end, target scope (u64), then the created task's node;
//! * `TAG_COLLAPSED`: worker (u32), start, end, last start, work, span, span burdens,
//!   creates, waits, ends, strands (u64);
//! * `TAG_TASK`: item count (u32), then the items;
//! * `TAG_SECTION`: scope (u64), item count (u32), then the items.
//!
//! The root is a `TAG_TASK` or a `TAG_COLLAPSED` node. The layout, with the header's fields,
//! is written down for other recorders in `docs/dag-file.md`.

use crate::tree::{Agg, Child, Item, Strand};
use crate::Dag;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"VATESDAG";
/// The version of the layout this crate writes.
pub const FORMAT_VERSION: u32 = 1;
/// The four bytes after the root node.
pub const TRAILER: &[u8; 4] = b"END.";
/// A strand that did not create a task.
pub const TAG_STRAND: u8 = 1;
/// A strand that created a task, followed by the task.
pub const TAG_CREATE: u8 = 2;
/// A collapsed subgraph.
pub const TAG_COLLAPSED: u8 = 3;
/// A task kept in full.
pub const TAG_TASK: u8 = 4;
/// A section kept in full.
pub const TAG_SECTION: u8 = 5;

/// What the header says about the run besides the DAG.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// The program's name.
    pub program: String,
    /// Its parameters (problem size and others).
    pub parameters: Vec<(String, f64)>,
    /// Whether single-worker subgraphs were collapsed.
    pub collapse: bool,
}

/// The file's bytes for a recorded run.
pub fn encode(dag: &Dag, meta: &Meta) -> Vec<u8> {
    let mut body = Vec::new();
    let mut nodes = 0u64;
    child(&mut body, &dag.root, &mut nodes);
    let header = header(dag, meta);
    let mut out = Vec::with_capacity(body.len() + header.len() + 32);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&body);
    out.extend_from_slice(TRAILER);
    out.extend_from_slice(&nodes.to_le_bytes());
    out
}

fn u32_(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u64_(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn child(out: &mut Vec<u8>, c: &Child, nodes: &mut u64) {
    match c {
        Child::Collapsed(a) => collapsed(out, a, nodes),
        Child::Task(t) => list(out, TAG_TASK, None, &t.items, nodes),
        // A task that never reported back (a panic in it): an empty task.
        Child::Pending(_) => list(out, TAG_TASK, None, &[], nodes),
    }
}

fn list(out: &mut Vec<u8>, tag: u8, scope: Option<u64>, items: &[Item], nodes: &mut u64) {
    *nodes += 1;
    out.push(tag);
    if let Some(s) = scope {
        u64_(out, s);
    }
    u32_(out, items.len() as u32);
    for i in items {
        item(out, i, nodes);
    }
}

fn collapsed(out: &mut Vec<u8>, a: &Agg, nodes: &mut u64) {
    *nodes += 1;
    out.push(TAG_COLLAPSED);
    u32_(out, a.worker);
    for v in [
        a.start,
        a.end,
        a.last_start,
        a.work,
        a.span,
        a.span_burdens,
        a.creates,
        a.waits,
        a.ends,
        a.strands,
    ] {
        u64_(out, v);
    }
}

fn strand(out: &mut Vec<u8>, s: &Strand) {
    u32_(out, s.worker);
    u64_(out, s.start);
    u64_(out, s.end);
}

fn item(out: &mut Vec<u8>, i: &Item, nodes: &mut u64) {
    match i {
        Item::Strand(s) => {
            *nodes += 1;
            out.push(TAG_STRAND);
            out.push(s.kind as u8);
            strand(out, s);
        }
        Item::Create {
            strand: s,
            target,
            child: c,
        } => {
            *nodes += 1;
            out.push(TAG_CREATE);
            strand(out, s);
            u64_(out, *target);
            child(out, c, nodes);
        }
        Item::Section(s) => list(out, TAG_SECTION, Some(s.scope), &s.items, nodes),
        Item::Collapsed(a) => collapsed(out, a, nodes),
    }
}

/// A JSON string literal.
fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            c if (c as u32) < 0x20 => q.push_str(&format!("\\u{:04x}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// A JSON number (`null` when not finite).
fn number(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "null".to_string()
    }
}

fn header(dag: &Dag, meta: &Meta) -> String {
    let params: Vec<String> = meta
        .parameters
        .iter()
        .map(|(k, v)| format!("{}:{}", quote(k), number(*v)))
        .collect();
    let caches: Vec<String> = caches()
        .iter()
        .map(|(level, kind, size)| {
            format!(
                "{{\"level\":{level},\"type\":{},\"size\":{}}}",
                quote(kind),
                quote(size)
            )
        })
        .collect();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{{\"format\":\"vates-taskdag\",\"version\":{FORMAT_VERSION},\"recorder\":\"taskrec {}\",\
         \"program\":{},\"parameters\":{{{}}},\"workers\":{},\
         \"clock\":{{\"unit\":{},\"frequency_hz\":{}}},\"elapsed\":{},\
         \"collapse\":{},\"machine\":{{\"cpu\":{},\"cpu_mhz\":{},\"cores\":{cores},\"caches\":[{}]}}}}",
        env!("CARGO_PKG_VERSION"),
        quote(&meta.program),
        params.join(","),
        dag.workers,
        quote(if cfg!(target_arch = "x86_64") { "tsc" } else { "ns" }),
        number(dag.clock_hz),
        dag.elapsed,
        meta.collapse,
        quote(&cpu_model()),
        number(cpu_mhz()),
        caches.join(",")
    )
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The first CPU's clock in MHz as Linux reports it (NaN when unknown).
fn cpu_mhz() -> f64 {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("cpu MHz"))
                .and_then(|l| l.split_once(':'))
                .and_then(|(_, v)| v.trim().parse().ok())
        })
        .unwrap_or(f64::NAN)
}

/// The caches of CPU 0: (level, type, size) as Linux reports them.
fn caches() -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    for k in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{k}");
        let read = |f: &str| {
            std::fs::read_to_string(format!("{dir}/{f}"))
                .ok()
                .map(|s| s.trim().to_string())
        };
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
        else {
            break;
        };
        out.push((level.parse().unwrap_or(0), kind, size));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_for_json() {
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        assert_eq!(number(f64::NAN), "null");
    }
}
