//! The text parser against the printer: whatever the printer writes for an expression the
//! parser accepts reads back to the same value; and simplification of real powers and binary
//! logarithms keeps every value where the input is defined.

use expr::eval::{eval_exact, eval_f64, EvalError, EvalLimits};
use expr::simplify::simplify;
use expr::{parse, Assumptions, Expr, Name, Rational};
use proptest::prelude::*;
use std::collections::BTreeMap;

const POINTS: [[f64; 3]; 4] = [
    [0.5, 1.5, 2.0],
    [2.0, 3.25, 0.5],
    [3.25, 2.0, 1.5],
    [1.5, 0.5, 3.25],
];

fn leaf() -> BoxedStrategy<Expr> {
    prop_oneof![
        prop::sample::select(vec!["x", "y", "z"]).prop_map(Expr::var),
        (-3i64..=5).prop_map(Expr::int),
        (-5i64..=5, prop::sample::select(vec![2i64, 4])).prop_map(|(n, d)| Expr::ratio(n, d)),
    ]
    .boxed()
}

/// Small random expressions over `Var`, `Num`, `Add`, `Mul`, `Pow`, `Power` and `Log2`.
///
/// Constants and points are dyadic, so `f64` sums and products of them are exact: a real
/// power is discontinuous in its exponent (`0^0 = 1` but `0^e = 0` for `e > 0`, a negative
/// base needs an integer exponent), and rounding an exponent such as `2 + 2/3 - 5/3` would
/// make equal expressions differ.
fn expr_strategy() -> BoxedStrategy<Expr> {
    leaf()
        .prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 2..=3).prop_map(Expr::Add),
                prop::collection::vec(inner.clone(), 2..=3).prop_map(Expr::Mul),
                (inner.clone(), -2i32..=3).prop_map(|(b, k)| Expr::pow(b, k)),
                (inner.clone(), inner.clone()).prop_map(|(b, e)| Expr::power(b, e)),
                inner.clone().prop_map(Expr::log2),
            ]
        })
        .boxed()
}

fn exact_at(e: &Expr, p: [f64; 3]) -> Result<Rational, EvalError> {
    let env: BTreeMap<Name, Rational> = ["x", "y", "z"]
        .into_iter()
        .map(Name::from)
        .zip(p.map(|v| Rational::from_float(v).unwrap()))
        .collect();
    eval_exact(e, &env, &EvalLimits::default())
}

fn eval_at(e: &Expr, p: [f64; 3]) -> Result<f64, EvalError> {
    let env: BTreeMap<Name, f64> = ["x", "y", "z"].into_iter().map(Name::from).zip(p).collect();
    eval_f64(e, &env, &EvalLimits::default())
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    a == b || (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `parse(print(e))` has the value of `e` (and fails where `e` does).
    #[test]
    fn printed_text_parses_back_to_the_same_value(e in expr_strategy()) {
        let text = e.to_string();
        let back = parse(&text);
        prop_assert!(back.is_ok(), "`{}` does not parse: {:?}", text, back);
        let back = back.unwrap();
        for p in POINTS {
            if let Ok(a) = exact_at(&e, p) {
                prop_assert_eq!(exact_at(&back, p), Ok(a), "`{}` at {:?}", text, p);
            }
            match (eval_at(&e, p), eval_at(&back, p)) {
                (Ok(a), Ok(b)) => prop_assert!(close(a, b, 1e-9), "`{}` at {:?}: {} vs {}", text, p, a, b),
                (Err(_), Err(_)) => {}
                (a, b) => prop_assert!(false, "`{}` at {:?}: {:?} vs {:?}", text, p, a, b),
            }
        }
    }

    /// Where an expression has a value, its simplified form has the same value.
    #[test]
    fn simplification_keeps_defined_values(e in expr_strategy()) {
        let s = simplify(&e, &Assumptions::new());
        for p in POINTS {
            if let Ok(a) = exact_at(&e, p) {
                prop_assert_eq!(exact_at(&s, p), Ok(a), "`{}` simplified to `{}` at {:?}", e, s, p);
            }
            if let Ok(a) = eval_at(&e, p) {
                // Multiplied out (`(a*b)^k` is `a^k*b^k`), an intermediate value may leave the
                // `f64` range; that is the only failure allowed.
                let b = eval_at(&s, p);
                prop_assert!(
                    matches!(b, Ok(b) if close(a, b, 1e-6))
                        || matches!(b, Err(EvalError::NonFinite { .. })),
                    "`{}` simplified to `{}` at {:?}: {} vs {:?}", e, s, p, a, b
                );
            }
        }
    }
}

#[test]
fn basis_functions_as_users_write_them() {
    let env: BTreeMap<Name, f64> = [("n".into(), 8.0), ("x".into(), 3.0)].into();
    let at = |s: &str| eval_f64(&parse(s).unwrap(), &env, &EvalLimits::default()).unwrap();
    assert_eq!(at("n*log2(n)"), 24.0);
    assert_eq!(at("2^x"), 8.0);
    assert!((at("n^log2(7)") - 343.0).abs() < 1e-9);
    assert!((at("n*ln(n)") - 8.0 * 8f64.ln()).abs() < 1e-12);
    assert_eq!(at("sqrt(n*2)"), 4.0);
    assert_eq!(at("max(n, x^2) - min(n, x)"), 6.0);
    assert_eq!(at("floor(n/3) + ceil(n/3)"), 5.0);
}
