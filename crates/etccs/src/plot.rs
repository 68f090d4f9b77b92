//! Pictures of ETCCS results: the execution times of a sweep against the swept constant
//! (one line per agent and measure, as the thesis's Tables 6-1 to 6-10 would be drawn), and
//! a parametric result's regions over its two free parameters.
//!
//! The x axis of a times plot is the first constant that takes more than one value; any
//! other swept constant splits each agent's lines into one line per combination of its
//! values. An agent with one execution time at every point gets one line; analyses without
//! times (parametric, non-terminating, stopped at a limit) leave no point.

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use sweep::{Block, Header, LineSpec, Lines, LinesConfig, Sink, Space};
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

/// One point of a sweep: per agent, in the run's order, its name and its times (`None`:
/// nothing to draw).
pub struct Column<'a> {
    /// The agents' times.
    pub agents: Vec<(&'a str, Option<Times>)>,
}

/// Checks that a times plot can be drawn over `space`, before any analysis runs: some
/// constant is swept, and the constants swept after the first have at most [`MAX_LINES`]
/// combinations.
///
/// # Errors
/// [`PlotError::NotSwept`], [`PlotError::TooManyGroups`].
pub fn check_sweep(space: &Space) -> Result<(), PlotError> {
    let mut swept = space.swept();
    if swept.next().is_none() {
        return Err(PlotError::NotSwept);
    }
    let groups = swept.fold(1u64, |g, (_, a)| g.saturating_mul(a.len()));
    if groups > MAX_LINES as u64 {
        return Err(PlotError::TooManyGroups { max: MAX_LINES });
    }
    Ok(())
}

/// The lines of the times plot of `cols`, one per point of `space` in order (see the
/// module docs), drawn by the sweep's line plot ([`sweep::Lines`]): per agent its max, mean
/// and min (one line when the agent has one time at every point), grouped by the constants
/// swept after the first.
///
/// # Errors
/// As [`check_sweep`], [`PlotError::NothingToDraw`] when no analysis has times, and
/// [`PlotError::TooManyLines`].
pub fn times_lines(space: &Space, cols: &[Column<'_>]) -> Result<Lines, PlotError> {
    check_sweep(space)?;
    let n = cols.len().min(space.len() as usize);
    let agents: Vec<&str> = cols
        .first()
        .map(|c| c.agents.iter().map(|(a, _)| *a).collect())
        .unwrap_or_default();
    // Three columns per agent: max, mean, min (NaN: no time there).
    let ncols = 3 * agents.len();
    let mut values = vec![f64::NAN; n * ncols];
    for (i, c) in cols.iter().take(n).enumerate() {
        for (k, (_, t)) in c.agents.iter().enumerate().take(agents.len()) {
            if let Some(t) = t {
                values[i * ncols + 3 * k..i * ncols + 3 * k + 3]
                    .copy_from_slice(&[t.max, t.mean, t.min]);
            }
        }
    }
    let mut series = Vec::new();
    for (k, agent) in agents.iter().enumerate() {
        let times = cols
            .iter()
            .filter_map(|c| c.agents.get(k).and_then(|a| a.1));
        if times.clone().all(|t| t.min == t.max) {
            series.push(LineSpec::new(3 * k, *agent));
        } else {
            series.push(LineSpec::new(3 * k, format!("{agent} max")));
            series.push(LineSpec::new(3 * k + 1, format!("{agent} mean")));
            series.push(LineSpec::new(3 * k + 2, format!("{agent} min")));
        }
    }
    let columns: Vec<String> = (0..ncols).map(|c| format!("c{c}")).collect();
    let header = Header {
        space,
        columns: &columns,
    };
    let naxes = space.axes().len();
    let mut params = vec![0.0; n * naxes];
    for (i, p) in params.chunks_mut(naxes.max(1)).enumerate().take(n) {
        if naxes > 0 {
            space.fill_f64(i as u64, p);
        }
    }
    let block = Block {
        start: 0,
        len: n,
        params: &params,
        values: &values,
        naxes,
        ncols,
    };
    let mut lines = Lines::new(LinesConfig {
        series,
        max_groups: MAX_LINES,
        max_points: u64::MAX,
        x_axis: None,
    });
    // In-memory sinks: nothing to write, nothing to fail.
    let _ = lines.begin(&header);
    let _ = lines.block(&header, &block);
    let drawn = lines.series().len();
    if drawn == 0 {
        return Err(PlotError::NothingToDraw);
    }
    if drawn > MAX_LINES {
        return Err(PlotError::TooManyLines {
            lines: drawn,
            max: MAX_LINES,
        });
    }
    Ok(lines)
}

/// The times plot of `cols` (one per point of `space`) for the model `model`, as SVG.
///
/// # Errors
/// As [`times_lines`], and [`PlotError::Render`].
pub fn times_svg(model: &str, space: &Space, cols: &[Column<'_>]) -> Result<String, PlotError> {
    let lines = times_lines(space, cols)?;
    let x = lines
        .x_axis()
        .map_or(String::new(), |a| space.axes()[a].name().to_string());
    lines
        .render_svg(
            &format!("{model}: execution time against {x}"),
            &x,
            "execution time",
            (800, 500),
        )
        .map_err(PlotError::Render)
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
    use expr::grid::parse_binding;

    fn space(bindings: &[&str]) -> Space {
        let b = bindings.iter().map(|s| parse_binding(s).unwrap()).collect();
        Space::new(b, 1000).unwrap()
    }

    fn times(min: f64, mean: f64, max: f64) -> Option<Times> {
        Some(Times { min, mean, max })
    }

    fn drawn(space: &Space, cols: &[Column<'_>]) -> Vec<(String, Vec<(f64, f64)>)> {
        times_lines(space, cols)
            .expect("lines")
            .series()
            .into_iter()
            .map(|s| (s.name, s.points))
            .collect()
    }

    #[test]
    fn one_line_per_agent_with_a_single_time_three_otherwise() {
        let s = space(&["p=2,3", "s=9"]);
        let cols = vec![
            Column {
                agents: vec![("A", times(1.0, 1.0, 1.0)), ("B", times(2.0, 2.0, 2.0))],
            },
            Column {
                agents: vec![("A", times(3.0, 3.0, 3.0)), ("B", times(4.0, 5.0, 7.0))],
            },
        ];
        assert_eq!(
            drawn(&s, &cols),
            vec![
                ("A".to_string(), vec![(2.0, 1.0), (3.0, 3.0)]),
                ("B max".to_string(), vec![(2.0, 2.0), (3.0, 7.0)]),
                ("B mean".to_string(), vec![(2.0, 2.0), (3.0, 5.0)]),
                ("B min".to_string(), vec![(2.0, 2.0), (3.0, 4.0)]),
            ]
        );
        assert_eq!(times_lines(&s, &cols).unwrap().x_axis(), Some(0));
    }

    #[test]
    fn a_second_swept_constant_splits_the_lines_and_gaps_are_skipped() {
        let s = space(&["p=2,4", "s=1,5"]);
        let at = |t: Option<Times>| Column {
            agents: vec![("A", t)],
        };
        let cols = vec![
            at(times(1.0, 1.0, 1.0)),
            at(times(5.0, 5.0, 5.0)),
            at(None),
            at(times(6.0, 6.0, 6.0)),
        ];
        assert_eq!(
            drawn(&s, &cols),
            vec![
                ("A (s=1)".to_string(), vec![(2.0, 1.0)]),
                ("A (s=5)".to_string(), vec![(2.0, 5.0), (4.0, 6.0)]),
            ]
        );
    }

    #[test]
    fn no_sweep_or_nothing_to_draw_is_an_error() {
        let one = space(&["p=2"]);
        let cols = [Column {
            agents: vec![("A", times(1.0, 1.0, 1.0))],
        }];
        assert_eq!(times_lines(&one, &cols).err(), Some(PlotError::NotSwept));
        let two = space(&["p=2,3"]);
        let none: Vec<Column<'_>> = (0..2)
            .map(|_| Column {
                agents: vec![("A", None)],
            })
            .collect();
        assert_eq!(
            times_lines(&two, &none).err(),
            Some(PlotError::NothingToDraw)
        );
        let many = space(&["p=1,2", "s=1..30"]);
        assert_eq!(
            check_sweep(&many),
            Err(PlotError::TooManyGroups { max: MAX_LINES })
        );
    }
}
