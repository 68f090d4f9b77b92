//! The errors of a thread-graph model: a class, a message, a location in the model text with
//! a caret label, and a hint, rendered by `miette`.

use std::ops::Range;

/// The class of a [`ModelError`]; tests and tools match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Malformed text: an unexpected character or word, a missing `;`, a bad expression.
    Syntax,
    /// A name that is not declared.
    UndefinedName,
    /// A name declared twice, or a loop or instance variable shadowing another name.
    DuplicateName,
    /// A name used as the wrong kind of thing (a lock as a barrier, a coefficient in a
    /// loop count, an index on a name declared without one).
    Misuse,
    /// A parameter or coefficient without a value, or a value given for a derived
    /// parameter.
    Binding,
    /// A value that cannot be used: a negative or fractional count, a negative time, a
    /// probability outside [0, 1], an index out of range, a division by zero.
    Evaluation,
    /// A limit was reached (the model's size, Θ).
    Limit,
    /// The traversal deadlocks: a barrier's participants are not the threads that arrive,
    /// a lock is taken twice or never released.
    Deadlock,
}

/// An error in a model or its instantiation, located in the model text when it can be.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ModelError {
    /// The class.
    pub kind: ErrorKind,
    /// One line saying what is wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Where, when known.
    pub location: Option<Box<diag::Location>>,
    /// Parameters that need a value (a front end says how to give one).
    pub missing: Vec<String>,
    /// Coefficients that need a value (given, or fitted to samples).
    pub missing_coeffs: Vec<String>,
    /// The limit that was reached, for [`ErrorKind::Limit`] errors: the model text's size,
    /// an instantiation's steps or ops, the loop iterations of its count.
    pub reached: Option<sweep::Reached>,
}

diag::located_diagnostic!(ModelError);

impl ModelError {
    /// An error without a location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Box<Self> {
        Box::new(ModelError {
            kind,
            message: message.into(),
            help: None,
            location: None,
            missing: Vec::new(),
            missing_coeffs: Vec::new(),
            reached: None,
        })
    }

    /// An [`ErrorKind::Limit`] error: `reached` stopped the work.
    pub fn limit(reached: sweep::Reached, message: impl Into<String>) -> Box<Self> {
        let mut e = ModelError::new(ErrorKind::Limit, message);
        e.reached = Some(reached);
        e
    }

    /// The 1-based line and column of the error, if it has a location.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.location.as_ref().map(|l| l.line_col())
    }

    /// What the caret label says (empty without a location).
    pub fn label(&self) -> &str {
        self.location.as_ref().map_or("", |l| l.label())
    }
}

/// Builders on boxed errors (every function returns `Box<ModelError>`).
pub trait Locate {
    /// Points the error at bytes `range` of the model `text` (named `name`).
    fn at(self, name: &str, text: &str, range: Range<usize>, label: impl Into<String>) -> Self;
    /// Adds a hint.
    fn help(self, help: impl Into<String>) -> Self;
    /// Records names that need a value.
    fn missing(self, names: Vec<String>) -> Self;
}

impl Locate for Box<ModelError> {
    fn at(mut self, name: &str, text: &str, range: Range<usize>, label: impl Into<String>) -> Self {
        self.location = Some(Box::new(diag::Location::new(name, text, range, label)));
        self
    }

    fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    fn missing(mut self, names: Vec<String>) -> Self {
        self.missing = names;
        self
    }
}

/// Result with a boxed [`ModelError`].
pub type Result<T> = std::result::Result<T, Box<ModelError>>;
