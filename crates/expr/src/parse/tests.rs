use super::*;
use crate::eval::{eval_exact, eval_f64, EvalLimits};
use crate::node::Name;
use crate::testing::{i, v};
use std::collections::BTreeMap;

fn p(s: &str) -> Expr {
    parse(s).unwrap_or_else(|e| panic!("`{s}`: {e}"))
}
fn err(s: &str) -> ParseError {
    match parse(s) {
        Ok(e) => panic!("`{s}` parsed as `{e}`"),
        Err(e) => e,
    }
}
/// The error for `s`, which must span bytes `start..end`.
#[track_caller]
fn err_at(s: &str, start: usize, end: usize) -> ParseError {
    let e = err(s);
    assert_eq!((e.start, e.end), (start, end), "`{s}`: {e}");
    e
}
fn at(x: f64, s: &str) -> f64 {
    let env: BTreeMap<Name, f64> = [("x".into(), x), ("n".into(), x), ("p".into(), x)].into();
    eval_f64(&p(s), &env, &EvalLimits::default()).unwrap()
}

#[test]
fn numbers_and_names() {
    assert_eq!(p("12"), i(12));
    assert_eq!(p("0.5"), Expr::ratio(1, 2));
    assert_eq!(p(".25"), Expr::ratio(1, 4));
    assert_eq!(p("1e-3"), Expr::ratio(1, 1000));
    assert_eq!(p("2.5E3"), i(2500));
    assert_eq!(p("-3"), i(-3));
    assert_eq!(p("tau_s"), v("tau_s"));
    assert_eq!(p("_x1"), v("_x1"));
    assert_eq!(p("  x\t"), v("x"));
    assert_eq!(p("3/4"), Expr::ratio(3, 4), "literal quotients are numbers");
    assert_eq!(p("2*3"), i(6));
    assert_eq!(p("1/0"), Expr::Mul(vec![i(1), Expr::pow(i(0), -1)]));
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(at(3.0, "1 + 2*x"), 7.0);
    assert_eq!(at(3.0, "(1 + 2)*x"), 9.0);
    assert_eq!(at(3.0, "-x^2"), -9.0);
    assert_eq!(at(3.0, "(-x)^2"), 9.0);
    assert_eq!(at(2.0, "2^x^2"), 16.0, "right-associative");
    assert_eq!(at(2.0, "(2^x)^2"), 16.0);
    assert_eq!(at(3.0, "2^3^x"), 2f64.powi(27));
    assert_eq!(at(8.0, "x/2/2"), 2.0, "left-associative");
    assert_eq!(at(8.0, "x - 2 - 2"), 4.0);
    assert_eq!(at(8.0, "x - (2 - 2)"), 8.0);
    assert_eq!(at(2.0, "2^-x"), 0.25);
    assert_eq!(at(2.0, "x^-1"), 0.5);
    assert_eq!(at(2.0, "--x"), 2.0);
    assert_eq!(at(2.0, "+x"), 2.0);
    assert_eq!(at(2.0, "-2^2"), -4.0);
    assert_eq!(at(4.0, "2*x^(1/2)*3"), 12.0);
    assert_eq!(p("-x^2"), -Expr::pow(v("x"), 2));
    assert_eq!(p("a - b"), Expr::Add(vec![v("a"), -v("b")]));
    assert_eq!(p("a + b + c"), Expr::Add(vec![v("a"), v("b"), v("c")]));
    assert_eq!(
        p("a*b/c"),
        Expr::Mul(vec![v("a"), v("b"), Expr::pow(v("c"), -1)])
    );
}

#[test]
fn powers_integer_and_real() {
    assert_eq!(p("x^2"), Expr::pow(v("x"), 2));
    assert_eq!(p("x^-1"), Expr::pow(v("x"), -1));
    assert_eq!(p("x^(-1)"), Expr::pow(v("x"), -1));
    assert_eq!(p("x^2.0"), Expr::pow(v("x"), 2));
    assert_eq!(p("x^(3/2)"), Expr::power(v("x"), Expr::ratio(3, 2)));
    assert_eq!(p("x^0.5"), Expr::power(v("x"), Expr::ratio(1, 2)));
    assert_eq!(p("2^x"), Expr::power(i(2), v("x")));
    assert_eq!(p("x^log2(7)"), Expr::power(v("x"), Expr::log2(i(7))));
    assert_eq!(p("sqrt(x)"), Expr::power(v("x"), Expr::ratio(1, 2)));
    let big = p("x^3000000000");
    assert!(matches!(big, Expr::Power(..)), "beyond i32: {big:?}");
}

#[test]
fn functions() {
    assert_eq!(p("log(n)"), Expr::log(v("n")));
    assert_eq!(p("ln(n)"), Expr::log(v("n")));
    assert_eq!(p("log2(n)"), Expr::log2(v("n")));
    assert_eq!(p("floor(n/2)"), Expr::Floor(Box::new(p("n/2"))));
    assert_eq!(p("ceil(n)"), Expr::Ceil(Box::new(v("n"))));
    assert_eq!(p("min(a)"), Expr::min(vec![v("a")]));
    assert_eq!(p("max(a, b, 3)"), Expr::max(vec![v("a"), v("b"), i(3)]));
    assert_eq!(at(8.0, "n*log2(n)"), 24.0);
    assert_eq!(at(8.0, "log2 (n)"), 3.0);
    assert!((at(8.0, "x^log2(7)") - 343.0).abs() < 1e-9);
}

#[test]
fn the_pmnf_example() {
    let e = p("2.8 + 0.48 * p^(5/4) * log2(p)");
    let env: BTreeMap<Name, Rational> = [("p".into(), Rational::from_integer(16.into()))].into();
    // 16^(5/4) = 32, log2(16) = 4: 2.8 + 0.48*128 = 64.24.
    assert_eq!(
        eval_exact(&e, &env, &EvalLimits::default()).unwrap(),
        Rational::new(6424.into(), 100.into())
    );
}

#[test]
fn missing_close_paren_is_reported_at_the_end() {
    let e = err_at("n*log(n", 7, 7);
    assert!(e.message.starts_with("expected `)`"), "{e}");
    assert!(e.message.contains("end of the input"), "{e}");
    assert_eq!(
        e.to_string(),
        "expected `)`, found the end of the input (at byte 7)"
    );
    err_at("(a + b", 6, 6);
    let e = err_at("max(a, b", 8, 8);
    assert!(e.message.starts_with("expected `)`"), "{e}");
}

#[test]
fn missing_operand_points_at_the_token() {
    let e = err_at("n**2", 2, 3);
    assert!(e.message.starts_with("expected an operand"), "{e}");
    assert!(e.message.contains("found `*`"), "{e}");
    let e = err_at("n +", 3, 3);
    assert!(e.message.contains("found the end of the input"), "{e}");
    let e = err_at("()", 1, 2);
    assert!(e.message.starts_with("expected an operand"), "{e}");
    err_at("x^", 2, 2);
}

#[test]
fn empty_input() {
    for s in ["", "   ", "\n\t"] {
        let e = err(s);
        assert_eq!(e.message, "expected an expression");
        assert_eq!(e.start, e.end);
    }
}

#[test]
fn unknown_functions_list_the_known_ones() {
    let e = err_at("foo(n)", 0, 3);
    assert_eq!(
        e.message,
        "unknown function `foo`; known: log, log2, ln, sqrt, min, max, floor, ceil"
    );
    let e = err_at("2*lg(n)", 2, 4);
    assert!(e.message.ends_with("did you mean `log`?"), "{e}");
    assert!(err("sqr(n)").message.ends_with("did you mean `sqrt`?"));
    assert!(err("flor(n)").message.ends_with("did you mean `floor`?"));
    assert!(err("Log2(n)").message.ends_with("did you mean `log2`?"));
    let e = err_at("exp(x)", 0, 3);
    assert!(e.message.contains("`exp` is not supported"), "{e}");
    let long = format!("{}(x)", "f".repeat(10_000));
    let e = err(&long);
    assert!(
        e.message.len() < 200,
        "the name is shortened: {}",
        e.message
    );
}

#[test]
fn argument_counts() {
    let e = err_at("log(a, b)", 0, 9);
    assert_eq!(e.message, "`log` takes one argument, got 2");
    assert_eq!(err("sqrt()").message, "`sqrt` takes one argument, got 0");
    assert_eq!(err("min()").message, "`min` takes at least one argument");
    let e = err_at("log n", 4, 5);
    assert!(
        e.message
            .starts_with("expected `(` after the function `log`"),
        "{e}"
    );
    let e = err("max(a,)");
    assert!(e.message.starts_with("expected an operand"), "{e}");
}

#[test]
fn stray_tokens() {
    let e = err_at("n m", 2, 3);
    assert!(e.message.starts_with("expected an operator"), "{e}");
    let e = err_at("n % 2", 2, 3);
    assert!(e.message.contains("found `%`"), "{e}");
    err_at("a)", 1, 2);
    // A whole multi-byte character.
    err_at("n × 2", 2, 4);
    err_at("2n", 1, 2);
    err_at("1..2", 1, 2);
    err_at("a, b", 1, 2);
}

#[test]
fn bad_numbers() {
    let e = err_at("x^1e99999", 2, 9);
    assert!(e.message.contains("too large"), "{e}");
    let long = "1".repeat(MAX_NUMBER_LEN + 1);
    let e = err(&long);
    assert!(e.message.contains("at most"), "{e}");
    assert_eq!(e.end, long.len());
}

#[test]
fn nesting_is_bounded() {
    let ok = format!("{}x{}", "(".repeat(200), ")".repeat(200));
    assert_eq!(p(&ok), v("x"));
    for deep in [
        format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000)),
        format!("{}x", "-".repeat(100_000)),
        format!("x{}", "^x".repeat(100_000)),
        format!("{}x{}", "log(".repeat(100_000), ")".repeat(100_000)),
    ] {
        let e = err(&deep);
        assert!(e.message.contains("nests deeper than 256"), "{e}");
    }
}

#[test]
fn long_inputs_are_flat_and_fast() {
    let n = 200_000;
    let text = vec!["x"; n].join(" + ");
    let start = std::time::Instant::now();
    let e = p(&text);
    assert!(matches!(&e, Expr::Add(v) if v.len() == n));
    let text = vec!["x"; n].join("*");
    assert!(matches!(p(&text), Expr::Mul(v) if v.len() == n));
    assert!(start.elapsed().as_secs() < 10);
}

#[test]
fn printed_forms_parse_back() {
    for e in [
        Expr::power(v("x"), Expr::ratio(3, 2)),
        Expr::power(i(-2), v("y")) + Expr::log2(v("x") * i(3)),
        Expr::pow(Expr::power(v("x"), v("y")), -2) * v("z"),
        Expr::ratio(14, 5) + Expr::ratio(12, 25) * Expr::power(v("p"), Expr::ratio(5, 4)),
        Expr::sub(v("a"), Expr::ratio(-1, 3) * v("b")),
        Expr::div(v("a"), Expr::ratio(2, 3)),
        Expr::max(vec![v("a"), Expr::min(vec![v("b"), i(-1)])]),
    ] {
        let text = e.to_string();
        let back = p(&text);
        assert_eq!(back.to_string(), text, "`{text}` prints the same again");
    }
}

#[test]
fn trees_at_the_depth_limit_work_everywhere() {
    let n = 250;
    for text in [
        format!("{}x{}", "log2(".repeat(n), ")".repeat(n)),
        format!("{}x{}", "x^(".repeat(n / 2), ")".repeat(n / 2)),
        format!("{}x{}", "-(".repeat(n / 2), ")".repeat(n / 2)),
        format!("{}x", "-".repeat(n)),
        format!("{}x{}", "(1 + 2*".repeat(n / 3), ")".repeat(n / 3)),
        format!("{}x{}", "max(1, 1/".repeat(n / 2), ")".repeat(n / 2)),
    ] {
        let e = p(&text);
        let s = e.to_string();
        let _ = crate::print::to_latex(&e);
        let env: BTreeMap<Name, f64> = [("x".into(), 2.0)].into();
        let _ = eval_f64(&e, &env, &EvalLimits::default());
        let envq: BTreeMap<Name, Rational> =
            [("x".into(), Rational::from_integer(2.into()))].into();
        let _ = eval_exact(&e, &envq, &EvalLimits::default());
        let c = crate::compile::Compiled::new(&e, &["x".into()]).unwrap();
        let _ = c.eval(&[2.0]);
        let _ = crate::simplify::simplify(&e, &crate::Assumptions::new());
        let _ = parse(&s);
    }
}

#[test]
fn the_first_problem_is_reported() {
    err_at("* 1e99999", 0, 1);
    err_at("x + 1e99999 +", 4, 11);
}
