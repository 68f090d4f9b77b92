//! `vates graph sweep`: the analysis over process counts; the manual is in `docs/cli.md`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use expr::grid::parse_binding;
use rayon::prelude::*;
use taskgraph::TaskGraph;

use crate::error::{write_file, CliError};
use crate::graph_cmd::{Failure, GResult, Setup};
use crate::progress::Progress;
use crate::text::{fixed, num, Align, TextTable};
use crate::Format;

/// The most process counts in one sweep.
pub const MAX_POINTS: usize = 4096;
/// The largest process count.
pub const MAX_PROCS: usize = 1 << 20;

/// What the sweep writes.
pub struct Options {
    /// Process counts, in order.
    pub procs: ProcList,
    /// CSV file.
    pub csv: Option<PathBuf>,
    /// SVG plot.
    pub plot: Option<PathBuf>,
    /// Standard output format.
    pub format: Format,
}

/// Process counts given to `--procs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcList(pub Vec<usize>);

/// clap value parser for `--procs`: `1..64`, `1..64:4`, `1,2,4,8` or `8`; as `-D`, the same
/// after `P=`.
pub fn parse_procs(s: &str) -> std::result::Result<ProcList, String> {
    let s = match s.split_once('=') {
        Some((name, values)) if name.trim() == "P" || name.trim() == "p" => values.trim(),
        Some((name, _)) => {
            return Err(format!(
                "the task-graph analysis has one parameter, P (the number of processes), not \
                 `{}`: give `-D P=8` or `--procs 8`",
                name.trim()
            ))
        }
        None => s,
    };
    let (_, values) = parse_binding(&format!("P={s}")).map_err(|_| {
        format!("`{s}` is not a process count, range (1..64, 1..64:4) or list (1,2,4,8)")
    })?;
    let count = values
        .count()
        .to_string()
        .parse::<u64>()
        .unwrap_or(u64::MAX);
    if count > MAX_POINTS as u64 {
        return Err(format!(
            "`{s}` has {count} process counts, more than the limit of {MAX_POINTS}"
        ));
    }
    let mut out = Vec::with_capacity(count as usize);
    for k in 0..count {
        let v = values.get(k).ok_or_else(|| format!("`{s}`: bad range"))?;
        let ok = v.is_integer() && expr::number::to_f64(&v) >= 1.0;
        let p = expr::number::to_f64(&v);
        if !ok || p > MAX_PROCS as f64 {
            return Err(format!(
                "`{s}`: process counts must be whole numbers from 1 to {MAX_PROCS}"
            ));
        }
        out.push(p as usize);
    }
    Ok(ProcList(out))
}

/// clap value parser for `graph analyze --procs`: one process count (a range or list is a
/// usage error that points to `graph sweep`).
pub fn parse_one_proc(s: &str) -> std::result::Result<usize, String> {
    match parse_procs(s)?.0.as_slice() {
        [p] => Ok(*p),
        _ => Err(format!(
            "`{s}` gives several process counts, but `graph analyze` takes one; sweep them \
             with `vates graph sweep GRAPH --procs {s}`"
        )),
    }
}

struct Point {
    procs: usize,
    makespan: f64,
    speedup: f64,
    efficiency: f64,
    work_bound: f64,
    span_bound: f64,
}

/// Runs the sweep.
pub fn run(
    g: &TaskGraph,
    path: &Path,
    setup: &Setup,
    opts: &Options,
    out: &mut dyn Write,
) -> GResult<()> {
    let procs: &[usize] = &opts.procs.0;
    if procs.is_empty() {
        return Err(CliError::usage("--procs is required, e.g. --procs 1..64").into());
    }
    if procs.len() > MAX_POINTS {
        return Err(CliError::usage(format!(
            "{} process counts, more than the limit of {MAX_POINTS}",
            procs.len()
        ))
        .into());
    }
    let work = g.work();
    let span = g.span();
    let avg = if span > 0.0 { work / span } else { 0.0 };
    let t1 = setup
        .analyze(g, 1)
        .map(|(s, _)| s.makespan)
        .map_err(|e| match e {
            Failure::Cli(CliError::Diag(d)) => Failure::Cli(CliError::with_help(
                format!("the P = 1 run (the speedup baseline) failed: {}", d.message),
                d.help.unwrap_or_default(),
            )),
            other => other,
        })?;
    let mut progress = Progress::new(Some(procs.len() as u64), "analysing");
    let chunk = rayon::current_num_threads().max(1) * 2;
    let mut points: Vec<Point> = Vec::with_capacity(procs.len());
    for part in procs.chunks(chunk) {
        let res: Vec<GResult<Point>> = part
            .par_iter()
            .map(|&p| {
                let (s, _) = setup.analyze(g, p)?;
                let speedup = if s.makespan > 0.0 {
                    t1 / s.makespan
                } else {
                    f64::NAN
                };
                progress.bar().inc(1);
                Ok(Point {
                    procs: p,
                    makespan: s.makespan,
                    speedup,
                    efficiency: speedup / p as f64,
                    work_bound: p as f64,
                    span_bound: avg,
                })
            })
            .collect();
        for r in res {
            points.push(r?);
        }
        progress.poll();
    }
    progress.finish();

    if let Some(csv) = &opts.csv {
        let mut t = trace::csv::Table::new([
            "procs",
            "makespan",
            "speedup",
            "efficiency",
            "work_bound",
            "span_bound",
        ]);
        for p in &points {
            let finite = |v: f64| v.is_finite().then_some(v);
            t.push_row([
                Some(p.procs as f64),
                finite(p.makespan),
                finite(p.speedup),
                finite(p.efficiency),
                finite(p.work_bound),
                finite(p.span_bound),
            ]);
        }
        write_file(csv, t.to_string().as_bytes())?;
    }
    if let Some(plot) = &opts.plot {
        let svg = render_plot(path, setup, &points)?;
        write_file(plot, svg.as_bytes())?;
    }
    let text = match opts.format {
        Format::Text => render_text(g, path, setup, t1, &points),
        Format::Json => {
            let pts: Vec<serde_json::Value> = points
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "procs": p.procs, "makespan": p.makespan, "speedup": finite(p.speedup),
                        "efficiency": finite(p.efficiency), "work_bound": p.work_bound,
                        "span_bound": p.span_bound,
                    })
                })
                .collect();
            let v = serde_json::json!({
                "graph": path.display().to_string(),
                "policy": setup.policy_name,
                "steal": setup.steal,
                "system": setup.system.as_ref().map(|(_, p)| p.display().to_string()),
                "work": work,
                "span": span,
                "makespan_p1": t1,
                "points": pts,
            });
            let mut s = serde_json::to_string_pretty(&v)
                .map_err(|e| CliError::msg(format!("cannot encode JSON: {e}")))?;
            s.push('\n');
            s
        }
    };
    out.write_all(text.as_bytes())
        .map_err(|e| Failure::Cli(CliError::Stdout(e)))
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn ratio(v: f64) -> String {
    if v.is_finite() {
        fixed(v, 3)
    } else {
        "-".to_string()
    }
}

fn render_text(g: &TaskGraph, path: &Path, setup: &Setup, t1: f64, points: &[Point]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Task graph sweep: {} ({} tasks), policy {}{}{}",
        path.display(),
        g.len(),
        setup.policy_name,
        if setup.steal { " with stealing" } else { "" },
        setup
            .system
            .as_ref()
            .map_or(String::new(), |(_, p)| format!(
                ", system model {}",
                p.display()
            ))
    );
    let _ = writeln!(
        s,
        "  work {}, span {}, average parallelism {}, makespan at P = 1: {}",
        num(g.work()),
        num(g.span()),
        num(g.average_parallelism()),
        num(t1)
    );
    let _ = writeln!(s);
    let mut t = TextTable::new([
        ("P".to_string(), Align::Right),
        ("makespan".to_string(), Align::Right),
        ("speedup".to_string(), Align::Right),
        ("efficiency".to_string(), Align::Right),
        ("bound".to_string(), Align::Right),
    ]);
    for p in points {
        t.push(vec![
            p.procs.to_string(),
            num(p.makespan),
            ratio(p.speedup),
            ratio(p.efficiency),
            fixed(p.work_bound.min(p.span_bound), 3),
        ]);
    }
    s.push_str(&t.render("  "));
    s
}

fn render_plot(path: &Path, setup: &Setup, points: &[Point]) -> GResult<String> {
    use trace::plot::{LinePlot, Series};
    let pts = |f: &dyn Fn(&Point) -> f64| -> Vec<(f64, f64)> {
        points
            .iter()
            .filter(|p| f(p).is_finite())
            .map(|p| (p.procs as f64, f(p)))
            .collect()
    };
    let plot = LinePlot {
        title: format!(
            "{}: speedup vs P, policy {}",
            path.display(),
            setup.policy_name
        ),
        x_label: "P (processes)".to_string(),
        y_label: "speedup".to_string(),
        series: vec![
            Series::new("work bound (speedup = P)", pts(&|p| p.work_bound)),
            Series::new("span bound (work / span)", pts(&|p| p.span_bound)),
            Series::new("predicted speedup", pts(&|p| p.speedup)),
        ],
        log_x: false,
        log_y: false,
    };
    plot.render_svg(800, 500)
        .map_err(|e| Failure::Cli(CliError::msg(format!("cannot draw the plot: {e}"))))
}
