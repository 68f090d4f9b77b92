//! Deciding signs and comparisons under assumptions, soundly but incompletely.
//!
//! The prover computes an interval enclosing every value an expression can take, from the
//! bounds of the names in it (parameters, bound variables and, for derived parameters, their
//! definitions). Because intervals forget correlations (`N - N/P` looks unbounded), a sum is
//! also tried with its common monomial factored out (`N*(1 - 1/P)`), each part bounded
//! separately. A `false` answer means "not proved", never "disproved".

use super::arith::{self, Mono};
use crate::assume::Assumptions;
use crate::node::{Expr, FoldOp};
use num_traits::ToPrimitive;

/// How deep bounds that mention other names are followed.
const MAX_DEPTH: usize = 6;

/// A closed interval of reals with infinite ends allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end (may be `-inf`).
    pub lo: f64,
    /// Upper end (may be `+inf`).
    pub hi: f64,
}

impl Interval {
    const ALL: Interval = Interval {
        lo: f64::NEG_INFINITY,
        hi: f64::INFINITY,
    };

    fn point(x: f64) -> Interval {
        Interval { lo: x, hi: x }
    }

    fn new(lo: f64, hi: f64) -> Interval {
        if lo.is_nan() || hi.is_nan() || lo > hi {
            Interval::ALL
        } else {
            Interval { lo, hi }
        }
    }

    fn intersect(self, o: Interval) -> Interval {
        let lo = self.lo.max(o.lo);
        let hi = self.hi.min(o.hi);
        if lo > hi {
            self
        } else {
            Interval { lo, hi }
        }
    }

    fn hull(self, o: Interval) -> Interval {
        Interval::new(self.lo.min(o.lo), self.hi.max(o.hi))
    }

    /// The image under the logarithm `log` (increasing, `-inf` at 0): from `-inf` where the
    /// interval reaches 0 or below.
    fn log(self, log: fn(f64) -> f64) -> Interval {
        if self.lo > 0.0 {
            Interval::new(log(self.lo), log(self.hi))
        } else {
            Interval::new(f64::NEG_INFINITY, log(self.hi.max(0.0)))
        }
    }

    fn add(self, o: Interval) -> Interval {
        Interval::new(self.lo + o.lo, self.hi + o.hi)
    }

    fn mul(self, o: Interval) -> Interval {
        let p = |a: f64, b: f64| if a == 0.0 || b == 0.0 { 0.0 } else { a * b };
        let c = [
            p(self.lo, o.lo),
            p(self.lo, o.hi),
            p(self.hi, o.lo),
            p(self.hi, o.hi),
        ];
        Interval::new(
            c.iter().copied().fold(f64::INFINITY, f64::min),
            c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    fn recip(self) -> Interval {
        if self.lo > 0.0 || self.hi < 0.0 {
            Interval::new(1.0 / self.hi, 1.0 / self.lo)
        } else if self.lo == 0.0 && self.hi > 0.0 {
            Interval::new(1.0 / self.hi, f64::INFINITY)
        } else {
            Interval::ALL
        }
    }

    fn powi(self, k: i32) -> Interval {
        if k == 0 {
            return Interval::point(1.0);
        }
        let base = if k < 0 { self.recip() } else { self };
        let n = k.unsigned_abs();
        let mut out = Interval::point(1.0);
        if n.is_multiple_of(2) && base.lo < 0.0 && base.hi > 0.0 {
            let m = base.lo.abs().max(base.hi);
            return Interval::new(0.0, m.powi(n as i32));
        }
        for _ in 0..n.min(8) {
            out = out.mul(base);
        }
        if n > 8 {
            // Only the sign matters at that point.
            return if base.lo >= 0.0 {
                Interval::new(0.0, f64::INFINITY)
            } else {
                Interval::ALL
            };
        }
        out
    }

    /// `b^e` for `b` in `self` (non-negative) and `e` in `exponent`. For a fixed exponent
    /// `b^e` is monotone in `b >= 0`, and for a fixed base monotone in `e` (with `0^0 = 1`
    /// and `0^e = 0` for `e > 0`), so the extremes lie at the corners; `powf` gives the
    /// limits at infinite ends, and `+inf` for `0` to a negative power (undefined there).
    fn power(self, exponent: Interval) -> Interval {
        let c = [
            self.lo.powf(exponent.lo),
            self.lo.powf(exponent.hi),
            self.hi.powf(exponent.lo),
            self.hi.powf(exponent.hi),
        ];
        if c.iter().any(|v| v.is_nan()) {
            return Interval::ALL;
        }
        Interval::new(
            c.iter().copied().fold(f64::INFINITY, f64::min),
            c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    /// Widened outward so that rounding in `f64` cannot make a proof unsound.
    fn widen(self) -> Interval {
        let w = |x: f64| x.abs() * 1e-12;
        Interval::new(self.lo - w(self.lo), self.hi + w(self.hi))
    }
}

/// The prover: interval bounds of expressions under a set of assumptions.
pub(crate) struct Prover<'a> {
    pub(crate) assume: &'a Assumptions,
}

impl Prover<'_> {
    /// An interval containing every value of `e`.
    pub(crate) fn interval(&self, e: &Expr) -> Interval {
        self.iv(e, 0).widen()
    }

    fn var_interval(&self, name: &str, depth: usize) -> Interval {
        let Some(info) = self.assume.get(name) else {
            return Interval::ALL;
        };
        if depth >= MAX_DEPTH {
            return Interval::ALL;
        }
        let mut out = Interval::ALL;
        if let Some(lo) = &info.lower {
            out.lo = self.iv(lo, depth + 1).lo;
        }
        if let Some(hi) = &info.upper {
            out.hi = self.iv(hi, depth + 1).hi;
        }
        if let Some(d) = &info.definition {
            out = out.intersect(self.iv(d, depth + 1));
        }
        if info.integer {
            out = Interval::new(out.lo.ceil(), out.hi.floor());
        }
        out
    }

    fn iv(&self, e: &Expr, depth: usize) -> Interval {
        match e {
            Expr::Num(r) => Interval::point(r.to_f64().unwrap_or(f64::NAN)),
            Expr::Var(v) => self.var_interval(v, depth),
            Expr::Add(ts) => ts
                .iter()
                .fold(Interval::point(0.0), |a, t| a.add(self.iv(t, depth))),
            Expr::Mul(fs) => fs
                .iter()
                .fold(Interval::point(1.0), |a, f| a.mul(self.iv(f, depth))),
            Expr::Pow(b, k) => self.iv(b, depth).powi(*k),
            Expr::Min(v) => v
                .iter()
                .map(|x| self.iv(x, depth))
                .reduce(|a, b| Interval::new(a.lo.min(b.lo), a.hi.min(b.hi)))
                .unwrap_or(Interval::ALL),
            Expr::Max(v) => v
                .iter()
                .map(|x| self.iv(x, depth))
                .reduce(|a, b| Interval::new(a.lo.max(b.lo), a.hi.max(b.hi)))
                .unwrap_or(Interval::ALL),
            Expr::Floor(a) => {
                let i = self.iv(a, depth);
                Interval::new(i.lo.floor(), i.hi.floor())
            }
            Expr::Ceil(a) => {
                let i = self.iv(a, depth);
                // The ceiling of a strictly positive value is at least 1, which the interval
                // (whose ends may be limits, like 1/P -> 0) cannot tell.
                let lo = if self.strictly_positive(a, depth) {
                    i.lo.ceil().max(1.0)
                } else {
                    i.lo.ceil()
                };
                Interval::new(lo, i.hi.ceil())
            }
            Expr::Mod(a, b) => {
                let ia = self.iv(a, depth);
                let ib = self.iv(b, depth);
                if ib.lo > 0.0 {
                    if ia.lo >= 0.0 && ia.hi < ib.lo {
                        ia
                    } else {
                        Interval::new(0.0, ib.hi)
                    }
                } else {
                    Interval::ALL
                }
            }
            Expr::Gcd(a, b) => {
                let ia = self.iv(a, depth);
                let ib = self.iv(b, depth);
                let nonzero = |i: Interval| i.lo >= 1.0 || i.hi <= -1.0;
                let lo = if nonzero(ia) || nonzero(ib) { 1.0 } else { 0.0 };
                let cap = |i: Interval| {
                    if nonzero(i) {
                        i.lo.abs().max(i.hi.abs())
                    } else {
                        f64::INFINITY
                    }
                };
                Interval::new(lo, cap(ia).min(cap(ib)))
            }
            Expr::Log(a) => self.iv(a, depth).log(f64::ln),
            Expr::Log2(a) => self.iv(a, depth).log(f64::log2),
            Expr::Power(b, x) => {
                let ib = self.iv(b, depth);
                if ib.lo >= 0.0 {
                    ib.power(self.iv(x, depth))
                } else {
                    Interval::ALL
                }
            }
            Expr::Fold(fd) => {
                let lo = self.iv(&fd.lo, depth);
                let hi = self.iv(&fd.hi, depth);
                let n = Interval::new(
                    (hi.lo.floor() - lo.hi.ceil() + 1.0).max(0.0),
                    (hi.hi.floor() - lo.lo.ceil() + 1.0).max(0.0),
                );
                // The body's interval with the bound variable unknown beyond the range.
                let body = {
                    let mut inner = self.assume.clone();
                    inner.set(
                        &fd.var,
                        crate::assume::VarInfo {
                            integer: true,
                            lower: Some(fd.lo.clone()),
                            upper: Some(fd.hi.clone()),
                            definition: None,
                        },
                    );
                    Prover { assume: &inner }.iv(&fd.body, depth + 1)
                };
                match fd.op {
                    FoldOp::Sum => {
                        if body.lo >= 0.0 {
                            Interval::new(n.lo * body.lo, n.mul(Interval::new(0.0, body.hi)).hi)
                        } else {
                            n.mul(body)
                        }
                    }
                    FoldOp::Max | FoldOp::Min => {
                        if n.lo >= 1.0 {
                            body
                        } else {
                            body.hull(Interval::point(0.0))
                        }
                    }
                }
            }
            Expr::If(_, a, b) => self.iv(a, depth).hull(self.iv(b, depth)),
        }
    }

    /// Whether `e > 0` follows from the signs of its parts: positive constants, names with a
    /// positive lower bound, and products, powers, sums, maxima and minima of those.
    fn strictly_positive(&self, e: &Expr, depth: usize) -> bool {
        if depth >= MAX_DEPTH {
            return false;
        }
        match e {
            Expr::Num(r) => r.to_f64().is_some_and(|x| x > 0.0),
            Expr::Var(v) => self.var_interval(v, depth).lo > 0.0,
            Expr::Mul(fs) => fs.iter().all(|f| self.strictly_positive(f, depth + 1)),
            Expr::Pow(b, _) | Expr::Power(b, _) => self.strictly_positive(b, depth + 1),
            Expr::Add(ts) => {
                ts.iter().all(|t| self.iv(t, depth + 1).lo >= 0.0)
                    && ts.iter().any(|t| self.strictly_positive(t, depth + 1))
            }
            Expr::Max(v) => v.iter().any(|x| self.strictly_positive(x, depth + 1)),
            Expr::Min(v) => v.iter().all(|x| self.strictly_positive(x, depth + 1)),
            Expr::Ceil(a) => self.strictly_positive(a, depth + 1),
            _ => self.iv(e, depth).lo > 0.0,
        }
    }

    /// Substitutes derived parameters' definitions (a few levels deep) and renormalises.
    fn expand_definitions(&self, e: &Expr) -> Expr {
        let mut cur = e.clone();
        for _ in 0..MAX_DEPTH {
            let defs: Vec<(crate::node::Name, Expr)> = cur
                .free_vars()
                .into_iter()
                .filter_map(|n| {
                    self.assume
                        .get(&n)
                        .and_then(|i| i.definition.clone())
                        .map(|d| (n, d))
                })
                .collect();
            if defs.is_empty() {
                break;
            }
            cur = cur.substitute_all(&defs);
        }
        normalize(&cur)
    }

    /// Proves `e >= 0`.
    pub(crate) fn nonneg(&self, e: &Expr) -> bool {
        self.sign_holds(e, |i| i.lo >= 0.0)
    }

    /// Proves `e > 0`.
    pub(crate) fn positive(&self, e: &Expr) -> bool {
        self.sign_holds(e, |i| i.lo > 0.0)
    }

    /// Proves `e <= 0`.
    pub(crate) fn nonpos(&self, e: &Expr) -> bool {
        self.sign_holds(e, |i| i.hi <= 0.0)
    }

    /// Proves `e < 0`.
    pub(crate) fn negative(&self, e: &Expr) -> bool {
        self.sign_holds(e, |i| i.hi < 0.0)
    }

    fn sign_holds(&self, e: &Expr, ok: impl Fn(Interval) -> bool + Copy) -> bool {
        if self.holds_directly(e, ok) {
            return true;
        }
        let expanded = self.expand_definitions(e);
        expanded != *e && self.holds_directly(&expanded, ok)
    }

    fn holds_directly(&self, e: &Expr, ok: impl Fn(Interval) -> bool) -> bool {
        if ok(self.interval(e)) {
            return true;
        }
        // Factor out the common monomial and bound the two parts separately.
        let c: Mono = arith::content(e);
        if c.is_empty() {
            return false;
        }
        let cm = arith::build_term(crate::node::Rational::from_integer(1.into()), c.clone());
        let rest = arith::div_mono(e, &c);
        let ic = self.interval(&cm);
        let ir = self.interval(&rest);
        ok(ic.mul(ir)) || (ic.lo >= 0.0 && ok(ir) && ok(Interval::point(0.0)))
    }
}

/// Renormalises sums and products throughout a tree (other nodes kept as they are).
pub(crate) fn normalize(e: &Expr) -> Expr {
    match e {
        Expr::Add(ts) => arith::add(ts.iter().map(normalize).collect()),
        Expr::Mul(fs) => arith::mul(fs.iter().map(normalize).collect()),
        Expr::Pow(b, k) => arith::pow(normalize(b), *k),
        Expr::Max(v) => Expr::Max(v.iter().map(normalize).collect()),
        Expr::Min(v) => Expr::Min(v.iter().map(normalize).collect()),
        Expr::Floor(a) => Expr::Floor(Box::new(normalize(a))),
        Expr::Ceil(a) => Expr::Ceil(Box::new(normalize(a))),
        other => other.clone(),
    }
}
