//! What a person reads: a prediction with each thread's time split into compute, barrier
//! wait (load imbalance), lock wait (contention), join and receive waits and event costs; the
//! fitted coefficients; the schedule as a timeline (Chrome trace, Gantt chart).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;
use trace::text::{fixed, num, seconds, Align, TextTable};
use trace::{Kind, Trace};

use crate::point::point_text;
use crate::predict::Prediction;
use crate::samples::Fitted;
use crate::sim::{Activity, Outcome, ThreadTimes};

/// At most this many threads get a row of their own; the others are summed in one.
pub const MAX_THREAD_ROWS: usize = 32;

fn share(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{}%", fixed(100.0 * part / whole, 1))
    } else {
        "-".to_string()
    }
}

fn waits(t: &ThreadTimes) -> [f64; 7] {
    [
        t.compute,
        t.barrier_wait,
        t.imbalance,
        t.lock_wait,
        t.join_wait,
        t.recv_wait,
        t.events,
    ]
}

/// The prediction as text: the time, Θ, and a row per thread (the first
/// [`MAX_THREAD_ROWS`], then the others summed) with the split of its time, and the split
/// over all threads.
pub fn prediction_text(model: &str, p: &Prediction) -> String {
    let (o, names) = (&p.outcome, &p.threads);
    let mut out = String::new();
    // The time spent predicting is in the JSON (it differs from run to run).
    let _ = writeln!(
        out,
        "{model} at {}: {}  (Θ = {} events, {} steps; Θ = {} with the loop entries and exits the paper counts)",
        point_text(&p.params),
        seconds(o.time),
        o.events,
        o.steps,
        p.size.events.saturating_add(p.loop_events)
    );
    if let Some(d) = &p.draws {
        let _ = writeln!(
            out,
            "  mean over {} draws (seeds {} to {}): {}  (standard deviation {}, from {} to {}); the table is the first draw's",
            d.count,
            d.seed,
            d.seed.wrapping_add(d.count as u64 - 1),
            seconds(d.mean),
            seconds(d.sd),
            seconds(d.min),
            seconds(d.max)
        );
    } else if p.branches {
        let _ = writeln!(
            out,
            "  one random draw of the branches' arms (seed {}): another seed may give another time",
            p.seed
        );
    }
    let heads = [
        "compute",
        "barrier wait",
        "imbalance",
        "lock wait",
        "join wait",
        "recv wait",
        "events",
    ];
    let mut cols = vec![
        ("thread".to_string(), Align::Left),
        ("start".to_string(), Align::Right),
        ("end".to_string(), Align::Right),
    ];
    cols.extend(heads.iter().map(|h| (h.to_string(), Align::Right)));
    let mut t = TextTable::new(cols);
    let row = |name: String, start: Option<f64>, end: Option<f64>, w: [f64; 7]| {
        let mut r = vec![
            name,
            start.map_or("-".into(), seconds),
            end.map_or("-".into(), seconds),
        ];
        r.extend(w.iter().map(|v| seconds(*v)));
        r
    };
    for (name, th) in names.iter().zip(&o.threads).take(MAX_THREAD_ROWS) {
        t.push(row(name.clone(), th.start, th.end, waits(th)));
    }
    if o.threads.len() > MAX_THREAD_ROWS {
        let rest = &o.threads[MAX_THREAD_ROWS..];
        let mut sum = [0.0; 7];
        for th in rest {
            for (s, v) in sum.iter_mut().zip(waits(th)) {
                *s += v;
            }
        }
        t.push(row(
            format!("({} more threads, summed)", rest.len()),
            None,
            None,
            sum,
        ));
    }
    out.push_str(&t.render("  "));
    let mut total = [0.0; 7];
    for th in &o.threads {
        for (s, v) in total.iter_mut().zip(waits(th)) {
            *s += v;
        }
    }
    // The imbalance is part of the barrier wait: not added twice.
    let all: f64 = total.iter().sum::<f64>() - total[2];
    let parts: Vec<String> = [
        "compute",
        "barrier wait",
        "load imbalance",
        "lock wait (contention)",
        "join wait",
        "receive wait",
        "event costs",
    ]
    .iter()
    .zip(total)
    .map(|(h, v)| format!("{h} {}", share(v, all)))
    .collect();
    let _ = writeln!(
        out,
        "  all threads: {}, {} (of which {}), {}",
        parts[0],
        parts[1],
        parts[2],
        parts[3..].join(", ")
    );
    out.push_str(IMBALANCE);
    out
}

/// What the load imbalance counts, under every prediction.
const IMBALANCE: &str =
    "  load imbalance (the paper's): threads that computed since their previous barrier \
waiting there for the last of them; the rest of the barrier wait is threads without work since \
then waiting for others' (a main thread for its workers)\n";

/// The prediction as JSON: `time`, `events` (Θ), `steps`, `estimate_seconds`, `params`,
/// and per thread its name, start, end and the split of its time.
pub fn prediction_json(p: &Prediction) -> Value {
    let (o, names) = (&p.outcome, &p.threads);
    let doc = PredictionJson {
        branches: p.branches,
        collapsed: p.collapsed.iter().map(ToString::to_string).collect(),
        draws: p.draws.as_ref().map(|d| DrawsJson {
            count: d.count,
            max: d.max,
            mean: d.mean,
            min: d.min,
            sd: d.sd,
            seed: d.seed,
        }),
        estimate_seconds: p.estimate_seconds,
        events: o.events,
        events_with_loops: p.size.events.saturating_add(p.loop_events),
        seed: p.seed,
        params: p.params.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
        steps: o.steps,
        threads: names
            .iter()
            .zip(&o.threads)
            .map(|(n, t)| ThreadJson {
                barrier_wait: t.barrier_wait,
                compute: t.compute,
                end: t.end,
                events: t.events,
                imbalance: t.imbalance,
                join_wait: t.join_wait,
                lock_wait: t.lock_wait,
                recv_wait: t.recv_wait,
                start: t.start,
                thread: n,
            })
            .collect(),
        time: o.time,
    };
    to_value(doc)
}

/// `doc` as a JSON value (the report structs have string keys only, so this cannot fail).
fn to_value(doc: impl Serialize) -> Value {
    serde_json::to_value(doc).expect("a report serialises")
}

/// The document [`prediction_json`] prints; the keys of every report struct here are in
/// alphabetical order, as they print.
#[derive(Serialize)]
struct PredictionJson<'a> {
    /// Whether the graph has branches (`time` is then one random draw).
    branches: bool,
    /// What eq. 2.5's collapse did with each cluster.
    collapsed: Vec<String>,
    /// The times over several draws, when asked for.
    draws: Option<DrawsJson>,
    estimate_seconds: f64,
    events: u64,
    /// Θ with the loop entries and exits the paper counts (from the bounds).
    events_with_loops: u64,
    /// The parameters' values by name (derived ones included).
    params: BTreeMap<&'a str, f64>,
    seed: u64,
    steps: u64,
    threads: Vec<ThreadJson<'a>>,
    time: f64,
}

/// The draws of a [`PredictionJson`].
#[derive(Serialize)]
struct DrawsJson {
    count: usize,
    max: f64,
    mean: f64,
    min: f64,
    sd: f64,
    seed: u64,
}

/// One thread of a [`PredictionJson`].
#[derive(Serialize)]
struct ThreadJson<'a> {
    barrier_wait: f64,
    compute: f64,
    end: Option<f64>,
    events: f64,
    imbalance: f64,
    join_wait: f64,
    lock_wait: f64,
    recv_wait: f64,
    start: Option<f64>,
    thread: &'a str,
}

/// The schedule of `o` (recorded with [`crate::sim::Options::schedule`]) as a timeline: a
/// lane per thread; segments busy, waits as waits, event costs as overhead.
pub fn schedule_trace(title: &str, names: &[String], o: &Outcome) -> Trace {
    let mut tr = Trace::new(title);
    for n in names {
        tr.add_lane(n.clone(), "threads");
    }
    for s in &o.schedule {
        let (kind, label) = match s.activity {
            Activity::Compute => (Kind::Busy, "compute"),
            Activity::BarrierWait => (Kind::Wait, "barrier wait"),
            Activity::LockWait => (Kind::Wait, "lock wait"),
            Activity::JoinWait => (Kind::Wait, "join wait"),
            Activity::RecvWait => (Kind::Wait, "receive wait"),
            Activity::Event => (Kind::Overhead, "event"),
        };
        tr.intervals.push(trace::Interval {
            lane: s.thread,
            start: s.start,
            end: s.end,
            label: label.to_string(),
            kind,
        });
    }
    tr
}

/// The fitted coefficients as text: each value, the merges, the rank and condition, and the
/// leave-one-out error when there were more samples than coefficients.
pub fn fit_text(label: &str, f: &Fitted) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{label}: {} coefficients from {} sample points{} ({}; rank {}, condition {})",
        f.coefficients.len(),
        f.points,
        match f.whole_program {
            Some(k) => format!(
                "' whole-program times (through Algorithm G, {k} linearisation{})",
                if k == 1 { "" } else { "s" }
            ),
            None => String::new(),
        },
        match f.fit.solution {
            crate::coeffs::Solution::Exact => "exact",
            crate::coeffs::Solution::LeastSquares => "least squares",
        },
        f.fit.rank,
        num(f.fit.condition)
    );
    for (name, v) in &f.coefficients {
        let _ = writeln!(out, "  {name} = {}", num(*v));
    }
    for m in &f.fit.merges {
        let into: Vec<String> = m
            .into
            .iter()
            .map(|(o, k)| format!("{}·{o}", num(*k)))
            .collect();
        let _ = writeln!(
            out,
            "  merged: {} = {} over the samples (its coefficient is in theirs)",
            m.column,
            if into.is_empty() {
                "0".to_string()
            } else {
                into.join(" + ")
            }
        );
    }
    for (name, v) in &f.clamped {
        let _ = writeln!(
            out,
            "  held at 0: {name} (the unconstrained fit gave {}, a negative cost: too few or too noisy samples to fix it, or a term the program does not have)",
            num(*v)
        );
    }
    if let Some(e) = f
        .fit
        .leave_one_out
        .as_ref()
        .and_then(|l| l.mean_relative_error)
    {
        let _ = writeln!(out, "  leave-one-out error {}%", fixed(100.0 * e, 2));
    }
    out
}

/// A model's summary: the names it declares, a line per kind, and its segments.
pub fn model_summary(name: &str, m: &crate::lang::Model) -> String {
    let list = |names: Vec<String>| {
        if names.is_empty() {
            "-".to_string()
        } else {
            names.join(", ")
        }
    };
    let sized = |d: &crate::lang::ArrayDecl| match &d.size {
        Some(_) => format!("{}[…]", d.name.name),
        None => d.name.name.clone(),
    };
    let rows = [
        (
            "parameters",
            list(m.params.iter().map(|p| p.name.name.clone()).collect()),
        ),
        (
            "coefficients",
            list(m.coeffs.iter().map(|c| c.name.clone()).collect()),
        ),
        (
            "threads",
            list(
                m.threads
                    .iter()
                    .map(|t| match &t.class {
                        Some((var, n)) => format!(
                            "{}[{} in {}]",
                            t.name.name,
                            var.name,
                            m.text.get(n.span.clone()).unwrap_or("…").trim()
                        ),
                        None => t.name.name.clone(),
                    })
                    .collect(),
            ),
        ),
        (
            "barriers",
            list(m.barriers.iter().map(|b| b.name.name.clone()).collect()),
        ),
        ("locks", list(m.locks.iter().map(sized).collect())),
        ("channels", list(m.channels.iter().map(sized).collect())),
        (
            "segments",
            list(
                crate::lang::model_segments(m)
                    .into_iter()
                    .map(String::from)
                    .collect(),
            ),
        ),
    ];
    let mut out = format!("{name}:\n");
    for (what, names) in rows {
        out.push_str(&format!("  {what:<13}{names}\n"));
    }
    out
}

/// The fitted coefficients of one group as JSON: `group`, `points`, `rank`, `condition`,
/// `coefficients` (name, value), `merges` (column, into), `held_at_zero` (name, the
/// unconstrained fit's value), `leave_one_out`.
pub fn fit_json(label: &str, f: &Fitted) -> Value {
    to_value(FitJson {
        coefficients: f
            .coefficients
            .iter()
            .map(|(k, v)| CoefficientJson { name: k, value: *v })
            .collect(),
        condition: f.fit.condition,
        group: label,
        held_at_zero: f
            .clamped
            .iter()
            .map(|(k, v)| HeldJson {
                name: k,
                unconstrained: *v,
            })
            .collect(),
        leave_one_out: f
            .fit
            .leave_one_out
            .as_ref()
            .and_then(|l| l.mean_relative_error),
        merges: f
            .fit
            .merges
            .iter()
            .map(|m| MergeJson {
                column: &m.column,
                into: &m.into,
            })
            .collect(),
        points: f.points,
        rank: f.fit.rank,
        whole_program_linearisations: f.whole_program,
    })
}

/// The document [`fit_json`] prints.
#[derive(Serialize)]
struct FitJson<'a> {
    coefficients: Vec<CoefficientJson<'a>>,
    condition: f64,
    group: &'a str,
    held_at_zero: Vec<HeldJson<'a>>,
    leave_one_out: Option<f64>,
    merges: Vec<MergeJson<'a>>,
    points: usize,
    rank: usize,
    whole_program_linearisations: Option<usize>,
}

/// A fitted coefficient of a [`FitJson`].
#[derive(Serialize)]
struct CoefficientJson<'a> {
    name: &'a str,
    value: f64,
}

/// A coefficient held at 0, with the value the unconstrained fit gave it.
#[derive(Serialize)]
struct HeldJson<'a> {
    name: &'a str,
    unconstrained: f64,
}

/// A merged column and the columns (with factors) its effect went into.
#[derive(Serialize)]
struct MergeJson<'a> {
    column: &'a str,
    into: &'a [(String, f64)],
}

/// A validation as text: a line per point (measured, predicted, E), then the paper's table.
pub fn validation_text(
    checked: &[crate::validate::Checked],
    table: &crate::metrics::ValidationTable,
) -> String {
    let mut s = String::new();
    for c in checked {
        let _ = writeln!(
            s,
            "  {}: measured {}, predicted {}, E = {}%",
            c.point,
            seconds(c.actual),
            seconds(c.predicted),
            fixed(100.0 * c.error, 2)
        );
        if let Some(i) = &c.interval {
            let _ = writeln!(
                s,
                "    {}: measured {}",
                i.text(c.predicted, &seconds),
                if i.contains(c.actual) {
                    "inside"
                } else {
                    "outside"
                }
            );
        }
    }
    let cov = coverage(checked);
    if cov.points > 0 {
        let _ = writeln!(
            s,
            "  {} of {} measured points inside their {}% intervals; median width ±{}%{}",
            cov.inside,
            cov.points,
            num(fit::interval::LEVEL * 100.0),
            cov.median_width.map_or("-".into(), |w| fixed(100.0 * w, 1)),
            if cov.wide > 0 {
                format!(" ({} wider than ±50%)", cov.wide)
            } else {
                String::new()
            }
        );
    }
    format!("{s}\n{table}")
}

/// The coverage of the validated points by their calibrated intervals.
pub fn coverage(checked: &[crate::validate::Checked]) -> fit::interval::Coverage {
    fit::interval::Coverage::of(
        &checked
            .iter()
            .map(|c| (c.predicted, c.interval.clone(), c.actual))
            .collect::<Vec<_>>(),
    )
}

/// A validation as JSON: `points` (point, processors, actual, predicted, error,
/// estimate_seconds) and `table` (processors, average_error, average_ratio, max_ratio).
pub fn validation_json(
    checked: &[crate::validate::Checked],
    table: &crate::metrics::ValidationTable,
) -> Value {
    to_value(ValidationJson {
        coverage: coverage(checked),
        points: checked
            .iter()
            .map(|c| CheckedJson {
                actual: c.actual,
                error: c.error,
                estimate_seconds: c.estimate_seconds,
                inside: c.interval.as_ref().map(|i| i.contains(c.actual)),
                interval: c.interval.as_ref(),
                point: &c.point,
                predicted: c.predicted,
                processors: c.processors,
            })
            .collect(),
        table: table
            .rows
            .iter()
            .map(|r| TableRowJson {
                average_error: r.average_error,
                average_ratio: r.average_ratio,
                max_ratio: r.max_ratio,
                processors: &r.label,
            })
            .collect(),
    })
}

/// The document [`validation_json`] prints.
#[derive(Serialize)]
struct ValidationJson<'a> {
    coverage: fit::interval::Coverage,
    points: Vec<CheckedJson<'a>>,
    table: Vec<TableRowJson<'a>>,
}

/// One measured point of a [`ValidationJson`].
#[derive(Serialize)]
struct CheckedJson<'a> {
    actual: f64,
    error: f64,
    estimate_seconds: f64,
    /// Whether the measured time is inside the calibrated interval.
    inside: Option<bool>,
    /// The calibrated 90% interval.
    interval: Option<&'a fit::interval::Interval>,
    point: &'a str,
    predicted: f64,
    processors: u32,
}

/// One row of the paper's table in a [`ValidationJson`].
#[derive(Serialize)]
struct TableRowJson<'a> {
    average_error: f64,
    average_ratio: Option<f64>,
    max_ratio: Option<f64>,
    /// The row's label (the value of `--by`).
    processors: &'a str,
}

/// A scaling warning as a sentence, with what to do.
pub fn scaling_warning(w: &crate::scaling::ScalingWarning) -> String {
    use crate::scaling::{Bound, ScalingWarning};
    match w {
        ScalingWarning::UnevenSample {
            size,
            processors,
            remainder,
        } => format!(
            "the measured size {size} does not divide evenly over its {processors} processors \
             (remainder {remainder}): its load is unbalanced, unlike the paper's samples \
             (section 4, step 4); measure at a size the processors divide"
        ),
        ScalingWarning::OtherProcessorCount {
            sample,
            target,
            bound,
        } => format!(
            "the run was measured on {sample} processors and the target has {target}: the paper \
             scales at the same count (figure 10 shows large errors otherwise); this is {} \
             bound, so measure on {target} processors to predict there",
            match bound {
                Bound::Lower => "likely a lower",
                Bound::Upper => "likely an upper",
            }
        ),
    }
}

fn law_name(law: crate::scaling::Law) -> &'static str {
    use crate::scaling::{Ceiling, Law};
    match law {
        Law::SharedMemory => "eq. 2.3 (ratio of iteration counts)",
        Law::DataParallel(Ceiling::WholeRatio) => {
            "eq. 2.6 (sizes spread over the processors, ceiling of the whole ratio)"
        }
        Law::DataParallel(Ceiling::PerProcessor) => {
            "eq. 2.6 (sizes spread over the processors, ceiling per processor)"
        }
    }
}

/// A run scaled by eq. 2.3 or 2.6 as text: the law, 𝓕 at both points, the multiplier and the
/// time.
pub fn ratio_text(run: &crate::scaling::RatioRun, s: &crate::scaling::RatioScaled) -> String {
    format!(
        "{}\n  measured  {}: 𝓕 = {} = {}, {}\n  target    {}: 𝓕 = {}, × {} → {}\n",
        law_name(run.law),
        point_text(&s.from),
        run.count.trim(),
        num(s.sample_count),
        seconds(run.seconds),
        point_text(&s.to),
        num(s.target_count),
        num(s.scaled.multiplier),
        seconds(s.scaled.time)
    )
}

/// A run scaled by eq. 2.3 or 2.6 as JSON: `law`, `count`, `from`, `to`, `sample_count`,
/// `target_count`, `measured_seconds`, `multiplier`, `seconds`, `warnings`.
pub fn ratio_json(run: &crate::scaling::RatioRun, s: &crate::scaling::RatioScaled) -> Value {
    to_value(RatioJson {
        count: &run.count,
        from: s.from.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
        law: law_name(run.law),
        measured_seconds: run.seconds,
        multiplier: s.scaled.multiplier,
        sample_count: s.sample_count,
        seconds: s.scaled.time,
        target_count: s.target_count,
        to: s.to.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
        warnings: s.scaled.warnings.iter().map(scaling_warning).collect(),
    })
}

/// The document [`ratio_json`] prints.
#[derive(Serialize)]
struct RatioJson<'a> {
    count: &'a str,
    from: BTreeMap<&'a str, f64>,
    law: &'a str,
    measured_seconds: f64,
    multiplier: f64,
    sample_count: f64,
    seconds: f64,
    target_count: f64,
    to: BTreeMap<&'a str, f64>,
    warnings: Vec<String>,
}
