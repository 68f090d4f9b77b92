//! The search Extra-P 4.2.5's multi-parameter modeler makes
//! (`modelers/multi_parameter/multi_parameter_modeler.py`): one-parameter models on lines of
//! points, then their products and sums refitted on every point.

use std::collections::HashMap;

use super::extrap::{check, contribution, one_term, search_line, ExtrapOptions, MIN_CONTRIBUTION};
use super::term::{Factor, Term};
use crate::model::{smape, Basis, Fitted, Measurement, Model, Quality};
use crate::{least_squares, Design, FitError};

/// Parameters' values as hashable keys (bit patterns; `-0.0` as `0.0`).
fn key(v: f64) -> u64 {
    if v == 0.0 {
        0
    } else {
        v.to_bits()
    }
}

fn partial(point: &[f64], except: usize) -> Vec<u64> {
    point
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != except)
        .map(|(_, &v)| key(v))
        .collect()
}

/// Insertion-ordered grouping.
struct Groups<K> {
    index: HashMap<K, usize>,
    groups: Vec<Vec<usize>>,
}

impl<K: std::hash::Hash + Eq> Groups<K> {
    fn new() -> Self {
        Groups {
            index: HashMap::new(),
            groups: Vec::new(),
        }
    }

    fn add(&mut self, k: K, item: usize) {
        let next = self.groups.len();
        let g = *self.index.entry(k).or_insert(next);
        if g == next {
            self.groups.push(Vec::new());
        }
        self.groups[g].push(item);
    }
}

/// For parameter `p`, the line of points Extra-P models it on: the longest lines along `p`
/// (points that agree in every other parameter), averaged over those lines at each value of
/// `p` that all of them share with the first. Returns `(x, mean)` pairs.
pub(crate) fn line(ms: &[Measurement], means: &[f64], p: usize) -> Vec<(f64, f64)> {
    let mut lines = Groups::new();
    for (i, m) in ms.iter().enumerate() {
        lines.add(partial(&m.point, p), i);
    }
    let longest = lines.groups.iter().map(Vec::len).max().unwrap_or(0);
    let mut at = Groups::new();
    for g in lines.groups.iter().filter(|g| g.len() == longest) {
        for &i in g {
            at.add(key(ms[i].point[p]), i);
        }
    }
    let Some(first) = at.groups.first() else {
        return Vec::new();
    };
    let common: std::collections::HashSet<Vec<u64>> =
        first.iter().map(|&i| partial(&ms[i].point, p)).collect();
    at.groups
        .iter()
        .filter_map(|g| {
            let kept: Vec<usize> = g
                .iter()
                .copied()
                .filter(|&i| common.contains(&partial(&ms[i].point, p)))
                .collect();
            (!kept.is_empty()).then(|| {
                let v = kept.iter().map(|&i| means[i]).sum::<f64>() / kept.len() as f64;
                (ms[kept[0]].point[p], v)
            })
        })
        .collect()
}

/// In-sample quality of `model` on the means, with Extra-P's multi-parameter adjusted R²
/// (degrees of freedom `n − Σ factors − 1`).
fn quality(model: &Model, ms: &[Measurement], means: &[f64], tss: f64) -> Quality {
    let pred: Vec<f64> = ms.iter().map(|m| model.eval(&m.point)).collect();
    let rss: f64 = pred.iter().zip(means).map(|(p, a)| (p - a) * (p - a)).sum();
    let factors: usize = model.terms.iter().map(|t| t.basis.params().len()).sum();
    let n = means.len() as f64;
    let dof = n - factors as f64 - 1.0;
    Quality {
        rss,
        smape: smape(means, &pred),
        adjusted_r2: 1.0 - (rss / tss) * (n - 1.0) / dof,
        cv: None,
    }
}

/// Fits `c0 + Σ c_k·basis_k` to the means by least squares.
fn refit(bases: &[Basis], ms: &[Measurement], means: &[f64]) -> Result<Model, FitError> {
    let rows: Vec<Vec<f64>> = ms
        .iter()
        .map(|m| {
            std::iter::once(1.0)
                .chain(bases.iter().map(|b| b.eval(&m.point)))
                .collect()
        })
        .collect();
    let f = least_squares(&Design::from_rows(&rows)?, means)?;
    Ok(Model::from_coefficients(bases, &f.coefficients))
}

/// The model Extra-P's default modeler chooses for measurements of `dims` parameters. One
/// parameter is [`super::extrap_single`]. Otherwise each parameter gets a one-parameter
/// model on its line of points; the parameters whose model is not constant are kept; with
/// none the model is the mean, with one its term is refitted on every point (kept if the
/// SMAPE drops), with more the hypotheses are their product, their sum and (two parameters)
/// `a + a·b`, `b + a·b`, (three parameters) the 21 mixed forms, each fitted on every point
/// and chosen by in-sample SMAPE among those whose every term contributes at least 0.05%
/// (the product is the starting point).
///
/// # Errors
/// As [`super::extrap_single`]; [`FitError::Dimensions`] for a point with another number of
/// parameters.
pub fn extrap(ms: &[Measurement], dims: usize, opts: &ExtrapOptions) -> Result<Fitted, FitError> {
    check(ms, dims)?;
    if dims == 1 {
        return super::extrap_single(ms, opts);
    }
    let means: Vec<f64> = ms.iter().map(Measurement::mean).collect();
    let mean = means.iter().sum::<f64>() / means.len() as f64;
    let tss: f64 = means.iter().map(|v| (v - mean) * (v - mean)).sum();
    let mut kept: Vec<(usize, f64, f64, Term)> = Vec::new();
    for p in 0..dims {
        let (x, y): (Vec<f64>, Vec<f64>) = line(ms, &means, p).into_iter().unzip();
        let single = search_line(&x, &y, opts);
        if let Some(t) = single.model.terms.first() {
            if let Basis::Pmnf(f) = &t.basis {
                kept.push((p, single.model.constant, t.coefficient, f[0].term));
            }
        }
    }
    let factor = |&(param, _, _, term): &(usize, f64, f64, Term)| Factor { param, term };
    match kept.as_slice() {
        [] => {
            let model = Model::constant(mean);
            let quality = Quality {
                adjusted_r2: 0.0,
                ..quality(&model, ms, &means, tss)
            };
            Ok(Fitted { model, quality })
        }
        [one] => {
            let (param, c0, c1, term) = *one;
            let reused = one_term(c0, c1, param, term);
            let refitted = refit(&[Basis::Pmnf(vec![factor(one)])], ms, &means)?;
            let (qa, qb) = (
                quality(&reused, ms, &means, tss),
                quality(&refitted, ms, &means, tss),
            );
            Ok(if qb.smape < qa.smape {
                Fitted {
                    model: refitted,
                    quality: qb,
                }
            } else {
                Fitted {
                    model: reused,
                    quality: qa,
                }
            })
        }
        _ => {
            let mut best: Option<Fitted> = None;
            for (i, hyp) in hypotheses(&kept.iter().map(factor).collect::<Vec<_>>())
                .iter()
                .enumerate()
            {
                let model = refit(hyp, ms, &means)?;
                let q = quality(&model, ms, &means, tss);
                let small = model.terms.iter().any(|t| {
                    let v: Vec<f64> = ms.iter().map(|m| t.basis.eval(&m.point)).collect();
                    t.coefficient == 0.0
                        || contribution(t.coefficient, &v, &means) < MIN_CONTRIBUTION
                });
                let better = best.as_ref().is_none_or(|b| q.smape < b.quality.smape);
                if i == 0 || (!small && better) {
                    best = Some(Fitted { model, quality: q });
                }
            }
            best.ok_or(FitError::Empty {
                rows: ms.len(),
                columns: dims,
            })
        }
    }
}

/// Extra-P's multi-parameter hypotheses over the kept parameters' factors, in its order.
pub(crate) fn hypotheses(f: &[Factor]) -> Vec<Vec<Basis>> {
    let prod = |idx: &[usize]| Basis::Pmnf(idx.iter().map(|&i| f[i]).collect());
    let all: Vec<usize> = (0..f.len()).collect();
    let mult = prod(&all);
    let add: Vec<Basis> = (0..f.len()).map(|i| prod(&[i])).collect();
    let mut h = vec![vec![mult.clone()], add.clone()];
    match f.len() {
        2 => {
            h.push(vec![add[0].clone(), mult.clone()]);
            h.push(vec![add[1].clone(), mult]);
        }
        3 => {
            let (xy, yz, xz) = (prod(&[0, 1]), prod(&[1, 2]), prod(&[0, 2]));
            let a = |i: usize| add[i].clone();
            let m = || mult.clone();
            h.extend([
                vec![m(), a(0)],
                vec![m(), a(1)],
                vec![m(), a(2)],
                vec![m(), xy.clone()],
                vec![m(), yz.clone()],
                vec![m(), xz.clone()],
                vec![m(), xy.clone(), a(2)],
                vec![m(), yz.clone(), a(0)],
                vec![m(), xz.clone(), a(1)],
                vec![m(), a(0), a(1)],
                vec![m(), a(0), a(2)],
                vec![m(), a(1), a(2)],
                vec![xy.clone(), a(2)],
                vec![xy.clone(), a(2), a(1)],
                vec![xy, a(2), a(0)],
                vec![xz.clone(), a(1)],
                vec![xz.clone(), a(1), a(0)],
                vec![xz, a(1), a(2)],
                vec![yz.clone(), a(0)],
                vec![yz.clone(), a(0), a(1)],
                vec![yz, a(0), a(2)],
            ]);
        }
        _ => {}
    }
    h
}
