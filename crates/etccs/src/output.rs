//! Output formats: the thesis tool's text, a readable report, and JSON.

use crate::explore::{Analysis, Outcome, Run};
use crate::parametric::{Constraint, Entry, ParamAnalysis, Region};
use crate::report::Report;
use crate::term::Time;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive};
use serde::Serialize;
use serde_json::Value;

/// Most EXEC lines printed (one per path) before eliding the rest.
pub const MAX_EXEC_LINES: usize = 100_000;

/// The first line of the readable reports (not of the thesis tool's format): a model's times
/// are in whatever unit its action delays were written in.
pub const TIME_UNIT_LINE: &str = "times in the model's time unit (the unit of its action delays)";

/// A time as an exact string: `4`, `7/2`.
pub fn time_str(t: &Time) -> String {
    t.to_string()
}

/// A time as the thesis displayed it: an integer, a terminating decimal (`3.5`), or
/// otherwise the exact fraction (`10/3`): `expr`'s exact formatting, shared by every engine.
pub fn time_decimal(t: &Time) -> String {
    expr::number::format_rational(t)
}

/// A time for reading: [`time_decimal`], followed by a rounded decimal when
/// that is a fraction (`10/3 ≈ 3.333`).
pub fn time_approx(t: &Time) -> String {
    let d = time_decimal(t);
    match rounded(t, &d) {
        Some(r) => format!("{d} {r}"),
        None => d,
    }
}

/// A time in a narrow column: [`time_decimal`] when that is a decimal, else
/// rounded (`≈ 3.333` for 10/3).
pub fn time_short(t: &Time) -> String {
    let d = time_decimal(t);
    rounded(t, &d).unwrap_or(d)
}

/// `≈ x.xxx` for a time whose [`time_decimal`] `d` is a fraction.
fn rounded(t: &Time, d: &str) -> Option<String> {
    if !d.contains('/') {
        return None;
    }
    let f = t.to_f64().filter(|f| f.is_finite())?;
    Some(format!("≈ {f:.3}"))
}

/// A probability as a percentage with one decimal, as in the thesis (`50.0%`).
pub fn percent(p: &BigRational) -> String {
    let tenths = (p * BigRational::from_integer(BigInt::from(1000)))
        .round()
        .to_integer();
    let ten = BigInt::from(10);
    format!("{}.{}%", &tenths / &ten, &tenths % &ten)
}

/// The thesis tool's output for one agent:
///
/// ```text
/// Execution times are:
/// 4
/// 8
/// Summary:
/// 4 (50.0%)
/// 8 (50.0%)
/// ```
///
/// One line per maximal path (EXEC, with multiplicity, at most
/// [`MAX_EXEC_LINES`]), then PEXEC. A non-terminating agent has no
/// execution times; a note says so instead.
pub fn thesis_text(a: &Analysis) -> String {
    let mut s = String::from("Execution times are:\n");
    if let Outcome::NonTerminating { .. } = a.outcome {
        s.push_str("(none: the agent does not terminate)\nSummary:\n");
        return s.trim_end().to_string();
    }
    let list = a.exec_list(MAX_EXEC_LINES);
    for t in &list {
        s.push_str(&time_decimal(t));
        s.push('\n');
    }
    let total = a.paths();
    if total > BigInt::from(list.len()).magnitude().clone() {
        s.push_str(&format!(
            "... ({} more)\n",
            total - BigInt::from(list.len()).magnitude()
        ));
    }
    s.push_str("Summary:");
    for (t, p) in &a.pexec {
        s.push_str(&format!("\n{} ({})", time_decimal(t), percent(p)));
    }
    s
}

fn run_text(r: &Run) -> String {
    let steps: Vec<String> = r
        .steps
        .iter()
        .map(|st| format!("({},{})", st.action, time_str(&st.delay)))
        .collect();
    if steps.is_empty() {
        "(no steps)".to_string()
    } else {
        steps.join(" ")
    }
}

/// A readable multi-line report: states, outcome, EXEC, PEXEC, min/max
/// with witness runs, warnings.
pub fn readable_text(a: &Analysis) -> String {
    let mut s = format!(
        "agent {}: {} states, outcome: {}\n",
        a.name,
        a.states,
        a.outcome.label()
    );
    match &a.outcome {
        Outcome::Terminated => {}
        Outcome::Deadlock { run, state } => {
            s.push_str(&format!(
                "  deadlock at time {} after {}\n  stuck state: {}\n",
                time_str(&run.time),
                run_text(run),
                state
            ));
        }
        Outcome::NonTerminating { prefix, cycle } => {
            s.push_str(&format!(
                "  cycle reached after {}\n  cycle (duration {}): {}\n  EXEC is undefined for non-terminating agents\n",
                run_text(prefix),
                time_str(&cycle.time),
                run_text(cycle)
            ));
        }
    }
    if !a.exec.is_empty() {
        let ex: Vec<String> = a
            .exec
            .iter()
            .map(|(t, n)| {
                if n.is_one() {
                    time_str(t)
                } else {
                    format!("{} x{}", time_str(t), n)
                }
            })
            .collect();
        s.push_str(&format!("  EXEC  {{| {} |}}\n", ex.join(", ")));
        let px: Vec<String> = a
            .pexec
            .iter()
            .map(|(t, p)| format!("{}: {}", time_str(t), p))
            .collect();
        s.push_str(&format!("  PEXEC {}\n", px.join(", ")));
        if let (true, Some(m)) = (a.pexec.len() > 1, a.mean()) {
            s.push_str(&format!("  mean  {}\n", time_approx(&m)));
        }
    }
    if let Some(m) = &a.min {
        s.push_str(&format!(
            "  min {} via {}\n",
            time_str(&m.time),
            run_text(m)
        ));
    }
    if let Some(m) = &a.max {
        s.push_str(&format!(
            "  max {} via {}\n",
            time_str(&m.time),
            run_text(m)
        ));
    }
    for w in &a.warnings {
        s.push_str(&format!("  warning: {w}\n"));
    }
    s
}

fn run_json(r: &Run) -> RunJson<'_> {
    RunJson {
        lanes: &r.lanes,
        steps: r
            .steps
            .iter()
            .map(|st| StepJson {
                action: &st.action,
                delay: time_str(&st.delay),
                parties: st
                    .parties
                    .iter()
                    .map(|p| PartyJson {
                        action: &p.action,
                        lane: p.lane,
                        ready: time_str(&p.ready),
                        since: time_str(&p.since),
                    })
                    .collect(),
            })
            .collect(),
        time: time_str(&r.time),
    }
}

/// JSON object for one agent: `name`, `states`, `exec` (one exact time
/// string per path, at most [`MAX_EXEC_LINES`]), `paths` (the number of
/// paths, a decimal string: it can exceed any machine integer),
/// `exec_omitted` (how many paths `exec` leaves out, a decimal string, `"0"`
/// when it is complete), `exec_counts` (every distinct time with its number
/// of paths: EXEC without a cut), `pexec` (`time`, `prob`
/// as exact rationals), `min`, `max`, `mean` (the expectation of PEXEC)
/// (strings, or null), `min_run`,
/// `max_run`, `outcome`, `warnings`, and `deadlock`/`cycle` details.
pub fn agent_json(a: &Analysis) -> Value {
    to_value(agent_doc(a))
}

fn agent_doc(a: &Analysis) -> AgentJson<'_> {
    let exec = a.exec_list(MAX_EXEC_LINES);
    let paths = a.paths();
    let omitted = &paths - BigUint::from(exec.len());
    let (mut deadlock, mut cycle) = (None, None);
    match &a.outcome {
        Outcome::Terminated => {}
        Outcome::Deadlock { run, state } => {
            deadlock = Some(DeadlockJson {
                run: run_json(run),
                state,
            });
        }
        Outcome::NonTerminating { prefix, cycle: c } => {
            cycle = Some(CycleJson {
                cycle: run_json(c),
                prefix: run_json(prefix),
            });
        }
    }
    AgentJson {
        cycle,
        deadlock,
        exec: exec.iter().map(time_str).collect(),
        exec_counts: a
            .exec
            .iter()
            .map(|(t, n)| CountJson {
                count: n.to_string(),
                time: time_str(t),
            })
            .collect(),
        exec_omitted: omitted.to_string(),
        max: a.max.as_ref().map(|r| time_str(&r.time)),
        max_run: a.max.as_ref().map(run_json),
        mean: a.mean().as_ref().map(time_str),
        min: a.min.as_ref().map(|r| time_str(&r.time)),
        min_run: a.min.as_ref().map(run_json),
        name: &a.name,
        outcome: a.outcome.label(),
        paths: paths.to_string(),
        pexec: a
            .pexec
            .iter()
            .map(|(t, p)| ProbJson {
                prob: p.to_string(),
                time: time_str(t),
            })
            .collect(),
        states: a.states,
        warnings: &a.warnings,
    }
}

/// `doc` as a JSON value (the report structs have string keys only, so this cannot fail).
fn to_value(doc: impl Serialize) -> Value {
    serde_json::to_value(doc).expect("a report serialises")
}

/// The object [`agent_json`] prints; the keys of every report struct here are in
/// alphabetical order, as they print.
#[derive(Serialize)]
pub(crate) struct AgentJson<'a> {
    /// A non-terminating agent's prefix and cycle; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    cycle: Option<CycleJson<'a>>,
    /// A deadlocked agent's run and stuck state; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    deadlock: Option<DeadlockJson<'a>>,
    exec: Vec<String>,
    exec_counts: Vec<CountJson>,
    exec_omitted: String,
    max: Option<String>,
    max_run: Option<RunJson<'a>>,
    mean: Option<String>,
    min: Option<String>,
    min_run: Option<RunJson<'a>>,
    name: &'a str,
    outcome: &'static str,
    paths: String,
    pexec: Vec<ProbJson>,
    states: usize,
    warnings: &'a [String],
}

/// A run: its components (lanes), its steps and its time.
#[derive(Serialize)]
struct RunJson<'a> {
    lanes: &'a [String],
    steps: Vec<StepJson<'a>>,
    time: String,
}

/// A step of a [`RunJson`].
#[derive(Serialize)]
struct StepJson<'a> {
    action: &'a str,
    delay: String,
    parties: Vec<PartyJson<'a>>,
}

/// A component that acted in a [`StepJson`].
#[derive(Serialize)]
struct PartyJson<'a> {
    action: &'a str,
    lane: usize,
    ready: String,
    since: String,
}

/// An execution time with its number of paths.
#[derive(Serialize)]
struct CountJson {
    count: String,
    time: String,
}

/// An execution time with its probability.
#[derive(Serialize)]
struct ProbJson {
    prob: String,
    time: String,
}

/// The run into a deadlock and the stuck state.
#[derive(Serialize)]
struct DeadlockJson<'a> {
    run: RunJson<'a>,
    state: &'a str,
}

/// The run to a cycle and the cycle.
#[derive(Serialize)]
struct CycleJson<'a> {
    cycle: RunJson<'a>,
    prefix: RunJson<'a>,
}

/// `{"agents": [...]}` for several analyses (see [`agent_json`]).
pub fn json(analyses: &[Analysis]) -> Value {
    to_value(AgentsJson {
        agents: analyses
            .iter()
            .map(|a| ReportJson::Concrete(Box::new(agent_doc(a))))
            .collect(),
    })
}

/// The object of either kind of analysis ([`agent_json`], [`param_json`]).
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum ReportJson<'a> {
    Concrete(Box<AgentJson<'a>>),
    Parametric(ParamJson<'a>),
}

impl ReportJson<'_> {
    pub(crate) fn of(r: &Report) -> ReportJson<'_> {
        match r {
            Report::Concrete(a) => ReportJson::Concrete(Box::new(agent_doc(a))),
            Report::Parametric(a) => ReportJson::Parametric(param_doc(a)),
        }
    }
}

/// `{"agents": [...]}`.
#[derive(Serialize)]
struct AgentsJson<'a> {
    agents: Vec<ReportJson<'a>>,
}

/// One region's constraints for the thesis format: `t1 - t2 > 0 & t2 >= 1`,
/// or `<T>` for the whole space.
fn thesis_region(a: &ParamAnalysis, r: &Region) -> String {
    if r.constraints.is_empty() {
        "<T>".to_string()
    } else {
        a.render_region(r)
    }
}

/// The thesis parametric tool's output: the state count, then `Summary:`
/// and one line `expression (prob%) (((region)))` per result.
pub fn param_thesis_text(a: &ParamAnalysis) -> String {
    let mut s = format!("{} states\nSummary:", a.states);
    for r in &a.regions {
        for e in &r.results {
            s.push_str(&format!(
                "\n{} ({}) ((({})))",
                e.expr.render(&a.params),
                percent(&e.prob),
                thesis_region(a, r)
            ));
        }
    }
    s
}

/// A readable report of a parametric analysis: one block per distinct
/// result (its execution-time expressions and probabilities) under the
/// regions where it holds, `on` the first and `or` each further one.
pub fn param_readable_text(a: &ParamAnalysis) -> String {
    // Regions with equal results (the conjunctions of one union, or
    // pieces no merge could join) share a block, in order of first use.
    let mut blocks: Vec<(&[Entry], Vec<&Region>)> = Vec::new();
    for r in &a.regions {
        match blocks.iter_mut().find(|(res, _)| *res == &r.results[..]) {
            Some((_, on)) => on.push(r),
            None => blocks.push((&r.results, vec![r])),
        }
    }
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let distinct = if blocks.len() < a.regions.len() {
        format!(" with {} distinct results", blocks.len())
    } else {
        String::new()
    };
    let mut s = format!(
        "agent {}: parametric in {}; {} states, {} region{}{}\n",
        a.name,
        a.free.join(", "),
        a.states,
        a.regions.len(),
        plural(a.regions.len()),
        distinct
    );
    if !a.domain.is_empty() {
        s.push_str(&format!(
            "  domain (assumptions; prefix times >= 0): {}\n",
            a.render_constraints(&a.domain)
        ));
    }
    for (results, on) in &blocks {
        for (k, r) in on.iter().enumerate() {
            let word = if k == 0 { "on" } else { "or" };
            let end = if k + 1 == on.len() { ":" } else { "" };
            s.push_str(&format!("  {word} {}{end}\n", a.render_region(r)));
        }
        for e in results.iter() {
            let paths = match &e.paths {
                Some(n) if !n.is_one() => format!("  ({n} paths)"),
                _ => String::new(),
            };
            s.push_str(&format!(
                "    {}  with probability {}{}\n",
                e.expr.render(&a.params),
                e.prob,
                paths
            ));
        }
    }
    if let Some((region, state)) = &a.deadlock {
        // Where some run deadlocks, then the first stuck state found and
        // the region it was reached on (when that is not the whole union).
        let first = a.render_constraints(region);
        let union: Vec<String> = a
            .deadlock_regions
            .iter()
            .map(|c| a.render_constraints(c))
            .collect();
        let union = if union.is_empty() {
            vec![first.clone()]
        } else {
            union
        };
        // A long union is cut short; JSON has all of it.
        let shown = union.len().min(DEADLOCK_REGIONS_SHOWN);
        for (k, r) in union[..shown].iter().enumerate() {
            let word = if k == 0 { "deadlock on" } else { "        or" };
            let end = if k + 1 == union.len() { ":" } else { "" };
            s.push_str(&format!("  {word} {r}{end}\n"));
        }
        if shown < union.len() {
            s.push_str(&format!(
                "          or {} more regions (the JSON output lists them):\n",
                union.len() - shown
            ));
        }
        let on = if union.len() == 1 && union[0] == first {
            String::new()
        } else {
            format!(", reached on {first}")
        };
        s.push_str(&format!("    stuck state {state}{on}\n"));
    }
    for w in &a.warnings {
        s.push_str(&format!("  warning: {w}\n"));
    }
    s
}

/// The most deadlock regions the readable report lists.
const DEADLOCK_REGIONS_SHOWN: usize = 8;

/// JSON object for a parametric analysis: `name`, `states`,
/// `"parametric": true`, `params` (all declared), `free` (those the times
/// depend on), `domain`, `regions` (each `constraints`, a list of
/// normalised linear constraints that all hold, and `results`, each `expr`,
/// `prob` and `paths`, the number of paths or null where it varies),
/// `outcome`, `warnings`, and with a deadlock `deadlock`: `regions` (where
/// some run deadlocks: a union of conjunctions, each a constraint list),
/// `state` (the first stuck state found) and `constraints` (the region it
/// was reached on).
pub fn param_json(a: &ParamAnalysis) -> Value {
    to_value(param_doc(a))
}

fn param_doc(a: &ParamAnalysis) -> ParamJson<'_> {
    let render = |cs: &[Constraint]| cs.iter().map(|c| c.render(&a.params)).collect::<Vec<_>>();
    ParamJson {
        deadlock: a
            .deadlock
            .as_ref()
            .map(|(region, state)| ParamDeadlockJson {
                constraints: render(region),
                regions: a.deadlock_regions.iter().map(|c| render(c)).collect(),
                state,
            }),
        domain: render(&a.domain),
        free: &a.free,
        name: &a.name,
        outcome: if a.deadlock.is_some() {
            "deadlock"
        } else {
            "terminated"
        },
        parametric: true,
        params: &a.params,
        regions: a
            .regions
            .iter()
            .map(|r| RegionJson {
                constraints: render(&r.constraints),
                results: r
                    .results
                    .iter()
                    .map(|e| ResultJson {
                        expr: e.expr.render(&a.params),
                        paths: e.paths.as_ref().map(ToString::to_string),
                        prob: e.prob.to_string(),
                    })
                    .collect(),
            })
            .collect(),
        states: a.states,
        warnings: &a.warnings,
    }
}

/// The object [`param_json`] prints.
#[derive(Serialize)]
pub(crate) struct ParamJson<'a> {
    /// Where some run deadlocks; absent when none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    deadlock: Option<ParamDeadlockJson<'a>>,
    domain: Vec<String>,
    free: &'a [String],
    name: &'a str,
    outcome: &'static str,
    /// Always `true`: tells this object from a concrete agent's.
    parametric: bool,
    params: &'a [String],
    regions: Vec<RegionJson>,
    states: usize,
    warnings: &'a [String],
}

/// A region (a conjunction of constraints) and its results.
#[derive(Serialize)]
struct RegionJson {
    constraints: Vec<String>,
    results: Vec<ResultJson>,
}

/// An execution-time expression with its probability and number of paths (`null` where
/// that varies).
#[derive(Serialize)]
struct ResultJson {
    expr: String,
    paths: Option<String>,
    prob: String,
}

/// Where some run of a parametric agent deadlocks: the region the first stuck state was
/// reached on, the union of regions, the state.
#[derive(Serialize)]
struct ParamDeadlockJson<'a> {
    constraints: Vec<String>,
    regions: Vec<Vec<String>>,
    state: &'a str,
}

/// The readable report of either kind of analysis.
pub fn report_text(r: &Report) -> String {
    match r {
        Report::Concrete(a) => readable_text(a),
        Report::Parametric(a) => param_readable_text(a),
    }
}

/// The thesis-format output of either kind of analysis.
pub fn report_thesis(r: &Report) -> String {
    match r {
        Report::Concrete(a) => thesis_text(a),
        Report::Parametric(a) => param_thesis_text(a),
    }
}

/// The JSON object of either kind of analysis.
pub fn report_json(r: &Report) -> Value {
    to_value(ReportJson::of(r))
}

/// `{"agents": [...]}` for several reports (see [`report_json`]).
pub fn reports_json(rs: &[Report]) -> Value {
    to_value(AgentsJson {
        agents: rs.iter().map(ReportJson::of).collect(),
    })
}

/// The reports of one run, one after another, in the readable layout (under
/// [`TIME_UNIT_LINE`]) or (with `thesis`) the thesis tool's.
pub fn reports_text(rs: &[Report], thesis: bool) -> String {
    let mut s = String::new();
    if !thesis && !rs.is_empty() {
        s.push_str(TIME_UNIT_LINE);
        s.push_str("\n\n");
    }
    for (k, r) in rs.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        s.push_str(&if thesis {
            report_thesis(r)
        } else {
            report_text(r)
        });
        if !s.ends_with('\n') {
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        s.parse().expect("a rational")
    }

    #[test]
    fn approximate_times_keep_the_exact_value_first() {
        assert_eq!(time_approx(&t("4")), "4");
        assert_eq!(time_approx(&t("7/2")), "3.5");
        assert_eq!(time_approx(&t("5341091/4")), "1335272.75");
        assert_eq!(time_approx(&t("10/3")), "10/3 ≈ 3.333");
        assert_eq!(time_approx(&t("-1/3")), "-1/3 ≈ -0.333");
        assert_eq!(time_short(&t("7/2")), "3.5");
        assert_eq!(time_short(&t("10/3")), "≈ 3.333");
    }
}
