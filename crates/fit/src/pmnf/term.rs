//! The pieces of a performance-model normal form: exact exponents, the one-parameter building
//! block `x^i·log2(x)^j`, and its factor of a multi-parameter term.

use std::fmt;

/// An exact exponent `num/den` in lowest terms with a positive denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Exponent {
    num: i32,
    den: i32,
}

const fn gcd(mut a: i32, mut b: i32) -> i32 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Exponent {
    /// Zero.
    pub const ZERO: Exponent = Exponent { num: 0, den: 1 };

    /// `num/den` in lowest terms. A zero or negative denominator is taken as its absolute
    /// value with the sign moved to the numerator (0 as 1).
    pub const fn new(num: i32, den: i32) -> Self {
        let (num, den) = if den < 0 {
            (-num, -den)
        } else if den == 0 {
            (num, 1)
        } else {
            (num, den)
        };
        let g = gcd(num, den);
        if g > 1 {
            Exponent {
                num: num / g,
                den: den / g,
            }
        } else {
            Exponent { num, den }
        }
    }

    /// The integer `n`.
    pub const fn int(n: i32) -> Self {
        Exponent { num: n, den: 1 }
    }

    /// The numerator.
    pub const fn num(self) -> i32 {
        self.num
    }

    /// The denominator (positive).
    pub const fn den(self) -> i32 {
        self.den
    }

    /// Whether the exponent is zero.
    pub const fn is_zero(self) -> bool {
        self.num == 0
    }

    /// The value.
    pub fn value(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }

    /// Reads `3/2`, `-1`, `0.25` (a decimal with at most 6 places) or `1.5`.
    pub fn parse(s: &str) -> Option<Exponent> {
        let s = s.trim();
        if let Some((n, d)) = s.split_once('/') {
            let (n, d): (i32, i32) = (n.trim().parse().ok()?, d.trim().parse().ok()?);
            return (d != 0).then(|| Exponent::new(n, d));
        }
        if let Ok(n) = s.parse::<i32>() {
            return Some(Exponent::int(n));
        }
        let (int, frac) = s.split_once('.')?;
        if frac.is_empty() || frac.len() > 6 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let negative = int.trim_start().starts_with('-');
        let whole: i32 = match int.trim() {
            "" | "-" | "+" => 0,
            t => t.parse().ok()?,
        };
        let den = 10i32.pow(frac.len() as u32);
        let f: i32 = frac.parse().ok()?;
        let num = whole.checked_abs()?.checked_mul(den)?.checked_add(f)?;
        Some(Exponent::new(if negative { -num } else { num }, den))
    }
}

impl fmt::Display for Exponent {
    /// `3/2`, `-1`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// One building block `x^poly · log2(x)^log`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Term {
    /// The polynomial exponent.
    pub poly: Exponent,
    /// The exponent of `log2(x)`.
    pub log: Exponent,
}

impl Term {
    /// `x^(num/den) · log2(x)^log`.
    pub const fn new(num: i32, den: i32, log: i32) -> Self {
        Term {
            poly: Exponent::new(num, den),
            log: Exponent::int(log),
        }
    }

    /// The term's value at `x`.
    pub fn eval(self, x: f64) -> f64 {
        let mut v = if self.poly.is_zero() {
            1.0
        } else if self.poly.den == 1 {
            x.powi(self.poly.num)
        } else {
            x.powf(self.poly.value())
        };
        if !self.log.is_zero() {
            let l = x.log2();
            v *= if self.log.den == 1 {
                l.powi(self.log.num)
            } else {
                l.powf(self.log.value())
            };
        }
        v
    }

    /// Whether the term has a logarithm (and so needs `x ≥ 1`).
    pub fn has_log(self) -> bool {
        !self.log.is_zero()
    }

    /// Growth order as `x → ∞`: by the polynomial exponent, then the log exponent.
    pub fn growth(self) -> (Exponent, Exponent) {
        (self.poly, self.log)
    }

    /// The term in Extra-P's notation for parameter `name`: `p^(3/2) * log2(p)^(1)`.
    pub fn display<'a>(&'a self, name: &'a str) -> impl fmt::Display + 'a {
        TermDisplay { term: self, name }
    }
}

struct TermDisplay<'a> {
    term: &'a Term,
    name: &'a str,
}

impl fmt::Display for TermDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (t, x) = (self.term, self.name);
        match (t.poly.is_zero(), t.log.is_zero()) {
            (true, true) => f.write_str("1"),
            (false, true) => write!(f, "{x}^({})", t.poly),
            (true, false) => write!(f, "log2({x})^({})", t.log),
            (false, false) => write!(f, "{x}^({}) * log2({x})^({})", t.poly, t.log),
        }
    }
}

impl fmt::Display for Term {
    /// Extra-P's notation with the parameter `x`: `x^(3/2) * log2(x)^(1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display("x").fmt(f)
    }
}

/// A building block applied to one parameter of a multi-parameter model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Factor {
    /// The parameter's index.
    pub param: usize,
    /// The block.
    pub term: Term,
}

impl Factor {
    /// The factor's value at the point `x` (one value per parameter).
    pub fn eval(self, x: &[f64]) -> f64 {
        self.term.eval(x[self.param])
    }
}
