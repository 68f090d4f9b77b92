//! The bound's rules on small models whose T^l, φ and ω follow by hand from spec §3
//! (eqs. 1–5 and the n-ary forms).

use pamela::bound::bound;

fn eval(src: &str) -> pamela::bound::Evaluated {
    let m = pamela::syntax::parse("t.pam", src).unwrap_or_else(|e| panic!("{e:?}"));
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
