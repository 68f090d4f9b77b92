//! The expression tree: [`Expr`] (numeric) and [`Cond`] (boolean), with constructors,
//! free-variable queries and capture-avoiding substitution.
//!
//! Constructors here build trees as written; they fold nothing. Bringing an expression to a
//! canonical or closed form is the job of [`crate::simplify`].

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

/// A name: a parameter, a process argument or a bound (loop) variable.
pub type Name = Arc<str>;

/// Exact rational numbers, used for constants and exact evaluation.
pub type Rational = BigRational;

/// A symbolic expression over parameters and bound variables.
///
/// Semantics (shared by every evaluator and by the simplifier):
/// - `Pow(x, k)` is `x` to the integer power `k`; division `a / b` is `a * b^-1`.
/// - `Mod(a, b)` is the floored modulus `a - b*floor(a/b)` (non-negative for `b > 0`).
/// - `Log(x)` is the natural logarithm; `Log2(x)` the binary one (PMNF's `log`). Both are
///   defined for `x > 0` only.
/// - `Power(b, e)` is `b` to the real power `e`. Where `e` is an integer it equals
///   `Pow(b, e)` (so `b^0 = 1` for every `b`, `0^0` included, and `0^e` for a negative
///   integer `e` is a division by zero). For a non-integer `e` it is defined for `b > 0`,
///   and for `b == 0` when `e > 0` (then `0`); `0` to a negative power and a negative base
///   with a non-integer exponent are evaluation errors.
/// - `Fold { op, var, lo, hi, body }` folds `body` over the integers `var = lo ..= hi`
///   (bounds are rounded: `ceil(lo) ..= floor(hi)`); over an empty range every fold is `0`,
///   which is the right neutral element for the non-negative times and counts vates deals in.
/// - `If(c, a, b)` is `a` where `c` holds and `b` elsewhere; a stochastic condition
///   [`Cond::Prob`] makes it the expectation `p*a + (1-p)*b`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Expr {
    /// An exact rational constant.
    Num(Rational),
    /// A named parameter or bound variable.
    Var(Name),
    /// Sum of the operands (empty: 0).
    Add(Vec<Expr>),
    /// Product of the operands (empty: 1).
    Mul(Vec<Expr>),
    /// Integer power.
    Pow(Box<Expr>, i32),
    /// Minimum of the operands (at least one).
    Min(Vec<Expr>),
    /// Maximum of the operands (at least one).
    Max(Vec<Expr>),
    /// Largest integer not above the operand.
    Floor(Box<Expr>),
    /// Smallest integer not below the operand.
    Ceil(Box<Expr>),
    /// Floored modulus.
    Mod(Box<Expr>, Box<Expr>),
    /// Greatest common divisor of two integers (non-negative).
    Gcd(Box<Expr>, Box<Expr>),
    /// Natural logarithm.
    Log(Box<Expr>),
    /// Binary logarithm.
    Log2(Box<Expr>),
    /// Real power `base^exponent` for any exponent expression.
    Power(Box<Expr>, Box<Expr>),
    /// A sum, maximum or minimum over an integer range with a bound variable.
    Fold(Box<Fold>),
    /// Conditional expression.
    If(Box<Cond>, Box<Expr>, Box<Expr>),
}

/// The reduction a [`Fold`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FoldOp {
    /// `Σ_{var=lo}^{hi} body`.
    Sum,
    /// `max_{var=lo}^{hi} body`.
    Max,
    /// `min_{var=lo}^{hi} body`.
    Min,
}

/// A fold over an inclusive integer range `var = lo ..= hi`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fold {
    /// The reduction.
    pub op: FoldOp,
    /// The bound variable, visible in `body` only.
    pub var: Name,
    /// Lower bound (inclusive).
    pub lo: Expr,
    /// Upper bound (inclusive).
    pub hi: Expr,
    /// The folded expression.
    pub body: Expr,
}

/// Comparison operators of [`Cond::Cmp`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator's source text.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// Whether `a op b` holds for two ordered values.
    pub fn holds<T: PartialOrd>(self, a: &T, b: &T) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }

    /// The operator with its operands swapped: `a op b` iff `b op.flip() a`.
    pub fn flip(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            op => op,
        }
    }

    /// The negated operator: `not (a op b)` iff `a op.negate() b`.
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }
}

/// A boolean condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cond {
    /// A constant truth value.
    Const(bool),
    /// A comparison of two expressions.
    Cmp(CmpOp, Expr, Expr),
    /// Conjunction (empty: true).
    And(Vec<Cond>),
    /// Disjunction (empty: false).
    Or(Vec<Cond>),
    /// Negation.
    Not(Box<Cond>),
    /// A stochastic condition that holds with probability `p`, independently each time it is
    /// evaluated (the paper's Bernoulli process `B_p`).
    Prob(Expr),
}

impl Expr {
    /// An integer constant.
    pub fn int(v: i64) -> Expr {
        Expr::Num(Rational::from_integer(BigInt::from(v)))
    }

    /// A rational constant `num/den`; `den` must be non-zero.
    pub fn ratio(num: i64, den: i64) -> Expr {
        Expr::Num(Rational::new(BigInt::from(num), BigInt::from(den)))
    }

    /// The constant 0.
    pub fn zero() -> Expr {
        Expr::Num(Rational::zero())
    }

    /// The constant 1.
    pub fn one() -> Expr {
        Expr::Num(Rational::one())
    }

    /// A variable.
    pub fn var(name: &str) -> Expr {
        Expr::Var(Name::from(name))
    }

    /// `a / b`, written as `a * b^-1` (the same as the `/` operator, callable by path).
    #[allow(clippy::should_implement_trait)]
    pub fn div(a: Expr, b: Expr) -> Expr {
        Expr::Mul(vec![a, Expr::Pow(Box::new(b), -1)])
    }

    /// `a - b`, written as `a + (-1)*b` (the same as the `-` operator, callable by path).
    #[allow(clippy::should_implement_trait)]
    pub fn sub(a: Expr, b: Expr) -> Expr {
        Expr::Add(vec![a, Expr::Mul(vec![Expr::int(-1), b])])
    }

    /// `base^k` for an integer `k`.
    pub fn pow(base: Expr, k: i32) -> Expr {
        Expr::Pow(Box::new(base), k)
    }

    /// `base^exponent` for any exponent (see [`Expr::Power`] for where it is defined).
    pub fn power(base: Expr, exponent: Expr) -> Expr {
        Expr::Power(Box::new(base), Box::new(exponent))
    }

    /// The natural logarithm of `x`.
    pub fn log(x: Expr) -> Expr {
        Expr::Log(Box::new(x))
    }

    /// The binary logarithm of `x`.
    pub fn log2(x: Expr) -> Expr {
        Expr::Log2(Box::new(x))
    }

    /// Maximum of two or more expressions.
    pub fn max(items: Vec<Expr>) -> Expr {
        Expr::Max(items)
    }

    /// Minimum of two or more expressions.
    pub fn min(items: Vec<Expr>) -> Expr {
        Expr::Min(items)
    }

    /// A fold over `var = lo ..= hi`.
    pub fn fold(op: FoldOp, var: &str, lo: Expr, hi: Expr, body: Expr) -> Expr {
        Expr::Fold(Box::new(Fold {
            op,
            var: Name::from(var),
            lo,
            hi,
            body,
        }))
    }

    /// `Σ_{var=lo}^{hi} body`.
    pub fn sum_over(var: &str, lo: Expr, hi: Expr, body: Expr) -> Expr {
        Expr::fold(FoldOp::Sum, var, lo, hi, body)
    }

    /// `max_{var=lo}^{hi} body`.
    pub fn max_over(var: &str, lo: Expr, hi: Expr, body: Expr) -> Expr {
        Expr::fold(FoldOp::Max, var, lo, hi, body)
    }

    /// `if cond then a else b`.
    pub fn ite(cond: Cond, a: Expr, b: Expr) -> Expr {
        Expr::If(Box::new(cond), Box::new(a), Box::new(b))
    }

    /// The constant value, if this is a number.
    pub fn as_num(&self) -> Option<&Rational> {
        match self {
            Expr::Num(r) => Some(r),
            _ => None,
        }
    }

    /// Whether this is the constant `v`.
    pub fn is_int(&self, v: i64) -> bool {
        matches!(self, Expr::Num(r) if r.is_integer() && *r.numer() == BigInt::from(v))
    }

    /// Number of nodes in the tree (conditions included).
    pub fn size(&self) -> usize {
        let mut n = 0;
        self.visit(&mut |_| n += 1);
        n
    }

    /// Whether the tree contains a [`Expr::Fold`] (i.e. evaluation cost depends on range sizes).
    pub fn has_fold(&self) -> bool {
        let mut found = false;
        self.visit(&mut |e| found |= matches!(e, Expr::Fold(_)));
        found
    }

    /// Calls `f` on every sub-expression (pre-order), including those inside conditions.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Num(_) | Expr::Var(_) => {}
            Expr::Add(v) | Expr::Mul(v) | Expr::Min(v) | Expr::Max(v) => {
                v.iter().for_each(|e| e.visit(f))
            }
            Expr::Pow(a, _) | Expr::Floor(a) | Expr::Ceil(a) | Expr::Log(a) | Expr::Log2(a) => {
                a.visit(f)
            }
            Expr::Mod(a, b) | Expr::Gcd(a, b) | Expr::Power(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Fold(fd) => {
                fd.lo.visit(f);
                fd.hi.visit(f);
                fd.body.visit(f);
            }
            Expr::If(c, a, b) => {
                c.visit_exprs(f);
                a.visit(f);
                b.visit(f);
            }
        }
    }

    /// Free variables (bound fold variables excluded).
    pub fn free_vars(&self) -> BTreeSet<Name> {
        let mut out = BTreeSet::new();
        self.collect_free(&mut Vec::new(), &mut out);
        out
    }

    /// Whether `name` occurs free.
    pub fn depends_on(&self, name: &str) -> bool {
        match self {
            Expr::Num(_) => false,
            Expr::Var(v) => &**v == name,
            Expr::Add(v) | Expr::Mul(v) | Expr::Min(v) | Expr::Max(v) => {
                v.iter().any(|e| e.depends_on(name))
            }
            Expr::Pow(a, _) | Expr::Floor(a) | Expr::Ceil(a) | Expr::Log(a) | Expr::Log2(a) => {
                a.depends_on(name)
            }
            Expr::Mod(a, b) | Expr::Gcd(a, b) | Expr::Power(a, b) => {
                a.depends_on(name) || b.depends_on(name)
            }
            Expr::Fold(fd) => {
                fd.lo.depends_on(name)
                    || fd.hi.depends_on(name)
                    || (&*fd.var != name && fd.body.depends_on(name))
            }
            Expr::If(c, a, b) => c.depends_on(name) || a.depends_on(name) || b.depends_on(name),
        }
    }

    pub(crate) fn collect_free(&self, bound: &mut Vec<Name>, out: &mut BTreeSet<Name>) {
        match self {
            Expr::Num(_) => {}
            Expr::Var(v) => {
                if !bound.contains(v) {
                    out.insert(v.clone());
                }
            }
            Expr::Add(v) | Expr::Mul(v) | Expr::Min(v) | Expr::Max(v) => {
                v.iter().for_each(|e| e.collect_free(bound, out))
            }
            Expr::Pow(a, _) | Expr::Floor(a) | Expr::Ceil(a) | Expr::Log(a) | Expr::Log2(a) => {
                a.collect_free(bound, out)
            }
            Expr::Mod(a, b) | Expr::Gcd(a, b) | Expr::Power(a, b) => {
                a.collect_free(bound, out);
                b.collect_free(bound, out);
            }
            Expr::Fold(fd) => {
                fd.lo.collect_free(bound, out);
                fd.hi.collect_free(bound, out);
                bound.push(fd.var.clone());
                fd.body.collect_free(bound, out);
                bound.pop();
            }
            Expr::If(c, a, b) => {
                c.collect_free(bound, out);
                a.collect_free(bound, out);
                b.collect_free(bound, out);
            }
        }
    }

    /// Replaces every free occurrence of `name` by `value`, renaming bound variables that
    /// would capture a free variable of `value`.
    pub fn substitute(&self, name: &str, value: &Expr) -> Expr {
        let fv = value.free_vars();
        self.subst(name, value, &fv)
    }

    /// Applies [`Expr::substitute`] for each pair, simultaneously.
    pub fn substitute_all(&self, pairs: &[(Name, Expr)]) -> Expr {
        if pairs.is_empty() {
            return self.clone();
        }
        // Simultaneous substitution via fresh intermediate names.
        let mut e = self.clone();
        let fresh: Vec<Name> = (0..pairs.len())
            .map(|i| Name::from(format!("\u{1}s{i}").as_str()))
            .collect();
        for ((n, _), f) in pairs.iter().zip(&fresh) {
            e = e.substitute(n, &Expr::Var(f.clone()));
        }
        for ((_, v), f) in pairs.iter().zip(&fresh) {
            e = e.substitute(f, v);
        }
        e
    }

    fn subst(&self, name: &str, value: &Expr, fv: &BTreeSet<Name>) -> Expr {
        let map = |v: &Vec<Expr>| v.iter().map(|e| e.subst(name, value, fv)).collect();
        let b = |e: &Expr| Box::new(e.subst(name, value, fv));
        match self {
            Expr::Num(_) => self.clone(),
            Expr::Var(v) => {
                if &**v == name {
                    value.clone()
                } else {
                    self.clone()
                }
            }
            Expr::Add(v) => Expr::Add(map(v)),
            Expr::Mul(v) => Expr::Mul(map(v)),
            Expr::Min(v) => Expr::Min(map(v)),
            Expr::Max(v) => Expr::Max(map(v)),
            Expr::Pow(a, k) => Expr::Pow(b(a), *k),
            Expr::Floor(a) => Expr::Floor(b(a)),
            Expr::Ceil(a) => Expr::Ceil(b(a)),
            Expr::Log(a) => Expr::Log(b(a)),
            Expr::Log2(a) => Expr::Log2(b(a)),
            Expr::Power(x, y) => Expr::Power(b(x), b(y)),
            Expr::Mod(x, y) => Expr::Mod(b(x), b(y)),
            Expr::Gcd(x, y) => Expr::Gcd(b(x), b(y)),
            Expr::Fold(fd) => {
                let lo = fd.lo.subst(name, value, fv);
                let hi = fd.hi.subst(name, value, fv);
                if &*fd.var == name {
                    return Expr::Fold(Box::new(Fold {
                        op: fd.op,
                        var: fd.var.clone(),
                        lo,
                        hi,
                        body: fd.body.clone(),
                    }));
                }
                let (var, body) = if fv.contains(&fd.var) {
                    let fresh = fresh_name(&fd.var, |n| {
                        fv.contains(n) || fd.body.depends_on(n) || n == name
                    });
                    (
                        fresh.clone(),
                        fd.body.substitute(&fd.var, &Expr::Var(fresh)),
                    )
                } else {
                    (fd.var.clone(), fd.body.clone())
                };
                Expr::Fold(Box::new(Fold {
                    op: fd.op,
                    var,
                    lo,
                    hi,
                    body: body.subst(name, value, fv),
                }))
            }
            Expr::If(c, x, y) => Expr::If(Box::new(c.subst(name, value, fv)), b(x), b(y)),
        }
    }
}

/// A name derived from `base` (`base'`, `base''`, …) for which `taken` is false.
pub fn fresh_name(base: &str, taken: impl Fn(&str) -> bool) -> Name {
    let mut s = format!("{base}'");
    while taken(&s) {
        s.push('\'');
    }
    Name::from(s.as_str())
}

impl Cond {
    /// `a op b`.
    pub fn cmp(op: CmpOp, a: Expr, b: Expr) -> Cond {
        Cond::Cmp(op, a, b)
    }

    /// Whether `name` occurs free.
    pub fn depends_on(&self, name: &str) -> bool {
        match self {
            Cond::Const(_) => false,
            Cond::Cmp(_, a, b) => a.depends_on(name) || b.depends_on(name),
            Cond::And(v) | Cond::Or(v) => v.iter().any(|c| c.depends_on(name)),
            Cond::Not(c) => c.depends_on(name),
            Cond::Prob(p) => p.depends_on(name),
        }
    }

    /// Whether the condition contains a stochastic [`Cond::Prob`].
    pub fn is_stochastic(&self) -> bool {
        match self {
            Cond::Prob(_) => true,
            Cond::Const(_) | Cond::Cmp(..) => false,
            Cond::And(v) | Cond::Or(v) => v.iter().any(Cond::is_stochastic),
            Cond::Not(c) => c.is_stochastic(),
        }
    }

    /// Calls `f` on every expression inside the condition (and their sub-expressions).
    pub fn visit_exprs(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            Cond::Const(_) => {}
            Cond::Cmp(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Cond::And(v) | Cond::Or(v) => v.iter().for_each(|c| c.visit_exprs(f)),
            Cond::Not(c) => c.visit_exprs(f),
            Cond::Prob(p) => p.visit(f),
        }
    }

    /// Free variables.
    pub fn free_vars(&self) -> BTreeSet<Name> {
        let mut out = BTreeSet::new();
        self.collect_free(&mut Vec::new(), &mut out);
        out
    }

    pub(crate) fn collect_free(&self, bound: &mut Vec<Name>, out: &mut BTreeSet<Name>) {
        match self {
            Cond::Const(_) => {}
            Cond::Cmp(_, a, b) => {
                a.collect_free(bound, out);
                b.collect_free(bound, out);
            }
            Cond::And(v) | Cond::Or(v) => v.iter().for_each(|c| c.collect_free(bound, out)),
            Cond::Not(c) => c.collect_free(bound, out),
            Cond::Prob(p) => p.collect_free(bound, out),
        }
    }

    /// Applies [`Cond::substitute`] for each pair, simultaneously.
    pub fn substitute_all(&self, pairs: &[(Name, Expr)]) -> Cond {
        let fresh: Vec<Name> = (0..pairs.len())
            .map(|i| Name::from(format!("\u{1}s{i}").as_str()))
            .collect();
        let mut c = self.clone();
        for ((n, _), f) in pairs.iter().zip(&fresh) {
            c = c.substitute(n, &Expr::Var(f.clone()));
        }
        for ((_, v), f) in pairs.iter().zip(&fresh) {
            c = c.substitute(f, v);
        }
        c
    }

    /// Replaces every free occurrence of `name` by `value`.
    pub fn substitute(&self, name: &str, value: &Expr) -> Cond {
        let fv = value.free_vars();
        self.subst(name, value, &fv)
    }

    fn subst(&self, name: &str, value: &Expr, fv: &BTreeSet<Name>) -> Cond {
        match self {
            Cond::Const(_) => self.clone(),
            Cond::Cmp(op, a, b) => {
                Cond::Cmp(*op, a.subst(name, value, fv), b.subst(name, value, fv))
            }
            Cond::And(v) => Cond::And(v.iter().map(|c| c.subst(name, value, fv)).collect()),
            Cond::Or(v) => Cond::Or(v.iter().map(|c| c.subst(name, value, fv)).collect()),
            Cond::Not(c) => Cond::Not(Box::new(c.subst(name, value, fv))),
            Cond::Prob(p) => Cond::Prob(p.subst(name, value, fv)),
        }
    }
}

macro_rules! binop {
    ($tr:ident, $m:ident, $body:expr) => {
        impl std::ops::$tr for Expr {
            type Output = Expr;
            fn $m(self, rhs: Expr) -> Expr {
                let f: fn(Expr, Expr) -> Expr = $body;
                f(self, rhs)
            }
        }
    };
}
binop!(Add, add, |a, b| Expr::Add(vec![a, b]));
binop!(Sub, sub, Expr::sub);
binop!(Mul, mul, |a, b| Expr::Mul(vec![a, b]));
binop!(Div, div, Expr::div);

impl std::ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::Mul(vec![Expr::int(-1), self])
    }
}

impl From<i64> for Expr {
    fn from(v: i64) -> Expr {
        Expr::int(v)
    }
}

impl fmt::Display for FoldOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FoldOp::Sum => "sum",
            FoldOp::Max => "max",
            FoldOp::Min => "min",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{i, v};

    #[test]
    fn substitution_avoids_capture() {
        // sum_{i=1}^{N} (i + j)  with j := i  must not capture.
        let e = Expr::sum_over("i", i(1), v("N"), v("i") + v("j"));
        let s = e.substitute("j", &v("i"));
        assert!(s.depends_on("i"), "the substituted i stays free");
        assert_eq!(s.free_vars().len(), 2);
    }

    #[test]
    fn bound_variables_are_not_free() {
        let e = Expr::max_over("p", i(1), v("P"), v("p") * v("t"));
        let fv: Vec<_> = e.free_vars().into_iter().collect();
        assert_eq!(fv, vec![Name::from("P"), Name::from("t")]);
        assert!(!e.depends_on("p"));
    }
}
