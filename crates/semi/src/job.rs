//! The method's front door: a [`Job`] holds what a run of the semi-empirical method needs
//! (the model, the point, the samples or given coefficients, the grouping parameter, the
//! machine profile, the processors, the seed and the limits) and answers with one call.
//! The processor rule lives here once ([`Job::processors`]): the sweep and the validation
//! apply the same one.
//!
//! ```
//! use semi::job::Job;
//!
//! let model = semi::lang::parse(
//!     "two.tg",
//!     "param N; param P; coeff c; barrier b(P);
//!      class w[i in P] { compute work = c * N / P; barrier b; }",
//! )
//! .unwrap();
//! let mut job = Job::new(model);
//! job.params = vec![("N".into(), 100.0), ("P".into(), 4.0)];
//! job.given = vec![("c".into(), 0.01)];
//! let done = job.predict().unwrap();
//! // Four threads of 0.25 s each, on four processors (the value of P).
//! assert!((done.prediction.outcome.time - 0.25).abs() < 1e-12);
//! assert_eq!(job.processors(&job.params), 4);
//! ```

use crate::costs::MachineCosts;
use crate::fitting::fit_for;
use crate::instantiate::{count, Bindings, Count, Limits};
use crate::lang::{Model, ModelError};
use crate::memory_level::Mismatch;
use crate::metrics::ValidationTable;
use crate::point::{point_text, processors};
use crate::predict::{predict, PredictError, PredictOptions, Prediction};
use crate::samples::Fitted;
use crate::samples::{SampleSet, SamplesError};
use crate::sim::{DeadlockCause, EventCosts, FixedCosts, Options, SimError};
use crate::sweep::{fit_per_value, Sweep};
use crate::user_values::{check_group, set_coefficients, GivenError};
use crate::validate::{validate_samples, Checked, Measured, Processors, Validation};
use sweep::Limit;

/// Event costs chosen at run time: the profile's, or none.
pub type Costs = Box<dyn EventCosts + Send + Sync>;

/// The fit of one group of samples: the value of the grouping parameter (`None`: all
/// samples) and the coefficients, or why they could not be fitted.
pub type GroupFit = (Option<f64>, Result<Fitted, SamplesError>);

/// A point counted without building its graph ([`Job::check`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    /// Θ, steps and ops.
    pub count: Count,
    /// Every parameter's value, derived ones included.
    pub params: Vec<(String, f64)>,
    /// The limits the point is over (a prediction would refuse it).
    pub over: Vec<Over>,
}

/// One run of the method.
#[derive(Clone, Debug)]
pub struct Job {
    /// The thread-graph model.
    pub model: Model,
    /// The point: a value per given parameter.
    pub params: Vec<(String, f64)>,
    /// Sample runs to fit the coefficients to.
    pub samples: Option<SampleSet>,
    /// Coefficient values given over (or instead of) the samples' fit.
    pub given: Vec<(String, f64)>,
    /// The processor-count parameter: the samples are fitted at its value (the paper's
    /// N₀ = N) and, unless [`Job::processors_given`] is set, it gives the processors.
    pub by: String,
    /// Whether `by` was chosen by the user (it is then checked even without samples).
    pub by_chosen: bool,
    /// The machine profile: event costs and the memory-level warning.
    pub profile: Option<probe::Profile>,
    /// Processors given outright.
    pub processors_given: Option<usize>,
    /// The parameter a validation reads each point's processor count from (`None`:
    /// [`Processors::default_for`]); [`Job::processors_given`] goes first.
    pub processors_from: Option<Processors>,
    /// Seed of the random order of simultaneous events and of branches.
    pub seed: u64,
    /// The instantiation's and the traversal's limits.
    pub limits: Limits,
    /// Keep the schedule (for a timeline).
    pub schedule: bool,
    /// Collapse clusters of identical threads to one representative (eq. 2.5) before the
    /// traversal ([`crate::collapse`]).
    pub collapse: bool,
    /// Traverse this many times with successive seeds and give the mean as well (0 or 1:
    /// once): with branches, the expectation over their random draws.
    pub draws: usize,
}

/// A limit a job's point is over: [`sweep::Limit::TraversalSteps`] ([`Limits::max_steps`])
/// or [`sweep::Limit::GraphOps`] ([`Limits::max_ops`]), with its value.
pub type Over = sweep::Reached;

/// Why a job failed.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The grouping parameter is not one the model groups by.
    #[error(transparent)]
    By(GivenError),
    /// A given coefficient is not the model's, or is given twice.
    #[error(transparent)]
    Given(GivenError),
    /// The model cannot be counted or instantiated at the point.
    #[error(transparent)]
    Model(Box<ModelError>),
    /// The samples cannot be fitted.
    #[error(transparent)]
    Samples(SamplesError),
    /// The prediction failed.
    #[error(transparent)]
    Predict(PredictError),
    /// A bound name is not a given parameter of the model.
    #[error("the model has no parameter `{name}` to bind{hint}")]
    UnknownParam {
        /// The name.
        name: String,
        /// `; did you mean …?`, or the model's given parameters.
        hint: String,
    },
    /// A bound name is a derived parameter: its value comes from the others.
    #[error("`{name}` is derived from other parameters and cannot be bound; bind {given}")]
    DerivedParam {
        /// The name.
        name: String,
        /// The model's given parameters, listed.
        given: String,
    },
    /// The fit of one group of samples failed ([`Job::fits`]).
    #[error("{label}: {source}")]
    Group {
        /// The group: `P=4`, or `all samples`.
        label: String,
        /// Why.
        source: SamplesError,
    },
    /// A sweep's grid is not valid, or has more than [`MAX_SWEEP_POINTS`] points.
    #[error(transparent)]
    Space(sweep::SpaceError),
    /// The point's graph is over limits: refused before it is built.
    #[error(
        "at {point}: Θ = {events} event processings, {steps} steps, {ops} ops, over the limits"
    )]
    OverLimits {
        /// The point, derived parameters included.
        point: String,
        /// Θ.
        events: u64,
        /// Steps.
        steps: u64,
        /// Ops.
        ops: u64,
        /// The limits it is over.
        over: Vec<Over>,
    },
    /// The machine profile is not one `probe` wrote ([`read_profile`]).
    #[error("{name}: {source}")]
    Profile {
        /// The profile's name in messages (its file).
        name: String,
        /// Why.
        source: probe::ProfileError,
    },
}

/// The machine profile in `text` (named `name` in messages), for [`Job::profile`].
///
/// # Errors
/// [`JobError::Profile`] when `text` is not a profile `probe` wrote.
pub fn read_profile(name: &str, text: &str) -> Result<probe::Profile, JobError> {
    probe::Profile::from_json(text).map_err(|source| JobError::Profile {
        name: name.to_string(),
        source,
    })
}

impl From<Box<ModelError>> for JobError {
    fn from(e: Box<ModelError>) -> Self {
        JobError::Model(e)
    }
}

impl From<SamplesError> for JobError {
    fn from(e: SamplesError) -> Self {
        JobError::Samples(e)
    }
}

impl From<PredictError> for JobError {
    fn from(e: PredictError) -> Self {
        JobError::Predict(e)
    }
}

impl Predicted {
    /// The predicted schedule as a timeline in seconds, titled with the model's name
    /// ([`crate::report::schedule_trace`]; empty unless the job asked for the schedule).
    pub fn timeline(&self) -> trace::Trace {
        let p = &self.prediction;
        crate::report::schedule_trace(&self.model, &p.threads, &p.outcome)
    }
}

/// The coefficients fitted per group of samples ([`Job::fits`]): each group's label (`P=4`,
/// or `all samples`) and its fit.
#[derive(Clone, Debug)]
pub struct Fits {
    /// Each group's label (`P=4`, or `all samples`) and its fit.
    pub groups: Vec<(String, Fitted)>,
    /// What the user should know about the samples (`warning:`).
    pub warnings: Vec<String>,
}

/// A validation ([`Job::validation`]): each measured point predicted, the paper's table, and
/// the warnings.
#[derive(Clone, Debug)]
pub struct Validated {
    /// Each measured point with its prediction.
    pub checked: Vec<Checked>,
    /// E, Ē and R_conservative per value of the grouping parameter.
    pub table: ValidationTable,
    /// What the user should know (`warning:`).
    pub warnings: Vec<String>,
}

/// The most points of one sweep ([`Job::space`]).
pub const MAX_SWEEP_POINTS: u64 = 100_000;

/// A job's prediction and what the user should know about it.
#[derive(Clone, Debug)]
pub struct Predicted {
    /// The model's name (its file), as the report's first line says.
    pub model: String,
    /// The prediction.
    pub prediction: Prediction,
    /// Notes of the samples' fit (`note:`).
    pub notes: Vec<String>,
    /// Warnings: the memory-level mismatch between samples and target, events beyond the
    /// profile (`warning:`).
    pub warnings: Vec<String>,
    /// The calibrated 90% interval of the time ([`fit::interval`]): the samples' fit's
    /// leave-one-out errors, scaled to the point's distance beyond the samples, and the
    /// repetitions' spread (`None` without samples, or given coefficients over them).
    pub interval: Option<fit::interval::Interval>,
}

impl Job {
    /// A job on `model` with no point, no samples, grouping by `P`, no profile, seed 0 and
    /// the default limits.
    pub fn new(model: Model) -> Job {
        Job {
            model,
            params: Vec::new(),
            samples: None,
            given: Vec::new(),
            by: "P".into(),
            by_chosen: false,
            profile: None,
            processors_given: None,
            processors_from: None,
            seed: 0,
            limits: Limits::default(),
            schedule: false,
            collapse: false,
            draws: 0,
        }
    }

    /// Binds the point: a value per given parameter, as a front end parsed them.
    pub fn bind(&mut self, values: impl IntoIterator<Item = (expr::Name, expr::Rational)>) {
        self.params = values
            .into_iter()
            .map(|(n, r)| (n.to_string(), expr::number::to_f64(&r)))
            .collect();
    }

    /// The event costs: the profile's, or none.
    pub fn costs(&self) -> Costs {
        match &self.profile {
            Some(p) => Box::new(MachineCosts { profile: p.clone() }),
            None => Box::new(FixedCosts::default()),
        }
    }

    /// The processors at the point `at`: those given, else the value of `by` there (at
    /// least 1), else unlimited.
    pub fn processors(&self, at: &[(String, f64)]) -> usize {
        processors(self.processors_given, &self.by, at)
    }

    /// The limits the point's counted graph is over.
    pub fn over(&self, c: &Count) -> Vec<Over> {
        let mut over = Vec::new();
        if c.size.steps > self.limits.max_steps {
            over.push(Over::new(Limit::TraversalSteps, self.limits.max_steps));
        }
        if c.ops > self.limits.max_ops {
            over.push(Over::new(Limit::GraphOps, self.limits.max_ops));
        }
        over
    }

    /// The options of a prediction at `at`.
    pub fn options(&self, at: &[(String, f64)], notes: bool) -> PredictOptions {
        PredictOptions {
            limits: self.limits,
            sim: Options {
                processors: self.processors(at),
                seed: self.seed,
                max_steps: self.limits.max_steps,
                schedule: self.schedule,
            },
            notes,
            collapse: self.collapse,
            draws: self.draws,
        }
    }

    /// Checks that every name of `names` (the point's, or a sweep's axes) is a given
    /// parameter of the model.
    ///
    /// # Errors
    /// [`JobError::UnknownParam`] (with the closest names) or [`JobError::DerivedParam`].
    pub fn check_names<'a>(
        &self,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), JobError> {
        let given = crate::lang::given_params(&self.model);
        for name in names {
            if given.iter().any(|g| g == name) {
                continue;
            }
            let listed = given.join(", ");
            if self.model.params.iter().any(|p| p.name.name == name) {
                return Err(JobError::DerivedParam {
                    name: name.to_string(),
                    given: listed,
                });
            }
            let close = diag::suggest(name, given.iter().map(String::as_str));
            let hint = match diag::did_you_mean(&close) {
                Some(h) => format!("; {h}"),
                None => format!(" (its parameters: {listed})"),
            };
            return Err(JobError::UnknownParam {
                name: name.to_string(),
                hint,
            });
        }
        Ok(())
    }

    /// Checks `by` when it matters: with samples, or when chosen.
    fn check_by(&self) -> Result<(), JobError> {
        if self.samples.is_some() || self.by_chosen {
            check_group(&self.model, &self.by).map_err(JobError::By)?;
        }
        Ok(())
    }

    /// The coefficients at the point: fitted to the samples at the point's value of `by`
    /// (or all of them), then the given values over them; with the fit's notes and the
    /// memory-level warning.
    ///
    /// # Errors
    /// [`JobError::By`], [`JobError::Samples`], [`JobError::Given`], [`JobError::Predict`].
    pub fn coefficients(&self) -> Result<(Vec<(String, f64)>, Remarks), JobError> {
        self.check_by()?;
        let mut said = Remarks::default();
        let mut coeffs = Vec::new();
        if let Some(set) = &self.samples {
            let value = self.params.iter().find(|(k, _)| *k == self.by).map(|x| x.1);
            let fit_opts = PredictOptions {
                limits: self.limits,
                ..PredictOptions::default()
            };
            let (fitted, note) =
                fit_for(&self.model, set, &self.by, value, &self.costs(), &fit_opts)
                    .map_err(JobError::Samples)?;
            said.notes.extend(note);
            let (used, _) = set.for_prediction(&self.by, value);
            said.warnings.extend(used.sample_warnings(&self.by));
            if let Some(profile) = &self.profile {
                let found =
                    crate::memory_level::mismatch(&self.model, profile, &used, &self.params)
                        .map_err(JobError::Model)?;
                said.warnings.extend(found.as_ref().map(Mismatch::text));
            }
            coeffs = fitted.coefficients.clone();
            said.fitted = Some(Box::new(fitted));
        }
        set_coefficients(&self.model, &self.given, &mut coeffs).map_err(JobError::Given)?;
        Ok((coeffs, said))
    }

    /// Θ of the point, counted without building the graph: the count, every parameter's
    /// value (derived ones included) and the limits it is over (a prediction would refuse
    /// it).
    ///
    /// # Errors
    /// [`JobError::Model`] (a binding, a value, the count's own iteration limit).
    pub fn check(&self) -> Result<Counted, JobError> {
        self.check_names(self.params.iter().map(|p| p.0.as_str()))?;
        let b = Bindings {
            params: self.params.clone(),
            coeffs: Vec::new(),
        };
        let (count, params) = count(&self.model, &b, &self.limits).map_err(JobError::Model)?;
        let over = self.over(&count);
        Ok(Counted {
            count,
            params,
            over,
        })
    }

    /// The coefficients fitted to the samples, apart for each value of `by` (all together
    /// when `by` is `none` or not a column): per group, its value and the fit or why it
    /// failed.
    ///
    /// # Errors
    /// [`JobError::By`]; a job without samples fits nothing (an empty list).
    pub fn fit(&self) -> Result<Vec<GroupFit>, JobError> {
        check_group(&self.model, &self.by).map_err(JobError::By)?;
        let Some(set) = &self.samples else {
            return Ok(Vec::new());
        };
        let costs = self.costs();
        let opts = PredictOptions {
            limits: self.limits,
            ..PredictOptions::default()
        };
        Ok(set
            .groups(&self.by)
            .into_iter()
            .map(|g| {
                let f = fit_for(&self.model, set, &self.by, g, &costs, &opts).map(|(f, _)| f);
                (g, f)
            })
            .collect())
    }

    /// The coefficients fitted to the samples per group, as [`Job::fit`], each group
    /// labelled (`P=4`, or `all samples`).
    ///
    /// # Errors
    /// As [`Job::fit`]; a group whose fit fails is [`JobError::Group`] (a failure of the
    /// whole samples file, such as a model error at a sample point, is [`JobError::Samples`]).
    pub fn fits(&self) -> Result<Fits, JobError> {
        let mut fits = Vec::new();
        for (g, f) in self.fit()? {
            let label = match g {
                Some(v) => format!("{}={v}", self.by),
                None => "all samples".to_string(),
            };
            match f {
                Ok(f) => fits.push((label, f)),
                Err(
                    source @ (SamplesError::Fit(_)
                    | SamplesError::Underdetermined { .. }
                    | SamplesError::Unsampled { .. }
                    | SamplesError::Traversal { .. }
                    | SamplesError::Unsettled { .. }),
                ) => return Err(JobError::Group { label, source }),
                Err(e) => return Err(JobError::Samples(e)),
            }
        }
        let warnings = self
            .samples
            .as_ref()
            .map_or_else(Vec::new, |set| set.sample_warnings(&self.by));
        Ok(Fits {
            groups: fits,
            warnings,
        })
    }

    /// [`Job::validate`] as one value.
    ///
    /// # Errors
    /// As [`Job::validate`].
    pub fn validation(
        &self,
        measured: &Measured,
        sample_seconds: Option<f64>,
    ) -> Result<Validated, JobError> {
        let (checked, table, warnings) = self.validate(measured, sample_seconds)?;
        Ok(Validated {
            checked,
            table,
            warnings,
        })
    }

    /// Predicts every measured run with the coefficients fitted per value of `by` and
    /// tabulates E, Ē and R_conservative (the paper's Tables II–VI); `sample_seconds` is
    /// T_sample (default: the samples' own `run` rows). The third part: the warnings.
    ///
    /// # Errors
    /// [`JobError::Predict`]: no samples, `by` not a parameter, a fit or prediction failing.
    pub fn validate(
        &self,
        measured: &Measured,
        sample_seconds: Option<f64>,
    ) -> Result<(Vec<Checked>, ValidationTable, Vec<String>), JobError> {
        let empty = SampleSet::default();
        let set = self.samples.as_ref().unwrap_or(&empty);
        let fixed = self.processors_given.map(Processors::Fixed);
        let v = Validation {
            by: &self.by,
            sample_seconds,
            profile: self.profile.as_ref(),
            processors: fixed.as_ref().or(self.processors_from.as_ref()),
        };
        let opts = PredictOptions {
            limits: self.limits,
            sim: Options {
                seed: self.seed,
                max_steps: self.limits.max_steps,
                ..Options::default()
            },
            notes: true,
            ..PredictOptions::default()
        };
        validate_samples(&self.model, set, measured, &self.costs(), &v, &opts)
            .map_err(JobError::Predict)
    }

    /// The grid of a sweep: the values of each bound parameter, at most
    /// [`MAX_SWEEP_POINTS`] points (the names are checked by [`Job::sweep`]).
    ///
    /// # Errors
    /// [`JobError::Space`].
    pub fn space(
        &self,
        bindings: impl IntoIterator<Item = (expr::Name, expr::grid::Values)>,
    ) -> Result<sweep::Space, JobError> {
        sweep::Space::new(bindings.into_iter().collect(), MAX_SWEEP_POINTS).map_err(JobError::Space)
    }

    /// The point function of a sweep over `space` (its axes in the sweep runner's order),
    /// with the coefficients fitted at each value of `by` that the grid has (all samples
    /// together when it has none) and the given values over them; the second part: the
    /// fits' notes, each once. The points' own warnings (events beyond the profile, the
    /// cache-level mismatch) are gathered, each once, for [`Sweep::warnings`] after the run.
    /// `at_once` points run in parallel and share the op limit ([`Sweep::at_once`]).
    ///
    /// # Errors
    /// [`JobError::By`], [`JobError::Samples`], [`JobError::Given`].
    pub fn sweep<'a>(
        &'a self,
        costs: &'a Costs,
        space: &sweep::Space,
        at_once: usize,
    ) -> Result<(Sweep<'a, Costs>, Vec<String>), JobError> {
        let names: Vec<String> = space.axes().iter().map(|x| x.name().to_string()).collect();
        // The values of `by` that the grid has: the coefficients are fitted at each.
        let by_values: Vec<f64> = space
            .axes()
            .iter()
            .find(|x| **x.name() == *self.by)
            .map(|axis| {
                (0..axis.len())
                    .filter_map(|k| axis.values().get(k).map(|r| expr::number::to_f64(&r)))
                    .collect()
            })
            .unwrap_or_default();
        let by_values = &by_values[..];
        self.check_names(names.iter().map(String::as_str))?;
        self.check_by()?;
        // The points' notes are gathered once each ([`Sweep::warnings`]).
        let mut opts = self.options(&[], true);
        opts.sim.processors = self.processors_given.unwrap_or(usize::MAX);
        let (mut coeffs, notes) = match &self.samples {
            Some(set) => {
                let fit_opts = PredictOptions {
                    limits: self.limits,
                    ..PredictOptions::default()
                };
                fit_per_value(&self.model, set, &self.by, by_values, costs, &fit_opts)
                    .map_err(JobError::Samples)?
            }
            None => (vec![(None, Vec::new())], Vec::new()),
        };
        for (_, c) in &mut coeffs {
            set_coefficients(&self.model, &self.given, c).map_err(JobError::Given)?;
        }
        // The uneven-sample warning of the samples each group's coefficients come from,
        // with the points' own warnings after the run.
        let mut said = crate::sweep::Said::default();
        if let Some(set) = &self.samples {
            for (value, _) in &coeffs {
                let (used, _) = set.for_prediction(&self.by, *value);
                for w in used.sample_warnings(&self.by) {
                    if !said.notes.contains(&w) {
                        said.notes.push(w);
                    }
                }
            }
        }
        let sweep = Sweep {
            model: &self.model,
            names,
            coeffs,
            by: self.by.clone(),
            costs,
            opts,
            at_once,
            samples: self.samples.as_ref(),
            profile: self.profile.as_ref(),
            said: std::sync::Mutex::new(said),
        };
        Ok((sweep, notes))
    }

    /// Predicts the point: the coefficients ([`Job::coefficients`]), Θ counted and checked
    /// against the limits before the graph is built, then Algorithm G.
    ///
    /// # Errors
    /// As [`Job::coefficients`]; [`JobError::Model`] (a binding, a value); [`JobError::OverLimits`];
    /// [`JobError::Predict`] (a deadlock, a time that is not finite).
    pub fn predict(&self) -> Result<Predicted, JobError> {
        self.check_names(self.params.iter().map(|p| p.0.as_str()))?;
        let (coeffs, said) = self.coefficients()?;
        let b = Bindings {
            params: self.params.clone(),
            coeffs,
        };
        let (counted, all) = count(&self.model, &b, &self.limits).map_err(JobError::Model)?;
        let over = self.over(&counted);
        if !over.is_empty() {
            return Err(JobError::OverLimits {
                point: point_text(&all),
                events: counted.size.events,
                steps: counted.size.steps,
                ops: counted.ops,
                over,
            });
        }
        let opts = self.options(&b.params, true);
        let prediction = predict(&self.model, &b, &self.costs(), &opts).map_err(|e| match e {
            PredictError::Sim(SimError::Deadlock { causes, blocked }) if !causes.is_empty() => {
                JobError::Model(located_deadlock(&self.model, &causes, &blocked))
            }
            e => JobError::Predict(e),
        })?;
        let mut warnings = said.warnings;
        warnings.extend(prediction.notes.iter().cloned());
        // Given coefficients replace fitted ones: the fit's errors no longer describe them.
        let interval = said
            .fitted
            .as_ref()
            .filter(|_| self.given.is_empty())
            .and_then(|f| f.interval(&b.params, prediction.outcome.time));
        Ok(Predicted {
            model: self.model.name.clone(),
            prediction,
            notes: said.notes,
            warnings,
            interval,
        })
    }
}

/// A deadlock with known causes as a model error at the declaration of the first cause's
/// barrier or thread, with the fixes.
fn located_deadlock(
    model: &Model,
    causes: &[DeadlockCause],
    blocked: &[(String, String)],
) -> Box<ModelError> {
    use crate::lang::{ErrorKind, Locate};
    let message = format!("deadlock: {}", crate::sim::deadlock_text(causes, blocked));
    let fixes: Vec<String> = causes.iter().map(DeadlockCause::fix).collect();
    let e = ModelError::new(ErrorKind::Deadlock, message).help(fixes.join("; "));
    // A class instance `t[1]` is declared as `t`.
    let thread = |name: &str| {
        let base = name.split('[').next().unwrap_or(name);
        model.threads.iter().find(|t| t.name.name == base)
    };
    let at = causes.first().and_then(|c| match c {
        DeadlockCause::BarrierCount {
            barrier,
            expects,
            arrive,
        } => model
            .barriers
            .iter()
            .find(|b| b.name.name == *barrier)
            .map(|b| {
                (
                    b.participants.span.clone(),
                    format!("{expects} participants; {arrive} threads arrive"),
                )
            }),
        DeadlockCause::Relock { thread: t, lock } => thread(t).map(|d| {
            (
                d.name.span.clone(),
                format!("takes lock `{lock}` while it holds it"),
            )
        }),
        DeadlockCause::EndedHolding { thread: t, lock } => {
            thread(t).map(|d| (d.name.span.clone(), format!("ends holding lock `{lock}`")))
        }
    });
    match at {
        Some((span, label)) => e.at(&model.name, &model.text, span, label),
        None => e,
    }
}

/// What a job says beside its coefficients: the fit's notes and the warnings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Remarks {
    /// Notes of the samples' fit.
    pub notes: Vec<String>,
    /// Warnings (the memory-level mismatch).
    pub warnings: Vec<String>,
    /// The samples' fit the coefficients came from (`None` without samples).
    pub fitted: Option<Box<crate::samples::Fitted>>,
}
