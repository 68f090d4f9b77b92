//! `vates etccs analyse --const p=2..8 --plot FILE.svg`: the execution times of a sweep
//! against the swept constant, one line per agent and measure (min, mean, max), as the
//! thesis's Tables 6-1 to 6-10 would be drawn.
//!
//! The x axis is the first constant that takes more than one value; any other swept
//! constant splits each agent's lines into one line per combination of its values. An
//! agent with one execution time at every point gets one line; analyses without times
//! (parametric, non-terminating, stopped at a limit) leave no point.

use std::path::Path;

use expr::{Name, Rational};
use num_traits::ToPrimitive;
use trace::plot::{LinePlot, Series};

use crate::error::{write_file, CliError};

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
    pub fn of(r: &etccs::Report) -> Option<Times> {
        match r {
            etccs::Report::Concrete(a) => Times::of_analysis(a),
            etccs::Report::Parametric(_) => None,
        }
    }

    /// The times of a concrete analysis; `None` if it does not terminate.
    pub fn of_analysis(a: &etccs::Analysis) -> Option<Times> {
        let f = |t: &etccs::Time| t.to_f64().filter(|v| v.is_finite());
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
    pub fn of(points: &[&[(Name, Rational)]]) -> Result<Sweep, CliError> {
        let first = points
            .first()
            .ok_or_else(|| CliError::usage("--plot needs a sweep: give --const NAME=LO..HI"))?;
        // The constants that vary over the sweep, by position.
        let varies: Vec<usize> = (0..first.len())
            .filter(|&i| points.iter().any(|c| c[i].1 != first[i].1))
            .collect();
        let Some((&x, others)) = varies.split_first() else {
            return Err(CliError::usage(
                "--plot draws times against a swept constant: give a range or list, e.g. --const p=2..8",
            ));
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
                    return Err(CliError::usage(format!(
                        "--plot draws one line per value of the constants swept after the first \
                         (at most {MAX_LINES}): sweep fewer values"
                    )));
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
pub fn lines(cols: &[Column<'_>]) -> Result<(String, Vec<Series>), CliError> {
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
        return Err(CliError::usage(
            "--plot: no analysis of the sweep has execution times to draw (parametric, \
             non-terminating and stopped analyses have none); choose agents with --agent NAME",
        ));
    }
    if out.len() > MAX_LINES {
        return Err(CliError::usage(format!(
            "--plot would draw {} lines (at most {MAX_LINES}): choose agents with --agent NAME \
             or sweep fewer constants",
            out.len()
        )));
    }
    Ok((first.consts[x].0.to_string(), out))
}

/// Draws the plot of `cols` for the model `model` and writes it to `path`.
pub fn write_plot(model: &str, cols: &[Column<'_>], path: &Path) -> Result<(), CliError> {
    let (x, series) = lines(cols)?;
    let plot = LinePlot {
        title: format!("{model}: execution time against {x}"),
        x_label: x,
        y_label: "execution time".to_string(),
        series,
        log_x: false,
        log_y: false,
    };
    let svg = plot
        .render_svg(800, 500)
        .map_err(|e| CliError::msg(format!("cannot draw the plot: {e}")))?;
    write_file(path, svg.as_bytes())
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
        let e = format!("{:?}", lines(&one).expect_err("one point"));
        assert!(e.contains("--const p=2..8"), "{e}");
        let c = [consts(&[("p", 2)]), consts(&[("p", 3)])];
        let none: Vec<Column<'_>> = c
            .iter()
            .map(|c| Column {
                consts: c,
                agents: vec![("A", None)],
            })
            .collect();
        let e = format!("{:?}", lines(&none).expect_err("no times"));
        assert!(e.contains("--agent NAME"), "{e}");
    }
}
