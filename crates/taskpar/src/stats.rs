//! The statistics of a recorded DAG, as DAG Recorder defines them (spec §2.2): work, delay
//! and no_work by the chronological sweep, the span and Cilkview's burdened span, counts,
//! and the derived figures of its stats file.

use crate::dag::{EdgeKind, Graph, NodeKind};
use std::fmt::Write as _;

/// How to compute the statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatsOptions {
    /// Workers (P); the recording's when `None`.
    pub workers: Option<u32>,
    /// The burden of a spawn's continuation and return edges, in clock units (Cilkview:
    /// about 15,000 cycles).
    pub burden: f64,
    /// Keep the sweep's parallelism profile, thinned to about this many points (0: none).
    pub profile_points: usize,
}

impl Default for StatsOptions {
    fn default() -> Self {
        StatsOptions {
            workers: None,
            burden: 15_000.0 / 2.5,
            profile_points: 0,
        }
    }
}

/// Cilkview's burden per spawn, in cycles.
pub const BURDEN_CYCLES: f64 = 15_000.0;

/// One step of the parallelism profile: from `t` on, `running` nodes ran and `ready` more
/// could have.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProfilePoint {
    /// Time since the run began, in clock units.
    pub t: f64,
    /// Nodes running.
    pub running: u32,
    /// Nodes ready but not running.
    pub ready: u32,
}

/// A recorded DAG's statistics (clock units unless said otherwise).
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Workers (P).
    pub workers: u32,
    /// Tasks created (the root is not counted).
    pub create_task: u64,
    /// Wait operations.
    pub wait_tasks: u64,
    /// Tasks ended (the root included).
    pub end_task: u64,
    /// Strands (DAG Recorder's intervals).
    pub intervals: u64,
    /// Work T1: the strands' durations.
    pub work: u64,
    /// Delay: ready work not running while a worker was free, plus the runtime time inside
    /// collapsed nodes.
    pub delay: u64,
    /// The runtime time inside collapsed nodes (part of `delay`).
    pub inner_delay: u64,
    /// Tasks created inside collapsed nodes (the calls `inner_delay` was spent on).
    pub inner_creates: u64,
    /// No work: workers idle with nothing ready.
    pub no_work: u64,
    /// Span T∞.
    pub span: u64,
    /// Burdened span: the span with a burden on every continuation and return edge.
    pub burdened_span: u64,
    /// The burden used, in clock units.
    pub burden: f64,
    /// First start to last end.
    pub elapsed: u64,
    /// The sum of the nodes' running times.
    pub cum_running: u64,
    /// Nodes in the file.
    pub materialized: u64,
    /// Edge counts per kind ([`EdgeKind::ALL`] order), worker × worker (the last row and
    /// column: nodes on more than one worker or outside the pool).
    pub edges: Vec<Vec<Vec<u64>>>,
    /// Dependence edges ([`EdgeKind::Depend`]: OpenMP's `depend` clauses), which DAG
    /// Recorder's edge matrices have no place for.
    pub dependences: u64,
    /// The parallelism profile (when asked for).
    pub profile: Vec<ProfilePoint>,
}

impl Stats {
    /// Computes the statistics of `g`, recorded with `workers` workers.
    pub fn of(g: &Graph, workers: u32, materialized: u64, opts: &StatsOptions) -> Stats {
        let p = opts.workers.unwrap_or(workers).max(1);
        let counts = g.counts();
        let work: u64 = g.nodes.iter().map(|n| n.work).sum();
        let cum_running: u64 = g.nodes.iter().map(|n| n.end - n.start).sum();
        let sweep = sweep(g, p, opts.profile_points);
        let (span, burdened_span) = spans(g, opts.burden);
        Stats {
            workers: p,
            create_task: counts.creates,
            wait_tasks: counts.waits,
            end_task: counts.ends,
            intervals: counts.strands,
            work,
            delay: sweep.delay + (cum_running - work),
            inner_delay: cum_running - work,
            inner_creates: g
                .nodes
                .iter()
                .filter(|n| n.kind == NodeKind::Collapsed)
                .map(|n| n.counts.creates)
                .sum(),
            no_work: sweep.no_work,
            span,
            burdened_span: burdened_span.round() as u64,
            burden: opts.burden,
            elapsed: sweep.elapsed,
            cum_running,
            materialized,
            edges: edge_counts(g, p),
            dependences: (0..g.nodes.len())
                .map(|v| {
                    g.preds(v)
                        .iter()
                        .filter(|&&(_, k)| k == EdgeKind::Depend)
                        .count() as u64
                })
                .sum(),
            profile: sweep.profile,
        }
    }

    /// `work + delay + no_work − P·elapsed`: 0 when the identity of eq. 8 holds (it fails
    /// only when more nodes than workers ran at once, i.e. the clocks disagree).
    pub fn identity_gap(&self) -> i128 {
        self.work as i128 + self.delay as i128 + self.no_work as i128
            - self.workers as i128 * self.elapsed as i128
    }

    /// T1/P.
    pub fn work_over_p(&self) -> f64 {
        self.work as f64 / self.workers as f64
    }

    /// T1/P + T∞: the greedy scheduler's bound.
    pub fn greedy_bound(&self) -> f64 {
        self.work_over_p() + self.span as f64
    }

    /// Cilkview's upper bound T1/P + 1.7·T̂∞ (eq. 4 with δ = 0.85).
    pub fn cilkview_bound(&self) -> f64 {
        cilkview_bound(self.work as f64, self.burdened_span as f64, self.workers)
    }

    /// T1/T∞.
    pub fn parallelism(&self) -> f64 {
        self.work as f64 / self.span as f64
    }

    /// T1 / (T1/P + T∞).
    pub fn greedy_speedup(&self) -> f64 {
        self.work as f64 / self.greedy_bound()
    }

    /// T1 / elapsed.
    pub fn observed_speedup(&self) -> f64 {
        self.work as f64 / self.elapsed as f64
    }

    /// (T1/P + T∞) / elapsed.
    pub fn observed_over_greedy(&self) -> f64 {
        self.greedy_bound() / self.elapsed as f64
    }

    /// Running time per created task.
    pub fn task_granularity(&self) -> f64 {
        self.cum_running as f64 / self.create_task as f64
    }

    /// The runtime's and the recorder's time per task created inside collapsed nodes
    /// (clock units): between a call into the runtime and its return, on one worker, so no
    /// waiting; `None` without such tasks.
    pub fn runtime_per_task(&self) -> Option<f64> {
        (self.inner_creates > 0).then(|| self.inner_delay as f64 / self.inner_creates as f64)
    }

    /// Running time per strand.
    pub fn interval_granularity(&self) -> f64 {
        self.cum_running as f64 / self.intervals as f64
    }

    /// Logical DAG nodes (intervals, sections, tasks).
    pub fn dag_nodes(&self) -> u64 {
        self.intervals + self.wait_tasks + self.create_task + 1
    }

    /// Materialised nodes over logical nodes.
    pub fn compression_ratio(&self) -> f64 {
        self.materialized as f64 / self.dag_nodes() as f64
    }

    /// DAG Recorder's stats file, field for field.
    pub fn stat_text(&self) -> String {
        let mut s = String::new();
        let w = &mut s;
        let _ = writeln!(w, "create_task           = {}", self.create_task);
        let _ = writeln!(w, "wait_tasks            = {}", self.wait_tasks);
        let _ = writeln!(w, "end_task              = {}", self.end_task);
        let _ = writeln!(w, "work (T1)             = {}", self.work);
        let _ = writeln!(w, "delay                 = {}", self.delay);
        let _ = writeln!(w, "no_work               = {}", self.no_work);
        let _ = writeln!(w, "critical_path (T_inf) = {}", self.span);
        let _ = writeln!(w, "n_workers (P)         = {}", self.workers);
        let _ = writeln!(w, "elapsed               = {}", self.elapsed);
        if self.identity_gap() != 0 {
            let total = self.work as u128 + self.delay as u128 + self.no_work as u128;
            let _ = writeln!(
                w,
                "*** warning (running + delay + no_work) / n_workers = {} != elapsed_time",
                total / self.workers as u128
            );
        }
        let _ = writeln!(w, "T1/P                  = {:.3}", self.work_over_p());
        let _ = writeln!(w, "T1/P+T_inf            = {:.3}", self.greedy_bound());
        let _ = writeln!(w, "T1/T_inf              = {:.3}", self.parallelism());
        let _ = writeln!(w, "greedy speedup        = {:.3}", self.greedy_speedup());
        let _ = writeln!(w, "observed speedup      = {:.3}", self.observed_speedup());
        let _ = writeln!(
            w,
            "observed/greedy       = {:.3}",
            self.observed_over_greedy()
        );
        let _ = writeln!(w, "task granularity      = {:.3}", self.task_granularity());
        let _ = writeln!(
            w,
            "interval granularity  = {:.3}",
            self.interval_granularity()
        );
        let _ = writeln!(w, "dag nodes             = {}", self.dag_nodes());
        let _ = writeln!(w, "materialized nodes    = {}", self.materialized);
        let _ = writeln!(w, "compression ratio     = {:.6}", self.compression_ratio());
        if self.dependences > 0 {
            // Not a DAG Recorder field: only files with dependences print it.
            let _ = writeln!(w, "dependence edges      = {}", self.dependences);
        }
        let names = [
            "end-parent edges:",
            "create-child edges:",
            "create-cont edges:",
            "wait-cont edges:",
            "other-cont edges:",
        ];
        for (name, m) in names.iter().zip(&self.edges) {
            let _ = writeln!(w, "{name}");
            for row in m {
                for c in row {
                    let _ = write!(w, " {c}");
                }
                let _ = writeln!(w);
            }
        }
        s
    }
}

/// Cilkview's upper bound T1/P + 1.7·T̂∞ (eq. 4 with δ = 0.85).
pub fn cilkview_bound(work: f64, burdened_span: f64, workers: u32) -> f64 {
    work / workers.max(1) as f64 + 1.7 * burdened_span
}

struct Sweep {
    delay: u64,
    no_work: u64,
    elapsed: u64,
    profile: Vec<ProfilePoint>,
}

/// The chronological sweep: readiness from the DAG (a node is ready when its last
/// predecessor ends), running from the recorded times; before each event the interval
/// since the last one is split into running, delay and no_work.
fn sweep(g: &Graph, p: u32, profile_points: usize) -> Sweep {
    const READY: u8 = 0;
    const START: u8 = 1;
    const LAST_START: u8 = 2;
    let mut ev: Vec<(u64, u8)> = Vec::with_capacity(g.nodes.len() * 4);
    for (v, n) in g.nodes.iter().enumerate() {
        let ready = g
            .preds(v)
            .iter()
            .map(|&(u, _)| g.nodes[u as usize].end)
            .max()
            .unwrap_or(g.ready_at.unwrap_or(n.start))
            .min(n.start);
        ev.push((ready, READY));
        ev.push((n.start, START));
        ev.push((n.last_start, LAST_START));
        ev.push((n.end, 3));
    }
    ev.sort_unstable();
    let (Some(first), Some(last)) = (ev.first(), ev.last()) else {
        return Sweep {
            delay: 0,
            no_work: 0,
            elapsed: 0,
            profile: Vec::new(),
        };
    };
    let (t0, t_end) = (first.0, last.0);
    let p = i64::from(p);
    let (mut running, mut ready) = (0i64, 0i64);
    let (mut delay, mut no_work) = (0u128, 0u128);
    let mut t = t0;
    let mut profile = Vec::new();
    let every = if profile_points == 0 {
        u64::MAX
    } else {
        ((t_end - t0) / profile_points as u64).max(1)
    };
    let mut next_profile = t0;
    for &(te, kind) in &ev {
        let dt = (te - t) as u128;
        if dt > 0 {
            let r = running.max(0);
            let q = ready.max(0);
            if r < p {
                if r + q <= p {
                    delay += q as u128 * dt;
                    no_work += (p - r - q) as u128 * dt;
                } else {
                    delay += (p - r) as u128 * dt;
                }
            }
            if t >= next_profile {
                profile.push(ProfilePoint {
                    t: (t - t0) as f64,
                    running: r as u32,
                    ready: q as u32,
                });
                next_profile = t.saturating_add(every);
            }
            t = te;
        }
        match kind {
            READY => ready += 1,
            START => running += 1,
            LAST_START => ready -= 1,
            _ => running -= 1,
        }
    }
    if profile_points > 0 {
        profile.push(ProfilePoint {
            t: (t_end - t0) as f64,
            running: 0,
            ready: 0,
        });
    }
    Sweep {
        delay: delay.min(u64::MAX as u128) as u64,
        no_work: no_work.min(u64::MAX as u128) as u64,
        elapsed: t_end - t0,
        profile,
    }
}

/// The span, and the span with `burden` on each continuation and return edge (and on the
/// spawns inside collapsed nodes along their span).
fn spans(g: &Graph, burden: f64) -> (u64, f64) {
    let mut fin = vec![0u64; g.nodes.len()];
    let mut fin_b = vec![0f64; g.nodes.len()];
    let (mut span, mut span_b) = (0u64, 0f64);
    for (v, n) in g.nodes.iter().enumerate() {
        let mut f = 0u64;
        let mut fb = 0f64;
        for &(u, kind) in g.preds(v) {
            f = f.max(fin[u as usize]);
            let extra = if kind.burdened() { burden } else { 0.0 };
            fb = fb.max(fin_b[u as usize] + extra);
        }
        fin[v] = f + n.span;
        fin_b[v] = fb + n.span as f64 + burden * n.span_burdens as f64;
        span = span.max(fin[v]);
        span_b = span_b.max(fin_b[v]);
    }
    (span, span_b)
}

/// Every path of greatest span (node indices), at most `max` of them.
pub fn critical_paths(g: &Graph, max: usize) -> Vec<Vec<u32>> {
    let n = g.nodes.len();
    let mut fin = vec![0u64; n];
    let mut has_succ = vec![false; n];
    for (v, node) in g.nodes.iter().enumerate() {
        let f = g
            .preds(v)
            .iter()
            .map(|&(u, _)| fin[u as usize])
            .max()
            .unwrap_or(0);
        for &(u, _) in g.preds(v) {
            has_succ[u as usize] = true;
        }
        fin[v] = f + node.span;
    }
    let span = fin.iter().copied().max().unwrap_or(0);
    let mut out = Vec::new();
    // Depth-first from each sink on the span back through tight predecessors.
    let mut stack: Vec<Vec<u32>> = (0..n)
        .rev()
        .filter(|&v| !has_succ[v] && fin[v] == span)
        .map(|v| vec![v as u32])
        .collect();
    while let Some(path) = stack.pop() {
        if out.len() >= max {
            break;
        }
        let v = *path.last().unwrap_or(&0) as usize;
        let need = fin[v] - g.nodes[v].span;
        let tight: Vec<u32> = g
            .preds(v)
            .iter()
            .map(|&(u, _)| u)
            .filter(|&u| fin[u as usize] == need)
            .collect();
        if tight.is_empty() {
            let mut p = path;
            p.reverse();
            out.push(p);
        } else {
            for &u in tight.iter().rev() {
                let mut p = path.clone();
                p.push(u);
                stack.push(p);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn edge_counts(g: &Graph, p: u32) -> Vec<Vec<Vec<u64>>> {
    let k = p as usize + 1;
    let idx = |w: u32| (w as usize).min(k - 1);
    let mut m = vec![vec![vec![0u64; k]; k]; EdgeKind::ALL.len()];
    let slot = |e: EdgeKind| EdgeKind::ALL.iter().position(|&x| x == e);
    for (v, n) in g.nodes.iter().enumerate() {
        for &(u, kind) in g.preds(v) {
            // A dependence has no matrix (Stats::dependences counts them).
            if let Some(s) = slot(kind) {
                m[s][idx(g.nodes[u as usize].worker)][idx(n.worker)] += 1;
            }
        }
        // The logical edges inside a collapsed node, on its worker's diagonal.
        let w = idx(n.worker);
        for (k, e) in n.inner_edges.iter().enumerate() {
            m[k][w][w] += e;
        }
    }
    m
}
