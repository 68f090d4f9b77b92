//! Replay: a recorded DAG as a task graph for the task-graph engine (Adve & Vernon's
//! analysis), which schedules it at any P under its policies. A strand becomes a task of its
//! duration; a collapsed node a task of its work (its inner parallelism is not recorded, so
//! a replay of a collapsed recording is serial inside those nodes: record with collapsing
//! off to replay at more workers than recorded).

use crate::dag::{Graph, NodeKind};
use taskgraph::graph::TaskGraphBuilder;
use taskgraph::{GraphError, TaskGraph};

/// The task graph of `g`, with times in seconds (`seconds_per_unit` per clock unit).
/// Task `k` is named `n{k}` after the graph's node `k`.
///
/// # Errors
/// The task-graph engine's [`GraphError`] (past its limits on tasks or edges).
pub fn task_graph(g: &Graph, seconds_per_unit: f64) -> Result<TaskGraph, GraphError> {
    let mut b = TaskGraphBuilder::new();
    b.reserve(g.nodes.len(), g.edge_count());
    for (v, n) in g.nodes.iter().enumerate() {
        b.task(&format!("n{v}"), n.work as f64 * seconds_per_unit);
    }
    let mut off = Vec::with_capacity(g.nodes.len() + 1);
    let mut preds = Vec::with_capacity(g.edge_count());
    off.push(0);
    for v in 0..g.nodes.len() {
        preds.extend(g.preds(v).iter().map(|&(u, _)| u));
        off.push(preds.len());
    }
    b.pred_lists(off, preds);
    b.build()
}

/// How much of `g`'s work sits in collapsed nodes (0 to 1): the part a replay cannot
/// spread over more workers than recorded.
pub fn collapsed_share(g: &Graph) -> f64 {
    let total: u64 = g.nodes.iter().map(|n| n.work).sum();
    let collapsed: u64 = g
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Collapsed && n.counts.strands > 1)
        .map(|n| n.work)
        .sum();
    if total == 0 {
        0.0
    } else {
        collapsed as f64 / total as f64
    }
}
