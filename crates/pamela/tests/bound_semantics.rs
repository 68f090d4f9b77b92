//! The bound's rules on small models whose T^l, φ and ω follow by hand from spec §3
//! (eqs. 1–5 and the n-ary forms).

use pamela::bound::bound;

fn eval(src: &str) -> pamela::bound::Evaluated {
    let m = pamela::parse("t.pam", src).unwrap_or_else(|e| panic!("{e:?}"));
    let root = pamela::check::root(&m, None).unwrap();
    let b = m.bind(&[]).unwrap();
    bound(&m, root).unwrap().evaluate(&b).unwrap()
}

#[test]
fn call_arguments_are_not_captured_by_callee_loops() {
    // f(i) inside the caller's loop over i; f has its own loop over i.
    let e = eval(
        "resource r;
         process f(x) = seq i in 1..=3 use(r, x);
         main = seq i in 1..=2 f(i);",
    );
    // Σ_{i=1}^{2} 3*i = 9
    assert_eq!(e.tl, 9.0);
    assert_eq!(e.phi, 9.0);
}

#[test]
fn empty_ranges_are_skip() {
    let e = eval(
        "resource r; main = { seq i in 3..=2 use(r, 5) } ; par j in 1..=0 delay(7) ; delay(1);",
    );
    assert_eq!(e.tl, 1.0);
    assert_eq!(e.omega, 0.0);
}

#[test]
fn multiplicity_divides_demand() {
    // 6 parallel uses of 2 on a 3-server pool: omega = 12/3 = 4 > phi = 2.
    let e = eval("resource pool: 3; main = par i in 1..=6 use(pool, 2);");
    assert_eq!((e.tl, e.phi, e.omega), (4.0, 2.0, 4.0));
    assert_eq!(e.binds.to_string(), "resource pool");
}

#[test]
fn infinite_servers_do_not_contend() {
    let e = eval("resource net: inf; main = par i in 1..=100 use(net, 2);");
    assert_eq!((e.tl, e.omega), (2.0, 0.0));
}

#[test]
fn omega_applies_per_parallel_phase() {
    // Two sequential phases contending on different resources: T^l = 2 + 3 = 5 exceeds both
    // phi = 2 and the whole-model omega = 3, because omega is applied per par phase.
    let e = eval(
        "resource a; resource b;
         main = { par i in 1..=2 use(a, 1) } ; { par i in 1..=3 use(b, 1) };",
    );
    assert_eq!(e.tl, 5.0);
    assert_eq!(e.phi, 2.0);
    assert_eq!(e.omega, 3.0);
}

#[test]
fn deterministic_conditions_are_counted() {
    // Even i of 1..=10 use the server (5 of them), odd ones delay 1.
    let e = eval(
        "resource s;
         main = par i in 1..=10 { if i mod 2 == 0 use(s, 2) else delay(1) };",
    );
    assert_eq!(e.omega, 10.0);
    assert_eq!(e.tl, 10.0);
    assert_eq!(e.phi, 2.0);
}

#[test]
fn family_members_are_separate_servers() {
    // cpu[i mod 4] for i in 0..=9: members 0 and 1 get 3 uses each.
    let e = eval("resource cpu[4]; main = par i in 0..=9 use(cpu[i mod 4], 1);");
    assert_eq!(e.tl, 3.0);
    assert_eq!(e.binds.to_string(), "resource cpu");
}

/// Both engines accept and reject the same models and values (defect: the bound printed
/// T^l = -5 for `use(s, -5)`, 0 for `0/0`, 1 for `gcd(2.5, 1)`, 2 for `prob(2)`, 1 for `x/x`
/// at x = 0, and ignored family indices out of range, all of which the simulator rejects).
#[test]
fn bound_and_simulation_reject_the_same_models() {
    use expr::{Name, Rational};
    /// A model, parameter values, and whether it is valid there.
    type Case<'a> = (&'a str, &'a [(&'a str, i64)], bool);
    let cases: [Case; 15] = [
        ("resource s; main = use(s, -5);", &[], false),
        // Each time is finite; their sum overflows the clock.
        (
            "resource s; main = use(s, 1e308) ; use(s, 1e308);",
            &[],
            false,
        ),
        (
            "param t; resource s; main = delay(t) || use(s, 1);",
            &[("t", -1)],
            false,
        ),
        (
            "param t; resource s; main = delay(t) || use(s, 1);",
            &[("t", 2)],
            true,
        ),
        ("resource s; main = use(s, 0/0);", &[], false),
        ("resource s; main = use(s, gcd(2.5, 1));", &[], false),
        ("resource s; main = use(s, gcd(6, 4));", &[], true),
        ("resource s; main = if prob(2) use(s, 1);", &[], false),
        ("resource s; main = if prob(1/2) use(s, 1);", &[], true),
        (
            "param x; resource s; main = use(s, x/x);",
            &[("x", 0)],
            false,
        ),
        (
            "param x; resource s; main = use(s, x/x);",
            &[("x", 3)],
            true,
        ),
        (
            "param x; resource s; main = use(s, x*(1/x));",
            &[("x", 0)],
            false,
        ),
        (
            "param x; resource s; main = use(s, 0/x + 1);",
            &[("x", 0)],
            false,
        ),
        (
            "param k: int; resource m[2]; main = use(m[k], 1);",
            &[("k", 5)],
            false,
        ),
        (
            "param n: int >= 1; resource m[n]; main = seq i in 0..=n { use(m[i], 1) };",
            &[("n", 3)],
            false,
        ),
    ];
    for (src, vals, ok) in cases {
        let m = pamela::parse("t.pam", src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        let root = pamela::check::root(&m, None).unwrap();
        let given: Vec<(Name, Rational)> = vals
            .iter()
            .map(|(k, v)| (Name::from(*k), Rational::from_integer((*v).into())))
            .collect();
        let b = m.bind(&given).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        let by_bound = bound(&m, root).and_then(|r| r.evaluate(&b));
        let by_sim = pamela::sim::simulate(&m, root, &b, &Default::default());
        assert_eq!(
            by_bound.is_ok(),
            ok,
            "bound of {src} at {vals:?}: {by_bound:?}"
        );
        assert_eq!(
            by_sim.is_ok(),
            ok,
            "simulation of {src} at {vals:?}: {by_sim:?}"
        );
        // With `prob`, T^l bounds the expected time, not one run's.
        if let (Ok(e), Ok(r), false) = (by_bound, by_sim, src.contains("prob")) {
            assert!(e.tl <= r.time + 1e-9, "{src}: T^l {} > T {}", e.tl, r.time);
        }
    }
}
