//! The coefficients for a prediction: fitted to the sample runs at the prediction's value of
//! the processor-count parameter (the paper's N₀ = N), segment times directly
//! ([`crate::samples::fit_samples`]), whole-program times through Algorithm G
//! ([`crate::whole_program::fit_runs`]).

use crate::lang::Model;
use crate::predict::PredictOptions;
use crate::samples::{fit_samples, Fitted, SampleSet, SamplesError};
use crate::sim::EventCosts;

/// The coefficients for a prediction at `by = value`: fitted to the samples at that value
/// (the paper's N₀ = N), or to all samples when there are none there — then the second
/// value is a note for the user (samples from fewer processors tend to under-predict,
/// from more to over-predict). Segment times are fitted directly ([`fit_samples`]); samples
/// with whole-program times only are fitted through Algorithm G with `costs` and `opts`
/// ([`crate::whole_program::fit_runs`]).
///
/// # Errors
/// As [`fit_samples`] and [`crate::whole_program::fit_runs`]; [`SamplesError::Empty`] when the
/// samples hold no time at all.
pub fn fit_for<C: EventCosts>(
    model: &Model,
    set: &SampleSet,
    by: &str,
    value: Option<f64>,
    costs: &C,
    opts: &PredictOptions,
) -> Result<(Fitted, Option<String>), SamplesError> {
    let (used, note) = set.for_prediction(by, value);
    let used = &used;
    let fitted = if !used.samples.is_empty() {
        fit_samples(model, used, &opts.limits)?
    } else if !used.runs.is_empty() {
        crate::whole_program::fit_runs(model, used, by, costs, opts)?
    } else {
        return Err(SamplesError::Empty);
    };
    Ok((fitted, note))
}
