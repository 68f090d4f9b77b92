use super::*;
use crate::node::{CmpOp, Cond, Expr};
use crate::testing::{i, v};

fn params() -> Assumptions {
    Assumptions::new()
        .int_at_least("N", 1)
        .int_at_least("P", 1)
        .int_at_least("M", 1)
        .int_at_least("S", 1)
        .real_at_least("tau_l", 0)
        .real_at_least("tau_s", 0)
        .real_at_least("tau", 0)
}

/// A small exact evaluator for the tests (folds by iteration).
fn ev(e: &Expr, env: &mut Vec<(String, f64)>) -> f64 {
    let look = |env: &Vec<(String, f64)>, n: &str| {
        env.iter()
            .rev()
            .find(|(k, _)| k == n)
            .map(|(_, x)| *x)
            .unwrap_or_else(|| panic!("unbound {n}"))
    };
    match e {
        Expr::Num(r) => to_f64(r),
        Expr::Var(n) => look(env, n),
        Expr::Add(v) => v.iter().map(|x| ev(x, env)).sum(),
        Expr::Mul(v) => v.iter().map(|x| ev(x, env)).product(),
        Expr::Pow(b, k) => ev(b, env).powi(*k),
        Expr::Max(v) => v.iter().map(|x| ev(x, env)).fold(f64::MIN, f64::max),
        Expr::Min(v) => v.iter().map(|x| ev(x, env)).fold(f64::MAX, f64::min),
        Expr::Floor(a) => (ev(a, env) + 1e-9).floor(),
        Expr::Ceil(a) => (ev(a, env) - 1e-9).ceil(),
        Expr::Mod(a, b) => {
            let (a, b) = (ev(a, env), ev(b, env));
            a - b * (a / b).floor()
        }
        Expr::Gcd(a, b) => {
            let (mut a, mut b) = (ev(a, env).abs() as i64, ev(b, env).abs() as i64);
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a as f64
        }
        Expr::Log(a) => ev(a, env).ln(),
        Expr::Log2(a) => ev(a, env).log2(),
        Expr::Power(b, x) => ev(b, env).powf(ev(x, env)),
        Expr::Fold(fd) => {
            let lo = (ev(&fd.lo, env) - 1e-9).ceil() as i64;
            let hi = (ev(&fd.hi, env) + 1e-9).floor() as i64;
            let mut acc: Option<f64> = None;
            for k in lo..=hi {
                env.push((fd.var.to_string(), k as f64));
                let x = ev(&fd.body, env);
                env.pop();
                acc = Some(match (acc, fd.op) {
                    (None, _) => x,
                    (Some(a), FoldOp::Sum) => a + x,
                    (Some(a), FoldOp::Max) => a.max(x),
                    (Some(a), FoldOp::Min) => a.min(x),
                });
            }
            acc.unwrap_or(0.0)
        }
        Expr::If(c, a, b) => {
            let p = evc(c, env);
            let mut out = 0.0;
            if p > 0.0 {
                out += p * ev(a, env);
            }
            if p < 1.0 {
                out += (1.0 - p) * ev(b, env);
            }
            out
        }
    }
}

fn evc(c: &Cond, env: &mut Vec<(String, f64)>) -> f64 {
    match c {
        Cond::Const(b) => *b as i64 as f64,
        Cond::Cmp(op, a, b) => {
            let (a, b) = (ev(a, env), ev(b, env));
            let d = a - b;
            let r = match op {
                CmpOp::Eq => d.abs() < 1e-9,
                CmpOp::Ne => d.abs() >= 1e-9,
                CmpOp::Lt => d < -1e-9,
                CmpOp::Le => d <= 1e-9,
                CmpOp::Gt => d > 1e-9,
                CmpOp::Ge => d >= -1e-9,
            };
            r as i64 as f64
        }
        Cond::And(v) => v.iter().map(|x| evc(x, env)).product(),
        Cond::Or(v) => 1.0 - v.iter().map(|x| 1.0 - evc(x, env)).product::<f64>(),
        Cond::Not(x) => 1.0 - evc(x, env),
        Cond::Prob(p) => ev(p, env),
    }
}

fn at(e: &Expr, vals: &[(&str, f64)]) -> f64 {
    let mut env: Vec<(String, f64)> = vals.iter().map(|(k, x)| (k.to_string(), *x)).collect();
    ev(e, &mut env)
}

/// Asserts `simplified` has no fold left and equals `original` and `expected` at the points.
fn check(original: &Expr, a: &Assumptions, expected: &Expr, points: &[Vec<(&str, f64)>]) -> Expr {
    let s = simplify(original, a);
    assert!(!s.has_fold(), "fold left in {s:?}");
    for p in points {
        let (x, y, z) = (at(original, p), at(&s, p), at(expected, p));
        assert!(
            (x - y).abs() <= 1e-9 * x.abs().max(1.0),
            "{p:?}: original {x} simplified {y}\n{s:?}"
        );
        assert!(
            (y - z).abs() <= 1e-9 * y.abs().max(1.0),
            "{p:?}: simplified {y} expected {z}"
        );
    }
    s
}

fn grid(names: &[&'static str], values: &[&[f64]]) -> Vec<Vec<(&'static str, f64)>> {
    let mut out = vec![vec![]];
    for (n, vs) in names.iter().zip(values) {
        let mut next = Vec::new();
        for p in &out {
            for x in *vs {
                let mut q = p.clone();
                q.push((*n, *x));
                next.push(q);
            }
        }
        out = next;
    }
    out
}

#[test]
fn mrm_max_factors_out_n() {
    // max( max_p Σ_i (tau_l + tau_s), Σ_p Σ_i tau_s )
    let cp = Expr::max_over(
        "p",
        i(1),
        v("P"),
        Expr::sum_over("i", i(1), v("N"), v("tau_l") + v("tau_s")),
    );
    let om = Expr::sum_over(
        "p",
        i(1),
        v("P"),
        Expr::sum_over("i", i(1), v("N"), v("tau_s")),
    );
    let e = Expr::max(vec![cp, om]);
    let expected = v("N") * Expr::max(vec![v("P") * v("tau_s"), v("tau_l") + v("tau_s")]);
    let pts = grid(
        &["N", "P", "tau_l", "tau_s"],
        &[&[1.0, 10.0], &[1.0, 4.0, 8.0], &[0.0, 3.0], &[1.0, 0.5]],
    );
    let s = check(&e, &params(), &expected, &pts);
    // The top node is the product N*max(..): the common N is factored out.
    assert!(matches!(&s, Expr::Mul(fs) if fs.contains(&v("N"))), "{s:?}");
}

#[test]
fn empty_range_guard_and_nonempty() {
    let a = Assumptions::new().int_at_least("N", 0);
    let s = simplify(&Expr::sum_over("i", i(1), v("N"), v("t")), &a);
    assert_eq!(at(&s, &[("N", 0.0), ("t", 2.0)]), 0.0);
    assert_eq!(at(&s, &[("N", 3.0), ("t", 2.0)]), 6.0);
    let a1 = Assumptions::new().int_at_least("N", 1);
    assert_eq!(
        simplify(&Expr::sum_over("i", i(1), v("N"), v("t")), &a1),
        v("N") * v("t")
    );
}

#[test]
fn power_sums() {
    let a = params();
    let e = Expr::sum_over("i", i(1), v("N"), v("i") * v("tau"));
    let expected = v("N") * (v("N") + i(1)) * v("tau") / i(2);
    check(
        &e,
        &a,
        &expected,
        &grid(&["N", "tau"], &[&[1.0, 5.0, 12.0], &[1.0, 0.5]]),
    );
    let e2 = Expr::sum_over("i", i(3), v("N"), Expr::Pow(Box::new(v("i")), 2));
    let s = simplify(&e2, &a);
    for n in [1.0, 2.0, 3.0, 7.0] {
        assert_eq!(at(&s, &[("N", n)]), at(&e2, &[("N", n)]), "N={n}");
    }
}

#[test]
fn stochastic_branching_is_n_p_tau() {
    // Σ_i if(prob(p)) tau  ->  N*p*tau  (spec §5.3: the paper's `pτ` is a typo)
    let e = Expr::sum_over(
        "i",
        i(1),
        v("N"),
        Expr::ite(Cond::Prob(v("p")), v("tau"), Expr::zero()),
    );
    let expected = v("N") * v("p") * v("tau");
    check(
        &e,
        &params(),
        &expected,
        &grid(&["N", "p", "tau"], &[&[1.0, 9.0], &[0.0, 0.3, 1.0], &[2.0]]),
    );
}

#[test]
fn counting_residues_and_bounds() {
    let a = params();
    // Σ_{i=1}^{N} [i mod P == 0] = floor(N/P)
    let c = Cond::cmp(
        CmpOp::Eq,
        Expr::Mod(Box::new(v("i")), Box::new(v("P"))),
        i(0),
    );
    let e = Expr::sum_over("i", i(1), v("N"), Expr::ite(c, v("tau"), Expr::zero()));
    let expected = Expr::Floor(Box::new(v("N") / v("P"))) * v("tau");
    check(
        &e,
        &a,
        &expected,
        &grid(
            &["N", "P", "tau"],
            &[&[1.0, 7.0, 12.0], &[1.0, 3.0, 5.0], &[1.5]],
        ),
    );
    // Σ_{i=1}^{N} [i <= 4] * tau
    let c = Cond::cmp(CmpOp::Le, v("i"), i(4));
    let e = Expr::sum_over("i", i(1), v("N"), Expr::ite(c, v("tau"), v("tau") * i(2)));
    let s = simplify(&e, &a);
    assert!(!s.has_fold());
    for n in [1.0, 3.0, 4.0, 5.0, 10.0] {
        assert_eq!(
            at(&s, &[("N", n), ("tau", 1.0)]),
            at(&e, &[("N", n), ("tau", 1.0)]),
            "N={n}"
        );
    }
}

fn member_demand(index: Expr, loopvar: &str, lo: Expr, hi: Expr, t: Expr, size: Expr) -> Expr {
    let c = Cond::cmp(CmpOp::Eq, index, v("#m"));
    let d = Expr::sum_over(loopvar, lo, hi, Expr::ite(c, t, Expr::zero()));
    Expr::max_over("#m", i(0), size - i(1), d)
}

fn with_member(e: &Expr, a: &Assumptions) -> Expr {
    let mut s = Simplifier::new(a.clone());
    s.declare_member_var("#m");
    s.simplify(e)
}

/// `max_m Σ_{j=0}^{N-1} [index == m] tau` over `P` members, simplified under `a`.
fn demand_over_j(index: Expr, a: &Assumptions) -> Expr {
    let e = member_demand(index, "j", i(0), v("N") - i(1), v("tau"), v("P"));
    with_member(&e, a)
}

/// [`params`] with the block size `B = N/P`, an integer at least 1.
fn params_with_blocks() -> Assumptions {
    params().with(
        "B",
        VarInfo {
            integer: true,
            lower: Some(i(1)),
            upper: None,
            definition: Some(v("N") / v("P")),
        },
    )
}

/// The block of `B` that `var` falls in: `floor(var/B)`.
fn block_of(var: &str) -> Expr {
    Expr::Floor(Box::new(v(var) / v("B")))
}

#[test]
fn block_partitioning_j_axis_gives_b() {
    // max_m Σ_{j=0}^{N-1} [floor(j/B) == m] tau  =  B*tau  with B = N/P integer.
    let a = params_with_blocks();
    assert_eq!(demand_over_j(block_of("j"), &a), v("B") * v("tau"));
}

#[test]
fn block_unaligned_range_is_exact() {
    let a = Assumptions::new().int_at_least("B", 1).int_at_least("N", 3);
    let e = member_demand(block_of("j"), "j", i(1), v("N") - i(2), i(1), v("N"));
    let s = with_member(&e, &a);
    assert!(!s.has_fold(), "{s:?}");
    for b in 1..6 {
        for n in 3..20 {
            let p = [("B", b as f64), ("N", n as f64)];
            assert_eq!(at(&s, &p), at(&e, &p), "B={b} N={n}");
        }
    }
}

#[test]
fn strided_banks_give_gcd_form() {
    // max_m Σ_{i=1}^{N} [(S*i) mod M == m] tau_m  =  ceil(N*gcd(S, M)/M) * tau_m
    let a = params();
    let idx = Expr::Mod(Box::new(v("S") * v("i")), Box::new(v("M")));
    let e = member_demand(idx, "i", i(1), v("N"), v("tau"), v("M"));
    let s = with_member(&e, &a);
    assert!(!s.has_fold(), "{s:?}");
    // Spec §5.6 checks: N=64, M=8: S=2 -> 16 accesses per bank, S=1 -> 8, S=8 -> 64;
    // N=60, M=8, S=3 -> 8 (ceil of 7.5).
    for (n, m, st, want) in [
        (64.0, 8.0, 2.0, 16.0),
        (64.0, 8.0, 1.0, 8.0),
        (64.0, 8.0, 8.0, 64.0),
        (60.0, 8.0, 3.0, 8.0),
    ] {
        let p = [("N", n), ("M", m), ("S", st), ("tau", 1.0)];
        assert_eq!(at(&s, &p), want);
        assert_eq!(at(&e, &p), want);
    }
}

#[test]
fn index_constant_within_loop_puts_all_on_one_member() {
    // i-axis ADI: inside par j, cpu[floor(i/B)] is the same member for every j.
    let a = params().int_at_least("B", 1).int_at_least("i", 1);
    assert_eq!(demand_over_j(block_of("i"), &a), v("N") * v("tau"));
}

#[test]
fn affine_index_gives_one_each() {
    let a = params();
    let e = member_demand(v("p") - i(1), "p", i(1), v("P"), v("tau"), v("P"));
    let s = with_member(&e, &a);
    assert_eq!(s, v("tau"));
}

#[test]
fn comparisons_decided_by_the_prover() {
    let a = params_with_blocks();
    // B <= N because N/P <= N for P >= 1.
    let s = Simplifier::new(a.clone());
    assert!(s.le(&v("B"), &v("N")));
    assert!(!s.le(&v("N"), &v("B")));
    assert_eq!(simplify(&Expr::min(vec![v("B"), v("N")]), &a), v("B"));
    assert_eq!(
        simplify(&Expr::max(vec![v("N") * v("tau"), v("tau")]), &a),
        v("N") * v("tau")
    );
}

#[test]
fn pipeline_shape() {
    // max( Σ_m tau_m, N*max_m tau_m ) stays as written when tau_m is a function of m.
    let a = params();
    let t = Expr::Mul(vec![v("m"), v("tau")]);
    let e = Expr::max(vec![
        Expr::sum_over("m", i(1), v("M"), t.clone()),
        v("N") * Expr::max_over("m", i(1), v("M"), t),
    ]);
    let s = simplify(&e, &a);
    assert!(!s.has_fold(), "{s:?}");
    for (n, m) in [(1.0, 3.0), (10.0, 3.0), (2.0, 7.0)] {
        let p = [("N", n), ("M", m), ("tau", 1.0)];
        assert_eq!(at(&s, &p), at(&e, &p));
    }
}

#[test]
fn display_factoring_keeps_value() {
    let a = params();
    let e = simplify(&((v("N") - i(2)) * v("N") * v("tau") / v("P")), &a);
    let f = factor_for_display(&e);
    let p = [("N", 16.0), ("P", 4.0), ("tau", 1.0)];
    assert_eq!(at(&e, &p), 56.0);
    assert_eq!(at(&f, &p), 56.0);
}

#[test]
fn ceiling_of_a_positive_ratio_is_at_least_one() {
    // max(1, ceil(N/P)) = ceil(N/P) for N, P >= 1 (the data-parallel model's bound).
    let e = Expr::max(vec![i(1), Expr::Ceil(Box::new(v("N") / v("P")))]);
    assert_eq!(
        simplify(&e, &params()),
        Expr::Ceil(Box::new(v("N") / v("P")))
    );
    // Not for N >= 0: ceil(0/P) = 0.
    let a = Assumptions::new().int_at_least("N", 0).int_at_least("P", 1);
    assert!(matches!(simplify(&e, &a), Expr::Max(_)));
}

#[test]
fn real_powers_fold_only_where_exact() {
    let a = Assumptions::new();
    let s = |e: Expr| simplify(&e, &a);
    let pw = Expr::power;
    // Integer exponents become integer powers, with x^1 = x and x^0 = 1.
    assert_eq!(s(pw(v("x"), i(2))), Expr::pow(v("x"), 2));
    assert_eq!(s(pw(v("x"), i(-1))), Expr::pow(v("x"), -1));
    assert_eq!(s(pw(v("x"), i(1))), v("x"));
    assert_eq!(s(pw(v("x"), i(0))), i(1));
    assert_eq!(s(pw(v("x"), Expr::ratio(4, 2))), Expr::pow(v("x"), 2));
    assert_eq!(s(pw(v("x"), i(1) + i(1))), Expr::pow(v("x"), 2));
    // Constants with rational values fold; others stay.
    assert_eq!(s(pw(i(4), Expr::ratio(1, 2))), i(2));
    assert_eq!(s(pw(i(8), Expr::ratio(2, 3))), i(4));
    assert_eq!(
        s(pw(Expr::ratio(9, 4), Expr::ratio(1, 2))),
        Expr::ratio(3, 2)
    );
    assert_eq!(
        s(pw(Expr::ratio(27, 8), Expr::ratio(-2, 3))),
        Expr::ratio(4, 9)
    );
    assert_eq!(s(pw(i(0), Expr::ratio(1, 2))), i(0));
    assert_eq!(s(pw(i(2), i(10))), i(1024));
    for kept in [
        pw(i(2), Expr::ratio(1, 2)),
        pw(i(-4), Expr::ratio(1, 2)),
        pw(i(0), Expr::ratio(-1, 2)),
        pw(i(4), Expr::ratio(1000, 2001)),
        pw(v("x"), Expr::ratio(3, 2)),
        pw(i(2), v("x")),
    ] {
        assert_eq!(s(kept.clone()), kept);
    }
    // Operands are simplified; products of real powers of one base are not merged.
    assert_eq!(s(pw(v("x") + i(0), v("y") * i(1))), pw(v("x"), v("y")));
    let h = pw(v("x"), Expr::ratio(1, 2));
    let hh = s(h.clone() * pw(v("x"), Expr::ratio(1, 3)));
    assert!(matches!(&hh, Expr::Mul(f) if f.len() == 2), "{hh:?}");
    assert_eq!(s(h.clone() * h.clone()), Expr::pow(h, 2));
}

#[test]
fn binary_logarithms_fold_for_powers_of_two() {
    let a = Assumptions::new();
    let s = |e: Expr| simplify(&e, &a);
    assert_eq!(s(Expr::log2(i(8))), i(3));
    assert_eq!(s(Expr::log2(i(1))), i(0));
    assert_eq!(s(Expr::log2(Expr::ratio(1, 4))), i(-2));
    assert_eq!(s(Expr::log2(i(4) * i(2))), i(3));
    for kept in [
        Expr::log2(i(3)),
        Expr::log2(i(0)),
        Expr::log2(i(-8)),
        Expr::log2(v("x")),
    ] {
        assert_eq!(s(kept.clone()), kept);
    }
}

#[test]
fn the_prover_bounds_real_powers_and_binary_logarithms() {
    let a = params().real_at_least("x", 0);
    let s = Simplifier::new(a.clone());
    let p = Expr::power;
    // A non-negative base gives a non-negative power.
    assert!(s.nonneg(&p(v("x"), v("y"))));
    assert!(s.nonneg(&p(v("N"), Expr::ratio(5, 4))));
    assert!(!s.nonneg(&p(v("y"), Expr::ratio(1, 2))), "y is unknown");
    assert_eq!(
        simplify(&Expr::max(vec![i(0), p(v("x"), v("y"))]), &a),
        p(v("x"), v("y"))
    );
    // N >= 1: N^(5/4) >= N^1 is not for the prover, but N^(5/4) >= 1 and log2(N) >= 0 are.
    assert!(s.le(&i(1), &p(v("N"), Expr::ratio(5, 4))));
    assert!(s.nonneg(&Expr::log2(v("N"))));
    assert!(!s.nonneg(&Expr::log2(v("x"))), "x may be below 1");
    assert_eq!(
        simplify(&Expr::max(vec![i(0), Expr::log2(v("P"))]), &a),
        Expr::log2(v("P"))
    );
    // Monotone: for 1 <= j <= 8, log2(j) <= 3.
    let b = a.clone().with(
        "j",
        VarInfo {
            integer: true,
            lower: Some(i(1)),
            upper: Some(i(8)),
            definition: None,
        },
    );
    let sb = Simplifier::new(b);
    assert!(sb.le(&Expr::log2(v("j")), &i(3)));
    assert!(!sb.le(&Expr::log2(v("j")), &Expr::ratio(29, 10)));
    assert!(sb.le(&p(v("j"), Expr::ratio(1, 3)), &i(2)));
    assert!(s.is_integer(&p(i(2), v("N"))));
    assert!(!s.is_integer(&p(i(2), v("x"))));
    assert_eq!(
        simplify(&Expr::Floor(Box::new(p(i(2), v("N")))), &a),
        p(i(2), v("N"))
    );
    let pm = v("N") * p(v("P"), Expr::ratio(5, 4)) * Expr::log2(v("P"));
    let pts = grid(&["N", "P"], &[&[1.0, 3.0], &[1.0, 2.0, 5.0]]);
    check(&pm, &a, &pm, &pts);
}
