//! Pictures of ETCCS results: the execution times of a sweep against the swept constant
//! (one line per agent and measure, as the thesis's Tables 6-1 to 6-10 would be drawn), and
//! a parametric result's regions over its two free parameters.
//!
//! The x axis of a times plot is the first constant that takes more than one value; any
//! other swept constant splits each agent's lines into one line per combination of its
//! values. An agent with one execution time at every point gets one line; analyses without
//! times (parametric, non-terminating, stopped at a limit) leave no point.

use expr::{Name, Rational};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use trace::plot::{LinePlot, Series};
use trace::TraceError;

use crate::parametric::ParamAnalysis;
use crate::{Analysis, Report, Time};

/// Why a picture cannot be drawn.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum PlotError {
    /// A times plot needs a constant that takes more than one value.
    #[error("a plot of times needs a swept constant")]
    NotSwept,
    /// More combinations of the other swept constants than lines a plot can show.
    #[error("more than {max} combinations of the constants swept after the first")]
    TooManyGroups {
        /// The most lines.
        max: usize,
    },
    /// No analysis of the sweep has execution times.
    #[error("no analysis of the sweep has execution times to draw")]
    NothingToDraw,
    /// More lines than a plot can show.
    #[error("the plot would draw {lines} lines (at most {max})")]
    TooManyLines {
        /// The lines.
        lines: usize,
        /// The most lines.
        max: usize,
    },
    /// A region map needs an agent with exactly two free parameters.
    #[error("a region map needs an agent with two free parameters; `{agent}` has {} ({})", free.len(), free.join(", "))]
    FreeParameters {
        /// The agent.
        agent: String,
        /// Its free parameters.
        free: Vec<String>,
    },
    /// A map axis range names no free parameter.
    #[error("`{name}` is not a free parameter of `{agent}` (free: {})", free.join(", "))]
    UnknownAxis {
        /// The name given.
        name: String,
        /// The agent.
        agent: String,
        /// Its free parameters.
        free: Vec<String>,
    },
    /// The plotting back end failed.
    #[error("cannot draw the picture: {0}")]
    Render(TraceError),
}

/// At most this many lines in one plot (the palette has ten colours; more become unreadable).
pub const MAX_LINES: usize = 24;

/// The times of one analysis that the plot draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Times {
    /// The fastest run.
    pub min: f64,
    /// The expectation of PEXEC.
    pub mean: f64,
    /// The slowest run.
    pub max: f64,
}

impl Times {
    /// The times of a concrete analysis that terminates; `None` for any other report.
    pub fn of(r: &Report) -> Option<Times> {
        match r {
            Report::Concrete(a) => Times::of_analysis(a),
            Report::Parametric(_) => None,
        }
    }

    /// The times of a concrete analysis; `None` if it does not terminate.
    pub fn of_analysis(a: &Analysis) -> Option<Times> {
        let f = |t: &Time| t.to_f64().filter(|v| v.is_finite());
        Some(Times {
            min: f(&a.min.as_ref()?.time)?,
            mean: f(&a.mean()?)?,
            max: f(&a.max.as_ref()?.time)?,
        })
    }
}

/// One point of the sweep: the constants' values and, per agent, its times.
pub struct Column<'a> {
    /// The assignment of the swept constants.
    pub consts: &'a [(Name, Rational)],
    /// Per agent, in the run's order: its name and times (`None`: nothing to draw).
    pub agents: Vec<(&'a str, Option<Times>)>,
}

/// The shape of a sweep: the x axis and the line groups.
pub struct Sweep {
    /// The position of the x-axis constant.
    x: usize,
    /// The positions of the other swept constants.
    others: Vec<usize>,
    /// Their combinations of values, in order of first appearance: one group of lines each.
    groups: Vec<Vec<Rational>>,
}

impl Sweep {
    /// The shape of the sweep over the assignments `points` (all of the same constants);
    /// an error if nothing is swept, or if there are more groups than a plot can show
    /// (which the caller can check before running any analysis).
    pub fn of(points: &[&[(Name, Rational)]]) -> Result<Sweep, PlotError> {
        let first = points.first().ok_or(PlotError::NotSwept)?;
        // The constants that vary over the sweep, by position.
        let varies: Vec<usize> = (0..first.len())
            .filter(|&i| points.iter().any(|c| c[i].1 != first[i].1))
            .collect();
        let Some((&x, others)) = varies.split_first() else {
            return Err(PlotError::NotSwept);
        };
        let mut sweep = Sweep {
            x,
            others: others.to_vec(),
            groups: Vec::new(),
        };
        for c in points {
            let g = sweep.group_of(c);
            if !sweep.groups.contains(&g) {
                if sweep.groups.len() == MAX_LINES {
                    return Err(PlotError::TooManyGroups { max: MAX_LINES });
                }
                sweep.groups.push(g);
            }
        }
        Ok(sweep)
    }

    /// The values of the other swept constants at `c`.
    fn group_of(&self, c: &[(Name, Rational)]) -> Vec<Rational> {
        self.others.iter().map(|&i| c[i].1.clone()).collect()
    }
}

/// The x axis label and the lines of the plot of `cols` (see the module docs).
pub fn lines(cols: &[Column<'_>]) -> Result<(String, Vec<Series>), PlotError> {
    let consts: Vec<&[(Name, Rational)]> = cols.iter().map(|c| c.consts).collect();
    let sweep = Sweep::of(&consts)?;
    let (x, others, groups) = (sweep.x, &sweep.others, &sweep.groups);
    let first = &cols[0];
    let mut out = Vec::new();
    for (k, (agent, _)) in first.agents.iter().enumerate() {
        for g in groups {
            let pts: Vec<(f64, Times)> = cols
                .iter()
                .filter(|c| &sweep.group_of(c.consts) == g)
                .filter_map(|c| {
                    let t = c.agents.get(k)?.1?;
                    Some((c.consts[x].1.to_f64()?, t))
                })
                .collect();
            if pts.is_empty() {
                continue;
            }
            let mut name = agent.to_string();
            if !others.is_empty() {
                let at: Vec<String> = others
                    .iter()
                    .zip(g)
                    .map(|(&i, v)| format!("{}={v}", first.consts[i].0))
                    .collect();
                name = format!("{name} ({})", at.join(", "));
            }
            let line = |f: fn(&Times) -> f64| pts.iter().map(|(x, t)| (*x, f(t))).collect();
            if pts.iter().all(|(_, t)| t.min == t.max) {
                out.push(Series::new(name, line(|t| t.max)));
            } else {
                out.push(Series::new(format!("{name} max"), line(|t| t.max)));
                out.push(Series::new(format!("{name} mean"), line(|t| t.mean)));
                out.push(Series::new(format!("{name} min"), line(|t| t.min)));
            }
        }
    }
    if out.is_empty() {
        return Err(PlotError::NothingToDraw);
    }
    if out.len() > MAX_LINES {
        return Err(PlotError::TooManyLines {
            lines: out.len(),
            max: MAX_LINES,
        });
    }
    Ok((first.consts[x].0.to_string(), out))
}

/// The times plot of `cols` for the model `model`, as SVG.
///
/// # Errors
/// As [`lines`], and [`PlotError::Render`].
pub fn times_svg(model: &str, cols: &[Column<'_>]) -> Result<String, PlotError> {
    let (x, series) = lines(cols)?;
    let plot = LinePlot {
        title: format!("{model}: execution time against {x}"),
        x_label: x,
        y_label: "execution time".to_string(),
        series,
        log_x: false,
        log_y: false,
    };
    plot.render_svg(800, 500).map_err(PlotError::Render)
}

/// Grid points per axis.
const MAP_STEPS: usize = 48;

/// The range of one axis of a region map.
#[derive(Debug, Clone, PartialEq)]
pub struct AxisRange {
    /// The free parameter.
    pub name: String,
    /// The lower end (at least 0).
    pub lo: f64,
    /// The upper end.
    pub hi: f64,
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
        let coef = c.expr.coef(crate::linear::Param(p as u32));
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

/// The region map of `a` over its two free parameters as SVG: the result at each point of
/// a grid, one colour per distinct result. Axes without a range in `ranges` run from 0 to
/// twice the farthest boundary crossing.
///
/// # Errors
/// [`PlotError::FreeParameters`] unless `a` has exactly two free parameters,
/// [`PlotError::UnknownAxis`] for a range of another name, [`PlotError::Render`].
pub fn region_map_svg(a: &ParamAnalysis, ranges: &[AxisRange]) -> Result<String, PlotError> {
    if a.free.len() != 2 {
        return Err(PlotError::FreeParameters {
            agent: a.name.clone(),
            free: a.free.clone(),
        });
    }
    for r in ranges {
        if !a.free.contains(&r.name) {
            return Err(PlotError::UnknownAxis {
                name: r.name.clone(),
                agent: a.name.clone(),
                free: a.free.clone(),
            });
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
    for i in 0..=MAP_STEPS {
        for j in 0..=MAP_STEPS {
            let x = x0 + (x1 - x0) * i as f64 / MAP_STEPS as f64;
            let y = y0 + (y1 - y0) * j as f64 / MAP_STEPS as f64;
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
    plot.render_svg(800, 600).map_err(PlotError::Render)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn consts(vals: &[(&str, i64)]) -> Vec<(Name, Rational)> {
        vals.iter()
            .map(|(n, v)| (Name::from(*n), Rational::from_integer((*v).into())))
            .collect()
    }

    fn times(min: f64, mean: f64, max: f64) -> Option<Times> {
        Some(Times { min, mean, max })
    }

    #[test]
    fn one_line_per_agent_with_a_single_time_three_otherwise() {
        let c = [consts(&[("p", 2), ("s", 9)]), consts(&[("p", 3), ("s", 9)])];
        let cols = vec![
            Column {
                consts: &c[0],
                agents: vec![("A", times(1.0, 1.0, 1.0)), ("B", times(2.0, 2.0, 2.0))],
            },
            Column {
                consts: &c[1],
                agents: vec![("A", times(3.0, 3.0, 3.0)), ("B", times(4.0, 5.0, 7.0))],
            },
        ];
        let (x, lines) = lines(&cols).expect("lines");
        assert_eq!(x, "p");
        let got: Vec<(&str, &[(f64, f64)])> = lines
            .iter()
            .map(|s| (s.name.as_str(), &s.points[..]))
            .collect();
        assert_eq!(
            got,
            vec![
                ("A", &[(2.0, 1.0), (3.0, 3.0)][..]),
                ("B max", &[(2.0, 2.0), (3.0, 7.0)][..]),
                ("B mean", &[(2.0, 2.0), (3.0, 5.0)][..]),
                ("B min", &[(2.0, 2.0), (3.0, 4.0)][..]),
            ]
        );
    }

    #[test]
    fn a_second_swept_constant_splits_the_lines_and_gaps_are_skipped() {
        let c = [
            consts(&[("p", 2), ("s", 1)]),
            consts(&[("p", 2), ("s", 5)]),
            consts(&[("p", 4), ("s", 1)]),
            consts(&[("p", 4), ("s", 5)]),
        ];
        let at = |i: usize, t: Option<Times>| Column {
            consts: &c[i],
            agents: vec![("A", t)],
        };
        let cols = vec![
            at(0, times(1.0, 1.0, 1.0)),
            at(1, times(5.0, 5.0, 5.0)),
            at(2, None),
            at(3, times(6.0, 6.0, 6.0)),
        ];
        let (x, lines) = lines(&cols).expect("lines");
        assert_eq!(x, "p");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].name, "A (s=1)");
        assert_eq!(lines[0].points, vec![(2.0, 1.0)]);
        assert_eq!(lines[1].name, "A (s=5)");
        assert_eq!(lines[1].points, vec![(2.0, 5.0), (4.0, 6.0)]);
    }

    #[test]
    fn no_sweep_or_nothing_to_draw_is_an_error_with_the_fix() {
        let c = [consts(&[("p", 2)])];
        let one = vec![Column {
            consts: &c[0],
            agents: vec![("A", times(1.0, 1.0, 1.0))],
        }];
        assert_eq!(lines(&one).expect_err("one point"), PlotError::NotSwept);
        let c = [consts(&[("p", 2)]), consts(&[("p", 3)])];
        let none: Vec<Column<'_>> = c
            .iter()
            .map(|c| Column {
                consts: c,
                agents: vec![("A", None)],
            })
            .collect();
        assert_eq!(
            lines(&none).expect_err("no times"),
            PlotError::NothingToDraw
        );
    }
}
