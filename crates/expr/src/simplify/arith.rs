//! Canonical sums, products and powers.
//!
//! Invariants of the normal form: an `Add` has at least two terms, no nested `Add`, at most
//! one constant, and like terms merged; a `Mul` has at least two factors, no nested `Mul`, at
//! most one constant (first, never 1), and each base once with its total exponent; products
//! of small sums are multiplied out so that equal polynomials get equal trees.

use crate::node::{Expr, Rational};
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// Largest number of terms a product of sums may expand into.
const MAX_EXPANSION: usize = 64;

/// A monomial: bases with non-zero integer exponents, sorted by base.
pub(crate) type Mono = Vec<(Expr, i32)>;

/// Splits a canonical term into its rational coefficient and monomial.
pub(crate) fn split_term(e: &Expr) -> (Rational, Mono) {
    match e {
        Expr::Num(r) => (r.clone(), Vec::new()),
        Expr::Mul(fs) => {
            let mut coef = Rational::one();
            let mut mono = Vec::new();
            for f in fs {
                match f {
                    Expr::Num(r) => coef *= r,
                    Expr::Pow(b, k) => mono.push(((**b).clone(), *k)),
                    other => mono.push((other.clone(), 1)),
                }
            }
            (coef, mono)
        }
        Expr::Pow(b, k) => (Rational::one(), vec![((**b).clone(), *k)]),
        other => (Rational::one(), vec![(other.clone(), 1)]),
    }
}

/// Rebuilds a term from a coefficient and a monomial.
pub(crate) fn build_term(coef: Rational, mono: Mono) -> Expr {
    if coef.is_zero() {
        return Expr::zero();
    }
    let mut fs: Vec<Expr> = Vec::with_capacity(mono.len() + 1);
    if !coef.is_one() {
        fs.push(Expr::Num(coef));
    }
    for (b, k) in mono {
        match k {
            0 => {}
            1 => fs.push(b),
            k => fs.push(Expr::Pow(Box::new(b), k)),
        }
    }
    match fs.len() {
        0 => Expr::one(),
        1 => fs.pop().expect("one factor"),
        _ => Expr::Mul(fs),
    }
}

/// Canonical sum of already-canonical terms.
pub(crate) fn add(terms: Vec<Expr>) -> Expr {
    let mut acc: BTreeMap<Mono, Rational> = BTreeMap::new();
    let mut stack = terms;
    while let Some(t) = stack.pop() {
        match t {
            Expr::Add(inner) => stack.extend(inner),
            t => {
                let (c, m) = split_term(&t);
                if c.is_zero() {
                    continue;
                }
                *acc.entry(m).or_insert_with(Rational::zero) += c;
            }
        }
    }
    let mut out: Vec<Expr> = acc
        .into_iter()
        .filter(|(_, c)| !c.is_zero())
        .map(|(m, c)| build_term(c, m))
        .collect();
    out.sort();
    match out.len() {
        0 => Expr::zero(),
        1 => out.pop().expect("one term"),
        _ => Expr::Add(out),
    }
}

/// Canonical product of already-canonical factors; multiplies out small sums.
pub(crate) fn mul(factors: Vec<Expr>) -> Expr {
    let mut coef = Rational::one();
    let mut bases: BTreeMap<Expr, i32> = BTreeMap::new();
    let mut sums: Vec<Vec<Expr>> = Vec::new();
    let mut stack = factors;
    while let Some(f) = stack.pop() {
        match f {
            Expr::Num(r) => coef *= r,
            Expr::Mul(inner) => stack.extend(inner),
            Expr::Add(ts) => sums.push(ts),
            Expr::Pow(b, k) => {
                let e = bases.entry(*b).or_insert(0);
                *e = e.saturating_add(k);
            }
            other => *bases.entry(other).or_insert(0) += 1,
        }
    }
    if coef.is_zero() {
        return Expr::zero();
    }
    // Numeric bases left by powers of constants.
    let mut mono: Mono = Vec::new();
    for (b, k) in bases {
        if k == 0 {
            continue;
        }
        match &b {
            Expr::Num(r) if !(r.is_zero() && k < 0) && k.unsigned_abs() <= 64 => {
                coef *= pow_rational(r, k);
            }
            _ => mono.push((b, k)),
        }
    }
    let size: usize = sums.iter().map(Vec::len).product();
    if !sums.is_empty() && size <= MAX_EXPANSION {
        // Distribute: (coef*mono) * Π (Σ terms).
        let mut acc: Vec<Expr> = vec![build_term(coef, mono)];
        for s in sums {
            let mut next = Vec::with_capacity(acc.len() * s.len());
            for a in &acc {
                for t in &s {
                    next.push(mul_terms(a, t));
                }
            }
            acc = next;
        }
        return add(acc);
    }
    for s in sums {
        mono.push((Expr::Add(s), 1));
    }
    mono.sort_by(|a, b| a.0.cmp(&b.0));
    // Merge equal bases that arrived as separate sums.
    let mut merged: Mono = Vec::with_capacity(mono.len());
    for (b, k) in mono {
        match merged.last_mut() {
            Some((lb, lk)) if *lb == b => *lk += k,
            _ => merged.push((b, k)),
        }
    }
    merged.retain(|(_, k)| *k != 0);
    build_term(coef, merged)
}

/// Product of two canonical terms (neither a sum).
fn mul_terms(a: &Expr, b: &Expr) -> Expr {
    let (ca, ma) = split_term(a);
    let (cb, mb) = split_term(b);
    let mut bases: BTreeMap<Expr, i32> = BTreeMap::new();
    for (x, k) in ma.into_iter().chain(mb) {
        *bases.entry(x).or_insert(0) += k;
    }
    build_term(
        ca * cb,
        bases.into_iter().filter(|(_, k)| *k != 0).collect(),
    )
}

/// Canonical integer power of a canonical base.
pub(crate) fn pow(base: Expr, k: i32) -> Expr {
    match (base, k) {
        (_, 0) => Expr::one(),
        (b, 1) => b,
        (Expr::Num(r), k) if !(r.is_zero() && k < 0) && k.unsigned_abs() <= 64 => {
            Expr::Num(pow_rational(&r, k))
        }
        (Expr::Pow(b, j), k) => pow(*b, j.saturating_mul(k)),
        (Expr::Mul(fs), k) => mul(fs.into_iter().map(|f| pow(f, k)).collect()),
        (Expr::Add(ts), k) if (2..=3).contains(&k) => {
            mul((0..k).map(|_| Expr::Add(ts.clone())).collect())
        }
        (b, k) => Expr::Pow(Box::new(b), k),
    }
}

/// `r^k` for a rational `r` (non-zero when `k < 0`).
pub(crate) fn pow_rational(r: &Rational, k: i32) -> Rational {
    let mut out = Rational::one();
    for _ in 0..k.unsigned_abs() {
        out *= r;
    }
    if k < 0 {
        out.recip()
    } else {
        out
    }
}

/// `a - b` in canonical form.
pub(crate) fn sub(a: Expr, b: Expr) -> Expr {
    add(vec![a, neg(b)])
}

/// `-a` in canonical form.
pub(crate) fn neg(a: Expr) -> Expr {
    mul(vec![Expr::int(-1), a])
}

/// `a / b` in canonical form.
pub(crate) fn div(a: Expr, b: Expr) -> Expr {
    mul(vec![a, pow(b, -1)])
}

/// The monomial content common to every term of `e`: the largest monomial (minimum
/// exponent per base, absent bases counting as exponent 0) dividing each term.
pub(crate) fn content(e: &Expr) -> Mono {
    let terms: Vec<Mono> = match e {
        Expr::Add(ts) => ts.iter().map(|t| split_term(t).1).collect(),
        t => vec![split_term(t).1],
    };
    common_mono(&terms)
}

/// Minimum exponents of the bases present in every monomial (negative exponents count
/// when every monomial has them).
pub(crate) fn common_mono(monos: &[Mono]) -> Mono {
    let Some(first) = monos.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (b, k) in first {
        let mut min = *k;
        let mut everywhere = true;
        for m in &monos[1..] {
            match m.iter().find(|(x, _)| x == b) {
                Some((_, j)) => {
                    if (min > 0) != (*j > 0) {
                        everywhere = false;
                        break;
                    }
                    min = if min > 0 { min.min(*j) } else { min.max(*j) };
                }
                None => {
                    everywhere = false;
                    break;
                }
            }
        }
        if everywhere {
            out.push((b.clone(), min));
        }
    }
    out
}

/// Divides a canonical expression by a monomial.
pub(crate) fn div_mono(e: &Expr, m: &Mono) -> Expr {
    let inv = build_term(
        Rational::one(),
        m.iter().map(|(b, k)| (b.clone(), -k)).collect(),
    );
    mul(vec![e.clone(), inv])
}

/// Writes a sum with its common monomial content factored out, for display:
/// `N^2*tau/P - 2*N*tau/P` becomes `N*tau/P*(N - 2)`. The result is not canonical.
pub fn factor_for_display(e: &Expr) -> Expr {
    match e {
        Expr::Add(ts) => {
            let ts: Vec<Expr> = ts.iter().map(factor_for_display).collect();
            let c = common_mono(&ts.iter().map(|t| split_term(t).1).collect::<Vec<_>>());
            // Factor a common negative sign and common coefficient magnitude too.
            let coefs: Vec<Rational> = ts.iter().map(|t| split_term(t).0).collect();
            let all_neg = coefs.iter().all(|c| c.is_negative());
            if c.is_empty() && !all_neg {
                return Expr::Add(ts);
            }
            let sign = if all_neg {
                -Rational::one()
            } else {
                Rational::one()
            };
            let inner: Vec<Expr> = ts
                .iter()
                .map(|t| {
                    let (cf, m) = split_term(t);
                    let rest: Mono = m
                        .into_iter()
                        .filter_map(|(b, k)| {
                            let ck = c.iter().find(|(x, _)| *x == b).map_or(0, |(_, j)| *j);
                            (k - ck != 0).then_some((b, k - ck))
                        })
                        .collect();
                    build_term(cf * &sign, rest)
                })
                .collect();
            let mut fs: Vec<Expr> = Vec::new();
            if all_neg {
                fs.push(Expr::int(-1));
            }
            for (b, k) in c {
                fs.push(if k == 1 { b } else { Expr::Pow(Box::new(b), k) });
            }
            fs.push(Expr::Add(inner));
            Expr::Mul(fs)
        }
        Expr::Mul(fs) => Expr::Mul(fs.iter().map(factor_for_display).collect()),
        Expr::Max(v) => Expr::Max(v.iter().map(factor_for_display).collect()),
        Expr::Min(v) => Expr::Min(v.iter().map(factor_for_display).collect()),
        Expr::Pow(b, k) => Expr::Pow(Box::new(factor_for_display(b)), *k),
        Expr::Floor(a) => Expr::Floor(Box::new(factor_for_display(a))),
        Expr::Ceil(a) => Expr::Ceil(Box::new(factor_for_display(a))),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::v;

    #[test]
    fn like_terms_merge_and_order_is_canonical() {
        let a = add(vec![v("x"), v("y"), v("x")]);
        let b = add(vec![v("y"), mul(vec![Expr::int(2), v("x")])]);
        assert_eq!(a, b);
    }

    #[test]
    fn products_of_sums_expand() {
        // N*(a + b) == N*a + N*b
        let lhs = mul(vec![v("N"), add(vec![v("a"), v("b")])]);
        let rhs = add(vec![mul(vec![v("N"), v("a")]), mul(vec![v("b"), v("N")])]);
        assert_eq!(lhs, rhs);
    }

    #[test]
    fn division_cancels() {
        let e = div(mul(vec![v("N"), v("P")]), v("P"));
        assert_eq!(e, v("N"));
    }

    #[test]
    fn content_of_sum() {
        let e = add(vec![mul(vec![v("N"), v("a")]), mul(vec![v("N"), v("b")])]);
        assert_eq!(content(&e), vec![(v("N"), 1)]);
    }
}
