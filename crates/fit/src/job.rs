//! The front door of a modelling run: the measurements, the series chosen, the points to
//! predict and the search's options in one value, and one call ([`Job::run`]) that checks
//! them, models every series and predicts at every point.
//!
//! ```
//! use fit::job::Job;
//! use fit::read::{self, csv::CsvOptions};
//!
//! let text = "p,time\n1,2.0\n2,4.1\n4,7.9\n8,16.2\n16,31.8\n";
//! let e = read::read(read::Format::Csv, "runs.csv", text, &CsvOptions::default()).unwrap();
//! let job = Job {
//!     points: vec!["p=64".into()],
//!     ..Job::new(e)
//! };
//! let fitted = job.run().unwrap();
//! let entries = fitted.entries();
//! assert_eq!(entries.len(), 1);
//! let at64 = entries[0].predictions[0].value;
//! assert!((at64 / 128.0 - 1.0).abs() < 0.1, "{at64}");
//! ```

use expr::grid::{Grid, GridError, Values};
use expr::Name;

use crate::read::{Experiment, Series};
use crate::report::{self, Entry, PlotError};
use crate::run::{model_experiment, parse_point, RunOptions, SeriesModel};
use crate::{FitError, UserBasis};

/// The most prediction points the bindings may give.
pub const MAX_POINTS: u64 = 10_000;

/// A modelling run.
#[derive(Clone, Debug)]
pub struct Job {
    /// The measurements.
    pub experiment: Experiment,
    /// Only the series of this callpath.
    pub callpath: Option<String>,
    /// Only the series of these metrics (none: all).
    pub metrics: Vec<String>,
    /// Model the metric times this parameter (strong scaling).
    pub times: Option<String>,
    /// Prediction points as bindings: one value, a list or a range per parameter; every
    /// combination is a point.
    pub bindings: Vec<(Name, Values)>,
    /// Prediction points as text, `p=1024,n=10`.
    pub points: Vec<String>,
    /// Basis functions for the `vates` modeler to try beside the PMNF blocks.
    pub terms: Vec<String>,
    /// Also try negative exponents (decreasing terms).
    pub negative_exponents: bool,
    /// The search and its bootstrap; `times_param` is set from [`Job::times`], and the
    /// bootstrap runs only when there are points to predict.
    pub options: RunOptions,
}

/// Why a modelling run cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A callpath the measurements do not have.
    #[error("{0}")]
    UnknownCallpath(String),
    /// A metric the measurements do not have, or no series with it.
    #[error("{0}")]
    UnknownMetric(String),
    /// The strong-scaling parameter is not a parameter.
    #[error("{name}: no such parameter; {hint}")]
    UnknownTimes {
        /// The name given.
        name: String,
        /// The closest parameter, or the list of them.
        hint: String,
    },
    /// A binding names no parameter of the measurements.
    #[error("no parameter `{name}` in the measurements; {hint}")]
    UnknownParam {
        /// The name bound.
        name: String,
        /// The closest parameter, or the list of them.
        hint: String,
    },
    /// The bindings leave a parameter without a value.
    #[error("binds no value for the parameter `{name}`")]
    Unbound {
        /// The parameter.
        name: String,
    },
    /// The bindings' grid cannot be made (a bad range, or more than [`MAX_POINTS`] points:
    /// [`GridError::TooManyPoints`]).
    #[error(transparent)]
    Grid(GridError),
    /// A text point that cannot be read.
    #[error("`{text}`: {message}")]
    Point {
        /// The point as given.
        text: String,
        /// Why.
        message: String,
    },
    /// Basis functions are tried by the `vates` modeler only.
    #[error("adds basis functions to the vates modeler")]
    TermsNeedVates,
    /// A basis function that cannot be read.
    #[error("{0}")]
    Term(String),
    /// A series that could not be modelled.
    #[error("{series}: {error}")]
    Series {
        /// `callpath / metric`, or the metric.
        series: String,
        /// Why.
        error: FitError,
    },
}

impl diag::Advise for JobError {
    /// A series that cannot be modelled is an error in the data ([`FitError`]'s advice), as
    /// too many points ([`GridError::TooManyPoints`], a limit); the others are usage errors
    /// whose message says what to change.
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            JobError::Series { error, .. } => diag::Advise::advice(error),
            JobError::Grid(GridError::TooManyPoints { .. }) => Some(diag::Advice::fix("")),
            JobError::Unbound { name } => Some(diag::Advice::usage(format!(
                "give every parameter one, e.g. {{define}} {name}=…"
            ))),
            JobError::TermsNeedVates => Some(diag::Advice::usage("drop {modeler} extrap")),
            _ => None,
        }
    }
}

impl JobError {
    /// The input the message is about, as a key of [`diag::Advice`], and what joins it to
    /// the message (`callpath`, `": "`: the command line shows `--callpath: no callpath …`);
    /// `None` for a binding's name (the front end shows the binding as given) and a
    /// series (the file).
    pub fn input(&self) -> Option<(&'static str, &'static str)> {
        Some(match self {
            JobError::UnknownCallpath(_) => ("callpath", ": "),
            JobError::UnknownMetric(_) => ("metric", ": "),
            JobError::UnknownTimes { .. } => ("times", " "),
            JobError::Unbound { .. } => ("define", " "),
            JobError::Grid(_) => ("define", ": "),
            JobError::Point { .. } => ("predict", " "),
            JobError::TermsNeedVates | JobError::Term(_) => ("term", " "),
            JobError::UnknownParam { .. } | JobError::Series { .. } => return None,
        })
    }
}

/// Why [`Fitted::plot_one`] draws nothing.
#[derive(Debug, thiserror::Error)]
pub enum PlotRefusal {
    /// More than one series was modelled.
    #[error("draws one series but {0} were modelled")]
    Several(usize),
    /// The series cannot be drawn (more than one parameter).
    #[error(transparent)]
    Plot(PlotError),
}

impl diag::Advise for PlotRefusal {
    /// Choose a series, or a file of one parameter (usage errors).
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::usage(match self {
            PlotRefusal::Several(_) => "choose one with {callpath} and {metric}",
            PlotRefusal::Plot(_) => "plot a one-parameter file, or omit {plot}",
        }))
    }
}

impl PlotRefusal {
    /// The input the message is about (the plot), and what joins it to the message.
    pub fn input(&self) -> Option<(&'static str, &'static str)> {
        Some(match self {
            PlotRefusal::Several(_) => ("plot", " "),
            PlotRefusal::Plot(_) => ("plot", ": "),
        })
    }
}

/// The models of a run and the points they predict.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The search that chose the models.
    pub modeler: crate::run::Modeler,
    /// The parameters' names.
    pub names: Vec<String>,
    /// The series modelled, in the file's order.
    pub series: Vec<Series>,
    /// Their models, in the same order.
    pub models: Vec<SeriesModel>,
    /// The prediction points, a value per parameter.
    pub points: Vec<Vec<f64>>,
}

impl Job {
    /// A run of the default search over the series of a file read as asked (the metrics
    /// chosen kept), predicting nowhere.
    pub fn loaded(l: crate::read::Loaded) -> Self {
        Job {
            metrics: l.metrics,
            ..Job::new(l.experiment)
        }
    }

    /// A run of the default search over every series, predicting nowhere.
    pub fn new(experiment: Experiment) -> Self {
        Job {
            experiment,
            callpath: None,
            metrics: Vec::new(),
            times: None,
            bindings: Vec::new(),
            points: Vec::new(),
            terms: Vec::new(),
            negative_exponents: false,
            options: RunOptions::default(),
        }
    }

    /// Checks the run, models every chosen series and keeps the prediction points.
    ///
    /// # Errors
    /// See [`JobError`]: names the measurements do not have, points that cannot be made,
    /// and the first series that cannot be modelled.
    pub fn run(self) -> Result<Fitted, JobError> {
        let mut e = self.experiment;
        let names = e.parameters.clone();
        let callpath_known = self
            .callpath
            .as_ref()
            .is_none_or(|c| e.callpaths().contains(&c.as_str()));
        e.select(self.callpath.as_deref(), &self.metrics)
            .map_err(|m| match callpath_known {
                true => JobError::UnknownMetric(m),
                false => JobError::UnknownCallpath(m),
            })?;
        let mut opts = self.options;
        opts.times_param =
            match &self.times {
                None => None,
                Some(t) => Some(names.iter().position(|n| n == t).ok_or_else(|| {
                    JobError::UnknownTimes {
                        name: t.clone(),
                        hint: hint(t, &names),
                    }
                })?),
            };
        let mut points = grid_points(&self.bindings, &names)?;
        for p in &self.points {
            points.push(parse_point(p, &names).map_err(|message| JobError::Point {
                text: p.clone(),
                message,
            })?);
        }
        // Intervals are only shown with predictions.
        if points.is_empty() {
            opts.bootstrap = 0;
        }
        if !self.terms.is_empty() && opts.modeler != crate::run::Modeler::Vates {
            return Err(JobError::TermsNeedVates);
        }
        for t in &self.terms {
            opts.vates
                .user
                .push(UserBasis::new(t, &names).map_err(JobError::Term)?);
        }
        opts.vates.blocks.negative |= self.negative_exponents;
        opts.extrap.blocks.negative |= self.negative_exponents;
        let models = e
            .series
            .iter()
            .zip(model_experiment(&e, &opts))
            .map(|(s, r)| {
                r.map_err(|error| JobError::Series {
                    series: if s.callpath.is_empty() {
                        s.metric.clone()
                    } else {
                        format!("{} / {}", s.callpath, s.metric)
                    },
                    error,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Fitted {
            modeler: opts.modeler,
            names,
            series: e.series,
            models,
            points,
        })
    }
}

impl Fitted {
    /// Every model with its predictions at the points, in the file's order, or fastest
    /// growing first when `ranked`.
    pub fn entries(&self) -> Vec<Entry<'_>> {
        self.models
            .iter()
            .map(|m| Entry {
                model: m,
                predictions: self
                    .points
                    .iter()
                    .map(|p| m.predict(&self.names, p))
                    .collect(),
            })
            .collect()
    }

    /// The report in `format`: the models with their predictions, or with `rank` (text
    /// only) the ranking by growth.
    pub fn report(&self, format: report::Format, rank: bool) -> String {
        let (names, entries) = (&self.names, self.entries());
        let modeler = diag::Choice::name(self.modeler);
        match format {
            report::Format::Latex => report::latex(names, &entries),
            report::Format::Json => report::json_text(&report::json(modeler, names, &entries)),
            report::Format::Text if rank => report::rank_text(names, &self.ranked()),
            report::Format::Text => report::text(modeler, names, &entries),
        }
    }

    /// The models, fastest growing first.
    pub fn ranked(&self) -> Vec<&SeriesModel> {
        report::rank(&self.models.iter().collect::<Vec<_>>())
    }

    /// [`Fitted::plot`], refusing what it cannot draw.
    ///
    /// # Errors
    /// A [`PlotRefusal`].
    pub fn plot_one(&self) -> Result<String, PlotRefusal> {
        match self.plot() {
            None => Err(PlotRefusal::Several(self.models.len())),
            Some(r) => r.map_err(PlotRefusal::Plot),
        }
    }

    /// The SVG plot of the one series modelled, extrapolated to the largest point.
    ///
    /// # Errors
    /// `None` when more than one series was modelled; a plot error when the series has
    /// more than one parameter.
    pub fn plot(&self) -> Option<Result<String, PlotError>> {
        let ([m], [s]) = (&self.models[..], &self.series[..]) else {
            return None;
        };
        let to = self.points.iter().map(|p| p[0]).fold(f64::NAN, f64::max);
        Some(report::plot(
            m,
            s,
            &self.names,
            Some(to).filter(|t| t.is_finite()),
        ))
    }
}

/// The closest of `names` to `name`, or the list of them.
fn hint(name: &str, names: &[String]) -> String {
    diag::did_you_mean(&diag::suggest(name, names.iter().map(String::as_str)))
        .unwrap_or_else(|| format!("the parameters are {}", names.join(", ")))
}

/// The points of `bindings`: every combination of their values, each as one value per
/// parameter of `names`.
fn grid_points(bindings: &[(Name, Values)], names: &[String]) -> Result<Vec<Vec<f64>>, JobError> {
    if bindings.is_empty() {
        return Ok(Vec::new());
    }
    if let Some((n, _)) = bindings
        .iter()
        .find(|(n, _)| !names.iter().any(|k| *k == **n))
    {
        return Err(JobError::UnknownParam {
            name: n.to_string(),
            hint: hint(n, names),
        });
    }
    if let Some(n) = names
        .iter()
        .find(|n| !bindings.iter().any(|(b, _)| **b == ***n))
    {
        return Err(JobError::Unbound { name: n.clone() });
    }
    let grid = Grid::with_limit(bindings.to_vec(), MAX_POINTS).map_err(JobError::Grid)?;
    let at: Vec<usize> = names
        .iter()
        .map(|n| grid.names().iter().position(|g| **g == **n).unwrap_or(0))
        .collect();
    Ok(grid
        .points_f64()
        .map(|p| at.iter().map(|&k| p[k]).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{self, csv::CsvOptions};

    fn experiment() -> Experiment {
        let text = "p,n,time\n1,10,1\n2,10,2\n4,10,4\n1,20,2\n2,20,4\n4,20,8\n";
        read::read(read::Format::Csv, "t.csv", text, &CsvOptions::default()).unwrap()
    }

    fn bind(s: &str) -> (Name, Values) {
        expr::grid::parse_binding(s).unwrap()
    }

    #[test]
    fn bindings_give_every_combination_in_parameter_order() {
        let job = Job {
            bindings: vec![bind("n=100"), bind("p=8,16")],
            ..Job::new(experiment())
        };
        let f = job.run().unwrap();
        assert_eq!(f.points, vec![vec![8.0, 100.0], vec![16.0, 100.0]]);
    }

    #[test]
    fn names_the_data_lacks_are_typed() {
        let unknown = Job {
            bindings: vec![bind("q=1"), bind("n=1")],
            ..Job::new(experiment())
        };
        assert!(matches!(unknown.run(), Err(JobError::UnknownParam { name, .. }) if name == "q"));
        let unbound = Job {
            bindings: vec![bind("p=1")],
            ..Job::new(experiment())
        };
        assert!(matches!(unbound.run(), Err(JobError::Unbound { name }) if name == "n"));
        let times = Job {
            times: Some("pp".into()),
            ..Job::new(experiment())
        };
        let Err(JobError::UnknownTimes { hint, .. }) = times.run() else {
            panic!("a typed error")
        };
        assert!(hint.contains('p'), "{hint}");
        let cp = Job {
            callpath: Some("main".into()),
            ..Job::new(experiment())
        };
        assert!(matches!(cp.run(), Err(JobError::UnknownCallpath(_))));
        let m = Job {
            metrics: vec!["energy".into()],
            ..Job::new(experiment())
        };
        assert!(matches!(m.run(), Err(JobError::UnknownMetric(_))));
    }

    #[test]
    fn errors_name_their_input_and_say_whose_fault_they_are() {
        use diag::Advise;
        let unbound = Job {
            bindings: vec![bind("p=1")],
            ..Job::new(experiment())
        };
        let e = unbound.run().unwrap_err();
        assert_eq!(e.input(), Some(("define", " ")));
        assert_eq!(e.to_string(), "binds no value for the parameter `n`");
        assert_eq!(
            e.advice().unwrap(),
            diag::Advice::usage("give every parameter one, e.g. {define} n=…")
        );
        let many = Job {
            bindings: vec![bind("p=1..200"), bind("n=1..200")],
            ..Job::new(experiment())
        };
        let e = many.run().unwrap_err();
        assert_eq!(
            (e.input(), e.advice()),
            (Some(("define", ": ")), Some(diag::Advice::fix("")))
        );
        let extrap = Job {
            terms: vec!["2^p".into()],
            options: RunOptions {
                modeler: crate::run::Modeler::Extrap,
                ..RunOptions::default()
            },
            ..Job::new(experiment())
        };
        let e = extrap.run().unwrap_err();
        assert_eq!(e.advice().unwrap().fix, "drop {modeler} extrap");
    }

    #[test]
    fn reports_and_plots_of_a_run() {
        let f = Job {
            points: vec!["p=8,n=10".into()],
            options: RunOptions {
                bootstrap: 0,
                ..RunOptions::default()
            },
            ..Job::new(experiment())
        }
        .run()
        .unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&f.report(report::Format::Json, false)).unwrap();
        assert_eq!(json["modeler"], "vates");
        assert!(f
            .report(report::Format::Latex, false)
            .starts_with("\\begin{align*}"));
        assert!(matches!(f.plot_one(), Err(PlotRefusal::Plot(_))));
        let two = Job {
            metrics: Vec::new(),
            ..Job::new(
                read::read(
                    read::Format::Csv,
                    "t.csv",
                    "p,a,b\n1,1,5\n2,2,3\n4,4,1\n",
                    &read::csv::CsvOptions {
                        metrics: vec!["a".into(), "b".into()],
                        ..Default::default()
                    },
                )
                .unwrap(),
            )
        }
        .run()
        .unwrap();
        let e = two.plot_one().unwrap_err();
        assert_eq!(
            (e.to_string().as_str(), e.input()),
            ("draws one series but 2 were modelled", Some(("plot", " ")))
        );
    }

    #[test]
    fn too_many_points_is_the_grid_limit() {
        let job = Job {
            bindings: vec![bind("p=1..200"), bind("n=1..200")],
            ..Job::new(experiment())
        };
        assert!(matches!(
            job.run(),
            Err(JobError::Grid(GridError::TooManyPoints { .. }))
        ));
    }
}
