//! Semantics of every operator under the three evaluators (exact, tree `f64`, compiled), their
//! agreement on random expressions, and their errors and limits.

use expr::compile::{Compiled, CompiledCond};
use expr::eval::{
    cond_probability_exact, cond_probability_f64, eval_cond_exact, eval_cond_f64, eval_exact,
    eval_f64, EvalError, EvalLimits, LimitKind,
};
use expr::number::{parse_rational, to_f64};
use expr::{CmpOp, Cond, Expr, FoldOp, Name, Rational};
use proptest::prelude::*;
use proptest::strategy::Union;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

mod common;
use common::{cmp_of, fold_of, i, nary, rounding_and_extrema, v};

fn q(s: &str) -> Rational {
    parse_rational(s).unwrap()
}

fn num(s: &str) -> Expr {
    Expr::Num(q(s))
}

/// The names every test environment binds, in slot order.
const NAMES: [&str; 5] = ["x", "y", "z", "i", "j"];

struct Envs {
    exact: BTreeMap<Name, Rational>,
    float: BTreeMap<Name, f64>,
    slots: Vec<Name>,
    vals: Vec<f64>,
}

fn envs(bindings: &[(&str, &str)]) -> Envs {
    let mut e = Envs {
        exact: BTreeMap::new(),
        float: BTreeMap::new(),
        slots: Vec::new(),
        vals: Vec::new(),
    };
    for (n, val) in bindings {
        let r = q(val);
        e.float.insert(Name::from(*n), to_f64(&r));
        e.vals.push(to_f64(&r));
        e.slots.push(Name::from(*n));
        e.exact.insert(Name::from(*n), r);
    }
    e
}

/// Evaluates with all three evaluators under the given limits.
fn eval3(
    e: &Expr,
    env: &Envs,
    limits: &EvalLimits,
) -> (
    Result<Rational, EvalError>,
    Result<f64, EvalError>,
    Result<f64, EvalError>,
) {
    let exact = eval_exact(e, &env.exact, limits);
    let float = eval_f64(e, &env.float, limits);
    let compiled = Compiled::with_limits(e, &env.slots, *limits).and_then(|c| c.eval(&env.vals));
    (exact, float, compiled)
}

/// Asserts that all three evaluators give `want` (exactly, and its nearest f64).
#[track_caller]
fn check(e: &Expr, bindings: &[(&str, &str)], want: &str) {
    let env = envs(bindings);
    let (exact, float, compiled) = eval3(e, &env, &EvalLimits::default());
    let want = q(want);
    assert_eq!(exact, Ok(want.clone()), "exact value of `{e}`");
    assert_eq!(float, Ok(to_f64(&want)), "f64 value of `{e}`");
    assert_eq!(compiled, Ok(to_f64(&want)), "compiled value of `{e}`");
}

/// Asserts that all three evaluators fail with the same error, and returns it.
#[track_caller]
fn check_err(e: &Expr, bindings: &[(&str, &str)]) -> EvalError {
    let env = envs(bindings);
    let (exact, float, compiled) = eval3(e, &env, &EvalLimits::default());
    let err = float.expect_err("f64 evaluation should fail");
    assert_eq!(exact, Err(err.clone()), "exact error for `{e}`");
    assert_eq!(compiled, Err(err.clone()), "compiled error for `{e}`");
    err
}

#[test]
fn arithmetic() {
    check(&(v("x") + v("y") * i(3)), &[("x", "1"), ("y", "2")], "7");
    check(&(v("x") - v("y")), &[("x", "1"), ("y", "2.5")], "-1.5");
    check(&(v("x") / v("y")), &[("x", "1"), ("y", "4")], "0.25");
    check(&Expr::Add(vec![]), &[], "0");
    check(&Expr::Mul(vec![]), &[], "1");
    check(&Expr::Pow(Box::new(v("x")), 3), &[("x", "-2")], "-8");
    check(&Expr::Pow(Box::new(v("x")), -2), &[("x", "2")], "0.25");
    check(&Expr::Pow(Box::new(v("x")), 0), &[("x", "0")], "1");
    // Exact arithmetic is exact; f64 is not.
    let e = num("0.1") + num("0.2");
    let (exact, float, compiled) = eval3(&e, &envs(&[]), &EvalLimits::default());
    assert_eq!(exact.unwrap(), q("0.3"));
    assert_eq!(float.unwrap(), 0.1 + 0.2);
    assert_eq!(compiled.unwrap(), 0.1 + 0.2);
    check(&(i(1) / (i(1) / v("x"))), &[("x", "3")], "3");
}

#[test]
fn min_and_max() {
    let e = Expr::max(vec![v("x"), v("y"), i(0)]);
    check(&e, &[("x", "-1"), ("y", "-2")], "0");
    let e = Expr::min(vec![v("x"), v("y"), i(0)]);
    check(&e, &[("x", "-1"), ("y", "-2")], "-2");
    check(&Expr::max(vec![v("x")]), &[("x", "5")], "5");
}

#[test]
fn floor_and_ceil_of_negatives() {
    let fl = |e: Expr| Expr::Floor(Box::new(e));
    let ce = |e: Expr| Expr::Ceil(Box::new(e));
    check(&fl(num("-2.5")), &[], "-3");
    check(&ce(num("-2.5")), &[], "-2");
    check(&fl(i(-3)), &[], "-3");
    check(&ce(i(-3)), &[], "-3");
    check(&fl(num("2.5")), &[], "2");
    check(&ce(num("2.5")), &[], "3");
    check(&fl(v("x") / i(3)), &[("x", "-1")], "-1");
}

/// `node(a, b)` over the constants `a` and `b`.
fn binary(node: fn(Box<Expr>, Box<Expr>) -> Expr, a: &str, b: &str) -> Expr {
    node(Box::new(num(a)), Box::new(num(b)))
}

/// Checks `node(a, b)` against `want` for every row `(a, b, want)`.
#[track_caller]
fn check_binary(node: fn(Box<Expr>, Box<Expr>) -> Expr, rows: &[(&str, &str, &str)]) {
    for (a, b, want) in rows {
        check(&binary(node, a, b), &[], want);
    }
}

#[test]
fn floored_modulus() {
    check_binary(
        Expr::Mod,
        &[
            ("7", "3", "1"),
            ("-7", "3", "2"),
            ("7", "-3", "-2"),
            ("-7", "-3", "-1"),
            ("6", "3", "0"),
            ("-6", "3", "0"),
            ("7.5", "2", "1.5"),
            ("-0.5", "2", "1.5"),
            ("5", "0.75", "0.5"),
        ],
    );
    let e = check_err(&binary(Expr::Mod, "5", "0"), &[]);
    assert_eq!(e.to_string(), "division by zero in `5 mod 0`");
}

#[test]
fn gcd() {
    check_binary(
        Expr::Gcd,
        &[
            ("12", "-18", "6"),
            ("0", "5", "5"),
            ("0", "0", "0"),
            ("-7", "-7", "7"),
            ("1071", "462", "21"),
        ],
    );
    let e = check_err(&binary(Expr::Gcd, "1.5", "3"), &[]);
    assert_eq!(
        e.to_string(),
        "`gcd(1.5, 3)` needs integer operands but got 1.5"
    );
}

#[test]
fn logarithm() {
    let log = |e: Expr| Expr::Log(Box::new(e));
    check(&log(i(1)), &[], "0");
    let env = envs(&[("x", "8")]);
    let e = log(v("x"));
    let l = EvalLimits::default();
    assert_eq!(eval_f64(&e, &env.float, &l).unwrap(), 8f64.ln());
    let c = Compiled::new(&e, &env.slots).unwrap();
    assert_eq!(c.eval(&env.vals).unwrap(), 8f64.ln());
    assert_eq!(
        eval_exact(&e, &env.exact, &l).unwrap_err().to_string(),
        "`log(x)` has no exact rational value; evaluate in floating point instead"
    );
    let err = check_err(&log(v("x") - i(8)), &[("x", "8")]);
    assert!(matches!(err, EvalError::LogOfNonPositive { .. }));
    assert_eq!(
        err.to_string(),
        "logarithm of 0, which is not positive, in `log(x - 8)`"
    );
}

#[test]
fn real_power() {
    let pw = Expr::power;
    let xy = |x: &'static str, y: &'static str| [("x", x), ("y", y)];
    let e = pw(v("x"), v("y"));
    check(&pw(v("x"), num("0.5")), &[("x", "2.25")], "1.5");
    check(&pw(v("x"), num("1.5")), &[("x", "4")], "8");
    check(&pw(v("x"), num("-0.5")), &[("x", "4")], "0.5");
    check(&pw(i(2), v("x")), &[("x", "10")], "1024");
    // Integer exponents: as `Pow`, negative bases and 0^0 included.
    check(&e, &xy("-2", "3"), "-8");
    check(&e, &xy("2", "-2"), "0.25");
    check(&e, &xy("0", "0"), "1");
    check(&e, &xy("-3", "0"), "1");
    check(&e, &xy("0", "0.5"), "0");
    check(&e, &xy("-1", "1000000000000"), "1");
    check(&e, &xy("-1", "1000000000001"), "-1");
    check(&e, &xy("0", "1000000000000"), "0");
    // Exact rational roots.
    let l = EvalLimits::default();
    let exact = |e: &Expr, b: &[(&str, &str)]| eval_exact(e, &envs(b).exact, &l);
    assert_eq!(exact(&e, &xy("8", "2/3")), Ok(q("4")));
    assert_eq!(exact(&e, &xy("27/8", "-2/3")), Ok(q("4/9")));
    assert_eq!(exact(&e, &xy("1", "1/3")), Ok(q("1")));
    let f = eval_f64(&e, &envs(&xy("8", "2/3")).float, &l).unwrap();
    assert!((f - 4.0).abs() < 1e-12, "{f}");
    // Irrational values are f64 only.
    let r2 = pw(i(2), num("0.5"));
    assert_eq!(
        exact(&r2, &[]).unwrap_err().to_string(),
        "`2^(1/2)` has no exact rational value; evaluate in floating point instead"
    );
    assert_eq!(
        eval_f64(&r2, &envs(&[]).float, &l).unwrap(),
        std::f64::consts::SQRT_2
    );
    assert!(matches!(
        exact(&pw(v("x"), Expr::log2(i(7))), &[("x", "2")]),
        Err(EvalError::NotExact { .. })
    ));
    // Domain errors, the same from every evaluator.
    let err = check_err(&pw(v("x"), num("0.5")), &[("x", "-4")]);
    assert!(matches!(err, EvalError::NegativeToFractionalPower { .. }));
    assert_eq!(
        err.to_string(),
        "power of a negative number (-4) to a fractional exponent (0.5) in `x^(1/2)`"
    );
    let err = check_err(&pw(v("x"), num("-0.5")), &[("x", "0")]);
    assert_eq!(
        err.to_string(),
        "zero raised to a negative power in `x^(-1/2)`"
    );
    let err = check_err(&e, &xy("0", "-1"));
    assert!(matches!(err, EvalError::DivisionByZero { .. }));
    let err = check_err(&e, &xy("0", "-2"));
    assert!(matches!(err, EvalError::ZeroToNegativePower { .. }));
    let err = check_err(&e, &xy("0", "-1000000000000"));
    assert!(matches!(err, EvalError::ZeroToNegativePower { .. }));
    // Huge values: beyond the exact size limit, not finite in f64.
    assert!(matches!(
        exact(&e, &xy("3", "1000000000000")),
        Err(EvalError::Limit {
            kind: LimitKind::ExactBits,
            ..
        })
    ));
    assert!(matches!(
        eval_f64(&e, &envs(&xy("3", "1000000000000")).float, &l),
        Err(EvalError::NonFinite { .. })
    ));
}

#[test]
fn binary_logarithm() {
    let e = Expr::log2(v("x"));
    check(&e, &[("x", "8")], "3");
    check(&e, &[("x", "1")], "0");
    check(&e, &[("x", "1/16")], "-4");
    let env = envs(&[("x", "3")]);
    let l = EvalLimits::default();
    assert_eq!(eval_f64(&e, &env.float, &l).unwrap(), 3f64.log2());
    assert_eq!(
        eval_exact(&e, &env.exact, &l).unwrap_err().to_string(),
        "`log2(x)` has no exact rational value; evaluate in floating point instead"
    );
    let err = check_err(&e, &[("x", "0")]);
    assert_eq!(
        err.to_string(),
        "logarithm of 0, which is not positive, in `log2(x)`"
    );
    let err = check_err(&e, &[("x", "-2")]);
    assert!(matches!(err, EvalError::LogOfNonPositive { .. }));
}

#[test]
fn folds_round_their_bounds() {
    let s = |lo: Expr, hi: Expr| Expr::sum_over("i", lo, hi, v("i"));
    check(&s(i(1), i(4)), &[], "10");
    check(&s(num("0.5"), num("3.5")), &[], "6");
    check(&s(num("-1.5"), num("1.5")), &[], "0");
    check(&s(num("3.2"), num("3.7")), &[], "0");
    check(&s(i(5), i(1)), &[], "0");
    check(&s(i(1), v("x")), &[("x", "100")], "5050");
    let mx = Expr::max_over("i", i(-2), i(2), Expr::Pow(Box::new(v("i")), 2));
    check(&mx, &[], "4");
    let mn = Expr::fold(
        FoldOp::Min,
        "i",
        i(-2),
        i(2),
        Expr::Pow(Box::new(v("i")), 2),
    );
    check(&mn, &[], "0");
    let empty_max = Expr::max_over("i", i(1), i(0), v("i") + i(100));
    check(&empty_max, &[], "0");
    let empty_min = Expr::fold(FoldOp::Min, "i", i(1), i(0), v("i") - i(100));
    check(&empty_min, &[], "0");
    // A rational body.
    let h = Expr::sum_over("i", i(1), i(4), i(1) / v("i"));
    let env = envs(&[]);
    let (exact, float, compiled) = eval3(&h, &env, &EvalLimits::default());
    assert_eq!(exact.unwrap(), q("25/12"));
    assert!((float.clone().unwrap() - 25.0 / 12.0).abs() < 1e-15);
    assert_eq!(float, compiled);
}

#[test]
fn nested_folds_and_shadowing() {
    // sum(i = 1..3, sum(i = i..3, i)) = (1+2+3) + (2+3) + 3.
    let inner = Expr::sum_over("i", v("i"), i(3), v("i"));
    check(&Expr::sum_over("i", i(1), i(3), inner), &[], "14");
    // The bound i hides the parameter i; j stays free.
    let e = Expr::sum_over("i", i(1), i(3), v("i") * v("j"));
    check(&e, &[("i", "100"), ("j", "2")], "12");
    check(&(v("i") + e), &[("i", "100"), ("j", "2")], "112");
    // Triangle: sum(i = 1..3, i + sum(j = 1..i, j)).
    let t = Expr::sum_over(
        "i",
        i(1),
        i(3),
        v("i") + Expr::sum_over("j", i(1), v("i"), v("j")),
    );
    check(&t, &[], "16");
    // max over p of a sum that depends on p.
    let m = Expr::max_over(
        "p",
        i(0),
        v("P") - i(1),
        Expr::sum_over(
            "k",
            i(0),
            v("p"),
            Expr::Mod(Box::new(v("k")), Box::new(i(2))),
        ),
    );
    check(&m, &[("P", "5")], "2");
}

#[test]
fn conditionals_and_probabilities() {
    let c = |op, a, b| Cond::cmp(op, a, b);
    // A deterministic condition picks a branch; the other is not evaluated.
    let guard = Expr::ite(c(CmpOp::Ne, v("x"), i(0)), i(1) / v("x"), i(0));
    check(&guard, &[("x", "0")], "0");
    check(&guard, &[("x", "4")], "0.25");
    // A stochastic condition is the expectation.
    let e = Expr::ite(Cond::Prob(num("0.3")), i(10), i(20));
    check(&e, &[], "17");
    // prob(0) never evaluates its then-branch; prob(1) never its else-branch.
    check(
        &Expr::ite(Cond::Prob(i(0)), i(1) / v("x"), i(5)),
        &[("x", "0")],
        "5",
    );
    check(
        &Expr::ite(Cond::Prob(i(1)), i(5), i(1) / v("x")),
        &[("x", "0")],
        "5",
    );
    // and = product, or = 1 - product of complements, not = complement.
    let and = Cond::And(vec![Cond::Prob(num("0.5")), Cond::Prob(num("0.4"))]);
    check(&Expr::ite(and.clone(), i(1), i(0)), &[], "0.2");
    let or = Cond::Or(vec![Cond::Prob(num("0.5")), Cond::Prob(num("0.4"))]);
    check(&Expr::ite(or, i(1), i(0)), &[], "0.7");
    let not = Cond::Not(Box::new(Cond::Prob(num("0.25"))));
    check(&Expr::ite(not, i(1), i(0)), &[], "0.75");
    // and stops at a false operand: `x != 0 and 1/x > 2` is fine at x = 0.
    let lazy = Cond::And(vec![
        c(CmpOp::Ne, v("x"), i(0)),
        c(CmpOp::Gt, i(1) / v("x"), i(2)),
    ]);
    check(&Expr::ite(lazy.clone(), i(1), i(7)), &[("x", "0")], "7");
    check(&Expr::ite(lazy, i(1), i(7)), &[("x", "0.25")], "1");
    // Every comparison operator.
    for (op, want) in [
        (CmpOp::Eq, "0"),
        (CmpOp::Ne, "1"),
        (CmpOp::Lt, "1"),
        (CmpOp::Le, "1"),
        (CmpOp::Gt, "0"),
        (CmpOp::Ge, "0"),
    ] {
        check(&Expr::ite(c(op, i(1), i(2)), i(1), i(0)), &[], want);
    }
    // Out-of-range probabilities are errors.
    let bad = Expr::ite(Cond::Prob(num("1.5")), i(1), i(0));
    let err = check_err(&bad, &[]);
    assert_eq!(
        err.to_string(),
        "probability 1.5 is outside [0, 1] in `prob(1.5)`"
    );
}

#[test]
fn condition_truth_values_and_probabilities() {
    let env = envs(&[("x", "3")]);
    let l = EvalLimits::default();
    let gt = Cond::cmp(CmpOp::Gt, v("x"), i(1));
    assert!(eval_cond_exact(&gt, &env.exact, &l).unwrap());
    assert!(eval_cond_f64(&gt, &env.float, &l).unwrap());
    let p = Cond::And(vec![gt.clone(), Cond::Prob(num("0.5"))]);
    assert_eq!(
        cond_probability_exact(&p, &env.exact, &l).unwrap(),
        q("0.5")
    );
    assert_eq!(cond_probability_f64(&p, &env.float, &l).unwrap(), 0.5);
    let err = eval_cond_exact(&p, &env.exact, &l).unwrap_err();
    assert!(matches!(err, EvalError::Stochastic { .. }));
    assert!(err.to_string().contains("probability 0.5"), "{err}");
    assert!(matches!(
        eval_cond_f64(&p, &env.float, &l),
        Err(EvalError::Stochastic { .. })
    ));
    // prob(1) is certain.
    assert!(eval_cond_f64(&Cond::Prob(i(1)), &env.float, &l).unwrap());
    let cc = CompiledCond::new(&p, &env.slots).unwrap();
    assert_eq!(cc.probability(&env.vals).unwrap(), 0.5);
    assert!(cc.sample(&env.vals, &mut |_| true).unwrap());
    assert!(!cc.sample(&env.vals, &mut |_| false).unwrap());
}

#[test]
fn sampling_frequency_matches_probability() {
    // A deterministic little generator; the sampled frequency must approach the probability.
    let c = Cond::Or(vec![
        Cond::And(vec![Cond::Prob(num("0.5")), Cond::Prob(num("0.4"))]),
        Cond::Not(Box::new(Cond::Prob(num("0.9")))),
    ]);
    let cc = CompiledCond::new(&c, &[]).unwrap();
    let p = cc.probability(&[]).unwrap();
    assert!((p - (1.0 - 0.8 * 0.9)).abs() < 1e-12);
    let mut rng = stats::rng::seeded(0x2545);
    let mut coin = |p: f64| stats::rng::Draw::uniform(&mut rng) < p;
    let n = 200_000;
    let hits = (0..n)
        .filter(|_| cc.sample(&[], &mut coin).unwrap())
        .count();
    let freq = hits as f64 / n as f64;
    assert!(
        (freq - p).abs() < 0.01,
        "frequency {freq} vs probability {p}"
    );
}

#[test]
fn division_by_zero_names_the_division() {
    let e = i(1) + v("N") / (v("P") - i(4));
    let err = check_err(&e, &[("N", "10"), ("P", "4")]);
    assert_eq!(err.to_string(), "division by zero in `N/(P - 4)`");
    let err = check_err(&Expr::Pow(Box::new(v("x")), -1), &[("x", "0")]);
    assert_eq!(err.to_string(), "division by zero in `1/x`");
    let err = check_err(&Expr::Pow(Box::new(v("x")), -2), &[("x", "0")]);
    assert_eq!(
        err.to_string(),
        "zero raised to a negative power in `1/x^2`"
    );
}

#[test]
fn unbound_variables() {
    let e = v("x") + v("missing");
    let err = check_err(&e, &[("x", "1")]);
    assert_eq!(
        err,
        EvalError::UnboundVariable {
            name: "missing".into()
        }
    );
    assert_eq!(err.to_string(), "no value for `missing`");
    // The compiled form refuses at compile time.
    let c = Compiled::new(&e, &[Name::from("x")]);
    assert!(matches!(c, Err(EvalError::UnboundVariable { .. })));
    // A fold variable is not free.
    let s = Expr::sum_over("k", i(1), i(3), v("k"));
    assert!(Compiled::new(&s, &[]).is_ok());
}

#[test]
fn non_finite_values() {
    let env = envs(&[]);
    let huge = Expr::Num(q("1e300"));
    let e = huge.clone() * huge.clone();
    let (exact, float, compiled) = eval3(&e, &env, &EvalLimits::default());
    assert_eq!(exact.unwrap(), q("1e600"));
    let msg = float.clone().unwrap_err().to_string();
    assert!(msg.starts_with("non-finite value in `1000"), "{msg}");
    assert!(
        msg.ends_with("000…`"),
        "long expressions are shortened: {msg}"
    );
    assert_eq!(float, compiled);
    // A constant beyond f64 range.
    let (_, float, compiled) = eval3(&Expr::Num(q("1e400")), &env, &EvalLimits::default());
    assert!(matches!(float, Err(EvalError::NonFinite { .. })));
    assert_eq!(float, compiled);
    // A non-finite input value.
    let fenv: BTreeMap<Name, f64> = [(Name::from("x"), f64::INFINITY)].into();
    let err = eval_f64(&v("x"), &fenv, &EvalLimits::default()).unwrap_err();
    assert_eq!(err.to_string(), "non-finite value in `x`");
    let c = Compiled::new(&v("x"), &[Name::from("x")]).unwrap();
    assert_eq!(c.eval(&[f64::NAN]).unwrap_err(), err);
}

#[test]
fn fold_limits_stop_hostile_sums_at_once() {
    let start = Instant::now();
    let e = Expr::sum_over("i", i(1), Expr::Num(q("1e15")), v("i"));
    let err = check_err(&e, &[]);
    assert_eq!(
        err,
        EvalError::Limit {
            kind: LimitKind::FoldIterations,
            limit: 100_000_000,
            expr: "sum(i = 1..1000000000000000, i)".into()
        }
    );
    let e = Expr::sum_over("i", i(1), Expr::Num(q("1e18")), v("i"));
    check_err(&e, &[]);
    assert!(start.elapsed() < Duration::from_secs(2));
    // Nested folds share one budget.
    let limits = EvalLimits::with_fold_iterations(10_000);
    let nested = Expr::sum_over(
        "i",
        i(1),
        i(100),
        Expr::sum_over("j", i(1), i(1000), v("j")),
    );
    let env = envs(&[]);
    let (exact, float, compiled) = eval3(&nested, &env, &limits);
    assert!(matches!(float, Err(EvalError::Limit { limit: 10_000, .. })));
    assert_eq!(exact, Err(float.clone().unwrap_err()));
    assert_eq!(compiled, float);
    // Within budget it works.
    let ok = Expr::sum_over("i", i(1), i(10), Expr::sum_over("j", i(1), i(999), v("j")));
    let (exact, _, compiled) = eval3(&ok, &env, &limits);
    assert_eq!(exact.unwrap(), q("4995000"));
    assert_eq!(compiled.unwrap(), 4995000.0);
}

#[test]
fn exact_size_limit_stops_huge_powers() {
    let start = Instant::now();
    let e = Expr::Pow(Box::new(i(3)), 100_000_000);
    let err = eval_exact(&e, &BTreeMap::new(), &EvalLimits::default()).unwrap_err();
    assert!(matches!(
        err,
        EvalError::Limit {
            kind: LimitKind::ExactBits,
            ..
        }
    ));
    // 1 to a huge power is cheap and fine.
    let one = Expr::Pow(Box::new(i(1)), i32::MAX);
    assert_eq!(
        eval_exact(&one, &BTreeMap::new(), &EvalLimits::default()).unwrap(),
        q("1")
    );
    assert!(start.elapsed() < Duration::from_secs(2));
}

#[test]
fn compiled_is_shareable_across_threads() {
    let e = Expr::sum_over("i", i(1), v("n"), v("i") * v("t"));
    let c = Compiled::new(&e, &[Name::from("n"), Name::from("t")]).unwrap();
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..=4)
            .map(|k| {
                let c = &c;
                s.spawn(move || c.eval(&[100.0, k as f64]).unwrap())
            })
            .collect();
        for (k, h) in handles.into_iter().enumerate() {
            assert_eq!(h.join().unwrap(), 5050.0 * (k + 1) as f64);
        }
    });
}

#[test]
fn deep_expressions_do_not_overflow_the_stack() {
    // 300 levels of alternating sums and products, on a test thread's default stack.
    let mut e = v("x");
    for k in 0..300 {
        e = if k % 2 == 0 {
            Expr::Add(vec![e, i(1)])
        } else {
            Expr::Mul(vec![num("0.5"), e])
        };
    }
    let env = envs(&[("x", "1")]);
    let (exact, float, compiled) = eval3(&e, &env, &EvalLimits::default());
    let exact = exact.unwrap();
    assert_eq!(float.unwrap(), to_f64(&exact));
    assert_eq!(compiled.unwrap(), to_f64(&exact));
    assert!(e.to_string().len() > 600);
}

// ---------------------------------------------------------------------------------------
// Random expressions.

fn leaf() -> BoxedStrategy<Expr> {
    prop_oneof![
        (-8i64..=8, prop::sample::select(vec![1i64, 2])).prop_map(|(n, d)| Expr::ratio(n, d)),
        prop::sample::select(NAMES.to_vec()).prop_map(Expr::var),
    ]
    .boxed()
}

fn cond_of(inner: BoxedStrategy<Expr>, general: bool) -> BoxedStrategy<Cond> {
    let cmp = cmp_of(&inner);
    let prob = prop::sample::select(vec!["0", "0.25", "0.5", "0.75", "1"])
        .prop_map(|p| Cond::Prob(num(p)))
        .boxed();
    let mut options = vec![
        cmp.clone(),
        prob.clone(),
        (cmp.clone(), prob.clone())
            .prop_map(|(a, b)| Cond::And(vec![a, b]))
            .boxed(),
        (prob.clone(), cmp.clone())
            .prop_map(|(a, b)| Cond::Or(vec![a, b]))
            .boxed(),
        cmp.prop_map(|c| Cond::Not(Box::new(c))).boxed(),
    ];
    if general {
        options.push(inner.prop_map(Cond::Prob).boxed());
    }
    Union::new(options).boxed()
}

/// Random expressions. `general` adds division, negative powers, logarithms and real powers,
/// whose `f64` results are inexact; without it every value is a small dyadic rational that
/// `f64` represents exactly, so exact and `f64` evaluation must agree.
fn expr_strategy(general: bool) -> BoxedStrategy<Expr> {
    let (depth, size) = if general { (5, 64) } else { (3, 40) };
    let arity = if general { 3 } else { 2 };
    leaf()
        .prop_recursive(depth, size, 3, move |inner| {
            let mut options: Vec<BoxedStrategy<Expr>> = vec![
                nary(&inner, 2..=arity, Expr::Add),
                nary(&inner, 2..=arity, Expr::Mul),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| a - b)
                    .boxed(),
            ];
            options.extend(rounding_and_extrema(&inner));
            options.extend([
                (inner.clone(), 0i32..=2)
                    .prop_map(|(a, k)| Expr::Pow(Box::new(a), k))
                    .boxed(),
                fold_of(&inner),
                (
                    cond_of(inner.clone(), general),
                    inner.clone(),
                    inner.clone(),
                )
                    .prop_map(|(c, a, b)| Expr::ite(c, a, b))
                    .boxed(),
            ]);
            if general {
                options.push(
                    (inner.clone(), inner.clone())
                        .prop_map(|(a, b)| a / b)
                        .boxed(),
                );
                options.push(
                    (inner.clone(), -2i32..=-1)
                        .prop_map(|(a, k)| Expr::Pow(Box::new(a), k))
                        .boxed(),
                );
                options.push(inner.clone().prop_map(|a| Expr::Log(Box::new(a))).boxed());
                options.push(inner.clone().prop_map(Expr::log2).boxed());
                options.push(
                    (inner.clone(), inner.clone())
                        .prop_map(|(a, b)| Expr::power(a, b))
                        .boxed(),
                );
            }
            Union::new(options)
        })
        .boxed()
}

fn env_strategy() -> impl Strategy<Value = Vec<(&'static str, String)>> {
    prop::collection::vec(-8i64..=8, NAMES.len()).prop_map(|halves| {
        NAMES
            .iter()
            .zip(halves)
            .map(|(n, h)| (*n, format!("{h}/2")))
            .collect()
    })
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The compiled evaluator agrees with the tree evaluator, errors included.
    #[test]
    fn compiled_agrees_with_eval_f64(e in expr_strategy(true), vals in env_strategy()) {
        let bindings: Vec<(&str, &str)> = vals.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let env = envs(&bindings);
        let limits = EvalLimits::with_fold_iterations(20_000);
        let float = eval_f64(&e, &env.float, &limits);
        let compiled = Compiled::with_limits(&e, &env.slots, limits).unwrap().eval(&env.vals);
        match (&float, &compiled) {
            (Ok(a), Ok(b)) => prop_assert!(close(*a, *b), "`{}`: tree {} vs compiled {}", e, a, b),
            _ => prop_assert_eq!(&float, &compiled, "`{}`", e),
        }
    }

    /// On dyadic inputs without division, exact and f64 evaluation agree (and so does the
    /// compiled form).
    #[test]
    fn exact_agrees_with_f64(e in expr_strategy(false), vals in env_strategy()) {
        let bindings: Vec<(&str, &str)> = vals.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let env = envs(&bindings);
        let limits = EvalLimits::with_fold_iterations(20_000);
        let (exact, float, compiled) = eval3(&e, &env, &limits);
        match (&exact, &float) {
            (Ok(x), Ok(f)) => prop_assert!(close(to_f64(x), *f), "`{}`: exact {} vs f64 {}", e, x, f),
            (Err(a), Err(b)) => prop_assert_eq!(a, b, "`{}`", e),
            _ => prop_assert!(false, "`{}`: exact {:?} vs f64 {:?}", e, exact, float),
        }
        prop_assert_eq!(&float, &compiled, "`{}`", e);
    }
}
