//! The bootstrap behind the intervals: every sub-model refitted on its fitted values plus
//! its residuals with random signs (a wild bootstrap: each row keeps its own scale), at the
//! chosen α and forms.

use rayon::prelude::*;

use super::error::TrainError;
use super::fitted::{Coefs, Model, Replicate, SubModel};
use super::regress::{self, Cv, Data};

/// The rows each sub-model of the chain was fitted on.
pub(crate) struct Fits<'a> {
    pub serial: Data<'a>,
    pub create_task: Data<'a>,
    pub wait_tasks: Data<'a>,
    pub work: Data<'a>,
    pub delay: Data<'a>,
    pub no_work: Data<'a>,
    pub span: Option<Data<'a>>,
}

/// `count` replicates of the chain, each sub-model refitted on `ŷ + s·r` (r its residuals,
/// s random signs), in parallel; replicate b is seeded from the model's seed and b.
pub(crate) fn replicates(
    model: &Model,
    fits: &Fits,
    cv: Cv,
    count: usize,
) -> Result<Vec<Replicate>, TrainError> {
    (0..count)
        .into_par_iter()
        .map(|b| {
            let mut rng = stats::rng::stream(model.options.seed, b as u64);
            let mut one =
                |name: &'static str, sub: &SubModel, d: Data| -> Result<Coefs, TrainError> {
                    // A power law's residuals are resampled in ln, where it was fitted.
                    let ystar: Vec<f64> = d
                        .x
                        .iter()
                        .zip(d.y)
                        .map(|(x, &yi)| {
                            let sign = if stats::rng::RngCore::next_u64(&mut rng) & 1 == 0 {
                                -1.0
                            } else {
                                1.0
                            };
                            if sub.log_target {
                                let fitted = sub.eval_linear(x);
                                (fitted + sign * (yi.max(f64::MIN_POSITIVE).ln() - fitted)).exp()
                            } else {
                                let fitted = sub.eval(x);
                                fitted + sign * (yi - fitted)
                            }
                        })
                        .collect();
                    regress::refit(name, sub, Data { y: &ystar, ..d }, cv)
                };
            Ok(Replicate {
                serial: one("work_serial", &model.serial, fits.serial)?,
                create_task: one("create_task", &model.create_task, fits.create_task)?,
                wait_tasks: one("wait_tasks", &model.wait_tasks, fits.wait_tasks)?,
                work: one("work", &model.work, fits.work)?,
                delay: one("delay", &model.delay, fits.delay)?,
                no_work: one("no_work", &model.no_work, fits.no_work)?,
                span: match (&model.span, fits.span) {
                    (Some(s), Some(d)) => Some(one("span", s, d)?),
                    _ => None,
                },
            })
        })
        .collect()
}
