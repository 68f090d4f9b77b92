//! Segment coefficients from sample runs (spec §3.2 "Fitting variant", §6.2, §6.3, §7.1
//! item 7).
//!
//! At a fixed processor count a segment (or a whole program) takes
//! `T = Σ_g c_g·𝓕_g(χ, N) + known`, where the 𝓕_g are the distinct iteration-count groups
//! and `known` is what is timed elsewhere (micro-benchmarked events). Given the 𝓕_g values and
//! the measured times of a few sample runs, [`fit_coefficients`] solves for the c_g with
//! [`fit::least_squares`]: exactly when there are as many samples as unknowns, in the
//! least-squares sense when there are more.
//!
//! Columns that are collinear over the samples cannot be told apart (the EM trap of §6.3,
//! where (I+J)/min(P, I+J) ≡ 1 and c_WAC/min(P, wac) are both constants). They are
//! **merged**: the later column is dropped and its coefficient absorbed into those of the
//! columns it equals a combination of, and the merge is reported by name. A dependence is
//! taken for collinearity only when the samples could have refuted it, that is when it
//! involves no more columns than there are sample points; otherwise the samples are too few.

use fit::{least_squares, Design, FitError, LeastSquares};
use serde::{Deserialize, Serialize};

use crate::metrics;

/// Relative size below which a factor of a collinear combination counts as zero.
const NEGLIGIBLE_FACTOR: f64 = 1e-8;
/// Relative tolerance within which a merge still holds at a prediction point.
const MERGE_TOLERANCE: f64 = 1e-9;

/// Why coefficients cannot be fitted or used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CoeffError {
    /// The model has no columns.
    #[error("the model has no columns (no 𝓕 groups)")]
    NoColumns,
    /// Two columns have the same name.
    #[error("column {name:?} is named twice")]
    DuplicateColumn {
        /// The name.
        name: String,
    },
    /// A row has not one value per column.
    #[error("sample {row} has {len} column values, the model has {expected} columns")]
    RowLength {
        /// The sample (0-based), or the prediction point for [`SegmentFit::predict`].
        row: usize,
        /// Its number of values.
        len: usize,
        /// The number of columns.
        expected: usize,
    },
    /// A value is NaN or infinite.
    #[error("sample {row}: the {what} is not a finite number ({value})")]
    NotFinite {
        /// The sample (0-based).
        row: usize,
        /// `column value`, `known part` or `time`.
        what: &'static str,
        /// The value.
        value: f64,
    },
    /// A sample has no measured time.
    #[error("sample {row} has no measured time")]
    NoTimes {
        /// The sample (0-based).
        row: usize,
    },
    /// A measured time is zero or negative.
    #[error("sample {row}: the measured time {value} s is not positive")]
    NonPositiveTime {
        /// The sample (0-based).
        row: usize,
        /// The time.
        value: f64,
    },
    /// Fewer sample points than unknowns left after merging.
    #[error(
        "{needed} unknown coefficients need at least {needed} sample points, there are {got}{}",
        unresolved_note(unresolved)
    )]
    TooFewSamples {
        /// The unknowns after merging: the samples needed at least.
        needed: usize,
        /// The sample points given.
        got: usize,
        /// The columns the samples cannot separate from the others.
        unresolved: Vec<String>,
    },
    /// Every column is zero over the samples.
    #[error("every column is zero over the samples: there is nothing to fit")]
    NothingToFit,
    /// The design stayed rank-deficient after merging (numerically marginal columns).
    #[error("the columns kept have rank {rank} of {unknowns}: the fit is not determined")]
    RankDeficient {
        /// The rank.
        rank: usize,
        /// The columns kept.
        unknowns: usize,
    },
    /// A fit's coefficient or merge names a column it does not have (an edited fit).
    #[error("the fit has no column {name:?}")]
    UnknownColumn {
        /// The name.
        name: String,
    },
    /// The regression engine refused the input.
    #[error(transparent)]
    Fit(#[from] FitError),
}

fn unresolved_note(unresolved: &[String]) -> String {
    if unresolved.is_empty() {
        String::new()
    } else {
        format!(" (not separable yet: {})", unresolved.join(", "))
    }
}

/// One sample point: the value of every column there, the measured time(s) and the known part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleRow {
    /// 𝓕_g(χ₀, N) per column, in the columns' order.
    pub values: Vec<f64>,
    /// The part of the time known from elsewhere (e.g. 2N·t_bar), subtracted before fitting.
    #[serde(default)]
    pub known: f64,
    /// The measured times (s): one run or repetitions, averaged.
    pub times: Vec<f64>,
}

impl SampleRow {
    /// A sample with one measured time and no known part.
    pub fn new(values: Vec<f64>, time: f64) -> SampleRow {
        SampleRow {
            values,
            known: 0.0,
            times: vec![time],
        }
    }

    /// The same sample with `known` as its known part.
    pub fn with_known(self, known: f64) -> SampleRow {
        SampleRow { known, ..self }
    }

    /// The same sample with one more repetition measured at `time`.
    pub fn with_repetition(mut self, time: f64) -> SampleRow {
        self.times.push(time);
        self
    }

    /// The mean of the measured times.
    pub(crate) fn mean_time(&self) -> f64 {
        metrics::mean(&self.times).unwrap_or(f64::NAN)
    }
}

/// The model's columns (by name, e.g. `N^3/P`) and the sample points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Samples {
    /// The names of the 𝓕_g columns.
    pub columns: Vec<String>,
    /// The sample points.
    pub rows: Vec<SampleRow>,
}

/// A column dropped because it equals a combination of kept columns over the samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Merge {
    /// The dropped column.
    pub column: String,
    /// `(kept column, factor)`: over the samples, the dropped column = Σ factor · kept column,
    /// so its coefficient is absorbed into theirs (empty: the column is zero there).
    pub into: Vec<(String, f64)>,
}

/// A fitted coefficient.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Coefficient {
    /// The column's name.
    pub name: String,
    /// c_g (s per unit of the column), including whatever merged columns it absorbed.
    pub value: f64,
}

/// How the system was solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Solution {
    /// As many sample points as unknowns: the square system solved exactly.
    Exact,
    /// More sample points than unknowns: least squares.
    LeastSquares,
}

/// Leave-one-out cross-validation: each sample predicted from a fit to the others.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaveOneOut {
    /// Per sample, E (eq. 4.9) of its measured mean time against the fit to the others;
    /// `None` where the others do not determine the coefficients.
    pub relative_errors: Vec<Option<f64>>,
    /// The mean of the errors computed, `None` if there is none.
    pub mean_relative_error: Option<f64>,
}

/// The coefficients of a segment fitted to sample runs, with the fit's diagnostics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentFit {
    /// All the columns, as given.
    pub columns: Vec<String>,
    /// One coefficient per kept column, in the columns' order.
    pub coefficients: Vec<Coefficient>,
    /// The columns merged into others.
    pub merges: Vec<Merge>,
    /// Exact or least squares.
    pub solution: Solution,
    /// Per sample: the mean measured time minus the known part minus the fit (s).
    pub residuals: Vec<f64>,
    /// The residual sum of squares (s²).
    pub rss: f64,
    /// The rank of the kept columns over the samples (their number).
    pub rank: usize,
    /// The condition number of the column-scaled design of the kept columns.
    pub condition: f64,
    /// Leave-one-out errors, when there are more samples than unknowns.
    pub leave_one_out: Option<LeaveOneOut>,
}

/// A predicted time, with the merges that do not hold at the prediction point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// Σ c_g·𝓕_g + known (s), over the kept columns.
    pub time: f64,
    /// Merged columns whose relation to the kept ones differs here from the samples': the
    /// prediction assumes the merged coefficient carries over, which the model cannot confirm.
    pub merges_not_holding: Vec<String>,
}

impl SegmentFit {
    /// The coefficient of the kept column `name`, `None` if no kept column has that name.
    pub fn coefficient(&self, name: &str) -> Option<f64> {
        self.coefficients
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.value)
    }

    /// The time at a point where the columns take `values` (all columns, in order) and the
    /// known part is `known`.
    ///
    /// # Errors
    /// [`CoeffError::RowLength`] (row 0) or [`CoeffError::NotFinite`] for `values` or
    /// `known`; [`CoeffError::UnknownColumn`] if the fit was edited to name a column it does
    /// not have.
    pub fn predict(&self, values: &[f64], known: f64) -> Result<Prediction, CoeffError> {
        let point = SampleRow {
            values: values.to_vec(),
            known,
            times: vec![1.0],
        };
        check_row(0, &point, self.columns.len())?;
        let mut fitted = 0.0;
        for c in &self.coefficients {
            fitted += c.value * self.value_of(&c.name, values)?;
        }
        let mut merges_not_holding = Vec::new();
        for merge in &self.merges {
            if !self.merge_holds(merge, values)? {
                merges_not_holding.push(merge.column.clone());
            }
        }
        Ok(Prediction {
            time: fitted + known,
            merges_not_holding,
        })
    }

    fn value_of(&self, name: &str, values: &[f64]) -> Result<f64, CoeffError> {
        self.columns
            .iter()
            .position(|c| c == name)
            .and_then(|j| values.get(j).copied())
            .ok_or_else(|| CoeffError::UnknownColumn {
                name: name.to_string(),
            })
    }

    fn merge_holds(&self, merge: &Merge, values: &[f64]) -> Result<bool, CoeffError> {
        let merged = self.value_of(&merge.column, values)?;
        let mut combined = 0.0;
        for (name, factor) in &merge.into {
            combined += factor * self.value_of(name, values)?;
        }
        let scale = merged.abs().max(combined.abs());
        Ok((merged - combined).abs() <= MERGE_TOLERANCE * scale)
    }
}

/// Fits the coefficients of `samples`' columns, merging columns collinear over the samples.
///
/// # Errors
/// [`CoeffError::NoColumns`], [`CoeffError::DuplicateColumn`], [`CoeffError::RowLength`],
/// [`CoeffError::NotFinite`], [`CoeffError::NoTimes`], [`CoeffError::NonPositiveTime`] for
/// invalid input; [`CoeffError::TooFewSamples`] when the samples are fewer than the unknowns
/// after merging; [`CoeffError::NothingToFit`] when every column is zero over the samples.
pub fn fit_coefficients(samples: &Samples) -> Result<SegmentFit, CoeffError> {
    check_samples(samples)?;
    let columns = column_vectors(samples);
    let observed: Vec<f64> = samples
        .rows
        .iter()
        .map(|row| row.mean_time() - row.known)
        .collect();
    let selection = select_columns(&columns)?;
    check_enough(samples, &selection)?;
    let kept_columns: Vec<Vec<f64>> = selection.kept.iter().map(|&j| columns[j].clone()).collect();
    let design = Design::from_columns(&kept_columns)?;
    let fitted = least_squares(&design, &observed)?;
    if fitted.rank < selection.kept.len() {
        return Err(CoeffError::RankDeficient {
            rank: fitted.rank,
            unknowns: selection.kept.len(),
        });
    }
    let leave_one_out = leave_one_out(&design, &observed, samples)?;
    Ok(assemble(samples, &selection, fitted, leave_one_out))
}

/// Which columns are kept, merged and not yet separable.
struct Selection {
    kept: Vec<usize>,
    merges: Vec<(usize, Vec<(usize, f64)>)>,
    unresolved: Vec<usize>,
}

/// Walks the columns in order: a column independent of those kept so far is kept; one that
/// depends on them is merged if the dependence involves no more columns than there are
/// samples (the samples could have refuted it), and is unresolved otherwise.
fn select_columns(columns: &[Vec<f64>]) -> Result<Selection, CoeffError> {
    let samples = columns.first().map_or(0, Vec::len);
    let mut selection = Selection {
        kept: Vec::new(),
        merges: Vec::new(),
        unresolved: Vec::new(),
    };
    for j in 0..columns.len() {
        match dependence(columns, &selection.kept, j)? {
            None => selection.kept.push(j),
            Some(combination) if combination.len() < samples => {
                selection.merges.push((j, combination));
            }
            Some(_) => selection.unresolved.push(j),
        }
    }
    Ok(selection)
}

/// `None` if column `j` is independent of the `kept` columns over the samples, else the
/// combination of kept columns it equals (negligible factors left out).
fn dependence(
    columns: &[Vec<f64>],
    kept: &[usize],
    j: usize,
) -> Result<Option<Vec<(usize, f64)>>, CoeffError> {
    let candidate: Vec<Vec<f64>> = kept
        .iter()
        .chain(std::iter::once(&j))
        .map(|&i| columns[i].clone())
        .collect();
    if rank(&candidate)? == candidate.len() {
        return Ok(None);
    }
    if kept.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let on_kept = least_squares(
        &Design::from_columns(&candidate[..kept.len()])?,
        &columns[j],
    )?;
    let target_norm = norm(&columns[j]);
    Ok(Some(
        kept.iter()
            .zip(&on_kept.coefficients)
            .filter(|&(&i, &factor)| {
                (factor * norm(&columns[i])).abs() > NEGLIGIBLE_FACTOR * target_norm
            })
            .map(|(&i, &factor)| (i, factor))
            .collect(),
    ))
}

/// The numerical rank of the columns over the samples, as the fit engine counts it.
fn rank(columns: &[Vec<f64>]) -> Result<usize, CoeffError> {
    let design = Design::from_columns(columns)?;
    let zeros = vec![0.0; design.rows()];
    Ok(least_squares(&design, &zeros)?.rank)
}

fn norm(values: &[f64]) -> f64 {
    values.iter().map(|v| v * v).sum::<f64>().sqrt()
}

fn check_enough(samples: &Samples, selection: &Selection) -> Result<(), CoeffError> {
    let needed = selection.kept.len() + selection.unresolved.len();
    let got = samples.rows.len();
    // A column is unresolved only when the kept ones already span the samples, so any
    // unresolved column makes the unknowns outnumber the samples.
    if needed > got {
        return Err(CoeffError::TooFewSamples {
            needed,
            got,
            unresolved: selection
                .unresolved
                .iter()
                .map(|&j| samples.columns[j].clone())
                .collect(),
        });
    }
    if selection.kept.is_empty() {
        return Err(CoeffError::NothingToFit);
    }
    Ok(())
}

/// Leave-one-out errors, `None` unless there are more samples than unknowns.
fn leave_one_out(
    design: &Design,
    observed: &[f64],
    samples: &Samples,
) -> Result<Option<LeaveOneOut>, CoeffError> {
    let n = design.rows();
    if n <= design.columns() {
        return Ok(None);
    }
    let relative_errors = (0..n)
        .map(|left_out| held_out_error(design, observed, samples, left_out))
        .collect::<Result<Vec<Option<f64>>, CoeffError>>()?;
    let computed: Vec<f64> = relative_errors.iter().flatten().copied().collect();
    Ok(Some(LeaveOneOut {
        mean_relative_error: metrics::mean(&computed),
        relative_errors,
    }))
}

/// E of sample `left_out` predicted from a fit to the others, `None` if they do not
/// determine the coefficients.
fn held_out_error(
    design: &Design,
    observed: &[f64],
    samples: &Samples,
    left_out: usize,
) -> Result<Option<f64>, CoeffError> {
    let others: Vec<usize> = (0..design.rows()).filter(|&i| i != left_out).collect();
    let fold = least_squares(
        &design.select_rows(&others),
        &others.iter().map(|&i| observed[i]).collect::<Vec<f64>>(),
    )?;
    if fold.rank < design.columns() {
        return Ok(None);
    }
    let row = &samples.rows[left_out];
    let fitted = design.select_rows(&[left_out]).predict(&fold.coefficients);
    let predicted = fitted.first().copied().unwrap_or(f64::NAN) + row.known;
    Ok(metrics::error(row.mean_time(), predicted).ok())
}

fn assemble(
    samples: &Samples,
    selection: &Selection,
    fitted: LeastSquares,
    leave_one_out: Option<LeaveOneOut>,
) -> SegmentFit {
    let name = |j: usize| samples.columns[j].clone();
    let coefficients = selection
        .kept
        .iter()
        .zip(&fitted.coefficients)
        .map(|(&j, &value)| Coefficient {
            name: name(j),
            value,
        })
        .collect();
    let merges = selection
        .merges
        .iter()
        .map(|(j, combination)| Merge {
            column: name(*j),
            into: combination.iter().map(|&(i, f)| (name(i), f)).collect(),
        })
        .collect();
    let solution = if samples.rows.len() == selection.kept.len() {
        Solution::Exact
    } else {
        Solution::LeastSquares
    };
    SegmentFit {
        columns: samples.columns.clone(),
        coefficients,
        merges,
        solution,
        residuals: fitted.residuals,
        rss: fitted.rss,
        rank: fitted.rank,
        condition: fitted.condition,
        leave_one_out,
    }
}

/// The columns of the samples' values (`columns[g][row]`).
fn column_vectors(samples: &Samples) -> Vec<Vec<f64>> {
    (0..samples.columns.len())
        .map(|g| samples.rows.iter().map(|row| row.values[g]).collect())
        .collect()
}

fn check_samples(samples: &Samples) -> Result<(), CoeffError> {
    check_columns(&samples.columns)?;
    if samples.rows.is_empty() {
        return Err(CoeffError::TooFewSamples {
            needed: 1,
            got: 0,
            unresolved: Vec::new(),
        });
    }
    samples
        .rows
        .iter()
        .enumerate()
        .try_for_each(|(i, row)| check_row(i, row, samples.columns.len()))?;
    samples
        .rows
        .iter()
        .enumerate()
        .try_for_each(|(i, row)| check_times(i, row))
}

fn check_columns(columns: &[String]) -> Result<(), CoeffError> {
    if columns.is_empty() {
        return Err(CoeffError::NoColumns);
    }
    for (i, name) in columns.iter().enumerate() {
        if columns[..i].contains(name) {
            return Err(CoeffError::DuplicateColumn { name: name.clone() });
        }
    }
    Ok(())
}

fn check_row(row: usize, sample: &SampleRow, expected: usize) -> Result<(), CoeffError> {
    if sample.values.len() != expected {
        return Err(CoeffError::RowLength {
            row,
            len: sample.values.len(),
            expected,
        });
    }
    let finite = |what: &'static str, value: f64| {
        if value.is_finite() {
            Ok(())
        } else {
            Err(CoeffError::NotFinite { row, what, value })
        }
    };
    sample
        .values
        .iter()
        .try_for_each(|&v| finite("column value", v))?;
    finite("known part", sample.known)
}

fn check_times(row: usize, sample: &SampleRow) -> Result<(), CoeffError> {
    if sample.times.is_empty() {
        return Err(CoeffError::NoTimes { row });
    }
    for &value in &sample.times {
        if !value.is_finite() {
            return Err(CoeffError::NotFinite {
                row,
                what: "time",
                value,
            });
        }
        if value <= 0.0 {
            return Err(CoeffError::NonPositiveTime { row, value });
        }
    }
    Ok(())
}
