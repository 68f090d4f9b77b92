//! Calibrated prediction intervals: the one mechanism behind the intervals of every
//! predicting command (`vates fit -D`, `taskpar predict`/`report`, `semi predict`/`validate`
//! and `vates compare`).
//!
//! A bootstrap of the chosen model measures how much the fitted mean moves when the
//! repetitions are resampled; it says nothing about how wrong the model's *form* is, nor
//! about how far a single run strays from the mean, and far beyond the data it can be
//! narrow around a wrong prediction. The calibrated interval adds both, measured rather
//! than assumed:
//!
//! * the **held-out errors** of the fit, `e_i = |ln(ŷ_{-i} / y_i)|`, i = 1..m: each measured
//!   point `y_i` (a mean of repetitions) against the prediction `ŷ_{-i}` of the same
//!   procedure fitted without it (leave-one-out, or forward validation: the largest sizes
//!   predicted from the smaller ones). Their level-`L` quantile is taken as split conformal
//!   prediction takes it, the `k`-th smallest with `k = ⌈(m + 1)·L⌉`; with fewer held-out
//!   points than that needs (`k > m`) the largest error is taken, and the interval says so
//!   (`short`). A held-out point beyond the sizes it was predicted from carries its
//!   distance `d_i = ln(x_i / x_edge) / ln(x_hi / x_lo)` (x the size, in the model's input;
//!   `[x_lo, x_hi]` the sizes fitted, `x_edge` the nearer end; 0 inside them; ∞ beyond a
//!   single size): the log distance in widths of the fitted range. A prediction at distance
//!   `D` (the same measure against its own fitted sizes) scales each such error to its
//!   distance, `e_i · max(1, D / d_i)`: a misfit of the growth, such as a wrong exponent,
//!   makes a log error linear in the log distance, and an exponent estimated over a range
//!   of log width L is off by about 1/L; so a test point 4× beyond the data is not
//!   predicted as well as the next size was, and a wider training range does better. An
//!   error made from a single size (d = ∞) is not scaled; a prediction from a single size
//!   (D = ∞) scales every error made at a finite distance to ∞. Then
//!   `q_v = e'_(min(k, m))`;
//! * the **repetitions' spread**: `σ`, the median over measured points of the sample standard
//!   deviation of `ln(repetition)`, scaled to the level by the normal quantile,
//!   `s = z_{(1+L)/2} · σ` (a single run's scatter about its point's mean);
//! * the **bootstrap** of the chosen model, when there is one: its interval `[b_lo, b_hi]` as
//!   log distances from the prediction, `β_lo = ln(ŷ / b_lo)` and `β_hi = ln(b_hi / ŷ)`
//!   (0 when absent, or when the bootstrap interval does not contain `ŷ` on that side).
//!
//! Without any held-out error (too few points to leave one out) the interval is `[0, ∞]`:
//! nothing measured bounds the model's error, and the interval does not pretend otherwise.
//!
//! The three are independent sources of error on the log scale and are added in quadrature:
//!
//! ```text
//! w_lo = √(β_lo² + q_v² + s²),   w_hi = √(β_hi² + q_v² + s²)
//! interval = [ ŷ·exp(−w_lo), ŷ·exp(w_hi) ]
//! ```
//!
//! The interval is multiplicative (times are positive, and a relative error of +100% and
//! −50% are the same miss), so it never crosses zero, and it is as wide as the fit is poor:
//! a fit whose held-out predictions miss by a factor of 2 gives an interval of at least
//! ×/÷ 2. Its relative width is `(upper − lower) / (2·ŷ)`, reported as ±; an interval wider
//! than ±50% is flagged ([`Interval::wide`]). It exists only for a positive, finite `ŷ`.
//!
//! Who measures what: `fit::run` leaves each point out of the chosen terms' refit and, for
//! one parameter, predicts each of the three largest values by the whole search on those
//! below; `taskpar::model::train` predicts each of the three largest training sizes by the
//! whole training on the sizes below (at least 4 of them when there are more), against the
//! median elapsed time at each worker count; `semi` takes its coefficient fit's
//! leave-one-out errors E (eq. 4.9, unsigned: each stands for the larger of its two log
//! errors, `−ln(1 − E)`), with the spread of the sample runs' wall times.
//!
//! [`LEVEL`] (90%) is the level every command states and the coverage figures of
//! `bench/RESULTS.md` measure: the share of measured test points inside their intervals.

use serde::{Deserialize, Serialize};

/// The level of the calibrated intervals of every predicting command: 90%.
pub const LEVEL: f64 = 0.90;

/// An interval wider than this relative half-width (±50%) is reported as wide.
pub const WIDE: f64 = 0.5;

/// What a fit measured about its own errors: the held-out errors and the repetitions'
/// spread, from which [`Calibration::interval`] makes an interval at any prediction.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// How the held-out errors were made (`leave-one-out`, `forward validation`, …).
    pub how: String,
    /// `|ln(ŷ_{-i}/y_i)|` of each held-out prediction (infinite where the held-out
    /// prediction is not positive).
    pub held_out: Vec<f64>,
    /// The distance `d_i` of each held-out point beyond the sizes it was predicted from
    /// (0 inside them; empty: all 0).
    #[serde(default)]
    pub distances: Vec<f64>,
    /// The median over measured points of the standard deviation of ln(repetition), `None`
    /// without repetitions.
    pub spread: Option<f64>,
}

/// A calibrated interval at one prediction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The level (0.9).
    pub level: f64,
    /// The lower end.
    pub lower: f64,
    /// The upper end (infinite when a held-out prediction was not positive).
    pub upper: f64,
    /// `q_v` as a relative error, `exp(q_v) − 1`: the fit's held-out error at the level.
    pub held_out_error: f64,
    /// `s` as a relative spread, `exp(s) − 1`: single runs' scatter at the level.
    pub spread: f64,
    /// How many held-out errors there were (m).
    pub held_out: usize,
    /// How the held-out errors were made.
    pub how: String,
    /// Fewer held-out errors than the level needs: the largest was taken.
    pub short: bool,
}

impl Interval {
    /// The relative half-width `(upper − lower) / (2·ŷ)` at prediction `value`.
    pub fn relative_width(&self, value: f64) -> f64 {
        (self.upper - self.lower) / (2.0 * value)
    }

    /// Whether the interval is wider than ±50% about `value`.
    pub fn wide(&self, value: f64) -> bool {
        let w = self.relative_width(value);
        w.is_nan() || w > WIDE
    }

    /// Whether `measured` lies inside.
    pub fn contains(&self, measured: f64) -> bool {
        self.lower <= measured && measured <= self.upper
    }

    /// One line for people: `90% interval [lo, hi] (±w%; HOW error e%, the 90% quantile of
    /// m; repetitions' spread s%)`, `wide` past ±50%.
    pub fn text(&self, value: f64, unit: &dyn Fn(f64) -> String) -> String {
        let pct = |x: f64| {
            if x.is_finite() {
                format!("{}%", trace::text::num((x * 1000.0).round() / 10.0))
            } else {
                "∞".to_string()
            }
        };
        let which = if self.held_out == 0 {
            "nothing held out".to_string()
        } else if self.short {
            format!("the largest of {}: too few for the level", self.held_out)
        } else {
            format!(
                "the {}% quantile of {}",
                trace::text::num(self.level * 100.0),
                self.held_out
            )
        };
        format!(
            "{}% interval [{}, {}] (±{}{}; {} error {} ({which}); repetitions' spread {})",
            trace::text::num(self.level * 100.0),
            unit(self.lower),
            if self.upper.is_finite() {
                unit(self.upper)
            } else {
                "∞".to_string()
            },
            pct(self.relative_width(value)),
            if self.wide(value) { ", wide" } else { "" },
            self.how,
            pct(self.held_out_error),
            pct(self.spread),
        )
    }
}

impl Calibration {
    /// A calibration from held-out `(predicted, measured, distance)` triples and the
    /// repetitions of each measured point (for the spread); triples whose measured value is
    /// not positive and finite are left out.
    pub fn new<'a>(
        how: &str,
        held: impl IntoIterator<Item = (f64, f64, f64)>,
        repetitions: impl IntoIterator<Item = &'a [f64]>,
    ) -> Calibration {
        let (held_out, distances) = held
            .into_iter()
            .filter(|&(_, y, _)| y.is_finite() && y > 0.0)
            .map(|(p, y, d)| (log_error(p, y), if d.is_nan() { 0.0 } else { d.max(0.0) }))
            .unzip();
        Calibration {
            how: how.to_string(),
            held_out,
            distances,
            spread: log_spread(repetitions),
        }
    }

    /// `q_v`: the conformal quantile at `level` of the held-out errors scaled to distance
    /// `distance`, and whether there were too few for it; `None` without held-out errors.
    pub fn held_out_quantile(&self, level: f64, distance: f64) -> Option<(f64, bool)> {
        let mut e: Vec<f64> = self
            .held_out
            .iter()
            .enumerate()
            .map(|(i, &e)| {
                let d = self.distances.get(i).copied().unwrap_or(0.0);
                if d > 0.0 && distance > d {
                    // e·∞ is ∞, and 0·∞ is 0: an exact held-out prediction stays exact.
                    if e == 0.0 {
                        0.0
                    } else {
                        e * distance / d
                    }
                } else {
                    e
                }
            })
            .filter(|e| !e.is_nan())
            .collect();
        if e.is_empty() {
            return None;
        }
        e.sort_by(f64::total_cmp);
        let m = e.len();
        let k = ((m as f64 + 1.0) * level).ceil() as usize;
        Some((e[k.clamp(1, m) - 1], k > m))
    }

    /// The calibrated interval at prediction `value`, `distance` beyond the fitted sizes
    /// (0 inside), with the bootstrap interval `bootstrap` (if any), at `level`; `None` when `value` is not positive and finite, or there is
    /// neither a held-out error nor a spread to calibrate with.
    pub fn interval(
        &self,
        value: f64,
        bootstrap: Option<(f64, f64)>,
        level: f64,
        distance: f64,
    ) -> Option<Interval> {
        if !(value.is_finite() && value > 0.0) {
            return None;
        }
        // Without a held-out prediction the data cannot check the model: nothing bounds
        // its error, and the interval says so rather than shrink to the bootstrap's.
        let (qv, short) = self
            .held_out_quantile(level, distance)
            .unwrap_or((f64::INFINITY, true));
        let s = self.spread.unwrap_or(0.0) * normal_quantile((1.0 + level) / 2.0);
        let side = |b: Option<f64>| {
            b.filter(|b| b.is_finite() && *b > 0.0)
                .map_or(0.0, |b| (b / value).ln().abs())
        };
        let (blo, bhi) = match bootstrap {
            Some((lo, hi)) => (
                if lo <= value { side(Some(lo)) } else { 0.0 },
                if hi >= value { side(Some(hi)) } else { 0.0 },
            ),
            None => (0.0, 0.0),
        };
        let w = |b: f64| (b * b + qv * qv + s * s).sqrt();
        Some(Interval {
            level,
            lower: value * (-w(blo)).exp(),
            upper: value * w(bhi).exp(),
            held_out_error: qv.exp() - 1.0,
            spread: s.exp() - 1.0,
            held_out: self.held_out.len(),
            how: self.how.clone(),
            short,
        })
    }
}

/// The distance of `x` beyond `[lo, hi]` on the log scale in widths of the range:
/// `ln(x/hi) / ln(hi/lo)` above, `ln(lo/x) / ln(hi/lo)` below, 0 inside (and for values
/// that are not positive), infinite outside a range of one value.
pub fn distance(x: f64, lo: f64, hi: f64) -> f64 {
    let outside = if !(x > 0.0 && lo > 0.0 && hi > 0.0) {
        0.0
    } else if x > hi {
        (x / hi).ln()
    } else if x < lo {
        (lo / x).ln()
    } else {
        0.0
    };
    if outside == 0.0 {
        0.0
    } else {
        outside / (hi / lo).ln()
    }
}

/// `|ln(predicted/measured)|`, infinite when the prediction is not positive.
pub fn log_error(predicted: f64, measured: f64) -> f64 {
    if predicted > 0.0 && measured > 0.0 {
        (predicted / measured).ln().abs()
    } else {
        f64::INFINITY
    }
}

/// The median over groups of two or more positive repetitions of the sample standard
/// deviation of their logarithms; `None` when no group has two.
pub fn log_spread<'a>(groups: impl IntoIterator<Item = &'a [f64]>) -> Option<f64> {
    let sds: Vec<f64> = groups
        .into_iter()
        .filter(|g| g.len() > 1 && g.iter().all(|v| v.is_finite() && *v > 0.0))
        .map(|g| {
            let l: Vec<f64> = g.iter().map(|v| v.ln()).collect();
            let mean = l.iter().sum::<f64>() / l.len() as f64;
            (l.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (l.len() - 1) as f64).sqrt()
        })
        .collect();
    stats::median(&sds)
}

/// The standard normal quantile at `p` in (0, 1) (Acklam's rational approximation, relative
/// error below 1.2e-9).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    if !(p > 0.0 && p < 1.0) {
        return if p <= 0.0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// Coverage of a set of predictions: the share of measured values inside their intervals
/// and the median relative half-width, with how many are wider than ±50%.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Coverage {
    /// Test points with an interval.
    pub points: usize,
    /// Of them, inside.
    pub inside: usize,
    /// The median relative half-width.
    pub median_width: Option<f64>,
    /// Intervals wider than ±50%.
    pub wide: usize,
}

impl Coverage {
    /// Coverage of `(predicted, interval, measured)` triples (those without an interval are
    /// not counted).
    pub fn of(items: &[(f64, Option<Interval>, f64)]) -> Coverage {
        let with: Vec<(f64, &Interval, f64)> = items
            .iter()
            .filter_map(|(v, i, m)| i.as_ref().map(|i| (*v, i, *m)))
            .collect();
        let widths: Vec<f64> = with.iter().map(|(v, i, _)| i.relative_width(*v)).collect();
        Coverage {
            points: with.len(),
            inside: with.iter().filter(|(_, i, m)| i.contains(*m)).count(),
            median_width: stats::median(&widths),
            wide: with.iter().filter(|(v, i, _)| i.wide(*v)).count(),
        }
    }

    /// The share inside.
    pub fn share(&self) -> f64 {
        self.inside as f64 / self.points.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantiles() {
        assert!((normal_quantile(0.95) - 1.644_853_626_951).abs() < 1e-8);
        assert!((normal_quantile(0.975) - 1.959_963_984_540).abs() < 1e-8);
        assert!((normal_quantile(0.01) + 2.326_347_874_041).abs() < 1e-8);
        assert_eq!(normal_quantile(0.5), 0.0);
    }

    #[test]
    fn conformal_order_statistic() {
        // m = 19: k = ⌈20·0.9⌉ = 18, the 18th smallest.
        let c = Calibration {
            how: "leave-one-out".into(),
            held_out: (1..=19).map(|i| f64::from(i) / 100.0).collect(),
            distances: Vec::new(),
            spread: None,
        };
        assert_eq!(c.held_out_quantile(0.9, 0.0), Some((0.18, false)));
        // m = 5: k = 6 > 5, the largest, marked short.
        let c = Calibration {
            held_out: vec![0.1, 0.5, 0.2, 0.3, 0.4],
            ..c
        };
        assert_eq!(c.held_out_quantile(0.9, 0.0), Some((0.5, true)));
    }

    #[test]
    fn hand_computed_interval() {
        // q_v = ln 1.2, σ = 0.1 (s = 0.1645), bootstrap ±ln 1.05.
        let c = Calibration {
            how: "leave-one-out".into(),
            held_out: vec![1.2f64.ln(); 3],
            distances: Vec::new(),
            spread: Some(0.1),
        };
        let i = c
            .interval(10.0, Some((10.0 / 1.05, 10.5)), 0.9, 0.0)
            .unwrap();
        let s = 0.1 * normal_quantile(0.95);
        let w = (1.05f64.ln().powi(2) + 1.2f64.ln().powi(2) + s * s).sqrt();
        assert!((i.upper - 10.0 * w.exp()).abs() < 1e-12);
        assert!((i.lower - 10.0 * (-w).exp()).abs() < 1e-12);
        assert!(i.short);
        assert!((i.held_out_error - 0.2).abs() < 1e-12);
        assert!(i.contains(10.0) && !i.contains(20.0));
    }

    #[test]
    fn a_poor_fit_gives_a_wide_interval() {
        let c = Calibration::new(
            "leave-one-out",
            [(1.0, 2.75, 0.0), (2.0, 2.0, 0.0), (3.0, 1.0, 0.0)],
            std::iter::empty(),
        );
        let i = c.interval(1.0, None, LEVEL, 0.0).unwrap();
        assert!(i.wide(1.0) && i.contains(2.75) && i.contains(1.0 / 2.75));
        assert!(c.interval(-1.0, None, LEVEL, 0.0).is_none());
    }

    #[test]
    fn errors_grow_with_the_distance() {
        // One error of ln 1.1 made one width of its range beyond it; a prediction two
        // widths beyond (8 against [1, 2]) takes ln 1.1 · 2.
        let c = Calibration::new("forward validation", [(1.1, 1.0, 1.0)], std::iter::empty());
        let d = distance(8.0, 1.0, 2.0);
        assert!((d - 2.0).abs() < 1e-12);
        assert_eq!(distance(3.0, 2.0, 2.0), f64::INFINITY);
        let i = c.interval(1.0, None, LEVEL, d).unwrap();
        assert!((i.upper - (2.0 * 1.1f64.ln()).exp()).abs() < 1e-12);
        let inside = c
            .interval(1.0, None, LEVEL, distance(1.5, 1.0, 2.0))
            .unwrap();
        assert!((inside.upper - 1.1).abs() < 1e-12);
    }

    #[test]
    fn log_spread_is_the_median_sd() {
        let a = [1.0, std::f64::consts::E];
        let b = [1.0, 1.0, 1.0];
        let s = log_spread([&a[..], &b[..], &[5.0][..]]).unwrap();
        // sd of {0, 1} is 1/√2; of {0, 0, 0} is 0; the median of the two is their mean.
        assert!((s - 0.5f64.sqrt() / 2.0).abs() < 1e-12);
    }
}
