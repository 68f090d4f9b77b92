//! `vates etccs analyse --map FILE.svg`: a picture of a parametric result over its two free
//! parameters, one colour per distinct result (expressions and probabilities).

use std::path::Path;

use etccs::parametric::ParamAnalysis;
use num_rational::BigRational;
use num_traits::Zero;

use crate::error::{write_file, CliError};

/// Grid points per axis.
const STEPS: usize = 48;

/// An axis range given as `NAME=LO..HI`.
#[derive(Debug, Clone, PartialEq)]
pub struct AxisRange {
    name: String,
    lo: f64,
    hi: f64,
}

/// Parses `NAME=LO..HI` (numbers may be decimals; `LO < HI`).
pub fn parse_range(s: &str) -> Result<AxisRange, CliError> {
    let bad = |why: &str| {
        CliError::usage(format!(
            "--map-range {s}: {why}; expected NAME=LO..HI, e.g. b=0..2"
        ))
    };
    let (name, range) = s.split_once('=').ok_or_else(|| bad("no `=`"))?;
    let (lo, hi) = range.split_once("..").ok_or_else(|| bad("no `..`"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| bad(&format!("`{t}` is not a number")))
    };
    let (lo, hi) = (num(lo)?, num(hi)?);
    if lo >= hi || hi <= 0.0 {
        return Err(bad("the range must be increasing and reach above 0"));
    }
    Ok(AxisRange {
        name: name.trim().to_string(),
        lo: lo.max(0.0),
        hi,
    })
}

/// Where the constraints of the result cross the axis of `p` (other parameters at 0):
/// twice the largest crossing makes a range that shows every boundary near the origin.
fn default_hi(a: &ParamAnalysis, p: usize) -> f64 {
    let mut best: f64 = 0.0;
    let constraints = a
        .regions
        .iter()
        .flat_map(|r| r.constraints.iter())
        .chain(a.domain.iter());
    for c in constraints {
        let coef = c.expr.coef(etccs::linear::Param(p as u32));
        if coef.is_zero() {
            continue;
        }
        let x = c.expr.constant_part().neg().mul(&coef.recip());
        if x.is_positive() {
            best = best.max(x.to_f64().unwrap_or(0.0));
        }
    }
    if best > 0.0 {
        2.0 * best
    } else {
        10.0
    }
}

/// Renders the region map of `a` to `path`.
pub fn write_map(a: &ParamAnalysis, ranges: &[AxisRange], path: &Path) -> Result<(), CliError> {
    if a.free.len() != 2 {
        return Err(CliError::with_help(
            format!(
                "--map needs an agent with two free parameters; `{}` has {} ({})",
                a.name,
                a.free.len(),
                a.free.join(", ")
            ),
            "give the other parameters values with --const NAME=VALUE",
        ));
    }
    for r in ranges {
        if !a.free.contains(&r.name) {
            return Err(CliError::usage(format!(
                "--map-range {}: not a free parameter of `{}` (free: {})",
                r.name,
                a.name,
                a.free.join(", ")
            )));
        }
    }
    let index = |n: &str| {
        a.params
            .iter()
            .position(|p| p == n)
            .expect("free is a param")
    };
    let (ix, iy) = (index(&a.free[0]), index(&a.free[1]));
    let axis = |i: usize, name: &str| {
        ranges
            .iter()
            .find(|r| r.name == name)
            .map_or((0.0, default_hi(a, i)), |r| (r.lo, r.hi))
    };
    let (x0, x1) = axis(ix, &a.free[0]);
    let (y0, y1) = axis(iy, &a.free[1]);
    // One series per distinct result text; the legend names it once.
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    let mut values = vec![BigRational::zero(); a.params.len()];
    for i in 0..=STEPS {
        for j in 0..=STEPS {
            let x = x0 + (x1 - x0) * i as f64 / STEPS as f64;
            let y = y0 + (y1 - y0) * j as f64 / STEPS as f64;
            values[ix] = BigRational::from_float(x).unwrap_or_default();
            values[iy] = BigRational::from_float(y).unwrap_or_default();
            let Some(r) = a.region_at(&values) else {
                continue;
            };
            let label = a.results_text(r);
            match series.iter_mut().find(|(l, _)| *l == label) {
                Some((_, pts)) => pts.push((x, y)),
                None => series.push((label, vec![(x, y)])),
            }
        }
    }
    let plot = trace::plot::ScatterPlot {
        title: format!("{}: execution time by region", a.name),
        x_label: a.free[0].clone(),
        y_label: a.free[1].clone(),
        series: series
            .into_iter()
            .map(|(l, pts)| trace::plot::Series::new(l, pts))
            .collect(),
        hlines: Vec::new(),
    };
    let svg = plot
        .render_svg(800, 600)
        .map_err(|e| CliError::msg(format!("cannot draw the region map: {e}")))?;
    write_file(path, svg.as_bytes())
}
