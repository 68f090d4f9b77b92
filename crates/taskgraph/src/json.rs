//! The task-graph JSON format (schema: `docs/taskgraph.schema.json`):
//!
//! ```json
//! {"tasks": [
//!   {"id": "x", "time": 1.0},
//!   {"id": "a", "time": 2.0, "preds": ["x"], "rate": {"bus": 0.01},
//!    "attrs": {"proc": 1, "queue": 0, "priority": 5}}
//! ]}
//! ```
//!
//! `time` (T_i, required, finite, >= 0), `preds` (ids of direct predecessors, default none),
//! `rate` (request rates M_ij per unit of CPU time, by resource name, default none), `attrs`
//! (`proc`, `queue`, `priority` as integers, any other key kept verbatim). Unknown keys inside a
//! task are errors (they are usually typos); other top-level keys are ignored. Predecessors
//! may name tasks listed later. Errors name the task (index and id) and its line:column.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use std::hash::Hasher as _;

use hashbrown::hash_table::{Entry, HashTable};
use rayon::prelude::*;
use rustc_hash::FxHasher;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

mod scan;

use crate::error::{ErrorKind, GraphError};
use crate::graph::{Limits, TaskAttrs, TaskGraph, TaskGraphBuilder};
use diag::{did_you_mean, offset_of, suggest};

/// The tasks of a JSON file in flat arrays: strings as [`Span`]s of the text (or of
/// `unescaped`, for the few with escapes), no allocation per task, so a million tasks parse in
/// one pass into a few dense arrays.
struct Tasks<'a> {
    text: &'a str,
    /// Strings that had escapes, unescaped.
    unescaped: String,
    ids: Vec<Span>,
    times: Vec<Option<f64>>,
    /// Predecessors of task `k`: `preds[pred_off[k]..pred_off[k + 1]]`.
    pred_off: Vec<usize>,
    preds: Vec<Span>,
    /// Rates and attributes, for the (few) tasks that have them.
    rates: Vec<(u32, BTreeMap<String, f64>)>,
    attrs: Vec<(u32, BTreeMap<String, Value>)>,
}

/// A string of the input: `len` bytes at `start` of the text, or of the unescaped strings
/// when `escaped`.
#[derive(Clone, Copy)]
struct Span {
    start: u32,
    len: u32,
    escaped: bool,
}

impl<'a> Tasks<'a> {
    fn new(text: &'a str) -> Self {
        Tasks {
            text,
            unescaped: String::new(),
            ids: Vec::new(),
            times: Vec::new(),
            pred_off: Vec::new(),
            preds: Vec::new(),
            rates: Vec::new(),
            attrs: Vec::new(),
        }
    }

    /// The span of `s`: in place when it is a slice of the text, else copied.
    fn span(&mut self, s: Cow<'a, str>) -> Span {
        let base = self.text.as_ptr() as usize;
        let at = s.as_ptr() as usize;
        let in_text =
            matches!(s, Cow::Borrowed(_)) && at >= base && at + s.len() <= base + self.text.len();
        if in_text {
            // Texts are at most 4 GiB (Limits::max_bytes), so offsets fit in u32.
            Span {
                start: (at - base) as u32,
                len: s.len() as u32,
                escaped: false,
            }
        } else {
            let start = self.unescaped.len() as u32;
            self.unescaped.push_str(&s);
            Span {
                start,
                len: s.len() as u32,
                escaped: true,
            }
        }
    }

    /// The string of `s`.
    fn str(&self, s: Span) -> &str {
        let buf = if s.escaped {
            &self.unescaped
        } else {
            self.text
        };
        &buf[s.start as usize..(s.start + s.len) as usize]
    }
}

/// A string borrowed from the input when it has no escapes.
struct CowStr<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for CowStr<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CowStr<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A seed that fills the [`Tasks`] it holds by visiting one kind of JSON value.
macro_rules! seed {
    ($seed:ident, $kind:ident) => {
        impl<'de, 't> DeserializeSeed<'de> for $seed<'t, 'de> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.$kind(self)
            }
        }
    };
}

/// The top level: `{"tasks": [...], ...}` (other keys ignored).
struct FileSeed<'t, 'a>(&'t mut Tasks<'a>);

seed!(FileSeed, deserialize_map);

impl<'de, 't> Visitor<'de> for FileSeed<'t, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object with a `tasks` array")
    }
    fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<(), M::Error> {
        let mut seen = false;
        while let Some(key) = m.next_key::<CowStr<'de>>()? {
            if key.0 == "tasks" {
                if seen {
                    return Err(de::Error::duplicate_field("tasks"));
                }
                seen = true;
                m.next_value_seed(TasksSeed(&mut *self.0))?;
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        if !seen {
            return Err(de::Error::missing_field("tasks"));
        }
        Ok(())
    }
}

/// The `tasks` array.
struct TasksSeed<'t, 'a>(&'t mut Tasks<'a>);

seed!(TasksSeed, deserialize_seq);

impl<'de, 't> Visitor<'de> for TasksSeed<'t, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of tasks")
    }
    fn visit_seq<S: SeqAccess<'de>>(self, mut s: S) -> Result<(), S::Error> {
        self.0.pred_off.push(0);
        while s.next_element_seed(TaskSeed(&mut *self.0))?.is_some() {}
        Ok(())
    }
}

/// One task object, appended to the arrays.
struct TaskSeed<'t, 'a>(&'t mut Tasks<'a>);

const TASK_FIELDS: &[&str] = &["id", "time", "preds", "rate", "attrs"];

seed!(TaskSeed, deserialize_map);

impl<'de, 't> Visitor<'de> for TaskSeed<'t, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a task object")
    }
    fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<(), M::Error> {
        let t = self.0;
        let k = t.times.len() as u32;
        let (mut id, mut time, mut preds) = (None, None, false);
        while let Some(key) = m.next_key::<CowStr<'de>>()? {
            match key.0.as_ref() {
                "id" if id.is_none() => {
                    let s = m.next_value::<CowStr<'de>>()?.0;
                    id = Some(t.span(s));
                }
                "time" if time.is_none() => time = Some(m.next_value::<Option<f64>>()?),
                "preds" if !preds => {
                    preds = true;
                    m.next_value_seed(PredsSeed(&mut *t))?;
                }
                "rate" => t.rates.push((k, m.next_value()?)),
                "attrs" => t.attrs.push((k, m.next_value()?)),
                f @ ("id" | "time" | "preds") => {
                    return Err(de::Error::custom(format_args!("duplicate field `{f}`")))
                }
                other => return Err(de::Error::unknown_field(other, TASK_FIELDS)),
            }
        }
        let Some(id) = id else {
            return Err(de::Error::missing_field("id"));
        };
        t.ids.push(id);
        t.times.push(time.flatten());
        t.pred_off.push(t.preds.len());
        Ok(())
    }
}

/// A task's `preds` array, appended to the flat list.
struct PredsSeed<'t, 'a>(&'t mut Tasks<'a>);

seed!(PredsSeed, deserialize_seq);

impl<'de, 't> Visitor<'de> for PredsSeed<'t, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of task ids")
    }
    fn visit_seq<S: SeqAccess<'de>>(self, mut s: S) -> Result<(), S::Error> {
        while let Some(p) = s.next_element::<CowStr<'de>>()? {
            let span = self.0.span(p.0);
            self.0.preds.push(span);
        }
        Ok(())
    }
}

#[derive(Deserialize)]
struct SpanFile<'a> {
    #[serde(borrow)]
    tasks: Vec<&'a RawValue>,
}

/// Reads a task graph from JSON text with default [`Limits`].
///
/// ```
/// let g = taskgraph::read_json(r#"{"tasks":[{"id":"x","time":1},{"id":"a","time":2,"preds":["x"]}]}"#).unwrap();
/// assert_eq!(g.span(), 3.0);
/// ```
pub fn read_json(text: &str) -> Result<TaskGraph, GraphError> {
    read_json_with(text, "<json>", &Limits::default())
}

/// Reads a task graph from JSON text; `name` names the input in diagnostics.
///
/// One streaming pass puts the tasks into flat arrays of spans of the text; the ids are then
/// packed and resolved once through a hash index of task numbers (FxHash: a file's ids are
/// keys of a one-off index, and equal hashes are compared in full).
pub fn read_json_with(text: &str, name: &str, limits: &Limits) -> Result<TaskGraph, GraphError> {
    limits.check_bytes(text.len())?;
    let mut file = match scan::scan(text) {
        Some(file) => file,
        None => parse(text).map_err(|e| serde_error(e, name, text))?,
    };
    let n = file.times.len();
    if n > limits.max_tasks {
        return Err(GraphError::limit(
            sweep::Reached::new(sweep::Limit::Tasks, limits.max_tasks as u64),
            format!("{n} tasks, more than the limit of {}", limits.max_tasks),
        ));
    }
    let locate = |e: GraphError, label: &str| -> GraphError {
        match e.task.and_then(|k| task_span(text, k as usize)) {
            Some((s, t)) => e.at(name, text, s, t, label),
            None => e,
        }
    };
    // The ids, packed together: the index and its key comparisons stay in a few MB rather
    // than reaching into the whole text.
    let mut ids = String::with_capacity(file.ids.iter().map(|s| s.len as usize).sum());
    let mut id_off = Vec::with_capacity(n + 1);
    id_off.push(0);
    for &s in &file.ids {
        ids.push_str(file.str(s));
        id_off.push(ids.len());
    }
    let id_of = |k: usize| &ids[id_off[k]..id_off[k + 1]];
    // Ids that end in their task's number plus a constant (`t0, t1, …`, `ID000001, …`) are
    // distinct, and a predecessor's number can be read from its digits (and checked against
    // its id): no index at all. Other ids get a hash index of task numbers (4 bytes a slot,
    // keys compared in `ids`), so that the table of a million tasks stays near the caches.
    let numbered = numbering(n, id_of);
    let hash = |s: &str| {
        let mut h = FxHasher::default();
        h.write(s.as_bytes());
        h.finish()
    };
    let mut index: HashTable<u32> = HashTable::new();
    if numbered.is_none() {
        index.reserve(n, |&j| hash(id_of(j as usize)));
        for k in 0..n {
            let id = id_of(k);
            let h = hash(id);
            match index.entry(
                h,
                |&j| id_of(j as usize) == id,
                |&j| hash(id_of(j as usize)),
            ) {
                Entry::Occupied(o) => {
                    let first = *o.get();
                    let e = GraphError::new(
                        ErrorKind::DuplicateId,
                        format!("duplicate task id `{id}`: tasks #{first} and #{k}"),
                    )
                    .with_help("task ids must be unique")
                    .with_task(k as u32, id);
                    return Err(locate(e, "second task with this id"));
                }
                Entry::Vacant(v) => {
                    v.insert(k as u32);
                }
            }
        }
    }
    let find = |p: &str| match numbered {
        Some(d) => trailing_number(p)
            .and_then(|x| x.checked_sub(d))
            .filter(|&j| j < n && id_of(j) == p)
            .map(|j| j as u32),
        None => index.find(hash(p), |&j| id_of(j as usize) == p).copied(),
    };
    let mut b = TaskGraphBuilder::with_limits(*limits);
    b.assume_unique_ids(); // checked above, with the task location
    b.reserve(n, 0); // the predecessors come as lists, below
    for k in 0..n {
        let Some(time) = file.times[k] else {
            let e = GraphError::new(
                ErrorKind::MissingTime,
                format!("task #{k} `{}` has no `time`", id_of(k)),
            )
            .with_help("add \"time\": <CPU demand> to the task")
            .with_task(k as u32, id_of(k));
            return Err(locate(e, "this task"));
        };
        b.task(id_of(k), time);
    }
    // Predecessors resolved in parallel, into lists per task; an unknown one is an error
    // (the first in file order is reported).
    let resolved: Vec<Option<u32>> = file
        .preds
        .par_iter()
        .map(|&ps| find(file.str(ps)))
        .collect();
    if let Some(bad) = resolved.iter().position(Option::is_none) {
        let k = file.pred_off.partition_point(|&o| o <= bad) - 1;
        let ps = file.preds[bad];
        let p = file.str(ps);
        let mut e = GraphError::new(
            ErrorKind::UnknownTask,
            format!("task #{k} `{}` has unknown predecessor `{p}`", id_of(k)),
        )
        .with_task(k as u32, id_of(k));
        e.help = did_you_mean(&suggest(p, (0..n).map(id_of)));
        // Point at the predecessor string itself when it is in the text.
        if !ps.escaped {
            let at = ps.start as usize - 1;
            return Err(e.at(name, text, at, at + p.len() + 2, "no task has this id"));
        }
        return Err(locate(e, "unknown predecessor"));
    }
    let pred: Vec<u32> = resolved.into_iter().flatten().collect();
    b.pred_lists(std::mem::take(&mut file.pred_off), pred);
    for (k, rates) in &file.rates {
        for (r, &v) in rates {
            b.rate(*k, r, v);
        }
    }
    for (k, map) in &file.attrs {
        let attrs = attrs_from_json(map).map_err(|m| {
            let id = id_of(*k as usize);
            locate(
                GraphError::new(ErrorKind::BadAttribute, format!("task #{k} `{id}`: {m}"))
                    .with_task(*k, id),
                "in this task",
            )
        })?;
        b.attrs(*k, attrs);
    }
    b.build().map_err(|e| locate(e, "this task"))
}

/// The tasks of `text` by the general parser (any valid JSON, exact error positions).
fn parse(text: &str) -> Result<Tasks<'_>, serde_json::Error> {
    let mut file = Tasks::new(text);
    let mut de = serde_json::Deserializer::from_str(text);
    FileSeed(&mut file).deserialize(&mut de)?;
    de.end()?;
    Ok(file)
}

/// The number a string ends in (its trailing decimal digits, at most 18), if any.
pub(crate) fn trailing_number(s: &str) -> Option<usize> {
    split_trailing_number(s).map(|(_, value, _)| value)
}

/// The digits at the end of `s` (at most 18): where they start, their value, and whether
/// they are written plainly (no leading zero, or the single digit `0`).
pub(crate) fn split_trailing_number(s: &str) -> Option<(usize, usize, bool)> {
    let b = s.as_bytes();
    let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 18 {
        return None;
    }
    let start = b.len() - digits;
    let value = b[start..]
        .iter()
        .fold(0u64, |v, &c| v * 10 + u64::from(c - b'0'));
    let value = usize::try_from(value).ok()?;
    Some((start, value, b[start] != b'0' || digits == 1))
}

/// `Some(d)` when the id of every task `k` of `n` ends in the number `k + d`: such ids are
/// all distinct (their numbers are), and the task of an id is its number minus `d`.
fn numbering<'s>(n: usize, id_of: impl Fn(usize) -> &'s str) -> Option<usize> {
    if n == 0 {
        return None;
    }
    let d = trailing_number(id_of(0))?;
    (0..n)
        .all(|k| trailing_number(id_of(k)) == Some(k + d))
        .then_some(d)
}

/// Splits a JSON attribute map into the typed attributes and the extras.
pub(crate) fn attrs_from_json(map: &BTreeMap<String, Value>) -> Result<TaskAttrs, String> {
    let mut a = TaskAttrs::default();
    for (k, v) in map {
        let slot = match k.as_str() {
            "proc" => &mut a.proc,
            "queue" => &mut a.queue,
            "priority" => &mut a.priority,
            _ => {
                a.extra.insert(k.clone(), v.clone());
                continue;
            }
        };
        match v.as_i64() {
            Some(x) => *slot = Some(x),
            None => return Err(format!("attribute `{k}` must be an integer, found {v}")),
        }
    }
    Ok(a)
}

/// Byte range of the `k`-th element of the `tasks` array, by a second, borrowing parse.
fn task_span(text: &str, k: usize) -> Option<(usize, usize)> {
    let f: SpanFile = serde_json::from_str(text).ok()?;
    let raw = f.tasks.get(k)?.get();
    let start = raw.as_ptr() as usize - text.as_ptr() as usize;
    Some((start, start + raw.len()))
}

fn serde_error(e: serde_json::Error, name: &str, text: &str) -> GraphError {
    let (line, col) = (e.line(), e.column());
    let mut msg = e.to_string();
    // serde_json appends " at line L column C"; we add our own location.
    if let Some(i) = msg.rfind(" at line ") {
        msg.truncate(i);
    }
    let err = GraphError::new(ErrorKind::Syntax, format!("invalid task graph JSON: {msg}"))
        .with_help("expected {\"tasks\": [{\"id\": ..., \"time\": ..., \"preds\": [...]}, ...]}");
    if line == 0 {
        return err;
    }
    let off = offset_of(text, line, col.max(1));
    let off = off.min(text.len());
    let end = text[off..]
        .chars()
        .next()
        .map_or(off, |c| off + c.len_utf8());
    err.at(name, text, off, end, "here")
}

/// Writes a graph as JSON: one task per line, keys in the order id, time, preds, rate, attrs;
/// empty `preds`, `rate` and `attrs` are left out. Times are written in shortest
/// round-trip form, so reading the output gives back the same graph.
pub fn write_json(g: &TaskGraph) -> String {
    let mut s = String::with_capacity(g.len() * 40 + g.edge_count() * 8 + 16);
    s.push_str("{\"tasks\": [");
    for i in 0..g.len() as u32 {
        s.push_str(if i == 0 { "\n  " } else { ",\n  " });
        s.push_str("{\"id\": ");
        s.push_str(&json_str(g.id(i)));
        let _ = write!(s, ", \"time\": {}", json_num(g.time(i)));
        let preds = g.preds(i);
        if !preds.is_empty() {
            s.push_str(", \"preds\": [");
            for (k, &p) in preds.iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                s.push_str(&json_str(g.id(p)));
            }
            s.push(']');
        }
        let rates = g.rate_entries(i);
        if !rates.is_empty() {
            s.push_str(", \"rate\": {");
            let mut rs: Vec<(&str, f64)> = g.rates(i).collect();
            rs.sort_by(|a, b| a.0.cmp(b.0));
            for (k, (r, v)) in rs.into_iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                let _ = write!(s, "{}: {}", json_str(r), json_num(v));
            }
            s.push('}');
        }
        let a = g.attrs(i);
        if !a.is_empty() {
            s.push_str(", \"attrs\": ");
            s.push_str(&attrs_to_json(a).to_string());
        }
        s.push('}');
    }
    s.push_str(if g.is_empty() { "]}\n" } else { "\n]}\n" });
    s
}

/// The attributes as one JSON object (typed ones first in key order with the extras).
pub(crate) fn attrs_to_json(a: &TaskAttrs) -> Value {
    let mut m = serde_json::Map::new();
    for (k, v) in [
        ("proc", a.proc),
        ("queue", a.queue),
        ("priority", a.priority),
    ] {
        if let Some(v) = v {
            m.insert(k.to_string(), Value::from(v));
        }
    }
    for (k, v) in &a.extra {
        m.insert(k.clone(), v.clone());
    }
    Value::Object(m)
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

fn json_num(x: f64) -> String {
    // Finite by construction; serde_json writes the shortest round-trip form.
    serde_json::to_string(&x).unwrap_or_else(|_| "0".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sweep::{Limit, Reached};

    /// What a reader pass found: ids, times and predecessor lists as strings.
    type Seen = (Vec<String>, Vec<Option<f64>>, Vec<Vec<String>>);

    fn seen(t: &Tasks) -> Seen {
        let n = t.times.len();
        (
            t.ids.iter().map(|&s| t.str(s).to_string()).collect(),
            t.times.clone(),
            (0..n)
                .map(|k| {
                    t.preds[t.pred_off[k]..t.pred_off[k + 1]]
                        .iter()
                        .map(|&s| t.str(s).to_string())
                        .collect()
                })
                .collect(),
        )
    }

    /// Ids numbered in file order (plus a constant) are resolved from their digits, and a
    /// predecessor that only shares a number with a task is still unknown.
    #[test]
    fn numbered_ids_resolve_by_their_digits() {
        let g = read_json(
            r#"{"tasks": [{"id": "ID000001", "time": 1}, {"id": "ID000002", "time": 2, "preds": ["ID000001"]},
                          {"id": "ID000003", "time": 3, "preds": ["ID000001", "ID000002"]}]}"#,
        )
        .unwrap();
        assert_eq!(g.span(), 6.0);
        let e = read_json(
            r#"{"tasks": [{"id": "t0", "time": 1}, {"id": "t1", "time": 2, "preds": ["x0"]}]}"#,
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::UnknownTask);
        assert!(
            e.message.contains("unknown predecessor `x0`"),
            "{}",
            e.message
        );
        assert_eq!(numbering(3, |k| ["a7", "b8", "c9"][k]), Some(7));
        assert_eq!(numbering(2, |k| ["a7", "b7"][k]), None);
        assert_eq!(trailing_number("task_0042"), Some(42));
        assert_eq!(trailing_number("x"), None);
    }

    /// The fast scanner reads exactly what the general parser reads, and gives up on what
    /// it does not handle.
    #[test]
    fn the_fast_scanner_agrees_with_the_general_parser() {
        let g = crate::gen::layered(&crate::gen::GenOptions {
            tasks: 300,
            width: 20,
            degree: 3.0,
            time: crate::gen::TimeDist::Uniform(0.001, 1e6),
            seed: 7,
            ..Default::default()
        })
        .unwrap();
        let written = write_json(&g);
        let compact: String = written.split_whitespace().collect::<Vec<_>>().join("");
        let spaced = written.replace(',', " ,\n\t").replace(':', " : ");
        let simple = [
            written.as_str(),
            compact.as_str(),
            spaced.as_str(),
            r#"{"tasks":[]}"#,
            r#"{"tasks": [{"time": 1e-3, "id": "a"}, {"id": "b", "preds": [], "time": null}]}"#,
            r#"{"tasks": [{"id": "é", "time": -0.5E+2}]}"#,
        ];
        for text in simple {
            let fast = scan::scan(text).unwrap_or_else(|| panic!("fast path: {text}"));
            let general = parse(text).unwrap();
            assert_eq!(seen(&fast), seen(&general), "{text}");
        }
        // Beyond the fast path: the general parser reads these (or reports their errors).
        let other = [
            r#"{"tasks": [{"id": "a\"b", "time": 1}]}"#,
            r#"{"tasks": [{"id": "a", "time": 1, "rate": {"bus": 1}}]}"#,
            r#"{"name": "x", "tasks": []}"#,
            r#"{"tasks": [{"id": "a", "time": 01}]}"#,
            r#"{"tasks": [{"id": "a", "time": 1e999}]}"#,
            r#"{"tasks": [{"id": "a", "id": "b", "time": 1}]}"#,
            r#"{"tasks": [{"id": "a", "time": 1}]} x"#,
            r#"{"tasks": [{"id": "a", "time": 1},]}"#,
        ];
        for text in other {
            assert!(scan::scan(text).is_none(), "{text}");
        }
        // A large text scanned in two halves gives what one scan gives.
        let big = crate::gen::layered(&crate::gen::GenOptions {
            tasks: 60_000,
            width: 100,
            degree: 3.0,
            seed: 3,
            ..Default::default()
        })
        .unwrap();
        let text = write_json(&big);
        assert!(text.len() > 1 << 22);
        let halves = scan::scan_halves(&text).expect("splits");
        assert_eq!(seen(&halves), seen(&parse(&text).unwrap()));
        // A split point inside a string is refused, not misread.
        let tricky = format!(
            "{{\"tasks\": [{}{{\"id\": \"{}, {{x\", \"time\": 1}}]}}",
            "{\"id\": \"a\", \"time\": 1}, ".repeat(1000),
            "y".repeat(40_000)
        );
        if let Some(t) = scan::scan_halves(&tricky) {
            assert_eq!(seen(&t), seen(&parse(&tricky).unwrap()));
        }
    }

    const EX: &str = r#"{"tasks": [
  {"id": "x", "time": 1.0},
  {"id": "a", "time": 2.0, "preds": ["x"], "rate": {"bus": 0.01}, "attrs": {"proc": 1, "queue": 0, "priority": 5}},
  {"id": "b", "time": 0.5, "preds": ["x", "a"], "attrs": {"color": "red", "proc": -2}}
]}"#;

    #[test]
    fn reads_issue_example() {
        let g = read_json(EX).unwrap();
        assert_eq!(g.len(), 3);
        assert_eq!(g.edge_count(), 3);
        assert_eq!(g.preds(2), &[0, 1]);
        assert_eq!(g.rate(1, "bus"), 0.01);
        assert_eq!(g.attrs(1).priority, Some(5));
        assert_eq!(g.attrs(1).queue, Some(0));
        assert_eq!(g.attrs(2).proc, Some(-2));
        assert_eq!(g.attrs(2).extra["color"], Value::from("red"));
        assert_eq!(g.span(), 3.5);
        assert_eq!(g.work(), 3.5);
    }

    #[test]
    fn round_trip_is_stable() {
        let g = read_json(EX).unwrap();
        let s = write_json(&g);
        let g2 = read_json(&s).unwrap();
        assert_eq!(g, g2);
        assert_eq!(write_json(&g2), s);
        assert!(s.contains(r#"{"id": "a", "time": 2.0, "preds": ["x"], "rate": {"bus": 0.01}, "attrs": {"priority":5,"proc":1,"queue":0}}"#), "{s}");
    }

    #[test]
    fn forward_references_and_odd_times() {
        let g = read_json(
            r#"{"tasks":[{"id":"b","time":0.1,"preds":["a"]},{"id":"a","time":1e-300}],"name":"x"}"#,
        )
        .unwrap();
        assert_eq!(g.preds(0), &[1]);
        let g2 = read_json(&write_json(&g)).unwrap();
        assert_eq!(g2.time(1), 1e-300);
        assert_eq!(g2.time(0), 0.1);
    }

    #[test]
    fn unknown_pred_points_at_it() {
        let t = "{\"tasks\": [\n {\"id\": \"alpha\", \"time\": 1},\n {\"id\": \"b\", \"time\": 1, \"preds\": [\"alpah\"]}\n]}";
        let e = read_json(t).unwrap_err();
        assert_eq!(e.kind, ErrorKind::UnknownTask);
        assert_eq!(e.task, Some(1));
        assert_eq!(e.task_id.as_deref(), Some("b"));
        assert_eq!(e.line_col(), Some((3, 35)));
        assert_eq!(e.help.as_deref(), Some("did you mean `alpha`?"));
        assert!(
            e.message.contains("unknown predecessor `alpah`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn syntax_errors_have_line_col() {
        let e = read_json("{\"tasks\": [\n  {\"id\": \"a\", \"time\": 1,}\n]}").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert_eq!(e.line_col().map(|l| l.0), Some(2));
        let e = read_json("{\"tasks\": [{\"id\": \"a\", \"tim\": 1}]}").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert!(e.message.contains("unknown field `tim`"), "{}", e.message);
        let e = read_json("{\"tasks\": [{\"id\": \"a\", \"time\": \"1\"}]}").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        let e = read_json("").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
    }

    #[test]
    fn error_classes() {
        let cases = [
            (
                r#"{"tasks":[{"id":"a","time":1},{"id":"a","time":2}]}"#,
                ErrorKind::DuplicateId,
                Some(1),
            ),
            (r#"{"tasks":[{"id":"a"}]}"#, ErrorKind::MissingTime, Some(0)),
            (
                r#"{"tasks":[{"id":"a","time":-1}]}"#,
                ErrorKind::BadTime,
                Some(0),
            ),
            (
                r#"{"tasks":[{"id":"a","time":1,"preds":["a"]}]}"#,
                ErrorKind::SelfLoop,
                Some(0),
            ),
            (
                r#"{"tasks":[{"id":"a","time":1,"rate":{"bus":-1}}]}"#,
                ErrorKind::BadRate,
                Some(0),
            ),
            (
                r#"{"tasks":[{"id":"a","time":1,"attrs":{"proc":1.5}}]}"#,
                ErrorKind::BadAttribute,
                Some(0),
            ),
            (
                r#"{"tasks":[{"id":"","time":1}]}"#,
                ErrorKind::Syntax,
                Some(0),
            ),
            (
                r#"{"tasks":[{"id":"a","time":1,"preds":["c"]},{"id":"b","time":1,"preds":["a"]},{"id":"c","time":1,"preds":["b"]}]}"#,
                ErrorKind::Cycle,
                Some(0),
            ),
        ];
        for (text, kind, task) in cases {
            let e = read_json(text).unwrap_err();
            assert_eq!((e.kind, e.task), (kind, task), "{text}: {}", e.message);
            if task.is_some() {
                assert!(e.line_col().is_some(), "{text}");
            }
        }
        let e = read_json(
            r#"{"tasks":[{"id":"a","time":1,"preds":["c"]},{"id":"b","time":1,"preds":["a"]},{"id":"c","time":1,"preds":["b"]}]}"#,
        )
        .unwrap_err();
        assert!(e.message.contains("a -> b -> c -> a"), "{}", e.message);
    }

    #[test]
    fn limits() {
        let l = Limits {
            max_bytes: 10,
            ..Limits::default()
        };
        let e = read_json_with(EX, "x", &l).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(Reached::new(Limit::InputBytes, 10)));
        assert!(
            e.message
                .ends_with("bytes, more than the limit of 10 bytes"),
            "{}",
            e.message
        );
        let l = Limits {
            max_tasks: 2,
            ..Limits::default()
        };
        let e = read_json_with(EX, "x", &l).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(Reached::new(Limit::Tasks, 2)));
        let l = Limits {
            max_edges: 2,
            ..Limits::default()
        };
        let e = read_json_with(EX, "x", &l).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(Reached::new(Limit::Edges, 2)));
        assert_eq!(e.message, "more than 2 edges: the limit");
        // Errors other than limits carry no stop reason.
        let e = read_json_with("{\"tasks\": [", "x", &Limits::default()).unwrap_err();
        assert_eq!((e.kind, e.reached), (ErrorKind::Syntax, None));
    }

    #[test]
    fn renders_with_miette() {
        let t = "{\"tasks\": [\n {\"id\": \"a\", \"time\": 1},\n {\"id\": \"a\", \"time\": 2}\n]}";
        let e = read_json_with(t, "g.json", &Limits::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::DuplicateId);
        assert_eq!(e.line_col(), Some((3, 2)));
        assert_eq!(e.label(), "second task with this id");
        let mut out = String::new();
        miette::NarratableReportHandler::new()
            .render_report(&mut out, &e)
            .unwrap();
        assert!(
            out.contains("duplicate task id `a`: tasks #0 and #1 (at line 3, column 2)"),
            "{out}"
        );
        assert!(out.contains("second task with this id"), "{out}");
        assert!(out.contains("task ids must be unique"), "{out}");
    }
}
