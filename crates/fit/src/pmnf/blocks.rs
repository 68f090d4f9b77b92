//! The building blocks a search tries, in order (the order decides ties): Extra-P 4.2.5's
//! defaults, its negative-exponent extension for strong scaling, and sets generated from
//! user exponents.

use super::term::{Exponent, Term};

const fn t(num: i32, den: i32, log: i32) -> Term {
    Term::new(num, den, log)
}

/// Extra-P's 42 default building blocks, in its search order.
pub const DEFAULT_BLOCKS: [Term; 42] = [
    t(0, 1, 1),
    t(0, 1, 2),
    t(1, 4, 0),
    t(1, 3, 0),
    t(1, 4, 1),
    t(1, 3, 1),
    t(1, 4, 2),
    t(1, 3, 2),
    t(1, 2, 0),
    t(1, 2, 1),
    t(1, 2, 2),
    t(2, 3, 0),
    t(3, 4, 0),
    t(2, 3, 1),
    t(3, 4, 1),
    t(4, 5, 0),
    t(2, 3, 2),
    t(3, 4, 2),
    t(1, 1, 0),
    t(1, 1, 1),
    t(1, 1, 2),
    t(5, 4, 0),
    t(5, 4, 1),
    t(4, 3, 0),
    t(4, 3, 1),
    t(3, 2, 0),
    t(3, 2, 1),
    t(3, 2, 2),
    t(5, 3, 0),
    t(7, 4, 0),
    t(2, 1, 0),
    t(2, 1, 1),
    t(2, 1, 2),
    t(9, 4, 0),
    t(7, 3, 0),
    t(5, 2, 0),
    t(5, 2, 1),
    t(5, 2, 2),
    t(8, 3, 0),
    t(11, 4, 0),
    t(3, 1, 0),
    t(3, 1, 1),
];

/// The blocks Extra-P adds for negative exponents when logarithms are allowed: all carry
/// a negative power of the logarithm.
pub(crate) const NEGATIVE_LOG_BLOCKS: [Term; 23] = [
    t(0, 1, -1),
    t(0, 1, -2),
    t(-1, 4, -1),
    t(-1, 3, -1),
    t(-1, 4, -2),
    t(-1, 3, -2),
    t(-1, 2, -1),
    t(-1, 2, -2),
    t(-2, 3, -1),
    t(-3, 4, -1),
    t(-2, 3, -2),
    t(-3, 4, -2),
    t(-1, 1, -1),
    t(-1, 1, -2),
    t(-5, 4, -1),
    t(-4, 3, -1),
    t(-3, 2, -1),
    t(-3, 2, -2),
    t(-2, 1, -1),
    t(-2, 1, -2),
    t(-5, 2, -1),
    t(-5, 2, -2),
    t(-3, 1, -1),
];

/// Which blocks a search tries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockOptions {
    /// Allow `log2(x)` factors (Extra-P's `allow_log_terms`, default true).
    pub logs: bool,
    /// Add Extra-P's negative-exponent blocks, for strong scaling (default false).
    pub negative: bool,
    /// User polynomial exponents; with `log_exponents` they replace the defaults.
    pub poly_exponents: Vec<Exponent>,
    /// User exponents of `log2(x)`.
    pub log_exponents: Vec<Exponent>,
    /// Only the combinations `x^i·log2(x)^j` of the user exponents, not each alone.
    pub force_combination: bool,
    /// Keep the default blocks after the user's.
    pub retain_default: bool,
}

impl Default for BlockOptions {
    fn default() -> Self {
        BlockOptions {
            logs: true,
            negative: false,
            poly_exponents: Vec::new(),
            log_exponents: Vec::new(),
            force_combination: false,
            retain_default: false,
        }
    }
}

impl BlockOptions {
    /// The blocks, in search order, as Extra-P 4.2.5 builds them.
    pub fn blocks(&self) -> Vec<Term> {
        let default = || {
            let mut b: Vec<Term> = DEFAULT_BLOCKS
                .iter()
                .copied()
                .filter(|t| self.logs || !t.has_log())
                .collect();
            if self.negative {
                if self.logs {
                    b.extend(NEGATIVE_LOG_BLOCKS);
                } else {
                    let poly: Vec<Term> = b.iter().map(|t| negate(*t)).collect();
                    b.extend(poly);
                }
            }
            b
        };
        if self.poly_exponents.is_empty() && self.log_exponents.is_empty() {
            return default();
        }
        let mut b = Vec::new();
        let pair = |p: Exponent, l: Exponent| Term { poly: p, log: l };
        if !self.force_combination {
            b.extend(self.poly_exponents.iter().map(|&p| pair(p, Exponent::ZERO)));
            b.extend(self.log_exponents.iter().map(|&l| pair(Exponent::ZERO, l)));
        }
        for &p in &self.poly_exponents {
            for &l in &self.log_exponents {
                b.push(pair(p, l));
            }
        }
        b.retain(|t| !(t.poly.is_zero() && t.log.is_zero()));
        if self.retain_default {
            b.extend(default());
        }
        b
    }

    /// Whether the blocks' logarithms can describe points at these x: all x ≥ 1, or > 1 with
    /// negative exponents (Extra-P's rule); otherwise the log blocks are left out.
    pub fn logs_usable(&self, x: impl IntoIterator<Item = f64>) -> bool {
        let mut x = x.into_iter();
        if self.negative {
            x.all(|v| v > 1.0)
        } else {
            x.all(|v| v >= 1.0)
        }
    }
}

/// `x^-a·log2(x)^j` for `x^a·log2(x)^j`.
pub(crate) fn negate(t: Term) -> Term {
    Term {
        poly: Exponent::new(-t.poly.num(), t.poly.den()),
        log: t.log,
    }
}
