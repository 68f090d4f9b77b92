//! A compact exact rational: a reduced fraction of machine integers, with an
//! exact [`BigRational`] fallback when a value does not fit. The concrete
//! engine keeps its times in it, and the parametric one the coefficients of
//! its linear expressions ([`crate::linear::Coef`]). Almost every time and
//! coefficient of a model is a small integer, so the fast path avoids heap
//! allocation, big-number hashing and gcds.
//!
//! The representation is canonical (a value that fits is always `Small`,
//! in lowest terms with a positive denominator), so the derived `Eq` and
//! `Hash` agree with equality of the rational values.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::sync::Arc;

/// An exact rational time (see the module docs).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Tm {
    /// `n / d` in lowest terms with `d > 0`.
    Small(i64, i64),
    /// A value that does not fit `Small`.
    Big(Arc<BigRational>),
}

impl Tm {
    /// Zero.
    pub const ZERO: Tm = Tm::Small(0, 1);

    /// `n / d` for `d != 0`, reduced.
    fn from_i128(n: i128, d: i128) -> Tm {
        debug_assert!(d != 0);
        let (mut n, mut d) = if d < 0 {
            match (n.checked_neg(), d.checked_neg()) {
                (Some(n), Some(d)) => (n, d),
                _ => return Tm::big(BigRational::new(n.into(), d.into())),
            }
        } else {
            (n, d)
        };
        if d != 1 {
            let g = n.unsigned_abs().gcd(&d.unsigned_abs()) as i128;
            if g > 1 {
                n /= g;
                d /= g;
            }
        }
        match (i64::try_from(n), i64::try_from(d)) {
            (Ok(n), Ok(d)) => Tm::Small(n, d),
            _ => Tm::big(BigRational::new(n.into(), d.into())),
        }
    }

    /// Wraps a big value, using `Small` whenever it fits (canonical form).
    fn big(r: BigRational) -> Tm {
        match (r.numer().to_i64(), r.denom().to_i64()) {
            (Some(n), Some(d)) if d > 0 => Tm::from_i128(n.into(), d.into()),
            _ => Tm::Big(Arc::new(r)),
        }
    }

    /// The compact form of an exact time.
    pub fn from_big(r: &BigRational) -> Tm {
        match (r.numer().to_i64(), r.denom().to_i64()) {
            (Some(n), Some(d)) if d > 0 => Tm::from_i128(n.into(), d.into()),
            // Reduced, in case `r` was built without normalising.
            _ => Tm::big(BigRational::new(r.numer().clone(), r.denom().clone())),
        }
    }

    /// The exact value as a [`BigRational`].
    pub fn to_big(&self) -> BigRational {
        match self {
            Tm::Small(n, d) => BigRational::new_raw(BigInt::from(*n), BigInt::from(*d)),
            Tm::Big(r) => BigRational::clone(r),
        }
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        match self {
            Tm::Small(n, _) => *n == 0,
            Tm::Big(r) => r.is_zero(),
        }
    }

    /// `self + o`.
    pub fn add(&self, o: &Tm) -> Tm {
        if let (Tm::Small(0, _), x) = (self, o) {
            return x.clone();
        }
        self.add_signed(o, false)
    }

    /// `self - o`.
    pub fn sub(&self, o: &Tm) -> Tm {
        self.add_signed(o, true)
    }

    /// `self + o`, or `self - o` if `negate`.
    fn add_signed(&self, o: &Tm, negate: bool) -> Tm {
        let sign = if negate { -1 } else { 1 };
        match (self, o) {
            (Tm::Small(a, 1), Tm::Small(b, 1)) => {
                let s = if negate {
                    a.checked_sub(*b)
                } else {
                    a.checked_add(*b)
                };
                match s {
                    Some(s) => Tm::Small(s, 1),
                    None => Tm::from_i128(i128::from(*a) + sign * i128::from(*b), 1),
                }
            }
            (x, Tm::Small(0, _)) => x.clone(),
            (Tm::Small(a, b), Tm::Small(c, d)) => {
                let (a, b, c, d) = (
                    i128::from(*a),
                    i128::from(*b),
                    sign * i128::from(*c),
                    i128::from(*d),
                );
                if b == d {
                    Tm::from_i128(a + c, b)
                } else {
                    // |a·d|, |c·b| < 2^126, so the sum fits i128.
                    Tm::from_i128(a * d + c * b, b * d)
                }
            }
            _ if negate => Tm::big(self.to_big() - o.to_big()),
            _ => Tm::big(self.to_big() + o.to_big()),
        }
    }

    /// One.
    pub const ONE: Tm = Tm::Small(1, 1);

    /// The integer `n`.
    pub fn int(n: i64) -> Tm {
        Tm::Small(n, 1)
    }

    /// `n / d` for `d != 0`.
    pub fn ratio(n: i64, d: i64) -> Tm {
        Tm::from_i128(n.into(), d.into())
    }

    /// Whether this is one.
    pub fn is_one(&self) -> bool {
        matches!(self, Tm::Small(1, 1))
    }

    /// Whether this is greater than zero.
    pub fn is_positive(&self) -> bool {
        match self {
            Tm::Small(n, _) => *n > 0,
            Tm::Big(r) => r.is_positive(),
        }
    }

    /// Whether this is less than zero.
    pub fn is_negative(&self) -> bool {
        match self {
            Tm::Small(n, _) => *n < 0,
            Tm::Big(r) => r.is_negative(),
        }
    }

    /// Whether this is an integer.
    pub fn is_integer(&self) -> bool {
        match self {
            Tm::Small(_, d) => *d == 1,
            Tm::Big(r) => r.is_integer(),
        }
    }

    /// `-self`.
    pub fn neg(&self) -> Tm {
        match self {
            Tm::Small(n, d) => match n.checked_neg() {
                Some(n) => Tm::Small(n, *d),
                None => Tm::big(-self.to_big()),
            },
            Tm::Big(r) => Tm::big(-BigRational::clone(r)),
        }
    }

    /// `|self|`.
    pub fn abs(&self) -> Tm {
        if self.is_negative() {
            self.neg()
        } else {
            self.clone()
        }
    }

    /// `1 / self`; `self` must not be zero.
    pub fn recip(&self) -> Tm {
        assert!(!self.is_zero(), "the reciprocal of zero");
        match self {
            Tm::Small(n, d) => Tm::from_i128((*d).into(), (*n).into()),
            Tm::Big(r) => Tm::big(r.recip()),
        }
    }

    /// The nearest `f64` (`None` if it does not fit).
    pub fn to_f64(&self) -> Option<f64> {
        match self {
            Tm::Small(n, d) => Some(*n as f64 / *d as f64),
            Tm::Big(r) => r.to_f64(),
        }
    }

    /// The numerator and denominator (lowest terms, positive denominator).
    pub fn parts(&self) -> (BigInt, BigInt) {
        match self {
            Tm::Small(n, d) => (BigInt::from(*n), BigInt::from(*d)),
            Tm::Big(r) => (r.numer().clone(), r.denom().clone()),
        }
    }

    /// `self · o`.
    pub fn mul(&self, o: &Tm) -> Tm {
        match (self, o) {
            // |a·c|, |b·d| < 2^126.
            (Tm::Small(a, b), Tm::Small(c, d)) => Tm::from_i128(
                i128::from(*a) * i128::from(*c),
                i128::from(*b) * i128::from(*d),
            ),
            _ => Tm::big(self.to_big() * o.to_big()),
        }
    }

    /// Monus: `self - o` if positive, else zero.
    pub(crate) fn monus(&self, o: &Tm) -> Tm {
        if *self > *o {
            self.sub(o)
        } else {
            Tm::ZERO
        }
    }
}

impl std::fmt::Display for Tm {
    /// `4`, `7/2`, `-1/3`: as [`BigRational`] shows the value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tm::Small(n, 1) => write!(f, "{n}"),
            Tm::Small(n, d) => write!(f, "{n}/{d}"),
            Tm::Big(r) => write!(f, "{r}"),
        }
    }
}

impl Default for Tm {
    fn default() -> Tm {
        Tm::ZERO
    }
}

impl Ord for Tm {
    fn cmp(&self, o: &Tm) -> Ordering {
        match (self, o) {
            (Tm::Small(a, b), Tm::Small(c, d)) => {
                if b == d {
                    a.cmp(c)
                } else {
                    (i128::from(*a) * i128::from(*d)).cmp(&(i128::from(*c) * i128::from(*b)))
                }
            }
            (Tm::Big(x), Tm::Big(y)) => x.cmp(y),
            _ => self.to_big().cmp(&o.to_big()),
        }
    }
}

impl PartialOrd for Tm {
    fn partial_cmp(&self, o: &Tm) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::One;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn round_trips_and_arithmetic_agree_with_bigrational() {
        let big = BigRational::from_integer(BigInt::from(i64::MAX)) * BigInt::from(3);
        let vals = [
            q(0, 1),
            q(1, 1),
            q(7, 3),
            q(-5, 2),
            q(i64::MAX, 1),
            q(i64::MIN + 1, 1),
            q(1, i64::MAX),
            big.clone(),
            big / BigInt::from(7),
        ];
        for a in &vals {
            let ta = Tm::from_big(a);
            assert_eq!(ta.to_big(), *a);
            let scaled = BigRational::new_raw(a.numer() * 6, a.denom() * 6);
            assert_eq!(Tm::from_big(&scaled), ta);
            assert_eq!(ta.is_zero(), a.is_zero());
            for b in &vals {
                let tb = Tm::from_big(b);
                assert_eq!(ta.add(&tb).to_big(), a + b);
                assert_eq!(ta.add(&tb), Tm::from_big(&(a + b)));
                assert_eq!(ta.sub(&tb).to_big(), a - b);
                assert_eq!(ta.sub(&tb), Tm::from_big(&(a - b)));
                assert_eq!(ta.to_string(), a.to_string());
                assert_eq!(ta.neg().to_big(), -a);
                assert_eq!(ta.abs().to_big(), a.abs());
                assert_eq!(ta.is_positive(), a.is_positive());
                assert_eq!(ta.is_negative(), a.is_negative());
                assert_eq!(ta.is_integer(), a.is_integer());
                assert_eq!(ta.is_one(), a.is_one());
                if !a.is_zero() {
                    assert_eq!(ta.recip().to_big(), a.recip());
                }
                assert_eq!(ta.mul(&tb).to_big(), a * b);
                assert_eq!(ta.mul(&tb), Tm::from_big(&(a * b)));
                assert_eq!(ta.cmp(&tb), a.cmp(b));
                assert_eq!(ta == tb, a == b);
            }
        }
    }
}
