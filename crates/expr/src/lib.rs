//! Symbolic time and count expressions shared by every vates engine.
//!
//! An [`Expr`] is a tree over exact rational constants, named parameters and bound variables:
//! `+ - * /`, integer and real powers (`x^2`, `x^(3/2)`, `2^x`: [`Expr::Power`]),
//! `min`/`max`, `floor`/`ceil`/`mod`/`gcd`, natural and binary logarithms (`log`, `log2`:
//! [`Expr::Log2`]), sums and maxima over integer ranges ([`Fold`]) and conditionals
//! ([`Cond`], including stochastic `prob(p)` conditions).
//! [`simplify::simplify`] brings an expression to a canonical, usually closed form under
//! [`Assumptions`]; [`eval`] evaluates exactly (rationals) or in `f64`; [`compile`] turns an
//! expression into a fast evaluator over a slot array; [`mod@print`] renders text, LaTeX and JSON;
//! [`mod@parse`] reads arithmetic text (`2.8 + 0.48*p^(5/4)*log2(p)`) back into an [`Expr`].

pub mod assume;
pub mod compile;
pub mod eval;
mod exact;
pub mod grid;
pub mod node;
pub mod number;
pub mod parse;
pub mod print;
pub mod simplify;
#[cfg(test)]
mod testing;

pub use assume::{Assumptions, VarInfo};
pub use node::{CmpOp, Cond, Expr, Fold, FoldOp, Name, Rational};
pub use parse::{parse, ParseError};
