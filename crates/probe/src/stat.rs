//! Repeated timings and their summaries: the calibrated batch loop every measurement runs.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{Options, ProbeError};

/// The time of one operation over the repetitions of a measurement, seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// The median over the repetitions.
    pub median_s: f64,
    /// The fastest repetition.
    pub min_s: f64,
    /// The slowest repetition.
    pub max_s: f64,
    /// How many repetitions were timed.
    pub repetitions: usize,
    /// Operations per repetition (each repetition's time divided by it is one sample).
    pub ops_per_repetition: u64,
}

/// A rate over the repetitions of a measurement, bytes per second.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// The median over the repetitions.
    pub median_bytes_per_s: f64,
    /// The slowest repetition.
    pub min_bytes_per_s: f64,
    /// The fastest repetition.
    pub max_bytes_per_s: f64,
    /// How many repetitions were timed.
    pub repetitions: usize,
    /// Passes over the array per repetition.
    pub passes_per_repetition: u64,
}

/// Sorts samples after checking that each is finite and positive.
fn sorted_samples(what: &str, mut samples: Vec<f64>) -> Result<Vec<f64>, ProbeError> {
    if samples.is_empty() || samples.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
        return Err(ProbeError::Unmeasurable {
            what: what.to_string(),
            reason: "a repetition took no measurable time".into(),
        });
    }
    samples.sort_by(f64::total_cmp);
    Ok(samples)
}

impl Stat {
    /// Summarises per-operation samples (seconds).
    pub(crate) fn from_samples(
        what: &str,
        samples: Vec<f64>,
        ops: u64,
    ) -> Result<Stat, ProbeError> {
        let s = sorted_samples(what, samples)?;
        Ok(Stat {
            median_s: stats::quantile_sorted(&s, 0.5).unwrap_or(f64::NAN),
            min_s: s[0],
            max_s: s[s.len() - 1],
            repetitions: s.len(),
            ops_per_repetition: ops,
        })
    }

    /// The same times for operations of half the length (a round trip → one way): every
    /// time halved, twice the operations per repetition.
    pub(crate) fn halved(self) -> Stat {
        Stat {
            median_s: self.median_s / 2.0,
            min_s: self.min_s / 2.0,
            max_s: self.max_s / 2.0,
            ops_per_repetition: self.ops_per_repetition * 2,
            ..self
        }
    }
}

/// The most operations one repetition runs.
const MAX_OPS: u64 = 1 << 34;

/// How many operations make one repetition last `options.repetition_s`: `run(n)` runs `n`
/// operations and returns their time; `n` grows fourfold from 1 until a run takes a quarter
/// of the target (these runs warm caches and wake cores up).
fn calibrate(
    options: &Options,
    run: &mut dyn FnMut(u64) -> Result<Duration, ProbeError>,
) -> Result<u64, ProbeError> {
    let target = options.repetition_s;
    let mut n = 1u64;
    loop {
        let t = run(n)?.as_secs_f64();
        if t >= target / 4.0 || n >= MAX_OPS {
            let per_op = t.max(1e-9) / n as f64;
            return Ok(((target / per_op).ceil() as u64).clamp(1, MAX_OPS));
        }
        n = n.saturating_mul(4);
    }
}

/// Times `options.repetitions` repetitions of a calibrated number of operations; `run(n)`
/// runs `n` operations and returns their time. The samples are seconds per operation.
pub(crate) fn measure(
    what: &str,
    options: &Options,
    mut run: impl FnMut(u64) -> Result<Duration, ProbeError>,
) -> Result<Stat, ProbeError> {
    let n = calibrate(options, &mut run)?;
    let mut samples = Vec::with_capacity(options.repetitions);
    for _ in 0..options.repetitions {
        samples.push(run(n)?.as_secs_f64() / n as f64);
    }
    Stat::from_samples(what, samples, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(stats::median(&[1.0, 2.0, 4.0, 8.0]), Some(3.0));
        assert_eq!(stats::median(&[1.0, 2.0, 4.0]), Some(2.0));
    }

    #[test]
    fn zero_or_nan_samples_are_unmeasurable() {
        assert!(Stat::from_samples("x", vec![1.0, 0.0], 1).is_err());
        assert!(Stat::from_samples("x", vec![f64::NAN], 1).is_err());
        assert!(Stat::from_samples("x", vec![], 1).is_err());
    }

    #[test]
    fn halving_keeps_the_repetitions_and_doubles_the_operations() {
        let s = Stat::from_samples("x", vec![2.0, 4.0, 6.0], 10)
            .unwrap()
            .halved();
        assert_eq!((s.median_s, s.min_s, s.max_s), (2.0, 1.0, 3.0));
        assert_eq!((s.repetitions, s.ops_per_repetition), (3, 20));
    }
}
