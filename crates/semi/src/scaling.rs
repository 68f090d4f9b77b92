//! Ratio scaling of a sample run's time to a target point: eq. 2.3 (shared memory, iteration
//! counts 𝓕(χ, N)) and eq. 2.6 (data parallel, sizes 𝓕(χ) spread over N processors), and the
//! warnings about samples that scale badly (§4 step 4, §7.1 item 6).

use serde::{Deserialize, Serialize};

/// Why a scaling cannot be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScalingError {
    /// The sample's iteration count 𝓕(χ₀, N₀) is zero or negative: nothing to scale from.
    #[error(
        "the sample's iteration count {count} is not positive: there is nothing to scale from"
    )]
    NonPositiveSampleCount {
        /// 𝓕(χ₀, N₀).
        count: f64,
    },
    /// The target's iteration count 𝓕(χ, N) is negative.
    #[error("the target's iteration count {count} is negative")]
    NegativeTargetCount {
        /// 𝓕(χ, N).
        count: f64,
    },
    /// The sample's time is negative.
    #[error("the sample's time {time} s is negative")]
    NegativeTime {
        /// tt(χ₀, N₀).
        time: f64,
    },
    /// A value is NaN or infinite.
    #[error("the {what} is not a finite number ({value})")]
    NotFinite {
        /// `sample's iteration count`, `target's iteration count` or `sample's time`.
        what: &'static str,
        /// The value.
        value: f64,
    },
    /// A processor count is zero.
    #[error("the {what} processor count is zero")]
    ZeroProcessors {
        /// `sample's` or `target's`.
        what: &'static str,
    },
}

/// Where eq. 2.6 takes the ceiling (spec §7.1 item 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ceiling {
    /// The paper's: ⌈𝓕·min(N₀, 𝓕₀) / (𝓕₀·min(N, 𝓕))⌉, an integer multiple of the sample time.
    #[default]
    WholeRatio,
    /// Per-processor iteration counts: ⌈𝓕/min(𝓕, N)⌉ / ⌈𝓕₀/min(𝓕₀, N₀)⌉.
    PerProcessor,
}

/// Which scaling law a segment follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Law {
    /// Eq. 2.3: the ratio of iteration counts 𝓕(χ, N)/𝓕(χ₀, N₀).
    SharedMemory,
    /// Eq. 2.6: sizes 𝓕(χ) spread over the processors, with the ceiling where given.
    DataParallel(Ceiling),
}

/// An iteration count (or data-parallel size) at a point, with the processor count there.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Extent {
    /// 𝓕(ss, χ, N) for eq. 2.3, 𝓕(ss, χ) for eq. 2.6.
    pub count: f64,
    /// N.
    pub processors: u64,
}

/// A measured sample: its extent and its elapsed time tt(χ₀, N₀).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleRun {
    /// 𝓕 at the sample point, with N₀.
    pub extent: Extent,
    /// The measured time (s).
    pub time: f64,
}

/// Which side of the truth a prediction from another processor count lies on (Fig. 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bound {
    /// Samples from fewer processors under-predict: the prediction is a lower bound.
    Lower,
    /// Samples from more processors over-predict: the prediction is an upper bound.
    Upper,
}

/// Something about a sample that makes its scaling less trustworthy (the CLI words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScalingWarning {
    /// The sample size does not divide evenly over the processors: the sample's load is
    /// unbalanced, unlike the paper's samples (§4 step 4).
    UnevenSample {
        /// The sample size χ₀ (or data-set size).
        size: u64,
        /// The processor count it ran on.
        processors: u64,
        /// `size % processors`.
        remainder: u64,
    },
    /// The sample ran on another processor count than the target (§7.1 item 6): the
    /// prediction brackets the truth from one side.
    OtherProcessorCount {
        /// N₀.
        sample: u64,
        /// N.
        target: u64,
        /// Which bound the prediction is.
        bound: Bound,
    },
}

/// A scaled time with its multiplier and warnings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scaled {
    /// tt(χ, N) (s).
    pub time: f64,
    /// The factor applied to the sample's time.
    pub multiplier: f64,
    /// What the user should know about this scaling.
    pub warnings: Vec<ScalingWarning>,
}

/// Eq. 2.3's multiplier 𝓕(χ, N)/𝓕(χ₀, N₀).
///
/// # Errors
/// [`ScalingError::NonPositiveSampleCount`], [`ScalingError::NegativeTargetCount`],
/// [`ScalingError::NotFinite`].
pub fn shared_memory_ratio(target: Extent, sample: Extent) -> Result<f64, ScalingError> {
    check_counts(target, sample)?;
    Ok(target.count / sample.count)
}

/// Eq. 2.6's multiplier, with the ceiling placed as `ceiling` says; 0 for a target of no
/// iterations.
///
/// # Errors
/// As [`shared_memory_ratio`], and [`ScalingError::ZeroProcessors`].
pub fn data_parallel_ratio(
    target: Extent,
    sample: Extent,
    ceiling: Ceiling,
) -> Result<f64, ScalingError> {
    check_counts(target, sample)?;
    check_processors(target, sample)?;
    if target.count == 0.0 {
        return Ok(0.0);
    }
    let spread = |e: Extent| e.count / e.processors_f64().min(e.count);
    Ok(match ceiling {
        Ceiling::WholeRatio => ceil_tolerant(spread(target) / spread(sample)),
        Ceiling::PerProcessor => ceil_tolerant(spread(target)) / ceil_tolerant(spread(sample)),
    })
}

/// The sample's time scaled to `target` by `law`, with the processor-count warning (the
/// divisibility warning needs the sample size: see [`uneven_sample`]).
///
/// # Errors
/// As the law's multiplier, and [`ScalingError::NegativeTime`] or
/// [`ScalingError::NotFinite`] for the sample's time.
pub fn scale(law: Law, target: Extent, sample: &SampleRun) -> Result<Scaled, ScalingError> {
    check_time(sample.time)?;
    let multiplier = match law {
        Law::SharedMemory => shared_memory_ratio(target, sample.extent)?,
        Law::DataParallel(ceiling) => data_parallel_ratio(target, sample.extent, ceiling)?,
    };
    let warnings = other_processor_count(sample.extent.processors, target.processors)?
        .into_iter()
        .collect();
    Ok(Scaled {
        time: multiplier * sample.time,
        multiplier,
        warnings,
    })
}

/// The warning for a sample size that does not divide evenly over its processors.
///
/// # Errors
/// [`ScalingError::ZeroProcessors`].
pub fn uneven_sample(size: u64, processors: u64) -> Result<Option<ScalingWarning>, ScalingError> {
    let remainder = size
        .checked_rem(processors)
        .ok_or(ScalingError::ZeroProcessors { what: "sample's" })?;
    Ok((remainder != 0).then_some(ScalingWarning::UnevenSample {
        size,
        processors,
        remainder,
    }))
}

/// The warning for a sample from another processor count than the target, with the bound
/// the prediction gives: fewer sample processors, a lower bound; more, an upper bound.
///
/// # Errors
/// [`ScalingError::ZeroProcessors`].
pub fn other_processor_count(
    sample: u64,
    target: u64,
) -> Result<Option<ScalingWarning>, ScalingError> {
    if sample == 0 {
        return Err(ScalingError::ZeroProcessors { what: "sample's" });
    }
    if target == 0 {
        return Err(ScalingError::ZeroProcessors { what: "target's" });
    }
    let bound = match sample.cmp(&target) {
        std::cmp::Ordering::Less => Bound::Lower,
        std::cmp::Ordering::Greater => Bound::Upper,
        std::cmp::Ordering::Equal => return Ok(None),
    };
    Ok(Some(ScalingWarning::OtherProcessorCount {
        sample,
        target,
        bound,
    }))
}

impl Extent {
    fn processors_f64(self) -> f64 {
        self.processors as f64
    }
}

/// ⌈x⌉, except that a value within a relative 1e-12 of an integer is that integer: a ratio
/// that is mathematically whole (10·4/(4·10)) must not round up on a rounding error.
fn ceil_tolerant(x: f64) -> f64 {
    let nearest = x.round();
    if (x - nearest).abs() <= 1e-12 * nearest.abs().max(1.0) {
        nearest
    } else {
        x.ceil()
    }
}

fn check_counts(target: Extent, sample: Extent) -> Result<(), ScalingError> {
    check_finite("sample's iteration count", sample.count)?;
    check_finite("target's iteration count", target.count)?;
    if sample.count <= 0.0 {
        return Err(ScalingError::NonPositiveSampleCount {
            count: sample.count,
        });
    }
    if target.count < 0.0 {
        return Err(ScalingError::NegativeTargetCount {
            count: target.count,
        });
    }
    Ok(())
}

fn check_processors(target: Extent, sample: Extent) -> Result<(), ScalingError> {
    if sample.processors == 0 {
        return Err(ScalingError::ZeroProcessors { what: "sample's" });
    }
    if target.processors == 0 {
        return Err(ScalingError::ZeroProcessors { what: "target's" });
    }
    Ok(())
}

fn check_time(time: f64) -> Result<(), ScalingError> {
    check_finite("sample's time", time)?;
    if time < 0.0 {
        Err(ScalingError::NegativeTime { time })
    } else {
        Ok(())
    }
}

fn check_finite(what: &'static str, value: f64) -> Result<(), ScalingError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(ScalingError::NotFinite { what, value })
    }
}
