//! Errors: every way a task graph or its text can be wrong, with the task and the source
//! location when there is one.

use miette::SourceSpan;

/// The class of a [`GraphError`]; tests and tools match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Malformed text: bad JSON, DOT or STG syntax, wrong value types, unknown fields.
    Syntax,
    /// Two tasks with the same id.
    DuplicateId,
    /// A predecessor (or edge endpoint, or WfCommons parent/child) naming no task.
    UnknownTask,
    /// The precedence relation has a cycle.
    Cycle,
    /// A task that is its own predecessor.
    SelfLoop,
    /// A task time that is negative, NaN or infinite.
    BadTime,
    /// A request rate that is negative, NaN or infinite.
    BadRate,
    /// An attribute with the wrong type (e.g. `proc` that is not an integer).
    BadAttribute,
    /// A task with no time and no default time.
    MissingTime,
    /// A task without an attribute that the chosen policy needs (e.g. `proc`).
    MissingAttribute,
    /// A size limit ([`crate::Limits`]) was exceeded.
    Limit,
    /// A generator option or time distribution that makes no sense.
    BadOption,
}

/// An error in a task graph or its text, with the task and source location when known.
///
/// Renders with `miette` (message, a window of the source with a caret label, help), for
/// any size of input and any column.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct GraphError {
    /// The class of error.
    pub kind: ErrorKind,
    /// One-line description (includes line:column and task id when known).
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Index of the offending task (in input order), when the error is about one task.
    pub task: Option<u32>,
    /// Id of the offending task, when known.
    pub task_id: Option<String>,
    /// The limit that was reached, for [`ErrorKind::Limit`] errors: tasks, edges, input
    /// bytes or nesting depth ([`crate::Limits`], a reader's own depth limit).
    pub reached: Option<sweep::Reached>,
    location: Option<Box<diag::Location>>,
}

diag::located_diagnostic!(GraphError);

impl diag::Advise for GraphError {
    /// An option that makes no sense ([`ErrorKind::BadOption`]) is an error in what was
    /// asked for, like a malformed one; the others are in the graph and have no advice.
    fn advice(&self) -> Option<diag::Advice> {
        (self.kind == ErrorKind::BadOption).then(|| diag::Advice::usage(""))
    }
}

impl GraphError {
    /// An error with no location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        GraphError {
            kind,
            message: message.into(),
            help: None,
            task: None,
            task_id: None,
            reached: None,
            location: None,
        }
    }

    /// An [`ErrorKind::Limit`] error: `reached` stopped the reading or building.
    pub fn limit(reached: sweep::Reached, message: impl Into<String>) -> Self {
        GraphError::new(ErrorKind::Limit, message).with_reached(reached)
    }

    /// Records the limit that was reached.
    pub fn with_reached(mut self, reached: sweep::Reached) -> Self {
        self.reached = Some(reached);
        self
    }

    /// The byte range of the error in the input, when it has a location.
    pub fn span(&self) -> Option<SourceSpan> {
        self.location.as_ref().map(|l| l.span())
    }

    /// The 1-based line and column of the error in the input text, when it has a location.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.location.as_ref().map(|l| l.line_col())
    }

    /// The caret label under [`GraphError::span`] (empty when there is none).
    pub fn label(&self) -> &str {
        self.location.as_ref().map_or("", |l| l.label())
    }

    /// Adds a hint.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Records which task (index and id) the error is about.
    pub fn with_task(mut self, index: u32, id: impl Into<String>) -> Self {
        self.task = Some(index);
        self.task_id = Some(id.into());
        self
    }

    /// Points the error at byte range `start..end` of `text` (named `name`), with a caret
    /// label (then [`GraphError::line_col`] gives its place), and appends ` (at line L,
    /// column C)` to the message if it has no location yet. Only a window of the text
    /// around the error is kept (see [`diag::Location`]).
    pub fn at(
        mut self,
        name: &str,
        text: &str,
        start: usize,
        end: usize,
        label: impl Into<String>,
    ) -> Self {
        let location = diag::Location::new(name, text, start..end, label);
        let (line, col) = location.line_col();
        if self.location.is_none() {
            self.message = format!("{} (at line {line}, column {col})", self.message);
        }
        self.location = Some(Box::new(location));
        self
    }
}

#[cfg(test)]
mod advice_tests {
    use super::*;
    use diag::Advise;

    #[test]
    fn only_an_option_that_makes_no_sense_is_a_usage_error() {
        let bad = GraphError::new(ErrorKind::BadOption, "width must be at least 1");
        assert!(bad.advice().is_some_and(|a| a.usage && a.fix.is_empty()));
        assert!(GraphError::new(ErrorKind::Cycle, "a cycle")
            .advice()
            .is_none());
    }
}
