//! What an analysis explains: makespan against the work and span bounds, where each
//! process's time went, the parallelism profile, and the schedule as a `trace::Trace`.

use super::engine::Schedule;
use super::{Attr, Dag};

/// Derived metrics of a schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Predicted execution time.
    pub makespan: f64,
    /// Σ T_i: the execution time on one process without overheads.
    pub work: f64,
    /// The critical path length (the makespan on unlimited processes, basic model).
    pub span: f64,
    /// work / span.
    pub average_parallelism: f64,
    /// Busy processes averaged over the makespan.
    pub achieved_parallelism: f64,
    /// Σ overheads over all processes.
    pub overhead: f64,
    /// Σ idle time over all processes.
    pub idle: f64,
    /// The largest number of tasks running at once.
    pub peak_parallelism: usize,
    /// The number of running tasks over time ([`parallelism_profile`]).
    pub profile: Vec<(f64, usize)>,
}

/// The metrics of `s` for graph `g` (with its critical path length `span`).
pub fn summarize(g: &dyn Dag, s: &Schedule, span: f64) -> Summary {
    let work: f64 = (0..g.len() as u32).map(|t| g.time(t)).sum();
    let busy: f64 = s.procs.iter().map(|p| p.busy + p.overhead).sum();
    let profile = parallelism_profile(s);
    Summary {
        makespan: s.makespan,
        work,
        span,
        average_parallelism: if span > 0.0 { work / span } else { 0.0 },
        achieved_parallelism: if s.makespan > 0.0 {
            busy / s.makespan
        } else {
            0.0
        },
        overhead: s.procs.iter().map(|p| p.overhead).sum(),
        idle: s.procs.iter().map(|p| p.idle).sum(),
        peak_parallelism: profile.iter().map(|&(_, k)| k).max().unwrap_or(0),
        profile,
    }
}

/// The number of running tasks over time: `(time, count from then on)`, merged, ending at 0.
pub fn parallelism_profile(s: &Schedule) -> Vec<(f64, usize)> {
    let mut ev: Vec<(f64, i64)> = Vec::with_capacity(2 * s.runs.len());
    for r in &s.runs {
        if r.end > r.start {
            ev.push((r.start, 1));
            ev.push((r.end, -1));
        }
    }
    step_function(ev)
}

fn step_function(mut ev: Vec<(f64, i64)>) -> Vec<(f64, usize)> {
    // Events at one time are summed, so their order does not matter: an unstable sort.
    ev.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, usize)> = Vec::new();
    let mut level = 0i64;
    let mut i = 0;
    while i < ev.len() {
        let t = ev[i].0;
        while i < ev.len() && ev[i].0 == t {
            level += ev[i].1;
            i += 1;
        }
        let k = level.max(0) as usize;
        match out.last() {
            Some(&(_, last)) if last == k => {}
            _ => out.push((t, k)),
        }
    }
    out
}

/// For the `queues` policy (spec §5 item 7): over time, the mean number of processes working
/// on each queue that has at least one running task: `(time, processes / active queues)`.
pub fn processes_per_active_queue(g: &dyn Dag, s: &Schedule) -> Vec<(f64, f64)> {
    let mut ev: Vec<(f64, i64, i64)> = Vec::new(); // (time, +1/-1, queue)
    for (t, r) in s.runs.iter().enumerate() {
        if r.end > r.start {
            let q = g.attr(t as u32, Attr::Queue).unwrap_or(0);
            ev.push((r.start, 1, q));
            ev.push((r.end, -1, q));
        }
    }
    ev.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut per_queue: std::collections::HashMap<i64, i64> = std::collections::HashMap::new();
    let (mut running, mut active) = (0i64, 0i64);
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut i = 0;
    while i < ev.len() {
        let t = ev[i].0;
        while i < ev.len() && ev[i].0 == t {
            let (_, d, q) = ev[i];
            let c = per_queue.entry(q).or_insert(0);
            if *c == 0 && d > 0 {
                active += 1;
            }
            *c += d;
            if *c == 0 && d < 0 {
                active -= 1;
            }
            running += d;
            i += 1;
        }
        let v = if active > 0 {
            running as f64 / active as f64
        } else {
            0.0
        };
        if out.last().is_none_or(|&(_, last)| last != v) {
            out.push((t, v));
        }
    }
    out
}

/// The schedule as a trace: one lane per process, a busy interval per task labelled by its id
/// (CPU demand first, then the overhead share of its wall time as an overhead interval).
pub fn to_trace(g: &dyn Dag, s: &Schedule, name: &str) -> trace::Trace {
    let mut tr = trace::Trace::new(name);
    let lanes: Vec<trace::LaneId> = (0..s.procs.len())
        .map(|p| tr.add_lane(format!("proc {p}"), "processors"))
        .collect();
    for (t, r) in s.runs.iter().enumerate() {
        if r.end.is_nan() || r.end < r.start {
            continue;
        }
        let lane = lanes[r.proc as usize];
        let id = g.id(t as u32);
        let wall = r.end - r.start;
        let cpu = g.time(t as u32).min(wall);
        // Overheads are spread over a task's run; draw the CPU share, then the rest.
        tr.push(lane, r.start, r.start + cpu, id.clone(), trace::Kind::Busy);
        if wall - cpu > 1e-12 * wall.max(1.0) {
            tr.push(lane, r.start + cpu, r.end, id, trace::Kind::Overhead);
        }
    }
    tr
}
