//! Evaluation of [`Expr`] and [`Cond`] under an environment: exactly over rationals
//! ([`eval_exact`]) or in `f64` ([`eval_f64`]).
//!
//! Both follow the semantics documented on [`Expr`]: floored `mod`, natural `log`, binary
//! `log2`, real powers (exact only where the value is rational), folds over
//! `ceil(lo) ..= floor(hi)` (empty: 0), and `if(c, a, b)` as the expectation
//! `p*a + (1-p)*b` where `p` is the probability that `c` holds ([`cond_probability_f64`]).
//! A branch whose weight is zero is not evaluated, so `if(x != 0, 1/x, 0)` is fine at `x = 0`;
//! likewise `and`/`or` stop at the first operand that decides them.
//!
//! Evaluation is bounded: [`EvalLimits`] caps the total number of fold iterations (and the
//! size of exact intermediate numbers), so hostile input such as `sum(i = 1..10^18, i)`
//! returns [`EvalError::Limit`] at once instead of hanging.
//!
//! ```
//! use expr::eval::{eval_exact, eval_f64, EvalLimits};
//! use expr::{Expr, Name, Rational};
//! use std::collections::BTreeMap;
//! let e = Expr::var("N") / (Expr::var("P") - Expr::int(4));
//! let mut env = BTreeMap::new();
//! env.insert(Name::from("N"), Rational::from_integer(10.into()));
//! env.insert(Name::from("P"), Rational::from_integer(8.into()));
//! assert_eq!(eval_exact(&e, &env, &EvalLimits::default()).unwrap(), Rational::new(5.into(), 2.into()));
//! env.insert(Name::from("P"), Rational::from_integer(4.into()));
//! let err = eval_exact(&e, &env, &EvalLimits::default()).unwrap_err();
//! assert_eq!(err.to_string(), "division by zero in `N/(P - 4)`");
//! let fenv: BTreeMap<Name, f64> = [(Name::from("N"), 10.0), (Name::from("P"), 8.0)].into();
//! assert_eq!(eval_f64(&e, &fenv, &EvalLimits::default()).unwrap(), 2.5);
//! ```

use crate::node::{Cond, Expr, Fold, FoldOp, Name, Rational};
use crate::number::{format_rational, to_f64};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Pow, Signed, ToPrimitive, Zero};
use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Display};
use std::hash::BuildHasher;
use std::ops::{MulAssign, Sub};
use thiserror::Error;

/// Values of free variables for exact evaluation. Implemented for maps from names and for lists
/// of bindings such as one point of a [`crate::grid::Grid`] (the first match wins).
pub trait Env {
    /// The value of `name`, or `None` if it is unbound.
    fn lookup(&self, name: &str) -> Option<Rational>;
}

/// Values of free variables for `f64` evaluation. Implemented for maps from names and for lists
/// of bindings (the first match wins).
pub trait EnvF64 {
    /// The value of `name`, or `None` if it is unbound.
    fn lookup(&self, name: &str) -> Option<f64>;
}

/// Implements an environment trait `$env` over values `$v` for maps from names and for lists
/// of bindings.
macro_rules! env_impls {
    ($env:ident, $v:ty) => {
        impl $env for BTreeMap<Name, $v> {
            fn lookup(&self, name: &str) -> Option<$v> {
                self.get(name).cloned()
            }
        }

        impl<S: BuildHasher> $env for HashMap<Name, $v, S> {
            fn lookup(&self, name: &str) -> Option<$v> {
                self.get(name).cloned()
            }
        }

        /// A list of bindings; the first match wins.
        impl $env for [(Name, $v)] {
            fn lookup(&self, name: &str) -> Option<$v> {
                self.iter()
                    .find(|(n, _)| &**n == name)
                    .map(|(_, v)| v.clone())
            }
        }

        /// A list of bindings; the first match wins.
        impl $env for Vec<(Name, $v)> {
            fn lookup(&self, name: &str) -> Option<$v> {
                self.as_slice().lookup(name)
            }
        }
    };
}

env_impls!(Env, Rational);
env_impls!(EnvF64, f64);

/// Bounds on the work one evaluation may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalLimits {
    /// Total number of fold iterations over all folds (nested ones included) of one
    /// evaluation. Default `10^8`.
    pub max_fold_iterations: u64,
    /// Exact evaluation only: the largest size, in bits of numerator plus denominator, of any
    /// intermediate rational. Default `2^20` (about 315 000 decimal digits).
    pub max_exact_bits: u64,
}

impl Default for EvalLimits {
    fn default() -> Self {
        EvalLimits {
            max_fold_iterations: 100_000_000,
            max_exact_bits: 1 << 20,
        }
    }
}

impl EvalLimits {
    /// The default limits with a different fold iteration budget.
    pub fn with_fold_iterations(max_fold_iterations: u64) -> Self {
        EvalLimits {
            max_fold_iterations,
            ..EvalLimits::default()
        }
    }
}

/// Which limit of [`EvalLimits`] was hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// [`EvalLimits::max_fold_iterations`].
    FoldIterations,
    /// [`EvalLimits::max_exact_bits`].
    ExactBits,
}

impl Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LimitKind::FoldIterations => "fold iterations",
            LimitKind::ExactBits => "bits in an exact intermediate value",
        })
    }
}

/// Why an evaluation failed. Every message names the offending sub-expression as text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EvalError {
    /// A free variable without a value.
    #[error("no value for `{name}`")]
    UnboundVariable {
        /// The variable.
        name: Name,
    },
    /// A division (`a/b`, `a mod b`) by zero.
    #[error("division by zero in `{expr}`")]
    DivisionByZero {
        /// The expression that divides.
        expr: String,
    },
    /// Zero raised to a power below `-1` (`1/x^2` at `x = 0`).
    #[error("zero raised to a negative power in `{expr}`")]
    ZeroToNegativePower {
        /// The expression.
        expr: String,
    },
    /// The logarithm of zero or a negative number.
    #[error("logarithm of {value}, which is not positive, in `{expr}`")]
    LogOfNonPositive {
        /// The argument's value.
        value: String,
        /// The `log` expression.
        expr: String,
    },
    /// A negative number raised to a non-integer power (`x^(1/2)` at `x = -4`).
    #[error(
        "power of a negative number ({base}) to a fractional exponent ({exponent}) in `{expr}`"
    )]
    NegativeToFractionalPower {
        /// The base's value.
        base: String,
        /// The exponent's value.
        exponent: String,
        /// The power expression.
        expr: String,
    },
    /// An operation that needs integers (`gcd`) got a fraction.
    #[error("`{expr}` needs integer operands but got {value}")]
    NotInteger {
        /// The offending operand value.
        value: String,
        /// The expression.
        expr: String,
    },
    /// `f64` evaluation produced or was given an infinite or NaN value.
    #[error("non-finite value in `{expr}`")]
    NonFinite {
        /// The expression (or variable) whose value is not finite.
        expr: String,
    },
    /// Exact evaluation met an irrational value (a logarithm); use `f64` evaluation.
    #[error("`{expr}` has no exact rational value; evaluate in floating point instead")]
    NotExact {
        /// The expression.
        expr: String,
    },
    /// A limit of [`EvalLimits`] was exceeded.
    #[error("evaluation of `{expr}` exceeds the limit of {limit} {kind}")]
    Limit {
        /// Which limit.
        kind: LimitKind,
        /// Its value.
        limit: u64,
        /// The expression being evaluated when it was hit.
        expr: String,
    },
    /// A `prob(p)` with `p` outside `[0, 1]`.
    #[error("probability {value} is outside [0, 1] in `{expr}`")]
    ProbabilityOutOfRange {
        /// The value of `p`.
        value: String,
        /// The condition.
        expr: String,
    },
    /// A truth value was asked of a stochastic condition that holds with a probability
    /// strictly between 0 and 1.
    #[error(
        "`{expr}` holds only with probability {probability}; it has no single truth value \
         (ask for its probability or sample it instead)"
    )]
    Stochastic {
        /// The probability that the condition holds.
        probability: String,
        /// The condition.
        expr: String,
    },
}

/// At most this many characters of an expression are quoted in an error message.
const SNIPPET_CHARS: usize = 200;

/// The text of `d` for an error message, shortened when very long.
pub(crate) fn snippet(d: &dyn Display) -> String {
    let s = d.to_string();
    if s.chars().count() <= SNIPPET_CHARS {
        s
    } else if let Some(short) = long_integer(&s) {
        short
    } else {
        let mut t: String = s.chars().take(SNIPPET_CHARS).collect();
        t.push('…');
        t
    }
}

/// An integer too long to quote (a value beyond `f64`'s range, bound exactly), written as
/// its leading digits and power of ten: `1.000e400` for the 401 digits of 10^400.
fn long_integer(s: &str) -> Option<String> {
    let (sign, digits) = match s.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let (head, tail) = digits.split_at(1);
    let tail: String = tail.chars().take(3).collect();
    Some(format!("{sign}{head}.{tail:0<3}e{}", digits.len() - 1))
}

/// What went wrong in an `f64` primitive, before the location is known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fault {
    DivZero,
    ZeroNegPow,
    LogNonPositive(f64),
    NegFracPow(f64, f64),
    NotInteger(f64),
    NonFinite,
    ProbRange(f64),
    Limit(u64),
}

impl Fault {
    /// The error, located at `at`.
    pub(crate) fn at(self, at: &dyn Display) -> EvalError {
        let expr = snippet(at);
        match self {
            Fault::DivZero => EvalError::DivisionByZero { expr },
            Fault::ZeroNegPow => EvalError::ZeroToNegativePower { expr },
            Fault::LogNonPositive(v) => EvalError::LogOfNonPositive {
                value: v.to_string(),
                expr,
            },
            Fault::NegFracPow(b, e) => EvalError::NegativeToFractionalPower {
                base: b.to_string(),
                exponent: e.to_string(),
                expr,
            },
            Fault::NotInteger(v) => EvalError::NotInteger {
                value: v.to_string(),
                expr,
            },
            Fault::NonFinite => EvalError::NonFinite { expr },
            Fault::ProbRange(v) => EvalError::ProbabilityOutOfRange {
                value: v.to_string(),
                expr,
            },
            Fault::Limit(limit) => EvalError::Limit {
                kind: LimitKind::FoldIterations,
                limit,
                expr,
            },
        }
    }
}

/// The `f64` primitives, shared by the tree evaluator and [`crate::compile`] so that both
/// give bit-identical results and the same errors.
pub(crate) mod fops {
    use super::Fault;

    #[inline(always)]
    pub(crate) fn finite(x: f64) -> Result<f64, Fault> {
        if x.is_finite() {
            Ok(x)
        } else {
            Err(Fault::NonFinite)
        }
    }

    #[inline(always)]
    pub(crate) fn add(a: f64, b: f64) -> Result<f64, Fault> {
        finite(a + b)
    }

    #[inline(always)]
    pub(crate) fn mul(a: f64, b: f64) -> Result<f64, Fault> {
        finite(a * b)
    }

    /// `a / b`.
    #[inline(always)]
    pub(crate) fn div(a: f64, b: f64) -> Result<f64, Fault> {
        if b == 0.0 {
            return Err(Fault::DivZero);
        }
        finite(a / b)
    }

    /// `a / b^k` for `k >= 2`.
    #[inline]
    pub(crate) fn div_pow(a: f64, b: f64, k: i32) -> Result<f64, Fault> {
        if b == 0.0 {
            return Err(Fault::ZeroNegPow);
        }
        let d = finite(b.powi(k))?;
        if d == 0.0 {
            // Underflow: the true quotient is far beyond f64 range.
            return Err(Fault::NonFinite);
        }
        finite(a / d)
    }

    /// `b^k` for `k >= 0`.
    #[inline]
    pub(crate) fn pow(b: f64, k: i32) -> Result<f64, Fault> {
        finite(b.powi(k))
    }

    /// Floored modulus `a - b*floor(a/b)`, computed exactly via the remainder.
    #[inline]
    pub(crate) fn modulo(a: f64, b: f64) -> Result<f64, Fault> {
        if b == 0.0 {
            return Err(Fault::DivZero);
        }
        finite(modulo_raw(a, b))
    }

    /// [`modulo`] without checks (NaN for `b == 0`).
    #[inline]
    pub(crate) fn modulo_raw(a: f64, b: f64) -> f64 {
        // Integers below 2^53 (the common `i mod P`): exact integer arithmetic, much faster
        // than the floating-point remainder and with the same result.
        const EXACT: f64 = 9_007_199_254_740_992.0;
        if a.abs() < EXACT && b.abs() < EXACT && a.fract() == 0.0 && b.fract() == 0.0 && b != 0.0 {
            let (x, y) = (a as i64, b as i64);
            let r = x % y;
            let r = if r != 0 && ((r < 0) != (y < 0)) {
                r + y
            } else {
                r
            };
            return r as f64;
        }
        modulo_float(a, b)
    }

    /// [`modulo_raw`] by the floating-point remainder, for any `a` and `b`.
    #[inline]
    pub(crate) fn modulo_float(a: f64, b: f64) -> f64 {
        let r = a % b;
        if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
            r + b
        } else if r == 0.0 {
            // Never -0.0: the floored modulus of a multiple is +0.
            0.0
        } else {
            r
        }
    }

    /// Greatest common divisor of two integral values (non-negative).
    pub(crate) fn gcd(a: f64, b: f64) -> Result<f64, Fault> {
        for x in [a, b] {
            if x.fract() != 0.0 {
                return Err(Fault::NotInteger(x));
            }
        }
        Ok(gcd_raw(a, b))
    }

    /// [`gcd`] without the integrality check (meaningless for fractions).
    pub(crate) fn gcd_raw(a: f64, b: f64) -> f64 {
        let (mut x, mut y) = (a.abs(), b.abs());
        while y != 0.0 && y.is_finite() {
            let r = x % y;
            x = y;
            y = r;
        }
        x
    }

    /// The larger of two finite values (the first when equal).
    #[inline(always)]
    pub(crate) fn max(a: f64, b: f64) -> f64 {
        if b > a {
            b
        } else {
            a
        }
    }

    /// The smaller of two finite values (the first when equal).
    #[inline(always)]
    pub(crate) fn min(a: f64, b: f64) -> f64 {
        if b < a {
            b
        } else {
            a
        }
    }

    #[inline]
    pub(crate) fn log(x: f64) -> Result<f64, Fault> {
        if x <= 0.0 {
            return Err(Fault::LogNonPositive(x));
        }
        finite(x.ln())
    }

    #[inline]
    pub(crate) fn log2(x: f64) -> Result<f64, Fault> {
        if x <= 0.0 {
            return Err(Fault::LogNonPositive(x));
        }
        finite(x.log2())
    }

    /// The real power `b^e` (see [`crate::Expr::Power`]): an integer exponent in `i32` range
    /// gives exactly what `Pow` gives (same primitives, same errors), any other exponent
    /// `powf`, defined for `b > 0`, and for `b == 0` when `e > 0`.
    #[inline]
    pub(crate) fn power(b: f64, e: f64) -> Result<f64, Fault> {
        const I32: f64 = i32::MAX as f64;
        if e.fract() == 0.0 {
            if e.abs() <= I32 {
                let k = e as i32;
                return match k {
                    -1 => div(1.0, b),
                    k if k < 0 => div_pow(1.0, b, -k),
                    k => pow(b, k),
                };
            }
            if b == 0.0 && e < 0.0 {
                return Err(Fault::ZeroNegPow);
            }
            return finite(b.powf(e));
        }
        if b > 0.0 {
            finite(b.powf(e))
        } else if b == 0.0 && e > 0.0 {
            Ok(0.0)
        } else if b == 0.0 {
            Err(Fault::ZeroNegPow)
        } else {
            Err(Fault::NegFracPow(b, e))
        }
    }

    /// The expectation `p*a + (1-p)*b`.
    #[inline(always)]
    pub(crate) fn blend(p: f64, a: f64, b: f64) -> Result<f64, Fault> {
        finite(p * a + (1.0 - p) * b)
    }

    #[inline(always)]
    pub(crate) fn prob(p: f64) -> Result<f64, Fault> {
        if (0.0..=1.0).contains(&p) {
            Ok(p)
        } else {
            Err(Fault::ProbRange(p))
        }
    }

    /// The integer range `ceil(lo) ..= floor(hi)` as `(first, count)`, `None` when empty;
    /// charges `count` to `*used` and fails when that exceeds `limit`.
    #[inline]
    pub(crate) fn fold_range(
        lo: f64,
        hi: f64,
        used: &mut u64,
        limit: u64,
    ) -> Result<Option<(f64, u64)>, Fault> {
        // `+ 0.0` turns the `-0.0` that the ceiling of a value in `(-1, 0)` is into `0.0`,
        // so the variable's first value is the same however the evaluator steps it.
        let first = finite(lo.ceil())? + 0.0;
        let last = finite(hi.floor())?;
        if last < first {
            return Ok(None);
        }
        // Saturating float-to-int conversion: absurd counts become u64::MAX.
        let count = (last - first + 1.0) as u64;
        charge(count, used, limit)?;
        Ok(Some((first, count)))
    }

    /// Charges `count` fold iterations to `*used`; fails, charging nothing, when that would
    /// exceed `limit`.
    #[inline]
    pub(crate) fn charge(count: u64, used: &mut u64, limit: u64) -> Result<(), Fault> {
        if count > limit.saturating_sub(*used) {
            return Err(Fault::Limit(limit));
        }
        *used += count;
        Ok(())
    }

    /// The fold's starting accumulator.
    #[inline(always)]
    pub(crate) fn fold_init(op: crate::node::FoldOp) -> f64 {
        match op {
            crate::node::FoldOp::Sum => 0.0,
            crate::node::FoldOp::Max => f64::NEG_INFINITY,
            crate::node::FoldOp::Min => f64::INFINITY,
        }
    }

    /// One fold step.
    #[inline(always)]
    pub(crate) fn fold_step(op: crate::node::FoldOp, acc: f64, v: f64) -> Result<f64, Fault> {
        match op {
            crate::node::FoldOp::Sum => add(acc, v),
            crate::node::FoldOp::Max => Ok(max(acc, v)),
            crate::node::FoldOp::Min => Ok(min(acc, v)),
        }
    }
}

/// Evaluates `e` exactly.
///
/// # Errors
/// [`EvalError::NotExact`] for a logarithm of anything but 1 (a binary logarithm of anything
/// but a power of two) and for a real power whose value is irrational, and every error of
/// [`EvalError`] that applies to exact arithmetic.
pub fn eval_exact(e: &Expr, env: &dyn Env, limits: &EvalLimits) -> Result<Rational, EvalError> {
    Exact::new(env, limits).eval(e)
}

/// The probability, exactly, that `c` holds: `prob(p)` is `p`, a comparison 0 or 1, `and` the
/// product and `or` one minus the product of the complements (operands independent), `not`
/// the complement.
pub fn cond_probability_exact(
    c: &Cond,
    env: &dyn Env,
    limits: &EvalLimits,
) -> Result<Rational, EvalError> {
    Exact::new(env, limits).prob(c)
}

/// The truth value of `c`, exactly.
///
/// # Errors
/// [`EvalError::Stochastic`] when `c` holds with a probability strictly between 0 and 1.
pub fn eval_cond_exact(c: &Cond, env: &dyn Env, limits: &EvalLimits) -> Result<bool, EvalError> {
    Exact::new(env, limits).truth(c)
}

/// Evaluates `e` in `f64`. Every intermediate value must be finite.
pub fn eval_f64(e: &Expr, env: &dyn EnvF64, limits: &EvalLimits) -> Result<f64, EvalError> {
    Float::new(env, limits).eval(e)
}

/// The probability, in `f64`, that `c` holds (see [`cond_probability_exact`]).
pub fn cond_probability_f64(
    c: &Cond,
    env: &dyn EnvF64,
    limits: &EvalLimits,
) -> Result<f64, EvalError> {
    Float::new(env, limits).prob(c)
}

/// The truth value of `c`, in `f64`.
///
/// # Errors
/// [`EvalError::Stochastic`] when `c` holds with a probability strictly between 0 and 1.
pub fn eval_cond_f64(c: &Cond, env: &dyn EnvF64, limits: &EvalLimits) -> Result<bool, EvalError> {
    Float::new(env, limits).truth(c)
}

/// Evaluator state over values `V` and an environment `E`.
struct State<'a, E: ?Sized, V> {
    env: &'a E,
    limits: &'a EvalLimits,
    iterations: u64,
    /// Bound fold variables, innermost last.
    scope: Vec<(Name, V)>,
}

/// Exact evaluator state.
type Exact<'a> = State<'a, dyn Env + 'a, Rational>;

/// `f64` evaluator state.
type Float<'a> = State<'a, dyn EnvF64 + 'a, f64>;

impl<'a, E: ?Sized, V: Clone> State<'a, E, V> {
    fn new(env: &'a E, limits: &'a EvalLimits) -> Self {
        State {
            env,
            limits,
            iterations: 0,
            scope: Vec::new(),
        }
    }

    /// The value of the innermost bound fold variable called `name`, if any.
    fn bound(&self, name: &Name) -> Option<V> {
        let (_, v) = self.scope.iter().rev().find(|(n, _)| n == name)?;
        Some(v.clone())
    }

    /// Runs `body` with the fold variable `var` bound to `first` (moved on by
    /// [`Self::rebind`]) and unbinds it after.
    fn with_bound<R>(&mut self, var: &Name, first: V, body: impl FnOnce(&mut Self) -> R) -> R {
        self.scope.push((var.clone(), first));
        let r = body(self);
        self.scope.pop();
        r
    }

    /// Sets the innermost bound fold variable to `v`.
    fn rebind(&mut self, v: V) {
        if let Some(slot) = self.scope.last_mut() {
            slot.1 = v;
        }
    }
}

/// How both evaluators read a condition: as the probability that it holds, in their value
/// type `P` (see [`cond_probability_exact`]).
trait Probability {
    type P: Clone + PartialOrd + Zero + One + MulAssign + Sub<Output = Self::P>;

    /// The value of `e`.
    fn value(&mut self, e: &Expr) -> Result<Self::P, EvalError>;

    /// The value of `p` in `c = prob(p)`, checked to lie in `[0, 1]`.
    fn prob_arg(&mut self, p: &Expr, c: &Cond) -> Result<Self::P, EvalError>;

    /// `p` as text, for error messages.
    fn show(p: &Self::P) -> String;

    /// The truth value of `c`: [`EvalError::Stochastic`] when it holds with a probability
    /// strictly between 0 and 1.
    fn truth(&mut self, c: &Cond) -> Result<bool, EvalError> {
        let p = self.prob(c)?;
        if p.is_zero() {
            Ok(false)
        } else if p.is_one() {
            Ok(true)
        } else {
            Err(EvalError::Stochastic {
                probability: Self::show(&p),
                expr: snippet(c),
            })
        }
    }

    /// The probability that `c` holds; `and`/`or` stop at the first operand that decides them.
    fn prob(&mut self, c: &Cond) -> Result<Self::P, EvalError> {
        let bool_p = |b: bool| if b { Self::P::one() } else { Self::P::zero() };
        Ok(match c {
            Cond::Const(b) => bool_p(*b),
            Cond::Cmp(op, a, b) => {
                let a = self.value(a)?;
                let b = self.value(b)?;
                bool_p(op.holds(&a, &b))
            }
            Cond::And(v) => {
                let mut acc = Self::P::one();
                for x in v {
                    acc *= self.prob(x)?;
                    if acc.is_zero() {
                        break;
                    }
                }
                acc
            }
            Cond::Or(v) => {
                let mut none = Self::P::one();
                for x in v {
                    none *= Self::P::one() - self.prob(x)?;
                    if none.is_zero() {
                        break;
                    }
                }
                Self::P::one() - none
            }
            Cond::Not(x) => Self::P::one() - self.prob(x)?,
            Cond::Prob(p) => self.prob_arg(p, c)?,
        })
    }
}

impl Probability for Exact<'_> {
    type P = Rational;

    fn value(&mut self, e: &Expr) -> Result<Rational, EvalError> {
        self.eval(e)
    }

    fn prob_arg(&mut self, p: &Expr, c: &Cond) -> Result<Rational, EvalError> {
        let v = self.eval(p)?;
        if v.is_negative() || v > Rational::one() {
            return Err(EvalError::ProbabilityOutOfRange {
                value: format_rational(&v),
                expr: snippet(c),
            });
        }
        Ok(v)
    }

    fn show(p: &Rational) -> String {
        format_rational(p)
    }
}

impl Probability for Float<'_> {
    type P = f64;

    fn value(&mut self, e: &Expr) -> Result<f64, EvalError> {
        self.eval(e)
    }

    fn prob_arg(&mut self, p: &Expr, c: &Cond) -> Result<f64, EvalError> {
        fops::prob(self.eval(p)?).map_err(|f| f.at(c))
    }

    fn show(p: &f64) -> String {
        p.to_string()
    }
}

fn bits(r: &Rational) -> u64 {
    r.numer().bits() + r.denom().bits()
}

impl Exact<'_> {
    fn too_big(&self, at: &dyn Display) -> EvalError {
        EvalError::Limit {
            kind: LimitKind::ExactBits,
            limit: self.limits.max_exact_bits,
            expr: snippet(at),
        }
    }

    fn lookup(&self, name: &Name) -> Result<Rational, EvalError> {
        self.bound(name)
            .or_else(|| self.env.lookup(name))
            .ok_or_else(|| EvalError::UnboundVariable { name: name.clone() })
    }

    /// `base^k` for any `k`, with errors located at `at`.
    #[inline(never)]
    fn pow(&mut self, base: &Expr, k: i32, at: &Expr) -> Result<Rational, EvalError> {
        let b = self.eval(base)?;
        self.pow_value(&b, k, at)
    }

    /// `b^k` for a value `b`, with errors located at `at`.
    fn pow_value(&self, b: &Rational, k: i32, at: &Expr) -> Result<Rational, EvalError> {
        if b.is_zero() && k < 0 {
            return Err(if k == -1 {
                EvalError::DivisionByZero { expr: snippet(at) }
            } else {
                EvalError::ZeroToNegativePower { expr: snippet(at) }
            });
        }
        let size = b.numer().bits().saturating_sub(1) + b.denom().bits().saturating_sub(1);
        if size.saturating_mul(u64::from(k.unsigned_abs())) > self.limits.max_exact_bits {
            return Err(self.too_big(at));
        }
        Ok(Pow::pow(b, k))
    }

    /// The real power `base^exponent`: exact where the exponent is an integer (as `Pow`) or
    /// the result a rational root, [`EvalError::NotExact`] elsewhere.
    #[inline(never)]
    fn power(&mut self, base: &Expr, exponent: &Expr, at: &Expr) -> Result<Rational, EvalError> {
        let b = self.eval(base)?;
        let e = self.eval(exponent)?;
        if e.is_integer() {
            if let Some(k) = e.numer().to_i32() {
                return self.pow_value(&b, k, at);
            }
            // An exponent beyond i32: only bases 0 and ±1 give a value within the limits.
            return if b.is_zero() {
                if e.is_positive() {
                    Ok(Rational::zero())
                } else {
                    Err(EvalError::ZeroToNegativePower { expr: snippet(at) })
                }
            } else if b.abs().is_one() {
                let odd = e.numer().is_odd();
                Ok(if odd { b } else { Rational::one() })
            } else {
                Err(self.too_big(at))
            };
        }
        if b.is_negative() {
            return Err(EvalError::NegativeToFractionalPower {
                base: format_rational(&b),
                exponent: format_rational(&e),
                expr: snippet(at),
            });
        }
        if b.is_zero() {
            return if e.is_positive() {
                Ok(Rational::zero())
            } else {
                Err(EvalError::ZeroToNegativePower { expr: snippet(at) })
            };
        }
        if b.is_one() {
            return Ok(b);
        }
        let not_exact = || EvalError::NotExact { expr: snippet(at) };
        let q = e.denom().to_u32().ok_or_else(not_exact)?;
        let root = crate::exact::rational_root(&b, q).ok_or_else(not_exact)?;
        match e.numer().to_i32() {
            Some(p) => self.pow_value(&root, p, at),
            None if root.is_one() => Ok(root),
            None => Err(self.too_big(at)),
        }
    }

    /// Dispatches on the node; the work is in small separate functions so that deep trees
    /// use little stack per level.
    fn eval(&mut self, e: &Expr) -> Result<Rational, EvalError> {
        let r = match e {
            Expr::Num(r) => return Ok(r.clone()),
            Expr::Var(n) => return self.lookup(n),
            Expr::Add(v) => self.add(v)?,
            Expr::Mul(v) => self.mul(v, e)?,
            Expr::Pow(b, k) => self.pow(b, *k, e)?,
            Expr::Min(v) | Expr::Max(v) => self.extremum(v, matches!(e, Expr::Max(_)))?,
            Expr::Floor(a) => self.eval(a)?.floor(),
            Expr::Ceil(a) => self.eval(a)?.ceil(),
            Expr::Mod(a, b) => self.modulo(a, b, e)?,
            Expr::Gcd(a, b) => self.gcd(a, b, e)?,
            Expr::Log(a) => self.log(a, e, |x| x.is_one().then_some(0))?,
            Expr::Log2(a) => self.log(a, e, crate::exact::log2_exact)?,
            Expr::Power(b, x) => self.power(b, x, e)?,
            Expr::Fold(fd) => self.fold(fd, e)?,
            Expr::If(c, a, b) => self.ite(c, a, b)?,
        };
        if bits(&r) > self.limits.max_exact_bits {
            return Err(self.too_big(e));
        }
        Ok(r)
    }

    #[inline(never)]
    fn add(&mut self, v: &[Expr]) -> Result<Rational, EvalError> {
        let mut acc = Rational::zero();
        for t in v {
            acc += self.eval(t)?;
        }
        Ok(acc)
    }

    #[inline(never)]
    fn mul(&mut self, v: &[Expr], e: &Expr) -> Result<Rational, EvalError> {
        let mut acc = Rational::one();
        for f in v {
            match f {
                Expr::Pow(b, k) if *k < 0 => acc *= self.pow(b, *k, e)?,
                _ => acc *= self.eval(f)?,
            }
        }
        Ok(acc)
    }

    #[inline(never)]
    fn extremum(&mut self, v: &[Expr], is_max: bool) -> Result<Rational, EvalError> {
        let mut best: Option<Rational> = None;
        for x in v {
            let x = self.eval(x)?;
            best = Some(match best {
                None => x,
                Some(b) if (x > b) == is_max && x != b => x,
                Some(b) => b,
            });
        }
        Ok(best.unwrap_or_else(Rational::zero))
    }

    #[inline(never)]
    fn modulo(&mut self, a: &Expr, b: &Expr, e: &Expr) -> Result<Rational, EvalError> {
        let a = self.eval(a)?;
        let b = self.eval(b)?;
        if b.is_zero() {
            return Err(EvalError::DivisionByZero { expr: snippet(e) });
        }
        let q = (&a / &b).floor();
        Ok(a - b * q)
    }

    #[inline(never)]
    fn gcd(&mut self, a: &Expr, b: &Expr, e: &Expr) -> Result<Rational, EvalError> {
        let a = self.eval(a)?;
        let b = self.eval(b)?;
        for x in [&a, &b] {
            if !x.is_integer() {
                return Err(EvalError::NotInteger {
                    value: format_rational(x),
                    expr: snippet(e),
                });
            }
        }
        Ok(Rational::from_integer(a.numer().gcd(b.numer())))
    }

    /// A logarithm of `a`, whose value at `x > 0` is `exact(x)` where that is an integer (the
    /// natural logarithm at 1, the binary one at powers of two) and not exact elsewhere.
    #[inline(never)]
    fn log(
        &mut self,
        a: &Expr,
        e: &Expr,
        exact: fn(&Rational) -> Option<i64>,
    ) -> Result<Rational, EvalError> {
        let x = self.eval(a)?;
        if !x.is_positive() {
            return Err(EvalError::LogOfNonPositive {
                value: format_rational(&x),
                expr: snippet(e),
            });
        }
        exact(&x)
            .map(|k| Rational::from_integer(k.into()))
            .ok_or_else(|| EvalError::NotExact { expr: snippet(e) })
    }

    #[inline(never)]
    fn ite(&mut self, c: &Cond, a: &Expr, b: &Expr) -> Result<Rational, EvalError> {
        let p = self.prob(c)?;
        if p.is_one() {
            self.eval(a)
        } else if p.is_zero() {
            self.eval(b)
        } else {
            let q = Rational::one() - &p;
            Ok(p * self.eval(a)? + q * self.eval(b)?)
        }
    }

    #[inline(never)]
    fn fold(&mut self, fd: &Fold, e: &Expr) -> Result<Rational, EvalError> {
        let first = self.eval(&fd.lo)?.ceil().to_integer();
        let last = self.eval(&fd.hi)?.floor().to_integer();
        if last < first {
            return Ok(Rational::zero());
        }
        let count = (&last - &first + 1u32).to_u64().unwrap_or(u64::MAX);
        fops::charge(count, &mut self.iterations, self.limits.max_fold_iterations)
            .map_err(|f| f.at(e))?;
        let start = Rational::from_integer(first.clone());
        self.with_bound(&fd.var, start, |s| s.fold_body(fd, first, count))
    }

    fn fold_body(&mut self, fd: &Fold, first: BigInt, count: u64) -> Result<Rational, EvalError> {
        let mut acc: Option<Rational> = None;
        for k in 0..count {
            self.rebind(Rational::from_integer(&first + k));
            let v = self.eval(&fd.body)?;
            acc = Some(match acc {
                None => v,
                Some(a) => match fd.op {
                    FoldOp::Sum => a + v,
                    FoldOp::Max => a.max(v),
                    FoldOp::Min => a.min(v),
                },
            });
        }
        Ok(acc.unwrap_or_else(Rational::zero))
    }
}

impl Float<'_> {
    fn lookup(&self, name: &Name) -> Result<f64, EvalError> {
        if let Some(v) = self.bound(name) {
            return Ok(v);
        }
        let v = self
            .env
            .lookup(name)
            .ok_or_else(|| EvalError::UnboundVariable { name: name.clone() })?;
        fops::finite(v).map_err(|f| f.at(name))
    }

    /// Dispatches on the node; the work is in small separate functions so that deep trees
    /// use little stack per level.
    fn eval(&mut self, e: &Expr) -> Result<f64, EvalError> {
        match e {
            Expr::Num(r) => fops::finite(to_f64(r)).map_err(|f| f.at(e)),
            Expr::Var(n) => self.lookup(n),
            Expr::Add(v) => self.add(v, e),
            Expr::Mul(v) => self.mul(v, e),
            Expr::Pow(b, k) => self.pow(b, *k, e),
            Expr::Min(v) | Expr::Max(v) => self.extremum(v, e),
            Expr::Floor(a) => Ok(self.eval(a)?.floor()),
            Expr::Ceil(a) => Ok(self.eval(a)?.ceil()),
            Expr::Mod(a, b) | Expr::Gcd(a, b) => self.binary(a, b, e),
            Expr::Log(a) => self.log(a, e),
            Expr::Log2(a) => self.log2(a, e),
            Expr::Power(b, x) => self.power(b, x, e),
            Expr::Fold(fd) => self.fold(fd, e),
            Expr::If(c, a, b) => self.ite(c, a, b, e),
        }
    }

    #[inline(never)]
    fn add(&mut self, v: &[Expr], e: &Expr) -> Result<f64, EvalError> {
        let Some((first, rest)) = v.split_first() else {
            return Ok(0.0);
        };
        let mut acc = self.eval(first)?;
        for t in rest {
            let x = self.eval(t)?;
            acc = fops::add(acc, x).map_err(|f| f.at(e))?;
        }
        Ok(acc)
    }

    #[inline(never)]
    fn mul(&mut self, v: &[Expr], e: &Expr) -> Result<f64, EvalError> {
        let mut acc = 1.0;
        for (i, f) in v.iter().enumerate() {
            acc = match f {
                Expr::Pow(b, -1) => {
                    let d = self.eval(b)?;
                    fops::div(acc, d)
                }
                Expr::Pow(b, k) if *k < 0 => {
                    let d = self.eval(b)?;
                    fops::div_pow(acc, d, k.saturating_neg())
                }
                _ if i == 0 => Ok(self.eval(f)?),
                _ => {
                    let x = self.eval(f)?;
                    fops::mul(acc, x)
                }
            }
            .map_err(|f| f.at(e))?;
        }
        Ok(acc)
    }

    #[inline(never)]
    fn pow(&mut self, b: &Expr, k: i32, e: &Expr) -> Result<f64, EvalError> {
        let x = self.eval(b)?;
        match k {
            -1 => fops::div(1.0, x),
            k if k < 0 => fops::div_pow(1.0, x, k.saturating_neg()),
            k => fops::pow(x, k),
        }
        .map_err(|f| f.at(e))
    }

    #[inline(never)]
    fn extremum(&mut self, v: &[Expr], e: &Expr) -> Result<f64, EvalError> {
        let Some((first, rest)) = v.split_first() else {
            return Ok(0.0);
        };
        let is_max = matches!(e, Expr::Max(_));
        let mut acc = self.eval(first)?;
        for x in rest {
            let x = self.eval(x)?;
            acc = if is_max {
                fops::max(acc, x)
            } else {
                fops::min(acc, x)
            };
        }
        Ok(acc)
    }

    #[inline(never)]
    fn binary(&mut self, a: &Expr, b: &Expr, e: &Expr) -> Result<f64, EvalError> {
        let a = self.eval(a)?;
        let b = self.eval(b)?;
        if matches!(e, Expr::Mod(..)) {
            fops::modulo(a, b)
        } else {
            fops::gcd(a, b)
        }
        .map_err(|f| f.at(e))
    }

    #[inline(never)]
    fn log(&mut self, a: &Expr, e: &Expr) -> Result<f64, EvalError> {
        let x = self.eval(a)?;
        fops::log(x).map_err(|f| f.at(e))
    }

    #[inline(never)]
    fn log2(&mut self, a: &Expr, e: &Expr) -> Result<f64, EvalError> {
        let x = self.eval(a)?;
        fops::log2(x).map_err(|f| f.at(e))
    }

    #[inline(never)]
    fn power(&mut self, b: &Expr, x: &Expr, e: &Expr) -> Result<f64, EvalError> {
        let b = self.eval(b)?;
        let x = self.eval(x)?;
        fops::power(b, x).map_err(|f| f.at(e))
    }

    #[inline(never)]
    fn fold(&mut self, fd: &Fold, e: &Expr) -> Result<f64, EvalError> {
        let lo = self.eval(&fd.lo)?;
        let hi = self.eval(&fd.hi)?;
        let range = fops::fold_range(
            lo,
            hi,
            &mut self.iterations,
            self.limits.max_fold_iterations,
        )
        .map_err(|f| f.at(e))?;
        let Some((first, count)) = range else {
            return Ok(0.0);
        };
        self.with_bound(&fd.var, first, |s| s.fold_body(fd, first, count, e))
    }

    #[inline(never)]
    fn ite(&mut self, c: &Cond, a: &Expr, b: &Expr, e: &Expr) -> Result<f64, EvalError> {
        let p = self.prob(c)?;
        if p == 1.0 {
            self.eval(a)
        } else if p == 0.0 {
            self.eval(b)
        } else {
            let a = self.eval(a)?;
            let b = self.eval(b)?;
            fops::blend(p, a, b).map_err(|f| f.at(e))
        }
    }

    fn fold_body(&mut self, fd: &Fold, first: f64, count: u64, e: &Expr) -> Result<f64, EvalError> {
        let mut acc = fops::fold_init(fd.op);
        for k in 0..count {
            self.rebind(first + k as f64);
            let v = self.eval(&fd.body)?;
            acc = fops::fold_step(fd.op, acc, v).map_err(|f| f.at(e))?;
        }
        Ok(acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::q;

    /// A value bound beyond `f64`'s range (`-D tau=1e400`) is quoted by its leading digits
    /// and power of ten, not its 401 digits; other long texts are cut as before.
    #[test]
    fn a_long_integer_is_quoted_short() {
        let big = format!("1{}", "0".repeat(400));
        assert_eq!(snippet(&big), "1.000e400");
        assert_eq!(snippet(&format!("-{}7", "12".repeat(150))), "-1.212e300");
        let long = "x + ".repeat(100);
        assert!(snippet(&long).ends_with('…') && snippet(&long).chars().count() == 201);
        let e = Fault::NonFinite.at(&big);
        assert_eq!(e.to_string(), "non-finite value in `1.000e400`");
    }

    #[test]
    fn exact_basics() {
        let env: BTreeMap<Name, Rational> = [(Name::from("x"), q(3, 2))].into();
        let l = EvalLimits::default();
        let e = Expr::var("x") * Expr::var("x") - Expr::int(1);
        assert_eq!(eval_exact(&e, &env, &l).unwrap(), q(5, 4));
        let m = Expr::Mod(Box::new(Expr::int(-7)), Box::new(Expr::int(3)));
        assert_eq!(eval_exact(&m, &env, &l).unwrap(), q(2, 1));
        let m = Expr::Mod(Box::new(Expr::var("x")), Box::new(Expr::ratio(2, 3)));
        assert_eq!(eval_exact(&m, &env, &l).unwrap(), q(1, 6));
    }

    #[test]
    fn f64_mod_matches_floored_definition() {
        for (a, b, r) in [
            (7.0, 3.0, 1.0),
            (-7.0, 3.0, 2.0),
            (7.0, -3.0, -2.0),
            (-7.0, -3.0, -1.0),
            (6.0, 3.0, 0.0),
            (-6.0, 3.0, 0.0),
        ] {
            assert_eq!(fops::modulo(a, b).unwrap(), r, "{a} mod {b}");
        }
        assert_eq!(fops::modulo(1.0, 0.0), Err(Fault::DivZero));
    }

    #[test]
    fn integer_mod_fast_path_matches_the_remainder() {
        let big = 9_007_199_254_740_990.0;
        for a in [
            -17.0,
            -9.0,
            -1.0,
            0.0,
            1.0,
            5.0,
            12.0,
            1e15 + 3.0,
            -big,
            big,
        ] {
            for b in [-7.0, -3.0, -1.0, 1.0, 2.0, 3.0, 64.0, 1e12 + 1.0, big] {
                let r = fops::modulo_raw(a, b);
                assert_eq!(r, fops::modulo_float(a, b), "{a} mod {b}");
                assert!(r.is_sign_positive() || r != 0.0, "no -0 for {a} mod {b}");
            }
        }
    }

    #[test]
    fn f64_gcd() {
        assert_eq!(fops::gcd(12.0, -18.0).unwrap(), 6.0);
        assert_eq!(fops::gcd(0.0, 0.0).unwrap(), 0.0);
        assert_eq!(fops::gcd(0.0, 5.0).unwrap(), 5.0);
        assert_eq!(fops::gcd(1.5, 3.0), Err(Fault::NotInteger(1.5)));
    }

    #[test]
    fn fold_range_charges_and_limits() {
        let mut used = 0;
        assert_eq!(
            fops::fold_range(0.5, 3.5, &mut used, 10).unwrap(),
            Some((1.0, 3))
        );
        assert_eq!(used, 3);
        assert_eq!(fops::fold_range(3.5, 3.7, &mut used, 10).unwrap(), None);
        assert_eq!(
            fops::fold_range(1.0, 1e300, &mut used, 10),
            Err(Fault::Limit(10))
        );
        assert_eq!(
            fops::fold_range(1.0, 8.0, &mut used, 10),
            Err(Fault::Limit(10))
        );
        assert_eq!(
            fops::fold_range(1.0, 7.0, &mut used, 10).unwrap(),
            Some((1.0, 7))
        );
    }
}
