//! Reducing sums and maxima over integer ranges.
//!
//! Rules, tried in order (each exact; a fold no rule reduces is kept and stays evaluable):
//! - a body independent of the index: `count * body` for a sum, `body` for a maximum
//!   (guarded by `max(0, count)` / `if(hi >= lo, …, 0)` when the range may be empty);
//! - linearity: sums split over `+`, index-independent factors move out; a maximum of a
//!   `max` is the `max` of maxima, independent terms move out;
//! - power sums `Σ i` and `Σ i^2`; a maximum of a linear body is taken at an end;
//! - conditions over the index (`if(c, x, 0)`): the number of indices where `c` holds, for
//!   linear bounds, equalities, `(i + c) mod M == r`, and their `and`/`or`/`not`;
//! - resource families: `max_m Σ_i [g(i) == m]` — the most indices any one member gets —
//!   for affine `g` (1), blocks `floor((i + c)/B)` (B, or an exact closed form when the range
//!   is not aligned) and strides `(k*i + c) mod M` (`ceil(n*gcd(k, M)/M)`);
//! - small constant ranges are unrolled when nothing else applies.

use super::arith;
use super::Simplifier;
use crate::node::{CmpOp, Cond, Expr, Fold, FoldOp, Name};

/// Constant ranges up to this many indices are unrolled when no rule applies.
const UNROLL: i64 = 16;

struct Range<'a> {
    var: &'a Name,
    lo: Expr,
    hi: Expr,
    nonempty: bool,
}

impl Range<'_> {
    fn count(&self) -> Expr {
        arith::add(vec![
            self.hi.clone(),
            arith::neg(self.lo.clone()),
            Expr::one(),
        ])
    }
}

pub(super) fn simplify_fold(s: &mut Simplifier, fd: &Fold) -> Expr {
    let lo = s.simplify(&fd.lo);
    let hi = s.simplify(&fd.hi);
    let lo = if s.is_integer(&lo) {
        lo
    } else {
        s.round(lo, false)
    };
    let hi = if s.is_integer(&hi) {
        hi
    } else {
        s.round(hi, true)
    };
    let count = arith::add(vec![hi.clone(), arith::neg(lo.clone()), Expr::one()]);
    let p = s.prover();
    if p.nonpos(&count) {
        return Expr::zero();
    }
    let nonempty = p.positive(&count);
    let range = Range {
        var: &fd.var,
        lo,
        hi,
        nonempty,
    };
    s.push_range(&fd.var, &range.lo, &range.hi);
    let body = s.simplify(&fd.body);
    let out = match fd.op {
        FoldOp::Sum => sum(s, &range, body.clone()),
        FoldOp::Max | FoldOp::Min => extremum(s, fd.op, &range, body.clone()),
    };
    s.pop_var();
    match out {
        Some(e) => e,
        None => unroll(s, fd, &range, &body).unwrap_or_else(|| keep(fd.op, &range, body)),
    }
}

fn keep(op: FoldOp, r: &Range, body: Expr) -> Expr {
    Expr::Fold(Box::new(Fold {
        op,
        var: r.var.clone(),
        lo: r.lo.clone(),
        hi: r.hi.clone(),
        body,
    }))
}

fn unroll(s: &mut Simplifier, fd: &Fold, r: &Range, body: &Expr) -> Option<Expr> {
    let lo = r.lo.as_num()?.to_integer();
    let hi = r.hi.as_num()?.to_integer();
    let lo: i64 = lo.try_into().ok()?;
    let hi: i64 = hi.try_into().ok()?;
    if hi.checked_sub(lo)? >= UNROLL {
        return None;
    }
    let items: Vec<Expr> = (lo..=hi)
        .map(|k| {
            let e = body.substitute(&fd.var, &Expr::int(k));
            s.simplify(&e)
        })
        .collect();
    if items.is_empty() {
        return Some(Expr::zero());
    }
    Some(match fd.op {
        FoldOp::Sum => arith::add(items),
        FoldOp::Max => s.extremum(items, true),
        FoldOp::Min => s.extremum(items, false),
    })
}

/// `x` where the range is non-empty, 0 elsewhere.
fn guard(s: &mut Simplifier, r: &Range, x: Expr) -> Expr {
    if r.nonempty {
        x
    } else {
        let c = Cond::Cmp(CmpOp::Ge, r.hi.clone(), r.lo.clone());
        s.ite(c, &x, &Expr::zero())
    }
}

/// `max(0, count)`, or `count` when the range is known non-empty.
fn guarded_count(s: &Simplifier, r: &Range) -> Expr {
    let n = r.count();
    if r.nonempty {
        n
    } else {
        s.extremum(vec![Expr::zero(), n], true)
    }
}

/// `(coefficient, rest)` with `e == coefficient*var + rest`, when `e` is linear in `var`.
pub(super) fn linear(e: &Expr, var: &str) -> Option<(Expr, Expr)> {
    let terms: Vec<Expr> = match e {
        Expr::Add(ts) => ts.clone(),
        t => vec![t.clone()],
    };
    let mut coef = Vec::new();
    let mut rest = Vec::new();
    for t in terms {
        if !t.depends_on(var) {
            rest.push(t);
            continue;
        }
        match &t {
            Expr::Var(v) if &**v == var => coef.push(Expr::one()),
            Expr::Mul(fs) => {
                let (dep, ind): (Vec<&Expr>, Vec<&Expr>) =
                    fs.iter().partition(|f| f.depends_on(var));
                match dep.as_slice() {
                    [Expr::Var(v)] if &**v == var => {
                        coef.push(arith::mul(ind.into_iter().cloned().collect()))
                    }
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
    if coef.is_empty() {
        return None;
    }
    let c = arith::add(coef);
    if c.as_num()
        .is_some_and(|r| *r == crate::node::Rational::from_integer(0.into()))
    {
        return None;
    }
    Some((c, arith::add(rest)))
}

fn split_dependent(fs: &[Expr], var: &str) -> (Vec<Expr>, Vec<Expr>) {
    let (dep, ind): (Vec<Expr>, Vec<Expr>) = fs.iter().cloned().partition(|f| f.depends_on(var));
    (ind, dep)
}

fn sum(s: &mut Simplifier, r: &Range, body: Expr) -> Option<Expr> {
    let var: &str = r.var;
    if !body.depends_on(var) {
        return Some(arith::mul(vec![guarded_count(s, r), body]));
    }
    match &body {
        Expr::Add(ts) => {
            let mut parts = Vec::with_capacity(ts.len());
            for t in ts {
                parts.push(sum(s, r, t.clone()).unwrap_or_else(|| keep(FoldOp::Sum, r, t.clone())));
            }
            Some(arith::add(parts))
        }
        Expr::Mul(fs) => {
            let (ind, dep) = split_dependent(fs, var);
            if ind.is_empty() {
                return power_sum(s, r, &body);
            }
            let inner = arith::mul(dep);
            let rest = sum(s, r, inner.clone()).unwrap_or_else(|| keep(FoldOp::Sum, r, inner));
            let mut all = ind;
            all.push(rest);
            Some(arith::mul(all))
        }
        Expr::Var(_) | Expr::Pow(..) => power_sum(s, r, &body),
        Expr::If(c, a, b) => {
            if !b.is_int(0) {
                let not_c = s.cond(&Cond::Not(c.clone()));
                let left = Expr::If(c.clone(), a.clone(), Box::new(Expr::zero()));
                let right = Expr::If(Box::new(not_c), b.clone(), Box::new(Expr::zero()));
                let l = sum(s, r, left.clone()).unwrap_or_else(|| keep(FoldOp::Sum, r, left));
                let rr = sum(s, r, right.clone()).unwrap_or_else(|| keep(FoldOp::Sum, r, right));
                return Some(arith::add(vec![l, rr]));
            }
            if !a.depends_on(var) {
                return Some(match count(s, r, c) {
                    Some(n) => arith::mul(vec![(**a).clone(), n]),
                    None => {
                        let ind =
                            Expr::If(c.clone(), Box::new(Expr::one()), Box::new(Expr::zero()));
                        arith::mul(vec![(**a).clone(), keep(FoldOp::Sum, r, ind)])
                    }
                });
            }
            // A body that depends on the index under range conditions: sum over the
            // restricted range.
            let (lo, hi, rest) = restrict(s, r, c)?;
            if !rest.is_empty() {
                return None;
            }
            let fd = Fold {
                op: FoldOp::Sum,
                var: r.var.clone(),
                lo,
                hi,
                body: (**a).clone(),
            };
            Some(simplify_fold(s, &fd))
        }
        _ => None,
    }
}

/// `Σ i` and `Σ i^2` over the range (and constant multiples, via the caller).
fn power_sum(s: &mut Simplifier, r: &Range, body: &Expr) -> Option<Expr> {
    let k = match body {
        Expr::Var(v) if v == r.var => 1,
        Expr::Pow(b, 2) if matches!(&**b, Expr::Var(v) if v == r.var) => 2,
        _ => return None,
    };
    // S_k(x) = Σ_{i=1}^{x} i^k
    let s_k = |x: Expr| -> Expr {
        let x1 = arith::add(vec![x.clone(), Expr::one()]);
        match k {
            1 => arith::mul(vec![Expr::ratio(1, 2), x, x1]),
            _ => {
                let x2 = arith::add(vec![arith::mul(vec![Expr::int(2), x.clone()]), Expr::one()]);
                arith::mul(vec![Expr::ratio(1, 6), x, x1, x2])
            }
        }
    };
    let lo1 = arith::sub(r.lo.clone(), Expr::one());
    let e = arith::sub(s_k(r.hi.clone()), s_k(lo1));
    Some(guard(s, r, e))
}

/// Splits a condition into linear bounds on the index (restricting the range) and the rest.
fn restrict(s: &mut Simplifier, r: &Range, c: &Cond) -> Option<(Expr, Expr, Vec<Cond>)> {
    let items: Vec<Cond> = match c {
        Cond::And(v) => v.clone(),
        c => vec![c.clone()],
    };
    let mut los = vec![r.lo.clone()];
    let mut his = vec![r.hi.clone()];
    let mut rest = Vec::new();
    for it in items {
        match linear_bound(s, r.var, &it) {
            Some(Bound::Lower(b)) => los.push(b),
            Some(Bound::Upper(b)) => his.push(b),
            Some(Bound::Both(a, b)) => {
                los.push(a);
                his.push(b);
            }
            None => rest.push(it),
        }
    }
    if los.len() == 1 && his.len() == 1 {
        return Some((r.lo.clone(), r.hi.clone(), rest));
    }
    Some((s.extremum(los, true), s.extremum(his, false), rest))
}

enum Bound {
    Lower(Expr),
    Upper(Expr),
    Both(Expr, Expr),
}

/// A comparison that is a linear bound on `var`, as an integer bound.
fn linear_bound(s: &Simplifier, var: &str, c: &Cond) -> Option<Bound> {
    let Cond::Cmp(op, a, b) = c else {
        return None;
    };
    let d = arith::sub(a.clone(), b.clone()); // d = k*var + rest, compared with 0
    let (k, rest) = linear(&d, var)?;
    let k = k.as_num()?.clone();
    let v0 = arith::div(arith::neg(rest), Expr::Num(k.clone()));
    let op = if k > crate::node::Rational::from_integer(0.into()) {
        *op
    } else {
        op.flip()
    };
    let one = Expr::one();
    Some(match op {
        CmpOp::Le => Bound::Upper(s.round(v0, true)),
        CmpOp::Lt => Bound::Upper(arith::sub(s.round(v0, false), one)),
        CmpOp::Ge => Bound::Lower(s.round(v0, false)),
        CmpOp::Gt => Bound::Lower(arith::add(vec![s.round(v0, true), one])),
        CmpOp::Eq if s.is_integer(&v0) => Bound::Both(v0.clone(), v0),
        _ => return None,
    })
}

/// The number of indices in the range where the (deterministic) condition holds.
fn count(s: &mut Simplifier, r: &Range, c: &Cond) -> Option<Expr> {
    let var: &str = r.var;
    if !c.depends_on(var) {
        let n = guarded_count(s, r);
        return Some(s.ite(c.clone(), &n, &Expr::zero()));
    }
    match c {
        Cond::Not(x) => {
            let n = count(s, r, x)?;
            Some(arith::sub(guarded_count(s, r), n))
        }
        Cond::Cmp(CmpOp::Ne, a, b) => {
            let eq = Cond::Cmp(CmpOp::Eq, a.clone(), b.clone());
            let n = count(s, r, &eq)?;
            Some(arith::sub(guarded_count(s, r), n))
        }
        Cond::Or(v) if v.len() == 2 => {
            let a = count(s, r, &v[0])?;
            let b = count(s, r, &v[1])?;
            let both = count(s, r, &Cond::And(v.clone()))?;
            Some(arith::add(vec![a, b, arith::neg(both)]))
        }
        Cond::Cmp(CmpOp::Eq, ..) if matches!(linear_bound(s, var, c), Some(Bound::Both(..))) => {
            // At most one index: an indicator of it lying in the range.
            let Some(Bound::Both(v0, _)) = linear_bound(s, var, c) else {
                return None;
            };
            let inside = Cond::And(vec![
                Cond::Cmp(CmpOp::Le, r.lo.clone(), v0.clone()),
                Cond::Cmp(CmpOp::Le, v0, r.hi.clone()),
            ]);
            let inside = s.cond(&inside);
            Some(s.ite(inside, &Expr::one(), &Expr::zero()))
        }
        Cond::Cmp(CmpOp::Eq, a, b)
            if residue(var, a, b).is_some() || residue(var, b, a).is_some() =>
        {
            let (x, m, target) = residue(var, a, b).or_else(|| residue(var, b, a))?;
            if matches!(&target, Expr::Var(t) if is_member(s, t)) {
                // Leave `Σ [x mod M == member]` whole for the per-member maximum rule.
                return None;
            }
            count_residue(s, r, &x, &m, &target)
        }
        _ => {
            let (lo, hi, rest) = restrict(s, r, c)?;
            let sub = Range {
                var: r.var,
                nonempty: false,
                lo: lo.clone(),
                hi: hi.clone(),
            };
            let n = arith::add(vec![hi.clone(), arith::neg(lo.clone()), Expr::one()]);
            let sub = Range {
                nonempty: s.prover().positive(&n),
                ..sub
            };
            match rest.as_slice() {
                [] if lo != r.lo || hi != r.hi => Some(guarded_count(s, &sub)),
                [one] if lo != r.lo || hi != r.hi => count(s, &sub, one),
                _ => None,
            }
        }
    }
}

/// `(x, M, r)` when `a` is `x mod M` with `x` linear in `var` with coefficient 1 and `b`
/// (the residue) independent of `var`.
fn residue(var: &str, a: &Expr, b: &Expr) -> Option<(Expr, Expr, Expr)> {
    let Expr::Mod(x, m) = a else { return None };
    if b.depends_on(var) || m.depends_on(var) {
        return None;
    }
    let (k, _) = linear(x, var)?;
    k.is_int(1)
        .then(|| ((**x).clone(), (**m).clone(), b.clone()))
}

/// `#{i in range : (i + c) mod M == t}` = `floor((hi + c - t)/M) - floor((lo - 1 + c - t)/M)`
/// for `0 <= t < M`, and 0 for other residues.
fn count_residue(s: &mut Simplifier, r: &Range, x: &Expr, m: &Expr, t: &Expr) -> Option<Expr> {
    if !s.is_integer(m) || !s.prover().positive(m) {
        return None;
    }
    let (_, c) = linear(x, r.var)?;
    let top = arith::div(
        arith::add(vec![r.hi.clone(), c.clone(), arith::neg(t.clone())]),
        m.clone(),
    );
    let bot = arith::div(
        arith::add(vec![r.lo.clone(), Expr::int(-1), c, arith::neg(t.clone())]),
        m.clone(),
    );
    let n = arith::sub(s.round(top, true), s.round(bot, true));
    let n = guard(s, r, n);
    let valid = Cond::And(vec![
        Cond::Cmp(CmpOp::Ge, t.clone(), Expr::zero()),
        Cond::Cmp(CmpOp::Lt, t.clone(), m.clone()),
    ]);
    let valid = s.cond(&valid);
    Some(s.ite(valid, &n, &Expr::zero()))
}

fn extremum(s: &mut Simplifier, op: FoldOp, r: &Range, body: Expr) -> Option<Expr> {
    let var: &str = r.var;
    let is_max = op == FoldOp::Max;
    if !body.depends_on(var) {
        return Some(guard(s, r, body));
    }
    match &body {
        Expr::Max(v) if is_max => {
            let parts = v
                .iter()
                .map(|x| extremum(s, op, r, x.clone()).unwrap_or_else(|| keep(op, r, x.clone())))
                .collect();
            Some(s.extremum(parts, true))
        }
        Expr::Min(v) if !is_max => {
            let parts = v
                .iter()
                .map(|x| extremum(s, op, r, x.clone()).unwrap_or_else(|| keep(op, r, x.clone())))
                .collect();
            Some(s.extremum(parts, false))
        }
        Expr::Add(_) if dependent_content(s, var, &body).is_some() => {
            // body = k * c with k >= 0 independent of the index: k * ext(c).
            let (k, c) = dependent_content(s, var, &body)?;
            let m = extremum(s, op, r, c.clone()).unwrap_or_else(|| keep(op, r, c));
            Some(arith::mul(vec![k, m]))
        }
        Expr::Add(ts) if ts.iter().any(|t| !t.depends_on(var)) => {
            let (ind, dep) = split_dependent(ts, var);
            let inner = arith::add(dep);
            let m = extremum(s, op, r, inner.clone()).unwrap_or_else(|| keep(op, r, inner));
            let mut all = ind;
            all.push(m);
            Some(guard(s, r, arith::add(all)))
        }
        Expr::Mul(fs) => {
            let (ind, dep) = split_dependent(fs, var);
            let k = arith::mul(ind.clone());
            if ind.is_empty() || !s.nonneg(&k) {
                return linear_extremum(s, is_max, r, &body);
            }
            let inner = arith::mul(dep);
            let m = extremum(s, op, r, inner.clone()).unwrap_or_else(|| keep(op, r, inner));
            Some(arith::mul(vec![k, m]))
        }
        Expr::If(c, x, z) if is_max && z.is_int(0) && !x.depends_on(var) && s.nonneg(x) => {
            if let Some(e) = member_indicator(s, r, c, x) {
                return Some(e);
            }
            // Exists an index in the range satisfying linear bounds?
            let (lo, hi, rest) = restrict(s, r, c)?;
            if !rest.is_empty() {
                return None;
            }
            let exists = s.cond(&Cond::Cmp(CmpOp::Le, lo, hi));
            Some(s.ite(exists, x, &Expr::zero()))
        }
        Expr::Fold(inner) if is_max && is_member(s, var) => member_count(s, r, inner),
        _ => linear_extremum(s, is_max, r, &body),
    }
}

/// Splits a sum whose terms share an index-dependent factor `c` as `k * c`, with the
/// cofactor `k` independent of the index and provably non-negative.
fn dependent_content(s: &Simplifier, var: &str, body: &Expr) -> Option<(Expr, Expr)> {
    let common: arith::Mono = arith::content(body)
        .into_iter()
        .filter(|(b, _)| b.depends_on(var))
        .collect();
    if common.is_empty() {
        return None;
    }
    let k = arith::div_mono(body, &common);
    if k.depends_on(var) || !s.nonneg(&k) {
        return None;
    }
    Some((
        k,
        arith::build_term(crate::node::Rational::from_integer(1.into()), common),
    ))
}

/// The extremum of a body linear in the index, at one end of the range.
fn linear_extremum(s: &mut Simplifier, is_max: bool, r: &Range, body: &Expr) -> Option<Expr> {
    let (k, _) = linear(body, r.var)?;
    let up = if s.nonneg(&k) {
        true
    } else if s.nonneg(&arith::neg(k)) {
        false
    } else {
        return None;
    };
    let end = if up == is_max { &r.hi } else { &r.lo };
    let e = body.substitute(r.var, end);
    let e = s.simplify(&e);
    Some(guard(s, r, e))
}

fn is_member(s: &Simplifier, var: &str) -> bool {
    s.members.iter().any(|m| &**m == var)
}

/// `max_m if(g == m, x, 0)` over a family's members is `x` (the index `g` is valid).
fn member_indicator(s: &Simplifier, r: &Range, c: &Cond, x: &Expr) -> Option<Expr> {
    if !is_member(s, r.var) {
        return None;
    }
    let Cond::Cmp(CmpOp::Eq, a, b) = c else {
        return None;
    };
    let g = other_side(a, b, r.var)?;
    (!g.depends_on(r.var)).then(|| x.clone())
}

/// In `a == b` with one side the variable `var`, the other side.
fn other_side<'e>(a: &'e Expr, b: &'e Expr, var: &Name) -> Option<&'e Expr> {
    let is_var = |e: &Expr| matches!(e, Expr::Var(v) if v == var);
    if is_var(a) {
        Some(b)
    } else if is_var(b) {
        Some(a)
    } else {
        None
    }
}

/// `max_m Σ_w [g(w) == m]`: the largest number of indices `w` any member `m` receives.
fn member_count(s: &mut Simplifier, r: &Range, inner: &Fold) -> Option<Expr> {
    if inner.op != FoldOp::Sum {
        return None;
    }
    let Expr::If(c, one, zero) = &inner.body else {
        return None;
    };
    if !one.is_int(1) || !zero.is_int(0) {
        return None;
    }
    let Cond::Cmp(CmpOp::Eq, a, b) = &**c else {
        return None;
    };
    let g = other_side(a, b, r.var)?;
    let w: &str = &inner.var;
    let (wlo, whi) = (&inner.lo, &inner.hi);
    let n = arith::add(vec![whi.clone(), arith::neg(wlo.clone()), Expr::one()]);
    if !s.prover().positive(&n) {
        return None;
    }
    s.push_range(w, wlo, whi);
    let out = max_preimage(s, g, w, wlo, whi, &n);
    s.pop_var();
    out
}

fn max_preimage(
    s: &mut Simplifier,
    g: &Expr,
    w: &str,
    wlo: &Expr,
    whi: &Expr,
    n: &Expr,
) -> Option<Expr> {
    if !g.depends_on(w) {
        return Some(n.clone());
    }
    match g {
        Expr::Floor(x) => {
            // x = a*w + rest; blocks of B = 1/a consecutive indices, offset c = rest*B.
            let (a, rest) = linear(x, w)?;
            // B is an integer divisor: non-negative means positive wherever floor(w/B) is
            // defined.
            let b = arith::pow(a, -1);
            if !s.is_integer(&b) || !s.nonneg(&b) {
                return None;
            }
            let c = arith::mul(vec![rest, b.clone()]);
            let first = arith::add(vec![wlo.clone(), c.clone()]);
            let last = arith::add(vec![whi.clone(), c]);
            if first.is_int(0) && s.le(&b, n) {
                return Some(b);
            }
            if !s.is_integer(&first) {
                return None;
            }
            // Exact for any range: the count in the first block, in the last block, and B
            // if a whole block fits.
            let bm1 = arith::sub(b.clone(), Expr::one());
            let fblock = arith::mul(vec![
                b.clone(),
                s.round(arith::div(first.clone(), b.clone()), true),
            ]);
            let lblock = arith::mul(vec![
                b.clone(),
                s.round(arith::div(last.clone(), b.clone()), true),
            ]);
            let f_end = s.extremum(vec![last.clone(), arith::add(vec![fblock, bm1])], false);
            let f = arith::add(vec![f_end, arith::neg(first.clone()), Expr::one()]);
            let l_start = s.extremum(vec![first.clone(), lblock], true);
            let l = arith::add(vec![last.clone(), arith::neg(l_start), Expr::one()]);
            let whole = arith::sub(
                s.round(
                    arith::div(arith::add(vec![last, Expr::one()]), b.clone()),
                    true,
                ),
                s.round(arith::div(first, b.clone()), false),
            );
            let full = s.ite(Cond::Cmp(CmpOp::Ge, whole, Expr::one()), &b, &Expr::zero());
            Some(s.extremum(vec![f, l, full], true))
        }
        Expr::Mod(x, m) => {
            let (k, _) = linear(x, w)?;
            if !s.is_integer(&k) || !s.is_integer(m) || !s.prover().positive(m) {
                return None;
            }
            let g = s.gcd(k, (**m).clone());
            let e = arith::div(arith::mul(vec![n.clone(), g]), (**m).clone());
            Some(s.round(e, false))
        }
        _ => {
            let (k, _) = linear(g, w)?;
            (s.is_integer(&k) && (s.prover().positive(&k) || s.prover().negative(&k)))
                .then(Expr::one)
        }
    }
}
