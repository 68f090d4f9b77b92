//! The PAMELA language: text (`.pam`) to a syntax tree, which the checker
//! ([`crate::check`]) lowers to a [`crate::Model`]; [`crate::front::parse`] does both in one
//! step. Errors are [`ModelError`]s with a span, a label and a hint, rendered by `miette`.
//!
//! ```
//! let m = pamela::parse(
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
use crate::model::SourceFile;

/// The largest model text accepted, in bytes (16 MiB).
pub const MAX_INPUT_BYTES: usize = 16 << 20;

/// The most tokens a model may have.
pub const MAX_TOKENS: usize = 1_000_000;

/// The deepest nesting of terms, parentheses and unary operators the parser accepts.
pub const MAX_NESTING: usize = 256;

/// The longest number literal accepted, in characters.
pub const MAX_NUMBER_CHARS: usize = 1000;

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
