//! The one error of the Fortran reader and the mapping: a kind, a message with
//! `name:line:column`, a help text with the fix, and a window of the source.

use diag::Location;

/// The class of a [`SourceError`]; tests and tools match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceErrorKind {
    /// Malformed text: an unexpected character or token, an unbalanced parenthesis.
    Syntax,
    /// Fortran outside the subset of Table 2-2 (a function call, `**`, a DO step, IF).
    Unsupported,
    /// A DO loop without its END DO, an END DO or labelled CONTINUE without its DO.
    Unclosed,
    /// A name used inconsistently (as an array and a scalar, a REAL loop variable, a bound
    /// assigned by the fragment itself).
    Name,
    /// An input limit reached (bytes, statements, loop nesting, expression nesting).
    Limit,
}

/// An error in a Fortran fragment, located in its text when it points at one.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct SourceError {
    /// The class of error.
    pub kind: SourceErrorKind,
    /// One-line description, prefixed with `name:line:column` when located.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Where in the text.
    pub location: Option<Box<Location>>,
}

diag::located_diagnostic!(SourceError);

impl SourceError {
    /// An error at bytes `range` of `text` (named `name`), its message prefixed with the line
    /// and column.
    pub fn at(
        kind: SourceErrorKind,
        (name, text): (&str, &str),
        range: std::ops::Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        // A caret under at most 80 bytes: a long token must not make a long message.
        let start = diag::floor_char_boundary(text, range.start.min(text.len()));
        let end = diag::floor_char_boundary(text, range.end.min(start + 80).min(text.len()));
        let range = start..end.max(start);
        let (line, col) = diag::line_col(text, range.start);
        SourceError {
            kind,
            message: format!("{name}:{line}:{col}: {}", message.into()),
            help: None,
            location: Some(Box::new(Location::new(name, text, range, kind.label()))),
        }
    }

    /// An error about the whole text.
    pub fn whole(kind: SourceErrorKind, name: &str, message: impl Into<String>) -> Self {
        SourceError {
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

    /// 1-based line and column of the error, when it is located.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.location.as_ref().map(|l| l.line_col())
    }
}

impl SourceErrorKind {
    fn label(self) -> &'static str {
        match self {
            SourceErrorKind::Syntax => "here",
            SourceErrorKind::Unsupported => "not in the subset",
            SourceErrorKind::Unclosed => "unmatched",
            SourceErrorKind::Name => "this name",
            SourceErrorKind::Limit => "limit reached here",
        }
    }
}
