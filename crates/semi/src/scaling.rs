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

diag::choices! {
    /// Where eq. 2.6 takes the ceiling (spec §7.1 item 4).
    #[derive(Default, Serialize, Deserialize)]
    pub enum Ceiling {
        /// The paper's: ⌈𝓕·min(N₀, 𝓕₀) / (𝓕₀·min(N, 𝓕))⌉, an integer multiple of the sample time.
        #[default]
        WholeRatio = "whole": "The paper's: over the whole ratio",
        /// Per-processor iteration counts: ⌈𝓕/min(𝓕, N)⌉ / ⌈𝓕₀/min(𝓕₀, N₀)⌉.
        PerProcessor = "per-processor": "Over each point's iterations per processor",
    }
}

diag::choices! {
    /// The scaling law a user names: [`Law`] without its ceiling ([`Law::named`]).
    pub enum LawName {
        /// Eq. 2.3.
        Shared = "shared": "Eq. 2.3: the ratio of iteration counts",
        /// Eq. 2.6.
        DataParallel = "data-parallel": "Eq. 2.6: sizes spread over the processors",
    }
}

impl Law {
    /// The law named `law` with the ceiling `ceiling` (eq. 2.6's; the paper's by default).
    ///
    /// ```
    /// use semi::scaling::{Ceiling, Law, LawName};
    /// assert_eq!(Law::named(LawName::DataParallel, None), Ok(Law::DataParallel(Ceiling::WholeRatio)));
    /// assert!(Law::named(LawName::Shared, Some(Ceiling::PerProcessor)).is_err());
    /// ```
    ///
    /// # Errors
    /// [`RatioError::Ceiling`]: a ceiling for eq. 2.3, which has none.
    pub fn named(law: LawName, ceiling: Option<Ceiling>) -> Result<Law, RatioError> {
        match (law, ceiling) {
            (LawName::Shared, None) => Ok(Law::SharedMemory),
            (LawName::Shared, Some(_)) => Err(RatioError::Ceiling),
            (LawName::DataParallel, c) => Ok(Law::DataParallel(c.unwrap_or_default())),
        }
    }
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

/// One measured run scaled to another point by eq. 2.3 or 2.6: what a user with a single
/// timing needs ([`scale_run`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RatioRun {
    /// 𝓕 as an expression of the point's parameters (`N^3/P`): the iteration count of
    /// eq. 2.3, the data-parallel size of eq. 2.6.
    pub count: String,
    /// The scaling law.
    pub law: Law,
    /// The processor-count parameter: its values at `from` and `to` are N₀ and N.
    pub by: String,
    /// The measured point χ₀ (with N₀).
    pub from: Vec<(String, f64)>,
    /// The target χ (with N); a parameter it does not give keeps its value at `from`.
    pub to: Vec<(String, f64)>,
    /// The measured time tt(χ₀, N₀), seconds.
    pub seconds: f64,
}

/// A scaled run: the time, the counts, the points, and what to know about them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatioScaled {
    /// The scaled time, its multiplier and the processor-count warning.
    pub scaled: Scaled,
    /// 𝓕 at the measured point.
    pub sample_count: f64,
    /// 𝓕 at the target.
    pub target_count: f64,
    /// The measured point, every parameter.
    pub from: Vec<(String, f64)>,
    /// The target, every parameter.
    pub to: Vec<(String, f64)>,
}

/// Why a run cannot be scaled.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatioError {
    /// The count is not an expression.
    #[error("the count `{count}` is not an expression: {message} (at byte {at})")]
    Count {
        /// The text.
        count: String,
        /// What is wrong.
        message: String,
        /// Where.
        at: usize,
    },
    /// The count uses a name the measured point does not give.
    #[error("the count uses `{name}`, which the measured point does not give")]
    Unbound {
        /// The name.
        name: String,
    },
    /// A point gives a parameter twice (`which` says which point).
    #[error("`{name}` is given twice")]
    Twice {
        /// The name.
        name: String,
        /// `measured point` or `target`.
        which: &'static str,
    },
    /// The target names a parameter the measured point does not have.
    #[error("the target gives `{name}`, which the measured point does not have")]
    UnknownTarget {
        /// The name.
        name: String,
    },
    /// The count cannot be evaluated at a point.
    #[error("the count at the {which}: {message}")]
    Eval {
        /// `measured point` or `target`.
        which: &'static str,
        /// Why.
        message: String,
    },
    /// Eq. 2.6 needs the processor counts, and the points do not give them.
    #[error("eq. 2.6 spreads the size over the processors, and the measured point does not give the processor count `{by}`")]
    NoProcessors {
        /// The processor-count parameter.
        by: String,
    },
    /// A processor count is not a whole number of at least 1.
    #[error(
        "the processor count `{by}` = {value} at the {which} is not a whole number of at least 1"
    )]
    BadProcessors {
        /// The processor-count parameter.
        by: String,
        /// Its value.
        value: f64,
        /// `measured point` or `target`.
        which: &'static str,
    },
    /// A ceiling given for eq. 2.3, which has none ([`Law::named`]).
    #[error("eq. 2.3 has no ceiling")]
    Ceiling,
    /// The scaling itself fails (a count that is not positive, a negative time).
    #[error(transparent)]
    Scaling(#[from] ScalingError),
}

/// Scales one measured run to another point: 𝓕 evaluated at both points, then eq. 2.3
/// (tt = 𝓕(χ, N)/𝓕(χ₀, N₀) · tt₀) or eq. 2.6 (the ceiling of the size spread over the
/// processors, [`data_parallel_ratio`]), with the warnings for a sample from another
/// processor count and, for eq. 2.6, a size the processors do not divide.
///
/// ```
/// use semi::scaling::{scale_run, Law, RatioRun};
///
/// // Spec §6.1: tt(χ₀ = 200, N₀ = 2) = 1.2 s, 𝓕 = χ³/N: at χ = 800, 64 × 1.2 = 76.8 s.
/// let run = RatioRun {
///     count: "N^3 / P".into(),
///     law: Law::SharedMemory,
///     by: "P".into(),
///     from: vec![("N".into(), 200.0), ("P".into(), 2.0)],
///     to: vec![("N".into(), 800.0)],
///     seconds: 1.2,
/// };
/// let s = scale_run(&run).unwrap();
/// assert!((s.scaled.multiplier - 64.0).abs() < 1e-12);
/// assert!((s.scaled.time - 76.8).abs() < 1e-9);
/// ```
///
/// # Errors
/// [`RatioError`]: the count does not parse or evaluate, a name is missing, eq. 2.6 without
/// processor counts, or the scaling's own [`ScalingError`].
pub fn scale_run(run: &RatioRun) -> Result<RatioScaled, RatioError> {
    for (point, which) in [(&run.from, "measured point"), (&run.to, "target")] {
        for (i, (k, _)) in point.iter().enumerate() {
            if point[..i].iter().any(|(n, _)| n == k) {
                return Err(RatioError::Twice {
                    name: k.clone(),
                    which,
                });
            }
        }
    }
    let count = expr::parse(&run.count).map_err(|e| RatioError::Count {
        count: run.count.clone(),
        message: e.message.clone(),
        at: e.start,
    })?;
    for name in count.free_vars() {
        if !run.from.iter().any(|(k, _)| **k == *name) {
            return Err(RatioError::Unbound {
                name: name.to_string(),
            });
        }
    }
    let mut to = run.from.clone();
    for (k, v) in &run.to {
        match to.iter_mut().find(|(n, _)| n == k) {
            Some(slot) => slot.1 = *v,
            None => return Err(RatioError::UnknownTarget { name: k.clone() }),
        }
    }
    let at = |point: &[(String, f64)], which: &'static str| -> Result<f64, RatioError> {
        let env: Vec<(expr::Name, f64)> = point
            .iter()
            .map(|(k, v)| (expr::Name::from(k.as_str()), *v))
            .collect();
        expr::eval::eval_f64(&count, &env, &expr::eval::EvalLimits::default()).map_err(|e| {
            RatioError::Eval {
                which,
                message: e.to_string(),
            }
        })
    };
    let (sample_count, target_count) = (at(&run.from, "measured point")?, at(&to, "target")?);
    let procs = |point: &[(String, f64)], which: &'static str| -> Result<Option<u64>, RatioError> {
        match point.iter().find(|(k, _)| *k == run.by) {
            None => Ok(None),
            Some(&(_, v)) if v >= 1.0 && v.fract() == 0.0 && v <= 1e15 => Ok(Some(v as u64)),
            Some(&(_, value)) => Err(RatioError::BadProcessors {
                by: run.by.clone(),
                value,
                which,
            }),
        }
    };
    let (n0, n) = (procs(&run.from, "measured point")?, procs(&to, "target")?);
    let (n0, n) = match (n0, n, run.law) {
        (Some(a), Some(b), _) => (a, b),
        (None, _, Law::DataParallel(_)) => {
            return Err(RatioError::NoProcessors { by: run.by.clone() })
        }
        // Eq. 2.3 does not need them: the count already holds N.
        _ => (1, 1),
    };
    let sample = SampleRun {
        extent: Extent {
            count: sample_count,
            processors: n0,
        },
        time: run.seconds,
    };
    let target = Extent {
        count: target_count,
        processors: n,
    };
    let mut scaled = scale(run.law, target, &sample)?;
    if let Law::DataParallel(_) = run.law {
        // A size below the processors leaves some idle, not unbalanced.
        let whole = sample_count.fract() == 0.0 && sample_count <= 1e15;
        if whole && sample_count >= n0 as f64 {
            scaled
                .warnings
                .extend(uneven_sample(sample_count as u64, n0)?);
        }
    }
    Ok(RatioScaled {
        scaled,
        sample_count,
        target_count,
        from: run.from.clone(),
        to,
    })
}
