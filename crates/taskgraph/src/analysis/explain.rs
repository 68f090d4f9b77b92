//! The report of one analysis, as the `vates graph analyze` command shows it: makespan,
//! work, span, critical path, parallelism, speedup against one process, where each
//! process's time went, as text or JSON, and the parallelism profile as CSV.
//!
//! ```
//! use taskgraph::analysis::explain::{Explained, Labels};
//! use taskgraph::analysis::{policy::PolicyKind, setup::Setup};
//! let g = taskgraph::read_json(r#"{"tasks": [
//!     {"id": "A", "time": 2}, {"id": "B", "time": 3, "preds": ["A"]},
//!     {"id": "C", "time": 5, "preds": ["A"]}, {"id": "D", "time": 1, "preds": ["B", "C"]}
//! ]}"#).unwrap();
//! let setup = Setup { policy: PolicyKind::Fifo, system: None };
//! let run = setup.analyze(&g, 2, None).unwrap();
//! let labels = Labels { graph: "g.json".into(), policy: "fifo".into(), ..Labels::default() };
//! let ex = Explained::new(&g, labels, &setup, 2, run, Some(Ok(11.0)));
//! assert_eq!(ex.speedup(), Some((11.0 / 8.0, 11.0 / 16.0)));
//! assert!(ex.text().contains("critical path        = A → C → D (3 tasks)"));
//! assert_eq!(ex.json()["makespan"], 8.0);
//! ```

use std::fmt::Write as _;

use trace::text::{fixed, num, Align, TextTable};

use super::engine::Schedule;
use super::policy::PolicyKind;
use super::report;
use super::setup::{Run, Setup};
use crate::TaskGraph;

/// What the report calls the inputs, as the user named them.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    /// The graph (its file).
    pub graph: String,
    /// The policy's name.
    pub policy: String,
    /// Whether work stealing is on.
    pub steal: bool,
    /// The system model's file, if any.
    pub system: Option<String>,
}

/// Everything the report of one analysis shows.
#[derive(Clone, Debug)]
pub struct Explained {
    /// The names of the inputs.
    pub labels: Labels,
    /// Tasks of the graph.
    pub tasks: usize,
    /// Edges of the graph.
    pub edges: usize,
    /// Processes.
    pub procs: usize,
    /// The schedule, with floating-point residue in the overheads cleaned to idle time.
    pub schedule: Schedule,
    /// Its metrics.
    pub summary: report::Summary,
    /// The critical path's task ids.
    pub critical_path: Vec<String>,
    /// The makespan on one process, when known.
    pub makespan_p1: Option<f64>,
    /// Why the one-process run failed, when it did.
    pub p1_error: Option<String>,
    /// The time average of the parallelism profile.
    pub profile_mean: f64,
    /// Processes per active queue, time-averaged while a queue is active (`queues` policy).
    pub per_queue: Option<f64>,
    /// Solves of the system model's network.
    pub solves: Option<usize>,
}

impl Explained {
    /// The report of `run` (an analysis of `g` on `procs` processes with `setup`).
    /// `baseline` is the one-process makespan or why it could not be computed; `None` when
    /// `procs` is 1 (the run is its own baseline).
    pub fn new(
        g: &TaskGraph,
        labels: Labels,
        setup: &Setup,
        procs: usize,
        run: Run,
        baseline: Option<Result<f64, String>>,
    ) -> Explained {
        let Run {
            mut schedule,
            solves,
        } = run;
        clean_rounding(&mut schedule);
        let (makespan_p1, p1_error) = match baseline {
            None => (Some(schedule.makespan), None),
            Some(Ok(t)) => (Some(t), None),
            Some(Err(e)) => (None, Some(e)),
        };
        let cp = g.critical_path();
        let summary = report::summarize(g, &schedule, cp.length);
        let per_queue = matches!(setup.policy, PolicyKind::Queues { .. })
            .then(|| mean_over_active(&report::processes_per_active_queue(g, &schedule)));
        Explained {
            labels,
            tasks: g.len(),
            edges: g.edge_count(),
            procs,
            profile_mean: time_mean(&summary.profile, schedule.makespan),
            critical_path: cp.tasks.iter().map(|&t| g.id(t).to_string()).collect(),
            schedule,
            summary,
            makespan_p1,
            p1_error,
            per_queue,
            solves,
        }
    }

    /// The speedup against one process and the efficiency, when both makespans are known
    /// and positive.
    pub fn speedup(&self) -> Option<(f64, f64)> {
        let t1 = self.makespan_p1?;
        if self.schedule.makespan > 0.0 {
            let s = t1 / self.schedule.makespan;
            Some((s, s / self.procs as f64))
        } else {
            None
        }
    }

    /// The parallelism profile (and, with the `queues` policy, the processes per active
    /// queue) as CSV, one row per change: `time,running[,processes_per_active_queue]`.
    pub fn profile_csv(&self, g: &TaskGraph) -> String {
        let queues = self
            .per_queue
            .is_some()
            .then(|| report::processes_per_active_queue(g, &self.schedule));
        profile_csv(&self.summary.profile, queues.as_deref())
    }

    /// The report as text for people.
    pub fn text(&self) -> String {
        render_text(self)
    }

    /// The report as JSON.
    pub fn json(&self) -> serde_json::Value {
        to_json(self)
    }

    /// The report as text, or as pretty JSON with a final newline.
    pub fn render(&self, json: bool) -> String {
        match json {
            false => self.text(),
            true => pretty(&self.json()),
        }
    }

    /// The schedule as a timeline of the graph `g` (read from `path`) and the title of its
    /// Gantt chart.
    pub fn timeline(&self, g: &TaskGraph, path: &std::path::Path) -> (trace::Trace, String) {
        let file = path.file_name().map_or_else(
            || self.labels.graph.clone(),
            |f| f.to_string_lossy().into_owned(),
        );
        let name = format!("{file}: policy {}, P = {}", self.labels.policy, self.procs);
        let title = format!("{name}: makespan {}", num(self.schedule.makespan));
        (report::to_trace(g, &self.schedule, &name), title)
    }
}

/// Sets per-process overheads that are floating-point residue of the engine's
/// `end - start - time` (below 1e-9 of the makespan) to 0, moving them to idle time.
fn clean_rounding(s: &mut Schedule) {
    let eps = 1e-9 * s.makespan.abs().max(1.0);
    for p in &mut s.procs {
        if p.overhead.abs() < eps {
            p.idle += p.overhead;
            p.overhead = 0.0;
        }
        if p.idle.abs() < eps {
            p.idle = 0.0;
        }
    }
}

/// Time-weighted mean of a step function `(time, value from then on)` over `[0, end]`.
fn time_mean(profile: &[(f64, usize)], end: f64) -> f64 {
    if end <= 0.0 {
        return 0.0;
    }
    let mut acc = 0.0;
    for (i, &(t, k)) in profile.iter().enumerate() {
        let next = profile.get(i + 1).map_or(end, |&(u, _)| u);
        acc += (next.min(end) - t).max(0.0) * k as f64;
    }
    acc / end
}

/// Time-weighted mean of a step function over the time where it is positive.
fn mean_over_active(steps: &[(f64, f64)]) -> f64 {
    let (mut acc, mut len) = (0.0, 0.0);
    for w in steps.windows(2) {
        let (t, v) = w[0];
        let d = w[1].0 - t;
        if v > 0.0 && d > 0.0 {
            acc += v * d;
            len += d;
        }
    }
    if len > 0.0 {
        acc / len
    } else {
        0.0
    }
}

/// The critical path's ids, abbreviated past 12 with `…`.
fn show_path(ids: &[String]) -> String {
    if ids.is_empty() {
        "(none)".to_string()
    } else if ids.len() <= 12 {
        ids.join(" → ")
    } else {
        let head = ids[..6].join(" → ");
        let tail = ids[ids.len() - 5..].join(" → ");
        format!("{head} → … → {tail}")
    }
}

/// The parallelism profile (and processes per active queue) as CSV, merged on time.
fn profile_csv(profile: &[(f64, usize)], queues: Option<&[(f64, f64)]>) -> String {
    let mut times: Vec<f64> = profile.iter().map(|&(t, _)| t).collect();
    if let Some(q) = queues {
        times.extend(q.iter().map(|&(t, _)| t));
    }
    times.sort_by(f64::total_cmp);
    times.dedup();
    // The value of a step function at time t.
    fn at<T: Copy + Default>(steps: &[(f64, T)], t: f64) -> T {
        match steps.partition_point(|&(s, _)| s <= t) {
            0 => T::default(),
            k => steps[k - 1].1,
        }
    }
    let mut out = String::from(if queues.is_some() {
        "time,running,processes_per_active_queue\n"
    } else {
        "time,running\n"
    });
    for t in times {
        match queues {
            Some(q) => out.push_str(&format!("{t},{},{}\n", at(profile, t), at(q, t))),
            None => out.push_str(&format!("{t},{}\n", at(profile, t))),
        }
    }
    out
}

/// Processes shown one per row in the text table.
const PROCS_SHOWN: usize = 16;

/// The line of the text reports that says what unit their times are in: a graph's times are
/// in whatever unit its task times were given in.
pub const TIME_UNIT_LINE: &str = "  times in the graph's time unit (the unit of its task times)";

fn render_text(an: &Explained) -> String {
    let mut s = String::new();
    let sm = &an.summary;
    let _ = writeln!(
        s,
        "Task graph analysis: {} ({} tasks, {} edges)",
        an.labels.graph, an.tasks, an.edges
    );
    let mut how = format!("  policy {}", an.labels.policy);
    if an.labels.steal {
        how.push_str(" with stealing");
    }
    let _ = write!(how, ", P = {}", an.procs);
    match &an.labels.system {
        Some(p) => {
            let _ = write!(how, ", system model {p}");
        }
        None => how.push_str(", basic model (no overheads)"),
    }
    let _ = writeln!(s, "{how}");
    let _ = writeln!(s, "{TIME_UNIT_LINE}");
    let _ = writeln!(s);
    let _ = writeln!(s, "  makespan             = {}", num(sm.makespan));
    let _ = writeln!(s, "  work                 = {}", num(sm.work));
    let _ = writeln!(s, "  span                 = {}", num(sm.span));
    let _ = writeln!(
        s,
        "  critical path        = {} ({} task{})",
        show_path(&an.critical_path),
        an.critical_path.len(),
        if an.critical_path.len() == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        s,
        "  average parallelism  = {} (work / span)",
        num(sm.average_parallelism)
    );
    let _ = writeln!(
        s,
        "  achieved parallelism = {} (busy processes, time average)",
        num(sm.achieved_parallelism)
    );
    match (an.speedup(), an.makespan_p1) {
        (Some((sp, eff)), Some(t1)) => {
            let _ = writeln!(
                s,
                "  speedup              = {} (makespan {} at P = 1)",
                num(sp),
                num(t1)
            );
            let _ = writeln!(s, "  efficiency           = {}", fixed(eff, 3));
        }
        _ => {
            let why = an.p1_error.as_deref().unwrap_or("makespan is 0");
            let _ = writeln!(s, "  speedup              = n/a ({why})");
        }
    }
    let _ = writeln!(
        s,
        "  parallelism profile  = peak {}, mean {}",
        sm.peak_parallelism,
        num(an.profile_mean)
    );
    if let Some(q) = an.per_queue {
        let _ = writeln!(
            s,
            "  processes per active queue = {} (time average while a queue is active)",
            num(q)
        );
    }
    if let Some(n) = an.solves {
        let _ = writeln!(
            s,
            "  system model         = {n} network solve{}, total overhead {}",
            if n == 1 { "" } else { "s" },
            num(sm.overhead)
        );
    }
    let _ = writeln!(s);
    let mut t = TextTable::new([
        ("proc".to_string(), Align::Right),
        ("tasks".to_string(), Align::Right),
        ("busy".to_string(), Align::Right),
        ("overhead".to_string(), Align::Right),
        ("idle".to_string(), Align::Right),
        ("busy %".to_string(), Align::Right),
    ]);
    let pct = |busy: f64, total: f64| {
        if total > 0.0 {
            fixed(100.0 * busy / total, 1)
        } else {
            "-".to_string()
        }
    };
    let procs = &an.schedule.procs;
    for (p, st) in procs.iter().enumerate().take(PROCS_SHOWN) {
        t.push(vec![
            p.to_string(),
            st.tasks.to_string(),
            num(st.busy),
            num(st.overhead),
            num(st.idle),
            pct(st.busy, sm.makespan),
        ]);
    }
    if procs.len() > PROCS_SHOWN {
        let mut row = vec![String::new(); 6];
        row[0] = "…".to_string();
        t.push(row);
    }
    let busy: f64 = procs.iter().map(|p| p.busy).sum();
    let tasks: u64 = procs.iter().map(|p| u64::from(p.tasks)).sum();
    t.push(vec![
        "total".to_string(),
        tasks.to_string(),
        num(busy),
        num(sm.overhead),
        num(sm.idle),
        pct(busy, sm.makespan * procs.len() as f64),
    ]);
    s.push_str(&t.render("  "));
    if procs.len() > PROCS_SHOWN {
        let _ = writeln!(
            s,
            "  ({PROCS_SHOWN} of {} processes shown; the total is over all {})",
            procs.len(),
            procs.len()
        );
    }
    s
}

fn to_json(an: &Explained) -> serde_json::Value {
    let sm = &an.summary;
    let sp = an.speedup();
    let system = match (&an.labels.system, an.solves) {
        (Some(path), Some(n)) => Some(SystemJson {
            file: path,
            overhead: sm.overhead,
            solves: n,
        }),
        _ => None,
    };
    to_value(AnalysisJson {
        achieved_parallelism: sm.achieved_parallelism,
        average_parallelism: sm.average_parallelism,
        critical_path: &an.critical_path,
        edges: an.edges,
        efficiency: sp.map(|x| x.1),
        graph: &an.labels.graph,
        idle: sm.idle,
        makespan: sm.makespan,
        makespan_p1: an.makespan_p1,
        overhead: sm.overhead,
        p: an.procs,
        p1_error: an.p1_error.as_deref(),
        policy: &an.labels.policy,
        processes_per_active_queue: an.per_queue,
        procs: an
            .schedule
            .procs
            .iter()
            .map(|p| ProcJson {
                busy: p.busy,
                idle: p.idle,
                overhead: p.overhead,
                tasks: p.tasks,
            })
            .collect(),
        profile: ProfileJson {
            mean: an.profile_mean,
            peak: sm.peak_parallelism,
        },
        span: sm.span,
        speedup: sp.map(|x| x.0),
        steal: an.labels.steal,
        steps: an.schedule.steps,
        system,
        tasks: an.tasks,
        work: sm.work,
    })
}

/// `doc` as pretty JSON with a final newline (a value with string keys only: this cannot
/// fail).
pub(crate) fn pretty(doc: &serde_json::Value) -> String {
    serde_json::to_string_pretty(doc).expect("a JSON value serialises") + "\n"
}

/// `doc` as a JSON value (the report structs have string keys only, so this cannot fail).
fn to_value(doc: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(doc).expect("a report serialises")
}

/// The document [`Explained::json`] prints; the keys of every report struct here are in
/// alphabetical order, as they print.
#[derive(serde::Serialize)]
struct AnalysisJson<'a> {
    achieved_parallelism: f64,
    average_parallelism: f64,
    critical_path: &'a [String],
    edges: usize,
    /// `null` when the speedup is.
    efficiency: Option<f64>,
    graph: &'a str,
    /// Totals over the processes.
    idle: f64,
    makespan: f64,
    /// `null` when the one-process run failed.
    makespan_p1: Option<f64>,
    overhead: f64,
    p: usize,
    p1_error: Option<&'a str>,
    policy: &'a str,
    processes_per_active_queue: Option<f64>,
    procs: Vec<ProcJson>,
    profile: ProfileJson,
    span: f64,
    speedup: Option<f64>,
    steal: bool,
    steps: usize,
    /// `null` without a system model.
    system: Option<SystemJson<'a>>,
    tasks: usize,
    work: f64,
}

/// Where one process's time went, in an [`AnalysisJson`].
#[derive(serde::Serialize)]
struct ProcJson {
    busy: f64,
    idle: f64,
    overhead: f64,
    tasks: u32,
}

/// The parallelism profile's peak and time-weighted mean.
#[derive(serde::Serialize)]
struct ProfileJson {
    mean: f64,
    peak: usize,
}

/// The system model: its file, the network solves and the total overhead.
#[derive(serde::Serialize)]
struct SystemJson<'a> {
    file: &'a str,
    overhead: f64,
    solves: usize,
}

/// The lines of a sweep's plot over P: the two bounds and the predicted speedup.
pub fn sweep_lines() -> sweep::LinesConfig {
    sweep::LinesConfig {
        series: vec![
            sweep::LineSpec::new(3, "work bound (speedup = P)"),
            sweep::LineSpec::new(4, "span bound (work / span)"),
            sweep::LineSpec::new(1, "predicted speedup"),
        ],
        ..sweep::LinesConfig::default()
    }
}

/// The report of a sweep over process counts as JSON: the graph, the setup, the baseline
/// and a point per row (`procs` and the [`super::setup::SCALING_COLUMNS`]).
pub fn sweep_json(
    g: &TaskGraph,
    labels: &Labels,
    base: &super::setup::Baseline,
    rows: &[sweep::Row],
) -> serde_json::Value {
    let finite = |v: f64| v.is_finite().then_some(v);
    to_value(SweepJson {
        graph: &labels.graph,
        makespan_p1: base.makespan,
        points: rows
            .iter()
            .map(|r| {
                let v = &r.values;
                SweepPointJson {
                    efficiency: finite(v[2]),
                    makespan: v[0],
                    procs: r.params[0] as u64,
                    span_bound: v[4],
                    speedup: finite(v[1]),
                    work_bound: v[3],
                }
            })
            .collect(),
        policy: &labels.policy,
        span: g.span(),
        steal: labels.steal,
        system: labels.system.as_deref(),
        work: g.work(),
    })
}

/// The document [`sweep_json`] prints.
#[derive(serde::Serialize)]
struct SweepJson<'a> {
    graph: &'a str,
    makespan_p1: f64,
    points: Vec<SweepPointJson>,
    policy: &'a str,
    span: f64,
    steal: bool,
    system: Option<&'a str>,
    work: f64,
}

/// One process count of a [`SweepJson`]: the [`super::setup::SCALING_COLUMNS`].
#[derive(serde::Serialize)]
struct SweepPointJson {
    efficiency: Option<f64>,
    makespan: f64,
    procs: u64,
    span_bound: f64,
    speedup: Option<f64>,
    work_bound: f64,
}

/// The report of a sweep over process counts as text: the graph and its bounds, then a row
/// per P with the makespan, speedup, efficiency and the tighter speedup bound.
pub fn sweep_text(
    g: &TaskGraph,
    labels: &Labels,
    base: &super::setup::Baseline,
    table: &sweep::Sample,
) -> String {
    use sweep::TextColumn;
    let ratio = |v: f64| {
        if v.is_finite() {
            fixed(v, 3)
        } else {
            "-".to_string()
        }
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Task graph sweep: {} ({} tasks), policy {}{}{}",
        labels.graph,
        g.len(),
        labels.policy,
        if labels.steal { " with stealing" } else { "" },
        labels
            .system
            .as_ref()
            .map_or(String::new(), |p| format!(", system model {p}"))
    );
    let _ = writeln!(
        s,
        "  work {}, span {}, average parallelism {}, makespan at P = 1: {}",
        num(g.work()),
        num(g.span()),
        num(base.average_parallelism),
        num(base.makespan)
    );
    let _ = writeln!(s, "{TIME_UNIT_LINE}");
    let _ = writeln!(s);
    let columns = [
        TextColumn::new("P", |r| num(r.params[0])),
        TextColumn::num("makespan", 0),
        TextColumn::new("speedup", move |r| ratio(r.values[1])),
        TextColumn::new("efficiency", move |r| ratio(r.values[2])),
        TextColumn::new("bound", |r| fixed(r.values[3].min(r.values[4]), 3)),
    ];
    s.push_str(&table.table(&columns).render("  "));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_abbreviated() {
        let ids: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
        let s = show_path(&ids);
        assert!(s.starts_with("t0 → t1"));
        assert!(s.contains("t5 → … → t15"));
        assert!(s.ends_with("t19"));
        assert_eq!(show_path(&ids[..2]), "t0 → t1");
    }

    #[test]
    fn step_function_means() {
        // 2 running on [0,1), 1 on [1,3), 0 after: mean over [0,4] = (2+2)/4 = 1.
        assert_eq!(time_mean(&[(0.0, 2), (1.0, 1), (3.0, 0)], 4.0), 1.0);
        assert_eq!(
            mean_over_active(&[(0.0, 2.0), (1.0, 0.0), (2.0, 1.0), (4.0, 0.0)]),
            4.0 / 3.0
        );
    }
}
