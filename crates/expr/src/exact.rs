//! Exact rational roots and binary logarithms, for evaluating and folding real powers
//! ([`crate::Expr::Power`]) and binary logarithms ([`crate::Expr::Log2`]) exactly where their
//! values are rational.

use crate::node::Rational;
use num_bigint::BigInt;
use num_traits::{One, Pow, Signed};

/// The positive `q`-th root of `b > 0` when it is rational (`(9/4)^(1/2) = 3/2`), else
/// `None`. The work is bounded by the size of `b`: a root of degree beyond its bit length is
/// irrational unless `b == 1`.
pub(crate) fn rational_root(b: &Rational, q: u32) -> Option<Rational> {
    if !b.is_positive() {
        return None;
    }
    if q == 1 || b.is_one() {
        return Some(b.clone());
    }
    let bits = b.numer().bits().max(b.denom().bits());
    if q == 0 || u64::from(q) > bits {
        return None;
    }
    let root = |n: &BigInt| -> Option<BigInt> {
        let r = n.nth_root(q);
        (Pow::pow(&r, q) == *n).then_some(r)
    };
    Some(Rational::new(root(b.numer())?, root(b.denom())?))
}

/// `k` when `x == 2^k` for an integer `k` (possibly negative), else `None` (also for
/// `x <= 0`).
pub(crate) fn log2_exact(x: &Rational) -> Option<i64> {
    if !x.is_positive() {
        return None;
    }
    let power_of_two = |n: &BigInt| n.trailing_zeros() == Some(n.bits() - 1);
    let (n, d) = (x.numer(), x.denom());
    if d.is_one() && power_of_two(n) {
        i64::try_from(n.bits() - 1).ok()
    } else if n.is_one() && power_of_two(d) {
        i64::try_from(d.bits() - 1).ok().map(|k| -k)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::q;

    #[test]
    fn roots_that_are_rational() {
        assert_eq!(rational_root(&q(4, 1), 2), Some(q(2, 1)));
        assert_eq!(rational_root(&q(8, 1), 3), Some(q(2, 1)));
        assert_eq!(rational_root(&q(9, 4), 2), Some(q(3, 2)));
        assert_eq!(rational_root(&q(1, 27), 3), Some(q(1, 3)));
        assert_eq!(rational_root(&q(1, 1), 1000), Some(q(1, 1)));
        assert_eq!(rational_root(&q(7, 3), 1), Some(q(7, 3)));
    }

    #[test]
    fn roots_that_are_not() {
        assert_eq!(rational_root(&q(2, 1), 2), None);
        assert_eq!(rational_root(&q(4, 3), 2), None);
        assert_eq!(rational_root(&q(1024, 1), 11), None);
        assert_eq!(rational_root(&q(4, 1), u32::MAX), None);
        assert_eq!(rational_root(&q(-4, 1), 2), None);
        assert_eq!(rational_root(&q(0, 1), 2), None);
    }

    #[test]
    fn binary_logarithms() {
        assert_eq!(log2_exact(&q(1, 1)), Some(0));
        assert_eq!(log2_exact(&q(8, 1)), Some(3));
        assert_eq!(log2_exact(&q(1, 16)), Some(-4));
        assert_eq!(log2_exact(&q(3, 1)), None);
        assert_eq!(log2_exact(&q(2, 3)), None);
        assert_eq!(log2_exact(&q(0, 1)), None);
        assert_eq!(log2_exact(&q(-2, 1)), None);
        let big = Rational::from_integer(BigInt::one() << 5000u32);
        assert_eq!(log2_exact(&big), Some(5000));
    }
}
