//! The one error of every measurement reader.

/// The class of a [`ReadError`]; tests and tools match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReadErrorKind {
    /// Malformed text: an unknown keyword, bad JSON or CSV, a missing field.
    Syntax,
    /// A value that should be a number and is not one.
    NotANumber,
    /// A NaN or infinite value.
    NotFinite,
    /// A point with the wrong number of coordinates, or DATA lines that do not match the
    /// POINTS.
    Mismatch,
    /// A column or parameter named by the caller that the file does not have.
    UnknownName,
    /// A number outside the range its column allows (a time that is not > 0).
    OutOfRange,
    /// The file holds no measurements.
    Empty,
}

/// An error in a measurement file, with its location when there is one
/// ([`diag::Located`]: `kind`, `message` with `line:column`, `help`, `location`).
pub type ReadError = diag::Located<ReadErrorKind>;

impl diag::ErrorKind for ReadErrorKind {
    fn label(self) -> &'static str {
        match self {
            ReadErrorKind::Syntax => "here",
            ReadErrorKind::NotANumber => "not a number",
            ReadErrorKind::NotFinite => "not finite",
            ReadErrorKind::Mismatch => "does not match",
            ReadErrorKind::UnknownName => "unknown",
            ReadErrorKind::OutOfRange => "out of range",
            ReadErrorKind::Empty => "empty",
        }
    }
}
