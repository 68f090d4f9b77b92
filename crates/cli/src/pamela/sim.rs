//! `vates pamela sim`: one exact simulation run.

use std::io::Write;

use pamela::report::{sim_json, sim_text};
use pamela::sim::{simulate_metered, SimResult};
use pamela::Binding;

use super::SimFlags;
use crate::error::{CliError, Result};
use crate::input::{self, Define};
use crate::timeline::TimelineArgs;
use crate::Format;
use pamela::Loaded;
use termio::progress::{with_meter, Units};

/// Binds every parameter (a missing one is an error that names it).
pub fn full_binding(loaded: &Loaded, defines: &[Define], command: &str) -> Result<Binding> {
    let given = input::single_values(defines, &format!("pamela {command}"), Some("pamela sweep"))?;
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
    let opts = flags.options(files.wanted());
    let r = simulate(loaded, &binding, &opts)?;
    if let Some(tr) = &r.trace {
        files.write(tr, &pamela::sim::gantt_options(&loaded.model, loaded.root))?;
    }
    if let Some(cut) = &r.trace_cut {
        crate::error::note(&format!(
            "note: the timeline files stop at time {} of {}: they reached {}; {}",
            cut.at,
            r.time,
            cut.reached,
            crate::limits::raise(&cut.reached)
        ));
    }
    let text = match format {
        Format::Text => sim_text(&loaded.model, loaded.root, &binding, &opts, &r),
        Format::Json => crate::error::json_text(&sim_json(&r))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
