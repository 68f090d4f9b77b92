//! The syntax tree of a fragment in the Fortran 77 subset of Table 2-2, and its printing
//! back as free-form Fortran (what the timing driver compiles).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;

/// The type of a value: Fortran's INTEGER or REAL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// INTEGER (implicitly the names starting I to N).
    Integer,
    /// REAL (implicitly every other name; REAL constants have a point or an exponent).
    Real,
}

impl Type {
    /// Fortran's implicit type of a name: I to N integer, the rest real.
    pub fn implicit(name: &str) -> Type {
        match name.chars().next() {
            Some('I'..='N') => Type::Integer,
            _ => Type::Real,
        }
    }

    /// The type of `a op b`: REAL if either is.
    pub fn join(self, other: Type) -> Type {
        if self == Type::Real || other == Type::Real {
            Type::Real
        } else {
            Type::Integer
        }
    }

    /// The Fortran keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Type::Integer => "INTEGER",
            Type::Real => "REAL",
        }
    }
}

/// A binary operator of Table 2-2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

impl BinOp {
    fn symbol(self) -> char {
        match self {
            BinOp::Add => '+',
            BinOp::Sub => '-',
            BinOp::Mul => '*',
            BinOp::Div => '/',
        }
    }
}

/// A reference to a scalar (`Q`) or an array element (`Z(I+10)`).
#[derive(Clone, Debug, PartialEq)]
pub struct Ref {
    /// The name, upper case (Fortran is case-insensitive).
    pub name: String,
    /// The subscripts; empty for a scalar.
    pub subscripts: Vec<Expr>,
    /// The bytes of the reference in the source.
    pub span: Range<usize>,
}

/// An expression of Table 2-2.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// An integer constant.
    Int(i64, Range<usize>),
    /// A REAL constant, as written.
    Real(String, Range<usize>),
    /// A scalar or an array element.
    Ref(Ref),
    /// `-e` (or `+e`, which is kept as `e`).
    Neg(Box<Expr>, Range<usize>),
    /// `e1 op e2`.
    Bin(BinOp, Box<Expr>, Box<Expr>, Range<usize>),
    /// `(e)`.
    Paren(Box<Expr>, Range<usize>),
}

impl Expr {
    /// The bytes of the expression in the source.
    pub fn span(&self) -> Range<usize> {
        match self {
            Expr::Int(_, s) | Expr::Real(_, s) | Expr::Neg(_, s) | Expr::Paren(_, s) => s.clone(),
            Expr::Bin(_, _, _, s) => s.clone(),
            Expr::Ref(r) => r.span.clone(),
        }
    }
}

/// A statement of Table 2-2 (plus CONTINUE, the no-op that ends a labelled DO).
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `ident = expr`.
    Assign {
        /// The scalar or array element assigned.
        target: Ref,
        /// The value.
        value: Expr,
        /// The statement's bytes.
        span: Range<usize>,
    },
    /// `DO var = lo, hi … END DO` (or `DO label var = lo, hi … label CONTINUE`).
    Do {
        /// The loop variable, upper case.
        var: String,
        /// The first value.
        lo: Expr,
        /// The last value.
        hi: Expr,
        /// The statements repeated.
        body: Vec<Stmt>,
        /// The bytes of the DO statement.
        span: Range<usize>,
    },
    /// `CONTINUE`.
    Continue,
}

/// A parsed fragment: declarations and statements.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Types declared by `INTEGER` and `REAL` statements (names not here are typed
    /// implicitly), with the bytes of the declaration.
    pub declared: BTreeMap<String, (Type, Range<usize>)>,
    /// The statements, in order.
    pub body: Vec<Stmt>,
}

impl Program {
    /// The type of a name: declared, else implicit.
    pub fn type_of(&self, name: &str) -> Type {
        self.declared
            .get(name)
            .map(|(t, _)| *t)
            .unwrap_or_else(|| Type::implicit(name))
    }

    /// The statements as free-form Fortran, one per line, indented by `indent` spaces and
    /// two more per loop level; long lines are continued with `&`.
    pub fn to_fortran(&self, indent: usize) -> String {
        let mut out = String::new();
        for s in &self.body {
            stmt_text(s, indent, &mut out);
        }
        out
    }
}

fn stmt_text(s: &Stmt, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match s {
        Stmt::Assign { target, value, .. } => {
            let line = format!("{} = {}", ref_text(target), expr_text(value));
            push_wrapped(out, &pad, &line);
        }
        Stmt::Do {
            var, lo, hi, body, ..
        } => {
            push_wrapped(
                out,
                &pad,
                &format!("DO {var} = {}, {}", expr_text(lo), expr_text(hi)),
            );
            for b in body {
                stmt_text(b, indent + 2, out);
            }
            let _ = writeln!(out, "{pad}END DO");
        }
        Stmt::Continue => {
            let _ = writeln!(out, "{pad}CONTINUE");
        }
    }
}

/// Appends `line` after `pad`, split into pieces of at most 100 characters joined by `&`
/// (free form allows 132).
fn push_wrapped(out: &mut String, pad: &str, line: &str) {
    let chars: Vec<char> = line.chars().collect();
    let mut first = true;
    for chunk in chars.chunks(100) {
        let piece: String = chunk.iter().collect();
        if first {
            let _ = write!(out, "{pad}{piece}");
            first = false;
        } else {
            let _ = write!(out, " &\n{pad}    &{piece}");
        }
    }
    out.push('\n');
}

fn ref_text(r: &Ref) -> String {
    if r.subscripts.is_empty() {
        r.name.clone()
    } else {
        let subs: Vec<String> = r.subscripts.iter().map(expr_text).collect();
        format!("{}({})", r.name, subs.join(", "))
    }
}

/// An expression as Fortran text (parentheses as written, so the evaluation order and the
/// counts are the source's).
pub fn expr_text(e: &Expr) -> String {
    match e {
        Expr::Int(v, _) => v.to_string(),
        Expr::Real(t, _) => t.clone(),
        Expr::Ref(r) => ref_text(r),
        Expr::Neg(x, _) => format!("-{}", expr_text(x)),
        Expr::Bin(op, a, b, _) => {
            // A right operand that is a sum or a signed term needs its parentheses back
            // only when the source had them, and those are kept as `Paren`; a leading sign
            // after an operator is not Fortran, so it is parenthesised.
            let right = match **b {
                Expr::Neg(..) => format!("({})", expr_text(b)),
                _ => expr_text(b),
            };
            format!("{} {} {}", expr_text(a), op.symbol(), right)
        }
        Expr::Paren(x, _) => format!("({})", expr_text(x)),
    }
}
