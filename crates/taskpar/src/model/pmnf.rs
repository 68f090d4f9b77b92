//! A size model by the `fit` engine's PMNF search (`fit::vates::search_single`): up to two
//! terms `n^a·log2(n)^j` with exact exponents (a fitted one among them) and a constant,
//! fitted to relative errors, the hypothesis chosen by leave-one-out error and a lack-of-fit
//! test against the repetitions. It is a candidate beside the Lasso's fixed basis and the
//! power law: a constant plus a growing term describes a runtime's fixed cost plus its
//! growth, which neither of the others can (fib's recording cost per task under its
//! exponential work; sort's n^1.06 between n and n·log n).

use fit::vates::{search_single, VatesOptions};
use fit::{Basis, Measurement};

use super::error::TrainError;
use super::features::Feature;
use super::fitted::SubModel;
use super::regress::{self, Data};

/// The variant name a model file records.
pub(crate) const VARIANT: &str = "PMNF search";

/// Fits the size model `model` on the rows of `d` (one per size, `d.x[i].n` the transformed
/// size), `values[i]` the runs' values at row `i`'s size (their spread is the noise the
/// search tests against).
pub(crate) fn fit(
    model: &'static str,
    d: Data,
    values: &[&[f64]],
    relative: bool,
) -> Result<SubModel, TrainError> {
    let ms: Vec<Measurement> =
        d.x.iter()
            .zip(values)
            .map(|(x, v)| Measurement::one(x.n, v.to_vec()))
            .collect();
    let opts = VatesOptions {
        relative,
        ..VatesOptions::default()
    };
    let found = search_single(&ms, &opts).map_err(|source| TrainError::Fit { model, source })?;
    let m = found.best.model;
    let mut features = vec![Feature::One];
    let mut coefficients = vec![m.constant];
    for t in &m.terms {
        let Basis::Pmnf(factors) = &t.basis else {
            unreachable!("the search was given no user bases")
        };
        let [factor] = factors.as_slice() else {
            unreachable!("one parameter gives one factor per term")
        };
        features.push(Feature::Pmnf(factor.term));
        coefficients.push(t.coefficient);
    }
    Ok(regress::searched(
        model,
        VARIANT,
        features,
        coefficients,
        d,
        relative,
    ))
}

#[cfg(test)]
mod tests {
    use fit::pmnf::Term;

    use super::*;
    use crate::model::features::Inputs;
    use crate::model::options::Selection;
    use crate::model::regress::{refit, Cv, Rule};

    /// Sizes 2^8 … 2^15 with y = 0.002 + 3e-8·n^(3/2) and ±1% alternating noise, three runs
    /// each.
    fn rows() -> (Vec<Inputs>, Vec<f64>, Vec<Vec<f64>>) {
        let x: Vec<Inputs> = (8..=15)
            .map(|k| Inputs {
                n: f64::from(k).exp2(),
                p: 1.0,
                ..Inputs::default()
            })
            .collect();
        let truth = |n: f64| 0.002 + 3e-8 * n.powf(1.5);
        let reps: Vec<Vec<f64>> = x
            .iter()
            .map(|i| {
                let t = truth(i.n);
                vec![t * 0.99, t, t * 1.01]
            })
            .collect();
        let y = x.iter().map(|i| truth(i.n)).collect();
        (x, y, reps)
    }

    fn cv() -> Cv {
        Cv {
            folds: 5,
            seed: 1,
            max_iter: 500,
            transform: "none",
            rule: Rule::Min,
            relaxed: true,
            prune: 0.05,
            selection: Selection::Forward,
        }
    }

    #[test]
    fn finds_a_constant_plus_a_power_and_refits_it_by_least_squares() {
        let (x, y, reps) = rows();
        let w: Vec<f64> = y.iter().map(|v| 1.0 / v).collect();
        let groups: Vec<usize> = (0..x.len()).collect();
        let d = Data {
            x: &x,
            y: &y,
            w: Some(&w),
            groups: &groups,
        };
        let values: Vec<&[f64]> = reps.iter().map(Vec::as_slice).collect();
        let sub = fit("work_serial", d, &values, true).unwrap();
        assert_eq!(sub.variant, VARIANT);
        assert!(sub.searched);
        assert_eq!(
            sub.features,
            vec![Feature::One, Feature::Pmnf(Term::new(3, 2, 0))]
        );
        assert!((sub.coefficients[0] - 0.002).abs() < 1e-4, "{sub:?}");
        assert!((sub.coefficients[1] / 3e-8 - 1.0).abs() < 0.01, "{sub:?}");
        // At 8× the largest size.
        let far = Inputs {
            n: 8.0 * 32768.0,
            ..x[0]
        };
        let truth = 0.002 + 3e-8 * far.n.powf(1.5);
        assert!((sub.eval(&far) / truth - 1.0).abs() < 0.01);
        // The bootstrap's refit keeps both terms and, on the fitted values, returns the
        // same coefficients.
        let fitted: Vec<f64> = x.iter().map(|i| sub.eval(i)).collect();
        let again = refit("work_serial", &sub, Data { y: &fitted, ..d }, cv()).unwrap();
        for (a, b) in again.coefficients.iter().zip(&sub.coefficients) {
            assert!((a / b - 1.0).abs() < 1e-6, "{again:?} vs {sub:?}");
        }
    }
}
