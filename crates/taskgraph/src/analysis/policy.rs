//! Scheduling policies: which ready task an idle process takes.
//!
//! A policy sees tasks as they become ready ([`Policy::ready`]) and is asked, for each idle
//! process in increasing index order, for a task to run ([`Policy::pick`]). Implement the
//! trait to add your own.

use super::{AnalysisError, Attr, Dag};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// A scheduling function `Sched(L, p)` of the analysis.
pub trait Policy {
    /// Prepares for a graph on `procs` processes; checks the attributes the policy needs.
    fn init(&mut self, g: &dyn Dag, procs: usize) -> Result<(), AnalysisError>;
    /// `task` has become ready at time `now`.
    fn ready(&mut self, task: u32, now: f64);
    /// A ready task for idle process `proc`, removed from the ready set.
    fn pick(&mut self, proc: usize) -> Option<u32>;
    /// The number of ready tasks not yet picked.
    fn waiting(&self) -> usize;
}

/// The built-in policies, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// One central queue, first ready first served.
    Fifo,
    /// One central stack, last ready first served.
    Lifo,
    /// Highest `attrs.priority` first (ties: first ready).
    Priority,
    /// Longest task time first.
    Lpt,
    /// Largest bottom level (longest path to a sink, the task included) first.
    Cp,
    /// Static assignment in task order: task k of N goes to process `k*P/N`.
    Block,
    /// Static assignment in task order: task k goes to process `k mod P`.
    Cyclic,
    /// Static assignment by `attrs.proc` (modulo P).
    Assigned,
    /// Per-queue lists by `attrs.queue`; process p serves queue `p mod Q`.
    Queues {
        /// Let an idle process take from other queues when its own is empty.
        steal: bool,
    },
}

diag::choices! {
    /// A policy as a user names it; [`PolicyKind::new`] adds whether `queues` steals.
    pub enum PolicyName {
        /// [`PolicyKind::Fifo`].
        Fifo = "fifo": "One central queue, first ready first served",
        /// [`PolicyKind::Lifo`].
        Lifo = "lifo": "One central stack, last ready first served",
        /// [`PolicyKind::Priority`].
        Priority = "priority": "Highest `attrs.priority` first (ties: first ready)",
        /// [`PolicyKind::Lpt`].
        Lpt = "lpt": "Longest task time first",
        /// [`PolicyKind::Cp`].
        Cp = "cp": "Largest bottom level (longest path to a sink) first",
        /// [`PolicyKind::Block`].
        Block = "block": "Static: task k of N goes to process k*P/N",
        /// [`PolicyKind::Cyclic`].
        Cyclic = "cyclic": "Static: task k goes to process k mod P",
        /// [`PolicyKind::Assigned`].
        Assigned = "assigned": "Static: by `attrs.proc` (modulo P)",
        /// [`PolicyKind::Queues`].
        Queues = "queues": "Per-queue lists by `attrs.queue`; process p serves queue p mod Q",
    }
}

impl PolicyKind {
    /// The policy `name`; `steal` lets `queues` take from other queues.
    ///
    /// # Errors
    /// [`super::setup::SetupError::Steal`]: stealing asked of a policy other than `queues`.
    pub fn new(name: PolicyName, steal: bool) -> Result<PolicyKind, super::setup::SetupError> {
        if steal && name != PolicyName::Queues {
            return Err(super::setup::SetupError::Steal(name));
        }
        Ok(match name {
            PolicyName::Fifo => PolicyKind::Fifo,
            PolicyName::Lifo => PolicyKind::Lifo,
            PolicyName::Priority => PolicyKind::Priority,
            PolicyName::Lpt => PolicyKind::Lpt,
            PolicyName::Cp => PolicyKind::Cp,
            PolicyName::Block => PolicyKind::Block,
            PolicyName::Cyclic => PolicyKind::Cyclic,
            PolicyName::Assigned => PolicyKind::Assigned,
            PolicyName::Queues => PolicyKind::Queues { steal },
        })
    }

    /// The policy's name.
    pub fn name(self) -> PolicyName {
        match self {
            PolicyKind::Fifo => PolicyName::Fifo,
            PolicyKind::Lifo => PolicyName::Lifo,
            PolicyKind::Priority => PolicyName::Priority,
            PolicyKind::Lpt => PolicyName::Lpt,
            PolicyKind::Cp => PolicyName::Cp,
            PolicyKind::Block => PolicyName::Block,
            PolicyKind::Cyclic => PolicyName::Cyclic,
            PolicyKind::Assigned => PolicyName::Assigned,
            PolicyKind::Queues { .. } => PolicyName::Queues,
        }
    }

    /// A fresh policy object of this kind.
    pub fn build(self) -> Box<dyn Policy> {
        match self {
            PolicyKind::Fifo => Box::new(Fifo::default()),
            PolicyKind::Lifo => Box::new(Lifo::default()),
            PolicyKind::Priority => Box::new(Ranked::new(Rank::Priority)),
            PolicyKind::Lpt => Box::new(Ranked::new(Rank::Time)),
            PolicyKind::Cp => Box::new(Ranked::new(Rank::BottomLevel)),
            PolicyKind::Block => Box::new(Static::new(Assign::Block)),
            PolicyKind::Cyclic => Box::new(Static::new(Assign::Cyclic)),
            PolicyKind::Assigned => Box::new(Static::new(Assign::Attr)),
            PolicyKind::Queues { steal } => Box::new(Queues::new(steal)),
        }
    }
}

/// Central FIFO queue.
#[derive(Default)]
pub struct Fifo(VecDeque<u32>);

impl Policy for Fifo {
    fn init(&mut self, _: &dyn Dag, _: usize) -> Result<(), AnalysisError> {
        self.0.clear();
        Ok(())
    }
    fn ready(&mut self, task: u32, _: f64) {
        self.0.push_back(task);
    }
    fn pick(&mut self, _: usize) -> Option<u32> {
        self.0.pop_front()
    }
    fn waiting(&self) -> usize {
        self.0.len()
    }
}

/// Central LIFO stack.
#[derive(Default)]
pub struct Lifo(Vec<u32>);

impl Policy for Lifo {
    fn init(&mut self, _: &dyn Dag, _: usize) -> Result<(), AnalysisError> {
        self.0.clear();
        Ok(())
    }
    fn ready(&mut self, task: u32, _: f64) {
        self.0.push(task);
    }
    fn pick(&mut self, _: usize) -> Option<u32> {
        self.0.pop()
    }
    fn waiting(&self) -> usize {
        self.0.len()
    }
}

#[derive(Clone, Copy)]
enum Rank {
    Priority,
    Time,
    BottomLevel,
}

/// A central queue ordered by a per-task key, largest first, ties first ready.
struct Ranked {
    rank: Rank,
    key: Vec<f64>,
    heap: BinaryHeap<(OrdF64, Reverse<u64>, u32)>,
    seq: u64,
}

/// An `f64` ordered by `total_cmp`, for heap keys.
struct OrdF64(f64);
impl PartialEq for OrdF64 {
    fn eq(&self, o: &Self) -> bool {
        self.0.total_cmp(&o.0).is_eq()
    }
}
impl Eq for OrdF64 {}
impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for OrdF64 {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}

impl Ranked {
    fn new(rank: Rank) -> Self {
        Ranked {
            rank,
            key: Vec::new(),
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }
}

impl Policy for Ranked {
    fn init(&mut self, g: &dyn Dag, _: usize) -> Result<(), AnalysisError> {
        let n = g.len();
        self.heap.clear();
        self.key = match self.rank {
            Rank::Time => (0..n as u32).map(|t| g.time(t)).collect(),
            Rank::Priority => (0..n as u32)
                .map(|t| {
                    g.attr(t, Attr::Priority)
                        .map(|p| p as f64)
                        .ok_or_else(|| AnalysisError::missing(g, t, "priority"))
                })
                .collect::<Result<_, _>>()?,
            Rank::BottomLevel => super::bottom_levels(g)?,
        };
        Ok(())
    }
    fn ready(&mut self, task: u32, _: f64) {
        self.seq += 1;
        self.heap
            .push((OrdF64(self.key[task as usize]), Reverse(self.seq), task));
    }
    fn pick(&mut self, _: usize) -> Option<u32> {
        self.heap.pop().map(|(_, _, t)| t)
    }
    fn waiting(&self) -> usize {
        self.heap.len()
    }
}

#[derive(Clone, Copy)]
enum Assign {
    Block,
    Cyclic,
    Attr,
}

/// Static schedules: each process runs its own list of tasks strictly in task order, waiting
/// for the next one to become ready (a statically scheduled program's loop).
struct Static {
    assign: Assign,
    /// Per process: its tasks in order, and the position of the next one.
    lists: Vec<(Vec<u32>, usize)>,
    ready: Vec<bool>,
    count: usize,
}

impl Static {
    fn new(assign: Assign) -> Self {
        Static {
            assign,
            lists: Vec::new(),
            ready: Vec::new(),
            count: 0,
        }
    }
}

impl Policy for Static {
    fn init(&mut self, g: &dyn Dag, procs: usize) -> Result<(), AnalysisError> {
        let n = g.len();
        self.lists = vec![(Vec::new(), 0); procs];
        self.ready = vec![false; n];
        self.count = 0;
        for t in 0..n as u32 {
            let p = match self.assign {
                Assign::Cyclic => t as usize % procs,
                Assign::Block => ((t as u128 * procs as u128) / n as u128) as usize,
                Assign::Attr => {
                    let a = g
                        .attr(t, Attr::Proc)
                        .ok_or_else(|| AnalysisError::missing(g, t, "proc"))?;
                    a.rem_euclid(procs as i64) as usize
                }
            };
            self.lists[p].0.push(t);
        }
        Ok(())
    }
    fn ready(&mut self, task: u32, _: f64) {
        self.ready[task as usize] = true;
        self.count += 1;
    }
    fn pick(&mut self, proc: usize) -> Option<u32> {
        let (list, pos) = self.lists.get_mut(proc)?;
        let &t = list.get(*pos)?;
        if !self.ready[t as usize] {
            return None;
        }
        *pos += 1;
        self.count -= 1;
        Some(t)
    }
    fn waiting(&self) -> usize {
        self.count
    }
}

/// Per-queue FIFO lists by `attrs.queue`; process p serves queue `p mod Q`, optionally
/// stealing from the other queues (in queue order) when its own is empty.
struct Queues {
    steal: bool,
    queue_of: Vec<u32>,
    queues: Vec<VecDeque<u32>>,
    count: usize,
}

impl Queues {
    fn new(steal: bool) -> Self {
        Queues {
            steal,
            queue_of: Vec::new(),
            queues: Vec::new(),
            count: 0,
        }
    }
}

impl Policy for Queues {
    fn init(&mut self, g: &dyn Dag, _: usize) -> Result<(), AnalysisError> {
        let n = g.len();
        let mut raw = Vec::with_capacity(n);
        for t in 0..n as u32 {
            let q = g
                .attr(t, Attr::Queue)
                .ok_or_else(|| AnalysisError::missing(g, t, "queue"))?;
            if q < 0 {
                return Err(AnalysisError::Attribute {
                    task: g.id(t),
                    message: format!("queue must be >= 0, got {q}"),
                });
            }
            raw.push(q as u32);
        }
        let nq = raw.iter().copied().max().map_or(1, |m| m as usize + 1);
        self.queue_of = raw;
        self.queues = vec![VecDeque::new(); nq];
        self.count = 0;
        Ok(())
    }
    fn ready(&mut self, task: u32, _: f64) {
        let q = self.queue_of[task as usize] as usize;
        self.queues[q].push_back(task);
        self.count += 1;
    }
    fn pick(&mut self, proc: usize) -> Option<u32> {
        let nq = self.queues.len();
        let own = proc % nq;
        let t = self.queues[own].pop_front().or_else(|| {
            if self.steal {
                (1..nq).find_map(|k| self.queues[(own + k) % nq].pop_front())
            } else {
                None
            }
        })?;
        self.count -= 1;
        Some(t)
    }
    fn waiting(&self) -> usize {
        self.count
    }
}
