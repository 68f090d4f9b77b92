//! The flags of the points `vates collectives fit` and `skeleton` predict at (`-D` and
//! `--predict`), turned into `collectives::points` calls and their errors into messages
//! that name the flag.

use collectives::points::{self, PointsError};
use collectives::Table;

use crate::error::{CliError, Result};
use crate::input::Define;

/// A points error as a message naming `-D` (or `flag`).
fn error(flag: &str, e: PointsError) -> CliError {
    match e {
        PointsError::Grid(e) => CliError::with_help(format!("{flag}: {e}"), "predict fewer points"),
        PointsError::MissingP => {
            CliError::usage(format!("{flag}: give the processes, -D p=VALUES"))
        }
        PointsError::MissingD { ops } => CliError::usage(format!(
            "{flag}: give the message size too, -D d=VALUE: {} carry data",
            ops.join(", ")
        )),
        PointsError::UnknownName { name, known } => CliError::usage(format!(
            "{flag} {name}: the names are {}{}",
            known.join(", "),
            super::did_you_mean(&name, known.iter().map(String::as_str))
        )),
        e => CliError::usage(format!("{flag} {e}")),
    }
}

fn bindings(defines: &[Define]) -> Vec<(expr::Name, expr::grid::Values)> {
    defines
        .iter()
        .map(|d| (d.name.clone(), d.values.clone()))
        .collect()
}

/// The points of `--predict p=P,d=D`.
pub(super) fn points(given: &[String]) -> Result<Vec<(f64, f64)>> {
    let names = ["p".to_string(), "d".to_string()];
    given
        .iter()
        .map(|s| {
            let v = fit::run::parse_point(s, &names)
                .map_err(|e| CliError::usage(format!("--predict `{s}`: {e}")))?;
            let p = points::check_p(v[0]).map_err(|e| error("--predict", e))?;
            let d = points::check_d(v[1]).map_err(|e| error("--predict", e))?;
            Ok((p, d))
        })
        .collect()
}

/// The points of `-D p=… -D d=…` for the models of `table`.
pub(super) fn grid(defines: &[Define], table: &Table) -> Result<Vec<(f64, f64)>> {
    let sized: Vec<String> = table
        .groups()
        .into_iter()
        .filter(|g| g.has_size())
        .map(|g| g.op)
        .collect();
    points::model_points(&bindings(defines), &sized).map_err(|e| error("-D", e))
}

/// The points of `-D p=… -D NAME=…` for a skeleton with parameters `params`.
pub(super) fn skeleton_grid(
    defines: &[Define],
    params: &[&str],
) -> Result<Vec<points::SkeletonPoint>> {
    points::skeleton_points(&bindings(defines), params).map_err(|e| error("-D", e))
}
