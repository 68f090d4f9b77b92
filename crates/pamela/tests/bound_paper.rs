//! The symbolic bound T^l on the paper's models: spec §5.11 items 1–8.
//!
//! Symbolic forms are compared with the expected closed forms by evaluation on a grid of
//! parameter values (never by text), and must contain no sum or max over a range.

use expr::{Name, Rational};
use pamela::bound::{bound, Binds, BoundReport};
use pamela::Model;
use std::collections::BTreeMap;

fn model(src: &str) -> Model {
    pamela::parse("test.pam", src).unwrap_or_else(|e| panic!("{e:?}"))
}

fn report(m: &Model, root: &str) -> BoundReport {
    let r = pamela::check::root(m, Some(root)).expect("root");
    bound(m, r).expect("bound")
}

type Point = BTreeMap<&'static str, f64>;

fn binding(m: &Model, p: &Point) -> pamela::Binding {
    let given: Vec<(Name, Rational)> = p
        .iter()
        .map(|(k, v)| (Name::from(*k), Rational::from_float(*v).expect("finite")))
        .collect();
    m.bind(&given).unwrap_or_else(|e| panic!("{e:?}"))
}

fn eval(m: &Model, e: &expr::Expr, p: &Point) -> f64 {
    let b = binding(m, p);
    let env: BTreeMap<Name, f64> = b
        .values
        .keys()
        .map(|k| (k.clone(), b.get_f64(k).expect("value")))
        .collect();
    expr::eval::eval_f64(e, &env, &expr::eval::EvalLimits::default()).expect("evaluates")
}

fn grid(axes: &[(&'static str, &[f64])]) -> Vec<Point> {
    let mut out = vec![Point::new()];
    for (name, vals) in axes {
        out = out
            .into_iter()
            .flat_map(|p| {
                vals.iter().map(move |v| {
                    let mut q = p.clone();
                    q.insert(name, *v);
                    q
                })
            })
            .collect();
    }
    out
}

/// Asserts `e` is closed-form and equals `want` at every grid point.
fn agrees(m: &Model, what: &str, e: &expr::Expr, points: &[Point], want: impl Fn(&Point) -> f64) {
    assert!(!e.has_fold(), "{what} is not in closed form: {e}");
    for p in points {
        let got = eval(m, e, p);
        let w = want(p);
        assert!(
            (got - w).abs() <= 1e-9 * w.abs().max(1.0),
            "{what} at {p:?}: got {got}, want {w}; expression {e}"
        );
    }
}

const MRM: &str = "
param N: int >= 1; param P: int >= 1; param tau_l >= 0; param tau_s >= 0;
resource s;
main = par p in 1..=P { seq i in 1..=N { delay(tau_l); use(s, tau_s) } };
";

#[test]
fn item1_mrm_closed_form_phi_omega_and_value() {
    let m = model(MRM);
    let r = report(&m, "main");
    let pts = grid(&[
        ("N", &[1.0, 3.0, 10.0]),
        ("P", &[1.0, 2.0, 4.0, 8.0]),
        ("tau_l", &[0.0, 1.0, 3.0]),
        ("tau_s", &[0.5, 1.0]),
    ]);
    agrees(&m, "T^l", &r.tl, &pts, |p| {
        p["N"] * (p["P"] * p["tau_s"]).max(p["tau_l"] + p["tau_s"])
    });
    agrees(&m, "phi", &r.phi, &pts, |p| {
        p["N"] * (p["tau_l"] + p["tau_s"])
    });
    agrees(&m, "omega", &r.omega, &pts, |p| {
        p["N"] * p["P"] * p["tau_s"]
    });
    // P=4, N=10, tau_l=3, tau_s=1 -> T^l = 40 (spec §5.11 item 1), at the saturation point
    // P* = 4 where phi = omega (theta = 0; ties report the critical path).
    let p: Point = [("N", 10.0), ("P", 4.0), ("tau_l", 3.0), ("tau_s", 1.0)].into();
    let ev = r.evaluate(&binding(&m, &p)).unwrap();
    assert_eq!(ev.tl, 40.0);
    assert_eq!(ev.theta, 0.0);
    // Past saturation the server binds: P=8 -> T^l = N*P*tau_s = 80, theta = ln 2.
    let p: Point = [("N", 10.0), ("P", 8.0), ("tau_l", 3.0), ("tau_s", 1.0)].into();
    let ev = r.evaluate(&binding(&m, &p)).unwrap();
    assert_eq!(ev.tl, 80.0);
    assert_eq!(ev.binds, Binds::Resource("s".into()));
    assert!((ev.theta - 2.0f64.ln()).abs() < 1e-12);
    // Below saturation (P* = (tau_l + tau_s)/tau_s = 4) the critical path binds.
    let p: Point = [("N", 10.0), ("P", 2.0), ("tau_l", 3.0), ("tau_s", 1.0)].into();
    assert_eq!(
        r.evaluate(&binding(&m, &p)).unwrap().binds,
        Binds::CriticalPath
    );
}

#[test]
fn item2_pipeline() {
    let m = model(
        "param N: int >= 1; param t1 >= 0; param t2 >= 0; param t3 >= 0;
         resource u1; resource u2; resource u3;
         main = par i in 1..=N { use(u1, t1); use(u2, t2); use(u3, t3) };",
    );
    let r = report(&m, "main");
    let pts = grid(&[
        ("N", &[1.0, 3.0, 10.0]),
        ("t1", &[1.0, 2.0]),
        ("t2", &[2.0, 0.5]),
        ("t3", &[3.0, 1.0]),
    ]);
    agrees(&m, "T^l", &r.tl, &pts, |p| {
        (p["t1"] + p["t2"] + p["t3"]).max(p["N"] * p["t1"].max(p["t2"]).max(p["t3"]))
    });
    // M uniform stages over a family: max(M*tau, N*tau).
    let m = model(
        "param N: int >= 1; param M: int >= 1; param tau >= 0;
         resource u[M];
         main = par i in 1..=N { seq k in 1..=M { use(u[k - 1], tau) } };",
    );
    let r = report(&m, "main");
    let pts = grid(&[
        ("N", &[1.0, 4.0, 9.0]),
        ("M", &[1.0, 4.0, 6.0]),
        ("tau", &[1.0, 0.25]),
    ]);
    agrees(&m, "T^l", &r.tl, &pts, |p| {
        (p["M"] * p["tau"]).max(p["N"] * p["tau"])
    });
}

#[test]
fn item3_branching_is_n_p_tau() {
    let m = model(
        "param N: int >= 1; param p in 0..=1; param tau >= 0;
         resource cpu;
         process mult = use(cpu, tau);
         main = seq i in 1..=N { if prob(p) mult };",
    );
    let r = report(&m, "main");
    let pts = grid(&[
        ("N", &[1.0, 7.0, 100.0]),
        ("p", &[0.0, 0.25, 1.0]),
        ("tau", &[2.0]),
    ]);
    agrees(&m, "T^l", &r.tl, &pts, |p| p["N"] * p["p"] * p["tau"]);
}

#[test]
fn item4_vectorization_three_machines() {
    let algo = "param N: int >= 1; param S: int >= 1; param tau_s >= 0; param tau_v >= 0;
                main = par i in 1..=N mult(i);";
    let seq = model(&format!(
        "{algo} resource s; process mult(i) = use(s, tau_s);"
    ));
    let vec = model(&format!(
        "{algo} resource v[S]; process mult(i) = seq j in 1..=S use(v[j - 1], tau_v);"
    ));
    let par = model(&format!(
        "{algo} resource s_[N]; process mult(i) = use(s_[i - 1], tau_s);"
    ));
    let pts = grid(&[
        ("N", &[1.0, 4.0, 64.0]),
        ("S", &[1.0, 4.0, 8.0]),
        ("tau_s", &[1.0, 2.5]),
        ("tau_v", &[0.5, 1.0]),
    ]);
    agrees(&seq, "sequential", &report(&seq, "main").tl, &pts, |p| {
        p["N"] * p["tau_s"]
    });
    agrees(&vec, "vector", &report(&vec, "main").tl, &pts, |p| {
        (p["S"] * p["tau_v"]).max(p["N"] * p["tau_v"])
    });
    agrees(&par, "parallel", &report(&par, "main").tl, &pts, |p| {
        p["tau_s"]
    });
}

#[test]
fn item5_vector_chaining() {
    let units = "param N: int >= 1; param S: int >= 1; param tau_v >= 0;
                 resource v1[S]; resource v2[S];
                 process mult_1(i) = seq j in 1..=S use(v1[j - 1], tau_v);
                 process mult_2(i) = seq j in 1..=S use(v2[j - 1], tau_v);";
    let sequential = model(&format!(
        "{units} main = {{ par i in 1..=N mult_1(i) }} ; {{ par i in 1..=N mult_2(i) }};"
    ));
    let chained = model(&format!(
        "{units} main = par i in 1..=N {{ mult_1(i) ; mult_2(i) }};"
    ));
    let pts = grid(&[
        ("N", &[1.0, 3.0, 64.0]),
        ("S", &[1.0, 4.0, 8.0]),
        ("tau_v", &[1.0, 0.5]),
    ]);
    agrees(
        &sequential,
        "sequentialised",
        &report(&sequential, "main").tl,
        &pts,
        |p| 2.0 * (p["S"] * p["tau_v"]).max(p["N"] * p["tau_v"]),
    );
    agrees(
        &chained,
        "chained",
        &report(&chained, "main").tl,
        &pts,
        |p| (2.0 * p["S"] * p["tau_v"]).max(p["N"] * p["tau_v"]),
    );
}

const MEMBANK: &str = "
param N: int >= 1; param M: int >= 1; param S: int >= 1; param tau_c >= 0; param tau_m >= 0;
resource port; resource m[M];
main = par i in 1..=N { use(port, tau_c) ; use(m[(S * i) mod M], tau_m) };
";

fn gcd(a: f64, b: f64) -> f64 {
    let (mut a, mut b) = (a as u64, b as u64);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as f64
}

#[test]
fn item6_memory_banks_stride_form() {
    let m = model(MEMBANK);
    let r = report(&m, "main");
    let pts = grid(&[
        ("N", &[1.0, 8.0, 60.0, 64.0]),
        ("M", &[1.0, 4.0, 8.0]),
        ("S", &[1.0, 2.0, 3.0, 8.0]),
        ("tau_c", &[0.1, 1.0]),
        ("tau_m", &[1.0, 4.0]),
    ]);
    // max(tau_c + tau_m, N*tau_c, ceil(N*gcd(M,S)/M)*tau_m): the spec's N*gcd*tau_m/M,
    // exact also when M/gcd does not divide N.
    agrees(&m, "T^l", &r.tl, &pts, |p| {
        let per_bank = (p["N"] * gcd(p["M"], p["S"]) / p["M"]).ceil();
        (p["tau_c"] + p["tau_m"])
            .max(p["N"] * p["tau_c"])
            .max(per_bank * p["tau_m"])
    });
    // The spec's numeric checks (§5.6).
    for (n, mm, s, tc, tm, want) in [
        (64.0, 8.0, 2.0, 1.0, 4.0, 64.0),
        (64.0, 8.0, 1.0, 1.0, 4.0, 64.0),
        (64.0, 8.0, 8.0, 1.0, 4.0, 256.0),
        (60.0, 8.0, 3.0, 0.1, 1.0, 8.0),
    ] {
        let p: Point = [("N", n), ("M", mm), ("S", s), ("tau_c", tc), ("tau_m", tm)].into();
        assert!((eval(&m, &r.tl, &p) - want).abs() < 1e-9, "{p:?}");
    }
}

#[test]
fn item7_adi_block_partitionings() {
    let common = "param N: int >= 2; param P: int >= 1; param B: int = N / P; param tau_u >= 0;
                  resource cpu[P];";
    let j_axis = model(&format!(
        "{common} main = seq i in 1..=N-2 par j in 0..=N-1 use(cpu[floor(j / B)], tau_u);"
    ));
    let i_axis = model(&format!(
        "{common} main = seq i in 1..=N-2 par j in 0..=N-1 use(cpu[floor(i / B)], tau_u);"
    ));
    let pts = grid(&[
        ("N", &[16.0, 64.0, 1024.0]),
        ("P", &[1.0, 4.0, 8.0, 16.0]),
        ("tau_u", &[1.0, 0.5]),
    ]);
    agrees(&j_axis, "j-axis", &report(&j_axis, "main").tl, &pts, |p| {
        (p["N"] - 2.0) * p["N"] / p["P"] * p["tau_u"]
    });
    agrees(&i_axis, "i-axis", &report(&i_axis, "main").tl, &pts, |p| {
        (p["N"] - 2.0) * p["N"] * p["tau_u"]
    });
    // Spec numbers: N=16, P=4 -> 56 and 224; N=1024, P=8 -> 130816 and 1046528.
    for (n, p, j, i) in [(16.0, 4.0, 56.0, 224.0), (1024.0, 8.0, 130816.0, 1046528.0)] {
        let pt: Point = [("N", n), ("P", p), ("tau_u", 1.0)].into();
        assert_eq!(eval(&j_axis, &report(&j_axis, "main").tl, &pt), j);
        assert_eq!(eval(&i_axis, &report(&i_axis, "main").tl, &pt), i);
    }
}

/// The T800 network model of spec §2.5(h) in seconds on the linear subtopology 0–1–2.
pub const NETWORK: &str = "
param L: int >= 1;
resource f[3]; resource x[3];
process move(s, r, l) = par i in 1..=ceil(l / 120) {
    seq k in 2..=r - s { use(f[s + k - 1], 181e-6) || use(x[s + k - 1], 108e-6) } ;
    use(x[r], 108e-6)
};
process row1 = move(0, 1, L);
process row2 = move(0, 2, L);
process row3 = move(0, 1, L) || move(0, 1, L);
process row4 = move(0, 2, L) || move(0, 2, L);
process row5 = move(0, 1, L) || move(0, 2, L);
process row6 = move(0, 1, L) || move(0, 1, L) || move(0, 2, L);
process row7 = move(0, 1, L) || move(0, 2, L) || move(0, 2, L);
process row8 = move(0, 1, L) || move(0, 1, L) || move(0, 1, L) || move(0, 2, L) || move(0, 2, L) || move(0, 2, L);
main = row1;
";

#[test]
fn item8_network_table1_tl_column() {
    let m = model(NETWORK);
    let want = [
        0.900072, 1.508454, 1.800144, 3.016908, 1.800144, 2.700216, 3.016908, 5.400432,
    ];
    let p: Point = [("L", 1e6)].into();
    for (k, w) in want.iter().enumerate() {
        let r = report(&m, &format!("row{}", k + 1));
        let got = eval(&m, &r.tl, &p);
        assert!(
            (got - w).abs() < 1e-9,
            "row {}: T^l = {got}, want {w}",
            k + 1
        );
    }
}
