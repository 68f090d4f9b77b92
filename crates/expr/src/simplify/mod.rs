//! Bringing expressions to a canonical and, where the structure allows, closed form.
//!
//! The simplifier works bottom-up. Sums and products are kept in a polynomial normal form
//! (module `arith`); `min`/`max` drop operands that another provably dominates and factor out
//! common non-negative monomials (`max(N*a, N*P*b)` becomes `N*max(a, P*b)`); folds over
//! ranges are reduced by the rules in module `fold` (constant bodies, linearity, power sums,
//! counting of conditions over the index, maxima of resource demand per family member);
//! stochastic conditionals become expectations. Decisions about signs and comparisons come
//! from a sound interval prover (module `prove`) that reads the [`Assumptions`].
//!
//! Whatever the simplifier cannot reduce stays as an evaluable fold, so the result is always
//! equal to the input at every point where the input is defined.

mod arith;
mod fold;
mod prove;

pub use arith::factor_for_display;

use crate::assume::{Assumptions, VarInfo};
use crate::node::{CmpOp, Cond, Expr, Fold, FoldOp, Name, Rational};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use prove::Prover;

/// Simplifies `e` under assumptions `a`.
pub fn simplify(e: &Expr, a: &Assumptions) -> Expr {
    Simplifier::new(a.clone()).simplify(e)
}

/// Simplifies a condition under assumptions `a`.
pub fn simplify_cond(c: &Cond, a: &Assumptions) -> Cond {
    Simplifier::new(a.clone()).cond(c)
}

/// A simplifier with a scoped set of assumptions; engines that build expressions inside
/// loops push the loop variable's range while they work on the body.
#[derive(Clone, Debug)]
pub struct Simplifier {
    assume: Assumptions,
    /// Names hidden by [`Simplifier::push_var`], restored by [`Simplifier::pop_var`].
    saved: Vec<(Name, Option<VarInfo>)>,
    /// Fold variables ranging over the members of a resource family: every index compared
    /// with them is a valid member, so `max_m if(e == m, x, 0)` is `x`.
    members: Vec<Name>,
}

impl Simplifier {
    /// A simplifier under the given assumptions.
    pub fn new(assume: Assumptions) -> Self {
        Simplifier {
            assume,
            saved: Vec::new(),
            members: Vec::new(),
        }
    }

    /// The current assumptions.
    pub fn assumptions(&self) -> &Assumptions {
        &self.assume
    }

    /// Brings a variable into scope with the given facts (shadowing any previous ones).
    pub fn push_var(&mut self, name: &str, info: VarInfo) {
        let old = self.assume.remove(name);
        self.saved.push((Name::from(name), old));
        self.assume.set(name, info);
    }

    /// Brings an integer loop variable `lo ..= hi` into scope.
    pub fn push_range(&mut self, name: &str, lo: &Expr, hi: &Expr) {
        self.push_var(
            name,
            VarInfo {
                integer: true,
                lower: Some(lo.clone()),
                upper: Some(hi.clone()),
                definition: None,
            },
        );
    }

    /// Undoes the most recent [`Simplifier::push_var`] / [`Simplifier::push_range`].
    pub fn pop_var(&mut self) {
        if let Some((name, old)) = self.saved.pop() {
            self.assume.remove(&name);
            if let Some(info) = old {
                self.assume.set(&name, info);
            }
        }
    }

    /// Declares `name` a member variable of a resource family: in `max` folds over it, an
    /// equality `e == name` is taken to have a solution (the model's indices are valid).
    pub fn declare_member_var(&mut self, name: &str) {
        self.members.push(Name::from(name));
    }

    fn prover(&self) -> Prover<'_> {
        Prover {
            assume: &self.assume,
        }
    }

    /// Proves `e >= 0`.
    pub fn nonneg(&self, e: &Expr) -> bool {
        self.prover().nonneg(e)
    }

    /// Proves `a <= b`.
    pub fn le(&self, a: &Expr, b: &Expr) -> bool {
        self.prover().nonneg(&arith::sub(b.clone(), a.clone()))
    }

    /// Whether `e` provably takes only integer values.
    pub fn is_integer(&self, e: &Expr) -> bool {
        match e {
            Expr::Num(r) => r.is_integer(),
            Expr::Var(v) => self.assume.get(v).is_some_and(|i| i.integer),
            Expr::Add(v) | Expr::Max(v) | Expr::Min(v) => v.iter().all(|x| self.is_integer(x)),
            Expr::Mul(v) => v.iter().all(|x| self.is_integer(x)),
            Expr::Pow(b, k) => *k >= 0 && self.is_integer(b),
            Expr::Floor(_) | Expr::Ceil(_) | Expr::Gcd(..) => true,
            Expr::Mod(a, b) => self.is_integer(a) && self.is_integer(b),
            Expr::Fold(fd) => fd.op != FoldOp::Sum || self.is_integer(&fd.body),
            Expr::If(_, a, b) => self.is_integer(a) && self.is_integer(b),
            // An integer exponent makes a real power an integer power.
            Expr::Power(b, x) => self.is_integer(b) && self.is_integer(x) && self.nonneg(x),
            Expr::Log(_) | Expr::Log2(_) => false,
        }
    }

    /// Simplifies an expression.
    pub fn simplify(&mut self, e: &Expr) -> Expr {
        match e {
            Expr::Num(_) | Expr::Var(_) => e.clone(),
            Expr::Add(ts) => {
                let ts: Vec<Expr> = ts.iter().map(|t| self.simplify(t)).collect();
                let dens = denominators(&ts);
                let r = arith::add(ts);
                self.keep_undefined(dens, r)
            }
            Expr::Mul(fs) => {
                let fs: Vec<Expr> = fs.iter().map(|f| self.simplify(f)).collect();
                let dens = denominators(&fs);
                let r = arith::mul(fs);
                self.keep_undefined(dens, r)
            }
            Expr::Pow(b, k) => {
                let b = self.simplify(b);
                self.int_pow(b, *k)
            }
            Expr::Power(b, x) => {
                let (b, x) = (self.simplify(b), self.simplify(x));
                self.power(b, x)
            }
            Expr::Max(v) => {
                let v = v.iter().map(|x| self.simplify(x)).collect();
                self.extremum(v, true)
            }
            Expr::Min(v) => {
                let v = v.iter().map(|x| self.simplify(x)).collect();
                self.extremum(v, false)
            }
            Expr::Floor(a) => {
                let a = self.simplify(a);
                self.round(a, true)
            }
            Expr::Ceil(a) => {
                let a = self.simplify(a);
                self.round(a, false)
            }
            Expr::Mod(a, b) => {
                let (a, b) = (self.simplify(a), self.simplify(b));
                self.modulo(a, b)
            }
            Expr::Gcd(a, b) => {
                let (a, b) = (self.simplify(a), self.simplify(b));
                self.gcd(a, b)
            }
            Expr::Log(a) => {
                let a = self.simplify(a);
                if a.is_int(1) {
                    Expr::zero()
                } else {
                    Expr::Log(Box::new(a))
                }
            }
            Expr::Log2(a) => {
                let a = self.simplify(a);
                match a.as_num().and_then(crate::exact::log2_exact) {
                    Some(k) => Expr::int(k),
                    None => Expr::Log2(Box::new(a)),
                }
            }
            Expr::Fold(fd) => self.fold(fd),
            Expr::If(c, a, b) => {
                let c = self.cond(c);
                self.ite(c, a, b)
            }
        }
    }

    /// `b^k` for a simplified base, kept undefined where `b` divided by zero.
    fn int_pow(&self, b: Expr, k: i32) -> Expr {
        let dens = denominators(std::slice::from_ref(&b));
        let r = arith::pow(b, k);
        self.keep_undefined(dens, r)
    }

    /// The real power `b^x` of simplified operands. An integer constant exponent makes it
    /// the integer power `Pow` (the same value everywhere: `x^0` is 1, `x^1` is `x`); a
    /// constant power with a rational value is folded (`4^(1/2)` is 2, `8^(2/3)` is 4);
    /// anything else stays a real power of its simplified operands (products of real powers
    /// of one base are not merged, nor powers of powers).
    fn power(&self, b: Expr, x: Expr) -> Expr {
        if let Some(e) = x.as_num() {
            if e.is_integer() {
                if let Some(k) = e.numer().to_i32() {
                    return self.int_pow(b, k);
                }
            } else if let Some(v) = b.as_num().and_then(|v| constant_power(v, e)) {
                return Expr::Num(v);
            }
        }
        Expr::Power(Box::new(b), Box::new(x))
    }

    /// `r`, the simplified form of an expression whose operands divided by each of `dens`,
    /// guarded so that it stays undefined where the input was: a denominator that
    /// simplification cancelled (`x/x`, `0/x`, `x*(1/x)`, `1/x - 1/x`) and that the prover
    /// cannot show to be non-zero becomes `if(d != 0, r, 1/d)`, whose evaluation at `d = 0`
    /// fails with the division by zero the input would give.
    fn keep_undefined(&self, dens: Vec<Expr>, r: Expr) -> Expr {
        if dens.is_empty() {
            return r;
        }
        let kept = denominators(std::slice::from_ref(&r));
        let mut out = r;
        for d in dens {
            if kept.contains(&d) || self.prover().positive(&d) || self.prover().negative(&d) {
                continue;
            }
            let undefined = arith::pow(d.clone(), -1);
            out = Expr::If(
                Box::new(Cond::Cmp(CmpOp::Ne, d, Expr::zero())),
                Box::new(out),
                Box::new(undefined),
            );
        }
        out
    }

    /// `gcd(a, b)`, folded only where that is exact: both integers, or `gcd(a, ±1)` and
    /// `gcd(a, a)` for a provably integer (and, for the latter, non-negative) `a`; otherwise
    /// kept, so that its evaluation rejects fractions as the simulator does.
    pub(crate) fn gcd(&self, a: Expr, b: Expr) -> Expr {
        if let (Some(x), Some(y)) = (a.as_num(), b.as_num()) {
            if x.is_integer() && y.is_integer() {
                return Expr::Num(Rational::from_integer(x.numer().gcd(y.numer())));
            }
        }
        if a == b && self.is_integer(&a) && self.nonneg(&a) {
            return a;
        }
        let unit = |r: &Expr| r.as_num().is_some_and(|r| r.abs().is_one());
        if (unit(&a) && self.is_integer(&b)) || (unit(&b) && self.is_integer(&a)) {
            return Expr::one();
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        Expr::Gcd(Box::new(a), Box::new(b))
    }

    fn ite(&mut self, c: Cond, a: &Expr, b: &Expr) -> Expr {
        match c {
            Cond::Const(true) => self.simplify(a),
            Cond::Const(false) => self.simplify(b),
            c if c.is_stochastic() && !self.probabilities_valid(&c) => {
                // A probability that may lie outside [0, 1]: kept, so that evaluation
                // rejects it as the simulator does.
                let (a, b) = (self.simplify(a), self.simplify(b));
                Expr::If(Box::new(c), Box::new(a), Box::new(b))
            }
            c if c.is_stochastic() => {
                // Expectation: P(c)*a + (1 - P(c))*b.
                let p = self.probability(&c);
                let (a, b) = (self.simplify(a), self.simplify(b));
                let q = arith::sub(Expr::one(), p.clone());
                arith::add(vec![arith::mul(vec![p, a]), arith::mul(vec![q, b])])
            }
            c => {
                let (a, b) = (self.simplify(a), self.simplify(b));
                if a == b {
                    a
                } else {
                    Expr::If(Box::new(c), Box::new(a), Box::new(b))
                }
            }
        }
    }

    /// Whether every `prob(p)` atom of `c` provably has `0 <= p <= 1`.
    fn probabilities_valid(&self, c: &Cond) -> bool {
        match c {
            Cond::Prob(p) => self.nonneg(p) && self.nonneg(&arith::sub(Expr::one(), p.clone())),
            Cond::And(v) | Cond::Or(v) => v.iter().all(|x| self.probabilities_valid(x)),
            Cond::Not(x) => self.probabilities_valid(x),
            _ => true,
        }
    }

    /// The probability that a (simplified, possibly stochastic) condition holds, as an
    /// expression; independent `prob` atoms multiply.
    fn probability(&mut self, c: &Cond) -> Expr {
        match c {
            Cond::Const(b) => Expr::int(*b as i64),
            Cond::Prob(p) => self.simplify(p),
            Cond::And(v) => {
                let ps = v.iter().map(|x| self.probability(x)).collect();
                arith::mul(ps)
            }
            Cond::Or(v) => {
                let qs = v
                    .iter()
                    .map(|x| {
                        let p = self.probability(x);
                        arith::sub(Expr::one(), p)
                    })
                    .collect();
                arith::sub(Expr::one(), arith::mul(qs))
            }
            Cond::Not(x) => {
                let p = self.probability(x);
                arith::sub(Expr::one(), p)
            }
            det => Expr::If(
                Box::new(det.clone()),
                Box::new(Expr::one()),
                Box::new(Expr::zero()),
            ),
        }
    }

    /// Simplifies a condition: folds constants and decides comparisons the prover can.
    pub fn cond(&mut self, c: &Cond) -> Cond {
        match c {
            Cond::Const(_) => c.clone(),
            Cond::Prob(p) => {
                let p = self.simplify(p);
                match p.as_num() {
                    Some(r) if r.is_zero() => Cond::Const(false),
                    Some(r) if r.is_one() => Cond::Const(true),
                    _ => Cond::Prob(p),
                }
            }
            Cond::Cmp(op, a, b) => {
                let (a, b) = (self.simplify(a), self.simplify(b));
                self.compare(*op, a, b)
            }
            Cond::Not(x) => match self.cond(x) {
                Cond::Const(b) => Cond::Const(!b),
                Cond::Cmp(op, a, b) => Cond::Cmp(op.negate(), a, b),
                Cond::Not(y) => *y,
                other => Cond::Not(Box::new(other)),
            },
            Cond::And(v) => self.junction(v, true),
            Cond::Or(v) => self.junction(v, false),
        }
    }

    /// The `and` (`is_and`) or `or` of the simplified operands `v`: nested ones of the same
    /// kind flattened, the neutral constant and repeated neighbours dropped, and the absorbing
    /// constant as soon as an operand is it.
    fn junction(&mut self, v: &[Cond], is_and: bool) -> Cond {
        let mut out = Vec::new();
        for x in v {
            match self.cond(x) {
                Cond::Const(b) if b == is_and => {}
                Cond::Const(b) => return Cond::Const(b),
                Cond::And(inner) if is_and => out.extend(inner),
                Cond::Or(inner) if !is_and => out.extend(inner),
                other => out.push(other),
            }
        }
        out.dedup();
        match out.len() {
            0 => Cond::Const(is_and),
            1 => out.pop().expect("one"),
            _ if is_and => Cond::And(out),
            _ => Cond::Or(out),
        }
    }

    /// `a op b` with simplified operands: decided when the prover can, else kept.
    fn compare(&self, op: CmpOp, a: Expr, b: Expr) -> Cond {
        let d = arith::sub(b.clone(), a.clone()); // b - a
        if let Some(r) = d.as_num() {
            let z = Rational::zero();
            return Cond::Const(op.flip().holds(r, &z));
        }
        let p = self.prover();
        let (ge0, gt0, le0, lt0) = (p.nonneg(&d), p.positive(&d), p.nonpos(&d), p.negative(&d));
        // a op b  <=>  (b - a) op.flip() 0
        let decided = match op {
            CmpOp::Lt => gt0.then_some(true).or(le0.then_some(false)),
            CmpOp::Le => ge0.then_some(true).or(lt0.then_some(false)),
            CmpOp::Gt => lt0.then_some(true).or(ge0.then_some(false)),
            CmpOp::Ge => le0.then_some(true).or(gt0.then_some(false)),
            CmpOp::Eq => (gt0 || lt0).then_some(false),
            CmpOp::Ne => (gt0 || lt0).then_some(true),
        };
        match decided {
            Some(b) => Cond::Const(b),
            None => Cond::Cmp(op, a, b),
        }
    }

    /// `max` (or `min`) of simplified operands: flattened, constants merged, dominated
    /// operands dropped, common non-negative monomial factored out.
    fn extremum(&self, items: Vec<Expr>, is_max: bool) -> Expr {
        let mut flat: Vec<Expr> = Vec::new();
        let mut konst: Option<Rational> = None;
        let mut stack = items;
        stack.reverse();
        while let Some(x) = stack.pop() {
            match x {
                Expr::Max(inner) if is_max => stack.extend(inner.into_iter().rev()),
                Expr::Min(inner) if !is_max => stack.extend(inner.into_iter().rev()),
                Expr::Num(r) => {
                    konst = Some(match konst {
                        None => r,
                        Some(k) => {
                            if (r > k) == is_max {
                                r
                            } else {
                                k
                            }
                        }
                    })
                }
                x => flat.push(x),
            }
        }
        if let Some(k) = konst {
            flat.push(Expr::Num(k));
        }
        flat.sort();
        flat.dedup();
        // Drop dominated operands.
        let mut keep = vec![true; flat.len()];
        for i in 0..flat.len() {
            for j in 0..flat.len() {
                if i == j || !keep[j] || !keep[i] {
                    continue;
                }
                let dominated = if is_max {
                    self.le(&flat[i], &flat[j])
                } else {
                    self.le(&flat[j], &flat[i])
                };
                if dominated {
                    keep[i] = false;
                }
            }
        }
        let mut v: Vec<Expr> = flat
            .into_iter()
            .zip(keep)
            .filter_map(|(x, k)| k.then_some(x))
            .collect();
        if v.len() == 1 {
            return v.pop().expect("one");
        }
        // Factor out a common monomial that is provably non-negative.
        let monos: Vec<arith::Mono> = v.iter().map(arith::content).collect();
        let common: arith::Mono = arith::common_mono(&monos)
            .into_iter()
            .filter(|(b, k)| self.nonneg(&arith::pow(b.clone(), *k)))
            .collect();
        if !common.is_empty() && v.iter().all(|x| x.as_num().is_none()) {
            let inner: Vec<Expr> = v.iter().map(|x| arith::div_mono(x, &common)).collect();
            let inner = self.extremum(inner, is_max);
            let factor = arith::build_term(Rational::one(), common);
            return arith::mul(vec![factor, inner]);
        }
        v.sort();
        if is_max {
            Expr::Max(v)
        } else {
            Expr::Min(v)
        }
    }

    /// `floor(a)` (or `ceil(a)`): constants evaluated, integers kept, integer terms of a sum
    /// moved outside.
    fn round(&self, a: Expr, floor: bool) -> Expr {
        if let Some(r) = a.as_num() {
            return Expr::Num(if floor { r.floor() } else { r.ceil() });
        }
        if self.is_integer(&a) {
            return a;
        }
        if let Expr::Add(ts) = &a {
            let (ints, rest): (Vec<Expr>, Vec<Expr>) =
                ts.iter().cloned().partition(|t| self.is_integer(t));
            if !ints.is_empty() {
                let inner = self.round(arith::add(rest), floor);
                let mut all = ints;
                all.push(inner);
                return arith::add(all);
            }
        }
        if floor {
            Expr::Floor(Box::new(a))
        } else {
            Expr::Ceil(Box::new(a))
        }
    }

    fn modulo(&self, a: Expr, b: Expr) -> Expr {
        if let (Some(x), Some(y)) = (a.as_num(), b.as_num()) {
            if !y.is_zero() {
                return Expr::Num(x - y * (x / y).floor());
            }
        }
        // a already in [0, b): a mod b = a.
        if self.nonneg(&a) && self.prover().positive(&arith::sub(b.clone(), a.clone())) {
            return a;
        }
        Expr::Mod(Box::new(a), Box::new(b))
    }

    fn fold(&mut self, fd: &Fold) -> Expr {
        fold::simplify_fold(self, fd)
    }
}

/// The bases that `exprs` divide by at their top level: `b` of a factor `b^k` with `k < 0`,
/// in the operands themselves, their factors, and the factors of their terms.
fn denominators(exprs: &[Expr]) -> Vec<Expr> {
    fn walk(e: &Expr, depth: u8, out: &mut Vec<Expr>) {
        match e {
            Expr::Pow(b, k) if *k < 0 && !out.contains(b) => out.push((**b).clone()),
            Expr::Mul(v) | Expr::Add(v) if depth < 2 => {
                for x in v {
                    walk(x, depth + 1, out);
                }
            }
            Expr::If(_, a, b) if depth < 2 => {
                walk(a, depth + 1, out);
                walk(b, depth + 1, out);
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for e in exprs {
        walk(e, 0, &mut out);
    }
    out
}

/// Largest exponent numerator [`constant_power`] multiplies out.
const MAX_FOLDED_POWER: i64 = 64;

/// `b^e` for constants with a non-integer `e`, when that is a rational number of moderate
/// size; `None` when it is irrational, large or undefined (negative `b`, `0` to a negative
/// power), so that the power is kept and its evaluation reports the error.
fn constant_power(b: &Rational, e: &Rational) -> Option<Rational> {
    if b.is_zero() {
        return e.is_positive().then(Rational::zero);
    }
    let p = e.numer().to_i64().filter(|p| p.abs() <= MAX_FOLDED_POWER)?;
    let q = e.denom().to_u32()?;
    let root = crate::exact::rational_root(b, q)?;
    Some(arith::pow_rational(&root, i32::try_from(p).ok()?))
}

/// A rational as `f64` (for tests).
#[cfg(test)]
pub(crate) fn to_f64(r: &Rational) -> f64 {
    num_traits::ToPrimitive::to_f64(r).unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests;
