//! Diagnostics: every error a model can cause, with its class, location and a hint.

use miette::SourceSpan;

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
    /// A binding of a name the model does not declare as a parameter (a front end's usage
    /// error: the name comes from its caller, not from the model).
    UnknownParameter,
    /// A root process named by a front end that the model does not define (a usage error,
    /// as [`ErrorKind::UnknownParameter`]; a missing default root, `main`, is an
    /// [`ErrorKind::UndefinedName`] of the model).
    UnknownRoot,
    /// A value that cannot be computed: division by zero, negative time, probability outside
    /// `[0, 1]`, a non-integer loop bound.
    Evaluation,
    /// An engine limit (events, states, expression size) was reached.
    Limit,
}

/// An error in a model or its use, with the source location when there is one.
///
/// Renders with `miette` (message, a window of the source with a caret label, help), for
/// any size of input and any column.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ModelError {
    /// The class of error.
    pub kind: ErrorKind,
    /// One-line description.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Where in the text, when known.
    pub location: Option<Box<diag::Location>>,
    /// The run limit that was reached, for [`ErrorKind::Limit`] errors of a run (the
    /// simulator's event limit); a front end names the option that raises it.
    pub reached: Option<sweep::Reached>,
    /// Parameters that need a value for this to work (a front end says how to give one).
    pub missing: Vec<String>,
}

diag::located_diagnostic!(ModelError);

impl diag::Advise for ModelError {
    /// The limit to raise, the parameters to bind (inputs by key: `raise {max-events} (now
    /// 1000); bind with {define} N=…`), then the error's own help.
    fn advice(&self) -> Option<diag::Advice> {
        let mut fix: Vec<String> = self.reached.iter().map(sweep::Reached::raise).collect();
        if !self.missing.is_empty() {
            fix.push(format!(
                "bind with {}",
                diag::give_each("define", &self.missing)
            ));
        }
        fix.extend(self.help.clone());
        (!fix.is_empty()).then(|| diag::Advice::fix(fix.join("; ")))
    }
}

impl ModelError {
    /// An error with no location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ModelError {
            kind,
            message: message.into(),
            help: None,
            location: None,
            reached: None,
            missing: Vec::new(),
        }
    }

    /// Points the error at `span` in `source`, with a caret label.
    pub fn at(
        mut self,
        source: &crate::model::SourceFile,
        span: SourceSpan,
        label: impl Into<String>,
    ) -> Self {
        let range = span.offset()..span.offset() + span.len();
        self.location = Some(Box::new(diag::Location::new(
            &source.name,
            &source.text,
            range,
            label,
        )));
        self
    }

    /// Records the parameters that need a value.
    pub fn with_missing(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.missing = names.into_iter().map(Into::into).collect();
        self
    }

    /// Adds a hint.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The byte range of the error in the model text, if it has a location.
    pub fn span(&self) -> Option<SourceSpan> {
        self.location.as_ref().map(|l| l.span())
    }

    /// What the caret label says (empty when there is no location).
    pub fn label(&self) -> &str {
        self.location.as_ref().map_or("", |l| l.label())
    }

    /// The 1-based line and column of the error, if it has a location.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.location.as_ref().map(|l| l.line_col())
    }
}

/// Result alias for model operations.
pub type Result<T, E = Box<ModelError>> = std::result::Result<T, E>;
