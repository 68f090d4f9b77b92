//! The texts and JSON documents of campaigns and studies.

use std::path::Path;

use serde::Serialize;

use crate::file::Campaign;
use crate::folder::Manifest;
use crate::plan::Cell;

/// The JSON document of a campaign's plan.
#[derive(Serialize)]
pub struct PlanJson<'a> {
    /// The checked campaign.
    pub campaign: &'a Campaign,
    /// Its cells.
    pub cells: &'a [Cell],
}

/// A campaign's plan as text: the command, the runtime and each cell.
pub fn plan_text(c: &Campaign, cells: &[Cell]) -> String {
    let mut s = format!(
        "campaign {}: `{}` ({} runtime), {} cells, {} runs, at most {} s a run\n\n",
        c.name,
        c.command.join(" "),
        c.runtime.name(),
        cells.len(),
        c.runs(),
        trace::text::num(c.timeout_s)
    );
    use trace::text::Align::{Left, Right};
    let heads = [
        ("index", Right),
        ("cell", Left),
        ("set", Left),
        (c.names.size.as_str(), Right),
        (c.names.workers.as_str(), Right),
        ("runs", Right),
    ];
    let mut t = trace::text::TextTable::new(heads.map(|(h, a)| (h.to_string(), a)));
    for x in cells {
        t.push(vec![
            x.index.to_string(),
            x.id(),
            x.set.name().to_string(),
            trace::text::num(x.n),
            x.p.to_string(),
            x.reps.to_string(),
        ]);
    }
    s.push_str(&t.render(""));
    s
}

/// What a campaign left in the study `dir`, as text.
pub fn manifest_text(m: &Manifest, dir: &Path) -> String {
    let mut s = format!(
        "campaign {}: {} of {} cells finished ({} of {} runs) in {}\n",
        m.name,
        m.cells_done,
        m.cells,
        m.runs_done,
        m.runs,
        dir.display()
    );
    for f in &m.files {
        s.push_str(&format!("  {f}\n"));
    }
    if m.machine_profile {
        s.push_str(&format!("  {}\n", crate::folder::MACHINE));
    }
    s
}
