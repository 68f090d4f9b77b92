//! The results of analyses over assignments of constants (a `-D p=2..8` sweep): one row
//! per assignment, one cell per agent — its report, or the limit it stopped at — printed
//! as text (a table per agent), in the thesis tool's layout, as JSON or as CSV.
//!
//! How a stopped cell is described (which option raises the limit) is the caller's: each
//! renderer takes a `note` for a [`Stopped`] analysis.
//!
//! ```
//! use etccs::table::{table_csv, table_text, Row};
//! let text = "const t = 2;\nagent A = tau@t . nil;\nanalyse A";
//! let mut rows: Vec<Row> = Vec::new();
//! for t in [2, 3] {
//!     let t = expr::Rational::from_integer(t.into());
//!     let mut m = etccs::parse::parse_with_symbolic("m.etccs", text, &[("t", t.clone())], &[])?;
//!     let r = etccs::analyse_report(&mut m, "A", &Default::default(), &Default::default())?;
//!     rows.push((vec![("t".into(), t)], vec![("A".into(), Ok(r))]));
//! }
//! let text = table_text(&rows, &|_| String::new());
//! assert!(text.starts_with("times in the model's time unit"), "{text}");
//! assert!(text.contains("\n\nagent A\n"), "{text}");
//! assert_eq!(table_csv(&rows).to_string(), "t,agent,states,min,max,mean,limit\n2,A,2,2,2,2,\n3,A,2,3,3,3,\n");
//! # Ok::<(), etccs::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use expr::{Name, Rational};
use serde::Serialize;
use serde_json::Value;
use trace::csv::{Cell as CsvCell, Table};
use trace::text::{Align, TextTable};

use crate::output::{report_thesis, time_short, time_str, ReportJson, TIME_UNIT_LINE};
use crate::{Report, Run, Stopped};

/// One assignment of the constants.
pub type Assignment = Vec<(Name, Rational)>;

/// One agent's result at an assignment: its name and its report, or the limit it stopped
/// at.
pub type Cell = (String, Result<Report, Stopped>);

/// The results at one assignment, one cell per agent (every row lists the same agents in
/// the same order).
pub type Row = (Assignment, Vec<Cell>);

/// Describes a stopped analysis for a row (e.g. "stopped: more than 100 states (raise …)").
pub type Note<'a> = &'a dyn Fn(Stopped) -> String;

/// The states column of a stopped analysis: `>N` for the state limit, `-` otherwise.
pub fn stopped_states(st: Stopped) -> String {
    match st {
        Stopped::States(n) => format!(">{n}"),
        Stopped::Depth(_) | Stopped::Solver => "-".to_string(),
    }
}

/// One time distribution in a line: `4` or `4: 1/2, 8: 1/2`; for a parametric agent
/// `max(t1, t2) on true` or `t1 on t1 - t2 > 0; t2 on t1 - t2 <= 0`.
pub fn distribution(r: &Report) -> String {
    let a = match r {
        Report::Concrete(a) => a,
        Report::Parametric(p) => {
            return p
                .regions
                .iter()
                .map(|g| format!("{} on {}", p.results_text(g), p.render_region(g)))
                .collect::<Vec<_>>()
                .join("; ");
        }
    };
    if a.pexec.len() == 1 {
        return a.pexec.keys().map(time_str).collect();
    }
    a.pexec
        .iter()
        .map(|(t, p)| format!("{}: {}", time_str(t), p))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A table per agent under [`TIME_UNIT_LINE`]: a row per assignment with the constants, the
/// states, the extremes, the mean and the distribution.
pub fn table_text(rows: &[Row], note: Note<'_>) -> String {
    let mut s = String::new();
    let Some((first, cells)) = rows.first() else {
        return s;
    };
    let _ = writeln!(s, "{TIME_UNIT_LINE}\n");
    for (k, (agent, _)) in cells.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        let _ = writeln!(s, "agent {agent}");
        let mut table = TextTable::new(
            first
                .iter()
                .map(|(n, _)| n.to_string())
                .chain(["states", "min", "max", "mean"].map(String::from))
                .map(|h| (h, Align::Right))
                .chain([("times (probability)".to_string(), Align::Left)]),
        );
        table.last_runs_on = true;
        for (point, results) in rows {
            let mut row: Vec<String> = point.iter().map(|(_, v)| time_str(v)).collect();
            match &results[k].1 {
                Ok(r) => {
                    row.push(r.states().to_string());
                    let ext = |r: Option<&Run>| r.map_or("-".to_string(), |r| time_str(&r.time));
                    let (min, max, mean) = match r {
                        Report::Concrete(a) => (a.min.as_ref(), a.max.as_ref(), a.mean()),
                        Report::Parametric(_) => (None, None, None),
                    };
                    row.push(ext(min));
                    row.push(ext(max));
                    row.push(mean.map_or("-".to_string(), |m| time_short(&m)));
                    row.push(distribution(r));
                }
                Err(st) => {
                    row.push(stopped_states(*st));
                    row.extend(["-", "-", "-"].map(String::from));
                    row.push(note(*st));
                }
            }
            table.push(row);
        }
        s.push_str(&table.render("  "));
    }
    s
}

/// The thesis tool's reports, each assignment under a `== p = 2 ==` heading.
pub fn table_thesis(rows: &[Row], note: Note<'_>) -> String {
    let mut s = String::new();
    for (point, results) in rows {
        let head: Vec<String> = point
            .iter()
            .map(|(n, v)| format!("{n} = {}", time_str(v)))
            .collect();
        let _ = writeln!(s, "== {} ==", head.join(", "));
        for (_, o) in results {
            match o {
                Ok(r) => s.push_str(&report_thesis(r)),
                Err(st) => {
                    let _ = writeln!(s, "{}", note(*st));
                }
            }
            if !s.ends_with('\n') {
                s.push('\n');
            }
        }
    }
    s
}

/// `{"points": [{"agents": [...], "consts": {"p": "2"}}, ...]}`: each agent its report, or
/// `{"name", "limit", "error"}` for an analysis that stopped at a limit (`limit`: `states`,
/// `depth` or `solver`).
pub fn table_json(rows: &[Row], note: Note<'_>) -> Value {
    let points = rows
        .iter()
        .map(|(point, results)| PointJson {
            agents: results
                .iter()
                .map(|(agent, o)| match o {
                    Ok(r) => CellJson::Report(ReportJson::of(r)),
                    Err(st) => CellJson::Stopped {
                        error: note(*st),
                        limit: st.kind(),
                        name: agent,
                    },
                })
                .collect(),
            consts: point
                .iter()
                .map(|(n, v)| (n.to_string(), time_str(v)))
                .collect(),
        })
        .collect();
    serde_json::to_value(PointsJson { points }).expect("a report serialises")
}

/// The document [`table_json`] prints; the keys in alphabetical order, as they print.
#[derive(Serialize)]
struct PointsJson<'a> {
    points: Vec<PointJson<'a>>,
}

/// One assignment: a cell per agent and the constants' values by name.
#[derive(Serialize)]
struct PointJson<'a> {
    agents: Vec<CellJson<'a>>,
    consts: BTreeMap<String, String>,
}

/// An agent's report, or the limit its analysis stopped at.
#[derive(Serialize)]
#[serde(untagged)]
enum CellJson<'a> {
    Report(ReportJson<'a>),
    Stopped {
        error: String,
        limit: &'static str,
        name: &'a str,
    },
}

/// One CSV row per assignment and agent: the constants, `agent`, `states`, `min`, `max`,
/// `mean` (empty for a parametric agent) and `limit` (the limit a row stopped at, else
/// empty).
pub fn table_csv(rows: &[Row]) -> Table {
    let consts: Vec<String> = rows
        .first()
        .map(|(p, _)| p.iter().map(|(n, _)| n.to_string()).collect())
        .unwrap_or_default();
    let mut t = Table::new(
        consts
            .into_iter()
            .chain(["agent", "states", "min", "max", "mean", "limit"].map(String::from)),
    );
    let num = |t: &crate::Time| CsvCell::from(expr::number::to_f64(t));
    for (point, results) in rows {
        for (agent, outcome) in results {
            let mut row: Vec<CsvCell> = point.iter().map(|(_, v)| num(v)).collect();
            row.push(CsvCell::from(agent.as_str()));
            match outcome {
                Ok(r) => {
                    row.push(CsvCell::from(r.states()));
                    match r {
                        Report::Concrete(an) => {
                            row.push(an.min.as_ref().map_or(CsvCell::Empty, |r| num(&r.time)));
                            row.push(an.max.as_ref().map_or(CsvCell::Empty, |r| num(&r.time)));
                            row.push(an.mean().as_ref().map_or(CsvCell::Empty, num));
                        }
                        Report::Parametric(_) => {
                            row.extend([CsvCell::Empty, CsvCell::Empty, CsvCell::Empty]);
                        }
                    }
                    row.push(CsvCell::Empty);
                }
                Err(st) => {
                    row.extend([
                        CsvCell::Empty,
                        CsvCell::Empty,
                        CsvCell::Empty,
                        CsvCell::Empty,
                    ]);
                    row.push(CsvCell::from(st.kind()));
                }
            }
            t.rows.push(row);
        }
    }
    t
}
