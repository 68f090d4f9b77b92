//! `vates pamela sim`: one exact simulation run.

use std::fmt::Write as _;
use std::io::Write;

use pamela::sim::{simulate_metered, SimResult};
use pamela::Binding;

use crate::error::{CliError, Result};
use crate::input::{self, Define, Loaded};
use crate::progress::{with_meter, Units};
use crate::timeline_files::TimelineArgs;
use crate::{Format, SimFlags};
use trace::text::{fixed, num, Align, TextTable};

/// How many members of a family the text report lists.
const BUSIEST_SHOWN: usize = 3;

/// Binds every parameter or fails naming the missing ones.
pub fn full_binding(loaded: &Loaded, defines: &[Define], command: &str) -> Result<Binding> {
    let given = input::single_values(defines, command)?;
    let missing = input::missing_params(&loaded.model, &given);
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|n| &**n).collect();
        let example: Vec<String> = names.iter().map(|n| format!("-D {n}=VALUE")).collect();
        let what = if names.len() == 1 {
            format!("missing a value for parameter {}", names[0])
        } else {
            format!("missing values for parameters {}", names.join(", "))
        };
        return Err(CliError::with_help(
            format!("`vates pamela {command}` needs every parameter bound: {what}"),
            format!("bind them, e.g. {}", example.join(" ")),
        ));
    }
    Ok(loaded.model.bind(&given)?)
}

/// Runs one simulation with a progress spinner on long runs.
pub fn simulate(
    loaded: &Loaded,
    binding: &Binding,
    opts: &pamela::sim::SimOptions,
) -> Result<SimResult> {
    let units = Units {
        running: "simulating",
        analysing: "summarising",
        noun: "events",
    };
    let r = with_meter(units, "", |meter| {
        simulate_metered(&loaded.model, loaded.root, binding, opts, Some(meter))
    });
    Ok(r?)
}

/// Runs the command.
pub fn run(
    loaded: &Loaded,
    defines: &[Define],
    flags: &SimFlags,
    files: &TimelineArgs,
    format: Format,
    out: &mut dyn Write,
) -> Result<()> {
    let binding = full_binding(loaded, defines, "sim")?;
    let r = simulate(loaded, &binding, &flags.options(files.wanted()))?;
    if let Some(tr) = &r.trace {
        files.write(tr, &pamela_chart(loaded))?;
    }
    if let Some(cut) = &r.trace_cut {
        eprintln!(
            "note: the timeline files stop at time {} of {}: they reached {}; {}",
            cut.at,
            r.time,
            cut.reached,
            crate::limits::raise(&cut.reached)
        );
    }
    let text = match format {
        Format::Text => render_text(loaded, &binding, flags, &r),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&to_json_value(&r))
                .map_err(|e| CliError::msg(format!("cannot encode JSON: {e}")))?;
            s.push('\n');
            s
        }
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// The time axis label of a simulation's Gantt chart.
pub const GANTT_TIME: &str = "model time";

/// How many resources a simulation's Gantt legend names.
const LEGEND_RESOURCES: usize = 4;

/// A simulation's Gantt chart: its title, and a legend that says what the colours of the
/// process lanes mean (think, service at each resource, queueing).
pub fn pamela_chart(loaded: &Loaded) -> trace::gantt::GanttOptions {
    let title = format!(
        "{} — root {}: resource servers and processes",
        loaded.label(),
        loaded.root_name()
    );
    let (legend, wait) = pamela::sim::trace_legend(&loaded.model, LEGEND_RESOURCES);
    trace::gantt::GanttOptions {
        legend,
        wait_legend: Some(wait),
        ..crate::timeline_files::chart(&title, GANTT_TIME)
    }
}

/// The text report.
pub fn render_text(loaded: &Loaded, binding: &Binding, flags: &SimFlags, r: &SimResult) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PAMELA simulation: {}, root `{}`",
        loaded.label(),
        loaded.root_name()
    );
    let given: Vec<(expr::Name, expr::Rational)> = binding
        .values
        .iter()
        .filter(|(n, _)| {
            loaded
                .model
                .param(n)
                .is_some_and(|p| p.definition.is_none())
        })
        .map(|(n, v)| (n.clone(), v.clone()))
        .collect();
    if !given.is_empty() {
        let _ = writeln!(s, "  with {}", input::show_values(&given));
    }
    let arb = match flags.arbitration {
        crate::ArbitrationArg::Fcfs => "fcfs",
        crate::ArbitrationArg::Random => "random",
    };
    let _ = writeln!(s, "  arbitration {arb}, seed {}", flags.seed);
    let _ = writeln!(s);
    let _ = writeln!(s, "  T            = {}", num(r.time));
    let _ = writeln!(s, "  events       = {}", r.events);
    let _ = writeln!(
        s,
        "  peak active  = {} process{}",
        r.peak_active,
        if r.peak_active == 1 { "" } else { "es" }
    );
    if !r.resources.is_empty() {
        let _ = writeln!(s);
        let families = r.resources.iter().any(|u| !u.members.is_empty());
        let mut cols = vec![
            ("resource".to_string(), Align::Left),
            ("utilisation".to_string(), Align::Right),
            ("busy".to_string(), Align::Right),
            ("served".to_string(), Align::Right),
        ];
        if families {
            cols.push(("busiest members".to_string(), Align::Left));
        }
        let mut t = TextTable::new(cols);
        for u in &r.resources {
            let util = if u.utilization > 0.0 || u.busy == 0.0 {
                fixed(u.utilization, 3)
            } else {
                "(infinite)".to_string()
            };
            let mut row = vec![u.name.clone(), util, num(u.busy), u.served.to_string()];
            if families {
                row.push(busiest(&u.members));
            }
            t.push(row);
        }
        s.push_str(&t.render("  "));
    }
    s
}

/// `cpu[3] 0.998, cpu[1] 0.990, …` for a family; empty for a plain resource.
fn busiest(members: &[pamela::sim::MemberUsage]) -> String {
    let mut m: Vec<&pamela::sim::MemberUsage> = members.iter().collect();
    m.sort_by(|a, b| b.busy.total_cmp(&a.busy));
    let mut parts: Vec<String> = m
        .iter()
        .take(BUSIEST_SHOWN)
        .map(|u| format!("{} {}", u.name, fixed(u.utilization, 3)))
        .collect();
    if m.len() > BUSIEST_SHOWN {
        parts.push(format!("… ({} members)", m.len()));
    }
    parts.join(", ")
}

/// The JSON document (schema in the crate docs).
pub fn to_json_value(r: &SimResult) -> serde_json::Value {
    let mut util = serde_json::Map::new();
    for u in &r.resources {
        util.insert(u.name.clone(), serde_json::json!(u.utilization));
    }
    let resources: Vec<serde_json::Value> = r
        .resources
        .iter()
        .map(|u| {
            serde_json::json!({
                "name": u.name,
                "busy": u.busy,
                "utilization": u.utilization,
                "served": u.served,
                "members": u.members.iter().map(|m| serde_json::json!({
                    "name": m.name,
                    "busy": m.busy,
                    "utilization": m.utilization,
                    "served": m.served,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "time": r.time,
        "events": r.events,
        "utilization": util,
        "peak_active": r.peak_active,
        "resources": resources,
    })
}
