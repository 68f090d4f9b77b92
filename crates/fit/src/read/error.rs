//! The one error of every measurement reader.

use diag::Location;

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

/// An error in a measurement file, with its location when there is one.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ReadError {
    /// The class of error.
    pub kind: ReadErrorKind,
    /// One-line description, with `line:column` when known.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Where in the text.
    pub location: Option<Box<Location>>,
}

diag::located_diagnostic!(ReadError);

impl ReadError {
    /// An error at `range` of `text` (named `name`), its message prefixed with the line and
    /// column.
    pub fn at(
        kind: ReadErrorKind,
        (name, text): (&str, &str),
        range: std::ops::Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        // A caret under at most 80 bytes: a 100 kB token must not make a 100 kB message.
        let end = diag::floor_char_boundary(text, range.end.min(range.start + 80));
        let range = range.start..end.max(range.start);
        let (line, col) = diag::line_col(text, range.start);
        let message = format!("{name}:{line}:{col}: {}", message.into());
        ReadError {
            kind,
            location: Some(Box::new(Location::new(name, text, range, kind.label()))),
            message,
            help: None,
        }
    }

    /// An error about the whole file.
    pub fn whole(kind: ReadErrorKind, name: &str, message: impl Into<String>) -> Self {
        ReadError {
            kind,
            message: format!("{name}: {}", message.into()),
            help: None,
            location: None,
        }
    }

    /// The error with a hint.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl ReadErrorKind {
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
