//! `vates graph sweep`: the analysis over process counts on the shared sweep runner
//! ([`sweep::run`]; the point function is [`taskgraph::analysis::setup::Setup::scaling`]);
//! the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use expr::grid::{parse_binding, Values};
use expr::{Name, Rational};
use sweep::{CsvSink, Evaluation, Lines, OnError, RunError, Sample, Sink, Space};
use taskgraph::analysis::explain::{sweep_json, sweep_lines, sweep_text};
use taskgraph::analysis::setup::SCALING_COLUMNS;
use taskgraph::TaskGraph;

use crate::error::Result;
use crate::error::{write_file, CliError};
use crate::graph::{analysis_error, Setup};
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
    let exact = values.count().to_string();
    let count = exact.parse::<u64>().unwrap_or(u64::MAX);
    if count > MAX_POINTS as u64 {
        return Err(format!(
            "`{s}` has {exact} process counts, more than the limit of {MAX_POINTS}"
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

/// Runs the sweep.
pub fn run(
    g: &TaskGraph,
    path: &Path,
    setup: &Setup,
    opts: &Options,
    out: &mut dyn Write,
) -> Result<()> {
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
    // Output paths are checked before the sweep: a typo must not cost a long run.
    for path in [&opts.csv, &opts.plot].into_iter().flatten() {
        crate::error::check_output(path)?;
    }
    let base = setup.run.baseline(g).map_err(|e| match analysis_error(e) {
        CliError::Diag(d) => CliError::with_help(
            format!("the P = 1 run (the speedup baseline) failed: {}", d.message),
            d.help.unwrap_or_default(),
        ),
        other => other,
    })?;
    let columns: Vec<String> = SCALING_COLUMNS.map(String::from).to_vec();
    let mut csv = match &opts.csv {
        Some(p) => {
            let f = std::fs::File::create(p).map_err(|e| CliError::write(p, &e))?;
            Some(CsvSink::new(std::io::BufWriter::new(f)))
        }
        None => None,
    };
    let mut lines = opts.plot.as_ref().map(|_| Lines::new(sweep_lines()));
    let mut table = Sample::all(space.len());
    let mut sinks: Vec<&mut dyn Sink> = vec![&mut table];
    if let Some(c) = &mut csv {
        sinks.push(c);
    }
    if let Some(l) = &mut lines {
        sinks.push(l);
    }
    let point = |_: u64, p: &[f64], out: &mut [f64]| {
        let figures = setup.run.scaling(g, p[0] as usize, &base)?;
        out.copy_from_slice(&figures);
        Ok(())
    };
    let run = crate::progress::with_bar(space.len(), "analysing", |meter| {
        let eval = Evaluation {
            chunk: (rayon::current_num_threads() * 2) as u64,
            meter: Some(meter),
            on_error: OnError::Stop,
        };
        sweep::run(&space, &columns, &eval, point, &mut sinks)
    });
    drop(sinks);
    run.map_err(|e| match e {
        RunError::Point { error, .. } => analysis_error(error),
        RunError::Sink { error, .. } => match &opts.csv {
            Some(p) => CliError::write(p, &error),
            None => CliError::Stdout(error),
        },
    })?;
    if let (Some(l), Some(plot)) = (&lines, &opts.plot) {
        let title = format!(
            "{}: speedup vs P, policy {}",
            path.display(),
            setup.policy_name
        );
        let svg = l
            .render_svg(&title, "P (processes)", "speedup", (800, 500))
            .map_err(|e| CliError::msg(format!("cannot draw the plot: {e}")))?;
        write_file(plot, svg.as_bytes())?;
    }
    let labels = setup.labels(path);
    let text = match opts.format {
        Format::Text => sweep_text(g, &labels, &base, &table),
        Format::Json => crate::error::json_text(&sweep_json(g, &labels, &base, table.rows()))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
