//! The PAMELA front end: text (`.pam`) to a checked [`Model`].
//!
//! [`parse`] lexes, parses and checks a model in one step; errors are [`ModelError`]s with
//! a span, a label and a hint, rendered by `miette`.
//!
//! ```
//! let m = pamela::syntax::parse(
//!     "mrm.pam",
//!     "param N: int >= 1; param P: int >= 1; param tau_l >= 0; param tau_s >= 0;
//!      resource s;
//!      main = par p in 1..=P { seq i in 1..=N { delay(tau_l); use(s, tau_s) } };",
//! )
//! .unwrap();
//! assert_eq!(m.params.len(), 4);
//! assert_eq!(m.processes[0].name.as_ref(), "main");
//! ```
//!
//! # The language
//!
//! ```text
//! model    := decl*
//! decl     := 'param' NAME [':' ('int' | 'real')] pclause* ';'
//!           | 'resource' NAME ['[' sum ']'] [':' (sum | 'inf')] ';'
//!           | ['process'] NAME ['(' [NAME {',' NAME}] ')'] '=' seqterm ';'
//! pclause  := '>=' sum | '<=' sum | 'in' sum '..=' sum | '=' sum
//! seqterm  := parterm {';' parterm}           -- `;` binds looser than `||`
//! parterm  := unit {'||' unit}
//! unit     := 'skip' | 'use' '(' NAME ['[' expr ']'] ',' expr ')' | 'delay' '(' expr ')'
//!           | ('seq' | 'par') NAME 'in' sum '..=' sum unit
//!           | 'if' cond unit ['else' unit]
//!           | '{' [seqterm [';']] '}' | NAME ['(' [expr {',' expr}] ')']
//! cond     := or-level of expr (below)
//! expr     := or;   or := and {'or' and};   and := not {'and' not}
//! not      := 'not' not | cmp;               cmp := sum [('=='|'!='|'<'|'<='|'>'|'>=') sum]
//! sum      := product {('+'|'-') product}
//! product  := unary {('*'|'/'|'mod'|'div') unary}
//! unary    := '-' unary | primary
//! primary  := NUMBER | NAME | '(' expr ')' | 'inf'
//!           | ('min'|'max'|'floor'|'ceil'|'gcd'|'log'|'prob') '(' expr {',' expr} ')'
//! ```
//!
//! Each parameter clause appears at most once (`in a..=b` gives both bounds). Inside a
//! definition a `;` separates terms; the `;` followed by a declaration (or the end) ends
//! it, and a `;` before `}` is allowed. Numbers are `digits[.digits][(e|E)[+|-]digits]`,
//! exact. Names are ASCII letters, digits and `_`, not starting with a digit; the keywords
//! above (and `int`, `real`, `in`, `inf`) are reserved. Comments are `// …` and
//! `/* … */`. Declarations may come in any order. Conditions and numbers share the
//! expression grammar; the checker insists on a condition after `if` and a number
//! everywhere else.

pub(crate) mod ast;
pub(crate) mod lexer;
pub(crate) mod parser;

use crate::diag::{ErrorKind, ModelError};
use crate::model::{Model, SourceFile};

/// The largest model text accepted, in bytes (16 MiB).
pub const MAX_INPUT_BYTES: usize = 16 << 20;

/// The most tokens a model may have.
pub const MAX_TOKENS: usize = 1_000_000;

/// The deepest nesting of terms, parentheses and unary operators the parser accepts.
pub const MAX_NESTING: usize = 256;

/// The longest number literal accepted, in characters.
pub const MAX_NUMBER_CHARS: usize = 1000;

/// Parses and checks a model.
///
/// `name` labels the text in diagnostics (usually the file name). The returned model's
/// [`Model::source`] holds both.
///
/// # Errors
/// A [`ModelError`] for the first problem found: [`ErrorKind::Syntax`] for malformed text,
/// the checker's kinds (undefined or duplicate names, arity, recursion, …) for a
/// well-formed but invalid model, and [`ErrorKind::Limit`] when the input exceeds
/// [`MAX_INPUT_BYTES`], [`MAX_TOKENS`] or [`MAX_NESTING`].
pub fn parse(name: &str, text: &str) -> Result<Model, Box<ModelError>> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(Box::new(
            ModelError::new(
                ErrorKind::Limit,
                format!(
                    "`{name}` is {} bytes; models larger than {} MiB are not accepted",
                    text.len(),
                    MAX_INPUT_BYTES >> 20
                ),
            )
            .with_help("describe repetition with `seq`/`par` over a range instead of unrolling it"),
        ));
    }
    let source = SourceFile {
        name: name.to_string(),
        text: text.into(),
    };
    let toks = lexer::lex(text).map_err(|f| f.into_error(&source))?;
    // Parsing and checking recurse once per nesting level. Unoptimised builds use several
    // KiB of stack per level, more than a default 2 MiB thread has at MAX_NESTING, so a
    // model that may nest deeply is parsed on a thread of its own with a generous stack
    // (reserved, not committed, memory). Should spawning fail, it runs here.
    let work = |toks: Vec<lexer::Token>, source: SourceFile| {
        let file = parser::Parser::new(text, toks)
            .file()
            .map_err(|f| f.into_error(&source))?;
        crate::check::lower(&file, source)
    };
    if lexer::depth_bound(&toks) <= INLINE_DEPTH {
        return work(toks, source);
    }
    let job = std::sync::Mutex::new(Some((toks, source)));
    let take = || {
        job.lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    };
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("pamela-parse".into())
            .stack_size(PARSE_STACK_BYTES)
            .spawn_scoped(scope, || take().map(|(toks, source)| work(toks, source)));
        let result = match spawned {
            Ok(handle) => match handle.join() {
                Ok(result) => result,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => None,
        };
        // Spawning failed (the job is still there): do the work on this thread.
        result
            .or_else(|| take().map(|(toks, source)| work(toks, source)))
            .expect("the job runs exactly once")
    })
}

/// Models whose nesting bound ([`lexer::depth_bound`]) is at most this are parsed on the
/// caller's thread.
const INLINE_DEPTH: usize = 48;

/// Stack for the parser and checker thread: ample for [`MAX_NESTING`] levels in an
/// unoptimised build.
const PARSE_STACK_BYTES: usize = 64 << 20;

/// A located error before it is attached to its source text.
#[derive(Clone, Debug)]
pub(crate) struct Fail {
    pub(crate) kind: ErrorKind,
    pub(crate) message: String,
    pub(crate) start: usize,
    pub(crate) len: usize,
    pub(crate) label: String,
    pub(crate) help: Option<String>,
}

impl Fail {
    /// An error of `kind` at bytes `start .. start+len`.
    pub(crate) fn new(
        kind: ErrorKind,
        message: impl Into<String>,
        start: usize,
        len: usize,
        label: impl Into<String>,
    ) -> Fail {
        Fail {
            kind,
            message: message.into(),
            start,
            len,
            label: label.into(),
            help: None,
        }
    }

    /// An error of `kind` at `span`.
    pub(crate) fn at(
        kind: ErrorKind,
        message: impl Into<String>,
        span: ast::Span,
        label: impl Into<String>,
    ) -> Fail {
        Fail::new(kind, message, span.start, span.len(), label)
    }

    /// Adds a hint.
    pub(crate) fn help(mut self, help: impl Into<String>) -> Fail {
        self.help = Some(help.into());
        self
    }

    /// The public error, pointing into `source`.
    pub(crate) fn into_error(self, source: &SourceFile) -> Box<ModelError> {
        let mut e = ModelError::new(self.kind, self.message).at(
            source,
            (self.start, self.len).into(),
            self.label,
        );
        e.help = self.help;
        Box::new(e)
    }
}
