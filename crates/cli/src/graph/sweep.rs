//! `vates graph sweep`: the analysis over process counts ([`Sweep`]) on the shared sweep
//! runner; the manual is in `docs/cli.md`.

use std::io::Write;

use sweep::Sample;
use taskgraph::analysis::explain::sweep_lines;
use taskgraph::analysis::scaling::Sweep;
use termio::sweep_out::{self, Wiring};

use super::{advised, keyed, GraphSweepArgs};
use crate::error::{print, CliError, Result};
use crate::Format;

/// Runs the sweep.
pub fn run(a: GraphSweepArgs, out: &mut dyn Write) -> Result<()> {
    let (g, setup) = super::load(&a.input)?;
    let sweep = Sweep::new(&setup, &g, &a.procs).map_err(|e| keyed(&e))?;
    let base = sweep.baseline().map_err(|e| advised(&e))?;
    let outputs = a.output.outputs();
    let table = Sample::all(sweep.space.len());
    let wiring = Wiring::new(&outputs, table, sweep_lines(), "analysing");
    let point = |_: u64, p: &[f64], out: &mut [f64]| sweep.point(&base, p, out);
    let swept = sweep_out::run(&sweep.space, &sweep.columns(), wiring, point)?
        .finished(|_, e| advised(&e))?;
    let labels = super::labels(&setup, &a.input);
    let title = format!("{}: speedup vs P, policy {}", labels.graph, labels.policy);
    swept.write_plot(&title, "P (processes)", "speedup")?;
    let json = a.output.format == Format::Json;
    let text = sweep.report(&labels, &base, &swept.table, json);
    print(out, &text.map_err(|e| CliError::msg(e.to_string()))?)
}
