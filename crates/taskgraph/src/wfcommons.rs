//! Import of WfCommons workflow instances (WfFormat JSON, <https://wfcommons.org>).
//!
//! Three layouts are recognised:
//!
//! - schema 1.5: tasks in `workflow.specification.tasks` (`name`, `id`, `parents`,
//!   `children`), runtimes in `workflow.execution.tasks` matched by `id`;
//! - schema 1.4 and earlier: tasks in `workflow.tasks` with the runtime on the task;
//! - the oldest WorkflowHub layout: `workflow.jobs`, runtime on the job.
//!
//! The runtime is `runtimeInSeconds` (or `runtime`) and becomes the task time. Edges are the
//! union of `parents` and `children` links; a link may name a task by `id` or by `name` (the
//! Pegasus 1.4 instances name parents by `name`). The task id kept is the task `name` when all
//! names are unique, else the WfCommons `id` (Nextflow instances reuse process names); the
//! other one is kept as the extra attribute `wf_id` or `name`. `makespanInSeconds` is not
//! read: in real instances it is not derivable from the task runtimes.

use std::collections::HashMap;

use serde_json::Value;

use crate::error::{ErrorKind, GraphError};
use crate::graph::{Limits, TaskAttrs, TaskGraph, TaskGraphBuilder};
use diag::{did_you_mean, suggest};

/// Options for [`read_wfcommons_with`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WfOptions {
    /// Time for tasks without a runtime (`None`: such tasks are errors).
    pub default_time: Option<f64>,
    /// Size limits.
    pub limits: Limits,
}

/// Reads a WfCommons instance with default options.
pub fn read_wfcommons(text: &str) -> Result<TaskGraph, GraphError> {
    read_wfcommons_with(text, "<wfcommons>", &WfOptions::default())
}

fn syntax(msg: impl Into<String>) -> GraphError {
    GraphError::new(ErrorKind::Syntax, msg)
        .with_help("expected a WfFormat instance: {\"workflow\": {\"specification\": {\"tasks\": [...]}, \"execution\": {\"tasks\": [...]}}} or {\"workflow\": {\"tasks\": [...]}}")
}

fn str_field<'v>(t: &'v Value, k: &str) -> Option<&'v str> {
    t.get(k).and_then(Value::as_str)
}

fn runtime(t: &Value) -> Option<&Value> {
    t.get("runtimeInSeconds").or_else(|| t.get("runtime"))
}

/// Reads a WfCommons instance; `name` names the input in diagnostics.
pub fn read_wfcommons_with(
    text: &str,
    name: &str,
    opts: &WfOptions,
) -> Result<TaskGraph, GraphError> {
    opts.limits.check_bytes(text.len())?;
    let root: Value = serde_json::from_str(text).map_err(|e| {
        let (l, c) = (e.line(), e.column());
        let g = syntax(format!("invalid JSON: {e}"));
        if l > 0 {
            let off = diag::offset_of(text, l, c.max(1));
            g.at(name, text, off, off, "here")
        } else {
            g
        }
    })?;
    let wf = root
        .get("workflow")
        .ok_or_else(|| syntax("no `workflow` object"))?;
    let (tasks, exec): (&Vec<Value>, Option<&Vec<Value>>) = if let Some(t) = wf
        .get("specification")
        .and_then(|s| s.get("tasks"))
        .and_then(Value::as_array)
    {
        let ex = wf
            .get("execution")
            .and_then(|e| e.get("tasks"))
            .and_then(Value::as_array);
        (t, ex)
    } else if let Some(t) = wf.get("tasks").and_then(Value::as_array) {
        (t, None)
    } else if let Some(t) = wf.get("jobs").and_then(Value::as_array) {
        (t, None)
    } else {
        return Err(syntax(
            "no task list: expected `workflow.specification.tasks`, `workflow.tasks` or `workflow.jobs`",
        ));
    };
    if tasks.len() > opts.limits.max_tasks {
        return Err(GraphError::limit(
            sweep::Reached::new(sweep::Limit::Tasks, opts.limits.max_tasks as u64),
            format!(
                "{} tasks, more than the limit of {}",
                tasks.len(),
                opts.limits.max_tasks
            ),
        ));
    }
    let mut names = Vec::with_capacity(tasks.len());
    let mut wf_ids = Vec::with_capacity(tasks.len());
    for (k, t) in tasks.iter().enumerate() {
        let nm = str_field(t, "name");
        let id = str_field(t, "id");
        if nm.is_none() && id.is_none() {
            return Err(syntax(format!("task #{k} has neither `name` nor `id`")));
        }
        names.push(nm);
        wf_ids.push(id);
    }
    let mut by_name: HashMap<&str, u32> = HashMap::new();
    let mut names_unique = names.iter().all(Option::is_some);
    for (k, n) in names.iter().enumerate() {
        if let Some(n) = n {
            if by_name.insert(n, k as u32).is_some() {
                names_unique = false;
            }
        }
    }
    let mut by_id: HashMap<&str, u32> = HashMap::new();
    for (k, i) in wf_ids.iter().enumerate() {
        if let Some(i) = i {
            by_id.insert(i, k as u32);
        }
    }
    let chosen: Vec<&str> = (0..tasks.len())
        .map(|k| {
            if names_unique {
                names[k].unwrap_or("")
            } else {
                wf_ids[k].or(names[k]).unwrap_or("")
            }
        })
        .collect();
    // Runtimes from the execution section, by id.
    let mut exec_rt: HashMap<&str, &Value> = HashMap::new();
    if let Some(ex) = exec {
        for e in ex {
            if let (Some(i), Some(r)) = (str_field(e, "id").or(str_field(e, "name")), runtime(e)) {
                exec_rt.insert(i, r);
            }
        }
    }
    let mut b = TaskGraphBuilder::with_limits(opts.limits);
    for (k, t) in tasks.iter().enumerate() {
        let k32 = k as u32;
        let rt = runtime(t).or_else(|| {
            wf_ids[k]
                .and_then(|i| exec_rt.get(i))
                .or_else(|| names[k].and_then(|n| exec_rt.get(n)))
                .copied()
        });
        let time = match rt {
            Some(v) => v.as_f64().ok_or_else(|| {
                GraphError::new(
                    ErrorKind::BadTime,
                    format!("task #{k} `{}` has runtime {v}, not a number", chosen[k]),
                )
                .with_task(k32, chosen[k])
            })?,
            None => opts.default_time.ok_or_else(|| {
                GraphError::new(
                    ErrorKind::MissingTime,
                    format!("task #{k} `{}` has no runtime", chosen[k]),
                )
                .with_help(
                    "expected `runtimeInSeconds` on the task or in `workflow.execution.tasks`",
                )
                .with_task(k32, chosen[k])
            })?,
        };
        b.task(chosen[k], time);
        let mut attrs = TaskAttrs::default();
        if names_unique {
            if let Some(i) = wf_ids[k] {
                if i != chosen[k] {
                    attrs.extra.insert("wf_id".into(), Value::from(i));
                }
            }
        } else if let Some(n) = names[k] {
            if n != chosen[k] {
                attrs.extra.insert("name".into(), Value::from(n));
            }
        }
        b.attrs(k32, attrs);
    }
    let resolve = |r: &str| by_id.get(r).or_else(|| by_name.get(r)).copied();
    for (k, t) in tasks.iter().enumerate() {
        let k32 = k as u32;
        for (key, is_parent) in [("parents", true), ("children", false)] {
            let Some(list) = t.get(key) else { continue };
            let Some(list) = list.as_array() else {
                return Err(
                    syntax(format!("task #{k} `{}`: `{key}` is not a list", chosen[k]))
                        .with_task(k32, chosen[k]),
                );
            };
            for r in list {
                let Some(r) = r.as_str() else {
                    return Err(syntax(format!(
                        "task #{k} `{}`: `{key}` holds {r}, not a task name",
                        chosen[k]
                    ))
                    .with_task(k32, chosen[k]));
                };
                match resolve(r) {
                    Some(o) if is_parent => b.edge(o, k32),
                    Some(o) => b.edge(k32, o),
                    None => {
                        let mut e = GraphError::new(
                            ErrorKind::UnknownTask,
                            format!("task #{k} `{}` lists unknown {key} entry `{r}`", chosen[k]),
                        )
                        .with_task(k32, chosen[k]);
                        e.help =
                            did_you_mean(&suggest(r, by_id.keys().chain(by_name.keys()).copied()));
                        return Err(e);
                    }
                }
            }
        }
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_layout_with_parents_by_name() {
        let t = r#"{"workflow": {"tasks": [
            {"name": "a_ID1", "id": "ID1", "runtimeInSeconds": 2.5, "parents": []},
            {"name": "b_ID2", "id": "ID2", "runtimeInSeconds": 1.0, "parents": ["a_ID1"]},
            {"name": "c_ID3", "id": "ID3", "runtime": 4, "parents": ["ID1", "b_ID2"]}
        ]}}"#;
        let g = read_wfcommons(t).unwrap();
        assert_eq!(g.ids().collect::<Vec<_>>(), vec!["a_ID1", "b_ID2", "c_ID3"]);
        assert_eq!(g.preds(2), &[0, 1]);
        assert_eq!(g.span(), 7.5);
        assert_eq!(g.attrs(0).extra["wf_id"], Value::from("ID1"));
    }

    #[test]
    fn new_layout_and_jobs() {
        let t = r#"{"workflow": {"specification": {"tasks": [
            {"name": "p", "id": "p_1", "children": ["p_2"], "parents": []},
            {"name": "p", "id": "p_2", "children": [], "parents": ["p_1"]}
        ]}, "execution": {"tasks": [{"id": "p_2", "runtimeInSeconds": 3.0},
                                    {"id": "p_1", "runtimeInSeconds": 1.0}]}}}"#;
        let g = read_wfcommons(t).unwrap();
        assert_eq!(g.ids().collect::<Vec<_>>(), vec!["p_1", "p_2"]);
        assert_eq!(g.edge_count(), 1);
        assert_eq!(g.times(), &[1.0, 3.0]);
        assert_eq!(g.attrs(1).extra["name"], Value::from("p"));
        let j = r#"{"workflow": {"jobs": [{"name": "x", "runtime": 1}, {"name": "y", "runtime": 2, "parents": ["x"]}]}}"#;
        assert_eq!(read_wfcommons(j).unwrap().span(), 3.0);
    }

    #[test]
    fn errors() {
        let e = read_wfcommons(r#"{"workflow": {"tasks": [{"name": "x"}]}}"#).unwrap_err();
        assert_eq!(e.kind, ErrorKind::MissingTime);
        let g = read_wfcommons_with(
            r#"{"workflow": {"tasks": [{"name": "x"}]}}"#,
            "x",
            &WfOptions {
                default_time: Some(1.0),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(g.time(0), 1.0);
        let e = read_wfcommons(
            r#"{"workflow": {"tasks": [{"name": "xy", "runtime": 1, "parents": ["xz"]}]}}"#,
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::UnknownTask);
        assert_eq!(e.help.as_deref(), Some("did you mean `xy`?"));
        let e = read_wfcommons(r#"{"workflow": {}}"#).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        let e = read_wfcommons("{\"workflow\": [").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        let e = read_wfcommons(
            r#"{"workflow": {"tasks": [{"name": "a", "runtime": 1, "parents": ["b"]}, {"name": "b", "runtime": 1, "parents": ["a"]}]}}"#,
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cycle);
        let e = read_wfcommons(r#"{"workflow": {"tasks": [{"name": "a", "runtime": -1}]}}"#)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadTime);
        let one = WfOptions {
            limits: Limits {
                max_tasks: 1,
                ..Limits::default()
            },
            ..WfOptions::default()
        };
        let two = r#"{"workflow": {"tasks": [{"name": "a", "runtime": 1}, {"name": "b", "runtime": 1}]}}"#;
        let e = read_wfcommons_with(two, "x", &one).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(sweep::Reached::new(sweep::Limit::Tasks, 1)));
        assert_eq!(e.message, "2 tasks, more than the limit of 1");
    }
}
