//! Diagnostics: every error a model can cause, with its class, location and a hint.

use miette::{NamedSource, SourceSpan};

/// The class of a [`ModelError`]; tests and tools match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Malformed text: unexpected token, unterminated comment, bad number.
    Syntax,
    /// A name that is not declared (parameter, resource, process, variable).
    UndefinedName,
    /// A name declared twice, or a loop variable shadowing another name.
    DuplicateName,
    /// A process called with the wrong number of arguments, or a resource used with or
    /// without an index against its declaration.
    Arity,
    /// A process that calls itself, directly or through others.
    Recursion,
    /// A resource index outside `0 .. n-1`.
    IndexOutOfRange,
    /// A multiplicity or family size that is not a positive integer.
    Multiplicity,
    /// A parameter binding that is missing, out of its declared range, not an integer where
    /// one is required, or given for a derived parameter.
    Binding,
    /// A value that cannot be computed: division by zero, negative time, probability outside
    /// `[0, 1]`, a non-integer loop bound.
    Evaluation,
    /// An engine limit (events, states, expression size) was reached.
    Limit,
}

/// An error in a model or its use, with the source location when there is one.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
pub struct ModelError {
    /// The class of error.
    pub kind: ErrorKind,
    /// One-line description.
    pub message: String,
    /// How to fix it.
    #[help]
    pub help: Option<String>,
    /// The model text.
    #[source_code]
    pub source_code: Option<NamedSource<String>>,
    /// Where in the text.
    #[label("{label}")]
    pub span: Option<SourceSpan>,
    /// What the label under the caret says.
    pub label: String,
}

impl ModelError {
    /// An error with no location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ModelError {
            kind,
            message: message.into(),
            help: None,
            source_code: None,
            span: None,
            label: String::new(),
        }
    }

    /// Points the error at `span` in `source`, with a caret label.
    pub fn at(
        mut self,
        source: &crate::model::SourceFile,
        span: SourceSpan,
        label: impl Into<String>,
    ) -> Self {
        self.source_code = Some(NamedSource::new(&source.name, source.text.to_string()));
        self.span = Some(span);
        self.label = label.into();
        self
    }

    /// Adds a hint.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The 1-based line and column of the error, if it has a location.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        let src = self.source_code.as_ref()?;
        let off = self.span?.offset();
        let text = src.inner();
        let before = &text[..off.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Some((line, col))
    }
}

/// Result alias for model operations.
pub type Result<T, E = Box<ModelError>> = std::result::Result<T, E>;
