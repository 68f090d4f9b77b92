//! The syntax tree: what the parser produces and the checker ([`crate::check`]) lowers.
//!
//! Names are unresolved strings; every node keeps its byte span. Expressions and
//! conditions share one tree ([`Ex`]) so that the parser never has to guess whether a `(`
//! opens an arithmetic or a boolean group; the checker sorts them out.

use expr::{CmpOp, Name, Rational};

use crate::model::Compose;

/// A byte range `start..end` in the model text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Span {
    /// `start..end`.
    pub(crate) fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// From the start of `self` to the end of `other`.
    pub(crate) fn to(self, other: Span) -> Span {
        Span::new(self.start, other.end.max(self.start))
    }

    /// Length in bytes.
    pub(crate) fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }
}

/// A name as written, with its span.
#[derive(Clone, Debug)]
pub(crate) struct Ident {
    pub(crate) name: Name,
    pub(crate) span: Span,
}

/// A whole model file: declarations in source order.
#[derive(Clone, Debug, Default)]
pub(crate) struct File {
    pub(crate) params: Vec<ParamDecl>,
    pub(crate) resources: Vec<ResourceDecl>,
    pub(crate) processes: Vec<ProcessDecl>,
}

/// `param NAME [: int|real] [>= e] [<= e] [= e];`
#[derive(Clone, Debug)]
pub(crate) struct ParamDecl {
    pub(crate) name: Ident,
    pub(crate) integer: bool,
    pub(crate) lower: Option<Ex>,
    pub(crate) upper: Option<Ex>,
    pub(crate) definition: Option<Ex>,
    pub(crate) span: Span,
}

/// The multiplicity of a resource declaration.
#[derive(Clone, Debug)]
pub(crate) enum Mult {
    /// `: inf`.
    Inf,
    /// `: e`.
    Count(Ex),
}

/// `resource NAME [ '[' e ']' ] [: e | inf];`
#[derive(Clone, Debug)]
pub(crate) struct ResourceDecl {
    pub(crate) name: Ident,
    pub(crate) family: Option<Ex>,
    pub(crate) multiplicity: Option<Mult>,
    pub(crate) span: Span,
}

/// `process NAME [(args)] = term;` or `NAME [(args)] = term;`
#[derive(Clone, Debug)]
pub(crate) struct ProcessDecl {
    pub(crate) name: Ident,
    pub(crate) args: Vec<Ident>,
    pub(crate) body: Term,
}

/// A process term with its span.
#[derive(Clone, Debug)]
pub(crate) struct Term {
    pub(crate) kind: TermKind,
    pub(crate) span: Span,
}

/// The kinds of process term.
#[derive(Clone, Debug)]
pub(crate) enum TermKind {
    Skip,
    Use {
        res: Ident,
        index: Option<Ex>,
        time: Ex,
    },
    Delay(Ex),
    Compose(Compose, Vec<Term>),
    Loop {
        kind: Compose,
        var: Ident,
        lo: Ex,
        hi: Ex,
        body: Box<Term>,
    },
    If {
        cond: Ex,
        then: Box<Term>,
        els: Option<Box<Term>>,
    },
    Call {
        name: Ident,
        args: Vec<Ex>,
    },
}

/// A multiplicative operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MulOp {
    Mul,
    Div,
    Mod,
    IntDiv,
}

/// A built-in function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Func {
    Min,
    Max,
    Floor,
    Ceil,
    Gcd,
    Log,
    Prob,
}

impl Func {
    /// The function's name.
    pub(crate) fn text(self) -> &'static str {
        match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Gcd => "gcd",
            Func::Log => "log",
            Func::Prob => "prob",
        }
    }
}

/// An expression or condition with its span.
#[derive(Clone, Debug)]
pub(crate) struct Ex {
    pub(crate) kind: ExKind,
    pub(crate) span: Span,
}

/// The kinds of expression and condition.
#[derive(Clone, Debug)]
pub(crate) enum ExKind {
    Num(Rational),
    Name(Name),
    /// `inf`, only meaningful as a multiplicity.
    Inf,
    Neg(Box<Ex>),
    /// `a + b - c`: terms with their sign (`true` = subtracted).
    Sum(Vec<(bool, Ex)>),
    /// `a * b / c mod d`: the first factor (whose operator is ignored) and the rest, left
    /// to right.
    Product(Vec<(MulOp, Ex)>),
    Func(Func, Vec<Ex>),
    /// `name(args)` where `name` is not a built-in function (always an error; the
    /// arguments are parsed and dropped).
    Call(Ident),
    Cmp(CmpOp, Box<Ex>, Box<Ex>),
    And(Vec<Ex>),
    Or(Vec<Ex>),
    Not(Box<Ex>),
}
