//! The pictures of `vates etccs analyse` (drawn by [`etccs::plot`]): `--plot` (times
//! against a swept constant) and `--map` (a parametric result's regions), and the
//! messages, with the flags, for pictures that cannot be drawn.

use std::path::Path;

use etccs::parametric::ParamAnalysis;
use etccs::plot::{region_map_svg, times_svg, AxisRange, Column, PlotError};

use crate::error::{write_file, CliError};

/// Parses `NAME=LO..HI` in the `-D` grammar (numbers may be decimals; `LO < HI`).
pub fn parse_range(s: &str) -> Result<AxisRange, CliError> {
    let bad = |why: &str| {
        CliError::usage(format!(
            "--map-range {s}: {why}; expected NAME=LO..HI, e.g. b=0..2"
        ))
    };
    let (name, values) = expr::grid::parse_binding(s).map_err(|e| bad(&e.to_string()))?;
    let expr::grid::Values::Range { lo, hi, .. } = values else {
        return Err(bad("not a range"));
    };
    let (lo, hi) = (expr::number::to_f64(&lo), expr::number::to_f64(&hi));
    if lo >= hi || hi <= 0.0 {
        return Err(bad("the range must be increasing and reach above 0"));
    }
    Ok(AxisRange {
        name: name.to_string(),
        lo: lo.max(0.0),
        hi,
    })
}

/// Renders the region map of `a` to `path`.
pub fn write_map(a: &ParamAnalysis, ranges: &[AxisRange], path: &Path) -> Result<(), CliError> {
    let svg = region_map_svg(a, ranges).map_err(plot_error)?;
    Ok(write_file(path, svg.as_bytes())?)
}

/// Draws the times plot of `cols` (one per point of `space`) for the model `model` and
/// writes it to `path`.
pub fn write_plot(
    model: &str,
    space: &sweep::Space,
    cols: &[Column<'_>],
    path: &Path,
) -> Result<(), CliError> {
    let svg = times_svg(model, space, cols).map_err(plot_error)?;
    Ok(write_file(path, svg.as_bytes())?)
}

/// A picture that cannot be drawn, as the message that says which flag to change.
pub fn plot_error(e: PlotError) -> CliError {
    match e {
        PlotError::NotSwept => CliError::usage(
            "--plot draws times against a swept constant: give a range or list, e.g. --const p=2..8",
        ),
        PlotError::TooManyGroups { max } => CliError::usage(format!(
            "--plot draws one line per value of the constants swept after the first \
             (at most {max}): sweep fewer values"
        )),
        PlotError::NothingToDraw => CliError::usage(
            "--plot: no analysis of the sweep has execution times to draw (parametric, \
             non-terminating and stopped analyses have none); choose agents with --agent NAME",
        ),
        PlotError::TooManyLines { lines, max } => CliError::usage(format!(
            "--plot would draw {lines} lines (at most {max}): choose agents with --agent NAME \
             or sweep fewer constants"
        )),
        e @ PlotError::FreeParameters { .. } => CliError::with_help(
            format!("--map: {e}"),
            "give the other parameters values with --const NAME=VALUE",
        ),
        PlotError::UnknownAxis { name, agent, free } => CliError::usage(format!(
            "--map-range {name}: not a free parameter of `{agent}` (free: {})",
            free.join(", ")
        )),
        PlotError::Render(e) => CliError::msg(format!("cannot draw the picture: {e}")),
    }
}
