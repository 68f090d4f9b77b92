//! Task DAGs for deterministic task graph analysis (Adve & Vernon; spec
//! `dtga-adve-vernon.md` §2–§3): the intermediate representation, its file formats,
//! validation, and random graph generators.
//!
//! A [`TaskGraph`] is a validated DAG of tasks. Each task has a string id (kept for output),
//! a time T_i (its CPU demand), direct predecessors (its parents), request rates M_ij per
//! resource for a system model, and attributes that scheduling policies read (`proc`,
//! `queue`, `priority`, and free-form extras). Tasks are numbered `0..N` as `u32`;
//! predecessor and successor lists are stored in CSR form and times in a `Vec<f64>`, so a
//! list-scheduling engine can run in O(N·P + E). Several roots are allowed (no dummy root is
//! added).
//!
//! Formats: the task-graph JSON format ([`read_json`], [`write_json`];
//! schema in `docs/taskgraph.schema.json`), DOT ([`dot::read_dot`], [`dot::write_dot`]),
//! WfCommons WfFormat instances ([`wfcommons::read_wfcommons`]) and the Standard Task Graph
//! format ([`stg::read_stg`]); [`format::read`] and [`format::write`] dispatch on a
//! [`Format`] chosen by name, extension or content. Every reader enforces [`Limits`], reports errors as
//! [`GraphError`] (with the task and line:column where known, renderable by `miette`), and
//! never panics on malformed input. All graph algorithms are iterative.
//!
//! Generators ([`gen`]) make reproducible random graphs: layered, fork-join, wavefront and
//! series-parallel.
//!
//! ```
//! use taskgraph::{read_json, write_json};
//!
//! let g = read_json(r#"{"tasks": [
//!     {"id": "x", "time": 1.0},
//!     {"id": "a", "time": 2.0, "preds": ["x"], "rate": {"bus": 0.01},
//!      "attrs": {"proc": 1, "queue": 0, "priority": 5}},
//!     {"id": "b", "time": 4.0, "preds": ["x"]},
//!     {"id": "c", "time": 1.0, "preds": ["a", "b"]}
//! ]}"#).unwrap();
//! assert_eq!(g.work(), 8.0);
//! assert_eq!(g.span(), 6.0);
//! assert_eq!(g.critical_path_ids(), vec!["x", "b", "c"]);
//! assert_eq!(g.max_level_width(), 2);
//! assert_eq!(g.attrs(1).priority, Some(5));
//! // Writing and reading back gives the same graph.
//! assert_eq!(read_json(&write_json(&g)).unwrap(), g);
//!
//! // A generated graph: 1000 tasks in layers of 10, 2 predecessors per task on average.
//! let opts = taskgraph::gen::GenOptions { tasks: 1000, width: 10, degree: 2.0,
//!     ..Default::default() };
//! let h = taskgraph::gen::layered(&opts).unwrap();
//! assert_eq!(h.len(), 1000);
//! assert_eq!(h.span(), 100.0); // 100 layers of unit-time tasks
//! ```

pub mod analysis;
pub mod dot;
pub mod error;
pub mod format;
pub mod gen;
pub mod graph;
pub mod json;
pub mod stg;
pub mod wfcommons;

pub use error::{ErrorKind, GraphError};
pub use format::Format;
pub use graph::{CriticalPath, Limits, TaskAttrs, TaskGraph, TaskGraphBuilder};
pub use json::{read_json, read_json_with, write_json};
