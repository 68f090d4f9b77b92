//! The analysis loop of Adve & Vernon's Fig. 2.
//!
//! State: the executing tasks `E` (one per busy process) with remaining CPU demand `r_i`,
//! the ready tasks (held by the [`Policy`]), and per-task counts of unfinished parents.
//! Each step asks the system model for the overheads `D_i = r_i·λ_i·R(E)`, advances time to
//! the next completion `T_elapse = min(r_i + D_i)`, lets every other task progress at rate
//! `r_i/(r_i + D_i)` (`r_i ← r_i − T_elapse·r_i/(r_i + D_i)`; just `r_i − T_elapse` without
//! overheads), releases the successors of the completed tasks, and lets idle processes pick
//! ready tasks in increasing process order. There are at most N steps. With a system model each
//! step costs O(P) (every remaining demand changes); without one ([`SystemModel::is_basic`])
//! completion times are fixed when a task starts, so the loop runs on an event heap and a
//! set of idle processes (a bit per process): O((N + E)·log P) in all.
//!
//! Ties are deterministic: tasks completing at the same instant are handled in increasing
//! process order, their successors released in successor-list order; roots are released in
//! task order. Completion instants closer than 1e-12 (relative) count as one.

use super::policy::Policy;
use super::system::SystemModel;
use super::{AnalysisError, Dag};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One task's place in the schedule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TaskRun {
    /// The process that ran it.
    pub proc: u32,
    /// Start time (when it was picked).
    pub start: f64,
    /// Completion time.
    pub end: f64,
}

/// Per-process totals.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProcStats {
    /// CPU demand of the tasks it ran (Σ T_i).
    pub busy: f64,
    /// Time its tasks spent beyond their CPU demand (system-model overheads).
    pub overhead: f64,
    /// The rest of the makespan.
    pub idle: f64,
    /// Tasks it ran.
    pub tasks: u32,
}

/// The result of an analysis: makespan and the full schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Predicted execution time.
    pub makespan: f64,
    /// Every task's run, indexed by task.
    pub runs: Vec<TaskRun>,
    /// Per-process totals.
    pub procs: Vec<ProcStats>,
    /// Analysis steps taken (completion instants; at most N).
    pub steps: usize,
}

/// Limits on an analysis.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most processes.
    pub max_procs: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_procs: 1 << 20 }
    }
}

struct Slot {
    task: u32,
    /// One-time fetch delay still to elapse before the task's work progresses.
    fetch: f64,
    remaining: f64,
    start: f64,
}

/// The state shared by both loops.
struct Run<'a> {
    g: &'a dyn Dag,
    policy: &'a mut dyn Policy,
    system: &'a mut dyn SystemModel,
    pending: Vec<u32>,
    runs: Vec<TaskRun>,
    stats: Vec<ProcStats>,
    slots: Vec<Option<Slot>>,
    /// Idle processes, in increasing order.
    idle: IdleSet,
    done: usize,
    now: f64,
    /// ∫|E| dt so far, for the one-time fetch delay.
    busy_integral: f64,
    /// No system model: tasks take exactly their time, with no overhead.
    basic: bool,
    /// Progress: tasks finished, updated every [`sweep::EVERY`] completions.
    meter: Option<&'a sweep::Meter>,
}

impl Run<'_> {
    /// Task on process `p` completes now: account for it and release its successors.
    fn complete(&mut self, p: usize) {
        let s = self.slots[p].take().expect("busy");
        let t = s.task;
        self.runs[t as usize].end = self.now;
        let st = &mut self.stats[p];
        st.busy += self.g.time(t);
        if !self.basic {
            st.overhead += (self.now - s.start - self.g.time(t)).max(0.0);
        }
        st.tasks += 1;
        self.done += 1;
        if self.done.is_multiple_of(sweep::EVERY) {
            if let Some(m) = self.meter {
                m.set_count(self.done as u64);
            }
        }
        self.idle.insert(p);
        for &c in self.g.successors(t) {
            let k = &mut self.pending[c as usize];
            *k -= 1;
            if *k == 0 {
                self.policy.ready(c, self.now);
            }
        }
    }

    /// Offers ready tasks to the idle processes in increasing order; returns the processes
    /// that started a task.
    fn dispatch(&mut self, started: &mut Vec<usize>) {
        started.clear();
        if self.policy.waiting() == 0 || self.idle.is_empty() {
            return;
        }
        let mean_busy = if self.now > 0.0 {
            self.busy_integral / self.now
        } else {
            0.0
        };
        let interval = (self.done > 0).then(|| self.now / self.done as f64);
        // Idle processes in increasing order, a word of the bit set at a time (a process
        // taken out of the set is already past).
        for w in 0..self.idle.words.len() {
            let mut bits = self.idle.words[w];
            while bits != 0 {
                let p = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let Some(t) = self.policy.pick(p) else {
                    continue;
                };
                self.runs[t as usize] = TaskRun {
                    proc: p as u32,
                    start: self.now,
                    end: f64::NAN,
                };
                let fetch = self.system.fetch_delay(mean_busy, interval);
                self.slots[p] = Some(Slot {
                    task: t,
                    fetch,
                    remaining: self.g.time(t),
                    start: self.now,
                });
                self.idle.remove(p);
                started.push(p);
                if self.policy.waiting() == 0 {
                    return;
                }
            }
        }
    }
}

/// The idle processes: a bit per process, listed in increasing order.
struct IdleSet {
    words: Vec<u64>,
    len: usize,
}

impl IdleSet {
    /// Processes `0..procs`, all idle.
    fn all(procs: usize) -> Self {
        let mut words = vec![u64::MAX; procs.div_ceil(64)];
        if !procs.is_multiple_of(64) {
            if let Some(last) = words.last_mut() {
                *last = (1u64 << (procs % 64)) - 1;
            }
        }
        IdleSet { words, len: procs }
    }

    fn insert(&mut self, p: usize) {
        let (w, b) = (p / 64, 1u64 << (p % 64));
        if self.words[w] & b == 0 {
            self.words[w] |= b;
            self.len += 1;
        }
    }

    fn remove(&mut self, p: usize) {
        let (w, b) = (p / 64, 1u64 << (p % 64));
        if self.words[w] & b != 0 {
            self.words[w] &= !b;
            self.len -= 1;
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Runs the analysis of `g` on `procs` processes with the given policy and system model.
pub fn analyze(
    g: &dyn Dag,
    procs: usize,
    policy: &mut dyn Policy,
    system: &mut dyn SystemModel,
    limits: &Limits,
) -> Result<Schedule, AnalysisError> {
    analyze_metered(g, procs, policy, system, limits, None)
}

/// What a progress display calls an analysis's phases (scheduling, then the report) and
/// what its meter counts.
pub const METER_UNITS: sweep::Units = sweep::Units {
    running: "scheduling",
    analysing: "reporting",
    noun: "tasks",
};

/// [`analyze`], recording the number of finished tasks in `meter` as it goes (for a
/// progress display read by another thread).
pub fn analyze_metered(
    g: &dyn Dag,
    procs: usize,
    policy: &mut dyn Policy,
    system: &mut dyn SystemModel,
    limits: &Limits,
    meter: Option<&sweep::Meter>,
) -> Result<Schedule, AnalysisError> {
    if let Some(m) = meter {
        m.start();
    }
    if procs == 0 {
        return Err(AnalysisError::Procs {
            procs,
            max: limits.max_procs,
        });
    }
    if procs > limits.max_procs {
        return Err(AnalysisError::TooManyProcs {
            procs,
            reached: sweep::Reached::new(sweep::Limit::Processes, limits.max_procs as u64),
        });
    }
    let n = g.len();
    let mut work = 0.0;
    for t in 0..n as u32 {
        let x = g.time(t);
        if !x.is_finite() || x < 0.0 {
            return Err(AnalysisError::Attribute {
                task: g.id(t),
                message: format!("time must be finite and >= 0, got {x}"),
            });
        }
        // The makespan is at most the total work, so a finite total keeps every time finite.
        work += x;
        if !work.is_finite() {
            return Err(AnalysisError::Overflow {
                task: g.id(t),
                message: format!(
                    "its time {x} makes the total work overflow; task times must sum to a finite \
                     number (change the time unit)"
                ),
            });
        }
        let rate = g.rate(t, None);
        if !rate.is_finite() {
            return Err(AnalysisError::Overflow {
                task: g.id(t),
                message: "its request rates sum to more than the largest number; give rates per \
                          unit of CPU time that sum to a finite number"
                    .to_string(),
            });
        }
    }
    policy.init(g, procs)?;
    let basic = system.is_basic();
    let mut run = Run {
        g,
        pending: (0..n as u32).map(|t| g.pred_count(t)).collect(),
        runs: vec![
            TaskRun {
                proc: u32::MAX,
                start: f64::NAN,
                end: f64::NAN,
            };
            n
        ],
        stats: vec![ProcStats::default(); procs],
        slots: (0..procs).map(|_| None).collect(),
        idle: IdleSet::all(procs),
        policy,
        system,
        done: 0,
        now: 0.0,
        busy_integral: 0.0,
        basic,
        meter,
    };
    for t in 0..n as u32 {
        if run.pending[t as usize] == 0 {
            run.policy.ready(t, 0.0);
        }
    }
    let steps = if basic {
        basic_loop(&mut run)
    } else {
        general_loop(&mut run)?
    };
    if run.done < n {
        let stuck = (0..n as u32).find(|&t| run.runs[t as usize].end.is_nan());
        return Err(AnalysisError::Deadlock {
            finished: run.done,
            total: n,
            ready: run.policy.waiting(),
            example: stuck.map(|t| g.id(t)).unwrap_or_default(),
        });
    }
    if let Some(m) = meter {
        m.set_count(run.done as u64);
    }
    let now = run.now;
    for s in &mut run.stats {
        s.idle = (now - s.busy - s.overhead).max(0.0);
    }
    Ok(Schedule {
        makespan: now,
        runs: run.runs,
        procs: run.stats,
        steps,
    })
}

/// Tolerance for simultaneous completions.
fn tie(t: f64) -> f64 {
    t + 1e-12 * t.abs().max(1.0)
}

/// Without overheads: completion times are fixed at start + T_i; an event heap orders them.
fn basic_loop(run: &mut Run) -> usize {
    let mut heap: BinaryHeap<Reverse<(OrdTime, usize)>> = BinaryHeap::new();
    let mut started = Vec::new();
    let mut completing = Vec::new();
    let mut steps = 0;
    run.dispatch(&mut started);
    for &p in &started {
        let s = run.slots[p].as_ref().expect("busy");
        heap.push(Reverse((OrdTime(s.start + s.remaining), p)));
    }
    while let Some(Reverse((OrdTime(first), _))) = heap.peek().copied() {
        steps += 1;
        run.busy_integral += (first - run.now) * (run.slots.len() - run.idle.len()) as f64;
        run.now = first;
        let limit = tie(first);
        completing.clear();
        while let Some(&Reverse((OrdTime(t), p))) = heap.peek() {
            if t > limit {
                break;
            }
            heap.pop();
            completing.push(p);
        }
        completing.sort_unstable();
        for &p in &completing {
            run.complete(p);
        }
        run.dispatch(&mut started);
        for &p in &started {
            let s = run.slots[p].as_ref().expect("busy");
            heap.push(Reverse((OrdTime(s.start + s.remaining), p)));
        }
    }
    steps
}

/// With a system model: every step recomputes the overheads of the state and advances every
/// executing task at its rate `r_i/(r_i + D_i)`.
///
/// An overhead or a completion time that is not a finite number (the system model overflows)
/// is an error naming the task.
fn general_loop(run: &mut Run) -> Result<usize, AnalysisError> {
    let procs = run.slots.len();
    let mut active: Vec<usize> = Vec::with_capacity(procs);
    let mut still: Vec<usize> = Vec::with_capacity(procs);
    let mut executing: Vec<(u32, f64)> = Vec::with_capacity(procs);
    let mut overhead: Vec<f64> = Vec::with_capacity(procs);
    let mut started = Vec::new();
    let mut steps = 0;
    run.dispatch(&mut started);
    active.extend_from_slice(&started);
    while !active.is_empty() {
        steps += 1;
        executing.clear();
        executing.extend(active.iter().map(|&p| {
            let s = run.slots[p].as_ref().expect("busy");
            (s.task, s.remaining)
        }));
        // 1) overheads D_i for the remaining work in this state
        run.system.overheads(run.g, &executing, &mut overhead);
        if let Some(i) = overhead.iter().position(|d| !(d.is_finite() && *d >= 0.0)) {
            return Err(AnalysisError::Overflow {
                task: run.g.id(executing[i].0),
                message: format!(
                    "with {} tasks executing, the system model gives it an overhead of {:e}: \
                     the response time overflows; check the service demands and the request rates",
                    executing.len(),
                    overhead[i]
                ),
            });
        }
        // 2) time to the next completion
        let elapse = active
            .iter()
            .zip(&overhead)
            .map(|(&p, d)| {
                let s = run.slots[p].as_ref().expect("busy");
                s.fetch + s.remaining + d
            })
            .fold(f64::INFINITY, f64::min);
        let limit = tie(elapse);
        run.now += elapse;
        run.busy_integral += elapse * active.len() as f64;
        // The time integral of the busy processes bounds every per-process total; finite
        // here keeps the schedule and its metrics finite.
        if !(run.now.is_finite() && run.busy_integral.is_finite()) {
            let (i, d) = overhead
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
                .expect("active tasks");
            return Err(AnalysisError::Overflow {
                task: run.g.id(executing[i].0),
                message: format!(
                    "with {} tasks executing, the system model gives it an overhead of {d:e}, \
                     and the schedule's times overflow; check the service demands and the \
                     request rates",
                    executing.len()
                ),
            });
        }
        // 3) progress of the others; 4) completions in process order
        still.clear();
        for (&p, &d) in active.iter().zip(&overhead) {
            let s = run.slots[p].as_mut().expect("busy");
            if s.fetch + s.remaining + d <= limit {
                run.complete(p);
            } else {
                // The fetch delay elapses first; then the work progresses at r/(r + D).
                let used = elapse.min(s.fetch);
                s.fetch -= used;
                let e = elapse - used;
                let r = s.remaining;
                s.remaining = if d == 0.0 { r - e } else { r - e * r / (r + d) };
                still.push(p);
            }
        }
        std::mem::swap(&mut active, &mut still);
        // 5) idle processes pick ready tasks
        run.dispatch(&mut started);
        if !started.is_empty() {
            active.extend_from_slice(&started);
            active.sort_unstable();
        }
    }
    Ok(steps)
}

/// An `f64` time ordered by `total_cmp`, for the event heap.
#[derive(Clone, Copy, PartialEq)]
struct OrdTime(f64);
impl Eq for OrdTime {}
impl PartialOrd for OrdTime {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for OrdTime {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}
