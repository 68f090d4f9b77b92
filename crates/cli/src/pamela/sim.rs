//! `vates pamela sim`: one exact simulation run.

use std::io::Write;

use pamela::report::{sim_json, sim_text};
use pamela::sim::{simulate_metered, METER_UNITS};
use pamela::Loaded;
use termio::progress::with_meter;

use super::SimArgs;
use crate::error::{json_text, print, Result};
use crate::Format;

/// Runs the command, with a progress spinner on long runs.
pub fn run(loaded: &Loaded, a: &SimArgs, out: &mut dyn Write) -> Result<()> {
    let given = crate::input::single_values(&a.model.define, "pamela sim", Some("pamela sweep"))?;
    let binding = loaded.model.bind(&given)?;
    let opts = a.sim.options(a.timeline.wanted());
    let r = with_meter(METER_UNITS, "", |meter| {
        simulate_metered(&loaded.model, loaded.root, &binding, &opts, Some(meter))
    })?;
    if let Some(tr) = &r.trace {
        let gantt = pamela::sim::gantt_options(&loaded.model, loaded.root);
        a.timeline.write(tr, &gantt)?;
    }
    if let Some(cut) = &r.trace_cut {
        let raise = crate::error::raise(&cut.reached);
        crate::error::note(&format!("{}; {raise}", cut.note(r.time)));
    }
    let text = match a.format {
        Format::Text => sim_text(&loaded.model, loaded.root, &binding, &opts, &r),
        Format::Json => json_text(&sim_json(&r))?,
    };
    print(out, &text)
}
