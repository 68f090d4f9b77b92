//! Shorthands shared by the unit tests.

use crate::node::{Expr, Rational};

/// The rational `n/d`.
pub(crate) fn q(n: i64, d: i64) -> Rational {
    Rational::new(n.into(), d.into())
}

/// The variable `n`.
pub(crate) fn v(n: &str) -> Expr {
    Expr::var(n)
}

/// The integer constant `k`.
pub(crate) fn i(k: i64) -> Expr {
    Expr::int(k)
}
