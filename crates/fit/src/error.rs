//! What can be wrong with a regression's input.

/// Why a fit cannot be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    /// The design's rows and the observations do not match, or a row has the wrong length.
    #[error("the design has {rows} rows but there are {observations} observations")]
    Shape {
        /// Rows of the design.
        rows: usize,
        /// Observations.
        observations: usize,
    },
    /// A row of the design is not as long as the first.
    #[error("row {row} of the design has {len} values, the first has {expected}")]
    Ragged {
        /// The row (0-based).
        row: usize,
        /// Its length.
        len: usize,
        /// The first row's length.
        expected: usize,
    },
    /// A value is NaN or infinite.
    #[error("{what} {index} is not a finite number ({value})")]
    NotFinite {
        /// `row` of the design or `observation`.
        what: &'static str,
        /// Its index (0-based).
        index: usize,
        /// The value.
        value: f64,
    },
    /// No rows, or no columns.
    #[error("nothing to fit: {rows} rows, {columns} columns")]
    Empty {
        /// Rows.
        rows: usize,
        /// Columns.
        columns: usize,
    },
    /// A measurement without values.
    #[error("measurement {measurement} has no values")]
    NoValues {
        /// The measurement (0-based).
        measurement: usize,
    },
    /// A measurement's point has the wrong number of parameters.
    #[error("measurement {measurement} has {len} parameter values, expected {expected}")]
    Dimensions {
        /// The measurement (0-based).
        measurement: usize,
        /// Its number of parameter values.
        len: usize,
        /// The number of parameters.
        expected: usize,
    },
    /// An iterative method reached its iteration limit.
    #[error("{method} did not converge within {limit} iterations")]
    IterationLimit {
        /// The method.
        method: &'static str,
        /// The limit.
        limit: usize,
    },
    /// The factorisation failed (it does not on finite input).
    #[error("the {0} did not converge")]
    Factorisation(&'static str),
    /// The values span more than double precision can fit: the fitted model (or the
    /// regression's `what`) came out NaN or infinite.
    #[error(
        "the values (magnitudes {smallest:e} to {largest:e}) are beyond what a double-precision \
         fit can handle: its {what} is not a finite number"
    )]
    Range {
        /// What came out not finite ("model", "coefficients", "residual sum of squares").
        what: &'static str,
        /// The smallest nonzero magnitude among the values.
        smallest: f64,
        /// The largest magnitude among the values.
        largest: f64,
    },
}

/// The fix for values a double-precision fit cannot handle ([`FitError::Range`]).
pub const RANGE_HELP: &str =
    "give the values in another unit (e.g. ms rather than s, or GB rather \
     than bytes) so that their squares stay below 1e308, and drop values many orders of \
     magnitude from the rest";

impl diag::Advise for FitError {
    /// [`RANGE_HELP`] for [`FitError::Range`]; the others are errors in the data with no
    /// fix to add (an empty one).
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::fix(match self {
            FitError::Range { .. } => RANGE_HELP,
            _ => "",
        }))
    }
}
