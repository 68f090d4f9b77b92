//! The PAMELA front end on valid input: every example parses and checks, lowered structure
//! and precedence are as documented, and parameter binding computes and validates values.

use std::path::PathBuf;

use expr::{CmpOp, Cond, Expr, Name, Rational};
use pamela::{check, Compose, ErrorKind, Loop, Model, Term, TermKind};

fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/pamela")
}

fn example(name: &str) -> Model {
    let path = examples_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    pamela::parse(name, &text).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn parse(text: &str) -> Model {
    pamela::parse("<test>", text).unwrap_or_else(|e| panic!("{e:?}"))
}

fn int(v: i64) -> Rational {
    Rational::from_integer(v.into())
}

fn ratio(n: i64, d: i64) -> Rational {
    Rational::new(n.into(), d.into())
}

fn num(v: i64) -> Expr {
    Expr::int(v)
}

fn var(n: &str) -> Expr {
    Expr::var(n)
}

fn main_body(m: &Model) -> &Term {
    &m.processes[check::root(m, None).expect("main")].body
}

/// The process called by a `Call` term.
fn callee<'a>(m: &'a Model, t: &Term) -> &'a str {
    match &t.kind {
        TermKind::Call { proc, .. } => &m.processes[*proc].name,
        k => panic!("not a call: {k:?}"),
    }
}

fn given(pairs: &[(&str, Rational)]) -> Vec<(Name, Rational)> {
    pairs
        .iter()
        .map(|(n, v)| (Name::from(*n), v.clone()))
        .collect()
}

// ----- examples ------------------------------------------------------------------------

const EXAMPLES: &[&str] = &[
    "mrm.pam",
    "pipeline.pam",
    "pipeline3.pam",
    "branching.pam",
    "vector_seq.pam",
    "vector_pipe.pam",
    "vector_par.pam",
    "chaining_seq.pam",
    "chaining.pam",
    "membank.pam",
    "adi_j.pam",
    "adi_i.pam",
    "network.pam",
    "apsp.pam",
    "datapar.pam",
    "stride_bench.pam",
];

#[test]
fn every_example_parses_and_has_a_main_root() {
    let mut on_disk: Vec<String> = std::fs::read_dir(examples_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pam"))
        .collect();
    on_disk.sort();
    for name in EXAMPLES {
        assert!(on_disk.iter().any(|n| n == name), "{name} missing");
    }
    for name in &on_disk {
        let m = example(name);
        let root = check::root(&m, None).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(m.processes[root].args.is_empty(), "{name}");
        assert_eq!(&*m.source.name, name.as_str());
        assert!(
            m.source.text.starts_with("//"),
            "{name} opens with its header comment"
        );
    }
}

#[test]
fn mrm_lowers_to_par_of_seq_of_delay_then_use() {
    let m = example("mrm.pam");
    assert_eq!(m.resources.len(), 1);
    assert_eq!(m.resources[0].multiplicity, Some(num(1)));
    let TermKind::Loop(Loop {
        kind: Compose::Par,
        var,
        lo,
        hi,
        body,
    }) = &main_body(&m).kind
    else {
        panic!("root is not a par loop: {:?}", main_body(&m).kind)
    };
    assert_eq!((&**var, lo, hi), ("p", &num(1), &var_p()));
    let TermKind::Loop(Loop {
        kind: Compose::Seq,
        var,
        hi,
        body,
        ..
    }) = &body.kind
    else {
        panic!("inner is not a seq loop")
    };
    assert_eq!((&**var, hi), ("i", &Expr::var("N")));
    let TermKind::Compose(Compose::Seq, items) = &body.kind else {
        panic!("loop body is not a sequence: {:?}", body.kind)
    };
    assert_eq!(items.len(), 2);
    assert!(matches!(&items[0].kind, TermKind::Delay(t) if *t == Expr::var("tau_l")));
    assert!(matches!(
        &items[1].kind,
        TermKind::Use { res: 0, index: None, time } if *time == Expr::var("tau_s")
    ));
    // Spans point into the text.
    let span = items[1].span;
    assert_eq!(
        &m.source.text[span.offset()..span.offset() + span.len()],
        "use(s, tau_s)"
    );
}

fn var_p() -> Expr {
    Expr::var("P")
}

#[test]
fn network_has_the_eight_table_rows() {
    let m = example("network.pam");
    for k in 1..=8 {
        let id = check::root(&m, Some(&format!("row{k}"))).unwrap();
        assert!(m.processes[id].args.is_empty());
    }
    let mv = &m.processes[m.process("move").unwrap()];
    assert_eq!(mv.args.len(), 3);
    // par i in 1..=ceil(l / 120)
    let TermKind::Loop(Loop { hi, .. }) = &mv.body.kind else {
        panic!("move is a par over packets")
    };
    assert_eq!(*hi, Expr::Ceil(Box::new(Expr::div(var("l"), num(120)))));
    // row6 = move || move || move: one flat parallel composition.
    let row6 = &m.processes[m.process("row6").unwrap()].body;
    let TermKind::Compose(Compose::Par, items) = &row6.kind else {
        panic!("row6")
    };
    assert_eq!(items.len(), 3);
    // Service times are exact decimals.
    let text = format!("{mv:?}");
    assert!(text.contains("181"), "{text}");
}

#[test]
fn adi_and_datapar_lower_indices_faithfully() {
    let m = example("adi_j.pam");
    let b = m.param("B").unwrap();
    assert!(b.integer);
    assert_eq!(b.definition, Some(Expr::div(var("N"), var("P"))));
    let up = &m.processes[m.process("update").unwrap()].body;
    let TermKind::Use { index, .. } = &up.kind else {
        panic!()
    };
    assert_eq!(
        index.as_ref().unwrap(),
        &Expr::Floor(Box::new(Expr::div(var("j"), var("B"))))
    );
    let m = example("datapar.pam");
    let TermKind::Loop(Loop { body, .. }) = &main_body(&m).kind else {
        panic!()
    };
    let TermKind::Call { args, .. } = &body.kind else {
        panic!("braces around one term only group: {:?}", body.kind)
    };
    assert_eq!(args[0], Expr::Mod(Box::new(var("i")), Box::new(var("P"))));
    assert_eq!(callee(&m, body), "mult");
}

// ----- structure and precedence --------------------------------------------------------

const HEADER: &str = "param N: int >= 1; resource s; process a = skip; process b = skip; \
                      process c = skip; process d = skip;\n";

fn body_of(term: &str) -> (Model, Term) {
    let m = parse(&format!("{HEADER}main = {term};"));
    let t = main_body(&m).clone();
    (m, t)
}

fn shape(m: &Model, t: &Term) -> String {
    match &t.kind {
        TermKind::Skip => "skip".into(),
        TermKind::Call { .. } => callee(m, t).to_string(),
        TermKind::Use { .. } => "use".into(),
        TermKind::Delay(_) => "delay".into(),
        TermKind::Compose(k, items) => {
            let inner: Vec<String> = items.iter().map(|i| shape(m, i)).collect();
            format!("{k:?}[{}]", inner.join(","))
        }
        TermKind::Loop(Loop {
            kind, var, body, ..
        }) => format!("{kind:?}Loop {var}({})", shape(m, body)),
        TermKind::If { then, els, .. } => match els {
            Some(e) => format!("If({}|{})", shape(m, then), shape(m, e)),
            None => format!("If({})", shape(m, then)),
        },
    }
}

#[test]
fn semicolon_binds_looser_than_parallel_bar() {
    let (m, t) = body_of("a || b ; c");
    assert_eq!(shape(&m, &t), "Seq[Par[a,b],c]");
    let (m, t) = body_of("a ; b || c ; d");
    assert_eq!(shape(&m, &t), "Seq[a,Par[b,c],d]");
}

#[test]
fn chains_flatten_but_braces_group() {
    let (m, t) = body_of("a ; b ; c ; d");
    assert_eq!(shape(&m, &t), "Seq[a,b,c,d]");
    let (m, t) = body_of("a || b || c");
    assert_eq!(shape(&m, &t), "Par[a,b,c]");
    let (m, t) = body_of("{ a ; b } ; c");
    assert_eq!(shape(&m, &t), "Seq[Seq[a,b],c]");
    let (m, t) = body_of("{ a ; b ; } || { }");
    assert_eq!(shape(&m, &t), "Par[Seq[a,b],skip]");
    let (m, t) = body_of("{{{ a }}}");
    assert_eq!(shape(&m, &t), "a");
}

#[test]
fn loop_and_if_bodies_are_one_term() {
    let (m, t) = body_of("seq i in 1..=N a ; b");
    assert_eq!(shape(&m, &t), "Seq[SeqLoop i(a),b]");
    let (m, t) = body_of("par i in 1..=N { a ; b } || c");
    assert_eq!(shape(&m, &t), "Par[ParLoop i(Seq[a,b]),c]");
    let (m, t) = body_of("if prob(0.5) a else b ; c");
    assert_eq!(shape(&m, &t), "Seq[If(a|b),c]");
    let (m, t) = body_of("if N > 2 if N > 3 a else b");
    assert_eq!(shape(&m, &t), "If(If(a|b))", "else binds to the nearest if");
    let (m, t) = body_of("seq i in 1..=N par j in 1..=i use(s, j)");
    assert_eq!(shape(&m, &t), "SeqLoop i(ParLoop j(use))");
}

#[test]
fn empty_ranges_are_lowered_faithfully() {
    let (_, t) = body_of("seq k in 2..=1 a");
    let TermKind::Loop(Loop { lo, hi, .. }) = &t.kind else {
        panic!()
    };
    assert_eq!((lo, hi), (&num(2), &num(1)));
}

#[test]
fn conditions_lower_with_standard_precedence() {
    let (_, t) = body_of("if N < 2 and not N == 3 or prob(1/4) a");
    let TermKind::If { cond, els, .. } = &t.kind else {
        panic!()
    };
    assert!(els.is_none());
    let expected = Cond::Or(vec![
        Cond::And(vec![
            Cond::Cmp(CmpOp::Lt, var("N"), num(2)),
            Cond::Not(Box::new(Cond::Cmp(CmpOp::Eq, var("N"), num(3)))),
        ]),
        Cond::Prob(Expr::div(num(1), num(4))),
    ]);
    assert_eq!(*cond, expected);
    let (_, t) = body_of("if (N != 1 or N >= 4) and N <= 9 skip");
    let TermKind::If { cond, .. } = &t.kind else {
        panic!()
    };
    assert!(matches!(cond, Cond::And(v) if matches!(&v[0], Cond::Or(_))));
}

/// The service time of `main = use(s, EXPR);`.
fn time_of(e: &str) -> Expr {
    let m = parse(&format!(
        "param N; param P; param x; param y; resource s; main = use(s, {e});"
    ));
    match &main_body(&m).kind {
        TermKind::Use { time, .. } => time.clone(),
        k => panic!("{k:?}"),
    }
}

#[test]
fn expressions_lower_with_standard_precedence() {
    assert_eq!(
        time_of("1 + 2 * 3"),
        Expr::Add(vec![num(1), Expr::Mul(vec![num(2), num(3)])])
    );
    assert_eq!(time_of("N - 2"), Expr::Add(vec![var("N"), num(-2)]));
    assert_eq!(time_of("N - P"), Expr::sub(var("N"), var("P")));
    assert_eq!(time_of("N / P"), Expr::div(var("N"), var("P")));
    assert_eq!(
        time_of("x - y - N"),
        Expr::Add(vec![
            var("x"),
            Expr::Mul(vec![num(-1), var("y")]),
            Expr::Mul(vec![num(-1), var("N")])
        ])
    );
    assert_eq!(
        time_of("2 * N / P"),
        Expr::Mul(vec![num(2), var("N"), Expr::Pow(Box::new(var("P")), -1)])
    );
    assert_eq!(
        time_of("(x + y) * N"),
        Expr::Mul(vec![var("x") + var("y"), var("N")])
    );
    assert_eq!(time_of("-3"), num(-3));
    assert_eq!(time_of("-x"), Expr::Mul(vec![num(-1), var("x")]));
    assert_eq!(
        time_of("- -x"),
        Expr::Mul(vec![num(-1), Expr::Mul(vec![num(-1), var("x")])])
    );
    assert_eq!(
        time_of("x * -y"),
        Expr::Mul(vec![var("x"), Expr::Mul(vec![num(-1), var("y")])])
    );
    assert_eq!(
        time_of("N mod P"),
        Expr::Mod(Box::new(var("N")), Box::new(var("P")))
    );
    assert_eq!(
        time_of("N div P"),
        Expr::Floor(Box::new(Expr::div(var("N"), var("P"))))
    );
    // `mod` and `*` share a level and associate left: (2*N) mod P.
    assert_eq!(
        time_of("2 * N mod P"),
        Expr::Mod(
            Box::new(Expr::Mul(vec![num(2), var("N")])),
            Box::new(var("P"))
        )
    );
    assert_eq!(
        time_of("x + N mod P"),
        Expr::Add(vec![
            var("x"),
            Expr::Mod(Box::new(var("N")), Box::new(var("P")))
        ])
    );
    assert_eq!(
        time_of("min(x, y, 1)"),
        Expr::Min(vec![var("x"), var("y"), num(1)])
    );
    assert_eq!(time_of("max(x)"), Expr::Max(vec![var("x")]));
    assert_eq!(time_of("floor(x)"), Expr::Floor(Box::new(var("x"))));
    assert_eq!(
        time_of("ceil(N / 120)"),
        Expr::Ceil(Box::new(Expr::div(var("N"), num(120))))
    );
    assert_eq!(
        time_of("gcd(N, P)"),
        Expr::Gcd(Box::new(var("N")), Box::new(var("P")))
    );
    assert_eq!(time_of("log(x)"), Expr::Log(Box::new(var("x"))));
}

#[test]
fn numbers_are_exact_rationals() {
    assert_eq!(time_of("3"), Expr::Num(int(3)));
    assert_eq!(time_of("0.5"), Expr::Num(ratio(1, 2)));
    assert_eq!(time_of("1e-6"), Expr::Num(ratio(1, 1_000_000)));
    assert_eq!(time_of("181e-6"), Expr::Num(ratio(181, 1_000_000)));
    assert_eq!(time_of("2.5E3"), Expr::Num(int(2500)));
    assert_eq!(time_of("0.1"), Expr::Num(ratio(1, 10)));
}

#[test]
fn declarations_in_any_order_and_all_forms() {
    let m = parse(
        "main = f(N) || g || h();\n\
         process f(x) = use(cpu[x mod P], t);\n\
         g = delay(t);\n\
         h() = use(pool, t);\n\
         resource cpu[P];\n\
         resource pool: 4;\n\
         resource link[P]: 2;\n\
         resource net: inf;\n\
         /* parameters last */\n\
         param N: int >= 1 <= 100;\n\
         param P: int in 1..=64;\n\
         param t: real >= 0;\n\
         param B: int = N / P;\n\
         param half = t / 2;",
    );
    assert_eq!(m.processes.len(), 4);
    assert!(m.processes.iter().all(|p| m.process(&p.name).is_some()));
    assert_eq!(m.processes[1].args, vec![Name::from("x")]);
    let res = |n: &str| &m.resources[m.resource(n).unwrap()];
    assert_eq!(res("cpu").family, Some(var("P")));
    assert_eq!(res("cpu").multiplicity, Some(num(1)));
    assert_eq!(res("pool").multiplicity, Some(num(4)));
    assert_eq!(res("pool").family, None);
    assert_eq!(res("link").multiplicity, Some(num(2)));
    assert_eq!(res("link").family, Some(var("P")));
    assert_eq!(res("net").multiplicity, None);
    let n = m.param("N").unwrap();
    assert!(n.integer);
    assert_eq!((&n.lower, &n.upper), (&Some(num(1)), &Some(num(100))));
    let p = m.param("P").unwrap();
    assert_eq!((&p.lower, &p.upper), (&Some(num(1)), &Some(num(64))));
    let t = m.param("t").unwrap();
    assert!(!t.integer && t.definition.is_none());
    assert!(m.param("half").unwrap().definition.is_some());
    let a = m.assumptions();
    assert!(a.get("N").unwrap().integer);
}

#[test]
fn root_selection() {
    let m = example("network.pam");
    assert_eq!(check::root(&m, None).unwrap(), m.process("main").unwrap());
    // A root the caller names is the caller's mistake; a missing `main` is the model's.
    let e = check::root(&m, Some("row9")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownRoot);
    let help = e.help.unwrap();
    assert!(help.contains("row8") && help.contains("move"), "{help}");
    let e = check::root(&m, Some("move")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Arity);
    assert!(e.message.contains("takes 3 argument"), "{}", e.message);
    assert!(e.line_col().is_some());
    let m = parse("L = skip;");
    let e = check::root(&m, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UndefinedName);
    assert!(e.help.unwrap().contains("L"));
}

#[test]
fn a_long_sequence_is_flat() {
    let n = 100_000;
    let text = format!("process a = skip;\nmain = {}a;", "a;".repeat(n - 1));
    let m = parse(&text);
    let TermKind::Compose(Compose::Seq, items) = &main_body(&m).kind else {
        panic!()
    };
    assert_eq!(items.len(), n);
}

// ----- binding -------------------------------------------------------------------------

#[test]
fn bind_computes_derived_parameters() {
    let m = example("adi_j.pam");
    let b = m
        .bind(&given(&[("N", int(16)), ("P", int(4)), ("tau_u", int(1))]))
        .unwrap();
    assert_eq!(b.get("B"), Some(&int(4)));
    assert_eq!(b.get("N"), Some(&int(16)));
    assert_eq!(b.values.len(), 4);
    assert_eq!(b.get_f64("B"), Some(4.0));
}

#[test]
fn derived_may_use_derived_in_any_order() {
    let m = parse("param D = C + 1; param C = B * 2; param B = A / 3; param A; main = skip;");
    let b = m.bind(&given(&[("A", ratio(1, 2))])).unwrap();
    assert_eq!(b.get("B"), Some(&ratio(1, 6)));
    assert_eq!(b.get("C"), Some(&ratio(1, 3)));
    assert_eq!(b.get("D"), Some(&ratio(4, 3)));
}

#[test]
fn bind_partial_validates_only_what_is_given() {
    let m = example("adi_j.pam");
    let b = m.bind_partial(&given(&[("N", int(16))])).unwrap();
    assert_eq!(b.values.len(), 1, "B needs P too");
    let b = m
        .bind_partial(&given(&[("N", int(16)), ("P", int(2))]))
        .unwrap();
    assert_eq!(b.get("B"), Some(&int(8)));
    assert!(m.bind_partial(&[]).unwrap().values.is_empty());
    let e = m.bind_partial(&given(&[("P", int(0))])).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Binding);
    // bind, unlike bind_partial, needs every non-derived parameter.
    let e = m.bind(&given(&[("N", int(16))])).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Binding);
    assert!(
        e.message.contains("P") && e.message.contains("tau_u"),
        "{}",
        e.message
    );
    assert!(
        !e.message.contains("B"),
        "derived B is not missing: {}",
        e.message
    );
}

#[test]
fn bind_rejects_unknown_names_listing_the_parameters() {
    let m = example("mrm.pam");
    let e = m.bind(&given(&[("Q", int(1))])).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Binding);
    assert!(e.message.contains("`Q`"));
    let help = e.help.unwrap();
    assert!(help.contains("N, P, tau_l, tau_s"), "{help}");
    let e = m.bind(&given(&[("tau_z", int(1))])).unwrap_err();
    assert!(e.help.unwrap().starts_with("did you mean `tau_"));
}

#[test]
fn bind_rejects_a_value_for_a_derived_parameter() {
    let m = example("adi_i.pam");
    let e = m
        .bind(&given(&[
            ("N", int(16)),
            ("P", int(4)),
            ("B", int(4)),
            ("tau_u", int(1)),
        ]))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Binding);
    assert_eq!(e.message, "B is derived (B = N/P); bind N and P instead");
    assert!(e.line_col().is_some(), "points at the declaration");
}

#[test]
fn bind_rejects_non_integers_for_int() {
    let m = example("mrm.pam");
    let e = m
        .bind(&given(&[
            ("N", ratio(5, 2)),
            ("P", int(1)),
            ("tau_l", int(0)),
            ("tau_s", int(0)),
        ]))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Binding);
    assert!(
        e.message.contains("N = 2.5 is not an integer"),
        "{}",
        e.message
    );
    // Real parameters take any rational.
    m.bind(&given(&[
        ("N", int(5)),
        ("P", int(1)),
        ("tau_l", ratio(1, 3)),
        ("tau_s", int(0)),
    ]))
    .unwrap();
}

#[test]
fn bind_checks_declared_bounds() {
    let m = parse("param N: int >= 1; param P: int in 1..=N; param x >= 0 <= 1; main = skip;");
    let ok = m
        .bind(&given(&[("N", int(8)), ("P", int(8)), ("x", int(1))]))
        .unwrap();
    assert_eq!(ok.values.len(), 3);
    let e = m
        .bind(&given(&[("N", int(0)), ("P", int(1)), ("x", int(0))]))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Binding);
    assert_eq!(e.message, "N = 0 is below its lower bound 1");
    let e = m
        .bind(&given(&[("N", int(8)), ("P", int(9)), ("x", int(0))]))
        .unwrap_err();
    assert_eq!(e.message, "P = 9 is above its upper bound N = 8");
    assert!(e.help.unwrap().contains("param P: int in 1..=N;"));
    let e = m
        .bind(&given(&[("N", int(8)), ("P", int(2)), ("x", ratio(3, 2))]))
        .unwrap_err();
    assert_eq!(e.message, "x = 1.5 is above its upper bound 1");
    assert_eq!(e.line_col(), Some((1, 43)));
}

#[test]
fn bind_rejects_a_non_integer_derived_int() {
    let m = example("adi_j.pam");
    let e = m
        .bind(&given(&[("N", int(5)), ("P", int(2)), ("tau_u", int(1))]))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Binding);
    assert_eq!(
        e.message,
        "B = N/P = 5/2 is not an integer (N = 5, P = 2); the model assumes P divides N"
    );
}

#[test]
fn bind_reports_other_problems() {
    let m = parse("param N; param P; param B = N / P; main = skip;");
    let e = m.bind(&given(&[("N", int(1)), ("P", int(0))])).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Evaluation);
    assert!(e.message.contains("division by zero"), "{}", e.message);
    let e = m.bind(&given(&[("N", int(1)), ("N", int(2))])).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Binding);
    assert!(e.message.contains("given twice"));
    let m = parse("param A = 3; main = skip;");
    let e = m.bind(&given(&[("A", int(3))])).unwrap_err();
    assert!(e.message.contains("it is a constant"), "{}", e.message);
    assert_eq!(m.bind(&[]).unwrap().get("A"), Some(&int(3)));
    // Bounds on derived parameters are checked on the computed value.
    let m = parse("param N; param B >= 2 = N / 2; main = skip;");
    let e = m.bind(&given(&[("N", int(2))])).unwrap_err();
    assert_eq!(e.message, "B = 1 is below its lower bound 2");
}
