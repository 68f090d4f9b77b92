//! The whole characterisation at each optimisation level: the empty kernel, the experiments
//! and the fragments timed in one job; the call overhead (the empty kernel's median)
//! subtracted from every median, as the thesis subtracted the time of reading the clock;
//! the operation times fitted to the experiments; each fragment predicted by Eq 2.2 at each
//! length against its measured time (Table 2-7's form), and by the Mflop/s baseline: its
//! flops over the geometric mean of the Mflop/s the *other* fragments reached at that level
//! (the thesis used the Livermore Loops' mean, Table 2-1, which includes its six loops).

use super::calibrate::{calibrate, Calibration, Row};
use super::experiments::{EMPTY, EXPERIMENTS};
use super::{Job, Opt, Point, RunError, Runner};
use crate::micro::fragments::{Source, THESIS};
use crate::micro::predict::{geometric_mean, Cell, Comparison};
use crate::micro::{analyse_text, Fragment, SourceError};
use expr::eval::EvalError;
use fit::FitError;

/// What to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The optimisation levels, in order.
    pub opts: Vec<Opt>,
    /// The vector lengths of the experiments.
    pub experiment_lengths: Vec<i64>,
    /// The vector lengths of the fragments predicted.
    pub fragment_lengths: Vec<i64>,
    /// Samples per point.
    pub samples: usize,
    /// The least time of one sample, seconds.
    pub min_sample_seconds: f64,
}

impl Plan {
    /// The thesis' lengths (10 to 100 000 for the fragments), -O0 and -O2, 7 samples of at
    /// least 5 ms: about half a minute per level here.
    pub fn thesis() -> Plan {
        Plan {
            opts: vec![Opt::O0, Opt::O2],
            experiment_lengths: vec![100, 1000, 10_000],
            fragment_lengths: crate::micro::thesis::LENGTHS.to_vec(),
            samples: 7,
            min_sample_seconds: 5e-3,
        }
    }

    /// A check in about a second: two lengths each, 3 samples of at least 0.2 ms.
    pub fn quick() -> Plan {
        Plan {
            opts: vec![Opt::O0, Opt::O2],
            experiment_lengths: vec![300, 3000],
            fragment_lengths: vec![10, 1000],
            samples: 3,
            min_sample_seconds: 2e-4,
        }
    }
}

/// One timed point.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Measured {
    /// The kernel's name.
    pub name: String,
    /// The vector length.
    pub n: i64,
    /// The median time of one execution, seconds.
    pub median: f64,
    /// The median less the call overhead, seconds: what the model predicts.
    pub seconds: f64,
    /// Executions per sample.
    pub reps: u64,
    /// The samples, seconds per execution.
    pub samples: Vec<f64>,
}

/// The results at one optimisation level.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Level {
    /// The level.
    pub opt: Opt,
    /// The time of one call of the empty kernel, seconds (subtracted from every median).
    pub overhead: f64,
    /// The fitted operation times (Table 2-5's form; Table 2-13's optimised).
    pub calibration: Calibration,
    /// The experiments' timings.
    pub experiments: Vec<Measured>,
    /// The fragments' timings.
    pub fragments: Vec<Measured>,
    /// The fragments predicted by Eq 2.2 against their times (Table 2-7's form; the column
    /// is the compiler flag).
    pub comparison: Comparison,
    /// The same cells predicted by the Mflop/s baseline (Table 2-11's form).
    pub baseline: Comparison,
    /// Per fragment, the Mflop/s rate its baseline used.
    pub rates: Vec<(String, f64)>,
}

/// The characterisation at every level of the plan.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Study {
    /// Per optimisation level, in the plan's order.
    pub levels: Vec<Level>,
}

/// Why a characterisation failed.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// Timing failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A kernel's source is wrong.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// The fit failed.
    #[error("fitting the operation times: {0}")]
    Fit(#[from] FitError),
    /// A count could not be evaluated.
    #[error("evaluating a count: {0}")]
    Eval(#[from] EvalError),
    /// A measurement cannot be used.
    #[error("{0}")]
    Measured(String),
}

/// The thesis' fragments A–F, read and counted.
///
/// # Errors
/// Never for the built-in texts; a [`SourceError`] is returned rather than a panic.
pub fn thesis_fragments() -> Result<Vec<Fragment>, SourceError> {
    THESIS.iter().map(read).collect()
}

fn read(s: &Source) -> Result<Fragment, SourceError> {
    analyse_text(s.name, s.text)
}

/// Characterises the platform `runner` compiles for, and predicts `fragments` (every
/// parameter at each of the plan's fragment lengths).
///
/// # Errors
/// A [`StudyError`].
pub fn characterise(
    runner: &mut dyn Runner,
    plan: &Plan,
    fragments: &[Fragment],
) -> Result<Study, StudyError> {
    let mut kernels = vec![read(&EMPTY)?];
    for e in &EXPERIMENTS {
        kernels.push(read(e)?);
    }
    let first_fragment = kernels.len();
    kernels.extend(fragments.iter().cloned());
    let mut points = vec![Point { kernel: 0, n: 1 }];
    for k in 1..first_fragment {
        for &n in &plan.experiment_lengths {
            points.push(Point { kernel: k, n });
        }
    }
    for k in first_fragment..kernels.len() {
        for &n in &plan.fragment_lengths {
            points.push(Point { kernel: k, n });
        }
    }
    let mut levels = Vec::new();
    for &opt in &plan.opts {
        let job = Job {
            kernels: &kernels,
            points: &points,
            opt,
            samples: plan.samples,
            min_sample_seconds: plan.min_sample_seconds,
        };
        let timings = runner.time(&job)?;
        if timings.len() != points.len() {
            return Err(StudyError::Measured(format!(
                "{} timings for {} points",
                timings.len(),
                points.len()
            )));
        }
        let median = |s: &[f64]| {
            stats::median(s).ok_or_else(|| StudyError::Measured("a point without samples".into()))
        };
        let overhead = median(&timings[0].seconds)?;
        let mut experiments = Vec::new();
        let mut frags = Vec::new();
        for t in &timings[1..] {
            let m = median(&t.seconds)?;
            let k = &kernels[t.point.kernel];
            let measured = Measured {
                name: k.name.clone(),
                n: t.point.n,
                median: m,
                seconds: m - overhead,
                reps: t.reps,
                samples: t.seconds.clone(),
            };
            if t.point.kernel < first_fragment {
                experiments.push(measured);
            } else {
                frags.push(measured);
            }
        }
        let mut rows = Vec::new();
        for (m, p) in experiments.iter().zip(&points[1..]) {
            rows.push(Row {
                name: m.name.clone(),
                n: m.n,
                counts: counts_for(&kernels[p.kernel], m.n)?,
                seconds: m.seconds,
                scale: m.median,
            });
        }
        let calibration = calibrate(&rows)?;
        let mut comparison = Comparison::default();
        let mut flops = Vec::new();
        for (m, p) in frags.iter().zip(&points[1 + rows.len()..]) {
            let f = &kernels[p.kernel];
            let counts = counts_for(f, m.n)?;
            if m.seconds <= 0.0 {
                return Err(StudyError::Measured(format!(
                    "fragment {} at n = {} ran no longer than the empty call ({:.3e} s)",
                    m.name, m.n, overhead
                )));
            }
            comparison.cells.push(Cell {
                fragment: m.name.clone(),
                n: m.n,
                column: opt.flag().to_string(),
                predicted: calibration.times.time(&counts),
                measured: m.seconds,
            });
            flops.push(counts_flops(&counts));
        }
        // The Mflop/s each cell reached, and per fragment the geometric mean of the others'.
        let reached: Vec<(String, f64)> = comparison
            .cells
            .iter()
            .zip(&flops)
            .filter(|(_, f)| **f > 0.0)
            .map(|(c, f)| (c.fragment.clone(), f / c.measured / 1e6))
            .collect();
        let mut rates = Vec::new();
        for f in fragments {
            let others: Vec<f64> = reached
                .iter()
                .filter(|(n, _)| *n != f.name)
                .map(|(_, r)| *r)
                .collect();
            let own: Vec<f64> = reached.iter().map(|(_, r)| *r).collect();
            let rate = geometric_mean(&others)
                .or_else(|| geometric_mean(&own))
                .unwrap_or(f64::NAN);
            rates.push((f.name.clone(), rate));
        }
        let baseline = Comparison {
            cells: comparison
                .cells
                .iter()
                .zip(&flops)
                .map(|(c, f)| {
                    let rate = rates
                        .iter()
                        .find(|(n, _)| *n == c.fragment)
                        .map_or(f64::NAN, |(_, r)| *r);
                    Cell {
                        predicted: crate::micro::predict::flop_rate_time(*f, rate),
                        ..c.clone()
                    }
                })
                .collect(),
        };
        levels.push(Level {
            opt,
            overhead,
            calibration,
            experiments,
            fragments: frags,
            comparison,
            baseline,
            rates,
        });
    }
    Ok(Study { levels })
}

/// The counts of `f` with every parameter at `n`.
fn counts_for(f: &Fragment, n: i64) -> Result<[f64; 9], EvalError> {
    let b: Vec<(expr::Name, f64)> = f
        .names
        .params
        .iter()
        .map(|p| (expr::Name::from(p.as_str()), n as f64))
        .collect();
    f.counts.at(&b)
}

fn counts_flops(c: &[f64; 9]) -> f64 {
    c[crate::micro::Op::AddR.index()] + c[crate::micro::Op::MultR.index()]
}

/// The summaries of a level's comparison split by whether a fragment carries a value from
/// one iteration to the next ([`crate::micro::dependence::carried`]): `(independent,
/// carried)`, each `None` when no fragment falls in it. The additive model of Table 2-4
/// cannot see a recurrence, so the split says how much of the difference it explains.
pub fn by_dependence(
    comparison: &Comparison,
    fragments: &[Fragment],
) -> (
    Option<crate::micro::predict::Summary>,
    Option<crate::micro::predict::Summary>,
) {
    let independent: Vec<&str> = fragments
        .iter()
        .filter(|f| crate::micro::dependence::carried(&f.program).is_empty())
        .map(|f| f.name.as_str())
        .collect();
    let is_independent = |c: &Cell| independent.contains(&c.fragment.as_str());
    (
        comparison.summary(is_independent),
        comparison.summary(|c| !is_independent(c)),
    )
}
