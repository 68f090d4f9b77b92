//! The located error every reader returns: a kind of its own, a message prefixed with
//! `name:line:column`, a hint, and the window of text with the caret.

use std::fmt;
use std::ops::Range;

use crate::Location;

/// The class of a [`Located`] error: each reader has its own (syntax, a value out of range,
/// a limit, …), and each class labels the caret.
pub trait ErrorKind: Copy + fmt::Debug + Send + Sync + 'static {
    /// The caret's label (`here`, `not a number`, `limit reached here`).
    fn label(self) -> &'static str;
}

/// An error in a text a reader read, located in it when it points at a place.
#[derive(Debug, Clone)]
pub struct Located<K> {
    /// The class of error.
    pub kind: K,
    /// One-line description, prefixed with `name:line:column` when located (`name` alone
    /// when about the whole text).
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Where in the text.
    pub location: Option<Box<Location>>,
}

impl<K: ErrorKind> Located<K> {
    /// An error at bytes `range` of `text` (named `name`), its message prefixed with the line
    /// and column ([`crate::located`]).
    pub fn at(
        kind: K,
        (name, text): (&str, &str),
        range: Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        let (message, location) = crate::located(name, text, range, &message.into(), kind.label());
        Located {
            kind,
            message,
            help: None,
            location: Some(location),
        }
    }

    /// An error about the whole text named `name`: `name: message`.
    pub fn whole(kind: K, name: &str, message: impl Into<String>) -> Self {
        Located::new(kind, format!("{name}: {}", message.into()))
    }

    /// An error that points at no text (a value computed from it, a limit of a run).
    pub fn new(kind: K, message: impl Into<String>) -> Self {
        Located {
            kind,
            message: message.into(),
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

impl<K> fmt::Display for Located<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<K: fmt::Debug> std::error::Error for Located<K> {}

impl<K: fmt::Debug> miette::Diagnostic for Located<K> {
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Location::source_of(self.location.as_deref())
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Location::labels_of(self.location.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Bad;
    impl ErrorKind for Bad {
        fn label(self) -> &'static str {
            "bad"
        }
    }

    #[test]
    fn at_whole_and_new() {
        let e = Located::at(Bad, ("f", "ab\ncd\n"), 4..5, "no").help("fix");
        assert_eq!(
            (e.message.as_str(), e.line_col()),
            ("f:2:2: no", Some((2, 2)))
        );
        assert_eq!(e.help.as_deref(), Some("fix"));
        assert_eq!(Located::whole(Bad, "f", "empty").to_string(), "f: empty");
        assert_eq!(Located::new(Bad, "x").line_col(), None);
    }
}
