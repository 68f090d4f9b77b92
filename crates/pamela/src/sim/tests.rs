//! Unit tests on hand-built models (the text front end is tested in `tests/sim.rs`).

use super::*;
use crate::diag::ErrorKind;
use crate::model::{Compose, Loop, Param, Process, Resource, SourceFile, Term, TermKind};
use expr::{CmpOp, Cond, Expr, Name};

fn sp() -> miette::SourceSpan {
    (0..0).into()
}
fn t(kind: TermKind) -> Term {
    Term { kind, span: sp() }
}
fn v(n: &str) -> Expr {
    Expr::var(n)
}
fn n(x: i64) -> Expr {
    Expr::int(x)
}
fn use_(res: usize, time: Expr) -> Term {
    t(TermKind::Use {
        res,
        index: None,
        time,
    })
}
fn use_i(res: usize, index: Expr, time: Expr) -> Term {
    t(TermKind::Use {
        res,
        index: Some(index),
        time,
    })
}
fn delay(e: Expr) -> Term {
    t(TermKind::Delay(e))
}
fn seq(v: Vec<Term>) -> Term {
    t(TermKind::Compose(Compose::Seq, v))
}
fn par(v: Vec<Term>) -> Term {
    t(TermKind::Compose(Compose::Par, v))
}
fn lp(kind: Compose, var: &str, lo: Expr, hi: Expr, body: Term) -> Term {
    t(TermKind::Loop(Loop {
        kind,
        var: Name::from(var),
        lo,
        hi,
        body: Box::new(body),
    }))
}
fn seq_loop(var: &str, lo: Expr, hi: Expr, body: Term) -> Term {
    lp(Compose::Seq, var, lo, hi, body)
}
fn par_loop(var: &str, lo: Expr, hi: Expr, body: Term) -> Term {
    lp(Compose::Par, var, lo, hi, body)
}
fn if_(cond: Cond, then: Term, els: Option<Term>) -> Term {
    t(TermKind::If {
        cond,
        then: Box::new(then),
        els: els.map(Box::new),
    })
}
fn call(proc: usize, args: Vec<Expr>) -> Term {
    t(TermKind::Call { proc, args })
}
fn res(name: &str, mult: Option<Expr>, family: Option<Expr>) -> Resource {
    Resource {
        name: Name::from(name),
        multiplicity: mult,
        family,
        span: sp(),
    }
}
fn single(name: &str) -> Resource {
    res(name, Some(n(1)), None)
}
fn process(name: &str, args: &[&str], body: Term) -> Process {
    Process {
        name: Name::from(name),
        args: args.iter().map(|a| Name::from(*a)).collect(),
        body,
        span: sp(),
    }
}
fn model(params: &[&str], resources: Vec<Resource>, processes: Vec<Process>) -> Model {
    Model {
        source: SourceFile {
            name: "test".into(),
            text: "".into(),
        },
        params: params
            .iter()
            .map(|p| Param {
                name: Name::from(*p),
                integer: false,
                lower: None,
                upper: None,
                definition: None,
                span: sp(),
            })
            .collect(),
        resources,
        processes,
    }
}
fn bind(vals: &[(&str, i64)]) -> Binding {
    let mut b = Binding::default();
    for (k, x) in vals {
        b.values
            .insert(Name::from(*k), expr::Rational::from_integer((*x).into()));
    }
    b
}
fn run(m: &Model, b: &Binding) -> SimResult {
    simulate(m, m.processes.len() - 1, b, &SimOptions::default()).unwrap()
}
fn run_err(m: &Model, b: &Binding) -> Box<ModelError> {
    simulate(m, m.processes.len() - 1, b, &SimOptions::default()).unwrap_err()
}

/// `main = par p in 1..=P { seq i in 1..=N { delay(tau_l); use(s, tau_s) } }`
fn mrm() -> Model {
    model(
        &["P", "N", "tau_l", "tau_s"],
        vec![single("s")],
        vec![process(
            "main",
            &[],
            par_loop(
                "p",
                n(1),
                v("P"),
                seq_loop(
                    "i",
                    n(1),
                    v("N"),
                    seq(vec![delay(v("tau_l")), use_(0, v("tau_s"))]),
                ),
            ),
        )],
    )
}

fn mrm_t(p: i64, nn: i64, tl: i64, ts: i64) -> SimResult {
    run(
        &mrm(),
        &bind(&[("P", p), ("N", nn), ("tau_l", tl), ("tau_s", ts)]),
    )
}

#[test]
fn mrm_validation_values() {
    for (p, nn, tl, ts, want) in [
        (1, 5, 1, 1, 10.0),
        (2, 3, 1, 1, 7.0),
        (3, 4, 1, 1, 13.0),
        (4, 10, 3, 1, 43.0),
        (8, 10, 3, 1, 83.0),
        (2, 10, 3, 1, 41.0),
    ] {
        let r = mrm_t(p, nn, tl, ts);
        assert_eq!(r.time, want, "MRM ({p},{nn},{tl},{ts})");
        assert_eq!(r.events, (2 * p * nn) as u64);
        assert_eq!(r.resources[0].served, (p * nn) as u64);
        assert_eq!(r.resources[0].busy, (p * nn * ts) as f64);
        assert_eq!(r.peak_active, p as usize + 1);
    }
}

/// `main = par i in 1..=N { seq m in 1..=M use(u[m-1], t(m)) }` with `t(m)` given as a
/// chain of `if`s over `m`.
fn pipeline(times: &[i64]) -> Model {
    let mut time = n(0);
    for (k, &x) in times.iter().enumerate().rev() {
        time = Expr::ite(Cond::cmp(CmpOp::Eq, v("m"), n(k as i64 + 1)), n(x), time);
    }
    model(
        &["N", "M"],
        vec![res("u", Some(n(1)), Some(v("M")))],
        vec![process(
            "main",
            &[],
            par_loop(
                "i",
                n(1),
                v("N"),
                seq_loop("m", n(1), v("M"), use_i(0, v("m") - n(1), time)),
            ),
        )],
    )
}

#[test]
fn pipeline_validation_values() {
    for (nn, times, want) in [
        (4, &[1, 1, 1, 1][..], 7.0),
        (3, &[1, 2, 3][..], 12.0),
        (10, &[1, 2, 3][..], 33.0),
        (1, &[1, 2, 3][..], 6.0),
    ] {
        let m = pipeline(times);
        let r = run(&m, &bind(&[("N", nn), ("M", times.len() as i64)]));
        assert_eq!(r.time, want);
        let sum: i64 = times.iter().sum();
        let max = *times.iter().max().unwrap();
        assert_eq!(r.time, (sum + (nn - 1) * max) as f64);
        assert_eq!(r.resources[0].members.len(), times.len());
        assert_eq!(r.resources[0].members[2].name, "u[2]");
    }
}

#[test]
fn composites_calls_and_branches() {
    // f(a, b) = seq k in a..=b delay(k);  main = f(1, 3) || { delay(1); if 2 > 1 delay(10) }
    let m = model(
        &[],
        vec![],
        vec![
            process(
                "f",
                &["a", "b"],
                seq_loop("k", v("a"), v("b"), delay(v("k"))),
            ),
            process(
                "main",
                &[],
                par(vec![
                    call(0, vec![n(1), n(3)]),
                    seq(vec![
                        delay(n(1)),
                        if_(Cond::cmp(CmpOp::Gt, n(2), n(1)), delay(n(10)), None),
                        t(TermKind::Skip),
                    ]),
                ]),
            ),
        ],
    );
    let r = run(&m, &Binding::default());
    assert_eq!(r.time, 11.0);
    assert_eq!(r.events, 5);
}

#[test]
fn empty_and_rounded_ranges() {
    // seq i in 3..=1 delay(100); par i in 0.5..=2.5 delay(i)  -> i = 1, 2
    let m = model(
        &[],
        vec![],
        vec![process(
            "main",
            &[],
            seq(vec![
                seq_loop("i", n(3), n(1), delay(n(100))),
                par_loop("i", Expr::ratio(1, 2), Expr::ratio(5, 2), delay(v("i"))),
            ]),
        )],
    );
    let r = run(&m, &Binding::default());
    assert_eq!(r.time, 2.0);
    assert_eq!(r.events, 2);
}

#[test]
fn multiplicity_two_halves_queueing_and_infinite_never_queues() {
    let body = |mult: Option<Expr>| {
        model(
            &[],
            vec![res("pool", mult, None)],
            vec![process(
                "main",
                &[],
                par_loop("p", n(1), n(8), use_(0, n(1))),
            )],
        )
    };
    let one = run(&body(Some(n(1))), &Binding::default());
    let two = run(&body(Some(n(2))), &Binding::default());
    let inf = run(&body(None), &Binding::default());
    assert_eq!(one.time, 8.0);
    assert_eq!(two.time, 4.0);
    assert_eq!(inf.time, 1.0);
    assert_eq!(one.resources[0].utilization, 1.0);
    assert_eq!(two.resources[0].utilization, 1.0);
    assert_eq!(inf.resources[0].utilization, 0.0);
    assert_eq!(inf.resources[0].busy, 8.0);
}

/// The Table 1 network model (µs): `x[n]` link, `f[n]` forwarding, packets of a 10^6-byte
/// transfer: `ceil(10^6/120) = 8334`.
fn network(row: &[(u8, usize)]) -> Model {
    let packets = Expr::Ceil(Box::new(Expr::div(n(1_000_000), n(120))));
    // move01 = par i in 1..=8334 use(x[1], 108)
    let move01 = || par_loop("i", n(1), packets.clone(), use_i(1, n(1), n(108)));
    // move02 = par i in 1..=8334 { { use(f[1], 181) || use(x[1], 108) } ; use(x[2], 108) }
    let move02 = || {
        par_loop(
            "i",
            n(1),
            packets.clone(),
            seq(vec![
                par(vec![use_i(0, n(1), n(181)), use_i(1, n(1), n(108))]),
                use_i(1, n(2), n(108)),
            ]),
        )
    };
    let mut parts = Vec::new();
    for &(dest, count) in row {
        for _ in 0..count {
            parts.push(if dest == 1 { move01() } else { move02() });
        }
    }
    model(
        &[],
        vec![
            res("f", Some(n(1)), Some(n(3))),
            res("x", Some(n(1)), Some(n(3))),
        ],
        vec![process("main", &[], par(parts))],
    )
}

#[test]
fn network_table1() {
    // Exact values in µs, derived in tests/sim.rs.
    for (row, want) in [
        (&[(1, 1)][..], 900_072.0),
        (&[(2, 1)][..], 1_508_562.0),
        (&[(1, 2)][..], 1_800_144.0),
        (&[(2, 2)][..], 3_017_016.0),
    ] {
        let r = run(&network(row), &Binding::default());
        assert_eq!(r.time, want, "{row:?}");
    }
}

#[test]
fn errors_point_at_the_term() {
    let neg = model(&[], vec![], vec![process("main", &[], delay(n(-1)))]);
    let e = run_err(&neg, &Binding::default());
    assert_eq!(e.kind, ErrorKind::Evaluation);
    assert!(e.message.contains("-1"), "{}", e.message);
    assert!(e.span().is_some());

    let fam = model(
        &[],
        vec![res("cpu", Some(n(1)), Some(n(4)))],
        vec![process("main", &[], use_i(0, n(4), n(1)))],
    );
    let e = run_err(&fam, &Binding::default());
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);
    assert!(
        e.message.contains("index 4") && e.message.contains("4 members"),
        "{}",
        e.message
    );

    let frac = model(
        &[],
        vec![res("cpu", Some(n(1)), Some(n(4)))],
        vec![process("main", &[], use_i(0, Expr::ratio(1, 2), n(1)))],
    );
    let e = run_err(&frac, &Binding::default());
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);
    assert!(e.message.contains("not an integer"), "{}", e.message);

    for (mult, fam) in [
        (Some(n(0)), None),
        (Some(Expr::ratio(3, 2)), None),
        (Some(n(1)), Some(n(0))),
    ] {
        let m = model(
            &[],
            vec![res("r", mult, fam)],
            vec![process("main", &[], t(TermKind::Skip))],
        );
        assert_eq!(
            run_err(&m, &Binding::default()).kind,
            ErrorKind::Multiplicity
        );
    }

    let prob = model(
        &[],
        vec![],
        vec![process(
            "main",
            &[],
            if_(Cond::Prob(Expr::ratio(3, 2)), delay(n(1)), None),
        )],
    );
    let e = run_err(&prob, &Binding::default());
    assert_eq!(e.kind, ErrorKind::Evaluation);
    assert!(e.message.contains("probability"));

    let unbound = mrm();
    assert_eq!(
        run_err(&unbound, &bind(&[("P", 1)])).kind,
        ErrorKind::Binding
    );
}

#[test]
fn max_events_limit() {
    let r = simulate(
        &mrm(),
        0,
        &bind(&[("P", 4), ("N", 10), ("tau_l", 3), ("tau_s", 1)]),
        &SimOptions {
            max_events: 10,
            ..SimOptions::default()
        },
    );
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message.starts_with("stopped after 10 events"),
        "{}",
        e.message
    );
}

#[test]
fn prob_frequency_and_reproducibility() {
    // seq i in 1..=N if prob(0.3) use(s, 1)
    let m = model(
        &["N"],
        vec![single("s")],
        vec![process(
            "main",
            &[],
            seq_loop(
                "i",
                n(1),
                v("N"),
                if_(Cond::Prob(Expr::ratio(3, 10)), use_(0, n(1)), None),
            ),
        )],
    );
    let b = bind(&[("N", 20_000)]);
    let opts = SimOptions {
        seed: 7,
        ..SimOptions::default()
    };
    let a = simulate(&m, 0, &b, &opts).unwrap();
    let c = simulate(&m, 0, &b, &opts).unwrap();
    assert_eq!(a, c);
    let f = a.resources[0].served as f64 / 20_000.0;
    assert!((f - 0.3).abs() < 0.015, "frequency {f}");
}

#[test]
fn trace_lanes_and_labels() {
    // resource pool: 2;  main = par p in 1..=3 use(pool, p)
    let m = model(
        &[],
        vec![res("pool", Some(n(2)), None)],
        vec![process(
            "main",
            &[],
            par_loop("p", n(1), n(3), use_(0, v("p"))),
        )],
    );
    let r = simulate(
        &m,
        0,
        &Binding::default(),
        &SimOptions {
            record_trace: true,
            ..SimOptions::default()
        },
    )
    .unwrap();
    assert_eq!(r.time, 4.0);
    let tr = r.trace.unwrap();
    let lanes: Vec<_> = tr
        .lanes
        .iter()
        .map(|l| (l.name.as_str(), l.group.as_str()))
        .collect();
    assert_eq!(
        lanes,
        [
            ("pool#0", "pool"),
            ("pool#1", "pool"),
            ("main p=1", "processes"),
            ("main p=2", "processes"),
            ("main p=3", "processes")
        ]
    );
    let mut iv: Vec<_> = tr
        .intervals
        .iter()
        .map(|i| (i.lane, i.start, i.end, i.label.as_str(), i.kind))
        .collect();
    iv.sort_by(|a, b| a.partial_cmp(b).unwrap());
    use trace::Kind::{Busy, Wait};
    assert_eq!(
        iv,
        [
            (0, 0.0, 1.0, "A: main p=1", Busy),
            (0, 1.0, 4.0, "C: main p=3", Busy),
            (1, 0.0, 2.0, "B: main p=2", Busy),
            (2, 0.0, 1.0, "pool", Busy),
            (3, 0.0, 2.0, "pool", Busy),
            // p=3 waits for p=1's server.
            (4, 0.0, 1.0, "wait pool", Wait),
            (4, 1.0, 4.0, "pool", Busy),
        ]
    );
}

#[test]
fn server_label_codes() {
    use super::engine::server_label;
    assert_eq!(server_label(0, "main p=1"), "A: main p=1");
    assert_eq!(server_label(25, "x"), "Z: x");
    assert_eq!(server_label(26, "x"), "AA: x");
    assert_eq!(server_label(27, "x"), "AB: x");
    assert_eq!(server_label(26 + 26 * 26 - 1, "x"), "ZZ: x");
    assert_eq!(server_label(26 + 26 * 26, "x"), "AAA: x");
    // Distinct codes give distinct colour prefixes in the Gantt chart.
    assert_eq!(
        trace::gantt::label_prefix(&server_label(2, "main p=3")),
        "C"
    );
}
