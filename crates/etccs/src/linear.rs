//! Linear time expressions over symbolic parameters (spec §4.1: time
//! expressions are linear in the time variables), with exact rational
//! coefficients. Parameters are numbered by [`Param`] and implicitly `>= 0`.

use crate::time::Tm;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::ToPrimitive;
use std::fmt::Write as _;

/// Exact rational coefficient: machine integers when they fit (see [`Tm`]).
pub type Coef = Tm;

/// A symbolic time parameter (`param t1;`), numbered in declaration order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Param(pub u32);

/// `c + Σ aᵢ·xᵢ` with the terms sorted by parameter and no zero coefficient,
/// so equal expressions are structurally equal.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct LinExpr {
    /// Coefficients, sorted by parameter, none zero.
    terms: Vec<(Param, Coef)>,
    /// The constant term.
    constant: Coef,
}

/// The greatest common divisor of `a` and `b` (non-negative), with machine integers
/// when both fit.
pub(crate) fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    match (a.to_i64(), b.to_i64()) {
        (Some(x), Some(y)) => BigInt::from(x.unsigned_abs().gcd(&y.unsigned_abs())),
        _ => a.gcd(b),
    }
}

impl LinExpr {
    /// The constant `c`.
    pub fn constant(c: Coef) -> Self {
        LinExpr {
            terms: Vec::new(),
            constant: c,
        }
    }

    /// Zero.
    pub fn zero() -> Self {
        Self::constant(Coef::ZERO)
    }

    /// The parameter `x` itself.
    pub fn var(x: Param) -> Self {
        LinExpr {
            terms: vec![(x, Coef::ONE)],
            constant: Coef::ZERO,
        }
    }

    /// The constant term.
    pub fn constant_part(&self) -> &Coef {
        &self.constant
    }

    /// The non-zero coefficients, sorted by parameter.
    pub fn terms(&self) -> &[(Param, Coef)] {
        &self.terms
    }

    /// The coefficient of `x` (zero if absent).
    pub fn coef(&self, x: Param) -> Coef {
        self.terms
            .binary_search_by_key(&x, |(p, _)| *p)
            .map_or_else(|_| Coef::ZERO, |i| self.terms[i].1.clone())
    }

    /// Whether the expression has no parameter.
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether the expression is the constant 0.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty() && self.constant.is_zero()
    }

    /// `self + k·other`.
    pub fn add_scaled(&self, other: &LinExpr, k: &Coef) -> LinExpr {
        if k.is_zero() {
            return self.clone();
        }
        let mut terms = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let take_left = j == other.terms.len()
                || (i < self.terms.len() && self.terms[i].0 < other.terms[j].0);
            let take_right = i == self.terms.len()
                || (j < other.terms.len() && other.terms[j].0 < self.terms[i].0);
            if take_left {
                terms.push(self.terms[i].clone());
                i += 1;
            } else if take_right {
                terms.push((other.terms[j].0, other.terms[j].1.mul(k)));
                j += 1;
            } else {
                let c = self.terms[i].1.add(&other.terms[j].1.mul(k));
                if !c.is_zero() {
                    terms.push((self.terms[i].0, c));
                }
                i += 1;
                j += 1;
            }
        }
        LinExpr {
            terms,
            constant: self.constant.add(&other.constant.mul(k)),
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &LinExpr) -> LinExpr {
        self.add_scaled(other, &Coef::ONE)
    }

    /// `self - other`.
    pub fn sub(&self, other: &LinExpr) -> LinExpr {
        self.add_scaled(other, &Coef::int(-1))
    }

    /// `k·self`.
    pub fn scale(&self, k: &Coef) -> LinExpr {
        if k.is_zero() {
            return LinExpr::zero();
        }
        LinExpr {
            terms: self.terms.iter().map(|(p, c)| (*p, c.mul(k))).collect(),
            constant: self.constant.mul(k),
        }
    }

    /// Replaces `x` by `e` (used to eliminate a parameter fixed by an equality).
    pub fn substitute(&self, x: Param, e: &LinExpr) -> LinExpr {
        let a = self.coef(x);
        if a.is_zero() {
            return self.clone();
        }
        let mut rest = self.clone();
        rest.terms.retain(|(p, _)| *p != x);
        rest.add_scaled(e, &a)
    }

    /// The value at a valuation (`values[x.0]` is the value of `x`).
    pub fn eval(&self, values: &[Coef]) -> Coef {
        let mut v = self.constant.clone();
        for (p, c) in &self.terms {
            v = v.add(&c.mul(&values[p.0 as usize]));
        }
        v
    }

    /// Renders with parameter names: `t1 - t2 + 3`, `2*t2`, `1/2*t1`, `0`.
    /// Uses only numbers, names, `+`, `-` and `*`, so any tool can evaluate it.
    pub fn render(&self, names: &[String]) -> String {
        let mut s = String::new();
        for (p, c) in &self.terms {
            let name = names.get(p.0 as usize).map_or("?", String::as_str);
            let neg = c.is_negative();
            if s.is_empty() {
                if neg {
                    s.push('-');
                }
            } else {
                s.push_str(if neg { " - " } else { " + " });
            }
            let a = c.abs();
            if !a.is_one() {
                let _ = write!(s, "{}*", fmt_coef(&a));
            }
            s.push_str(name);
        }
        if s.is_empty() {
            return fmt_coef(&self.constant);
        }
        if !self.constant.is_zero() {
            s.push_str(if self.constant.is_negative() {
                " - "
            } else {
                " + "
            });
            s.push_str(&fmt_coef(&self.constant.abs()));
        }
        s
    }
}

/// `3`, `1/2`, `-4`.
pub fn fmt_coef(c: &Coef) -> String {
    c.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(k: i64) -> Coef {
        Coef::int(k)
    }

    #[test]
    fn arithmetic_keeps_the_normal_form() {
        let t1 = LinExpr::var(Param(0));
        let t2 = LinExpr::var(Param(1));
        let e = t1.add(&t2).sub(&t1);
        assert_eq!(e, t2);
        assert_eq!(t1.sub(&t1), LinExpr::zero());
        let names = vec!["t1".to_string(), "t2".to_string()];
        let f = t2.scale(&n(2)).sub(&t1).add(&LinExpr::constant(n(3)));
        assert_eq!(f.render(&names), "-t1 + 2*t2 + 3");
        assert_eq!(f.eval(&[n(1), n(5)]), n(12));
        assert_eq!(f.substitute(Param(1), &t1).render(&names), "t1 + 3");
        assert_eq!(LinExpr::constant(Coef::ratio(-1, 2)).render(&names), "-1/2");
    }
}
