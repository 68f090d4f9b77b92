//! The task-graph IR: tasks with times, CSR predecessor/successor lists, request rates and
//! attributes, plus the builder that validates them.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use crate::error::{ErrorKind, GraphError};
use sweep::{Limit, Reached};

/// Size limits for building and reading graphs. Inputs beyond them are rejected with an
/// [`ErrorKind::Limit`] error instead of exhausting memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most tasks in one graph (default 10^7).
    pub max_tasks: usize,
    /// Most edges (precedences) in one graph (default 10^8).
    pub max_edges: usize,
    /// Most bytes of input text (default 1 GiB).
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_tasks: 10_000_000,
            max_edges: 100_000_000,
            max_bytes: 1 << 30,
        }
    }
}

impl Limits {
    /// Fails with [`ErrorKind::Limit`] if `len` bytes of text exceed [`Limits::max_bytes`].
    pub fn check_bytes(&self, len: usize) -> Result<(), GraphError> {
        if len > self.max_bytes {
            Err(GraphError::limit(
                Reached::new(Limit::InputBytes, self.max_bytes as u64),
                format!(
                    "input is {len} bytes, more than the limit of {} bytes",
                    self.max_bytes
                ),
            )
            .with_help("raise Limits::max_bytes if this input is intended"))
        } else {
            Ok(())
        }
    }
}

/// Per-task attributes read by scheduling policies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskAttrs {
    /// Processor the task is statically assigned to (`assigned` policy).
    pub proc: Option<i64>,
    /// Queue the task is put on (`queues` policy).
    pub queue: Option<i64>,
    /// Priority, larger first (`priority` policy).
    pub priority: Option<i64>,
    /// Any other attributes, kept verbatim for output.
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl TaskAttrs {
    /// True when no attribute is set.
    pub fn is_empty(&self) -> bool {
        self.proc.is_none()
            && self.queue.is_none()
            && self.priority.is_none()
            && self.extra.is_empty()
    }
}

static EMPTY_ATTRS: OnceLock<TaskAttrs> = OnceLock::new();

/// A validated task DAG.
///
/// Tasks are numbered `0..n` (`u32`) in input order. Predecessor and successor lists are
/// stored in CSR form (sorted by task index, without duplicates), so a list-scheduling engine
/// can run in O(N·P + E). Every `TaskGraph` is acyclic, has finite non-negative times and
/// rates, no self-loops and unique ids: [`TaskGraphBuilder::build`] checks all of that.
#[derive(Clone, Debug)]
pub struct TaskGraph {
    id_buf: String,
    id_off: Vec<usize>,
    time: Vec<f64>,
    pred_off: Vec<usize>,
    pred: Vec<u32>,
    succ_off: Vec<usize>,
    succ: Vec<u32>,
    resources: Vec<String>,
    rate_off: Vec<usize>,
    rate: Vec<(u32, f64)>,
    attrs: Vec<TaskAttrs>,
    topo: Vec<u32>,
    lookup: OnceLock<Vec<u32>>,
}

impl PartialEq for TaskGraph {
    fn eq(&self, o: &Self) -> bool {
        let n = self.len();
        if n != o.len() || self.edge_count() != o.edge_count() {
            return false;
        }
        (0..n as u32).all(|i| {
            self.id(i) == o.id(i)
                && self.time(i).to_bits() == o.time(i).to_bits()
                && self.preds(i) == o.preds(i)
                && self.attrs(i) == o.attrs(i)
                && self.rates(i).eq(o.rates(i))
        })
    }
}

/// The critical (longest) path of a graph.
#[derive(Clone, Debug, PartialEq)]
pub struct CriticalPath {
    /// Sum of the task times on the path (the span).
    pub length: f64,
    /// Task indices from a root to a sink.
    pub tasks: Vec<u32>,
}

impl TaskGraph {
    /// Number of tasks N.
    pub fn len(&self) -> usize {
        self.time.len()
    }

    /// True if the graph has no tasks.
    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// Number of edges (precedences) E.
    pub fn edge_count(&self) -> usize {
        self.pred.len()
    }

    /// The id of task `i`.
    pub fn id(&self, i: u32) -> &str {
        let i = i as usize;
        &self.id_buf[self.id_off[i]..self.id_off[i + 1]]
    }

    /// All ids in task order.
    pub fn ids(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len() as u32).map(move |i| self.id(i))
    }

    /// The index of the task with id `id` (binary search in a lazily built sorted index).
    pub fn index_of(&self, id: &str) -> Option<u32> {
        let sorted = self.lookup.get_or_init(|| {
            let mut v: Vec<u32> = (0..self.len() as u32).collect();
            v.sort_unstable_by(|&a, &b| self.id(a).cmp(self.id(b)));
            v
        });
        sorted
            .binary_search_by(|&k| self.id(k).cmp(id))
            .ok()
            .map(|p| sorted[p])
    }

    /// Time (CPU demand T_i) of task `i`.
    pub fn time(&self, i: u32) -> f64 {
        self.time[i as usize]
    }

    /// All task times, indexed by task.
    pub fn times(&self) -> &[f64] {
        &self.time
    }

    /// The same graph with other task times (e.g. for what-if studies); fails with
    /// [`ErrorKind::BadTime`] naming the task if a time is negative or not finite, or
    /// [`ErrorKind::BadOption`] if the length is not N.
    pub fn with_times(&self, times: Vec<f64>) -> Result<TaskGraph, GraphError> {
        if times.len() != self.len() {
            return Err(GraphError::new(
                ErrorKind::BadOption,
                format!("{} times given for {} tasks", times.len(), self.len()),
            ));
        }
        if let Some(i) = times.iter().position(|t| !(t.is_finite() && *t >= 0.0)) {
            let i = i as u32;
            return Err(GraphError::new(
                ErrorKind::BadTime,
                format!(
                    "task `{}` would get time {}; times must be finite and >= 0",
                    self.id(i),
                    times[i as usize]
                ),
            )
            .with_task(i, self.id(i)));
        }
        let mut g = self.clone();
        g.time = times;
        Ok(g)
    }

    /// Direct predecessors of task `i`, sorted.
    pub fn preds(&self, i: u32) -> &[u32] {
        let i = i as usize;
        &self.pred[self.pred_off[i]..self.pred_off[i + 1]]
    }

    /// Direct successors of task `i`, sorted.
    pub fn succs(&self, i: u32) -> &[u32] {
        let i = i as usize;
        &self.succ[self.succ_off[i]..self.succ_off[i + 1]]
    }

    /// The predecessor CSR: offsets (length N+1) and the concatenated lists.
    pub fn pred_csr(&self) -> (&[usize], &[u32]) {
        (&self.pred_off, &self.pred)
    }

    /// The successor CSR: offsets (length N+1) and the concatenated lists.
    pub fn succ_csr(&self) -> (&[usize], &[u32]) {
        (&self.succ_off, &self.succ)
    }

    /// Number of predecessors of each task (the initial "unfinished parents" counters).
    pub fn in_degrees(&self) -> Vec<u32> {
        self.pred_off
            .windows(2)
            .map(|w| (w[1] - w[0]) as u32)
            .collect()
    }

    /// Tasks with no predecessors, in task order.
    pub fn roots(&self) -> Vec<u32> {
        (0..self.len() as u32)
            .filter(|&i| self.preds(i).is_empty())
            .collect()
    }

    /// Tasks with no successors, in task order.
    pub fn sinks(&self) -> Vec<u32> {
        (0..self.len() as u32)
            .filter(|&i| self.succs(i).is_empty())
            .collect()
    }

    /// Names of the resources any task has a rate for, indexed by resource number.
    pub fn resources(&self) -> &[String] {
        &self.resources
    }

    /// Request rates M_ij of task `i`: (resource number, rate) pairs sorted by resource number.
    pub fn rate_entries(&self, i: u32) -> &[(u32, f64)] {
        let i = i as usize;
        &self.rate[self.rate_off[i]..self.rate_off[i + 1]]
    }

    /// Request rates of task `i` by resource name, sorted by resource number.
    pub fn rates(&self, i: u32) -> impl Iterator<Item = (&str, f64)> + '_ {
        self.rate_entries(i)
            .iter()
            .map(move |&(r, v)| (self.resources[r as usize].as_str(), v))
    }

    /// Rate of task `i` for resource `name` (0 when not given).
    pub fn rate(&self, i: u32, name: &str) -> f64 {
        self.rates(i)
            .find(|(k, _)| *k == name)
            .map_or(0.0, |(_, v)| v)
    }

    /// Attributes of task `i` (empty when none were given).
    pub fn attrs(&self, i: u32) -> &TaskAttrs {
        if self.attrs.is_empty() {
            EMPTY_ATTRS.get_or_init(TaskAttrs::default)
        } else {
            &self.attrs[i as usize]
        }
    }

    /// Checks that every task has the integer attribute `name` (`proc`, `queue` or
    /// `priority`), as a policy that reads it requires; the error names the first task
    /// without it.
    pub fn require_attr(&self, name: &str) -> Result<(), GraphError> {
        let get = |a: &TaskAttrs| match name {
            "proc" => a.proc,
            "queue" => a.queue,
            "priority" => a.priority,
            _ => None,
        };
        match (0..self.len() as u32).find(|&i| get(self.attrs(i)).is_none()) {
            None => Ok(()),
            Some(i) => Err(GraphError::new(
                ErrorKind::MissingAttribute,
                format!("task `{}` has no `{name}` attribute", self.id(i)),
            )
            .with_help(format!(
                "this policy reads attrs.{name}: give every task an integer `{name}`"
            ))
            .with_task(i, self.id(i))),
        }
    }

    /// True if any task has an attribute.
    pub fn has_attrs(&self) -> bool {
        !self.attrs.is_empty()
    }

    /// A topological order (Kahn's algorithm, ready tasks taken in FIFO order, roots in task
    /// order), computed once at build time.
    pub fn topo_order(&self) -> &[u32] {
        &self.topo
    }

    /// Level of each task: 0 for roots, else 1 + the largest level of its predecessors.
    pub fn levels(&self) -> Vec<u32> {
        let mut lv = vec![0u32; self.len()];
        for &i in &self.topo {
            let l = self.preds(i).iter().map(|&p| lv[p as usize] + 1).max();
            lv[i as usize] = l.unwrap_or(0);
        }
        lv
    }

    /// Number of tasks on each level (index = level).
    pub fn level_widths(&self) -> Vec<usize> {
        let lv = self.levels();
        let mut w = vec![0usize; lv.iter().max().map_or(0, |&m| m as usize + 1)];
        for l in lv {
            w[l as usize] += 1;
        }
        w
    }

    /// The largest number of tasks on one level: a cheap hint of the available parallelism.
    pub fn max_level_width(&self) -> usize {
        self.level_widths().into_iter().max().unwrap_or(0)
    }

    /// Top level (earliest finish time with unlimited processors) of each task:
    /// T_i + the largest top level of its predecessors.
    pub fn top_levels(&self) -> Vec<f64> {
        let mut f = vec![0.0f64; self.len()];
        for &i in &self.topo {
            let s = self
                .preds(i)
                .iter()
                .map(|&p| f[p as usize])
                .fold(0.0, f64::max);
            f[i as usize] = s + self.time[i as usize];
        }
        f
    }

    /// Bottom level of each task: T_i + the largest bottom level of its successors (the
    /// priority of the `cp` policy).
    pub fn bottom_levels(&self) -> Vec<f64> {
        let mut b = vec![0.0f64; self.len()];
        for &i in self.topo.iter().rev() {
            let s = self
                .succs(i)
                .iter()
                .map(|&c| b[c as usize])
                .fold(0.0, f64::max);
            b[i as usize] = s + self.time[i as usize];
        }
        b
    }

    /// The critical path: a longest root-to-sink path by total task time. It ends at the
    /// first sink (by index) with the largest finish time and goes back through the first
    /// predecessor with the largest finish time, so the result is deterministic.
    pub fn critical_path(&self) -> CriticalPath {
        if self.is_empty() {
            return CriticalPath {
                length: 0.0,
                tasks: Vec::new(),
            };
        }
        let f = self.top_levels();
        // End at a sink (times are >= 0, so some sink finishes last).
        let mut end: Option<u32> = None;
        for i in 0..self.len() as u32 {
            if self.succs(i).is_empty() && end.is_none_or(|e| f[i as usize] > f[e as usize]) {
                end = Some(i);
            }
        }
        let end = end.unwrap_or(0);
        let mut tasks = vec![end];
        let mut cur = end;
        loop {
            let mut best: Option<u32> = None;
            for &p in self.preds(cur) {
                if best.is_none_or(|b| f[p as usize] > f[b as usize]) {
                    best = Some(p);
                }
            }
            match best {
                Some(p) => {
                    tasks.push(p);
                    cur = p;
                }
                None => break,
            }
        }
        tasks.reverse();
        CriticalPath {
            length: f[end as usize],
            tasks,
        }
    }

    /// Ids of the critical path tasks, in order.
    pub fn critical_path_ids(&self) -> Vec<String> {
        self.critical_path()
            .tasks
            .iter()
            .map(|&i| self.id(i).to_string())
            .collect()
    }

    /// Work W = Σ T_i.
    pub fn work(&self) -> f64 {
        self.time.iter().sum()
    }

    /// Span: the length of the critical path.
    pub fn span(&self) -> f64 {
        self.top_levels().into_iter().fold(0.0, f64::max)
    }

    /// Average parallelism W / span; 0 when the span is 0 (empty graph or all times 0).
    pub fn average_parallelism(&self) -> f64 {
        let s = self.span();
        if s > 0.0 {
            self.work() / s
        } else {
            0.0
        }
    }
}

/// Builds a [`TaskGraph`] task by task, then validates it.
///
/// ```
/// use taskgraph::TaskGraphBuilder;
/// let mut b = TaskGraphBuilder::new();
/// let a = b.task("a", 2.0);
/// let c = b.task("c", 1.0);
/// b.edge(a, c);
/// b.rate(c, "bus", 0.01);
/// let g = b.build().unwrap();
/// assert_eq!(g.preds(c), &[a]);
/// assert_eq!(g.span(), 3.0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct TaskGraphBuilder {
    limits: Limits,
    id_buf: String,
    id_off: Vec<usize>,
    time: Vec<f64>,
    edges: Vec<(u32, u32)>,
    /// Predecessors given as lists per task ([`TaskGraphBuilder::pred_lists`]), in CSR form.
    pred_lists: Option<(Vec<usize>, Vec<u32>)>,
    resources: Vec<String>,
    resource_index: HashMap<String, u32>,
    rates: Vec<(u32, u32, f64)>,
    attrs: Vec<(u32, TaskAttrs)>,
    /// The first limit a task or edge went past, with its message.
    overflow: Option<(Reached, String)>,
    ids_unique: bool,
}

impl TaskGraphBuilder {
    /// An empty builder with default [`Limits`].
    pub fn new() -> Self {
        Self::with_limits(Limits::default())
    }

    /// An empty builder with the given limits.
    pub fn with_limits(limits: Limits) -> Self {
        TaskGraphBuilder {
            limits,
            id_off: vec![0],
            ..Default::default()
        }
    }

    /// Reserves room for `tasks` tasks and `edges` edges.
    pub fn reserve(&mut self, tasks: usize, edges: usize) {
        self.time.reserve(tasks.min(self.limits.max_tasks));
        self.id_off.reserve(tasks.min(self.limits.max_tasks));
        self.edges.reserve(edges.min(self.limits.max_edges));
    }

    /// Number of tasks added so far.
    pub fn len(&self) -> usize {
        self.time.len()
    }

    /// True if no task has been added.
    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// Number of edges added so far.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Declares that ids are unique by construction (generators), skipping the check.
    pub(crate) fn assume_unique_ids(&mut self) {
        self.ids_unique = true;
    }

    fn over(&mut self, limit: Limit, value: usize) {
        if self.overflow.is_none() {
            let reached = Reached::new(limit, value as u64);
            let what = limit.noun();
            self.overflow = Some((reached, format!("more than {value} {what}: the limit")));
        }
    }

    /// Adds a task and returns its index. Past [`Limits::max_tasks`] the task is dropped and
    /// [`TaskGraphBuilder::build`] fails.
    pub fn task(&mut self, id: &str, time: f64) -> u32 {
        if self.time.len() >= self.limits.max_tasks.min(u32::MAX as usize) {
            self.over(Limit::Tasks, self.limits.max_tasks);
            return u32::MAX;
        }
        self.id_buf.push_str(id);
        self.id_off.push(self.id_buf.len());
        self.time.push(time);
        (self.time.len() - 1) as u32
    }

    /// Adds the precedence `from -> to` (`from` must finish before `to` starts). Duplicate
    /// edges are merged.
    pub fn edge(&mut self, from: u32, to: u32) {
        if self.edges.len() >= self.limits.max_edges {
            self.over(Limit::Edges, self.limits.max_edges);
            return;
        }
        self.edges.push((from, to));
    }

    /// Adds the precedences `edges` at once (as [`TaskGraphBuilder::edge`] each).
    pub(crate) fn edges(&mut self, edges: Vec<(u32, u32)>) {
        if self.edges.len().saturating_add(edges.len()) > self.limits.max_edges {
            self.over(Limit::Edges, self.limits.max_edges);
            return;
        }
        if self.edges.is_empty() {
            self.edges = edges;
        } else {
            self.edges.extend(edges);
        }
    }

    /// Sets the predecessors of every task at once, as lists in task order: task `k`'s are
    /// `pred[off[k]..off[k + 1]]` (`off` has one entry per task and one more). Equivalent to
    /// an [`TaskGraphBuilder::edge`] per entry, without sorting the edges by task; for
    /// readers whose input lists predecessors per task. Replaces edges given before.
    pub fn pred_lists(&mut self, off: Vec<usize>, pred: Vec<u32>) {
        if pred.len() > self.limits.max_edges {
            self.over(Limit::Edges, self.limits.max_edges);
            return;
        }
        self.edges.clear();
        self.pred_lists = Some((off, pred));
    }

    /// Sets the request rate of task `task` for resource `resource`.
    pub fn rate(&mut self, task: u32, resource: &str, rate: f64) {
        let r = match self.resource_index.get(resource) {
            Some(&r) => r,
            None => {
                let r = self.resources.len() as u32;
                self.resources.push(resource.to_string());
                self.resource_index.insert(resource.to_string(), r);
                r
            }
        };
        self.rates.push((task, r, rate));
    }

    /// Sets the attributes of task `task` (replacing earlier ones).
    pub fn attrs(&mut self, task: u32, attrs: TaskAttrs) {
        if !attrs.is_empty() {
            self.attrs.push((task, attrs));
        }
    }

    /// Validates and builds the graph: unique ids, finite non-negative times and rates, edge
    /// endpoints in range, no self-loops, no cycles (the error names one cycle).
    /// Errors carry the index and id of the offending task.
    pub fn build(self) -> Result<TaskGraph, GraphError> {
        if let Some((reached, m)) = self.overflow {
            return Err(GraphError::limit(reached, m)
                .with_help("raise the limit in Limits if this input is intended"));
        }
        let n = self.time.len();
        let id = |i: u32| -> &str {
            let i = i as usize;
            &self.id_buf[self.id_off[i]..self.id_off[i + 1]]
        };
        // Times.
        for (i, &t) in self.time.iter().enumerate() {
            if !(t.is_finite() && t >= 0.0) {
                let i = i as u32;
                return Err(GraphError::new(
                    ErrorKind::BadTime,
                    format!(
                        "task `{}` has time {t}; times must be finite and >= 0",
                        id(i)
                    ),
                )
                .with_task(i, id(i)));
            }
        }
        // Ids.
        for i in 0..n as u32 {
            if id(i).is_empty() {
                return Err(GraphError::new(
                    ErrorKind::Syntax,
                    format!("task #{i} has an empty id"),
                )
                .with_task(i, ""));
            }
        }
        if !self.ids_unique {
            let mut seen: HashMap<&str, u32> = HashMap::with_capacity(n);
            for i in 0..n as u32 {
                if let Some(first) = seen.insert(id(i), i) {
                    return Err(GraphError::new(
                        ErrorKind::DuplicateId,
                        format!("duplicate task id `{}`: tasks #{first} and #{i}", id(i)),
                    )
                    .with_help("task ids must be unique")
                    .with_task(i, id(i)));
                }
            }
        }
        // Predecessor lists given per task: checked here, already in CSR form.
        if let Some((off, pred)) = &self.pred_lists {
            if off.len() != n + 1 || off.windows(2).any(|w| w[0] > w[1]) || off[n] != pred.len() {
                return Err(GraphError::new(
                    ErrorKind::Syntax,
                    "predecessor lists do not match the tasks",
                ));
            }
            for (b, w) in off.windows(2).enumerate() {
                for &a in &pred[w[0]..w[1]] {
                    if a as usize >= n {
                        return Err(GraphError::new(
                            ErrorKind::UnknownTask,
                            format!("edge {a} -> {b} names task #{a}, but there are {n} tasks"),
                        ));
                    }
                    if a as usize == b {
                        return Err(GraphError::new(
                            ErrorKind::SelfLoop,
                            format!("task `{}` is its own predecessor", id(a)),
                        )
                        .with_help("remove the edge from the task to itself")
                        .with_task(a, id(a)));
                    }
                }
            }
        }
        // Edges.
        for &(a, b) in &self.edges {
            for x in [a, b] {
                if x as usize >= n {
                    return Err(GraphError::new(
                        ErrorKind::UnknownTask,
                        format!("edge {a} -> {b} names task #{x}, but there are {n} tasks"),
                    ));
                }
            }
            if a == b {
                return Err(GraphError::new(
                    ErrorKind::SelfLoop,
                    format!("task `{}` is its own predecessor", id(a)),
                )
                .with_help("remove the edge from the task to itself")
                .with_task(a, id(a)));
            }
        }
        // Rates.
        for &(t, r, v) in &self.rates {
            if t as usize >= n {
                return Err(GraphError::new(
                    ErrorKind::UnknownTask,
                    format!("rate given for task #{t}, but there are {n} tasks"),
                ));
            }
            if !(v.is_finite() && v >= 0.0) {
                return Err(GraphError::new(
                    ErrorKind::BadRate,
                    format!(
                        "task `{}` has rate {v} for `{}`; rates must be finite and >= 0",
                        id(t),
                        self.resources[r as usize]
                    ),
                )
                .with_task(t, id(t)));
            }
        }
        for (t, _) in &self.attrs {
            if *t as usize >= n {
                return Err(GraphError::new(
                    ErrorKind::UnknownTask,
                    format!("attributes given for task #{t}, but there are {n} tasks"),
                ));
            }
        }
        // Predecessor CSR by counting sort on the target.
        let (pred_off, pred) = match self.pred_lists {
            Some(lists) => lists,
            None => csr(n, self.edges.iter().map(|&(a, b)| (b, a)), self.edges.len()),
        };
        let (pred_off, pred) = sort_dedup(pred_off, pred);
        // Successor CSR from the predecessor CSR (lists come out sorted).
        let mut succ_off = vec![0usize; n + 1];
        for &p in &pred {
            succ_off[p as usize + 1] += 1;
        }
        for i in 0..n {
            succ_off[i + 1] += succ_off[i];
        }
        let mut fill = succ_off.clone();
        let mut succ = vec![0u32; pred.len()];
        for c in 0..n {
            for &p in &pred[pred_off[c]..pred_off[c + 1]] {
                succ[fill[p as usize]] = c as u32;
                fill[p as usize] += 1;
            }
        }
        // Topological order (Kahn, FIFO).
        let mut indeg: Vec<u32> = pred_off.windows(2).map(|w| (w[1] - w[0]) as u32).collect();
        let mut topo: Vec<u32> = (0..n as u32).filter(|&i| indeg[i as usize] == 0).collect();
        let mut head = 0;
        while head < topo.len() {
            let i = topo[head] as usize;
            head += 1;
            for &c in &succ[succ_off[i]..succ_off[i + 1]] {
                indeg[c as usize] -= 1;
                if indeg[c as usize] == 0 {
                    topo.push(c);
                }
            }
        }
        if topo.len() < n {
            // Every unprocessed task has an unprocessed predecessor: walk them until one
            // repeats.
            let start = (0..n).find(|&i| indeg[i] > 0).unwrap_or(0) as u32;
            let mut pos: HashMap<u32, usize> = HashMap::new();
            let mut walk = Vec::new();
            let mut cur = start;
            while let std::collections::hash_map::Entry::Vacant(e) = pos.entry(cur) {
                e.insert(walk.len());
                walk.push(cur);
                let ps = &pred[pred_off[cur as usize]..pred_off[cur as usize + 1]];
                cur = ps
                    .iter()
                    .copied()
                    .find(|&p| indeg[p as usize] > 0)
                    .unwrap_or(cur);
            }
            let mut cycle: Vec<u32> = walk[pos[&cur]..].to_vec();
            cycle.reverse(); // predecessor walk -> successor order
                             // Start the cycle at its smallest index for a stable message.
            let k = (0..cycle.len()).min_by_key(|&k| cycle[k]).unwrap_or(0);
            cycle.rotate_left(k);
            let names: Vec<&str> = cycle.iter().map(|&c| id(c)).collect();
            return Err(GraphError::new(ErrorKind::Cycle, cycle_message(&names))
                .with_help("a task graph must be acyclic; remove one of these precedences")
                .with_task(cycle[0], id(cycle[0])));
        }
        // Rates CSR (last value wins for repeated (task, resource)).
        let (rate_off, rate) = {
            let mut rs = self.rates;
            rs.sort_by_key(|&(t, r, _)| (t, r));
            let mut dedup: Vec<(u32, u32, f64)> = Vec::with_capacity(rs.len());
            for x in rs {
                match dedup.last_mut() {
                    Some(l) if l.0 == x.0 && l.1 == x.1 => *l = x,
                    _ => dedup.push(x),
                }
            }
            let mut off = vec![0usize; n + 1];
            for &(t, _, _) in &dedup {
                off[t as usize + 1] += 1;
            }
            for i in 0..n {
                off[i + 1] += off[i];
            }
            (off, dedup.into_iter().map(|(_, r, v)| (r, v)).collect())
        };
        let attrs = if self.attrs.is_empty() {
            Vec::new()
        } else {
            let mut a = vec![TaskAttrs::default(); n];
            for (t, x) in self.attrs {
                a[t as usize] = x;
            }
            a
        };
        Ok(TaskGraph {
            id_buf: self.id_buf,
            id_off: self.id_off,
            time: self.time,
            pred_off,
            pred,
            succ_off,
            succ,
            resources: self.resources,
            rate_off,
            rate,
            attrs,
            topo,
            lookup: OnceLock::new(),
        })
    }
}

/// CSR by counting sort of (row, value) pairs.
fn csr(
    n: usize,
    pairs: impl Iterator<Item = (u32, u32)> + Clone,
    m: usize,
) -> (Vec<usize>, Vec<u32>) {
    let mut off = vec![0usize; n + 1];
    for (r, _) in pairs.clone() {
        off[r as usize + 1] += 1;
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let mut fill = off.clone();
    let mut val = vec![0u32; m];
    for (r, v) in pairs {
        val[fill[r as usize]] = v;
        fill[r as usize] += 1;
    }
    (off, val)
}

/// Sorts each CSR row and removes duplicates, compacting in place.
fn sort_dedup(mut off: Vec<usize>, mut val: Vec<u32>) -> (Vec<usize>, Vec<u32>) {
    let n = off.len() - 1;
    let mut w = 0;
    let mut start = off[0];
    for i in 0..n {
        let end = off[i + 1];
        let row = &mut val[start..end];
        if !row.is_sorted() {
            row.sort_unstable();
        }
        let new_start = w;
        let mut last: Option<u32> = None;
        for k in start..end {
            let v = val[k];
            if last != Some(v) {
                val[w] = v;
                w += 1;
                last = Some(v);
            }
        }
        off[i] = new_start;
        start = end;
    }
    off[n] = w;
    val.truncate(w);
    (off, val)
}

/// The tasks of a cycle shown at each end when it is longer than [`CYCLE_SHOWN`] tasks.
const CYCLE_ENDS: usize = 5;
/// The longest cycle a message lists in full.
const CYCLE_SHOWN: usize = 12;

/// "the task graph has a cycle: a -> b -> c -> a", the cycle's tasks in successor order
/// back to the first; a cycle longer than [`CYCLE_SHOWN`] tasks shows its first and last
/// [`CYCLE_ENDS`] and says how many are left out, so the message stays short for any
/// graph.
fn cycle_message(names: &[&str]) -> String {
    let Some(first) = names.first() else {
        return "the task graph has a cycle".to_string();
    };
    if names.len() <= CYCLE_SHOWN {
        return format!(
            "the task graph has a cycle: {} -> {first}",
            names.join(" -> ")
        );
    }
    let head = names[..CYCLE_ENDS].join(" -> ");
    let tail = names[names.len() - CYCLE_ENDS..].join(" -> ");
    format!(
        "the task graph has a cycle of {} tasks: {head} -> … ({} more) … -> {tail} -> {first}",
        thousands(names.len()),
        thousands(names.len() - 2 * CYCLE_ENDS)
    )
}

/// `4990` as `4,990`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diamond() -> TaskGraph {
        let mut b = TaskGraphBuilder::new();
        let a = b.task("a", 1.0);
        let x = b.task("x", 5.0);
        let y = b.task("y", 2.0);
        let z = b.task("z", 1.0);
        b.edge(a, x);
        b.edge(a, y);
        b.edge(x, z);
        b.edge(y, z);
        b.edge(y, z);
        b.build().unwrap()
    }

    #[test]
    fn csr_and_metrics() {
        let g = diamond();
        assert_eq!(g.len(), 4);
        assert_eq!(g.edge_count(), 4, "duplicate edge merged");
        assert_eq!(g.preds(3), &[1, 2]);
        assert_eq!(g.succs(0), &[1, 2]);
        assert_eq!(g.topo_order(), &[0, 1, 2, 3]);
        assert_eq!(g.levels(), vec![0, 1, 1, 2]);
        assert_eq!(g.level_widths(), vec![1, 2, 1]);
        assert_eq!(g.max_level_width(), 2);
        assert_eq!(g.work(), 9.0);
        assert_eq!(g.span(), 7.0);
        assert_eq!(g.critical_path().tasks, vec![0, 1, 3]);
        assert_eq!(g.critical_path_ids(), vec!["a", "x", "z"]);
        assert_eq!(g.bottom_levels(), vec![7.0, 6.0, 3.0, 1.0]);
        assert_eq!(g.top_levels(), vec![1.0, 6.0, 3.0, 7.0]);
        assert!((g.average_parallelism() - 9.0 / 7.0).abs() < 1e-15);
        assert_eq!(g.roots(), vec![0]);
        assert_eq!(g.sinks(), vec![3]);
        assert_eq!(g.in_degrees(), vec![0, 1, 1, 2]);
        assert_eq!(g.index_of("y"), Some(2));
        assert_eq!(g.index_of("q"), None);
        let h = g.with_times(vec![1.0, 1.0, 9.0, 1.0]).unwrap();
        assert_eq!(h.critical_path_ids(), vec!["a", "y", "z"]);
        assert_eq!(h.span(), 11.0);
        assert_eq!(g.span(), 7.0);
        let e = g.with_times(vec![1.0, -1.0, 1.0, 1.0]).unwrap_err();
        assert_eq!((e.kind, e.task), (ErrorKind::BadTime, Some(1)));
        assert_eq!(
            g.with_times(vec![1.0]).unwrap_err().kind,
            ErrorKind::BadOption
        );
    }

    #[test]
    fn rates_and_attrs() {
        let mut b = TaskGraphBuilder::new();
        let a = b.task("a", 1.0);
        b.rate(a, "mem", 0.5);
        b.rate(a, "bus", 0.25);
        b.rate(a, "mem", 0.75);
        b.attrs(
            a,
            TaskAttrs {
                proc: Some(3),
                ..Default::default()
            },
        );
        let g = b.build().unwrap();
        assert_eq!(g.resources(), &["mem".to_string(), "bus".to_string()]);
        assert_eq!(
            g.rates(0).collect::<Vec<_>>(),
            vec![("mem", 0.75), ("bus", 0.25)]
        );
        assert_eq!(g.rate(0, "bus"), 0.25);
        assert_eq!(g.rate(0, "none"), 0.0);
        assert_eq!(g.attrs(0).proc, Some(3));
        assert!(g.require_attr("proc").is_ok());
        let e = g.require_attr("queue").unwrap_err();
        assert_eq!((e.kind, e.task), (ErrorKind::MissingAttribute, Some(0)));
        assert_eq!(e.message, "task `a` has no `queue` attribute");
        let e = diamond().require_attr("priority").unwrap_err();
        assert_eq!(e.task_id.as_deref(), Some("a"));
    }

    #[test]
    fn cycle_is_named() {
        let mut b = TaskGraphBuilder::new();
        let r = b.task("r", 1.0);
        let a = b.task("a", 1.0);
        let bb = b.task("b", 1.0);
        let c = b.task("c", 1.0);
        b.edge(r, a);
        b.edge(a, bb);
        b.edge(bb, c);
        b.edge(c, a);
        let e = b.build().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cycle);
        assert!(e.message.ends_with("a -> b -> c -> a"), "{}", e.message);
    }

    #[test]
    fn long_cycle_is_elided() {
        // A 5,000-task ring: the message names its ends and how many tasks it leaves out.
        let n = 5000;
        let mut b = TaskGraphBuilder::new();
        let ids: Vec<u32> = (0..n).map(|i| b.task(&format!("t{i}"), 1.0)).collect();
        for i in 0..n {
            b.edge(ids[i], ids[(i + 1) % n]);
        }
        let e = b.build().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cycle);
        assert_eq!(
            e.message,
            "the task graph has a cycle of 5,000 tasks: t0 -> t1 -> t2 -> t3 -> t4 -> … \
             (4,990 more) … -> t4995 -> t4996 -> t4997 -> t4998 -> t4999 -> t0"
        );
        assert_eq!(e.task_id.as_deref(), Some("t0"));
        // Twelve tasks are still listed in full.
        assert_eq!(cycle_message(&["x"; 12]).matches('x').count(), 13);
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn bad_inputs() {
        let mut b = TaskGraphBuilder::new();
        b.task("a", -1.0);
        let e = b.build().unwrap_err();
        assert_eq!((e.kind, e.task), (ErrorKind::BadTime, Some(0)));

        let mut b = TaskGraphBuilder::new();
        b.task("a", 1.0);
        b.task("b", f64::NAN);
        assert_eq!(b.build().unwrap_err().kind, ErrorKind::BadTime);

        let mut b = TaskGraphBuilder::new();
        b.task("a", 1.0);
        b.task("a", 1.0);
        let e = b.build().unwrap_err();
        assert_eq!((e.kind, e.task), (ErrorKind::DuplicateId, Some(1)));

        let mut b = TaskGraphBuilder::new();
        let a = b.task("a", 1.0);
        b.edge(a, a);
        assert_eq!(b.build().unwrap_err().kind, ErrorKind::SelfLoop);

        let mut b = TaskGraphBuilder::new();
        let a = b.task("a", 1.0);
        b.rate(a, "bus", -0.1);
        assert_eq!(b.build().unwrap_err().kind, ErrorKind::BadRate);

        let mut b = TaskGraphBuilder::with_limits(Limits {
            max_tasks: 2,
            ..Limits::default()
        });
        for i in 0..5 {
            b.task(&format!("t{i}"), 1.0);
        }
        assert_eq!(b.len(), 2);
        let e = b.build().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(Reached::new(Limit::Tasks, 2)));
        assert_eq!(e.message, "more than 2 tasks: the limit");

        let mut b = TaskGraphBuilder::with_limits(Limits {
            max_edges: 1,
            ..Limits::default()
        });
        let (x, y, z) = (b.task("x", 1.0), b.task("y", 1.0), b.task("z", 1.0));
        b.edge(x, y);
        b.edge(y, z);
        let e = b.build().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(Reached::new(Limit::Edges, 1)));
        assert_eq!(e.message, "more than 1 edges: the limit");

        let e = Limits {
            max_bytes: 3,
            ..Limits::default()
        }
        .check_bytes(4)
        .unwrap_err();
        assert_eq!(e.reached, Some(Reached::new(Limit::InputBytes, 3)));
        assert_eq!(
            e.message,
            "input is 4 bytes, more than the limit of 3 bytes"
        );
    }

    #[test]
    fn empty_graph() {
        let g = TaskGraphBuilder::new().build().unwrap();
        assert!(g.is_empty());
        assert_eq!(g.span(), 0.0);
        assert_eq!(g.critical_path().tasks, Vec::<u32>::new());
        assert_eq!(g.max_level_width(), 0);
        assert_eq!(g.average_parallelism(), 0.0);
    }
}
