//! Linear constraints over the parameters and their conjunctions (spec §5.2
//! conditions, restricted to conjunctions: a disjunction is kept as
//! several conjunctions, i.e. in DNF).

use crate::linear::{fmt_coef, Coef, LinExpr};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// The relation of a constraint `e ⋈ 0`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Rel {
    /// `e > 0`.
    Gt,
    /// `e >= 0`.
    Ge,
    /// `e = 0`.
    Eq,
    /// `e != 0`.
    Ne,
}

impl Rel {
    /// The operator as printed: `>`, `>=`, `=`, `!=`.
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Gt => ">",
            Rel::Ge => ">=",
            Rel::Eq => "=",
            Rel::Ne => "!=",
        }
    }
}

/// A normalised linear constraint `e ⋈ 0`: the coefficients of `e`
/// (constant included) are coprime integers, and for `=` and `!=` the
/// first parameter's coefficient is positive. Equal constraints are
/// therefore structurally equal.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Constraint {
    /// The left-hand side.
    pub expr: LinExpr,
    /// The relation to zero.
    pub rel: Rel,
}

/// What a constraint without parameters says.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Normal {
    /// Always true: drop it.
    True,
    /// Always false.
    False,
    /// A proper constraint.
    Proper(Constraint),
}

/// Whether the coefficients and the constant of `e` are machine integers with no common
/// factor (the normal form's scale).
fn coprime_integers(e: &LinExpr) -> bool {
    let mut g = 0u64;
    for c in e.terms().iter().map(|(_, c)| c).chain([e.constant_part()]) {
        match c {
            Coef::Small(n, 1) => g = g.gcd(&n.unsigned_abs()),
            _ => return false,
        }
    }
    g == 1
}

impl Constraint {
    /// Normalises `e ⋈ 0`.
    pub fn normal(expr: LinExpr, rel: Rel) -> Normal {
        if expr.is_constant() {
            let c = expr.constant_part();
            let holds = match rel {
                Rel::Gt => c.is_positive(),
                Rel::Ge => !c.is_negative(),
                Rel::Eq => c.is_zero(),
                Rel::Ne => !c.is_zero(),
            };
            return if holds { Normal::True } else { Normal::False };
        }
        // Scale to coprime integers: usually they are already.
        if coprime_integers(&expr)
            && (matches!(rel, Rel::Gt | Rel::Ge) || expr.terms()[0].1.is_positive())
        {
            return Normal::Proper(Constraint { expr, rel });
        }
        let mut den = BigInt::one();
        let parts: Vec<(BigInt, BigInt)> = expr
            .terms()
            .iter()
            .map(|(_, c)| c)
            .chain([expr.constant_part()])
            .map(Coef::parts)
            .collect();
        for (_, d) in &parts {
            den = den.lcm(d);
        }
        let mut g = BigInt::zero();
        for (n, d) in &parts {
            g = crate::linear::gcd(&g, &(n * (&den / d)));
        }
        let mut k = Coef::from_big(&BigRational::new(den, g));
        if matches!(rel, Rel::Eq | Rel::Ne) && expr.terms()[0].1.is_negative() {
            k = k.neg();
        }
        Normal::Proper(Constraint {
            expr: expr.scale(&k),
            rel,
        })
    }

    /// `a ⋈ b`, i.e. `a - b ⋈ 0`.
    pub fn cmp(a: &LinExpr, rel: Rel, b: &LinExpr) -> Normal {
        Constraint::normal(a.sub(b), rel)
    }

    /// The negation (as one constraint: `¬(e > 0)` is `-e >= 0`).
    pub fn negate(&self) -> Constraint {
        let minus = |e: &LinExpr| e.scale(&Coef::int(-1));
        let (expr, rel) = match self.rel {
            Rel::Gt => (minus(&self.expr), Rel::Ge),
            Rel::Ge => (minus(&self.expr), Rel::Gt),
            Rel::Eq => (self.expr.clone(), Rel::Ne),
            Rel::Ne => (self.expr.clone(), Rel::Eq),
        };
        Constraint { expr, rel }
    }

    /// Whether the constraint holds at a valuation.
    pub fn holds(&self, values: &[Coef]) -> bool {
        let v = self.expr.eval(values);
        match self.rel {
            Rel::Gt => v.is_positive(),
            Rel::Ge => !v.is_negative(),
            Rel::Eq => v.is_zero(),
            Rel::Ne => !v.is_zero(),
        }
    }

    /// `t1 - t2 > 0`: the parameter part on the left with a positive first
    /// coefficient, the constant on the right (`-2*x + 3 > 0` prints as
    /// `2*x < 3`).
    pub fn render(&self, names: &[String]) -> String {
        let flip = self.expr.terms()[0].1.is_negative();
        let e = if flip {
            self.expr.scale(&Coef::int(-1))
        } else {
            self.expr.clone()
        };
        let c = e.constant_part().clone();
        let lhs = e.add(&LinExpr::constant(c.neg()));
        let op = match (self.rel, flip) {
            (Rel::Gt, true) => "<",
            (Rel::Ge, true) => "<=",
            (r, _) => r.symbol(),
        };
        format!("{} {op} {}", lhs.render(names), fmt_coef(&c.neg()))
    }
}

/// `t1 - t2 > 0 & t1 >= 1`, or `true` for none.
pub fn render_constraints(cs: &[Constraint], names: &[String]) -> String {
    if cs.is_empty() {
        return "true".to_string();
    }
    cs.iter()
        .map(|k| k.render(names))
        .collect::<Vec<_>>()
        .join(" & ")
}

/// A conjunction of constraints, sorted and without duplicates; the empty
/// conjunction is ⊤. Parameters are implicitly `>= 0` and not listed.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Conj(pub Vec<Constraint>);

impl Conj {
    /// ⊤.
    pub fn top() -> Self {
        Conj(Vec::new())
    }

    /// `self ∧ c`, or `None` if `c` is trivially false.
    pub fn and(&self, c: Normal) -> Option<Conj> {
        match c {
            Normal::True => Some(self.clone()),
            Normal::False => None,
            Normal::Proper(c) => {
                let mut v = self.0.clone();
                if let Err(i) = v.binary_search(&c) {
                    v.insert(i, c);
                }
                Some(Conj(v))
            }
        }
    }

    /// `self ∧ other`.
    pub fn and_all(&self, other: &Conj) -> Conj {
        let mut v = self.0.clone();
        for c in &other.0 {
            if let Err(i) = v.binary_search(c) {
                v.insert(i, c.clone());
            }
        }
        Conj(v)
    }

    /// Whether every constraint holds at a valuation.
    pub fn holds(&self, values: &[Coef]) -> bool {
        self.0.iter().all(|c| c.holds(values))
    }

    /// Rewrites `e` using the equalities of the conjunction: each equality
    /// eliminates its last parameter, so that expressions equal on the
    /// region print alike (the thesis's "dereferencing equalities").
    pub fn canonical(&self, e: &LinExpr) -> LinExpr {
        let mut eqs: Vec<LinExpr> = self
            .0
            .iter()
            .filter(|c| c.rel == Rel::Eq)
            .map(|c| c.expr.clone())
            .collect();
        let mut out = e.clone();
        while let Some(eq) = eqs.pop() {
            let Some((x, a)) = eq.terms().last().cloned() else {
                continue;
            };
            // x = -(eq - a·x)/a
            let rest = eq.substitute(x, &LinExpr::zero());
            let val = rest.scale(&a.recip().neg());
            out = out.substitute(x, &val);
            for other in &mut eqs {
                *other = other.substitute(x, &val);
            }
        }
        out
    }
}
