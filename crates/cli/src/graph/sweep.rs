//! `vates graph sweep`: the analysis over process counts on the shared sweep runner
//! ([`sweep::run`]; the point function is [`taskgraph::analysis::setup::Setup::scaling`]);
//! the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::Path;

use expr::grid::{parse_binding, Values};
use expr::{Name, Rational};
use sweep::{Sample, Space};
use taskgraph::analysis::explain::{sweep_json, sweep_lines, sweep_text};
use taskgraph::analysis::setup::SCALING_COLUMNS;
use taskgraph::TaskGraph;

use crate::error::CliError;
use crate::error::Result;
use crate::graph::{analysis_error, Setup};
use crate::Format;
use termio::sweep_out::{self, Wiring};

/// The most process counts in one sweep.
pub const MAX_POINTS: usize = 4096;
/// The largest process count.
pub const MAX_PROCS: usize = 1 << 20;

/// What the sweep writes.
pub struct Options {
    /// Process counts, in order.
    pub procs: ProcList,
    /// The output flags.
    pub output: crate::SweepOutput,
}

/// Process counts given to `--procs`: the counts, or, past [`MAX_POINTS`], their number
/// (a limit hit: the sweep refuses it with status 1, not as a malformed flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcList(pub Vec<usize>, pub Option<String>);

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
    let exact = values.count().to_string();
    let count = exact.parse::<u64>().unwrap_or(u64::MAX);
    if count > MAX_POINTS as u64 {
        return Ok(ProcList(Vec::new(), Some(exact)));
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
    Ok(ProcList(out, None))
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

/// Runs the sweep.
pub fn run(
    g: &TaskGraph,
    path: &Path,
    setup: &Setup,
    opts: &Options,
    out: &mut dyn Write,
) -> Result<()> {
    if let Some(count) = &opts.procs.1 {
        return Err(CliError::with_help(
            format!("--procs has {count} process counts, more than the limit of {MAX_POINTS}"),
            "use fewer values or coarser steps",
        ));
    }
    let procs: &[usize] = &opts.procs.0;
    if procs.is_empty() {
        return Err(CliError::usage("--procs is required, e.g. --procs 1..64"));
    }
    let values = Values::List(
        procs
            .iter()
            .map(|&p| Rational::from_integer((p as i64).into()))
            .collect(),
    );
    let space = Space::new(vec![(Name::from("procs"), values)], MAX_POINTS as u64)
        .map_err(|e| CliError::usage(e.to_string()))?;
    let base = setup.run.baseline(g).map_err(|e| match analysis_error(e) {
        CliError::Diag(d) => CliError::with_help(
            format!("the P = 1 run (the speedup baseline) failed: {}", d.message),
            d.help.unwrap_or_default(),
        ),
        other => other,
    })?;
    let columns: Vec<String> = SCALING_COLUMNS.map(String::from).to_vec();
    let point = |_: u64, p: &[f64], out: &mut [f64]| {
        let figures = setup.run.scaling(g, p[0] as usize, &base)?;
        out.copy_from_slice(&figures);
        Ok(())
    };
    let outputs = opts.output.outputs();
    let wiring = Wiring::new(
        &outputs,
        Sample::all(space.len()),
        sweep_lines(),
        "analysing",
    );
    let swept =
        sweep_out::run(&space, &columns, wiring, point)?.finished(|_, e| analysis_error(e))?;
    let title = format!(
        "{}: speedup vs P, policy {}",
        path.display(),
        setup.policy_name
    );
    swept.write_plot(&title, "P (processes)", "speedup")?;
    let table = swept.table;
    let labels = setup.labels(path);
    let text = match opts.output.format {
        Format::Text => sweep_text(g, &labels, &base, &table),
        Format::Json => crate::error::json_text(&sweep_json(g, &labels, &base, table.rows()))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
