//! The thread-graph language: the shipped examples parse, instantiate and traverse; every
//! error class is located and named; Θ over the limit is refused before anything is built.

use semi::instantiate::{instantiate, Bindings, Limits};
use semi::lang::{parse, ErrorKind, ModelError};
use semi::sim::{simulate, FixedCosts, Options, SimError};
use sweep::{Limit, Reached};

fn example(name: &str) -> String {
    let path = format!("{}/../../examples/semi/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("the shipped example")
}

fn bind(params: &[(&str, f64)], coeffs: &[(&str, f64)]) -> Bindings {
    Bindings {
        params: params.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        coeffs: coeffs.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
    }
}

fn time(name: &str, b: &Bindings, costs: &FixedCosts, processors: usize) -> f64 {
    let m = parse(name, &example(name)).expect("parses");
    let inst = instantiate(&m, b, &Limits::default()).expect("instantiates");
    simulate(
        &inst.graph,
        costs,
        &Options {
            processors,
            ..Options::default()
        },
    )
    .expect("traverses")
    .time
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

/// RT-D through the language: examples/semi/cluster.tg is the §6.4 cluster.
#[test]
fn the_cluster_example_gives_7_8_and_9_8() {
    let costs = FixedCosts {
        lock: 0.1,
        barrier: 0.5,
        ..FixedCosts::default()
    };
    let b = bind(&[("w1", 4.0), ("w2", 6.0), ("w3", 5.0)], &[]);
    assert!(close(time("cluster.tg", &b, &costs, 3), 7.8));
    let b = bind(&[("w1", 6.0), ("w2", 6.0), ("w3", 6.0)], &[]);
    assert!(close(time("cluster.tg", &b, &costs, 3), 9.8));
}

/// GE: with free events the time is the slowest initialisation, then per step the main
/// thread's pivot plus the slowest worker's elimination (the worker owning most columns
/// right of k), then the solve.
#[test]
fn the_ge_example_adds_pivots_and_the_slowest_worker_per_step() {
    let (n, p) = (40.0, 4.0);
    let (ci, cp, ce, cs) = (1e-6, 2e-6, 3e-6, 4e-6);
    let b = bind(
        &[("N", n), ("P", p)],
        &[
            ("c_init", ci),
            ("c_pivot", cp),
            ("c_elim", ce),
            ("c_solve", cs),
        ],
    );
    let got = time("ge.tg", &b, &FixedCosts::default(), 8);
    let owned = |i: f64, k: f64| ((n - i) / p).floor() - ((k - i) / p).floor();
    let init = (0..4)
        .map(|i| ci * n * owned(f64::from(i), 0.0))
        .fold(0.0, f64::max);
    let mut expected = init + cs * n * n;
    for k in 1..40 {
        let k = f64::from(k);
        let elim = (0..4)
            .map(|i| ce * (n - k) * owned(f64::from(i), k))
            .fold(0.0, f64::max);
        expected += cp * (n - k) + elim;
    }
    assert!(close(got, expected), "{got} vs {expected}");
    // Columns are split exactly: the owned counts of all workers sum to N − k.
    for k in 0..40 {
        let total: f64 = (0..4).map(|i| owned(f64::from(i), f64::from(k))).sum();
        assert_eq!(total, n - f64::from(k));
    }
}

#[test]
fn every_example_parses_instantiates_and_traverses() {
    let coeffs = [
        ("c_init", 1e-8),
        ("c_pivot", 1e-8),
        ("c_elim", 1e-8),
        ("c_solve", 1e-8),
        ("c_paths", 1e-9),
        ("c_item", 1e-6),
        ("c_update", 1e-7),
        ("c_stage", 1e-6),
        ("c_fast", 1e-6),
        ("c_slow", 4e-6),
        ("c_unit", 1e-3),
    ];
    let costs = FixedCosts {
        barrier: 1e-6,
        lock: 1e-7,
        fork: 1e-5,
        join: 1e-5,
        send: 1e-6,
        latency: 1e-6,
        recv: 1e-6,
        ..FixedCosts::default()
    };
    for (file, params) in [
        ("ge.tg", vec![("N", 64.0), ("P", 4.0)]),
        ("apsp.tg", vec![("N", 64.0), ("P", 4.0)]),
        ("queue.tg", vec![("W", 100.0), ("P", 4.0)]),
        ("pipeline.tg", vec![("N", 50.0), ("P", 4.0)]),
        ("branchy.tg", vec![("N", 50.0), ("P", 4.0)]),
        ("forkjoin.tg", vec![("P", 4.0)]),
        ("cluster.tg", vec![("w1", 1.0), ("w2", 2.0), ("w3", 3.0)]),
    ] {
        let b = bind(&params, &coeffs);
        let t = time(file, &b, &costs, 4);
        assert!(t > 0.0 && t.is_finite(), "{file}: {t}");
    }
    // The fork-join example: fork, the longest worker (4 units), join.
    let b = bind(&[("P", 4.0)], &[("c_unit", 1.0)]);
    let c = FixedCosts {
        fork: 0.5,
        join: 0.25,
        ..FixedCosts::default()
    };
    assert!(close(time("forkjoin.tg", &b, &c, 4), 4.75));
    // The queue: on one processor per worker, the updates serialise once they dominate.
    let b = bind(
        &[("W", 100.0), ("P", 4.0)],
        &[("c_item", 1.0), ("c_update", 1.0)],
    );
    let t = time("queue.tg", &b, &FixedCosts::default(), 4);
    assert!(t >= 400.0 - 1e-9, "{t}");
}

/// The loops of GE whose bodies use k are unrolled, the others kept; Θ is known before.
#[test]
fn theta_is_counted_before_instantiation_and_matches_the_graph() {
    let m = parse("ge.tg", &example("ge.tg")).unwrap();
    let b = bind(
        &[("N", 100.0), ("P", 4.0)],
        &[
            ("c_init", 1.0),
            ("c_pivot", 1.0),
            ("c_elim", 1.0),
            ("c_solve", 1.0),
        ],
    );
    let (count, _) = semi::instantiate::count(&m, &b, &Limits::default()).unwrap();
    let inst = instantiate(&m, &b, &Limits::default()).unwrap();
    assert_eq!(count.size, inst.size);
    // main: fork, the init barrier, 99 × 2 barriers, join; each worker 1 + 99 × 2 barriers.
    assert_eq!(inst.size.events, 3 + 99 * 2 + 4 * (1 + 99 * 2));
    let queue = parse("queue.tg", &example("queue.tg")).unwrap();
    let b = bind(
        &[("W", 1e6), ("P", 8.0)],
        &[("c_item", 1.0), ("c_update", 1.0)],
    );
    let inst = instantiate(&queue, &b, &Limits::default()).unwrap();
    // The loop is kept: 8 threads of one loop each, whatever W.
    assert_eq!(inst.size.events, 8 * 2_000_000);
    assert!(inst.graph.threads.iter().all(|t| t.ops.len() == 1));
}

#[test]
fn theta_over_the_limit_is_refused_with_its_value() {
    let m = parse("ge.tg", &example("ge.tg")).unwrap();
    let b = bind(
        &[("N", 1e6), ("P", 64.0)],
        &[
            ("c_init", 1.0),
            ("c_pivot", 1.0),
            ("c_elim", 1.0),
            ("c_solve", 1.0),
        ],
    );
    let started = std::time::Instant::now();
    let err = instantiate(
        &m,
        &b,
        &Limits {
            max_steps: 1_000_000,
            ..Limits::default()
        },
    )
    .unwrap_err();
    assert!(started.elapsed().as_secs_f64() < 2.0);
    assert_eq!(err.kind, ErrorKind::Limit);
    assert_eq!(
        err.reached,
        Some(Reached::new(Limit::TraversalSteps, 1_000_000))
    );
    assert!(err.message.contains("Θ = 129999937"), "{}", err.message);
}

/// Each limit of an instantiation stops it with the limit and its value.
#[test]
fn each_instantiation_limit_says_it_was_reached() {
    let limited = |text: &str, limits: Limits| {
        let m = parse("limited.tg", text).expect("parses");
        instantiate(&m, &Bindings::default(), &limits).unwrap_err()
    };
    let ops = |max_ops| Limits {
        max_ops,
        ..Limits::default()
    };
    // More instances of a class than ops.
    let e = limited("class w[i in 5] { mark m; }", ops(2));
    assert_eq!(e.kind, ErrorKind::Limit);
    assert_eq!(e.reached, Some(Reached::new(Limit::GraphOps, 2)));
    assert_eq!(e.message, "`w` has 5 instances, over the limit of 2 ops");
    // A lock array longer than the ops.
    let e = limited("lock l[5]; thread t { mark m; }", ops(2));
    assert_eq!(e.reached, Some(Reached::new(Limit::GraphOps, 2)));
    assert_eq!(e.message, "`l` is longer than the limit of 2 ops");
    // More ops than the limit, within the steps.
    let e = limited("thread t { mark a; mark b; mark c; }", ops(1));
    assert_eq!(e.reached, Some(Reached::new(Limit::GraphOps, 1)));
    assert!(
        e.message.starts_with("the instantiated graph has Θ = 3"),
        "{}",
        e.message
    );
    // A count that walks more loop iterations than the limit.
    let walks = Limits {
        max_count_iterations: 10,
        ..Limits::default()
    };
    let e = limited(
        "thread t { loop k in 1..=100 { loop k { mark m; } } }",
        walks,
    );
    assert_eq!(e.kind, ErrorKind::Limit);
    assert_eq!(e.reached, Some(Reached::new(Limit::CountIterations, 10)));
    assert!(
        e.message.ends_with("walks more than 10 loop iterations"),
        "{}",
        e.message
    );
    // Errors that are not limits carry none.
    let e = error("thread t { jump; }");
    assert_eq!((e.kind, e.reached), (ErrorKind::Syntax, None));
}

fn error(text: &str) -> Box<ModelError> {
    parse("bad.tg", text).unwrap_err()
}

fn inst_error(text: &str, b: &Bindings) -> Box<ModelError> {
    let m = parse("bad.tg", text).expect("parses");
    instantiate(&m, b, &Limits::default()).unwrap_err()
}

/// One test per error class, each located (line, column, label) and with a hint where one
/// helps.
#[test]
fn syntax_errors_are_located() {
    let e = error("param N\nthread t { }");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.line_col(), Some((2, 1)));
    assert!(
        e.message.contains("expected `;`, found `thread`"),
        "{}",
        e.message
    );
    let e = error("thread t { compute a = 2 * ; }");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(
        e.message.starts_with("the segment's time:"),
        "{}",
        e.message
    );
    assert_eq!(e.line_col().unwrap().0, 1);
    let e = error("thread t { loop 3 { mark m; }");
    assert!(e.message.contains("never closed"), "{}", e.message);
    let e = error("thread t { /* open");
    assert!(
        e.message.contains("comment is never closed"),
        "{}",
        e.message
    );
    let e = error("thread t { jump; }");
    assert!(e.message.contains("expected a statement"), "{}", e.message);
    let e = error("widget w;");
    assert!(
        e.message.contains("expected a declaration"),
        "{}",
        e.message
    );
    let e = error("param loop;");
    assert!(e.message.contains("`loop` is a keyword"), "{}", e.message);
    let deep = format!("thread t {}{}", "{ loop 1 ".repeat(100), "}".repeat(101));
    let e = error(&deep);
    assert!(e.message.contains("nested more than"), "{}", e.message);
    // The deepest model allowed goes through every stage on a test thread's stack.
    let depth = semi::lang::MAX_DEPTH - 1;
    let nested = |count: u32| {
        format!(
            "thread t {{ {}mark m;{}",
            format!("loop {count} {{ ").repeat(depth),
            "}".repeat(depth + 1)
        )
    };
    let m = parse("deep.tg", &nested(1)).expect("parses");
    let inst = instantiate(&m, &Bindings::default(), &Limits::default()).expect("instantiates");
    let out = simulate(&inst.graph, &FixedCosts::default(), &Options::default()).unwrap();
    assert_eq!(out.events, 1);
    // 2^63 marks are refused before anything is built.
    let m = parse("deep.tg", &nested(2)).expect("parses");
    let err = instantiate(&m, &Bindings::default(), &Limits::default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Limit);
    assert_eq!(
        err.reached,
        Some(Reached::new(Limit::TraversalSteps, 1 << 32))
    );
    assert!(
        err.message.contains("Θ = 9223372036854775808"),
        "{}",
        err.message
    );
    // Binary and very long input: errors, no panic.
    let _ = parse("bin.tg", "\u{0}\u{1}\u{fffd}");
    let long = format!("param {}; thread t {{ mark m; }}", "x".repeat(100_000));
    assert!(parse("long.tg", &long).is_ok());
    let e = parse("huge.tg", &" ".repeat(17 << 20)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert_eq!(e.reached, Some(Reached::new(Limit::InputBytes, 16 << 20)));
    // A model without threads would predict 0 s: it is refused, at its end.
    for text in ["", "// nothing yet\n", "param N;\ncoeff c;\n\n"] {
        let e = error(text);
        assert_eq!(e.kind, ErrorKind::Syntax, "{text:?}");
        assert!(e.message.contains("no threads"), "{}", e.message);
        assert!(e.help.as_deref().is_some_and(|h| h.contains("thread main")));
    }
    assert_eq!(error("param N;\ncoeff c;\n\n").line_col(), Some((2, 9)));
}

#[test]
fn undefined_names_are_located_with_suggestions() {
    let e = error("param N; barrier step(N); thread t { barrier stp; }");
    assert_eq!(e.kind, ErrorKind::UndefinedName);
    assert_eq!(e.help.as_deref(), Some("did you mean `step`?"));
    let e = error("param N; coeff c; thread t { compute a = c * NN; }");
    assert_eq!(e.kind, ErrorKind::UndefinedName);
    assert!(e.message.contains("`NN` is not declared"), "{}", e.message);
    assert_eq!(e.help.as_deref(), Some("did you mean `N`?"));
}

#[test]
fn duplicate_names_and_shadowing_are_errors() {
    let e = error("param N;\nlock N;");
    assert_eq!(e.kind, ErrorKind::DuplicateName);
    assert!(
        e.message.contains("first as a parameter on line 1"),
        "{}",
        e.message
    );
    let e = error("param N; thread t { loop N in 1..=3 { mark m; } }");
    assert_eq!(e.kind, ErrorKind::DuplicateName);
    let e = error("param P; class w[i in P] { loop i in 1..=2 { mark m; } }");
    assert_eq!(e.kind, ErrorKind::DuplicateName);
}

#[test]
fn names_of_the_wrong_kind_are_misuse() {
    let e = error("lock l; thread t { barrier l; }");
    assert_eq!(e.kind, ErrorKind::Misuse);
    assert!(
        e.message.contains("`l` is a lock, not a barrier"),
        "{}",
        e.message
    );
    let e = error("coeff c; thread t { loop c { mark m; } }");
    assert_eq!(e.kind, ErrorKind::Misuse);
    assert!(e.message.contains("`c` is a coefficient"), "{}", e.message);
    let e = error("lock l; thread t { lock l[0]; }");
    assert!(e.message.contains("takes no index"), "{}", e.message);
    let e = error("param P; lock l[P]; thread t { lock l; }");
    assert!(e.message.contains("is an array"), "{}", e.message);
    let e = error("param N; param A = B; param B = N;");
    assert_eq!(e.kind, ErrorKind::UndefinedName);
}

#[test]
fn bindings_are_checked() {
    let text = "param N; param H = N / 2; coeff c; thread t { compute a = c * H; }";
    let e = inst_error(text, &bind(&[], &[("c", 1.0)]));
    assert_eq!(e.kind, ErrorKind::Binding);
    assert_eq!(e.missing, vec!["N".to_string()]);
    let e = inst_error(text, &bind(&[("N", 2.0), ("H", 1.0)], &[("c", 1.0)]));
    assert!(e.message.contains("derived"), "{}", e.message);
    let e = inst_error(text, &bind(&[("NN", 2.0)], &[("c", 1.0)]));
    assert_eq!(e.help.as_deref(), Some("did you mean `N`?"));
    // A coefficient without a value, named before anything is built.
    let e = inst_error(text, &bind(&[("N", 2.0)], &[]));
    assert_eq!(e.kind, ErrorKind::Binding);
    assert_eq!(e.missing_coeffs, vec!["c".to_string()]);
    assert!(
        e.message.contains("coefficients without a value: `c`"),
        "{}",
        e.message
    );
}

#[test]
fn values_out_of_range_are_evaluation_errors() {
    let b = bind(&[("N", 2.5)], &[]);
    let e = inst_error("param N; thread t { loop N { mark m; } }", &b);
    assert_eq!(e.kind, ErrorKind::Evaluation);
    assert!(e.message.contains("whole number"), "{}", e.message);
    assert_eq!(e.line_col(), Some((1, 26)));
    let e = inst_error("param N; thread t { compute a = 0 - N; }", &b);
    assert!(e.message.contains("a time is ≥ 0"), "{}", e.message);
    let e = inst_error("param N; thread t { branch N { mark m; } }", &b);
    assert!(e.message.contains("[0, 1]"), "{}", e.message);
    let e = inst_error("param N; lock l[2]; thread t { lock l[3]; }", &b);
    assert!(e.message.contains("out of range"), "{}", e.message);
    let e = inst_error("param N; thread t { compute a = 1 / (N - N); }", &b);
    assert_eq!(e.kind, ErrorKind::Evaluation);
    let e = inst_error("param N; barrier b(N); thread t { barrier b; }", &b);
    assert!(e.message.contains("participants"), "{}", e.message);
}

/// A miette rendering names the file, the line and the fix.
#[test]
fn errors_render_with_the_source() {
    let e = error("param N;\nbarrier step(N);\nthread t { barrier stp; }");
    let mut out = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .render_report(&mut out, e.as_ref())
        .unwrap();
    assert!(out.contains("bad.tg:3:20"), "{out}");
    assert!(out.contains("did you mean `step`?"), "{out}");
}

/// A segment's time is a sum of terms, each a coefficient times a function of the
/// parameters: anything else is refused where it is written, since the samples' fit could
/// not find its coefficients.
#[test]
fn segment_times_not_linear_in_the_coefficients_are_located() {
    let model = |cost: &str| {
        format!("param N;\nparam P;\ncoeff c, d;\nthread t {{\n    compute w = {cost};\n}}\n")
    };
    for ok in [
        "c * N^2 / P + d * N",
        "(c + d) * N",
        "c * floor(N / P) - d",
        "c * N / 2 + 3",
        "-c * N",
    ] {
        parse("ok.tg", &model(ok)).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    for (bad, why) in [
        ("c * d * N", "multiplies coefficients together"),
        ("N / c", "divides by a coefficient"),
        ("c^2 * N", "raises a coefficient to a power"),
        ("floor(c * N)", "inside a function"),
        ("min(c, d) * N", "inside a function"),
    ] {
        let e = error(&model(bad));
        assert_eq!(e.kind, ErrorKind::Misuse, "{bad}");
        assert!(
            e.message
                .starts_with("the time of segment `w` is not linear in the coefficients")
                && e.message.contains(why),
            "{bad}: {}",
            e.message
        );
        let at = e.location.as_ref().expect("located");
        assert_eq!(at.line_col().0, 5, "{bad}");
        assert!(
            e.help.as_deref().unwrap_or("").contains("sum of terms"),
            "{bad}"
        );
    }
}

/// Event costs that add up past the largest number make an error naming the point, not a
/// prediction of `inf`.
#[test]
fn a_prediction_that_overflows_is_an_error() {
    let m = parse(
        "big.tg",
        "param N;\nbarrier b(1);\nthread t {\n    loop N {\n        barrier b;\n    }\n}\n",
    )
    .unwrap();
    let costs = FixedCosts {
        barrier: 1e308,
        ..FixedCosts::default()
    };
    let opts = semi::predict::PredictOptions::default();
    let fine = semi::predict::predict(&m, &bind(&[("N", 1.0)], &[]), &costs, &opts).unwrap();
    assert_eq!(fine.outcome.time, 1e308);
    let e = semi::predict::predict(&m, &bind(&[("N", 3.0)], &[]), &costs, &opts).unwrap_err();
    assert!(
        matches!(&e, semi::predict::PredictError::NotFinite { point, .. } if point == "N=3"),
        "{e}"
    );
    assert!(e.to_string().contains("not a finite number"), "{e}");
}

/// Unlocking a lock the thread does not hold is an error naming the thread, the lock and
/// who holds it, not a release of another thread's critical section.
#[test]
fn unlocking_a_lock_not_held_is_an_error() {
    let run = |text: &str| {
        let m = parse("locks.tg", text).unwrap();
        let g = instantiate(&m, &bind(&[], &[]), &Limits::default()).unwrap();
        simulate(&g.graph, &FixedCosts::default(), &Options::default()).unwrap_err()
    };
    let e = run("lock l;\nthread main {\n    compute w = 0.5;\n    unlock l;\n}\nthread b {\n    lock l;\n    compute x = 1;\n    unlock l;\n}\n");
    assert!(
        matches!(&e, SimError::NotHeld { thread, lock, holder } if thread == "main" && lock == "l" && holder.as_deref() == Some("b")),
        "{e}"
    );
    assert_eq!(e.to_string(), "`main` unlocks lock `l`, which `b` holds");
    let e = run("lock l;\nthread main {\n    unlock l;\n}\n");
    assert_eq!(e.to_string(), "`main` unlocks lock `l`, which nobody holds");
    // One element of a lock array taken, another released.
    let e = run("lock ls[2];\nthread main {\n    lock ls[0];\n    unlock ls[1];\n}\n");
    assert!(matches!(&e, SimError::NotHeld { holder: None, .. }), "{e}");
    // Contended critical sections hand the lock over and run to the end.
    let m = parse(
        "cs.tg",
        "lock l;\nclass w[i in 3] {\n    critical l {\n        compute x = 1;\n    }\n}\n",
    )
    .unwrap();
    let g = instantiate(&m, &bind(&[], &[]), &Limits::default()).unwrap();
    let o = simulate(&g.graph, &FixedCosts::default(), &Options::default()).unwrap();
    assert_eq!(o.time, 3.0);
}

/// Parameters may declare a type and bounds (`param N: int >= 2;`, `param P in 1..=N;`);
/// a value outside them is refused at the declaration, before anything is built.
#[test]
fn parameter_bounds_refuse_values_outside_them() {
    let text = "param N: int >= 2;\nparam P: int in 1..=N;\nparam S <= 0.5;\nthread t {\n    compute w = N;\n}\n";
    let m = parse("b.tg", text).unwrap();
    let ok = bind(&[("N", 4.0), ("P", 4.0), ("S", 0.5)], &[]);
    instantiate(&m, &ok, &Limits::default()).unwrap();
    for (n, p, s, says) in [
        (1.0, 1.0, 0.0, "parameter `N` = 1: below its lowest value 2"),
        (2.5, 1.0, 0.0, "parameter `N` = 2.5: it is declared `int`"),
        (
            4.0,
            5.0,
            0.0,
            "parameter `P` = 5: above its highest value 4",
        ),
        (4.0, 0.0, 0.0, "parameter `P` = 0: below its lowest value 1"),
        (
            4.0,
            1.0,
            0.75,
            "parameter `S` = 0.75: above its highest value 0.5",
        ),
    ] {
        let e = inst_error(text, &bind(&[("N", n), ("P", p), ("S", s)], &[]));
        assert_eq!(e.kind, ErrorKind::Binding, "{says}");
        assert_eq!(e.message, says);
        let at = e.location.as_ref().expect("located at the declaration");
        assert_eq!(at.label(), "declared here");
    }
    // A missing parameter is reported as missing, not as a bound that cannot be computed.
    let e = inst_error(text, &bind(&[("P", 2.0), ("S", 0.0)], &[]));
    assert_eq!(e.message, "parameters without a value: `N`");
    // A bound may use a derived parameter before it.
    let m = parse(
        "d.tg",
        "param N;\nparam H = N / 2;\nparam P <= H;\nthread t { compute w = 1; }",
    )
    .unwrap();
    instantiate(
        &m,
        &bind(&[("N", 8.0), ("P", 4.0)], &[]),
        &Limits::default(),
    )
    .unwrap();
    let e = instantiate(
        &m,
        &bind(&[("N", 8.0), ("P", 5.0)], &[]),
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(e.message, "parameter `P` = 5: above its highest value 4");
    // Bounds use the parameters before it; a derived parameter takes none; the type is
    // `int` or `real`.
    let e = error("param P in 1..=N;\nparam N;\nthread t { compute w = 1; }");
    assert!(e.message.contains("`N`"), "{}", e.message);
    let e = error("param N;\nparam B: int = N / 2;\nthread t { compute w = 1; }");
    assert!(
        e.message
            .contains("a derived parameter takes no type or bounds"),
        "{}",
        e.message
    );
    let e = error("param N: float;\nthread t { compute w = 1; }");
    assert!(e.message.contains("`int` or `real`"), "{}", e.message);
}

/// Events beyond what the machine profile measured are named, in branches too.
#[test]
fn event_costs_beyond_the_profile_are_named() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/semi/machine.json"
    );
    let profile = probe::Profile::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let costs = semi::costs::MachineCosts { profile };
    let m = parse(
        "b.tg",
        "channel c;\nthread main {\n    branch 0.5 {\n        fork w;\n        join w;\n    } else {\n        send c 4194304;\n    }\n}\nclass w[i in 8] {\n    compute x = 1;\n}\nthread r {\n    branch 0.5 { recv c; }\n}\n",
    )
    .unwrap();
    let g = instantiate(&m, &bind(&[], &[]), &Limits::default()).unwrap();
    use semi::sim::EventCosts;
    let notes = costs.beyond(&g.graph);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].starts_with(
            "the model has forks and joins of 8 threads, the machine profile measured them up to 4"
        ),
        "{notes:?}"
    );
    assert!(notes[1].starts_with("the model sends messages of 4194304 bytes, the machine profile measured them up to 1048576"), "{notes:?}");
    // A prediction carries them when asked (a user's), not by default (a fit's many).
    let m = parse(
        "f.tg",
        "thread main {\n    fork w;\n    join w;\n}\nclass w[i in 8] {\n    compute x = 1;\n}\n",
    )
    .unwrap();
    let b = bind(&[], &[]);
    let quiet = semi::predict::PredictOptions::default();
    let told = semi::predict::PredictOptions {
        notes: true,
        ..quiet
    };
    assert!(semi::predict::predict(&m, &b, &costs, &quiet)
        .unwrap()
        .notes
        .is_empty());
    let notes = semi::predict::predict(&m, &b, &costs, &told).unwrap().notes;
    assert_eq!(notes.len(), 1, "{notes:?}");
}
