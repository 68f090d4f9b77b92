//! Symbolic time and count expressions shared by every vates engine.
//!
//! An [`Expr`] is a tree over exact rational constants, named parameters and bound variables:
//! `+ - * /`, `min`/`max`, `floor`/`ceil`/`mod`/`gcd`/`log`, sums and maxima over integer
//! ranges ([`Fold`]) and conditionals ([`Cond`], including stochastic `prob(p)` conditions).
//! [`simplify::simplify`] brings an expression to a canonical, usually closed form under
//! [`Assumptions`]; [`eval`] evaluates exactly (rationals) or in `f64`; [`compile`] turns an
//! expression into a fast evaluator over a slot array; [`print`] renders text, LaTeX and JSON.
//!
//! ```
//! use expr::{Assumptions, Expr};
//! // sum_{i=1}^{N} (tau_l + tau_s)  simplifies to  N*(tau_l + tau_s)
//! let body = Expr::var("tau_l") + Expr::var("tau_s");
//! let e = Expr::sum_over("i", Expr::int(1), Expr::var("N"), body);
//! let a = Assumptions::new()
//!     .int_at_least("N", 1)
//!     .real_at_least("tau_l", 0)
//!     .real_at_least("tau_s", 0);
//! let s = expr::simplify::simplify(&e, &a);
//! assert!(!s.has_fold());
//! ```

pub mod assume;
pub mod node;

pub use assume::{Assumptions, VarInfo};
pub use node::{CmpOp, Cond, Expr, Fold, FoldOp, Name, Rational};
