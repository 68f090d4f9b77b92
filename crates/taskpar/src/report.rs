//! Reports of a recording's statistics: text for people and JSON (the schema is in
//! `docs/cli.md`); DAG Recorder's layout is [`crate::stats::Stats::stat_text`].

use crate::dag::Header;
use crate::stats::Stats;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use trace::text::{fixed, num, seconds};

/// What a report says about the run besides its statistics.
#[derive(Clone, Debug)]
pub struct RunInfo<'a> {
    /// The recording's header.
    pub header: &'a Header,
    /// The burden in cycles (for the label of the burdened span).
    pub burden_cycles: f64,
}

impl RunInfo<'_> {
    fn secs(&self) -> f64 {
        1.0 / self.header.clock.frequency_hz
    }

    fn title(&self) -> String {
        let params: Vec<String> = self
            .header
            .parameters
            .iter()
            .map(|(k, v)| format!("{k} = {}", v.map_or("null".to_string(), num)))
            .collect();
        let name = if self.header.program.is_empty() {
            "the recorded run"
        } else {
            &self.header.program
        };
        if params.is_empty() {
            name.to_string()
        } else {
            format!("{name} ({})", params.join(", "))
        }
    }
}

/// The statistics as text for people: the breakdown of P·elapsed into work, delay and
/// no_work, the identity's check, span, parallelism, counts and the bounds at P.
pub fn text(st: &Stats, info: &RunInfo) -> String {
    let s = info.secs();
    let sec = |v: u64| seconds(v as f64 * s);
    let sec_f = |v: f64| seconds(v * s);
    let total = st.workers as f64 * st.elapsed as f64;
    let pct = |v: u64| format!("{:>5}%", fixed(100.0 * v as f64 / total, 1));
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{}: {} workers, elapsed {}",
        info.title(),
        st.workers,
        sec(st.elapsed)
    );
    let _ = writeln!(o, "  P·elapsed        {:>10}  100.0%", seconds(total * s));
    let _ = writeln!(
        o,
        "    work T1        {:>10}  {}",
        sec(st.work),
        pct(st.work)
    );
    let per_task = st.runtime_per_task().map_or(String::new(), |t| {
        format!(", {} per task created there", sec_f(t))
    });
    let _ = writeln!(
        o,
        "    delay          {:>10}  {}  (runtime and recorder inside collapsed nodes: {}{per_task})",
        sec(st.delay),
        pct(st.delay),
        sec(st.inner_delay)
    );
    let _ = writeln!(
        o,
        "    no_work        {:>10}  {}",
        sec(st.no_work),
        pct(st.no_work)
    );
    let gap = st.identity_gap();
    if gap == 0 {
        let _ = writeln!(o, "  T1 + delay + no_work = P·elapsed exactly (eq. 8)");
    } else {
        let _ = writeln!(
            o,
            "  warning: T1 + delay + no_work differs from P·elapsed by {} (more nodes ran at \
             once than there were workers: the workers' clocks disagree)",
            seconds(gap as f64 * s)
        );
    }
    let _ = writeln!(
        o,
        "  span T∞          {:>10}  parallelism T1/T∞ = {}",
        sec(st.span),
        num(round3(st.parallelism()))
    );
    let _ = writeln!(
        o,
        "  burdened span    {:>10}  (burden {} cycles = {} per spawn)",
        sec(st.burdened_span),
        num(info.burden_cycles),
        seconds(st.burden * s)
    );
    let _ = writeln!(
        o,
        "  tasks            {} created, {} waits, {} ended; {} per task, {} per strand",
        st.create_task,
        st.wait_tasks,
        st.end_task,
        seconds(st.task_granularity() * s),
        seconds(st.interval_granularity() * s)
    );
    let _ = writeln!(
        o,
        "  at P = {}         T1/P {}, greedy T1/P + T∞ {}, Cilkview T1/P + 1.7·T̂∞ {}, observed {}",
        st.workers,
        seconds(st.work_over_p() * s),
        seconds(st.greedy_bound() * s),
        seconds(st.cilkview_bound() * s),
        sec(st.elapsed)
    );
    let _ = writeln!(
        o,
        "  speedup          observed {}, greedy {}",
        fixed(st.observed_speedup(), 3),
        fixed(st.greedy_speedup(), 3)
    );
    let _ = writeln!(
        o,
        "  nodes            {} in the file for {} logical (compression {})",
        st.materialized,
        st.dag_nodes(),
        num(st.compression_ratio())
    );
    o
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// The statistics as JSON: the raw counts and times in clock units and in seconds, the
/// derived figures and the bounds.
pub fn json(st: &Stats, info: &RunInfo) -> Value {
    let s = info.secs();
    let secs = |ticks: u64| ticks as f64 * s;
    let doc = StatsJson {
        bounds: BoundsJson {
            cilkview: st.cilkview_bound() * s,
            greedy: st.greedy_bound() * s,
            work_over_p: st.work_over_p() * s,
        },
        burden_cycles: info.burden_cycles,
        clock: ClockJson {
            burdened_span: st.burdened_span,
            cum_running: st.cum_running,
            delay: st.delay,
            elapsed: st.elapsed,
            inner_delay: st.inner_delay,
            no_work: st.no_work,
            span: st.span,
            work: st.work,
        },
        clock_hz: info.header.clock.frequency_hz,
        create_task: st.create_task,
        dag_nodes: st.dag_nodes(),
        end_task: st.end_task,
        greedy_speedup: st.greedy_speedup(),
        identity_gap: st.identity_gap() as f64 * s,
        intervals: st.intervals,
        materialized_nodes: st.materialized,
        observed_speedup: st.observed_speedup(),
        parallelism: st.parallelism(),
        parameters: &info.header.parameters,
        program: &info.header.program,
        runtime_per_task: st.runtime_per_task().map(|t| t * s),
        seconds: SecondsJson {
            burdened_span: secs(st.burdened_span),
            delay: secs(st.delay),
            elapsed: secs(st.elapsed),
            inner_delay: secs(st.inner_delay),
            no_work: secs(st.no_work),
            span: secs(st.span),
            work: secs(st.work),
        },
        wait_tasks: st.wait_tasks,
        workers: st.workers,
    };
    serde_json::to_value(doc).expect("a statistics report serialises")
}

/// The document [`json`] prints; the keys of each struct in alphabetical order, as they
/// print.
#[derive(Serialize)]
struct StatsJson<'a> {
    bounds: BoundsJson,
    burden_cycles: f64,
    /// The times in clock ticks.
    clock: ClockJson,
    clock_hz: f64,
    create_task: u64,
    dag_nodes: u64,
    end_task: u64,
    greedy_speedup: f64,
    identity_gap: f64,
    intervals: u64,
    materialized_nodes: u64,
    observed_speedup: f64,
    parallelism: f64,
    parameters: &'a BTreeMap<String, Option<f64>>,
    program: &'a str,
    /// The runtime's and the recorder's seconds per task created inside collapsed nodes.
    runtime_per_task: Option<f64>,
    /// The times in seconds.
    seconds: SecondsJson,
    wait_tasks: u64,
    workers: u32,
}

/// The bounds at P, in seconds.
#[derive(Serialize)]
struct BoundsJson {
    cilkview: f64,
    greedy: f64,
    work_over_p: f64,
}

/// The run's times in clock ticks.
#[derive(Serialize)]
struct ClockJson {
    burdened_span: u64,
    cum_running: u64,
    delay: u64,
    elapsed: u64,
    inner_delay: u64,
    no_work: u64,
    span: u64,
    work: u64,
}

/// The run's times in seconds.
#[derive(Serialize)]
struct SecondsJson {
    burdened_span: f64,
    delay: f64,
    elapsed: f64,
    inner_delay: f64,
    no_work: f64,
    span: f64,
    work: f64,
}

/// A DAG Recorder `.stat` file (`stat_name`) beside vates' figures for the DAG
/// `dag_name`, as aligned text: a row per field and matrix, the differing ones marked.
pub fn comparison_text(c: &crate::dr_stat::Comparison, stat_name: &str, dag_name: &str) -> String {
    use trace::text::{Align, TextTable};
    let mut t = TextTable::new([
        ("figure".to_string(), Align::Left),
        ("DAG Recorder".to_string(), Align::Right),
        ("vates".to_string(), Align::Right),
        ("vates − DR".to_string(), Align::Right),
        (String::new(), Align::Left),
    ]);
    let mark = |d: bool| if d { "<- differs" } else { "" }.to_string();
    for r in &c.rows {
        let diff = match r.difference {
            Some(0) | None => String::new(),
            Some(d) => format!("{d:+}"),
        };
        t.push(vec![
            r.field.to_string(),
            r.theirs.clone(),
            r.ours.clone(),
            diff,
            mark(r.differs),
        ]);
    }
    let yes_no = |w: bool| if w { "yes" } else { "no" }.to_string();
    t.push(vec![
        "identity warning".into(),
        yes_no(c.warnings.0),
        yes_no(c.warnings.1),
        String::new(),
        mark(c.warnings.0 != c.warnings.1),
    ]);
    for m in &c.matrices {
        let side = |s: usize| format!("{s}×{s}");
        let diff = if m.sides.0 != m.sides.1 {
            "other sizes".to_string()
        } else if m.differing.is_empty() {
            String::new()
        } else {
            let shown: Vec<String> = m
                .differing
                .iter()
                .take(3)
                .map(|(i, j, a, b)| format!("[{i}][{j}] {a}→{b}"))
                .collect();
            let more = m.differing.len().saturating_sub(3);
            if more > 0 {
                format!("{} and {more} more", shown.join(", "))
            } else {
                shown.join(", ")
            }
        };
        t.push(vec![
            m.matrix.to_string(),
            side(m.sides.0),
            side(m.sides.1),
            diff,
            mark(m.differs()),
        ]);
    }
    let total = t.rows.len();
    let mut s = format!("DAG Recorder's `{stat_name}` beside vates' figures for `{dag_name}` (times in clock ticks):\n\n");
    s.push_str(&t.render("  "));
    let n = c.differences();
    let _ = writeln!(
        s,
        "\n{}",
        if n == 0 {
            format!("all {total} figures agree")
        } else {
            format!("{n} of {total} figures differ (marked `<- differs`)")
        }
    );
    s
}

/// The comparison of [`comparison_text`] as JSON: `fields` (name, `dag_recorder`, `vates`
/// as printed, `difference` for counts, `differs`), `identity_warning`, `matrices` (name,
/// sides, differing entries), `differences`.
pub fn comparison_json(c: &crate::dr_stat::Comparison) -> Value {
    let doc = ComparisonJson {
        differences: c.differences(),
        fields: c
            .rows
            .iter()
            .map(|r| FieldJson {
                dag_recorder: &r.theirs,
                difference: r.difference.map(|d| d as f64),
                differs: r.differs,
                field: r.field,
                vates: &r.ours,
            })
            .collect(),
        identity_warning: WarningJson {
            dag_recorder: c.warnings.0,
            vates: c.warnings.1,
        },
        matrices: c
            .matrices
            .iter()
            .map(|m| MatrixJson {
                differing: m
                    .differing
                    .iter()
                    .map(|&(row, column, dag_recorder, vates)| EntryJson {
                        column,
                        dag_recorder,
                        row,
                        vates,
                    })
                    .collect(),
                differs: m.differs(),
                matrix: m.matrix,
                sides: [m.sides.0, m.sides.1],
            })
            .collect(),
    };
    serde_json::to_value(doc).expect("a comparison serialises")
}

/// The document [`comparison_json`] prints; keys in alphabetical order.
#[derive(Serialize)]
struct ComparisonJson<'a> {
    differences: usize,
    fields: Vec<FieldJson<'a>>,
    identity_warning: WarningJson,
    matrices: Vec<MatrixJson>,
}

/// One field of a comparison.
#[derive(Serialize)]
struct FieldJson<'a> {
    dag_recorder: &'a str,
    difference: Option<f64>,
    differs: bool,
    field: &'static str,
    vates: &'a str,
}

/// Whether each has the identity warning.
#[derive(Serialize)]
struct WarningJson {
    dag_recorder: bool,
    vates: bool,
}

/// One edge matrix of a comparison.
#[derive(Serialize)]
struct MatrixJson {
    differing: Vec<EntryJson>,
    differs: bool,
    matrix: &'static str,
    sides: [usize; 2],
}

/// A differing matrix entry.
#[derive(Serialize)]
struct EntryJson {
    column: usize,
    dag_recorder: u64,
    row: usize,
    vates: u64,
}
