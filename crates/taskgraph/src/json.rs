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
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::error::{ErrorKind, GraphError};
use crate::graph::{Limits, TaskAttrs, TaskGraph, TaskGraphBuilder};
use diag::{did_you_mean, offset_of, suggest};

#[derive(Deserialize)]
struct JsonFile<'a> {
    #[serde(borrow)]
    tasks: Vec<JsonTask<'a>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonTask<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    time: Option<f64>,
    #[serde(default, borrow)]
    preds: Vec<Cow<'a, str>>,
    #[serde(default)]
    rate: BTreeMap<String, f64>,
    #[serde(default)]
    attrs: BTreeMap<String, Value>,
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
pub fn read_json_with(text: &str, name: &str, limits: &Limits) -> Result<TaskGraph, GraphError> {
    limits.check_bytes(text.len())?;
    let file: JsonFile = serde_json::from_str(text).map_err(|e| serde_error(e, name, text))?;
    if file.tasks.len() > limits.max_tasks {
        return Err(GraphError::new(
            ErrorKind::Limit,
            format!(
                "{} tasks, more than the limit of {}",
                file.tasks.len(),
                limits.max_tasks
            ),
        ));
    }
    let locate = |e: GraphError, label: &str| -> GraphError {
        match e.task.and_then(|k| task_span(text, k as usize)) {
            Some((s, t)) => e.at(name, text, s, t, label),
            None => e,
        }
    };
    let mut index: HashMap<&str, u32> = HashMap::with_capacity(file.tasks.len());
    for (k, t) in file.tasks.iter().enumerate() {
        if let Some(first) = index.insert(t.id.as_ref(), k as u32) {
            let e = GraphError::new(
                ErrorKind::DuplicateId,
                format!("duplicate task id `{}`: tasks #{first} and #{k}", t.id),
            )
            .with_help("task ids must be unique")
            .with_task(k as u32, t.id.as_ref());
            return Err(locate(e, "second task with this id"));
        }
    }
    let mut b = TaskGraphBuilder::with_limits(*limits);
    b.assume_unique_ids(); // checked above, with the task location
    let edges: usize = file.tasks.iter().map(|t| t.preds.len()).sum();
    b.reserve(file.tasks.len(), edges);
    for (k, t) in file.tasks.iter().enumerate() {
        let Some(time) = t.time else {
            let e = GraphError::new(
                ErrorKind::MissingTime,
                format!("task #{k} `{}` has no `time`", t.id),
            )
            .with_help("add \"time\": <CPU demand> to the task")
            .with_task(k as u32, t.id.as_ref());
            return Err(locate(e, "this task"));
        };
        b.task(&t.id, time);
    }
    for (k, t) in file.tasks.iter().enumerate() {
        let k32 = k as u32;
        for p in &t.preds {
            match index.get(p.as_ref()) {
                Some(&pi) => b.edge(pi, k32),
                None => {
                    let mut e = GraphError::new(
                        ErrorKind::UnknownTask,
                        format!("task #{k} `{}` has unknown predecessor `{p}`", t.id),
                    )
                    .with_task(k32, t.id.as_ref());
                    e.help = did_you_mean(&suggest(p, index.keys().copied()));
                    // Point at the predecessor string itself when it can be found.
                    if let Some((s, _)) = task_span(text, k) {
                        let raw = &text[s..];
                        let quoted = serde_json::to_string(p).unwrap_or_default();
                        if let Some(pp) = raw.find("\"preds\"") {
                            if let Some(q) = raw[pp..].find(&quoted) {
                                let at = s + pp + q;
                                return Err(e.at(
                                    name,
                                    text,
                                    at,
                                    at + quoted.len(),
                                    "no task has this id",
                                ));
                            }
                        }
                    }
                    return Err(locate(e, "unknown predecessor"));
                }
            }
        }
        for (r, &v) in &t.rate {
            b.rate(k32, r, v);
        }
        let attrs = attrs_from_json(&t.attrs).map_err(|m| {
            locate(
                GraphError::new(
                    ErrorKind::BadAttribute,
                    format!("task #{k} `{}`: {m}", t.id),
                )
                .with_task(k32, t.id.as_ref()),
                "in this task",
            )
        })?;
        b.attrs(k32, attrs);
    }
    b.build().map_err(|e| locate(e, "this task"))
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
        assert_eq!(e.line_col, Some((3, 35)));
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
        assert_eq!(e.line_col.map(|l| l.0), Some(2));
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
                assert!(e.line_col.is_some(), "{text}");
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
        let l = Limits {
            max_tasks: 2,
            ..Limits::default()
        };
        assert_eq!(
            read_json_with(EX, "x", &l).unwrap_err().kind,
            ErrorKind::Limit
        );
        let l = Limits {
            max_edges: 2,
            ..Limits::default()
        };
        assert_eq!(
            read_json_with(EX, "x", &l).unwrap_err().kind,
            ErrorKind::Limit
        );
    }

    #[test]
    fn renders_with_miette() {
        let t = "{\"tasks\": [\n {\"id\": \"a\", \"time\": 1},\n {\"id\": \"a\", \"time\": 2}\n]}";
        let e = read_json_with(t, "g.json", &Limits::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::DuplicateId);
        assert_eq!(e.line_col, Some((3, 2)));
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
