//! `vates pamela bound`: the symbolic lower bound T^l with φ, ω, θ and the binding term
//! (the report is [`pamela::report`]'s).

use std::io::Write;

use pamela::report::{analyse_bound, bound_json, bound_latex, bound_text};

use super::BoundFormat;
use crate::error::{CliError, Result};
use crate::input::{self, Define};
use pamela::Loaded;

/// Runs the command.
pub fn run(
    loaded: &Loaded,
    defines: &[Define],
    format: BoundFormat,
    out: &mut dyn Write,
) -> Result<()> {
    let given = input::single_values(defines, "pamela bound", Some("pamela sweep"))?;
    let a = analyse_bound(&loaded.model, loaded.root, given)?;
    let text = match format {
        BoundFormat::Text => bound_text(&loaded.model, loaded.root, &a),
        BoundFormat::Json => crate::error::json_text(&bound_json(&a))?,
        BoundFormat::Latex => bound_latex(&a),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
