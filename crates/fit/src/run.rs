//! Modelling a whole experiment: every callpath and metric with the chosen modeler, the
//! models' domains, bootstrap intervals for predictions, and the warnings a user needs
//! (too few points, noise as large as the trend, predictions beyond the measured range).

use crate::interval::Calibration;
use crate::model::{Fitted, Measurement, Model};
use crate::pmnf::{extrap, ExtrapOptions};
use crate::read::{Experiment, Series};
use crate::vates::{moments, refit, search, VatesOptions};
use crate::FitError;
use stats::rng::Draw;

diag::choices! {
    /// Which search chooses the models.
    #[derive(Default)]
    pub enum Modeler {
        /// The `vates` modeler (relative errors, up to two terms, lack-of-fit test).
        #[default]
        Vates = "vates": "Relative-error fits of up to two terms, chosen by cross-validation and a lack-of-fit test against the repetitions (the default)",
        /// Extra-P 4.2.5's default modelers, for parity.
        Extrap = "extrap": "Extra-P 4.2.5's default modelers, for parity",
    }
}

/// Options of [`model_experiment`].
#[derive(Clone, Debug, PartialEq)]
pub struct RunOptions {
    /// The search.
    pub modeler: Modeler,
    /// Options of the `vates` modeler.
    pub vates: VatesOptions,
    /// Options of the `extrap` modeler.
    pub extrap: ExtrapOptions,
    /// Bootstrap resamples of the repetitions for prediction intervals (0: none).
    pub bootstrap: usize,
    /// The bootstrap's seed.
    pub seed: u64,
    /// Model the metric times this parameter (strong scaling: time·p, the total work, is
    /// what PMNF describes well); predictions are divided back.
    pub times_param: Option<usize>,
}

/// The bootstrap replicates every interval of the workspace is made from by default (the
/// fit engine's and the task-parallel model's).
pub const BOOTSTRAP_REPLICATES: usize = 200;

/// The coverage every interval of the workspace aims at by default: the central 95% of the
/// replicates (their 2.5% and 97.5% quantiles).
pub const INTERVAL_LEVEL: f64 = 0.95;

/// The `(lower, upper)` quantiles of a central interval of coverage `level`.
pub fn interval_quantiles(level: f64) -> (f64, f64) {
    let tail = (1.0 - level.clamp(0.0, 1.0)) / 2.0;
    (tail, 1.0 - tail)
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            modeler: Modeler::Vates,
            vates: VatesOptions::default(),
            extrap: ExtrapOptions::default(),
            bootstrap: BOOTSTRAP_REPLICATES,
            seed: 1,
            times_param: None,
        }
    }
}

/// The model of one callpath and metric.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesModel {
    /// The callpath.
    pub callpath: String,
    /// The metric.
    pub metric: String,
    /// The chosen model (of the metric, or of metric·param with `times_param`).
    pub best: Fitted,
    /// Runner-up hypotheses, best first.
    pub alternatives: Vec<Fitted>,
    /// Per parameter, the smallest and largest measured value.
    pub domain: Vec<(f64, f64)>,
    /// Measured points and repetitions.
    pub points: usize,
    /// Total repetitions.
    pub repetitions: usize,
    /// The parameter the metric was multiplied by, if any.
    pub times_param: Option<usize>,
    /// Warnings about the data.
    pub warnings: Vec<String>,
    /// Bootstrap refits of the chosen hypothesis (none without repetitions to resample).
    boot: Option<Boot>,
    /// The chosen hypothesis' leave-one-out errors and the repetitions' spread, behind the
    /// calibrated intervals.
    pub calibration: crate::interval::Calibration,
    /// Whether every measured value was positive.
    positive: bool,
}

/// A prediction at one point.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// The point.
    pub point: Vec<f64>,
    /// The predicted value.
    pub value: f64,
    /// The bootstrap's central interval ([`INTERVAL_LEVEL`]), if there was a bootstrap.
    pub interval: Option<(f64, f64)>,
    /// The calibrated interval ([`crate::interval`], 90%): the bootstrap's widened by the
    /// chosen hypothesis' leave-one-out errors and the repetitions' spread.
    pub calibrated: Option<crate::interval::Interval>,
    /// Warnings (beyond the measured domain).
    pub warnings: Vec<String>,
}

impl SeriesModel {
    fn scale(&self, point: &[f64]) -> f64 {
        self.times_param.map_or(1.0, |p| point[p])
    }

    /// The model's prediction at `point` (one value per parameter), with its interval and
    /// a warning per parameter beyond the measured range.
    pub fn predict(&self, names: &[String], point: &[f64]) -> Prediction {
        let s = self.scale(point);
        let value = self.best.model.eval(point) / s;
        // The bootstrap's spread of the refit about the refit of the data itself, placed
        // around the chosen model's value (the chosen model may come from a fit the
        // bootstrap does not repeat, e.g. Extra-P's reuse of one-parameter coefficients).
        let boot = |level: f64| {
            self.boot.as_ref().and_then(|b| {
                let base = b.base.eval(point) / s;
                let mut v: Vec<f64> = b.models.iter().map(|m| m.eval(point) / s - base).collect();
                v.retain(|d| d.is_finite());
                if v.is_empty() || !value.is_finite() {
                    return None;
                }
                v.sort_by(f64::total_cmp);
                let at = |q: f64| stats::quantile_sorted(&v, q);
                let (lo, hi) = interval_quantiles(level);
                Some((value + at(lo)?, value + at(hi)?))
            })
        };
        let interval = boot(INTERVAL_LEVEL);
        // The distance beyond the measured domain: the largest over the parameters.
        let distance = point
            .iter()
            .zip(&self.domain)
            .map(|(&x, &(lo, hi))| crate::interval::distance(x, lo, hi))
            .fold(0.0, f64::max);
        let calibrated = self.calibration.interval(
            value,
            boot(crate::interval::LEVEL),
            crate::interval::LEVEL,
            distance,
        );
        let mut warnings = Vec::new();
        if value.is_infinite() && self.best.model.eval(point).is_infinite() {
            warnings.push(format!(
                "the model's value here is beyond the largest double ({:e}): it cannot be \
                 given as a number",
                f64::MAX
            ));
        } else if !value.is_finite() {
            warnings.push(format!(
                "the model is not defined here (its value is {value}): a logarithm or power of a \
                 non-positive parameter"
            ));
        } else if value < 0.0 && self.positive {
            warnings.push(
                "the model predicts a negative value where every measurement was positive: \
                 it does not extrapolate to this point"
                    .to_string(),
            );
        }
        for (i, (&x, &(lo, hi))) in point.iter().zip(&self.domain).enumerate() {
            let name = names.get(i).map_or("?", String::as_str);
            if x > hi && hi > 0.0 {
                warnings.push(format!(
                    "{name} = {} is {}× the largest measured {name} ({})",
                    trace::text::num(x),
                    trace::text::num((x / hi * 1000.0).round() / 1000.0),
                    trace::text::num(hi)
                ));
            } else if x < lo {
                warnings.push(format!(
                    "{name} = {} is below the smallest measured {name} ({})",
                    trace::text::num(x),
                    trace::text::num(lo)
                ));
            }
        }
        Prediction {
            point: point.to_vec(),
            value,
            interval,
            calibrated,
            warnings,
        }
    }
}

/// The bootstrap of a chosen hypothesis: its refit on the data and on resamplings.
#[derive(Clone, Debug, PartialEq)]
struct Boot {
    base: Model,
    models: Vec<Model>,
}

/// Reads a point `p=1024,n=10` over the parameters `names`.
///
/// # Errors
/// A message (for a person): not `NAME=VALUE` pairs, an unknown name (with the closest one),
/// a value that is not a finite number, a parameter without a value.
pub fn parse_point(s: &str, names: &[String]) -> Result<Vec<f64>, String> {
    let mut point = vec![f64::NAN; names.len()];
    for part in s.split(',') {
        let Some((k, v)) = part.split_once('=') else {
            return Err(format!(
                "expected NAME=VALUE pairs such as {}=1024",
                names.first().map_or("p", String::as_str)
            ));
        };
        let k = k.trim();
        let Some(i) = names.iter().position(|n| n == k) else {
            let hint = diag::did_you_mean(&diag::suggest(k, names.iter().map(String::as_str)))
                .unwrap_or_else(|| format!("the parameters are {}", names.join(", ")));
            return Err(format!("no parameter `{k}`; {hint}"));
        };
        point[i] = v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("`{}` is not a finite number", v.trim()))?;
    }
    if let Some(i) = point.iter().position(|x| x.is_nan()) {
        return Err(format!("no value for `{}`; give every parameter", names[i]));
    }
    Ok(point)
}

/// Refits the chosen hypothesis on `samples` resamplings of every point's repetitions;
/// `None` when no point has two repetitions (nothing to resample) or the hypothesis cannot
/// be refitted.
fn bootstrap(ms: &[Measurement], model: &Model, opts: &RunOptions, relative: bool) -> Option<Boot> {
    if ms.iter().all(|m| m.values.len() < 2) {
        return None;
    }
    let mut rng = stats::rng::seeded(opts.seed);
    let bases: Vec<_> = model.terms.iter().map(|t| t.basis.clone()).collect();
    let cols: Vec<Vec<f64>> = bases
        .iter()
        .map(|b| ms.iter().map(|m| b.eval(&m.point)).collect())
        .collect();
    let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
    let (y, reps, spread) = moments(ms);
    // The standard error of each mean, for points with many repetitions.
    let se: Vec<f64> = reps
        .iter()
        .zip(&spread)
        .map(|(&r, &s)| {
            if r > 1.0 {
                (s / (r - 1.0) / r).sqrt()
            } else {
                0.0
            }
        })
        .collect();
    let base = Model::from_coefficients(&bases, &refit(&refs, &y, &reps, relative)?);
    let mut out = Vec::with_capacity(opts.bootstrap);
    let mut means = vec![0.0; ms.len()];
    for _ in 0..opts.bootstrap {
        for (i, m) in ms.iter().enumerate() {
            let r = m.values.len();
            means[i] = if r > MANY_REPETITIONS {
                // The resampled mean of many repetitions is normal about the mean.
                y[i] + se[i] * rng.gauss()
            } else {
                (0..r)
                    .map(|_| m.values[rng.below(r as u64) as usize])
                    .sum::<f64>()
                    / r as f64
            };
        }
        if let Some(c) = refit(&refs, &means, &reps, relative) {
            out.push(Model::from_coefficients(&bases, &c));
        }
    }
    Some(Boot { base, models: out })
}

/// The chosen hypothesis refitted without each point in turn and its prediction there
/// against the point's mean (the terms kept, the coefficients refitted with the same
/// weighting), with the repetitions' spread: the calibration of [`crate::interval`].
fn leave_one_out(ms: &[Measurement], model: &Model, relative: bool) -> Calibration {
    let bases: Vec<_> = model.terms.iter().map(|t| t.basis.clone()).collect();
    let held: Vec<(f64, f64, f64)> = (0..ms.len())
        .filter_map(|i| {
            let rest: Vec<Measurement> = ms
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, m)| m.clone())
                .collect();
            if rest.len() <= bases.len() {
                return None;
            }
            let cols: Vec<Vec<f64>> = bases
                .iter()
                .map(|b| rest.iter().map(|m| b.eval(&m.point)).collect())
                .collect();
            let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            let (y, reps, _) = moments(&rest);
            let c = refit(&refs, &y, &reps, relative)?;
            let held = Model::from_coefficients(&bases, &c);
            // How far the left-out point lies beyond the others (largest over parameters).
            let distance = (0..ms[i].point.len())
                .map(|p| {
                    let (lo, hi) = domain_of(&rest.iter().map(|m| m.point[p]).collect::<Vec<_>>());
                    crate::interval::distance(ms[i].point[p], lo, hi)
                })
                .fold(0.0, f64::max);
            Some((held.eval(&ms[i].point), ms[i].mean(), distance))
        })
        .collect();
    Calibration::new(
        "leave-one-out",
        held,
        ms.iter().map(|m| m.values.as_slice()),
    )
}

/// How many of the largest values of a one-parameter series forward validation predicts,
/// each by the whole search on the values below it.
const FORWARD_FOLDS: usize = 3;

/// The points of `ms` by increasing parameter (one parameter).
fn by_size(ms: &[Measurement]) -> Vec<&Measurement> {
    let mut sorted: Vec<&Measurement> = ms.iter().collect();
    sorted.sort_by(|a, b| a.point[0].total_cmp(&b.point[0]));
    sorted
}

/// The forward folds: each of the [`FORWARD_FOLDS`] largest points with at least 3 below.
fn forward_folds(n: usize) -> std::ops::Range<usize> {
    n.saturating_sub(FORWARD_FOLDS).max(3)..n
}

/// Forward validation with the search redone: each of the largest points predicted by the
/// model the modeler chooses on the points below it (the choice of terms is part of the
/// error, as it is not in [`leave_one_out`]): `|ln(ŷ/y)|` and the point's distance beyond
/// those below (a fold whose search fails is left out).
fn forward(ms: &[Measurement], opts: &RunOptions) -> Vec<(f64, f64)> {
    let sorted = by_size(ms);
    forward_folds(sorted.len())
        .filter_map(|k| {
            let below: Vec<Measurement> = sorted[..k].iter().map(|m| (*m).clone()).collect();
            let chosen = match opts.modeler {
                Modeler::Vates => search(&below, 1, &opts.vates).ok()?.best.model,
                Modeler::Extrap => extrap(&below, 1, &opts.extrap).ok()?.model,
            };
            let at = sorted[k];
            Some((
                crate::interval::log_error(chosen.eval(&at.point), at.mean()),
                crate::interval::distance(at.point[0], sorted[0].point[0], sorted[k - 1].point[0]),
            ))
        })
        .collect()
}

/// Above this many repetitions a point's resampled mean is drawn from its normal limit
/// instead of by resampling (the same distribution, at a cost independent of the count).
const MANY_REPETITIONS: usize = 64;

/// What is wrong with the data of a series, for a person to read.
fn data_warnings(ms: &[Measurement], names: &[String]) -> Vec<String> {
    let mut w = Vec::new();
    for (p, name) in names.iter().enumerate() {
        let mut xs: Vec<f64> = ms.iter().map(|m| m.point[p]).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        if xs.len() < 5 {
            w.push(format!(
                "only {} values of {name} were measured; 5 or more make a model trustworthy",
                xs.len()
            ));
        }
    }
    if ms.iter().all(|m| m.values.len() < 2) {
        w.push(
            "one run per point: no noise estimate and no prediction intervals; repeat runs to \
             get them"
                .to_string(),
        );
    }
    // Noise against trend: the repetitions' typical relative spread against the means'
    // relative range.
    let means: Vec<f64> = ms.iter().map(Measurement::mean).collect();
    let (lo, hi) = means
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let mid = (hi.abs() + lo.abs()) / 2.0;
    let spread: Vec<f64> = ms
        .iter()
        .zip(&means)
        .filter(|(m, _)| m.values.len() > 1)
        .map(|(m, &mean)| {
            let var = m
                .values
                .iter()
                .map(|v| (v - mean) * (v - mean))
                .sum::<f64>()
                / (m.values.len() - 1) as f64;
            var.sqrt()
        })
        .collect();
    if !spread.is_empty() && mid > 0.0 {
        let typical = spread.iter().sum::<f64>() / spread.len() as f64;
        if typical >= (hi - lo) {
            w.push(format!(
                "the repetitions scatter by {:.3} (standard deviation), as much as the means \
                 change over the whole range ({:.3}): the trend cannot be told from noise",
                typical,
                hi - lo
            ));
        }
    }
    w
}

/// The smallest and largest of `x`.
fn domain_of(x: &[f64]) -> (f64, f64) {
    x.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        })
}

/// Models one series.
///
/// # Errors
/// As the modeler: a series without measurements or with non-finite values.
pub fn model_series(
    series: &Series,
    names: &[String],
    opts: &RunOptions,
) -> Result<SeriesModel, FitError> {
    let dims = names.len();
    // The modelers work on values scaled by a power of two near the largest (exact in
    // floating point), so that sums and squares of values near 1e308 do not overflow.
    let factor = |m: &Measurement| opts.times_param.map_or(1.0, |p| m.point[p]);
    let largest = series
        .measurements
        .iter()
        .flat_map(|m| m.values.iter().map(move |v| (v * factor(m)).abs()))
        .fold(0.0f64, f64::max);
    // Rounded down: 2^1024 is not a double, and values up to f64::MAX must stay finite.
    let scale = if largest > 0.0 && largest.is_finite() {
        2f64.powi(largest.log2().floor() as i32)
    } else {
        1.0
    };
    let ms: Vec<Measurement> = series
        .measurements
        .iter()
        .map(|m| Measurement {
            point: m.point.clone(),
            values: m.values.iter().map(|v| v * factor(m) / scale).collect(),
        })
        .collect();
    let (best, alternatives, relative) = match opts.modeler {
        Modeler::Vates => {
            let s = search(&ms, dims, &opts.vates)?;
            let relative = opts.vates.relative && ms.iter().all(|m| m.mean() > 0.0);
            (s.best, s.alternatives, relative)
        }
        Modeler::Extrap => (extrap(&ms, dims, &opts.extrap)?, Vec::new(), false),
    };
    let domain = (0..dims)
        .map(|p| {
            ms.iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), m| {
                    (a.min(m.point[p]), b.max(m.point[p]))
                })
        })
        .collect();
    let boot = if opts.bootstrap > 0 {
        bootstrap(&ms, &best.model, opts, relative).map(|b| Boot {
            base: b.base.scaled(scale),
            models: b.models.iter().map(|m| m.scaled(scale)).collect(),
        })
    } else {
        None
    };
    // A model is never NaN or infinite: values whose range a double cannot fit (1e-300
    // beside 1, whose relative weights overflow) are an error, not a NaN model. (Its value
    // at a measured point may still exceed the largest double once scaled back.)
    let defined = |f: &Fitted| {
        let finite =
            |m: &Model| m.constant.is_finite() && m.terms.iter().all(|t| t.coefficient.is_finite());
        finite(&f.model)
            && finite(&f.model.scaled(scale))
            && f.quality.smape.is_finite()
            && ms.iter().all(|m| f.model.eval(&m.point).is_finite())
    };
    if !defined(&best) {
        let magnitudes = || {
            series
                .measurements
                .iter()
                .flat_map(|m| m.values.iter().map(move |v| (v * factor(m)).abs()))
        };
        return Err(FitError::Range {
            what: "model",
            smallest: magnitudes()
                .filter(|v| *v > 0.0)
                .fold(f64::INFINITY, f64::min),
            largest,
        });
    }
    let best = best.scaled(scale);
    let alternatives: Vec<Fitted> = alternatives
        .iter()
        .filter(|f| defined(f))
        .map(|f| f.scaled(scale))
        .collect();
    let positive = ms.iter().all(|m| m.values.iter().all(|&v| v > 0.0));
    // Ratios are unchanged by the scaling and by the factor of `times_param` (the held-out
    // prediction and the measured mean at a point carry the same factor).
    let mut calibration = leave_one_out(&ms, &best.model, relative);
    if dims == 1 {
        let folds = forward(&ms, opts);
        if !folds.is_empty() {
            calibration.how = "leave-one-out and forward validation".into();
        }
        for (e, d) in folds {
            calibration.held_out.push(e);
            calibration.distances.push(d);
        }
    }
    let warnings = {
        let mut w = data_warnings(&ms, names);
        if dims == 1 {
            // A model that does not decrease where the data do will not extrapolate.
            let x: Vec<f64> = ms.iter().map(|m| m.point[0]).collect();
            let means: Vec<f64> = ms.iter().map(Measurement::mean).collect();
            let (lo, hi) = domain_of(&x);
            let flat = best.model.eval(&[hi]) >= best.model.eval(&[lo]);
            // Extra-P's growing blocks follow a decreasing series only with a negative
            // coefficient, which turns negative beyond the data.
            let decreasing_term = best.model.terms.iter().any(|t| match &t.basis {
                crate::Basis::Pmnf(f) => f
                    .iter()
                    .any(|f| f.term.poly.num() < 0 || f.term.log.num() < 0),
                crate::Basis::User(_) => false,
            });
            let misses = flat || (opts.modeler == Modeler::Extrap && !decreasing_term);
            if misses && crate::vates::decreasing_blocks(&x, &means) {
                let why = match opts.modeler {
                    Modeler::Extrap => {
                        "the extrap modeler's building blocks grow (Extra-P's negative \
                         exponents carry a negative power of the logarithm, undefined \
                         where it is 0); the vates modeler adds decreasing terms itself"
                    }
                    Modeler::Vates => {
                        "no decreasing term fits; model the metric times the parameter, \
                         or give a decreasing term of your own"
                    }
                };
                w.push(format!(
                    "the values decrease as {} grows, but the model does not follow them \
                     with a decreasing term: {why}",
                    names[0]
                ));
            }
        }
        if let Some(p) = opts.times_param {
            if series.measurements.iter().any(|m| m.point[p] <= 0.0) {
                w.push(format!(
                    "{} ≤ 0 at some points: the metric times {} is 0 or negative there",
                    names[p], names[p]
                ));
            }
        }
        w
    };
    Ok(SeriesModel {
        callpath: series.callpath.clone(),
        metric: series.metric.clone(),
        best,
        alternatives,
        domain,
        points: ms.len(),
        repetitions: ms.iter().map(|m| m.values.len()).sum(),
        times_param: opts.times_param,
        warnings,
        boot,
        calibration,
        positive,
    })
}

/// Models every series of an experiment, in parallel (a failing series gives its error in
/// its place; the order is the experiment's).
pub fn model_experiment(e: &Experiment, opts: &RunOptions) -> Vec<Result<SeriesModel, FitError>> {
    use rayon::prelude::*;
    e.series
        .par_iter()
        .map(|s| model_series(s, &e.parameters, opts))
        .collect()
}
