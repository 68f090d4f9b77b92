//! Shorthands and random-expression pieces shared by the integration tests.

use expr::{CmpOp, Cond, Expr, FoldOp};
use proptest::prelude::*;
use std::ops::RangeInclusive;

/// The variable `n`.
pub fn v(n: &str) -> Expr {
    Expr::var(n)
}

/// The integer constant `n`.
pub fn i(n: i64) -> Expr {
    Expr::int(n)
}

/// Random `node(operands)` with `sizes` operands from `inner` (sums, products, extrema).
pub fn nary(
    inner: &BoxedStrategy<Expr>,
    sizes: RangeInclusive<usize>,
    node: fn(Vec<Expr>) -> Expr,
) -> BoxedStrategy<Expr> {
    prop::collection::vec(inner.clone(), sizes)
        .prop_map(node)
        .boxed()
}

/// Random comparisons `a op b` of expressions from `inner`.
pub fn cmp_of(inner: &BoxedStrategy<Expr>) -> BoxedStrategy<Cond> {
    let cmp_op = prop::sample::select(vec![
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ]);
    (cmp_op, inner.clone(), inner.clone())
        .prop_map(|(op, a, b)| Cond::cmp(op, a, b))
        .boxed()
}

/// Random `min` and `max` of one to three operands, `floor`, `ceil`, `mod` and `gcd` over
/// expressions from `inner`, one strategy each.
pub fn rounding_and_extrema(inner: &BoxedStrategy<Expr>) -> Vec<BoxedStrategy<Expr>> {
    vec![
        nary(inner, 1..=3, Expr::Min),
        nary(inner, 1..=3, Expr::Max),
        inner.clone().prop_map(|a| Expr::Floor(Box::new(a))).boxed(),
        inner.clone().prop_map(|a| Expr::Ceil(Box::new(a))).boxed(),
        (inner.clone(), inner.clone())
            .prop_map(|(a, b)| Expr::Mod(Box::new(a), Box::new(b)))
            .boxed(),
        (inner.clone(), inner.clone())
            .prop_map(|(a, b)| Expr::Gcd(Box::new(a), Box::new(b)))
            .boxed(),
    ]
}

/// Random sums, maxima and minima over `i` or `j`, with bounds and body from `inner`.
pub fn fold_of(inner: &BoxedStrategy<Expr>) -> BoxedStrategy<Expr> {
    let fold_op = prop::sample::select(vec![FoldOp::Sum, FoldOp::Max, FoldOp::Min]);
    let var = prop::sample::select(vec!["i", "j"]);
    (fold_op, var, inner.clone(), inner.clone(), inner.clone())
        .prop_map(|(op, var, lo, hi, body)| Expr::fold(op, var, lo, hi, body))
        .boxed()
}
