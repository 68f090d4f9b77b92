//! Validation (spec §4 step 9): measured run times give E, Ē and R_conservative per
//! processor count (eqs. 4.8–4.10), in the form of the paper's Tables II–VI.

use fit::read::csv::rows;

use crate::fitting::fit_for;
use crate::instantiate::Bindings;
use crate::lang::Model;
use crate::metrics::{ValidationPoint, ValidationRow, ValidationTable};
use crate::point::{named, point_text};
use crate::predict::{predict, PredictError, PredictOptions};
use crate::samples::SampleSet;
use crate::sim::{EventCosts, Options};

/// Measured run times: a column per given parameter of the model and `seconds`; rows at the
/// same point are repetitions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// The model's given parameters, the columns of each point.
    pub names: Vec<String>,
    /// (point, seconds) per run.
    pub runs: Vec<(Vec<f64>, f64)>,
}

/// Reads measured run times (`name` names the file in messages).
///
/// # Errors
/// [`PredictError::Read`], located: malformed CSV, a missing column, a value that is not a
/// finite number, a time ≤ 0, no rows.
pub fn read_measured(model: &Model, name: &str, text: &str) -> Result<Measured, PredictError> {
    let names = crate::lang::given_params(model);
    let mut required: Vec<&str> = names.iter().map(String::as_str).collect();
    required.push("seconds");
    let r = rows(name, text, &required, &[], &[])?;
    let column = |j: usize| r.numbers[j].as_deref().unwrap_or(&[]);
    let mut runs = Vec::with_capacity(r.starts.len());
    for i in 0..r.starts.len() {
        let seconds =
            crate::samples::measured_seconds(&r, (name, text), i, names.len(), "a run time")?;
        runs.push(((0..names.len()).map(|j| column(j)[i]).collect(), seconds));
    }
    Ok(Measured { names, runs })
}

/// Where a validated point's processor count comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Processors {
    /// This many at every point.
    Fixed(usize),
    /// The value of this given parameter at each point (rounded, at least 1).
    Param(String),
}

impl std::str::FromStr for Processors {
    type Err = String;

    /// A number of processors (1 or more), or the parameter that holds it.
    ///
    /// ```
    /// use semi::validate::Processors;
    /// assert_eq!("4".parse(), Ok(Processors::Fixed(4)));
    /// assert_eq!(" Q ".parse(), Ok(Processors::Param("Q".into())));
    /// assert!("0".parse::<Processors>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Processors, String> {
        let s = s.trim();
        if s.starts_with(|c: char| c.is_ascii_digit()) {
            return match s.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(Processors::Fixed(n)),
                _ => Err(format!(
                    "`{s}` is neither a whole number of processors (1 or more) nor a parameter name"
                )),
            };
        }
        if s.is_empty() {
            return Err("give a number of processors or the parameter that holds it".into());
        }
        Ok(Processors::Param(s.to_string()))
    }
}

impl Processors {
    /// The default: the given parameter `P` when the model has one, else `by` (the method's
    /// processor rule, [`crate::point::processors`]). Grouping by another parameter (`N`)
    /// then does not make it the processor count.
    pub fn default_for(model: &Model, by: &str) -> Processors {
        let given = crate::lang::given_params(model);
        Processors::Param(if given.iter().any(|g| g == "P") {
            "P".to_string()
        } else {
            by.to_string()
        })
    }

    /// The processors at the point `at`.
    fn at(&self, at: &[(String, f64)]) -> usize {
        match self {
            Processors::Fixed(n) => (*n).max(1),
            Processors::Param(p) => crate::point::processors(None, p, at),
        }
    }
}

/// One validated point.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The point (`N=800, P=8`).
    pub point: String,
    /// The value of the parameter it is grouped by (`by`: the processor count by default).
    pub processors: u32,
    /// The median measured time.
    pub actual: f64,
    /// The prediction.
    pub predicted: f64,
    /// E (eq. 4.9).
    pub error: f64,
    /// The prediction's notes ([`crate::predict::Prediction::notes`]).
    pub notes: Vec<String>,
    /// The time spent predicting.
    pub estimate_seconds: f64,
    /// The calibrated 90% interval of the prediction ([`fit::interval`]), when the
    /// coefficients were fitted to samples.
    pub interval: Option<fit::interval::Interval>,
}

/// Predicts every measured point (the median of its repetitions) on the processors
/// `processors` says and tabulates the errors per value of the parameter `by` (the
/// processor count by default): Ē and, with the time the sample runs took
/// (`sample_seconds`), the average and largest R_conservative.
///
/// # Errors
/// [`PredictError`]: `by` or the processors' parameter is not a parameter, a prediction
/// fails, a metric is invalid.
pub fn validate<C: EventCosts>(
    model: &Model,
    coeffs: &[(String, f64)],
    measured: &Measured,
    costs: &C,
    (by, processors): (&str, &Processors),
    sample_seconds: f64,
    opts: &PredictOptions,
) -> Result<(Vec<Checked>, ValidationTable), PredictError> {
    let Some(g) = measured.names.iter().position(|n| n == by) else {
        return Err(PredictError::NoGroup {
            name: by.to_string(),
        });
    };
    if let Processors::Param(p) = processors {
        if !measured.names.contains(p) {
            return Err(PredictError::NoProcessors { name: p.clone() });
        }
    }
    // Distinct points in file order, with their mean time.
    let mut points: Vec<(Vec<f64>, Vec<f64>)> = Vec::new();
    for (p, s) in &measured.runs {
        match points.iter_mut().find(|(q, _)| q == p) {
            Some((_, times)) => times.push(*s),
            None => points.push((p.clone(), vec![*s])),
        }
    }
    let mut checked = Vec::with_capacity(points.len());
    for (p, times) in &points {
        let params = named(&measured.names, p);
        let b = Bindings {
            params: params.clone(),
            coeffs: coeffs.to_vec(),
        };
        let group = p[g].max(0.0).round() as u32;
        let sim = Options {
            processors: processors.at(&params),
            ..opts.sim
        };
        let pred = predict(model, &b, costs, &PredictOptions { sim, ..*opts }).map_err(|e| {
            match e {
                // Name the measured point: the model's message names only the model text.
                PredictError::Model(mut m) => {
                    m.message = format!(
                        "at the measured point {}: {}",
                        point_text(&params),
                        m.message
                    );
                    PredictError::Model(m)
                }
                other => other,
            }
        })?;
        // The median of the repetitions, as for the samples: one run slowed by the machine
        // must not move the actual time.
        let actual = stats::median(times).unwrap_or(f64::NAN);
        checked.push(Checked {
            point: point_text(&params),
            processors: group,
            actual,
            predicted: pred.outcome.time,
            error: crate::metrics::error(actual, pred.outcome.time)?,
            estimate_seconds: pred.estimate_seconds,
            interval: None,
            notes: {
                let mut notes = pred.notes;
                if pred.branches {
                    notes.push(format!(
                        "the model has branches: each predicted time is one random draw of \
                         their arms (seed {}), not their expectation",
                        pred.seed
                    ));
                }
                notes
            },
        });
    }
    let mut rows: Vec<ValidationRow> = Vec::new();
    for c in &checked {
        let point = ValidationPoint {
            chi: c.point.clone(),
            actual: c.actual,
            predicted: c.predicted,
            estimate_time: c.estimate_seconds,
        };
        match rows.iter_mut().find(|r| r.processors == c.processors) {
            Some(r) => r.points.push(point),
            None => rows.push(ValidationRow {
                processors: c.processors,
                variant: None,
                sample_time: sample_seconds,
                points: vec![point],
            }),
        }
    }
    rows.sort_by_key(|r| r.processors);
    let mut table = ValidationTable::from_validation(&rows)?;
    if *processors != Processors::Param(by.to_string()) {
        // The rows are values of `by`, not processor counts.
        table.heading = Some(by.to_string());
    }
    Ok((checked, table))
}

/// How [`validate_samples`] groups and rates.
#[derive(Clone, Copy, Debug, Default)]
pub struct Validation<'a> {
    /// The processor-count parameter: the samples are fitted and the table's rows made per
    /// value of it.
    pub by: &'a str,
    /// T_sample of R_conservative: the time the sample runs took, seconds (`None`: each
    /// group's own `run` rows of the samples).
    pub sample_seconds: Option<f64>,
    /// The machine profile, for the cache-level warnings.
    pub profile: Option<&'a probe::Profile>,
    /// Where each point's processor count comes from (`None`:
    /// [`Processors::default_for`]).
    pub processors: Option<&'a Processors>,
}

/// Validates every group of measured runs by their value of `v.by` (the processor count):
/// the coefficients fitted to the samples at that value ([`fit_for`]), the runs predicted,
/// and one table row per value. With the machine's profile, the notes include the
/// cache-level warnings, one per cause ([`crate::memory_level::grouped`]).
///
/// # Errors
/// As [`validate`] and [`fit_for`].
pub fn validate_samples<C: EventCosts>(
    model: &Model,
    samples: &SampleSet,
    measured: &Measured,
    costs: &C,
    v: &Validation,
    opts: &PredictOptions,
) -> Result<(Vec<Checked>, ValidationTable, Vec<String>), PredictError> {
    let (by, profile) = (v.by, v.profile);
    let processors = v
        .processors
        .cloned()
        .unwrap_or_else(|| Processors::default_for(model, by));
    let mut heading = None;
    let Some(j) = measured.names.iter().position(|n| n == by) else {
        return Err(PredictError::NoGroup {
            name: by.to_string(),
        });
    };
    let mut values: Vec<f64> = measured.runs.iter().map(|r| r.0[j]).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let (mut checked, mut rows, mut notes) = (Vec::new(), Vec::new(), Vec::new());
    let mut mismatches = Vec::new();
    for value in values {
        let (fitted, note) = fit_for(model, samples, by, Some(value), costs, opts)?;
        notes.extend(note);
        let mine = Measured {
            names: measured.names.clone(),
            runs: measured
                .runs
                .iter()
                .filter(|r| r.0[j] == value)
                .cloned()
                .collect(),
        };
        let (used, _) = samples.for_prediction(by, Some(value));
        let used = &used;
        for w in used.sample_warnings(by) {
            if !notes.contains(&w) {
                notes.push(w);
            }
        }
        if let Some(profile) = profile {
            for (p, _) in &mine.runs {
                let target = named(&measured.names, p);
                if let Some(m) = crate::memory_level::mismatch(model, profile, used, &target)? {
                    mismatches.push((point_text(&target), m));
                }
            }
        }
        let sample_seconds = v.sample_seconds.unwrap_or_else(|| used.run_seconds());
        let (c, t) = validate(
            model,
            &fitted.coefficients,
            &mine,
            costs,
            (by, &processors),
            sample_seconds,
            opts,
        )?;
        heading = t.heading;
        // `validate` checks the distinct points of `mine` in file order.
        let mut distinct: Vec<&Vec<f64>> = Vec::new();
        for (p, _) in &mine.runs {
            if !distinct.contains(&p) {
                distinct.push(p);
            }
        }
        let mut c = c;
        for (one, p) in c.iter_mut().zip(distinct) {
            one.interval = fitted.interval(&named(&measured.names, p), one.predicted);
        }
        for n in c.iter().flat_map(|c| &c.notes) {
            if !notes.contains(n) {
                notes.push(n.clone());
            }
        }
        checked.extend(c);
        rows.extend(t.rows);
    }
    notes.extend(crate::memory_level::grouped(&mismatches));
    Ok((checked, ValidationTable { rows, heading }, notes))
}
