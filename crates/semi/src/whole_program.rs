//! Coefficients from whole-program times (spec §3.2's fitting variant applied to a whole
//! program, as the paper does for EM with model 4.11): samples that give only each run's
//! wall time (rows of the segment `run`).
//!
//! A thread graph's time is a max-plus function of its segment times: along the critical
//! path it is a sum of segment times, each linear in the coefficients, plus event costs. So
//! the time is piecewise linear in the coefficients. The fit linearises Algorithm G's time
//! at the current coefficients (a forward difference per coefficient, exact inside a linear
//! piece), solves the linear system as for segment times (least squares with merges, the
//! coefficients held non-negative), and repeats from the new coefficients until they stop
//! moving: Gauss–Newton on a piecewise-linear function, which settles once the critical
//! paths do. Each linearisation runs G `points × (coefficients + 1)` times.
//!
//! Whole-program times carry less than segment times: a coefficient whose terms grow like
//! another's over the samples (c_init·N² and c_solve·N² in GE) cannot be told apart from it,
//! so the fit merges them, as with segments; it needs at least as many sample points as
//! coefficients that remain.

use crate::coeffs::SampleRow;
use crate::instantiate::Bindings;
use crate::lang::segments_using;
use crate::lang::Model;
use crate::point::{named, point_text};
use crate::predict::{predict, PredictOptions};
use crate::samples::{beyond, refuted, solve_nonnegative, Fitted, SampleSet, SamplesError};
use crate::sim::{EventCosts, Options};

/// The most linearisations before the fit gives up.
pub const MAX_LINEARISATIONS: usize = 40;
/// The relative change of the sample points' times under which the fit has settled.
const SETTLED: f64 = 1e-9;
/// The relative step of the forward differences.
const STEP: f64 = 1e-3;

/// Fits the model's coefficients to the whole-program times of `set` (its `runs`), with
/// the event costs `costs` and the prediction options `opts`. Each sample point runs on as
/// many processors as its value of `by` (unless `opts.sim.processors` is set below
/// `usize::MAX`), as a prediction there would.
///
/// # Errors
/// [`SamplesError::Traversal`] (G fails at a point), [`SamplesError::Unsampled`] (a
/// coefficient that changes no sample's time), [`SamplesError::Fit`] (too few points),
/// [`SamplesError::Underdetermined`] (a merge the samples imply but the model refutes),
/// [`SamplesError::Unsettled`].
pub fn fit_runs<C: EventCosts>(
    model: &Model,
    set: &SampleSet,
    by: &str,
    costs: &C,
    opts: &PredictOptions,
) -> Result<Fitted, SamplesError> {
    let coeffs: Vec<String> = model.coeffs.iter().map(|c| c.name.clone()).collect();
    // The distinct points, each with the median of its runs.
    let mut points: Vec<(Vec<f64>, Vec<f64>)> = Vec::new();
    for (p, t) in &set.runs {
        match points.iter_mut().find(|(q, _)| q == p) {
            Some((_, ts)) => ts.push(*t),
            None => points.push((p.clone(), vec![*t])),
        }
    }
    let points: Vec<(Vec<f64>, f64)> = points
        .into_iter()
        .map(|(p, ts)| (p, stats::median(&ts).unwrap_or(f64::NAN)))
        .collect();
    let time = Timer {
        model,
        set,
        by: set.names.iter().position(|n| n == by),
        coeffs: &coeffs,
        costs,
        opts,
    };
    if coeffs.is_empty() || points.is_empty() {
        return Err(SamplesError::Empty);
    }
    if let Some((p, _)) = points.iter().find(|(_, t)| t.is_nan() || *t <= 0.0) {
        return Err(SamplesError::Traversal {
            point: point_text(&named(&set.names, p)),
            message: "the run's time is 0 s; a whole-program time must be > 0".to_string(),
        });
    }
    // The start: each coefficient alone explains an equal share of the largest sample's
    // time (coefficients that differ by orders of magnitude, as a cost per element and
    // one per step do, start near their scales, and every segment starts on some path).
    let mut c = {
        let (p, measured) = points
            .iter()
            .max_by(|a, b| a.0.iter().sum::<f64>().total_cmp(&b.0.iter().sum::<f64>()))
            .unwrap_or(&points[0]);
        let zero = vec![0.0; coeffs.len()];
        let t0 = time.at(p, &zero)?;
        let mut c = Vec::with_capacity(coeffs.len());
        for g in 0..coeffs.len() {
            let mut unit = zero.clone();
            unit[g] = 1.0;
            let share = (measured - t0) / (time.at(p, &unit)? - t0) / coeffs.len() as f64;
            c.push(if share.is_finite() && share > 0.0 {
                share
            } else {
                0.0
            });
        }
        c
    };
    // Settled when the times at the sample points stop moving: along a direction the
    // samples cannot see (two coefficients whose terms grow alike) the coefficients may
    // drift while every time stays put.
    let mut change = f64::INFINITY;
    let mut last: Option<Solved> = None;
    for iteration in 1..=MAX_LINEARISATIONS {
        let mut rows = Vec::with_capacity(points.len());
        let mut times = Vec::with_capacity(points.len());
        for (p, measured) in &points {
            let (t, grad) = time.linearised(p, &c)?;
            let known = t - grad.iter().zip(&c).map(|(g, v)| g * v).sum::<f64>();
            if !known.is_finite() || grad.iter().any(|g| !g.is_finite()) {
                return Err(SamplesError::Traversal {
                    point: point_text(&named(&set.names, p)),
                    message: format!(
                        "the run's time ({measured} s) is too large to fit: Algorithm G's time overflows"
                    ),
                });
            }
            rows.push(
                SampleRow::new(grad.iter().map(|g| g / measured).collect(), 1.0)
                    .with_known(known / measured),
            );
            times.push(t);
        }
        // A coefficient whose segments lie on no sample's critical path at these
        // coefficients: held where it is for this step (it may join a path later).
        let off: Vec<bool> = (0..coeffs.len())
            .map(|g| rows.iter().all(|r| r.values[g] == 0.0))
            .collect();
        if let Some((before, fit, clamped)) = last.take() {
            change = times.iter().zip(&before).fold(0.0f64, |m, (a, b)| {
                m.max((a - b).abs() / a.abs().max(f64::MIN_POSITIVE))
            });
            if change <= SETTLED {
                if let Some(g) = off.iter().position(|&o| o) {
                    return Err(SamplesError::OffCriticalPath {
                        coeff: coeffs[g].clone(),
                        segments: segments_using(model, &coeffs[g]).join(", "),
                    });
                }
                time.check_merges(&fit, &c, &points)?;
                let held: Vec<(f64, f64, f64)> = fit
                    .leave_one_out
                    .iter()
                    .flat_map(|l| l.relative_errors.iter().flatten())
                    .map(|&e| {
                        let (p, m) = crate::samples::unsigned(e);
                        (p, m, 0.0)
                    })
                    .collect();
                let mut reps: Vec<(&Vec<f64>, Vec<f64>)> = Vec::new();
                for (p, t) in &set.runs {
                    match reps.iter_mut().find(|(q, _)| *q == p) {
                        Some((_, g)) => g.push(*t),
                        None => reps.push((p, vec![*t])),
                    }
                }
                let calibration = fit::interval::Calibration::new(
                    "leave-one-out",
                    held,
                    reps.iter().map(|(_, g)| g.as_slice()),
                );
                return Ok(Fitted {
                    whole_program: Some(iteration - 1),
                    coefficients: coeffs.iter().cloned().zip(c).collect(),
                    fit,
                    points: points.len(),
                    clamped,
                    calibration,
                    domain: crate::samples::domain(
                        set,
                        &points.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>(),
                    ),
                });
            }
        }
        let on: Vec<String> = (0..coeffs.len())
            .filter(|&g| !off[g])
            .map(|g| coeffs[g].clone())
            .collect();
        if on.is_empty() {
            return Err(SamplesError::OffCriticalPath {
                coeff: coeffs[0].clone(),
                segments: segments_using(model, &coeffs[0]).join(", "),
            });
        }
        let rows = rows
            .into_iter()
            .map(|mut r| {
                r.values = (0..coeffs.len())
                    .filter(|&g| !off[g])
                    .map(|g| r.values[g])
                    .collect();
                r
            })
            .collect();
        let (fit, clamped) = solve_nonnegative(&on, rows)?;
        for (g, name) in coeffs.iter().enumerate() {
            if !off[g] {
                c[g] = fit.coefficient(name).unwrap_or(0.0);
            }
        }
        last = Some((times, fit, clamped));
    }
    Err(SamplesError::Unsettled {
        iterations: MAX_LINEARISATIONS,
        change,
    })
}

/// One linearisation's solution: the sample points' times it started from, the fit and the
/// coefficients it held at 0.
type Solved = (Vec<f64>, crate::coeffs::SegmentFit, Vec<(String, f64)>);

/// Algorithm G's time at a sample point for given coefficients.
struct Timer<'a, C: EventCosts> {
    model: &'a Model,
    set: &'a SampleSet,
    by: Option<usize>,
    coeffs: &'a [String],
    costs: &'a C,
    opts: &'a PredictOptions,
}

impl<C: EventCosts> Timer<'_, C> {
    fn at(&self, p: &[f64], c: &[f64]) -> Result<f64, SamplesError> {
        let params = named(&self.set.names, p);
        let processors = match (self.opts.sim.processors, self.by) {
            (usize::MAX, Some(j)) => p[j].max(1.0) as usize,
            (n, _) => n,
        };
        let opts = PredictOptions {
            limits: self.opts.limits,
            sim: Options {
                processors,
                schedule: false,
                ..self.opts.sim
            },
            notes: false,
            ..*self.opts
        };
        let b = Bindings {
            coeffs: self.coeffs.iter().cloned().zip(c.iter().copied()).collect(),
            params,
        };
        predict(self.model, &b, self.costs, &opts)
            .map(|pr| pr.outcome.time)
            .map_err(|e| SamplesError::Traversal {
                point: point_text(&b.params),
                message: e.to_string(),
            })
    }

    /// The time at `c` and its forward differences in each coefficient.
    fn linearised(&self, p: &[f64], c: &[f64]) -> Result<(f64, Vec<f64>), SamplesError> {
        let t = self.at(p, c)?;
        let size = c.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let mut grad = Vec::with_capacity(c.len());
        for g in 0..c.len() {
            let h = (c[g].abs() * STEP).max(size * STEP).max(f64::MIN_POSITIVE);
            let mut moved = c.to_vec();
            moved[g] += h;
            grad.push((self.at(p, &moved)? - t) / h);
        }
        Ok((t, grad))
    }

    /// A merge the fit made must hold beyond the samples too: checked on the linearisation
    /// at a point beyond them ([`beyond`]).
    fn check_merges(
        &self,
        fit: &crate::coeffs::SegmentFit,
        c: &[f64],
        points: &[(Vec<f64>, f64)],
    ) -> Result<(), SamplesError> {
        if fit.merges.is_empty() {
            return Ok(());
        }
        let Some(doubled) = beyond(points.iter().map(|(p, _)| p.as_slice())) else {
            return Ok(());
        };
        // A point G cannot traverse: nothing to check against.
        let Ok((_, grad)) = self.linearised(&doubled, c) else {
            return Ok(());
        };
        let slope = |name: &str| {
            self.coeffs
                .iter()
                .position(|n| n == name)
                .map_or(0.0, |g| grad[g])
        };
        for m in &fit.merges {
            let own = slope(&m.column);
            let implied: f64 = m.into.iter().map(|(o, f)| f * slope(o)).sum();
            if (own - implied).abs() > 1e-6 * own.abs().max(implied.abs()) {
                let users = segments_using(self.model, &m.column).join(", ");
                return Err(refuted(m, format!("whole programs ({users})")));
            }
        }
        Ok(())
    }
}
