//! The spec §8.2 language extensions, expanded at parse time: constants and
//! time expressions, parameterised agents, channel families, `sum`/`par`
//! over ranges, family restriction, `if`, `param`, and const overrides.

use etccs::parse::{parse_with_consts, MAX_EXPANSIONS, PARAM_MESSAGE};
use etccs::{analyse, parse, Analysis, Error, Options, Time};

fn run(src: &str, name: &str) -> Analysis {
    let mut m = parse("x.etccs", src).unwrap_or_else(|e| panic!("{e:?}"));
    analyse(&mut m, name, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn pexec(a: &Analysis) -> Vec<(String, String)> {
    a.pexec
        .iter()
        .map(|(t, q)| (t.to_string(), q.to_string()))
        .collect()
}

fn times(a: &Analysis) -> Vec<String> {
    a.pexec.keys().map(|t| t.to_string()).collect()
}

fn err(src: &str) -> String {
    match parse("e.etccs", src) {
        Ok(_) => panic!("accepted: {src}"),
        Err(e) => e.to_string(),
    }
}

fn syntax_span(src: &str) -> (String, usize, usize) {
    match parse("e.etccs", src) {
        Err(Error::Syntax(s)) => (s.message.clone(), s.span.offset(), s.span.len()),
        Err(e) => panic!("not a syntax error: {e}"),
        Ok(_) => panic!("accepted: {src}"),
    }
}

#[test]
fn constants_and_time_expressions() {
    let src = "const t0 = 2; const s = 3/2; const k = max(t0, 5) - min(1, 2);\n\
               define P = tau@(2*t0+1).a@(s*t0).nil + tau@k.nil\n\
               define Q = (P)\\{a}";
    // 2*2+1 = 5, then a at 3 more: 8; the other branch tau@4.
    let a = run(src, "Q");
    assert_eq!(times(&a), ["4"]);
    let a = run("const t = 5/2; define P = tau@t.tau@(t*2).nil", "P");
    assert_eq!(times(&a), ["15/2"]);
    let a = run("define P = (tau, 1+2).nil", "P");
    assert_eq!(times(&a), ["3"]);
    let a = run(
        "const d = 1000000; const s = round(d/3); const f = floor(7/2); define P = tau@(s+f).nil",
        "P",
    );
    assert_eq!(times(&a), ["333336"]);
}

#[test]
fn parameterised_agents_instantiate_per_argument() {
    let src = "define Count(n) = if n > 0 then tau@n.Count(n-1) else nil\ndefine P = Count(4)";
    let m = parse("c.etccs", src).expect("parses");
    let names: Vec<&str> = m.agents.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["P", "Count(4)", "Count(3)", "Count(2)", "Count(1)", "Count(0)"]
    );
    assert_eq!(times(&run(src, "P")), ["10"]);
    // Recursion through a parameterised agent: a cyclic loop is non-termination.
    let a = run("define L(i) = tau@1.L(1 - i)\nanalyse L(0)", "L(0)");
    assert_eq!(a.outcome.label(), "non-terminating");
    // `analyse` with arguments names the instance.
    let m = parse("a.etccs", "agent A(x) = tau@x.nil; analyse A(3/2)").expect("parses");
    assert_eq!(m.analyses, ["A(3/2)"]);
}

#[test]
fn families_sums_products_and_family_restriction() {
    // p senders on indexed channels, one receiver choosing among them.
    let src = "const p = 3;\n\
               agent S(i) = 'c[i]@i . nil;\n\
               agent R = sum i in 0..p-1 : c[i] . done[i] . nil;\n\
               agent Sys = (par i in 0..p-1 : S(i) | R) \\ {c[*], done[*]};";
    // Only c[0] meets R at time 0; the others are stuck.
    assert_eq!(times(&run(src, "Sys")), ["0"]);
    // `where` filters the range; two-dimensional families.
    let src = "const p = 3;\n\
               agent Sys = (par i in 0..p-1 : par j in 0..p-1 where i != j : 't[i][j]@(i+j) . nil\n\
                           | par i in 0..p-1 : par j in 0..p-1 where i != j : t[i][j] . nil) \\ {t[*][*]}";
    let a = run(src, "Sys");
    assert_eq!(times(&a), ["3"]);
    assert!(a.warnings.is_empty());
    // Partial wildcard: only t[0][*] restricted, so the others are visible.
    let src = "agent Sys = ('t[0][1] . nil | 't[1][0]@2 . nil | t[0][1]@1 . nil) \\ {t[0][*]}";
    let a = run(src, "Sys");
    assert_eq!(a.warnings.len(), 1, "{:?}", a.warnings);
    // Relabelling with families, and the thesis paren form with indices.
    let src = "agent P = (tau, 0).'o.nil; agent Sys = (P[o[2]/o] | (o[2], 5).nil) \\ {o[*]}";
    assert_eq!(times(&run(src, "Sys")), ["5"]);
    // Empty sum/par (after `where`) is nil.
    assert_eq!(
        times(&run(
            "agent P = tau@1.(sum i in 0..0 where i != 0 : a.nil)",
            "P"
        )),
        ["1"]
    );
}

#[test]
fn thesis_names_stay_usable() {
    // `sum`, `par`, `min`, `if`, `in` are only keywords in context.
    let a = run(
        "define P = (sum,2).nil | (par,1).nil + in@3.nil\nanalyse P",
        "P",
    );
    assert!(!a.pexec.is_empty());
    let a = run("define P = (if, 1).nil | min@1.nil", "P");
    assert_eq!(pexec(&a), [("1".to_string(), "1".to_string())]);
}

#[test]
fn const_overrides_retabulate_a_model() {
    let src = "const p = 2; agent Sys = par i in 1..p : tau@i.nil; analyse Sys";
    let mut out = Vec::new();
    for p in 2..=5i64 {
        let mut m = parse_with_consts("t.etccs", src, &[("p", Time::from_integer(p.into()))])
            .expect("parses");
        let a = analyse(&mut m, "Sys", &Options::default()).expect("runs");
        out.push(times(&a)[0].clone());
    }
    assert_eq!(out, ["2", "3", "4", "5"]);
    let e = parse_with_consts("t.etccs", src, &[("q", Time::from_integer(1.into()))]).unwrap_err();
    assert!(e.to_string().contains("no `const q`"), "{e}");
}

#[test]
fn symbolic_params_are_lowered_and_refused_by_the_concrete_analysis() {
    let src = "param t1, t2;\ndefine P = tau@t1.nil\ndefine Q = P | a@(2*t2 + 1).nil\nanalyse Q";
    let mut m = parse("p.etccs", src).expect("parses");
    let q = m.agent("Q").expect("defined");
    assert!(m.arena.mentions_symbolic(q));
    assert_eq!(m.arena.param_names(), ["t1", "t2"]);
    let e = analyse(&mut m, "Q", &Options::default()).unwrap_err();
    assert!(matches!(e, Error::Symbolic { .. }), "{e}");
    assert!(e.to_string().contains("t1, t2"), "{e}");
    // `--const` gives parameters values: then the concrete analysis runs.
    let two = Time::from_integer(2.into());
    let mut m =
        parse_with_consts("p.etccs", src, &[("t1", two.clone()), ("t2", two)]).expect("parses");
    let r = analyse(&mut m, "Q", &Options::default()).expect("concrete");
    assert_eq!(
        r.max.expect("terminates").time,
        Time::from_integer(5.into())
    );
    // Parameters cannot index, bound ranges, decide conditions or be agent arguments.
    let src = "param t1;\ndefine P = c[t1].nil\nanalyse P";
    let (msg, off, len) = syntax_span(src);
    assert_eq!(msg, PARAM_MESSAGE);
    assert_eq!(&src[off..off + len], "t1");
    // Time expressions must stay linear.
    let src = "param t1, t2;\ndefine P = tau@(t1*t2).nil\nanalyse P";
    let (msg, _, _) = syntax_span(src);
    assert!(msg.contains("not linear"), "{msg}");
}

#[test]
fn a_model_without_declarations_treats_unbound_times_as_parameters() {
    // The thesis's parametric tool took variable names as times directly.
    let mut m = parse(
        "p.etccs",
        "define P2 = (a,t1).nil + (a',t2).nil\nanalyse P2",
    )
    .expect("parses");
    assert_eq!(m.arena.param_names(), ["t1", "t2"]);
    let p = m.agent("P2").expect("defined");
    assert!(m.arena.mentions_symbolic(p));
    // With any declaration, an unbound name is an error again.
    let (msg, _, _) = syntax_span("const k = 1;\ndefine P = tau@x.nil");
    assert!(msg.contains("unbound name `x`"), "{msg}");
}

#[test]
fn spanned_errors_for_new_constructs() {
    let cases: &[(&str, &str, &str)] = &[
        ("define P = c[k].nil", "unbound name `k`", "k"),
        (
            "agent A(i) = nil; agent P = A(1, 2)",
            "takes 1 argument, given 2",
            "A(1, 2)",
        ),
        (
            "agent A(i, j) = nil; agent P = A",
            "takes 2 arguments, given 0",
            "A",
        ),
        (
            "agent P = sum i in 3..1 : a.nil",
            "empty index range 3..1",
            "sum i in 3..1",
        ),
        (
            "agent P = par i in 0..1/2 : a.nil",
            "a range bound must be an integer",
            "1/2",
        ),
        (
            "const h = 1/2; agent P = c[h].nil",
            "a channel index must be an integer",
            "h",
        ),
        ("agent P = tau@(1-2).nil", "negative time -1", "1-2"),
        ("agent P = tau@(1/(2-2)).nil", "division by zero", "1/(2-2)"),
        ("agent P = c[*].nil", "expected", "*"),
        ("const p = 1; const p = 2;", "`p` is declared twice", "p"),
        ("agent P(i, i) = nil", "declared twice", "P"),
    ];
    for (src, want, at) in cases {
        let (msg, off, len) = syntax_span(src);
        assert!(msg.contains(want), "{src}: {msg}");
        assert_eq!(&src[off..off + len], *at, "{src}: {msg}");
    }
    assert!(err("agent P = Q(1)").contains("undefined agent `Q`"));
    assert!(err("agent P = if 1 < 2 then a.nil").contains("expected `else`"));
    assert!(err("agent A(i) = A(i); analyse A(1)").contains("unguarded recursion"));
}

#[test]
fn expansion_limit() {
    let src = "agent P = par i in 0..2000000 : a.nil";
    let (msg, _, _) = syntax_span(src);
    assert!(msg.contains(&MAX_EXPANSIONS.to_string()), "{msg}");
    // Unbounded instantiation hits the limit instead of running forever.
    let (msg, _, _) = syntax_span("agent A(i) = tau@1.A(i+1); analyse A(0)");
    assert!(msg.contains("expansion limit"), "{msg}");
}

#[test]
fn bad_and_truncated_extended_input_never_panics() {
    let src = std::fs::read_to_string(format!(
        "{}/../../examples/etccs/scatter_gather.etccs",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example");
    let mut cut = 0;
    while cut < src.len() {
        if src.is_char_boundary(cut) {
            let _ = parse("t.etccs", &src[..cut]);
        }
        cut += 97;
    }
    for s in [
        "agent A(",
        "const p = ;",
        "sum i in",
        "agent P = sum i in 0.. : a.nil",
        "agent P = c[1",
        "agent P = \\{c[*]}",
        "param ;",
        "agent P = a@(1.nil",
        "agent P = if then",
        "agent P = min(",
        "agent P = tau@max().nil",
    ] {
        let _ = parse("t.etccs", s);
    }
}
