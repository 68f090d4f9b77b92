//! The nine operation times from timed experiments (section 2.2): each experiment at each
//! vector length is one equation `Σ counts × times = measured`; the equations are weighted
//! by the inverse of the measured time (so a long run does not drown a short one: the
//! thesis judges predictions relatively) and solved by non-negative least squares
//! (`fit::nnls`). The unconstrained least-squares solution (the thesis' method, which gives
//! negative times for optimised code, Table 2-13) is kept beside it.

use crate::micro::ops::OpTimes;
use fit::{least_squares, nnls, Design, FitError, NnlsOptions};

/// One timed experiment at one vector length.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The experiment's name.
    pub name: String,
    /// The vector length.
    pub n: i64,
    /// Its counts of the nine operations at `n`.
    pub counts: [f64; 9],
    /// The measured time of one execution, the call overhead subtracted, seconds.
    pub seconds: f64,
    /// The time the equation is weighted by (its inverse), seconds, > 0: the measured time
    /// with the overhead.
    pub scale: f64,
}

/// The fitted operation times.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Calibration {
    /// The non-negative least-squares times, used for prediction.
    pub times: OpTimes,
    /// The unconstrained least-squares times (minimum norm when the rank is short), seconds.
    pub least_squares: [f64; 9],
    /// The rank of the weighted design (9 when every operation is identified).
    pub rank: usize,
    /// Its condition number.
    pub condition: f64,
    /// Per row, the time the non-negative fit gives, seconds.
    pub fitted: Vec<f64>,
}

/// Fits the nine operation times to `rows`.
///
/// # Errors
/// A [`FitError`]: no rows, a non-finite value, a scale that is not positive.
pub fn calibrate(rows: &[Row]) -> Result<Calibration, FitError> {
    if let Some((index, r)) = rows
        .iter()
        .enumerate()
        .find(|(_, r)| !(r.scale > 0.0 && r.scale.is_finite()))
    {
        return Err(FitError::NotFinite {
            what: "observation",
            index,
            value: r.scale,
        });
    }
    // Nanoseconds, so the unknowns are of order one.
    let design: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| r.counts.iter().map(|c| c / (r.scale * 1e9)).collect())
        .collect();
    let b: Vec<f64> = rows.iter().map(|r| r.seconds / r.scale).collect();
    let a = Design::from_rows(&design)?;
    let fit = nnls(&a, &b, &NnlsOptions::default())?;
    let ls = least_squares(&a, &b)?;
    let mut times = [0.0; 9];
    let mut unconstrained = [0.0; 9];
    for k in 0..9 {
        times[k] = fit.x[k] * 1e-9;
        unconstrained[k] = ls.coefficients[k] * 1e-9;
    }
    let times = OpTimes(times);
    let fitted = rows.iter().map(|r| times.time(&r.counts)).collect();
    Ok(Calibration {
        times,
        least_squares: unconstrained,
        rank: ls.rank,
        condition: ls.condition,
        fitted,
    })
}
