//! The columns of the sub-models: functions of the (transformed) size n, the worker count p
//! and the quantities the chain hands on (T1', the task counts, the span), each with the
//! name a model file records it by.

use std::borrow::Cow;

use fit::pmnf::{Exponent, Term};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The transform of the problem size applied before any feature is computed (the paper
/// uses n → 2^n for fib and nqueens, whose work is exponential in n).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Transform {
    /// The size as it is.
    #[default]
    #[serde(rename = "none")]
    None,
    /// The size n replaced by 2^n.
    #[serde(rename = "2^n")]
    Pow2,
}

impl Transform {
    /// The model's input for size `n`.
    pub fn apply(self, n: f64) -> f64 {
        match self {
            Transform::None => n,
            Transform::Pow2 => n.exp2(),
        }
    }

    /// The transform a user writes: `n=2^n` (or `2^n`), `n=n` (or `none`).
    pub fn parse(text: &str) -> Option<Transform> {
        match text.replace(' ', "").as_str() {
            "n=2^n" | "2^n" => Some(Transform::Pow2),
            "n=n" | "none" => Some(Transform::None),
            _ => None,
        }
    }

    /// The name a model file records (`none`, `2^n`).
    pub fn name(self) -> &'static str {
        match self {
            Transform::None => "none",
            Transform::Pow2 => "2^n",
        }
    }
}

/// The values a feature is computed from: the model's input (the transformed size), the
/// workers, and the chained quantities (measured in training, predicted at prediction time).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Inputs {
    /// The transformed size.
    pub n: f64,
    /// The worker count.
    pub p: f64,
    /// The serial work T1'(n).
    pub serial: f64,
    /// The number of task creations.
    pub create_task: f64,
    /// The number of task waits.
    pub wait_tasks: f64,
    /// The span T∞(n) (0 when not known).
    pub span: f64,
}

/// One column of a sub-model, a function of [`Inputs`]. `n` is the transformed size; `ln` is
/// the natural logarithm; `ln(ln(n))` clamps n ≥ 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// The constant 1 (an intercept as a column, in a weighted fit).
    One,
    /// n.
    N,
    /// n·ln n.
    NLnN,
    /// n².
    N2,
    /// n²·ln n.
    N2LnN,
    /// n³.
    N3,
    /// n·ln ln n.
    NLnLnN,
    /// T1'·(p−1)/p (eq. 10).
    SerialFracP,
    /// T1'·(p−1) (eq. 10).
    SerialP,
    /// create_task (eq. 12).
    Ct,
    /// create_task·(p−1).
    CtP,
    /// create_task·(p−1)/p.
    CtFracP,
    /// wait_tasks.
    Wt,
    /// wait_tasks·(p−1).
    WtP,
    /// wait_tasks·(p−1)/p.
    WtFracP,
    /// (p−1)² (eq. 15).
    P2,
    /// (p−1)²·n.
    P2N,
    /// (p−1)²·n·ln n.
    P2NLnN,
    /// (p−1)²·n².
    P2N2,
    /// p−1.
    P1,
    /// (p−1)·T∞.
    P1Span,
    /// (p−1)²·T∞.
    P2Span,
    /// ln n (the direct regression).
    LnN,
    /// ln p.
    LnP,
    /// (ln p)².
    LnP2,
    /// ln n·ln p.
    LnNLnP,
    /// A PMNF building block `n^a·log2(n)^j` chosen by the `fit` engine's search (a size
    /// model's term, any exact exponent).
    Pmnf(Term),
}

/// Every feature with a fixed name, for reading names back.
pub const ALL: [Feature; 26] = [
    Feature::One,
    Feature::N,
    Feature::NLnN,
    Feature::N2,
    Feature::N2LnN,
    Feature::N3,
    Feature::NLnLnN,
    Feature::SerialFracP,
    Feature::SerialP,
    Feature::Ct,
    Feature::CtP,
    Feature::CtFracP,
    Feature::Wt,
    Feature::WtP,
    Feature::WtFracP,
    Feature::P2,
    Feature::P2N,
    Feature::P2NLnN,
    Feature::P2N2,
    Feature::P1,
    Feature::P1Span,
    Feature::P2Span,
    Feature::LnN,
    Feature::LnP,
    Feature::LnP2,
    Feature::LnNLnP,
];

/// T1'(n) (eq. 11, b1 the intercept) and the span T∞(n).
pub const SERIAL_BASIS: [Feature; 6] = [
    Feature::N,
    Feature::NLnN,
    Feature::N2,
    Feature::N2LnN,
    Feature::N3,
    Feature::NLnLnN,
];
/// create_task(n) and wait_tasks(n) (eqs. 13, 14).
pub const COUNT_BASIS: [Feature; 5] = [
    Feature::N,
    Feature::NLnN,
    Feature::N2,
    Feature::N3,
    Feature::NLnLnN,
];
/// T1 − T1' (eq. 10).
pub const WORK_BASIS: [Feature; 2] = [Feature::SerialFracP, Feature::SerialP];
/// delay (eq. 12).
pub const DELAY_BASIS: [Feature; 6] = [
    Feature::Ct,
    Feature::CtP,
    Feature::CtFracP,
    Feature::Wt,
    Feature::WtP,
    Feature::WtFracP,
];
/// no_work, the paper's form (eq. 15).
pub const NO_WORK_PAPER: [Feature; 4] = [Feature::P2, Feature::P2N, Feature::P2NLnN, Feature::P2N2];
/// no_work ≈ g0·(p−1) + g1·(p−1)·T∞: Graham's bound (idle time ≤ (p−1)·T∞ under greedy
/// scheduling) plus a start-up cost per extra worker.
pub const NO_WORK_SPAN_LINEAR: [Feature; 2] = [Feature::P1, Feature::P1Span];
/// no_work ≈ g1·(p−1)·T∞ + g2·(p−1)²·T∞: the paper's (p−1)² ramps with the span as their
/// length.
pub const NO_WORK_SPAN_QUADRATIC: [Feature; 2] = [Feature::P1Span, Feature::P2Span];
/// A power law c·n^a, fitted as ln(target) = ln c + a·ln n.
pub const POWER_BASIS: [Feature; 1] = [Feature::LnN];

/// The direct regression of ln(time) (Barnes et al., eqs. 6–7).
pub const DIRECT_BASIS: [Feature; 4] = [Feature::LnN, Feature::LnP, Feature::LnP2, Feature::LnNLnP];

impl Feature {
    /// The name a model file records: the formula (a PMNF term in Extra-P's notation,
    /// `n^(53/50) * log2(n)^(1)`).
    pub fn name(self) -> Cow<'static, str> {
        let fixed = match self {
            Feature::Pmnf(t) => return Cow::Owned(t.display("n").to_string()),
            Feature::One => "1",
            Feature::N => "n",
            Feature::NLnN => "n*ln(n)",
            Feature::N2 => "n^2",
            Feature::N2LnN => "n^2*ln(n)",
            Feature::N3 => "n^3",
            Feature::NLnLnN => "n*ln(ln(n))",
            Feature::SerialFracP => "T1'*(p-1)/p",
            Feature::SerialP => "T1'*(p-1)",
            Feature::Ct => "ct",
            Feature::CtP => "ct*(p-1)",
            Feature::CtFracP => "ct*(p-1)/p",
            Feature::Wt => "wt",
            Feature::WtP => "wt*(p-1)",
            Feature::WtFracP => "wt*(p-1)/p",
            Feature::P2 => "(p-1)^2",
            Feature::P2N => "(p-1)^2*n",
            Feature::P2NLnN => "(p-1)^2*n*ln(n)",
            Feature::P2N2 => "(p-1)^2*n^2",
            Feature::P1 => "p-1",
            Feature::P1Span => "(p-1)*span",
            Feature::P2Span => "(p-1)^2*span",
            Feature::LnN => "ln(n)",
            Feature::LnP => "ln(p)",
            Feature::LnP2 => "ln(p)^2",
            Feature::LnNLnP => "ln(n)*ln(p)",
        };
        Cow::Borrowed(fixed)
    }

    /// The feature named `name`.
    pub fn from_name(name: &str) -> Option<Feature> {
        ALL.iter()
            .copied()
            .find(|f| f.name() == name)
            .or_else(|| parse_term(name).map(Feature::Pmnf))
    }

    /// How fast the feature grows with n and p, for pruning: a term is tested for
    /// significance before any of lower order (0: constant in n and p).
    pub fn order(self) -> u8 {
        match self {
            Feature::One | Feature::Ct | Feature::Wt | Feature::P2 | Feature::P1 => 0,
            Feature::SerialFracP | Feature::CtFracP | Feature::WtFracP => 1,
            Feature::NLnLnN | Feature::P1Span => 1,
            Feature::N | Feature::SerialP | Feature::CtP | Feature::WtP | Feature::P2N => 2,
            Feature::P2Span => 2,
            Feature::NLnN | Feature::P2NLnN => 3,
            Feature::N2 | Feature::P2N2 => 4,
            Feature::N2LnN => 5,
            Feature::N3 => 6,
            Feature::LnN | Feature::LnP => 1,
            Feature::LnP2 | Feature::LnNLnP => 2,
            // n^a·log^j: between n^a and n^(a+1/2), on the scale where n is 2 and n² is 4.
            Feature::Pmnf(t) => {
                let order = 2.0 * t.poly.value().max(0.0) + if t.has_log() { 1.0 } else { 0.0 };
                order.round().min(f64::from(u8::MAX)) as u8
            }
        }
    }

    /// Whether the feature uses the span.
    pub fn uses_span(self) -> bool {
        matches!(self, Feature::P1Span | Feature::P2Span)
    }

    /// The feature's value at `x`.
    pub fn value(self, x: &Inputs) -> f64 {
        let n = x.n;
        let q = x.p - 1.0;
        let frac = q / x.p;
        match self {
            Feature::One => 1.0,
            Feature::N => n,
            Feature::NLnN => n * n.ln(),
            Feature::N2 => n * n,
            Feature::N2LnN => n * n * n.ln(),
            Feature::N3 => n * n * n,
            Feature::NLnLnN => n * n.max(3.0).ln().ln(),
            Feature::SerialFracP => x.serial * frac,
            Feature::SerialP => x.serial * q,
            Feature::Ct => x.create_task,
            Feature::CtP => x.create_task * q,
            Feature::CtFracP => x.create_task * frac,
            Feature::Wt => x.wait_tasks,
            Feature::WtP => x.wait_tasks * q,
            Feature::WtFracP => x.wait_tasks * frac,
            Feature::P2 => q * q,
            Feature::P2N => q * q * n,
            Feature::P2NLnN => q * q * n * n.ln(),
            Feature::P2N2 => q * q * n * n,
            Feature::P1 => q,
            Feature::P1Span => q * x.span,
            Feature::P2Span => q * q * x.span,
            Feature::LnN => n.ln(),
            Feature::LnP => x.p.ln(),
            Feature::LnP2 => x.p.ln() * x.p.ln(),
            Feature::LnNLnP => n.ln() * x.p.ln(),
            Feature::Pmnf(t) => t.eval(n),
        }
    }
}

/// A PMNF term of `n` in the notation of [`Term::display`]: `n^(E)`, `log2(n)^(E)` or both
/// joined by ` * `.
fn parse_term(name: &str) -> Option<Term> {
    let mut term = Term {
        poly: Exponent::ZERO,
        log: Exponent::ZERO,
    };
    for part in name.split(" * ") {
        let (slot, rest) = if let Some(r) = part.strip_prefix("n^(") {
            (&mut term.poly, r)
        } else if let Some(r) = part.strip_prefix("log2(n)^(") {
            (&mut term.log, r)
        } else {
            return None;
        };
        if !slot.is_zero() {
            return None;
        }
        *slot = Exponent::parse(rest.strip_suffix(')')?)?;
        if slot.is_zero() {
            return None;
        }
    }
    Some(term)
}

impl Serialize for Feature {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Feature {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Feature::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown feature `{name}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pmnf_terms_are_named_and_read_back() {
        for (term, name) in [
            (Term::new(53, 50, 1), "n^(53/50) * log2(n)^(1)"),
            (Term::new(2, 1, 0), "n^(2)"),
            (Term::new(0, 1, 2), "log2(n)^(2)"),
        ] {
            let f = Feature::Pmnf(term);
            assert_eq!(f.name(), name);
            assert_eq!(Feature::from_name(name), Some(f));
            let x = Inputs {
                n: 1024.0,
                ..Inputs::default()
            };
            assert_eq!(f.value(&x), term.eval(1024.0));
        }
        // The fixed names come first: `n` is the feature N, not a PMNF term.
        assert_eq!(Feature::from_name("n"), Some(Feature::N));
        for bad in [
            "n^(0)",
            "n^(1) * n^(2)",
            "n^(1/0)",
            "n^(x)",
            "n^(2",
            "m^(2)",
            "",
            "n^(2) * ",
        ] {
            assert_eq!(Feature::from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn pmnf_orders_sit_between_the_basis_orders() {
        assert_eq!(
            Feature::Pmnf(Term::new(1, 1, 0)).order(),
            Feature::N.order()
        );
        assert_eq!(
            Feature::Pmnf(Term::new(1, 1, 1)).order(),
            Feature::NLnN.order()
        );
        assert_eq!(
            Feature::Pmnf(Term::new(3, 1, 0)).order(),
            Feature::N3.order()
        );
    }
}
