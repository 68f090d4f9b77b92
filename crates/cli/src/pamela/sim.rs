//! `vates pamela sim`: one exact simulation run.

use std::io::Write;

use pamela::report::{sim_json, sim_text};
use pamela::sim::simulate_metered;
use pamela::Loaded;
use termio::progress::{with_meter, Units};

use super::SimArgs;
use crate::error::{json_text, print, Result};
use crate::Format;

/// Runs the command, with a progress spinner on long runs.
pub fn run(loaded: &Loaded, a: &SimArgs, out: &mut dyn Write) -> Result<()> {
    let given = crate::input::single_values(&a.model.define, "pamela sim", Some("pamela sweep"))?;
    let binding = loaded.model.bind(&given)?;
    let opts = a.sim.options(a.timeline.wanted());
    let units = Units {
        running: "simulating",
        analysing: "summarising",
        noun: "events",
    };
    let r = with_meter(units, "", |meter| {
        simulate_metered(&loaded.model, loaded.root, &binding, &opts, Some(meter))
    })?;
    if let Some(tr) = &r.trace {
        let gantt = pamela::sim::gantt_options(&loaded.model, loaded.root);
        a.timeline.write(tr, &gantt)?;
    }
    if let Some(cut) = &r.trace_cut {
        crate::error::note(&format!(
            "note: the timeline files stop at time {} of {}: they reached {}; {}",
            cut.at,
            r.time,
            cut.reached,
            crate::error::raise(&cut.reached)
        ));
    }
    let text = match a.format {
        Format::Text => sim_text(&loaded.model, loaded.root, &binding, &opts, &r),
        Format::Json => json_text(&sim_json(&r))?,
    };
    print(out, &text)
}
