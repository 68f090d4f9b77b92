//! Errors with source spans (rendered by `miette`).

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// Everything that can go wrong when reading or analysing an ETCCS model.
#[derive(Debug, Error, Diagnostic)]
pub enum Error {
    /// The input is not valid ETCCS syntax, not a valid model, or exceeds a reader limit
    /// (see [`SyntaxError::kind`]).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Syntax(Box<SyntaxError>),
    /// An agent name is used (or analysed) but never defined.
    #[error(transparent)]
    #[diagnostic(transparent)]
    UndefinedAgent(Box<UndefinedAgentError>),
    /// An agent can reach itself without passing a prefix (`define X = X + a.nil`).
    #[error(transparent)]
    #[diagnostic(transparent)]
    UnguardedRecursion(Box<UnguardedRecursionError>),
    /// A model has no agent of this name (programmatic lookup).
    #[error("no agent named `{0}` in the model")]
    #[diagnostic(code(etccs::unknown_agent))]
    UnknownAgent(String),
    /// A reachable state is nested too deeply (recursion through `|`
    /// keeps growing the term, e.g. `define S = (C | a.S)\{a}`).
    #[error(
        "state nesting limit reached: exploring `{agent}` produced a state nested deeper than {} levels",
        reached.value
    )]
    #[diagnostic(
        code(etccs::too_deep),
        help("the state space is probably infinite: recursion through `|` or `\\L` builds ever larger states")
    )]
    TooDeep {
        /// The analysed agent.
        agent: String,
        /// The limit that was hit: [`sweep::Limit::Depth`] at the options' `max_depth`.
        reached: sweep::Reached,
    },
    /// The concrete analysis met a symbolic time parameter.
    #[error("agent `{agent}` has symbolic times ({params}): the concrete analysis needs values")]
    #[diagnostic(
        code(etccs::symbolic),
        help("use the parametric analysis (`analyse_report` picks it for such agents), or give the parameters values")
    )]
    Symbolic {
        /// The analysed agent.
        agent: String,
        /// The parameter names, comma separated.
        params: String,
    },
    /// The parametric analysis found a state that can reach itself on the
    /// same region: some run never terminates there.
    #[error("agent `{agent}` does not terminate on the region {region}: state `{state}` repeats")]
    #[diagnostic(
        code(etccs::parametric_cycle),
        help("execution times are defined for terminating runs only; restrict the recursion or make it finite")
    )]
    ParametricCycle {
        /// The analysed agent.
        agent: String,
        /// The region, rendered.
        region: String,
        /// The repeated state, in extended syntax.
        state: String,
    },
    /// No valuation keeps every symbolic prefix time non-negative.
    #[error("agent `{agent}` has no valuation with all prefix times >= 0 (needs {domain})")]
    #[diagnostic(
        code(etccs::empty_domain),
        help("prefix times must not be negative; check the signs of the time expressions")
    )]
    EmptyDomain {
        /// The analysed agent.
        agent: String,
        /// The domain constraints, rendered.
        domain: String,
    },
    /// The constraint solver gave up on a system too large to eliminate.
    #[error("constraint solver limit reached while analysing `{agent}`")]
    #[diagnostic(
        code(etccs::solver_limit),
        help("use fewer symbolic parameters, or give some of them values")
    )]
    SolverLimit {
        /// The analysed agent.
        agent: String,
    },
    /// The state space is larger than the configured limit.
    #[error(
        "state limit reached: exploring `{agent}` produced more than {} states",
        reached.value
    )]
    #[diagnostic(
        code(etccs::limit),
        help("raise `max_states`, restrict more channels, or simplify the model")
    )]
    Limit {
        /// The analysed agent.
        agent: String,
        /// The limit that was hit: [`sweep::Limit::States`] at the options' `max_states`.
        reached: sweep::Reached,
    },
}

/// An analysis that stopped at a limit rather than at a fault of the model (a table of
/// analyses shows it in its row and goes on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// More states than `max_states` ([`Error::Limit`]).
    States(usize),
    /// A state nested deeper than the depth limit ([`Error::TooDeep`]).
    Depth(usize),
    /// The constraint solver gave up ([`Error::SolverLimit`]).
    Solver,
}

impl Stopped {
    /// `states`, `depth` or `solver`.
    pub fn kind(self) -> &'static str {
        match self {
            Stopped::States(_) => "states",
            Stopped::Depth(_) => "depth",
            Stopped::Solver => "solver",
        }
    }

    /// The limit reached: the state or the depth limit (the solver's has no value).
    pub fn reached(self) -> Option<sweep::Reached> {
        match self {
            Stopped::States(n) => Some(sweep::Reached::new(sweep::Limit::States, n as u64)),
            Stopped::Depth(n) => Some(sweep::Reached::new(sweep::Limit::Depth, n as u64)),
            Stopped::Solver => None,
        }
    }
}

impl Error {
    /// The limit this error stopped at, if it is one.
    pub fn stopped(&self) -> Option<Stopped> {
        let n = |r: &sweep::Reached| usize::try_from(r.value).unwrap_or(usize::MAX);
        match self {
            Error::Limit { reached, .. } => Some(Stopped::States(n(reached))),
            Error::TooDeep { reached, .. } => Some(Stopped::Depth(n(reached))),
            Error::SolverLimit { .. } => Some(Stopped::Solver),
            _ => None,
        }
    }

    /// The limit this error stopped at with its value: [`sweep::Limit::States`] for
    /// [`Error::Limit`], [`sweep::Limit::Depth`] for [`Error::TooDeep`].
    pub fn reached(&self) -> Option<sweep::Reached> {
        match self {
            Error::Limit { reached, .. } | Error::TooDeep { reached, .. } => Some(*reached),
            _ => None,
        }
    }
}

/// What kind of problem a [`SyntaxError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxKind {
    /// Malformed text: an unexpected character or token.
    Syntax,
    /// Well-formed text that is not a valid model: an unbound name, a division by zero, a
    /// negative time, an empty range, a wrong number of arguments, a name declared twice.
    Model,
    /// A size limit of the reader (input size, expansions, instances).
    Limit,
    /// A value given from outside the model (an override) for a name the model declares
    /// neither as a `const` nor as a `param`.
    UnknownOverride,
    /// A name to make symbolic that the model declares neither as a `const` nor as a
    /// `param`.
    UnknownSymbolic,
}

impl std::fmt::Display for SyntaxKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SyntaxKind::Syntax => "syntax error",
            SyntaxKind::Model | SyntaxKind::UnknownOverride | SyntaxKind::UnknownSymbolic => {
                "error"
            }
            SyntaxKind::Limit => "limit reached",
        })
    }
}

/// An error found while reading a model, with its location: malformed text, an invalid
/// model, or a reader limit ([`SyntaxKind`]).
#[derive(Debug, Error, Diagnostic)]
#[error("{location}: {kind}: {message}")]
#[diagnostic(code(etccs::syntax))]
pub struct SyntaxError {
    /// What kind of problem.
    pub kind: SyntaxKind,
    /// What went wrong.
    pub message: String,
    /// `file:line:col` of the error.
    pub location: String,
    /// A window of the source text around the error.
    #[source_code]
    pub src: diag::Snippet,
    /// Where in the source.
    #[label("{label}")]
    pub span: SourceSpan,
    /// Short label text at the span.
    pub label: String,
    /// How to fix it.
    #[help]
    pub help: Option<String>,
}

/// Use of an agent name that is never defined.
#[derive(Debug, Error, Diagnostic)]
#[error("{location}: undefined agent `{name}`")]
#[diagnostic(
    code(etccs::undefined_agent),
    help("define it with `define {name} = ...`; agent names are case-sensitive")
)]
pub struct UndefinedAgentError {
    /// The agent name.
    pub name: String,
    /// `file:line:col` of the use.
    pub location: String,
    /// A window of the source text around the error.
    #[source_code]
    pub src: diag::Snippet,
    /// Where it is used.
    #[label("not defined")]
    pub span: SourceSpan,
}

/// An agent that reaches itself without passing a prefix.
#[derive(Debug, Error, Diagnostic)]
#[error("{location}: unguarded recursion through agent `{name}`")]
#[diagnostic(
    code(etccs::unguarded_recursion),
    help("every recursive use of an agent must occur under a prefix, e.g. `(a,0).{name}`")
)]
pub struct UnguardedRecursionError {
    /// The agent on the unguarded cycle.
    pub name: String,
    /// `file:line:col` of its definition.
    pub location: String,
    /// A window of the source text around the error.
    #[source_code]
    pub src: diag::Snippet,
    /// Its definition.
    #[label("reaches itself without a prefix")]
    pub span: SourceSpan,
}

/// `file:line:col` of a byte offset.
pub(crate) fn location(file: &str, src: &str, offset: usize) -> String {
    let (l, c) = diag::line_col(src, offset);
    format!("{file}:{l}:{c}")
}

/// The warning for a visible action that fired although unrestricted at the
/// top level (spec §8.1 item 2).
pub fn eagerness_warning(action: &str) -> String {
    format!(
        "visible action `{action}` is not restricted at the top level: eagerness fires it at its lower bound; restrict it (e.g. `\\{{{action}}}`) to model a closed system"
    )
}
