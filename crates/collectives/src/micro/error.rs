//! The one error of the Fortran reader and the mapping: a kind, a message with
//! `name:line:column`, a help text with the fix, and a window of the source.

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

/// An error in a Fortran fragment, located in its text when it points at one
/// ([`diag::Located`]).
pub type SourceError = diag::Located<SourceErrorKind>;

impl diag::ErrorKind for SourceErrorKind {
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
