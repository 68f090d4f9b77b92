//! The analysis loop of Adve & Vernon's Fig. 2.
//!
//! State: the executing tasks `E` (one per busy process) with remaining CPU demand `r_i`,
//! the ready tasks (held by the [`Policy`]), and per-task counts of unfinished parents.
//! Each step asks the system model for the overheads `D_i = r_i·λ_i·R(E)`, advances time to
//! the next completion `T_elapse = min(r_i + D_i)`, lets every other task progress at rate
//! `r_i/(r_i + D_i)` (`r_i ← r_i − T_elapse·r_i/(r_i + D_i)`; just `r_i − T_elapse` without
//! overheads), releases the successors of the completed tasks, and lets idle processes pick
//! ready tasks in increasing process order. There are at most N steps, each costing O(P), so
//! the basic model costs O(N·P + E).
//!
//! Ties are deterministic: tasks completing at the same instant are handled in increasing
//! process order, their successors released in successor-list order; roots are released in
//! task order. Completion instants closer than 1e-12 (relative) count as one.

use super::policy::Policy;
use super::system::SystemModel;
use super::{AnalysisError, Dag};

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

/// Runs the analysis of `g` on `procs` processes with the given policy and system model.
pub fn analyze(
    g: &dyn Dag,
    procs: usize,
    policy: &mut dyn Policy,
    system: &mut dyn SystemModel,
    limits: &Limits,
) -> Result<Schedule, AnalysisError> {
    if procs == 0 || procs > limits.max_procs {
        return Err(AnalysisError::Procs {
            procs,
            max: limits.max_procs,
        });
    }
    let n = g.len();
    for t in 0..n as u32 {
        let x = g.time(t);
        if !x.is_finite() || x < 0.0 {
            return Err(AnalysisError::Attribute {
                task: g.id(t),
                message: format!("time must be finite and >= 0, got {x}"),
            });
        }
    }
    policy.init(g, procs)?;
    let mut pending: Vec<u32> = (0..n as u32).map(|t| g.pred_count(t)).collect();
    let mut runs = vec![
        TaskRun {
            proc: u32::MAX,
            start: f64::NAN,
            end: f64::NAN,
        };
        n
    ];
    let mut stats = vec![ProcStats::default(); procs];
    let mut slots: Vec<Option<Slot>> = (0..procs).map(|_| None).collect();
    let mut active: Vec<usize> = Vec::with_capacity(procs); // busy process indices, sorted
    let mut executing: Vec<(u32, f64)> = Vec::with_capacity(procs);
    // For the one-time fetch delay: ∫|E| dt and the number of completions so far.
    let mut busy_integral = 0.0f64;
    let mut overhead: Vec<f64> = Vec::with_capacity(procs);
    let mut done = 0usize;
    let mut now = 0.0f64;
    let mut steps = 0usize;

    for t in 0..n as u32 {
        if pending[t as usize] == 0 {
            policy.ready(t, 0.0);
        }
    }
    let fetch = |system: &mut dyn SystemModel, now: f64, busy: f64, done: usize| {
        let mean_busy = if now > 0.0 { busy / now } else { 0.0 };
        let interval = (done > 0).then(|| now / done as f64);
        system.fetch_delay(mean_busy, interval)
    };
    dispatch(
        g,
        policy,
        &mut slots,
        &mut active,
        now,
        &mut runs,
        &mut |_| fetch(system, 0.0, 0.0, 0),
    );

    while !active.is_empty() {
        steps += 1;
        executing.clear();
        executing.extend(active.iter().map(|&p| {
            let s = slots[p].as_ref().expect("busy");
            (s.task, s.remaining)
        }));
        // 1) overheads D_i for the remaining work in this state
        system.overheads(g, &executing, &mut overhead);
        // 2) time to the next completion
        let elapse = active
            .iter()
            .zip(&overhead)
            .map(|(&p, d)| {
                let s = slots[p].as_ref().expect("busy");
                s.fetch + s.remaining + d
            })
            .fold(f64::INFINITY, f64::min);
        let tie = elapse + 1e-12 * elapse.abs().max(1.0);
        now += elapse;
        busy_integral += elapse * active.len() as f64;
        // 3) progress of the others; 4) completions in process order
        let mut still = Vec::with_capacity(active.len());
        for (&p, &d) in active.iter().zip(&overhead) {
            let s = slots[p].as_mut().expect("busy");
            if s.fetch + s.remaining + d <= tie {
                let t = s.task;
                runs[t as usize].end = now;
                let st = &mut stats[p];
                st.busy += g.time(t);
                st.overhead += (now - s.start - g.time(t)).max(0.0);
                st.tasks += 1;
                slots[p] = None;
                done += 1;
                for &c in g.successors(t) {
                    let k = &mut pending[c as usize];
                    *k -= 1;
                    if *k == 0 {
                        policy.ready(c, now);
                    }
                }
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
        active = still;
        // 5) idle processes pick ready tasks
        dispatch(
            g,
            policy,
            &mut slots,
            &mut active,
            now,
            &mut runs,
            &mut |_| fetch(system, now, busy_integral, done),
        );
    }
    if done < n {
        let stuck = (0..n as u32).find(|&t| runs[t as usize].end.is_nan());
        return Err(AnalysisError::Deadlock {
            finished: done,
            total: n,
            ready: policy.waiting(),
            example: stuck.map(|t| g.id(t)).unwrap_or_default(),
        });
    }
    for s in &mut stats {
        s.idle = (now - s.busy - s.overhead).max(0.0);
    }
    Ok(Schedule {
        makespan: now,
        runs,
        procs: stats,
        steps,
    })
}

fn dispatch(
    g: &dyn Dag,
    policy: &mut dyn Policy,
    slots: &mut [Option<Slot>],
    active: &mut Vec<usize>,
    now: f64,
    runs: &mut [TaskRun],
    fetch_delay: &mut dyn FnMut(u32) -> f64,
) {
    if policy.waiting() == 0 {
        return;
    }
    let mut added = false;
    for (p, slot) in slots.iter_mut().enumerate() {
        if slot.is_some() {
            continue;
        }
        if let Some(t) = policy.pick(p) {
            runs[t as usize] = TaskRun {
                proc: p as u32,
                start: now,
                end: f64::NAN,
            };
            *slot = Some(Slot {
                task: t,
                fetch: fetch_delay(t),
                remaining: g.time(t),
                start: now,
            });
            active.push(p);
            added = true;
            if policy.waiting() == 0 {
                break;
            }
        }
    }
    if added {
        active.sort_unstable();
    }
}
