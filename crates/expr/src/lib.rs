//! Symbolic time and count expressions shared by every vates engine.
//!
//! An [`Expr`] is a tree over exact rational constants, named parameters and bound variables:
//! `+ - * /`, `min`/`max`, `floor`/`ceil`/`mod`/`gcd`/`log`, sums and maxima over integer
//! ranges ([`Fold`]) and conditionals ([`Cond`], including stochastic `prob(p)` conditions).
//! [`simplify::simplify`] brings an expression to a canonical, usually closed form under
//! [`Assumptions`]; [`eval`] evaluates exactly (rationals) or in `f64`; [`compile`] turns an
//! expression into a fast evaluator over a slot array; [`mod@print`] renders text, LaTeX and JSON.

pub mod assume;
pub mod compile;
pub mod eval;
pub mod grid;
pub mod node;
pub mod number;
pub mod print;
pub mod simplify;

pub use assume::{Assumptions, VarInfo};
pub use node::{CmpOp, Cond, Expr, Fold, FoldOp, Name, Rational};
