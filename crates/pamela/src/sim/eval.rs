//! Expression evaluation for the simulator.
//!
//! Every expression of the model is lowered once, before the run, into an [`Ev`]: parameters
//! are replaced by their bound (exact) values, and the remaining free variables (process
//! arguments and loop variables) become slots of the running thread's frame. The two
//! common shapes, a constant (any expression without frame variables, evaluated once) and a
//! plain variable, cost one branch at run time; everything else is an
//! [`expr::compile::Compiled`] program over the frame, with the semantics of
//! [`expr::Expr`] (floored `mod`, folds over `ceil(lo) ..= floor(hi)`, an `if` expression
//! over a stochastic condition being its expectation).
//!
//! Conditions of `if` terms become a [`Cnd`] and are *sampled* with
//! [`expr::compile::CompiledCond::sample`]: each `prob(p)` with `0 < p < 1` reached while
//! evaluating the condition draws one coin from the simulator's RNG, and `and`/`or` stop at
//! the operand that decides them, so the draws are deterministic for a given seed.
//!
//! A constant expression whose evaluation fails (say a division by zero on a branch that is
//! never taken) is kept compiled, so that the error is reported only if it is reached.

use expr::compile::{Compiled, CompiledCond};
use expr::{Cond, Expr, Name, Rational};
use std::collections::BTreeMap;

/// Relative tolerance within which an `f64` counts as the integer next to it.
const INT_TOL: f64 = 1e-9;

/// `x` snapped to the nearest integer when it is within `1e-9` (relative) of it, so that
/// e.g. `0.1 * 30` counts as `3` for loop bounds, indices and multiplicities.
pub(crate) fn snap(x: f64) -> f64 {
    let r = x.round();
    if (x - r).abs() <= INT_TOL * x.abs().max(1.0) {
        r
    } else {
        x
    }
}

/// The loop range `ceil(lo) ..= floor(hi)` (after [`snap`]), checked to be finite integers
/// that `f64` counts exactly.
pub(crate) fn int_range(lo: f64, hi: f64) -> Result<(f64, f64), String> {
    if !lo.is_finite() || !hi.is_finite() {
        return Err(format!("the range {lo} ..= {hi} has a non-finite bound"));
    }
    let (a, b) = (snap(lo).ceil(), snap(hi).floor());
    const BIG: f64 = 9.0e15;
    if a.abs() > BIG || b.abs() > BIG {
        return Err(format!("the range {lo} ..= {hi} has a bound beyond ±9e15"));
    }
    Ok((a, b))
}

/// A lowered numeric expression.
#[derive(Clone, Debug)]
pub(crate) enum Ev {
    /// A value known before the run.
    Const(f64),
    /// The value of a frame slot.
    Slot(u32),
    /// Anything else, compiled over the frame.
    Code(Box<Compiled>),
}

/// A lowered condition of an `if` term.
#[derive(Clone, Debug)]
pub(crate) enum Cnd {
    /// Known before the run.
    Const(bool),
    /// Evaluated (and sampled) when reached.
    Code(Box<CompiledCond>),
}

/// Lowers expressions of one scope: `scope[k]` is the variable held in frame slot `k`
/// (the innermost binding wins), every other name must be a bound parameter.
pub(crate) struct Resolver<'a> {
    /// Frame slot names, slot order.
    pub scope: &'a [Name],
    /// Parameter values.
    pub params: &'a BTreeMap<Name, Rational>,
}

impl Resolver<'_> {
    /// Slot names for the compiler: a shadowed binding gets a name no expression uses.
    fn slots(&self) -> Vec<Name> {
        let mut out: Vec<Name> = Vec::with_capacity(self.scope.len());
        for (k, n) in self.scope.iter().enumerate() {
            if self.scope[k + 1..].contains(n) {
                out.push(Name::from(format!("\u{0}shadowed{k}").as_str()));
            } else {
                out.push(n.clone());
            }
        }
        out
    }

    /// The free variables of an expression that are parameters, with their values.
    fn param_values(
        &self,
        free: impl IntoIterator<Item = Name>,
    ) -> Result<Vec<(Name, Expr)>, String> {
        let mut out = Vec::new();
        for n in free {
            if self.scope.contains(&n) {
                continue;
            }
            match self.params.get(&n) {
                Some(v) => out.push((n, Expr::Num(v.clone()))),
                None => {
                    return Err(format!(
                        "`{n}` has no value (not a bound parameter or a variable in scope)"
                    ))
                }
            }
        }
        Ok(out)
    }

    /// Lowers a numeric expression; `Err` names a variable without a value.
    pub fn expr(&self, e: &Expr) -> Result<Ev, String> {
        if let Expr::Var(n) = e {
            if let Some(k) = self.scope.iter().rposition(|s| s == n) {
                return Ok(Ev::Slot(k as u32));
            }
        }
        let free = e.free_vars();
        let in_scope = free.iter().any(|n| self.scope.contains(n));
        let e = e.substitute_all(&self.param_values(free)?);
        if in_scope {
            let code = Compiled::new(&e, &self.slots()).map_err(|err| err.to_string())?;
            return Ok(Ev::Code(Box::new(code)));
        }
        let code = Compiled::new(&e, &[]).map_err(|err| err.to_string())?;
        Ok(match code.eval(&[]) {
            Ok(v) => Ev::Const(v),
            Err(_) => Ev::Code(Box::new(code)),
        })
    }

    /// Lowers a condition; a deterministic condition without frame variables becomes a
    /// constant.
    pub fn cond(&self, c: &Cond) -> Result<Cnd, String> {
        let free = c.free_vars();
        let in_scope = free.iter().any(|n| self.scope.contains(n));
        let pairs = self.param_values(free)?;
        let mut c = c.clone();
        for (n, v) in &pairs {
            c = c.substitute(n, v);
        }
        let slots = if in_scope { self.slots() } else { Vec::new() };
        let code = CompiledCond::new(&c, &slots).map_err(|err| err.to_string())?;
        if !in_scope && !c.is_stochastic() {
            if let Ok(b) = code.sample(&[], &mut |_| false) {
                return Ok(Cnd::Const(b));
            }
        }
        Ok(Cnd::Code(Box::new(code)))
    }
}

impl Ev {
    /// The value in the frame `vals`.
    #[inline]
    pub fn eval(&self, vals: &[f64]) -> Result<f64, String> {
        match self {
            Ev::Const(v) => Ok(*v),
            Ev::Slot(s) => Ok(vals[*s as usize]),
            Ev::Code(c) => c.eval(vals).map_err(|e| e.to_string()),
        }
    }
}

impl Cnd {
    /// Evaluates the condition in the frame `vals`, drawing `coin(p)` for each `prob(p)`
    /// that decides it.
    #[inline]
    pub fn sample(&self, vals: &[f64], coin: &mut dyn FnMut(f64) -> bool) -> Result<bool, String> {
        match self {
            Cnd::Const(b) => Ok(*b),
            Cnd::Code(c) => c.sample(vals, coin).map_err(|e| e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> BTreeMap<Name, Rational> {
        let mut m = BTreeMap::new();
        m.insert(Name::from("N"), Rational::from_integer(10.into()));
        m
    }

    #[test]
    fn constants_fold_and_slots_resolve() {
        let p = params();
        let scope = [Name::from("i"), Name::from("j")];
        let r = Resolver {
            scope: &scope,
            params: &p,
        };
        let e = Expr::var("N") * Expr::int(2) + Expr::int(1);
        assert!(matches!(r.expr(&e).unwrap(), Ev::Const(v) if v == 21.0));
        assert!(matches!(r.expr(&Expr::var("j")).unwrap(), Ev::Slot(1)));
        let e = Expr::Mod(
            Box::new(Expr::var("i") - Expr::var("N")),
            Box::new(Expr::int(3)),
        );
        assert_eq!(r.expr(&e).unwrap().eval(&[1.0, 0.0]).unwrap(), 0.0); // (1-10) mod 3
        assert!(r.expr(&Expr::var("zz")).is_err());
    }

    #[test]
    fn shadowed_variables_resolve_to_the_innermost_slot() {
        let p = params();
        let scope = [Name::from("i"), Name::from("i")];
        let r = Resolver {
            scope: &scope,
            params: &p,
        };
        let e = Expr::var("i") * Expr::int(2);
        assert_eq!(r.expr(&e).unwrap().eval(&[1.0, 5.0]).unwrap(), 10.0);
        assert!(matches!(r.expr(&Expr::var("i")).unwrap(), Ev::Slot(1)));
    }

    #[test]
    fn constant_conditions_fold_and_errors_are_deferred() {
        let p = params();
        let r = Resolver {
            scope: &[],
            params: &p,
        };
        let c = Cond::cmp(expr::CmpOp::Gt, Expr::var("N"), Expr::int(3));
        assert!(matches!(r.cond(&c).unwrap(), Cnd::Const(true)));
        assert!(matches!(
            r.cond(&Cond::Prob(Expr::ratio(1, 2))).unwrap(),
            Cnd::Code(_)
        ));
        let ev = r.expr(&Expr::div(Expr::int(1), Expr::zero())).unwrap();
        assert!(ev.eval(&[]).unwrap_err().contains("division by zero"));
    }

    #[test]
    fn ranges_round_like_folds() {
        assert_eq!(int_range(0.5, 2.5).unwrap(), (1.0, 2.0));
        assert_eq!(int_range(1.0, 0.1 * 30.0).unwrap(), (1.0, 3.0));
        assert_eq!(int_range(1.0, 2.999_999_999_999_999_6).unwrap(), (1.0, 3.0));
        assert!(int_range(1.0, f64::INFINITY).is_err());
        assert!(int_range(1.0, 1e17).is_err());
    }
}
