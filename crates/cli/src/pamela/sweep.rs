//! `vates pamela sweep`: T^l (and φ, ω) and/or simulated T over a grid of parameter values,
//! on the shared sweep runner: the plan and the point function are PAMELA's
//! ([`pamela::sweep_plan`], [`pamela::evaluate`]), the sinks [`termio::sweep_out`]'s.

use std::io::Write;

use pamela::evaluate::SweepPoints;
use pamela::sweep_plan::{Failure, SweepPlan};
use pamela::Loaded;
use termio::sweep_out::{self, Wiring};

use super::SweepArgs;
use crate::error::{json_text, print, CliError, Result};
use crate::Format;

/// A failed sweep as the command's error.
fn failure(f: Failure) -> CliError {
    match f {
        Failure::Sim(e) => CliError::from(e),
        Failure::Undefined(u) => CliError::keyed(&u),
    }
}

/// Runs the command.
pub fn run(loaded: &Loaded, a: &SweepArgs, out: &mut dyn Write) -> Result<()> {
    let bindings = a
        .model
        .define
        .iter()
        .map(|d| (d.name.clone(), d.values.clone()));
    let json = a.output.format == Format::Json;
    let plan =
        SweepPlan::new(bindings.collect(), &a.engine, json).map_err(|e| CliError::keyed(&e))?;
    let engines = plan.engine_set();
    let sim = engines.sim.then(|| a.sim.options(false));
    let points = SweepPoints::new(&loaded.model, loaded.root, &plan.space, engines.bound, sim)?;
    let columns = engines.columns();
    let outputs = a.output.outputs();
    let wiring = Wiring {
        chunk: Some(plan.chunk(rayon::current_num_threads())),
        on_error: plan.on_error(),
        ..Wiring::new(&outputs, plan.sample(), engines.lines(), "sweeping")
    };
    let point = |k: u64, vals: &[f64], out: &mut [f64]| points.eval(&plan.space, k, vals, out);
    let swept = sweep_out::run(&plan.space, &columns, wiring, point)?;
    let json_doc = || json_text(&plan.json_doc(&columns, &swept.table));
    if let Some((point, error)) = swept.stopped {
        if json {
            let _ = print(out, &json_doc()?);
        }
        return Err(failure(plan.failure(point, error, None)));
    }
    if let Some(n) = swept.plot_note() {
        crate::error::note(&n);
    }
    if let Some(lines) = &swept.lines {
        let (title, x) = plan.plot_labels(loaded, lines);
        swept.write_plot(&title, x, "time")?;
    }
    let text = match json {
        true => json_doc()?,
        false => {
            plan.text(loaded, &swept.table) + &crate::sample_note(&swept.table, plan.space.len())
        }
    };
    print(out, &text)?;
    // Points where the model is undefined fail the sweep, as they fail a simulation.
    match swept.skipped {
        (count, Some((p, e))) => Err(failure(plan.failure(p, e, Some(count)))),
        _ => Ok(()),
    }
}
