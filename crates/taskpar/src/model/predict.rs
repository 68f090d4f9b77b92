//! Prediction: the chain of the paper's Fig. 5 at (n, p), with its components, the direct
//! regression beside it, the bootstrap interval, the work and span bounds, and warnings.

use serde::Serialize;
use trace::text::num;

use super::equations;
use super::error::PredictError;
use super::features::{Inputs, Transform};
use super::fitted::{Model, Replicate};

/// Lower bounds (and the greedy upper bound) on the time at (n, p).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bounds {
    /// The work law: time ≥ T1/p.
    pub work_over_p: f64,
    /// The span law: time ≥ T∞ (when the model has the span).
    pub span: Option<f64>,
    /// Graham and Brent's bound for a greedy scheduler: time ≤ T1/p + T∞.
    pub greedy: Option<f64>,
}

/// A prediction of the two-step model at (n, p) (times in seconds).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prediction {
    /// The size asked for (before the transform).
    pub n: f64,
    /// The workers asked for.
    pub p: f64,
    /// time = (work + delay + no_work)/p (eq. 9).
    pub time: f64,
    /// T1(n, p) (eq. 10).
    pub work: f64,
    /// delay(n, p) (eq. 12).
    pub delay: f64,
    /// no_work(n, p) (eq. 15 or a span form).
    pub no_work: f64,
    /// T1'(n) (eq. 11).
    pub serial: f64,
    /// create_task(n) (eq. 13).
    pub create_task: f64,
    /// wait_tasks(n) (eq. 14).
    pub wait_tasks: f64,
    /// T∞(n), when the model has the span.
    pub span: Option<f64>,
    /// The direct regression's time (the baseline).
    pub direct: f64,
    /// The bootstrap interval of the time (`None` without replicates).
    pub interval: Option<(f64, f64)>,
    /// The interval's coverage (0.95: the central 95% of the replicates).
    pub level: f64,
    /// The calibrated 90% interval ([`fit::interval`]): the bootstrap's at 90% widened by
    /// the forward-validation errors (scaled to this point's distance beyond the training
    /// sizes) and the repetitions' spread.
    pub calibrated: Option<fit::interval::Interval>,
    /// The work and span laws.
    pub bounds: Bounds,
    /// Extrapolation, negative or non-finite components, a time below a bound.
    pub warnings: Vec<String>,
}

/// The chain's values at one point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Components {
    pub serial: f64,
    pub create_task: f64,
    pub wait_tasks: f64,
    pub span: Option<f64>,
    pub work: f64,
    pub delay: f64,
    pub no_work: f64,
    pub time: f64,
}

/// The chain (Fig. 5) at transformed size `x` and `p` workers, with the fitted coefficients
/// or a replicate's.
pub(crate) fn chain(model: &Model, rep: Option<&Replicate>, x: f64, p: f64) -> Components {
    let size = Inputs {
        n: x,
        p: 1.0,
        ..Inputs::default()
    };
    let (serial, create_task, wait_tasks, span) = match rep {
        None => (
            model.serial.eval(&size),
            model.create_task.eval(&size),
            model.wait_tasks.eval(&size),
            model.span.as_ref().map(|s| s.eval(&size)),
        ),
        Some(r) => (
            model.serial.eval_coefs(&r.serial, &size),
            model.create_task.eval_coefs(&r.create_task, &size),
            model.wait_tasks.eval_coefs(&r.wait_tasks, &size),
            match (&model.span, &r.span) {
                (Some(s), Some(c)) => Some(s.eval_coefs(c, &size)),
                _ => None,
            },
        ),
    };
    let at = Inputs {
        n: x,
        p,
        serial,
        create_task,
        wait_tasks,
        span: span.unwrap_or(0.0),
    };
    let (extra, delay, no_work) = match rep {
        None => (
            model.work.eval(&at),
            model.delay.eval(&at),
            model.no_work.eval(&at),
        ),
        Some(r) => (
            model.work.eval_coefs(&r.work, &at),
            model.delay.eval_coefs(&r.delay, &at),
            model.no_work.eval_coefs(&r.no_work, &at),
        ),
    };
    let work = serial + extra;
    Components {
        serial,
        create_task,
        wait_tasks,
        span,
        work,
        delay,
        no_work,
        time: equations::time(work, delay, no_work, p),
    }
}

/// The direct regression's time at transformed size `x` and `p` workers.
pub(crate) fn direct(model: &Model, x: f64, p: f64) -> f64 {
    model
        .direct
        .eval(&Inputs {
            n: x,
            p,
            ..Inputs::default()
        })
        .exp()
}

/// The model's input for size `n`, checked.
pub(crate) fn input(model: &Model, n: f64, p: f64) -> Result<f64, PredictError> {
    if !n.is_finite() {
        return Err(PredictError::Size {
            n,
            why: "the size is not a finite number",
        });
    }
    let x = model.transform.apply(n);
    if !(x.is_finite() && x > 0.0) {
        return Err(PredictError::Size {
            n,
            why: match model.transform {
                Transform::None => "the size must be positive",
                Transform::Pow2 => "2^n is not a finite number",
            },
        });
    }
    if !(p.is_finite() && p >= 1.0) {
        return Err(PredictError::Workers { p });
    }
    Ok(x)
}

/// A factor for people: four significant digits.
fn factor(v: f64) -> String {
    if v.is_finite() && v != 0.0 {
        let digits = 3 - v.abs().log10().floor() as i32;
        let scale = 10f64.powi(digits);
        num((v * scale).round() / scale)
    } else {
        num(v)
    }
}

/// The warnings about terms the training could not tell apart ([`super::Confound`]) whose kept
/// term gives, at this point, another value than the left-out one would: the choice
/// between them, made by their order in the basis, decides the prediction.
fn confound_warnings(model: &Model, c: &Components, x: f64, p: f64) -> Vec<String> {
    let size = Inputs {
        n: x,
        p: 1.0,
        ..Inputs::default()
    };
    let at = Inputs {
        n: x,
        p,
        serial: c.serial,
        create_task: c.create_task,
        wait_tasks: c.wait_tasks,
        span: c.span.unwrap_or(0.0),
    };
    let direct = Inputs {
        n: x,
        p,
        ..Inputs::default()
    };
    let mut out = Vec::new();
    for (name, sub) in model.sub_models() {
        let x = match name {
            "work_serial" | "create_task" | "wait_tasks" | "span" => &size,
            "direct" => &direct,
            _ => &at,
        };
        for (k, f) in sub.confounds_at(x) {
            if (f - 1.0).abs() <= CONFOUND_TOLERANCE {
                continue;
            }
            let (kept, left) = (k.stands_in.name(), k.term.name());
            let by = if f.is_finite() {
                format!("{}× what {left} would give", factor(f))
            } else {
                format!("a value where {left} would give 0")
            };
            out.push(format!(
                "{name}: training could not tell {left} from {kept} (there {left} = {} × \
                 {kept}); {kept} stands for both, chosen by its place in the basis, and here it \
                 gives {by}: train at more worker counts (and sizes) to separate them",
                factor(k.ratio)
            ));
        }
    }
    out
}

/// How far from 1 a confound's factor may be before a prediction warns (5%).
const CONFOUND_TOLERANCE: f64 = 0.05;

/// The warnings about where (n, p) lies against the training domain.
fn domain_warnings(model: &Model, n: f64, p: f64) -> Vec<String> {
    let d = &model.domain;
    let mut out = Vec::new();
    let pow2 = model.transform == Transform::Pow2;
    if n > d.n_max {
        let mut w = format!(
            "n = {} is {}× the largest training size ({}): extrapolated",
            num(n),
            factor(n / d.n_max),
            num(d.n_max)
        );
        if pow2 {
            w += &format!(
                "; the model's input 2^n is {}× its largest",
                factor((n - d.n_max).exp2())
            );
        }
        out.push(w);
    } else if n < d.n_min {
        let mut w = format!(
            "n = {} is below the smallest training size ({}, {}× smaller)",
            num(n),
            num(d.n_min),
            factor(d.n_min / n)
        );
        if pow2 {
            w += &format!(
                "; the model's input 2^n is {}× smaller",
                factor((d.n_min - n).exp2())
            );
        }
        out.push(w);
    }
    if p > d.p_max {
        out.push(format!(
            "p = {} is {}× the most workers in training ({}): extrapolated",
            num(p),
            factor(p / d.p_max),
            num(d.p_max)
        ));
    } else if p < d.p_min {
        out.push(format!(
            "p = {} is below the fewest workers in training ({})",
            num(p),
            num(d.p_min)
        ));
    }
    out
}

/// Predicts time(n, p) and its components with the two-step model, the direct regression
/// beside it, a bootstrap interval (the 5% and 95% quantiles of the replicates' chained
/// times), the work and span laws, and warnings: n or p outside the training domain (by
/// what factor), a component negative or not finite, a time below the span.
///
/// # Errors
/// [`PredictError`]: n not finite (or ≤ 0, or 2^n overflowing), p not finite or < 1.
pub fn predict(model: &Model, n: f64, p: f64) -> Result<Prediction, PredictError> {
    let x = input(model, n, p)?;
    let c = chain(model, None, x, p);
    let direct = direct(model, x, p);
    let mut warnings = domain_warnings(model, n, p);
    warnings.extend(confound_warnings(model, &c, x, p));
    let mut named = vec![
        ("T1'", c.serial),
        ("create_task", c.create_task),
        ("wait_tasks", c.wait_tasks),
    ];
    if let Some(s) = c.span {
        named.push(("span", s));
    }
    named.extend([
        ("work", c.work),
        ("delay", c.delay),
        ("no_work", c.no_work),
        ("time", c.time),
        ("direct-regression time", direct),
    ]);
    for (name, v) in named {
        if !v.is_finite() {
            warnings.push(format!(
                "the predicted {name} is not a finite number ({})",
                num(v)
            ));
        } else if v < 0.0 {
            warnings.push(format!("the predicted {name} is negative ({})", num(v)));
        }
    }
    let interval = if model.bootstrap.is_empty() {
        (None, None)
    } else {
        let mut times: Vec<f64> = model
            .bootstrap
            .iter()
            .map(|r| chain(model, Some(r), x, p).time)
            .filter(|t| t.is_finite())
            .collect();
        times.sort_by(f64::total_cmp);
        let (lo, hi) = fit::run::interval_quantiles(model.interval.level);
        let (clo, chi) = fit::run::interval_quantiles(fit::interval::LEVEL);
        (
            stats::quantile_sorted(&times, lo).zip(stats::quantile_sorted(&times, hi)),
            stats::quantile_sorted(&times, clo).zip(stats::quantile_sorted(&times, chi)),
        )
    };
    let (interval, boot90) = interval;
    let calibrated = model.calibration.interval(
        c.time,
        boot90,
        fit::interval::LEVEL,
        fit::interval::distance(
            x,
            model.transform.apply(model.domain.n_min),
            model.transform.apply(model.domain.n_max),
        ),
    );
    let bounds = Bounds {
        work_over_p: c.work / p,
        span: c.span,
        greedy: c.span.map(|s| c.work / p + s),
    };
    if let Some(s) = c.span {
        if c.time.is_finite() && s.is_finite() && c.time < s {
            warnings.push(format!(
                "the predicted time {} is below the predicted span {} (no schedule is faster than its span)",
                num(c.time),
                num(s)
            ));
        }
    }
    Ok(Prediction {
        n,
        p,
        time: c.time,
        work: c.work,
        delay: c.delay,
        no_work: c.no_work,
        serial: c.serial,
        create_task: c.create_task,
        wait_tasks: c.wait_tasks,
        span: c.span,
        direct,
        interval,
        level: model.interval.level,
        calibrated,
        bounds,
        warnings,
    })
}
