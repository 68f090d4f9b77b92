//! The nine basic operations of Table 2-3, a fragment's symbolic counts of them, and a
//! platform's times for them.

use expr::eval::{eval_f64, EvalError, EvalLimits};
use expr::{Expr, Name};

/// A basic operation of Table 2-3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Op {
    /// Loop counter increment, conditional and branch.
    Loopoh,
    /// Integer load.
    LoadI,
    /// Integer store.
    StoreI,
    /// Integer addition or subtraction.
    AddI,
    /// Integer multiplication.
    MultI,
    /// Floating-point load.
    LoadR,
    /// Floating-point store.
    StoreR,
    /// Floating-point addition or subtraction.
    AddR,
    /// Floating-point multiplication.
    MultR,
}

/// The nine operations in Table 2-3's order (the columns of Eq 2.1).
pub const OPS: [Op; 9] = [
    Op::Loopoh,
    Op::LoadI,
    Op::StoreI,
    Op::AddI,
    Op::MultI,
    Op::LoadR,
    Op::StoreR,
    Op::AddR,
    Op::MultR,
];

impl Op {
    /// The thesis' name: `loopoh`, `loadI`, … `multR`.
    pub fn name(self) -> &'static str {
        match self {
            Op::Loopoh => "loopoh",
            Op::LoadI => "loadI",
            Op::StoreI => "storeI",
            Op::AddI => "addI",
            Op::MultI => "multI",
            Op::LoadR => "loadR",
            Op::StoreR => "storeR",
            Op::AddR => "addR",
            Op::MultR => "multR",
        }
    }

    /// The position in [`OPS`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The operation named `name` (as [`Op::name`] writes it, any case).
    pub fn from_name(name: &str) -> Option<Op> {
        OPS.into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(name))
    }
}

/// A fragment's count of each operation: a polynomial (or a sum over a loop variable the
/// simplifier could not close) in the fragment's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Counts(pub [Expr; 9]);

impl Counts {
    /// The count of `op`.
    pub fn get(&self, op: Op) -> &Expr {
        &self.0[op.index()]
    }

    /// The counts at parameter values `bindings` (`("N", 1000.0)`).
    ///
    /// # Errors
    /// An [`EvalError`] when a parameter is unbound or a count's evaluation exceeds the
    /// default [`EvalLimits`].
    pub fn at(&self, bindings: &[(Name, f64)]) -> Result<[f64; 9], EvalError> {
        let env: std::collections::BTreeMap<Name, f64> = bindings.iter().cloned().collect();
        let mut out = [0.0; 9];
        for (o, e) in out.iter_mut().zip(&self.0) {
            *o = eval_f64(e, &env, &EvalLimits::default())?;
        }
        Ok(out)
    }

    /// Floating-point operations (`addR + multR`), Table 2-10's flop count.
    pub fn flops(&self) -> Expr {
        expr::simplify::simplify(
            &Expr::Add(vec![
                self.get(Op::AddR).clone(),
                self.get(Op::MultR).clone(),
            ]),
            &expr::Assumptions::new(),
        )
    }
}

/// A platform's time for each operation, in seconds (the thesis prints µs).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct OpTimes(pub [f64; 9]);

impl OpTimes {
    /// Times given in microseconds, in [`OPS`] order (as Tables 2-5 and 2-13 print them).
    pub fn from_micros(us: [f64; 9]) -> OpTimes {
        OpTimes(us.map(|t| t * 1e-6))
    }

    /// The time of `op`, in seconds.
    pub fn get(&self, op: Op) -> f64 {
        self.0[op.index()]
    }

    /// Equation 2.2: `Σ cᵢ tᵢ` for counts `c` already evaluated.
    pub fn time(&self, counts: &[f64; 9]) -> f64 {
        counts.iter().zip(&self.0).map(|(c, t)| c * t).sum()
    }
}
