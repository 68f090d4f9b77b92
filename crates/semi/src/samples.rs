//! From sample runs to coefficients (spec §3.2, "fitting variant"; §4 steps 5–6): a samples
//! file gives the time of each segment, summed over the threads that run it, at a few small
//! parameter values; each segment's time is linear in the coefficients
//! ([`crate::instantiate::segment_terms`]), so the coefficients come from one least-squares
//! problem over every (sample, segment) row, solved by [`crate::coeffs`] (exact when square,
//! collinear coefficients merged and named).
//!
//! The rows are scaled to relative errors (each divided by its measured time): a segment of
//! milliseconds counts as much as one of seconds.
//!
//! Samples that give only whole-program times (rows of the segment `run`) are fitted through
//! Algorithm G instead ([`crate::whole_program`]); [`crate::fitting::fit_for`] chooses.

use std::collections::HashMap;

use fit::read::csv::rows;
use fit::read::ReadError;
use fit::Design;

use crate::coeffs::{fit_coefficients, CoeffError, SampleRow, Samples, SegmentFit};
use crate::instantiate::{segment_terms, Bindings, Limits, SegmentTerms};
use crate::lang::{given_params, model_segments, segments_using};
use crate::lang::{Model, ModelError};
use crate::point::{named, point_text};

/// One measured segment time at a sample point.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The parameter values, in the model's order of its given (not derived) parameters.
    pub params: Vec<f64>,
    /// The segment.
    pub segment: String,
    /// Its time in seconds, summed over the threads that run it.
    pub seconds: f64,
}

/// A samples file read against a model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SampleSet {
    /// The model's given parameters, the columns of `params`.
    pub names: Vec<String>,
    /// The samples, in file order.
    pub samples: Vec<Sample>,
    /// The sample runs' wall times: (point, seconds) of each row of the reserved segment
    /// name `run`.
    pub runs: Vec<(Vec<f64>, f64)>,
}

/// How far apart a parameter's sample values should lie, the largest over the smallest
/// ([`SampleSet::spread_warnings`]).
pub const MIN_SPREAD: f64 = 2.0;

/// Why samples cannot be read or fitted.
#[derive(Debug, thiserror::Error)]
pub enum SamplesError {
    /// The file is not a valid samples CSV (located).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The model cannot be evaluated at a sample point.
    #[error("at the sample point {point}: {source}")]
    Model {
        /// The point, `N=200, P=2`.
        point: String,
        /// Why.
        source: Box<ModelError>,
    },
    /// A coefficient no sampled segment uses.
    #[error(
        "no sampled segment uses the coefficient `{coeff}`; samples of {segments} would give it"
    )]
    Unsampled {
        /// The coefficient.
        coeff: String,
        /// The segments that use it (`segment `x``).
        segments: String,
    },
    /// A coefficient whose sampled segments do no work at any sample point (a loop or a
    /// class thread of no iterations or instances there).
    #[error(
        "the coefficient `{coeff}` contributes nothing at the sample points ({points}): its factor in {segments} is 0 there (no iterations or instances, say); take samples where it is not"
    )]
    Idle {
        /// The coefficient.
        coeff: String,
        /// The sampled segments that use it (`segment `x``).
        segments: String,
        /// The sample points (the first four, then `…`).
        points: String,
    },
    /// Coefficients the samples cannot tell apart although the model can: their columns
    /// are proportional at the sample points only.
    #[error("the samples cannot tell `{coeff}` from {others}: sample {segments} at more sizes")]
    Underdetermined {
        /// The coefficient merged.
        coeff: String,
        /// Those it was merged into (`a`, `b`).
        others: String,
        /// The segments that use it.
        segments: String,
    },
    /// The least-squares problem.
    #[error(transparent)]
    Fit(#[from] CoeffError),
    /// Algorithm G failed at a sample point while fitting whole-program times.
    #[error("at the sample point {point}: {message}")]
    Traversal {
        /// The point, `N=200, P=2`.
        point: String,
        /// Why.
        message: String,
    },
    /// Whole-program times that the linearised fit did not settle on (it alternates
    /// between critical paths).
    #[error("the fit to whole-program times did not settle after {iterations} linearisations (the sample runs' times still moved by {change:.1e} relative)")]
    Unsettled {
        /// The linearisations taken.
        iterations: usize,
        /// The last relative change of the coefficients.
        change: f64,
    },
    /// No segment time and no whole-program time.
    #[error("the samples hold no times")]
    Empty,
    /// A coefficient that changes no sample run's time at the fitted values: its segments
    /// lie on no critical path.
    #[error("no sample run's time depends on `{coeff}`: {segments} lie on no critical path of the sample runs; time runs where they do")]
    OffCriticalPath {
        /// The coefficient.
        coeff: String,
        /// The segments that use it.
        segments: String,
    },
    /// A coefficient the fit makes negative even with every other held at 0: the measured
    /// times are shorter than what the model takes from elsewhere.
    #[error("the fit makes `{coeff}` negative ({value:.3e}) even with every other coefficient at 0: the measured times are shorter than the model's known parts (event costs from the machine profile, constant segments)")]
    Negative {
        /// The coefficient.
        coeff: String,
        /// The value the fit gave it.
        value: f64,
    },
}

/// The `seconds` of row `i` (column `j` of `r`), refused (located) unless > 0; `what` names
/// the time in the message (`a run time`).
pub(crate) fn measured_seconds(
    r: &fit::read::csv::Rows,
    src: (&str, &str),
    i: usize,
    j: usize,
    what: &str,
) -> Result<f64, ReadError> {
    let seconds = r.numbers[j].as_deref().map_or(f64::NAN, |c| c[i]);
    if seconds > 0.0 {
        return Ok(seconds);
    }
    Err(r.value_error(
        src,
        i,
        "seconds",
        format!("{what} of {seconds} s"),
        "a measured time is > 0",
    ))
}

/// Reads a samples CSV (`name` names it in messages) for `model`: a column per given
/// parameter of the model, `segment` (a segment's name) and `seconds`; other columns (a
/// repetition number, say) are ignored. Rows at the same point and segment are repetitions;
/// rows of the segment `run` give a sample run's wall time.
///
/// # Errors
/// [`SamplesError::Read`], located: malformed CSV, a missing column, a value that is not a
/// finite number, a segment the model does not have (with the closest name), a negative
/// time, no rows.
pub fn read_samples(model: &Model, name: &str, text: &str) -> Result<SampleSet, SamplesError> {
    let names = given_params(model);
    let mut required: Vec<&str> = names.iter().map(String::as_str).collect();
    required.push("seconds");
    let r = rows(name, text, &required, &[], &["segment"])?;
    let Some(Some(segments)) = r.texts.first() else {
        return Err(ReadError {
            kind: fit::read::ReadErrorKind::UnknownName,
            message: format!("{name}: the samples have no `segment` column"),
            help: Some("name the segment each time belongs to in a `segment` column".into()),
            location: None,
        }
        .into());
    };
    let known: Vec<&str> = model_segments(model);
    let column = |j: usize| r.numbers[j].as_deref().unwrap_or(&[]);
    let mut samples = Vec::with_capacity(segments.len());
    let mut runs = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        if segment == "run" && !known.contains(&"run") {
            let point = (0..names.len()).map(|j| column(j)[i]).collect();
            runs.push((point, column(names.len())[i].max(0.0)));
            continue;
        }
        if !known.contains(&segment.as_str()) {
            let hint = diag::did_you_mean(&diag::suggest(segment, known.iter().copied()))
                .unwrap_or_else(|| format!("the model's segments: {}", known.join(", ")));
            return Err(r
                .field_error(
                    fit::read::ReadErrorKind::UnknownName,
                    (name, text),
                    i,
                    "segment",
                    format!("the model has no segment `{}`", diag::short(segment)),
                    hint,
                )
                .into());
        }
        let seconds = measured_seconds(&r, (name, text), i, names.len(), "a segment time")?;
        samples.push(Sample {
            params: (0..names.len()).map(|j| column(j)[i]).collect(),
            segment: segment.clone(),
            seconds,
        });
    }
    Ok(SampleSet {
        names,
        samples,
        runs,
    })
}

/// The coefficients fitted to samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// Fitted to whole-program times through Algorithm G: the linearisations it took
    /// (`None`: fitted to segment times).
    pub whole_program: Option<usize>,
    /// Each coefficient's value, in the model's order (a merged one is 0: its effect is in
    /// the coefficient it was merged into).
    pub coefficients: Vec<(String, f64)>,
    /// The least-squares fit (rank, condition, merges, residuals, leave-one-out).
    pub fit: SegmentFit,
    /// Distinct sample points.
    pub points: usize,
    /// Coefficients the unconstrained fit made negative, held at 0 (with the value it gave).
    pub clamped: Vec<(String, f64)>,
    /// The fit's leave-one-out errors (each with its distance beyond the samples it was
    /// predicted from) and the repetitions' spread, behind the calibrated interval.
    pub calibration: fit::interval::Calibration,
    /// Per given parameter (the samples' columns), its name and the smallest and largest
    /// sampled value.
    pub domain: Vec<(String, f64, f64)>,
}

impl Fitted {
    /// The calibrated interval ([`fit::interval`], 90%) of the time `value` predicted at
    /// `at` (the parameters by name): the leave-one-out errors scaled to the point's distance
    /// beyond the sampled values, and the repetitions' spread; `None` for a time that is
    /// not positive or a fit without either.
    pub fn interval(&self, at: &[(String, f64)], value: f64) -> Option<fit::interval::Interval> {
        let distance = self
            .domain
            .iter()
            .filter_map(|(name, lo, hi)| {
                at.iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, x)| fit::interval::distance(*x, *lo, *hi))
            })
            .fold(0.0, f64::max);
        self.calibration
            .interval(value, None, fit::interval::LEVEL, distance)
    }

    /// The coefficients as bindings.
    pub fn bindings(&self, params: Vec<(String, f64)>) -> Bindings {
        Bindings {
            params,
            coeffs: self.coefficients.clone(),
        }
    }
}

/// Fits the model's coefficients to `set`.
///
/// # Errors
/// [`SamplesError`]: the model cannot be evaluated at a sample point, a coefficient that
/// no sampled segment uses, too few samples, a rank the samples cannot resolve.
pub fn fit_samples(
    model: &Model,
    set: &SampleSet,
    limits: &Limits,
) -> Result<Fitted, SamplesError> {
    let coeffs: Vec<String> = model.coeffs.iter().map(|c| c.name.clone()).collect();
    // The segments' terms at each distinct point.
    let mut points: Vec<Vec<f64>> = Vec::new();
    let mut terms: Vec<Vec<SegmentTerms>> = Vec::new();
    // (point, segment) → times.
    let mut groups: HashMap<(usize, String), Vec<f64>> = HashMap::new();
    let mut order: Vec<(usize, String)> = Vec::new();
    for s in &set.samples {
        let p = match points.iter().position(|q| *q == s.params) {
            Some(p) => p,
            None => {
                let b = Bindings {
                    params: named(&set.names, &s.params),
                    coeffs: Vec::new(),
                };
                let t = segment_terms(model, &b, limits).map_err(|source| SamplesError::Model {
                    point: point_text(&b.params),
                    source,
                })?;
                points.push(s.params.clone());
                terms.push(t);
                points.len() - 1
            }
        };
        let key = (p, s.segment.clone());
        if !groups.contains_key(&key) {
            order.push(key.clone());
        }
        groups.entry(key).or_default().push(s.seconds);
    }
    let mut used = vec![false; coeffs.len()];
    let mut rows = Vec::with_capacity(order.len());
    for key in &order {
        let times = &groups[key];
        // The median of the repetitions: one run slowed by the machine (a shared VM) must
        // not move the fit.
        let mean = stats::median(times).unwrap_or(f64::NAN);
        let seg = terms[key.0].iter().find(|t| t.name == key.1);
        let (base, values) = match seg {
            Some(t) => (
                t.base,
                coeffs
                    .iter()
                    .map(|c| t.terms.iter().find(|(n, _)| n == c).map_or(0.0, |x| x.1))
                    .collect::<Vec<f64>>(),
            ),
            // A segment that does not run at this point (a zero-trip loop).
            None => (0.0, vec![0.0; coeffs.len()]),
        };
        for (u, v) in used.iter_mut().zip(&values) {
            *u |= *v != 0.0;
        }
        rows.push(
            SampleRow::new(values.iter().map(|v| v / mean).collect(), 1.0).with_known(base / mean),
        );
    }
    if let Some(g) = used.iter().position(|u| !u) {
        let users: Vec<String> = segments_using(model, &coeffs[g]);
        // Sampled segments that use it but contribute nothing at the sample points (a loop
        // or class of zero size there).
        let idle: Vec<String> = users
            .iter()
            .filter(|u| order.iter().any(|k| **u == format!("segment `{}`", k.1)))
            .cloned()
            .collect();
        if !idle.is_empty() {
            let mut at: Vec<String> = points
                .iter()
                .map(|p| point_text(&named(&set.names, p)))
                .collect();
            if at.len() > 4 {
                at.truncate(4);
                at.push("…".to_string());
            }
            return Err(SamplesError::Idle {
                coeff: coeffs[g].clone(),
                segments: idle.join(", "),
                points: at.join("; "),
            });
        }
        return Err(SamplesError::Unsampled {
            coeff: coeffs[g].clone(),
            segments: if users.is_empty() {
                "a segment that uses it (none does)".to_string()
            } else {
                users.join(", ")
            },
        });
    }
    let (fit, clamped) = solve_nonnegative(&coeffs, rows)?;
    check_merges(model, set, &fit, limits)?;
    let coefficients = coeffs
        .iter()
        .map(|c| (c.clone(), fit.coefficient(c).unwrap_or(0.0)))
        .collect();
    let calibration = calibrate(&fit, &order, &points, &groups, set);
    Ok(Fitted {
        whole_program: None,
        coefficients,
        fit,
        points: points.len(),
        clamped,
        calibration,
        domain: domain(set, &points),
    })
}

/// Per given parameter, its name and the smallest and largest value over `points`.
pub(crate) fn domain(set: &SampleSet, points: &[Vec<f64>]) -> Vec<(String, f64, f64)> {
    set.names
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let (lo, hi) = points
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                    (a.min(p[k]), b.max(p[k]))
                });
            (name.clone(), lo, hi)
        })
        .collect()
}

/// A leave-one-out relative error E (eq. 4.9, without its sign) as a held-out
/// `(predicted, measured)` pair of measured 1: the prediction `1 − E`, the larger of the two
/// log errors E can stand for (`1 + E` when E ≥ 1).
pub(crate) fn unsigned(e: f64) -> (f64, f64) {
    if e < 1.0 {
        (1.0 - e, 1.0)
    } else {
        (1.0 + e, 1.0)
    }
}

/// The calibration of a segment-time fit: each row's leave-one-out error with its
/// distance beyond the points where the same segment was sampled otherwise (the others
/// determine its coefficients), and the spread of the sample runs' wall times (of the
/// segments' repetitions when there are no `run` rows).
fn calibrate(
    fit: &SegmentFit,
    order: &[(usize, String)],
    points: &[Vec<f64>],
    groups: &HashMap<(usize, String), Vec<f64>>,
    set: &SampleSet,
) -> fit::interval::Calibration {
    let held: Vec<(f64, f64, f64)> = fit
        .leave_one_out
        .iter()
        .flat_map(|l| l.relative_errors.iter().enumerate())
        .filter_map(|(i, e)| {
            let e = (*e)?;
            let (p, seg) = order.get(i)?;
            let others: Vec<&Vec<f64>> = order
                .iter()
                .filter(|(q, s)| s == seg && q != p)
                .map(|(q, _)| &points[*q])
                .collect();
            let distance = (0..points[*p].len())
                .map(|k| {
                    let (lo, hi) = others
                        .iter()
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), o| {
                            (a.min(o[k]), b.max(o[k]))
                        });
                    if others.is_empty() {
                        0.0
                    } else {
                        fit::interval::distance(points[*p][k], lo, hi)
                    }
                })
                .fold(0.0, f64::max);
            let (predicted, measured) = unsigned(e);
            Some((predicted, measured, distance))
        })
        .collect();
    let mut runs: Vec<(&Vec<f64>, Vec<f64>)> = Vec::new();
    for (p, t) in &set.runs {
        match runs.iter_mut().find(|(q, _)| *q == p) {
            Some((_, g)) => g.push(*t),
            None => runs.push((p, vec![*t])),
        }
    }
    let spread_of_runs = fit::interval::log_spread(runs.iter().map(|(_, g)| g.as_slice()));
    let mut c = fit::interval::Calibration::new(
        "leave-one-out",
        held,
        order.iter().map(|k| groups[k].as_slice()),
    );
    if spread_of_runs.is_some() {
        c.spread = spread_of_runs;
    }
    c
}

/// Solves `rows` for the coefficients `coeffs` by least squares with merges. A time is a
/// sum of non-negative costs: when the fit makes a coefficient negative (noise in a small
/// term), the coefficients that the non-negative least-squares optimum holds at 0
/// ([`fit::nnls`]'s active set) are held at 0 and the others refitted.
/// Returns the fit and the coefficients held at 0 with the value the unconstrained fit gave
/// them.
///
/// # Errors
/// [`SamplesError::Fit`]; [`SamplesError::Negative`] when every coefficient would be held at
/// 0.
pub(crate) fn solve_nonnegative(
    coeffs: &[String],
    rows: Vec<SampleRow>,
) -> Result<(SegmentFit, Vec<(String, f64)>), SamplesError> {
    let (mut columns, mut rows) = (coeffs.to_vec(), rows);
    let mut clamped: Vec<(String, f64)> = Vec::new();
    // Each pass drops at least one column: at most one pass per coefficient.
    loop {
        let fit = fit_coefficients(&Samples {
            columns: columns.clone(),
            rows: rows.clone(),
        })?;
        let worst = fit
            .coefficients
            .iter()
            .filter(|c| c.value < 0.0)
            .min_by(|a, b| a.value.total_cmp(&b.value));
        let Some(worst) = worst else {
            return Ok((fit, clamped));
        };
        let design = Design::from_rows(&rows.iter().map(|r| r.values.clone()).collect::<Vec<_>>())
            .map_err(CoeffError::from)?;
        let observed: Vec<f64> = rows.iter().map(|r| r.mean_time() - r.known).collect();
        let optimum = fit::nnls(&design, &observed, &fit::NnlsOptions::default())
            .map_err(CoeffError::from)?;
        let mut zero: Vec<usize> = (0..columns.len())
            .filter(|&j| optimum.x[j] <= 0.0)
            .collect();
        if zero.is_empty() {
            // Merged columns can leave the optimum positive where the merged fit is not.
            zero = columns
                .iter()
                .position(|n| *n == worst.name)
                .into_iter()
                .collect();
        }
        if zero.len() >= columns.len() {
            return Err(SamplesError::Negative {
                coeff: worst.name.clone(),
                value: worst.value,
            });
        }
        for &j in zero.iter().rev() {
            let name = columns.remove(j);
            clamped.push((name.clone(), fit.coefficient(&name).unwrap_or(0.0)));
            for r in &mut rows {
                r.values.remove(j);
            }
        }
    }
}

/// A merge the coefficient fit made holds for the model (as the EM trap of spec §6.3, where
/// two terms are constant at every size) or only at the sample points (too few of them):
/// checked at a point beyond the samples ([`beyond`]).
fn check_merges(
    model: &Model,
    set: &SampleSet,
    fit: &SegmentFit,
    limits: &Limits,
) -> Result<(), SamplesError> {
    if fit.merges.is_empty() {
        return Ok(());
    }
    let Some(top) = beyond(set.samples.iter().map(|s| s.params.as_slice())) else {
        return Ok(());
    };
    let b = Bindings {
        params: named(&set.names, &top),
        coeffs: Vec::new(),
    };
    // A point the model cannot be evaluated at: nothing to check against.
    let Ok(terms) = segment_terms(model, &b, limits) else {
        return Ok(());
    };
    let factor =
        |t: &SegmentTerms, c: &str| t.terms.iter().find(|(n, _)| n == c).map_or(0.0, |x| x.1);
    for m in &fit.merges {
        for t in &terms {
            let own = factor(t, &m.column);
            let implied: f64 = m.into.iter().map(|(o, f)| f * factor(t, o)).sum();
            if (own - implied).abs() > 1e-9 * own.abs().max(implied.abs()) {
                return Err(refuted(m, segments_using(model, &m.column).join(", ")));
            }
        }
    }
    Ok(())
}

/// A point beyond the samples, to check a merge at: the largest sample point with every
/// parameter that varies over the samples doubled (one they share, as the processor count
/// of a fit per P, is kept: a merge may hold at one processor count only; from a single
/// point, every parameter is doubled).
pub(crate) fn beyond<'a>(points: impl Iterator<Item = &'a [f64]> + Clone) -> Option<Vec<f64>> {
    let first = points.clone().next()?;
    let mut varies: Vec<bool> = (0..first.len())
        .map(|j| points.clone().any(|p| p[j] != first[j]))
        .collect();
    if !varies.contains(&true) {
        // One point: every parameter doubled.
        varies.iter_mut().for_each(|v| *v = true);
    }
    let top = points.max_by(|a, b| a.iter().sum::<f64>().total_cmp(&b.iter().sum::<f64>()))?;
    Some(
        top.iter()
            .zip(&varies)
            .map(|(v, &d)| if d { 2.0 * v } else { *v })
            .collect(),
    )
}

/// The error for merge `m`, which the samples imply and the model refutes; `segments` says
/// what to sample at more sizes.
pub(crate) fn refuted(m: &crate::coeffs::Merge, segments: String) -> SamplesError {
    let others: Vec<String> = m.into.iter().map(|(o, _)| format!("`{o}`")).collect();
    SamplesError::Underdetermined {
        coeff: m.column.clone(),
        others: if others.is_empty() {
            "zero".to_string()
        } else {
            others.join(", ")
        },
        segments,
    }
}

impl SampleSet {
    /// The paper's warning about samples whose sizes the processors do not divide (§4 step 4):
    /// at each sample point, every whole-number parameter but the processor count `by` that
    /// leaves a remainder over it (through [`crate::scaling::uneven_sample`]), once per value.
    pub fn uneven_warnings(&self, by: &str) -> Vec<String> {
        let Some(j) = self.names.iter().position(|n| n == by) else {
            return Vec::new();
        };
        let mut points: Vec<&Vec<f64>> = self
            .samples
            .iter()
            .map(|s| &s.params)
            .chain(self.runs.iter().map(|r| &r.0))
            .collect();
        points.sort_by(|a, b| {
            a.iter()
                .zip(b.iter())
                .map(|(x, y)| x.total_cmp(y))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        points.dedup();
        let mut out = Vec::new();
        for point in points {
            let p = point[j];
            if p < 1.0 || p.fract() != 0.0 {
                continue;
            }
            for (k, &v) in point.iter().enumerate() {
                if k == j || v < 1.0 || v.fract() != 0.0 || v > 1e15 {
                    continue;
                }
                if let Ok(Some(crate::scaling::ScalingWarning::UnevenSample {
                    remainder, ..
                })) = crate::scaling::uneven_sample(v as u64, p as u64)
                {
                    let text = format!(
                        "the sample at {name} = {v}, {by} = {p} does not divide evenly over the \
                         {p} processors (remainder {remainder}): its load is unbalanced, unlike the \
                         paper's samples (section 4, step 4); choose sample values of {name} that \
                         {by} divides",
                        name = self.names[k]
                    );
                    if !out.contains(&text) {
                        out.push(text);
                    }
                }
            }
        }
        out
    }

    /// The warnings about the samples themselves: [`SampleSet::uneven_warnings`], then
    /// [`SampleSet::spread_warnings`].
    pub fn sample_warnings(&self, by: &str) -> Vec<String> {
        let mut out = self.uneven_warnings(by);
        out.extend(self.spread_warnings(by));
        out
    }

    /// A warning for each parameter but `by` whose sample values, all positive, are fewer
    /// than [`MIN_SPREAD`] times apart (a single value says nothing): over so narrow a range
    /// leave-one-out cannot show a growth the model lacks, and two coefficients of one
    /// segment are ill-conditioned beyond it.
    pub fn spread_warnings(&self, by: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (k, name) in self.names.iter().enumerate().filter(|(_, n)| *n != by) {
            let values = self.values_of(k);
            let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
                continue;
            };
            if values.len() < 2 || lo <= 0.0 || hi / lo >= MIN_SPREAD {
                continue;
            }
            let shown: Vec<String> = values.iter().map(|v| trace::text::num(*v)).collect();
            out.push(format!(
                "the samples' {name} = {} lie only {:.2}× apart: over less than {MIN_SPREAD}× \
                 a coefficient's fit cannot show a growth the model lacks, and a prediction \
                 far beyond them carries their noise; sample {name} at least {MIN_SPREAD}× apart",
                shown.join(", "),
                hi / lo
            ));
        }
        out
    }

    /// The sample runs' wall time, seconds (T_sample of R_conservative, eq. 4.8; 0 without
    /// `run` rows).
    pub fn run_seconds(&self) -> f64 {
        self.runs.iter().map(|r| r.1).sum()
    }

    /// The samples whose parameter `by` equals `value` (all of them when `by` is not a
    /// parameter or `value` is `None`).
    pub fn at(&self, by: &str, value: Option<f64>) -> SampleSet {
        match (self.names.iter().position(|n| n == by), value) {
            (Some(j), Some(v)) => SampleSet {
                names: self.names.clone(),
                runs: self.runs.iter().filter(|r| r.0[j] == v).cloned().collect(),
                samples: self
                    .samples
                    .iter()
                    .filter(|s| s.params[j] == v)
                    .cloned()
                    .collect(),
            },
            _ => self.clone(),
        }
    }

    /// The samples a prediction at `by = value` is fitted to: those at that value (the
    /// paper's N₀ = N), or all of them when there are none there, with a note for the user
    /// (samples from fewer processors tend to under-predict, from more to over-predict).
    pub fn for_prediction(&self, by: &str, value: Option<f64>) -> (SampleSet, Option<String>) {
        let sub = self.at(by, value);
        if sub.samples.is_empty() && sub.runs.is_empty() {
            let note = format!(
                "no samples at {by}={}; the coefficients are fitted to the samples at every {by} (samples from fewer processors tend to under-predict, from more to over-predict)",
                value.unwrap_or(f64::NAN)
            );
            (self.clone(), Some(note))
        } else {
            (sub, None)
        }
    }

    /// The distinct values of the `k`-th parameter over the samples and runs, ascending.
    fn values_of(&self, k: usize) -> Vec<f64> {
        let mut vs: Vec<f64> = self
            .samples
            .iter()
            .map(|s| s.params[k])
            .chain(self.runs.iter().map(|r| r.0[k]))
            .collect();
        vs.sort_by(f64::total_cmp);
        vs.dedup();
        vs
    }

    /// The distinct values of parameter `by`, ascending (`None` once when it is not one).
    pub fn groups(&self, by: &str) -> Vec<Option<f64>> {
        match self.names.iter().position(|n| n == by) {
            Some(j) => self.values_of(j).into_iter().map(Some).collect(),
            None => vec![None],
        }
    }
}
