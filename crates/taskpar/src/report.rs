//! Reports of a recording's statistics: text for people and JSON (the schema is in
//! `docs/cli.md`); DAG Recorder's layout is [`crate::stats::Stats::stat_text`].

use crate::dag::Header;
use crate::stats::Stats;
use serde_json::{json, Value};
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
    let _ = writeln!(
        o,
        "    delay          {:>10}  {}  (runtime inside collapsed nodes: {})",
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
    json!({
        "program": info.header.program,
        "parameters": info.header.parameters,
        "workers": st.workers,
        "clock_hz": info.header.clock.frequency_hz,
        "seconds": {
            "elapsed": st.elapsed as f64 * s,
            "work": st.work as f64 * s,
            "delay": st.delay as f64 * s,
            "inner_delay": st.inner_delay as f64 * s,
            "no_work": st.no_work as f64 * s,
            "span": st.span as f64 * s,
            "burdened_span": st.burdened_span as f64 * s,
        },
        "clock": {
            "elapsed": st.elapsed,
            "work": st.work,
            "delay": st.delay,
            "inner_delay": st.inner_delay,
            "no_work": st.no_work,
            "span": st.span,
            "burdened_span": st.burdened_span,
            "cum_running": st.cum_running,
        },
        "identity_gap": st.identity_gap() as f64 * s,
        "create_task": st.create_task,
        "wait_tasks": st.wait_tasks,
        "end_task": st.end_task,
        "intervals": st.intervals,
        "burden_cycles": info.burden_cycles,
        "parallelism": st.parallelism(),
        "greedy_speedup": st.greedy_speedup(),
        "observed_speedup": st.observed_speedup(),
        "bounds": {
            "work_over_p": st.work_over_p() * s,
            "greedy": st.greedy_bound() * s,
            "cilkview": st.cilkview_bound() * s,
        },
        "dag_nodes": st.dag_nodes(),
        "materialized_nodes": st.materialized,
    })
}
