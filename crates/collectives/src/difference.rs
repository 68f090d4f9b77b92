//! The thesis' measure of a model: the average prediction difference (chapter 2, lines
//! 2261–2267 of the seed): the mean over the cells of |predicted − measured| / measured,
//! as a percentage, with the population standard deviation of those magnitudes (settled by
//! Tables 2-15 A and D, which only the population form reproduces).

use serde::Serialize;

/// The average prediction difference of a model over a set of cells.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// Mean magnitude, in percent of the measured value.
    pub mean: f64,
    /// Population standard deviation of the magnitudes, in percent.
    pub sd: f64,
    /// The largest magnitude, in percent.
    pub max: f64,
    /// The median magnitude, in percent.
    pub median: f64,
    /// The number of cells.
    pub cells: usize,
}

impl Difference {
    /// The difference over `(predicted, measured)` pairs (measured > 0).
    pub fn of(pairs: impl Iterator<Item = (f64, f64)>) -> Difference {
        let mags: Vec<f64> = pairs
            .map(|(pred, meas)| (pred - meas).abs() / meas * 100.0)
            .collect();
        let n = mags.len();
        if n == 0 {
            return Difference {
                mean: f64::NAN,
                sd: f64::NAN,
                max: f64::NAN,
                median: f64::NAN,
                cells: 0,
            };
        }
        let mean = mags.iter().sum::<f64>() / n as f64;
        let sd = (mags.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        Difference {
            mean,
            sd,
            max: mags.iter().copied().fold(0.0, f64::max),
            median: stats::median(&mags).unwrap_or(f64::NAN),
            cells: n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn population_sd_of_magnitudes() {
        // Magnitudes 10, 20, 30: mean 20, population SD sqrt(200/3).
        let d = Difference::of([(110.0, 100.0), (80.0, 100.0), (130.0, 100.0)].into_iter());
        assert!((d.mean - 20.0).abs() < 1e-12);
        assert!((d.sd - (200.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(d.max, 30.0);
        assert_eq!(d.cells, 3);
    }
}
