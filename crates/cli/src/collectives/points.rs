//! The points `vates collectives fit` and `skeleton` predict at: `-D` grids and `--predict`,
//! each checked.

use collectives::Table;

use crate::error::{CliError, Result};

/// The points of `--predict p=P,d=D`.
pub(super) fn points(given: &[String]) -> Result<Vec<(f64, f64)>> {
    let names = ["p".to_string(), "d".to_string()];
    given
        .iter()
        .map(|s| {
            let v = fit::run::parse_point(s, &names)
                .map_err(|e| CliError::usage(format!("--predict `{s}`: {e}")))?;
            check_p(v[0])?;
            check_d(v[1])?;
            Ok((v[0], v[1]))
        })
        .collect()
}

/// The points of `-D p=… -D d=…`: every combination, at most 10,000.
pub(super) fn grid(defines: &[crate::input::Define], table: &Table) -> Result<Vec<(f64, f64)>> {
    if defines.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(d) = defines.iter().find(|d| !["p", "d"].contains(&&*d.name)) {
        return Err(CliError::usage(format!(
            "-D {}: the models' parameters are p (processes) and d (message size)",
            d.text
        )));
    }
    let has = |n: &str| defines.iter().any(|d| &*d.name == n);
    if !has("p") {
        return Err(CliError::usage("-D: give the processes, -D p=VALUE"));
    }
    let sized: Vec<String> = table
        .groups()
        .into_iter()
        .filter(|g| g.has_size())
        .map(|g| g.op)
        .collect();
    if !has("d") && !sized.is_empty() {
        return Err(CliError::usage(format!(
            "-D: give the message size too, -D d=VALUE: {} carry data",
            sized.join(", ")
        )));
    }
    let bindings = defines
        .iter()
        .map(|d| (d.name.clone(), d.values.clone()))
        .collect();
    let g = expr::grid::Grid::with_limit(bindings, 10_000)
        .map_err(|e| CliError::with_help(format!("-D: {e}"), "predict fewer points"))?;
    let (ip, id) = (
        g.names().iter().position(|n| &**n == "p"),
        g.names().iter().position(|n| &**n == "d"),
    );
    g.points_f64()
        .map(|v| {
            let (p, d) = (ip.map_or(0.0, |i| v[i]), id.map_or(0.0, |i| v[i]));
            check_p(p)?;
            check_d(d)?;
            Ok((p, d))
        })
        .collect()
}

/// A process count given with -D: a whole number from 1 to the tables' largest.
pub(super) fn check_p(p: f64) -> Result<()> {
    let max = f64::from(collectives::table::MAX_P);
    if p.fract() != 0.0 || !(1.0..=max).contains(&p) {
        return Err(CliError::usage(format!(
            "-D p={}: p is a number of processes, a whole number from 1 to {max}",
            trace::text::num(p)
        )));
    }
    Ok(())
}

/// A message size given with -D: from 0 to 1e15.
fn check_d(d: f64) -> Result<()> {
    if !(0.0..=1e15).contains(&d) {
        return Err(CliError::usage(format!(
            "-D d={}: d is a message size, from 0 to 1e15",
            trace::text::num(d)
        )));
    }
    Ok(())
}
