//! Deterministic task graph analysis (Adve & Vernon; spec `dtga-adve-vernon.md` §4): given a
//! task DAG, a scheduling policy, P processes and optionally a system model, the exact
//! sequence of task starts and ends, the makespan, and where the time went.
//!
//! The engine ([`engine::analyze`]) is the paper's Fig. 2 loop; [`policy`] holds the
//! scheduling functions (a small trait, so users can add their own), [`system`] the
//! lower-level models that turn the concurrency state into per-task overheads (none, constant
//! latency, or a closed queueing network solved by MVA), and [`report`] the metrics and the
//! schedule as a `trace::Trace`. [`setup`] configures a policy and system model once to
//! analyse at any number of processes (the point function of a sweep over P), and
//! [`explain`] renders the report of an analysis or a sweep. The engine runs on anything
//! implementing [`Dag`], which [`crate::TaskGraph`] does.
//!
//! ```
//! use taskgraph::analysis::{analyze_graph, policy::PolicyKind, system::NoOverhead};
//! let g = taskgraph::read_json(r#"{"tasks": [
//!     {"id": "A", "time": 2}, {"id": "B", "time": 3, "preds": ["A"]},
//!     {"id": "C", "time": 5, "preds": ["A"]}, {"id": "D", "time": 1, "preds": ["B", "C"]}
//! ]}"#).unwrap();
//! let s = analyze_graph(&g, 2, PolicyKind::Fifo, &mut NoOverhead).unwrap();
//! assert_eq!(s.makespan, 8.0); // the critical path A-C-D
//! ```

pub mod engine;
pub mod explain;
pub mod policy;
pub mod report;
pub mod scaling;
pub mod setup;
pub mod system;

/// Attributes a policy may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attr {
    /// `attrs.proc`
    Proc,
    /// `attrs.queue`
    Queue,
    /// `attrs.priority`
    Priority,
}

/// What the analysis needs of a task graph.
pub trait Dag {
    /// Number of tasks.
    fn len(&self) -> usize;
    /// Whether there are no tasks.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The task's id, for messages and output.
    fn id(&self, t: u32) -> String;
    /// CPU demand T_i.
    fn time(&self, t: u32) -> f64;
    /// Immediate successors.
    fn successors(&self, t: u32) -> &[u32];
    /// Number of immediate predecessors.
    fn pred_count(&self, t: u32) -> u32;
    /// An integer attribute, if set.
    fn attr(&self, t: u32, a: Attr) -> Option<i64>;
    /// Request rate per unit of CPU time for resource `key`, or the sum over all resources
    /// (Σ_j M_ij) for `None`; 0 when the task has none.
    fn rate(&self, t: u32, key: Option<&str>) -> f64;
}

/// Errors of the analysis.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum AnalysisError {
    /// No processes: `procs` is 0.
    #[error("the number of processes must be between 1 and {max}, got {procs}")]
    Procs {
        /// Given.
        procs: usize,
        /// The most processes ([`engine::Limits::max_procs`]).
        max: usize,
    },
    /// More processes than [`engine::Limits::max_procs`].
    #[error(
        "the number of processes must be between 1 and {}, got {procs}",
        reached.value
    )]
    TooManyProcs {
        /// Given.
        procs: usize,
        /// The limit reached: [`sweep::Limit::Processes`] at [`engine::Limits::max_procs`].
        reached: sweep::Reached,
    },
    /// A task attribute the policy needs is missing or invalid.
    #[error("task `{task}`: {message}")]
    Attribute {
        /// Task id.
        task: String,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// A time or overhead that is not a finite number: the task's time makes the total work
    /// overflow, its request rates sum to infinity, or the system model's response time
    /// overflows while it executes.
    #[error("task `{task}`: {message}")]
    Overflow {
        /// Task id.
        task: String,
        /// What overflowed, with the values.
        message: String,
    },
    /// The graph has a cycle.
    #[error("the graph has a cycle through task `{task}`")]
    Cycle {
        /// A task on the cycle.
        task: String,
    },
    /// Ready tasks remain that no process may take, or tasks never became ready.
    #[error("the schedule deadlocked: {finished} of {total} tasks finished, {ready} ready tasks no process may take (e.g. `{example}`); check the policy's assignment attributes")]
    Deadlock {
        /// Tasks finished.
        finished: usize,
        /// All tasks.
        total: usize,
        /// Ready tasks left.
        ready: usize,
        /// An unfinished task.
        example: String,
    },
}

impl AnalysisError {
    fn missing(g: &dyn Dag, t: u32, attr: &str) -> Self {
        AnalysisError::Attribute {
            task: g.id(t),
            message: format!("this policy needs `attrs.{attr}`, which the task lacks; add it or choose another policy"),
        }
    }
}

impl diag::Advise for AnalysisError {
    /// What to change: the processes, the policy or its attributes, the graph's units.
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::fix(match self {
            AnalysisError::Procs { .. } | AnalysisError::TooManyProcs { .. } => {
                "give {procs} a number of processes within the limit"
            }
            AnalysisError::Attribute { .. } => {
                "policies `assigned` need attrs.proc, `queues` attrs.queue, `priority` \
                 attrs.priority on every task; or choose another {policy}"
            }
            AnalysisError::Cycle { .. } => "remove the cycle: a task graph must be acyclic",
            AnalysisError::Overflow { .. } => {
                "keep times, rates and service demands in a unit where their sums and products \
                 stay finite numbers"
            }
            AnalysisError::Deadlock { .. } => {
                "with {policy} queues and fewer processes than queues, add {steal}; with \
                 static policies check the assignment attributes"
            }
        }))
    }
}

impl Dag for crate::TaskGraph {
    fn len(&self) -> usize {
        crate::TaskGraph::len(self)
    }
    fn id(&self, t: u32) -> String {
        crate::TaskGraph::id(self, t).to_string()
    }
    fn time(&self, t: u32) -> f64 {
        crate::TaskGraph::time(self, t)
    }
    fn successors(&self, t: u32) -> &[u32] {
        self.succs(t)
    }
    fn pred_count(&self, t: u32) -> u32 {
        self.preds(t).len() as u32
    }
    fn attr(&self, t: u32, a: Attr) -> Option<i64> {
        let at = self.attrs(t);
        match a {
            Attr::Proc => at.proc,
            Attr::Queue => at.queue,
            Attr::Priority => at.priority,
        }
    }
    fn rate(&self, t: u32, key: Option<&str>) -> f64 {
        match key {
            Some(k) => crate::TaskGraph::rate(self, t, k),
            None => self.rate_entries(t).iter().map(|&(_, r)| r).sum(),
        }
    }
}

/// A what-if view of a graph in which every task makes `rate` requests per unit of CPU time
/// (for every resource key), whatever its own rates say.
pub struct UniformRate<'a, D: Dag + ?Sized> {
    /// The graph.
    pub graph: &'a D,
    /// The request rate of every task.
    pub rate: f64,
}

impl<D: Dag + ?Sized> Dag for UniformRate<'_, D> {
    fn len(&self) -> usize {
        self.graph.len()
    }
    fn id(&self, t: u32) -> String {
        self.graph.id(t)
    }
    fn time(&self, t: u32) -> f64 {
        self.graph.time(t)
    }
    fn successors(&self, t: u32) -> &[u32] {
        self.graph.successors(t)
    }
    fn pred_count(&self, t: u32) -> u32 {
        self.graph.pred_count(t)
    }
    fn attr(&self, t: u32, a: Attr) -> Option<i64> {
        self.graph.attr(t, a)
    }
    fn rate(&self, _: u32, _: Option<&str>) -> f64 {
        self.rate
    }
}

/// Analyses a task graph with a built-in policy (see [`engine::analyze`] for the general form).
pub fn analyze_graph(
    g: &crate::TaskGraph,
    procs: usize,
    policy: policy::PolicyKind,
    system: &mut dyn system::SystemModel,
) -> Result<engine::Schedule, AnalysisError> {
    let mut p = policy.build();
    engine::analyze(g, procs, p.as_mut(), system, &engine::Limits::default())
}

/// Bottom level of every task: its time plus the longest path below it (iterative, O(N+E)).
pub fn bottom_levels(g: &dyn Dag) -> Result<Vec<f64>, AnalysisError> {
    let order = topological_order(g)?;
    let mut bl = vec![0.0f64; g.len()];
    for &t in order.iter().rev() {
        let below = g
            .successors(t)
            .iter()
            .map(|&s| bl[s as usize])
            .fold(0.0, f64::max);
        bl[t as usize] = g.time(t) + below;
    }
    Ok(bl)
}

/// A topological order (Kahn's algorithm, ties in task order), or the cycle error.
pub fn topological_order(g: &dyn Dag) -> Result<Vec<u32>, AnalysisError> {
    let n = g.len();
    let mut indeg: Vec<u32> = (0..n as u32).map(|t| g.pred_count(t)).collect();
    let mut order: Vec<u32> = (0..n as u32).filter(|&t| indeg[t as usize] == 0).collect();
    let mut head = 0;
    while head < order.len() {
        let t = order[head];
        head += 1;
        for &s in g.successors(t) {
            let k = &mut indeg[s as usize];
            *k -= 1;
            if *k == 0 {
                order.push(s);
            }
        }
    }
    if order.len() < n {
        let t = (0..n as u32).find(|&t| indeg[t as usize] > 0).unwrap_or(0);
        return Err(AnalysisError::Cycle { task: g.id(t) });
    }
    Ok(order)
}

#[cfg(test)]
mod tests;
