//! The one-parameter `vates` search: the constant, every block, every pair of blocks; the
//! choice by leave-one-out error, lack of fit and the complexity penalty.

use super::wls::{solve, Problem};
use super::{Search, VatesOptions};
use crate::model::{smape, Basis, Fitted, Model, Quality};

/// A term must explain at least this fraction of some measurement.
pub(crate) const MIN_SHARE: f64 = 0.005;

/// A term whose leave-one-out error is this many times smaller than the constant's is taken
/// even when the constant fits within the repetitions' noise.
const DECISIVE: f64 = 3.0;

/// Weights of the means (`reps/ȳ²` for relative errors, else `reps`) and the scale their
/// leave-one-out errors are measured against.
pub(crate) fn weights(y: &[f64], reps: &[f64], relative: bool) -> (Vec<f64>, Vec<f64>) {
    let relative = relative && y.iter().all(|&v| v > 0.0);
    let w = y
        .iter()
        .zip(reps)
        .map(|(&v, &r)| if relative { r / (v * v) } else { r })
        .collect();
    let scale = y.iter().map(|&v| if relative { v } else { 1.0 }).collect();
    (w, scale)
}

/// The pure error: the repetitions' squared deviations from their means, weighted as the
/// means are (`w`, per repetition), with its degrees of freedom; `None` without repetitions.
pub(crate) fn pure_error(w: &[f64], reps: &[f64], spread: &[f64]) -> Option<(f64, f64)> {
    let dof: f64 = reps.iter().map(|r| r - 1.0).sum();
    (dof > 0.0).then(|| {
        let ss: f64 = (0..w.len()).map(|i| w[i] / reps[i] * spread[i]).sum();
        (ss, dof)
    })
}

/// The p-value of "a hypothesis with weighted residual sum of squares `wss` and `dof`
/// residual degrees of freedom misses the means by no more than the repetitions' noise
/// (`pure`, [`pure_error`]) explains": 0 (a miss) when the noise is unknown or zero, 1 when
/// the hypothesis leaves no degree of freedom.
pub(crate) fn lack_of_fit(wss: f64, dof: f64, pure: Option<(f64, f64)>) -> f64 {
    let Some((ss_pe, dof_pe)) = pure else {
        return 0.0;
    };
    if ss_pe <= 0.0 {
        return 0.0;
    }
    if dof <= 0.0 {
        return 1.0;
    }
    crate::stats::f_sf((wss / dof) / (ss_pe / dof_pe), dof, dof_pe)
}

/// A basis function with its values at the points.
pub(crate) type Column = (Basis, Vec<f64>);

/// Computes the fitted-exponent column on demand.
pub(crate) type Refine<'a> = &'a dyn Fn() -> Option<Column>;

/// One scored hypothesis: the constant (no columns), one column, or two.
struct Scored {
    cols: [usize; 2],
    terms: usize,
    /// 0 the constant, 1 one block, 2 one term with a fitted exponent, 3 two blocks.
    stage: u8,
    coef: [f64; 3],
    /// Root mean square relative leave-one-out error.
    cv: f64,
    /// Weighted residual sum of squares.
    wss: f64,
}

/// The search over hypotheses built from `columns` (basis functions with their values at
/// the points) for the means `y` with `reps` repetitions each and the repetitions' sums of
/// squared deviations `spread`.
pub(crate) fn search(
    columns: &[Column],
    refine: Option<Refine<'_>>,
    y: &[f64],
    reps: &[f64],
    spread: &[f64],
    opts: &VatesOptions,
) -> Search {
    let n = y.len();
    let blocks = columns.len();
    let (w, scale) = weights(y, reps, opts.relative);
    let problem = Problem {
        y,
        w: &w,
        scale: &scale,
    };
    let pure = pure_error(&w, reps, spread);
    let wsum: f64 = w.iter().sum();
    let mean = y.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>() / wsum;
    let tss: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    // The constant's leave-one-out errors: y_i − the weighted mean of the others.
    let c_cv = if n > 1 {
        let s: f64 = (0..n)
            .map(|i| {
                let m = (wsum * mean - w[i] * y[i]) / (wsum - w[i]);
                let e = (y[i] - m) / scale[i];
                e * e
            })
            .sum();
        (s / n as f64).sqrt()
    } else {
        0.0
    };
    let mut scored = vec![Scored {
        cols: [0, 0],
        terms: 0,
        stage: 0,
        coef: [mean, 0.0, 0.0],
        cv: c_cv,
        wss: (0..n).map(|i| w[i] * (y[i] - mean) * (y[i] - mean)).sum(),
    }];
    let contributes = |c: f64, v: &[f64]| {
        v.iter()
            .zip(y)
            .any(|(&vi, &yi)| (c * vi / yi).abs() >= MIN_SHARE)
    };
    // One term at column `col` (values `v`), if it fits and contributes.
    let one_term = |col: usize, stage: u8, v: &[f64]| -> Option<Scored> {
        let s = solve(&[v], &problem)?;
        let c = s.coef();
        (c[1] != 0.0 && contributes(c[1], v)).then(|| Scored {
            cols: [col, 0],
            terms: 1,
            stage,
            coef: [c[0], c[1], 0.0],
            cv: s.cv,
            wss: s.wss,
        })
    };
    if tss > 0.0 {
        for (a, (_, va)) in columns.iter().enumerate() {
            scored.extend(one_term(a, 1, va));
            if opts.max_terms < 2 {
                continue;
            }
            for (b, (_, vb)) in columns.iter().enumerate().skip(a + 1) {
                let Some(s) = solve(&[va, vb], &problem) else {
                    continue;
                };
                let c = s.coef();
                if c[1] * c[2] <= 0.0 || !contributes(c[1], va) || !contributes(c[2], vb) {
                    continue;
                }
                scored.push(Scored {
                    cols: [a, b],
                    terms: 2,
                    stage: 3,
                    coef: [c[0], c[1], c[2]],
                    cv: s.cv,
                    wss: s.wss,
                });
            }
        }
    }
    // The constant stays, whatever its error, so that there is always a model.
    let mut first = true;
    scored.retain(|s| std::mem::take(&mut first) || s.cv.is_finite());
    // The lack-of-fit test against the repetitions' pure error: the p-value of "the
    // hypothesis misses the means by no more than the noise explains".
    let misfit = |s: &Scored| -> f64 {
        // The fitted exponent is a parameter too.
        let dof = n as f64 - s.terms as f64 - 1.0 - f64::from(u8::from(s.stage == 2));
        lack_of_fit(s.wss, dof, pure)
    };
    // The best hypothesis of each stage (one block, one term with a fitted exponent, two
    // blocks); a later stage is taken only when the current choice misses the data by more
    // than the noise (when repetitions tell) and the later one's leave-one-out error is
    // lower by more than the penalty.
    let best_of = |scored: &[Scored], stage: u8| {
        scored
            .iter()
            .enumerate()
            .filter(|(_, s)| s.stage == stage)
            .min_by(|a, b| a.1.cv.total_cmp(&b.1.cv))
            .map(|(i, _)| i)
    };
    let mut chosen = 0;
    // The fitted-exponent term, computed only when the blocks miss (stage 2).
    let mut fitted: Option<Column> = None;
    let last = if opts.max_terms >= 2 { 3 } else { 2 };
    for stage in 1..=last {
        let lack = misfit(&scored[chosen]) < opts.significance;
        if stage == 2 && lack && tss > 0.0 {
            if let Some((basis, v)) = refine.and_then(|r| r()) {
                if let Some(s) = one_term(blocks, 2, &v) {
                    scored.push(s);
                    fitted = Some((basis, v));
                }
            }
        }
        let Some(i) = best_of(&scored, stage) else {
            continue;
        };
        // Beyond the noise a bigger hypothesis must also predict left-out points better by
        // the penalty; a term that predicts them several times better than the constant
        // wins whatever the noise (a trend the repetitions' scatter hides from the test).
        let better = scored[i].cv * (1.0 + opts.penalty) < scored[chosen].cv;
        let decisive = scored[chosen].stage == 0 && scored[i].cv * DECISIVE < scored[chosen].cv;
        if (lack && better) || decisive {
            chosen = i;
        }
    }
    let column = |j: usize| -> &Column {
        if j < blocks {
            &columns[j]
        } else {
            fitted.as_ref().expect("the fitted column")
        }
    };
    let chosen = scored.swap_remove(chosen);
    // Hypotheses with the chosen basis functions (the fitted exponent can land on a block)
    // are not alternatives.
    let chosen_bases: Vec<&Basis> = (0..chosen.terms)
        .map(|t| &column(chosen.cols[t]).0)
        .collect();
    scored.retain(|s| {
        s.terms != chosen.terms || (0..s.terms).any(|t| &column(s.cols[t]).0 != chosen_bases[t])
    });
    let keep = opts.alternatives.min(scored.len());
    if keep > 0 {
        scored.select_nth_unstable_by(keep - 1, |a, b| a.cv.total_cmp(&b.cv));
    }
    scored.truncate(keep);
    scored.sort_by(|a, b| a.cv.total_cmp(&b.cv));
    let to_fitted = |s: &Scored| {
        let bases: Vec<Basis> = s.cols[..s.terms]
            .iter()
            .map(|&j| column(j).0.clone())
            .collect();
        let model = Model::from_coefficients(&bases, &s.coef[..=s.terms]);
        let pred: Vec<f64> = (0..n)
            .map(|i| {
                s.coef[0]
                    + (0..s.terms)
                        .map(|t| s.coef[t + 1] * column(s.cols[t]).1[i])
                        .sum::<f64>()
            })
            .collect();
        let rss: f64 = pred.iter().zip(y).map(|(p, a)| (p - a) * (p - a)).sum();
        let k = s.terms as f64;
        Fitted {
            model,
            quality: Quality {
                rss,
                smape: smape(y, &pred),
                adjusted_r2: if tss > 0.0 && n as f64 > k + 1.0 {
                    1.0 - (rss / tss) * (n as f64 - 1.0) / (n as f64 - k - 1.0)
                } else {
                    f64::NAN
                },
                cv: Some(100.0 * s.cv),
            },
        }
    };
    Search {
        best: to_fitted(&chosen),
        alternatives: scored.iter().map(to_fitted).collect(),
    }
}
