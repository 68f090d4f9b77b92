//! One test per class of front-end error: the kind, where it points (line and column) and
//! that the hint says something specific.

use pamela::{ErrorKind, ModelError};

fn fail(text: &str) -> Box<ModelError> {
    match pamela::parse("t.pam", text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e,
    }
}

/// Asserts kind, 1-based line/column, and that the help contains each of `help`.
#[track_caller]
fn expect(text: &str, kind: ErrorKind, at: (usize, usize), help: &[&str]) -> Box<ModelError> {
    let e = fail(text);
    assert_eq!(e.kind, kind, "{e:?}");
    assert_eq!(e.line_col(), Some(at), "{e:?}");
    assert!(!e.label().is_empty(), "{e:?}");
    let h = e.help.clone().unwrap_or_else(|| panic!("no help: {e:?}"));
    for want in help {
        assert!(h.contains(want), "help {h:?} lacks {want:?}");
    }
    // Renders with miette without panicking and names the file.
    let mut out = String::new();
    miette::NarratableReportHandler::new()
        .render_report(&mut out, e.as_ref())
        .unwrap();
    assert!(out.contains("t.pam"), "{out}");
    assert!(out.contains(e.label()), "{out}");
    e
}

const PRE: &str = "param N: int >= 1;\nparam tau_s >= 0;\nresource s;\nresource cpu[4];\n";

// ----- syntax --------------------------------------------------------------------------

#[test]
fn unexpected_token_says_what_was_expected() {
    let e = expect(
        &format!("{PRE}main = use(s tau_s);"),
        ErrorKind::Syntax,
        (5, 14),
        &["use(s, tau_s)"],
    );
    assert!(e.message.contains("expected `,`"), "{}", e.message);
    assert!(e.message.contains("`tau_s`"), "{}", e.message);
}

#[test]
fn missing_semicolon_points_after_the_definition() {
    let e = expect(
        &format!("{PRE}main = use(s, 1)\nprocess b = skip;"),
        ErrorKind::Syntax,
        (5, 17),
        &["`;`"],
    );
    assert!(e.message.contains("expected `;`"), "{}", e.message);
}

#[test]
fn unterminated_comment() {
    let e = expect(
        &format!("{PRE}main = skip; /* never\nclosed"),
        ErrorKind::Syntax,
        (5, 14),
        &["*/"],
    );
    assert!(e.message.contains("unterminated"));
}

#[test]
fn bad_number() {
    let e = expect(
        &format!("{PRE}main = delay(181us);"),
        ErrorKind::Syntax,
        (5, 14),
        &["181e-6"],
    );
    assert!(e.message.contains("bad number `181us`"), "{}", e.message);
    expect(
        &format!("{PRE}main = delay(1e);"),
        ErrorKind::Syntax,
        (5, 14),
        &["exponent"],
    );
    expect(
        &format!("{PRE}main = delay(1e99999);"),
        ErrorKind::Syntax,
        (5, 14),
        &["exponent"],
    );
}

#[test]
fn half_open_range_suggests_inclusive() {
    let e = expect(
        &format!("{PRE}main = seq i in 1..N use(s, 1);"),
        ErrorKind::Syntax,
        (5, 18),
        &["1..=", "both ends"],
    );
    assert!(e.message.contains("`..=`"));
}

#[test]
fn paper_loop_form_suggests_the_modern_one() {
    let e = expect(
        &format!("{PRE}main = par (i = 1, N - 1) use(s, 1);"),
        ErrorKind::Syntax,
        (5, 12),
        &["par i in 1..=N - 1"],
    );
    assert!(e.message.contains("paper"), "{}", e.message);
}

#[test]
fn reserved_words_cannot_be_names() {
    let e = expect("param seq;", ErrorKind::Syntax, (1, 7), &["seq_"]);
    assert!(e.message.contains("reserved"));
    expect(
        "main = par in in 1..=2 skip;",
        ErrorKind::Syntax,
        (1, 12),
        &["another name"],
    );
}

#[test]
fn unexpected_characters_get_specific_hints() {
    expect("param τ;", ErrorKind::Syntax, (1, 7), &["tau"]);
    expect("main = delay(⌈2⌉);", ErrorKind::Syntax, (1, 14), &["ceil"]);
    expect("main = skip | skip;", ErrorKind::Syntax, (1, 13), &["||"]);
}

#[test]
fn conditions_and_numbers_are_not_interchangeable() {
    expect(
        &format!("{PRE}main = if N use(s, 1);"),
        ErrorKind::Syntax,
        (5, 11),
        &["x != 0", "prob"],
    );
    expect(
        &format!("{PRE}main = delay(N > 1);"),
        ErrorKind::Syntax,
        (5, 14),
        &["if"],
    );
    expect(
        &format!("{PRE}main = if N = 1 skip;"),
        ErrorKind::Syntax,
        (5, 13),
        &["=="],
    );
    expect(
        &format!("{PRE}main = if N > 1 || N < 0 skip;"),
        ErrorKind::Syntax,
        (5, 17),
        &["or"],
    );
}

// ----- names ---------------------------------------------------------------------------

#[test]
fn undefined_name_suggests_a_close_one() {
    let e = expect(
        &format!("{PRE}main = use(s, tau_z);"),
        ErrorKind::UndefinedName,
        (5, 15),
        &["did you mean `tau_s`?"],
    );
    assert_eq!(e.message, "undefined name `tau_z`");
    // Far from everything: no suggestion, but how to declare it.
    let e = expect(
        &format!("{PRE}main = use(s, zzzzzz);"),
        ErrorKind::UndefinedName,
        (5, 15),
        &["param zzzzzz;"],
    );
    assert!(!e.help.unwrap().contains("did you mean"));
}

#[test]
fn undefined_process_and_resource() {
    expect(
        &format!("{PRE}process mult = use(s, 1);\nmain = mul;"),
        ErrorKind::UndefinedName,
        (6, 8),
        &["did you mean `mult`?"],
    );
    expect(
        &format!("{PRE}main = use(ss, 1);"),
        ErrorKind::UndefinedName,
        (5, 12),
        &["did you mean `s`?"],
    );
    // The paper's subscript notation for families.
    expect(
        &format!("{PRE}process f(p) = use(cpu_p, 1);\nmain = f(0);"),
        ErrorKind::UndefinedName,
        (5, 20),
        &["cpu[p]"],
    );
    // A data-dependent condition from the paper.
    expect(
        &format!("{PRE}main = seq i in 1..=N if nz(i) use(s, 1);"),
        ErrorKind::UndefinedName,
        (5, 26),
        &["prob(p)"],
    );
    // Wrong kind of name.
    expect(
        &format!("{PRE}main = s;"),
        ErrorKind::UndefinedName,
        (5, 8),
        &["use(s, t)"],
    );
    expect(
        &format!("{PRE}main = delay(s);"),
        ErrorKind::UndefinedName,
        (5, 14),
        &["use(s, t)"],
    );
}

#[test]
fn duplicate_declarations() {
    let e = expect(
        &format!("{PRE}process s = skip;\nmain = skip;"),
        ErrorKind::DuplicateName,
        (5, 9),
        &["already a resource (line 3)"],
    );
    assert!(e.message.contains("`s`"));
    expect(
        "param N;\nparam N;\nmain = skip;",
        ErrorKind::DuplicateName,
        (2, 7),
        &["already a parameter"],
    );
}

#[test]
fn loop_variables_and_arguments_may_not_shadow() {
    let e = expect(
        &format!("{PRE}main = par N in 1..=4 use(s, 1);"),
        ErrorKind::DuplicateName,
        (5, 12),
        &["rename the loop variable", "`n2`"],
    );
    assert!(e.message.contains("shadows a parameter"), "{}", e.message);
    expect(
        &format!("{PRE}main = seq i in 1..=N\n  par i in 1..=N use(s, 1);"),
        ErrorKind::DuplicateName,
        (6, 7),
        &["rename the loop variable", "`i2`"],
    );
    expect(
        &format!("{PRE}process f(p) = seq p in 1..=2 skip;\nmain = f(1);"),
        ErrorKind::DuplicateName,
        (5, 20),
        &["rename"],
    );
    expect(
        &format!("{PRE}process f(N) = skip;\nmain = f(1);"),
        ErrorKind::DuplicateName,
        (5, 11),
        &["rename the process argument"],
    );
    expect(
        &format!("{PRE}process f(a, a) = skip;\nmain = f(1, 2);"),
        ErrorKind::DuplicateName,
        (5, 14),
        &["rename"],
    );
}

// ----- arity ---------------------------------------------------------------------------

#[test]
fn process_call_with_wrong_argument_count() {
    let e = expect(
        &format!("{PRE}process move(a, b, l) = skip;\nmain = move(0, 1);"),
        ErrorKind::Arity,
        (6, 8),
        &["move(a, b, l)", "line 5"],
    );
    assert_eq!(e.message, "`move` takes 3 arguments but 2 were given");
}

#[test]
fn family_without_index_and_plain_with_index() {
    let e = expect(
        &format!("{PRE}main = use(cpu, 1);"),
        ErrorKind::Arity,
        (5, 12),
        &["cpu[i]"],
    );
    assert!(e.message.contains("family"));
    expect(
        &format!("{PRE}main = use(s[0], 1);"),
        ErrorKind::Arity,
        (5, 14),
        &["resource s[n]"],
    );
}

#[test]
fn builtin_function_arity() {
    expect(
        &format!("{PRE}main = delay(gcd(N));"),
        ErrorKind::Arity,
        (5, 14),
        &["gcd(a, b)"],
    );
}

// ----- recursion -----------------------------------------------------------------------

#[test]
fn recursive_processes_name_the_cycle() {
    let e = expect(
        "main = a;\nprocess a = b;\nprocess b = use(s, 1); a;\nresource s;",
        ErrorKind::Recursion,
        (3, 24),
        &["seq", "par"],
    );
    assert_eq!(e.message, "process `a` is recursive: main -> a -> b -> a");
    let e = expect(
        "main = main;",
        ErrorKind::Recursion,
        (1, 8),
        &["substitution"],
    );
    assert_eq!(e.message, "process `main` is recursive: main -> main");
}

#[test]
fn cyclic_derived_parameters() {
    let e = expect(
        "param A = B + 1;\nparam B = 2 * A;\nmain = skip;",
        ErrorKind::Recursion,
        (1, 11),
        &["without `= …`"],
    );
    assert!(e.message.contains("A -> B -> A"), "{}", e.message);
}

// ----- constants -----------------------------------------------------------------------

#[test]
fn constant_index_out_of_range() {
    let e = expect(
        &format!("{PRE}main = use(cpu[4], 1);"),
        ErrorKind::IndexOutOfRange,
        (5, 16),
        &["4 members", "0 .. 3"],
    );
    assert!(e.message.contains("index 4"), "{}", e.message);
    expect(
        &format!("{PRE}main = use(cpu[-1], 1);"),
        ErrorKind::IndexOutOfRange,
        (5, 16),
        &["0 .. 3"],
    );
    expect(
        &format!("{PRE}main = use(cpu[1/2], 1);"),
        ErrorKind::IndexOutOfRange,
        (5, 16),
        &["floor"],
    );
    // The family size comes from a constant derived parameter.
    expect(
        "param M = 2 * 4;\nresource m[M];\nmain = use(m[M], 1);",
        ErrorKind::IndexOutOfRange,
        (3, 14),
        &["m[M - 1]"],
    );
}

#[test]
fn loop_variable_index_out_of_range() {
    let e = expect(
        "resource cpu[4];\nmain = par p in 1..=4 use(cpu[p], 1);",
        ErrorKind::IndexOutOfRange,
        (2, 31),
        &["numbered from 0", "cpu[p - 1]"],
    );
    assert!(e.message.contains("1..=4"), "{}", e.message);
    expect(
        "resource cpu[4];\nmain = par p in 0..=3 use(cpu[p + 2], 1);",
        ErrorKind::IndexOutOfRange,
        (2, 31),
        &["numbered from 0"],
    );
    // In range, guarded by an `if`, or over an empty range: fine.
    for ok in [
        "resource cpu[4];\nmain = par p in 1..=4 use(cpu[p - 1], 1);",
        "resource cpu[4];\nmain = par p in 0..=4 if p < 4 use(cpu[p], 1);",
        "resource cpu[4];\nmain = par p in 5..=4 use(cpu[p], 1);",
        "resource cpu[4];\nmain = par p in 0..=9 use(cpu[p mod 4], 1);",
        "resource cpu[4];\nparam P; main = par p in 1..=P use(cpu[p], 1);",
    ] {
        pamela::parse("ok.pam", ok).unwrap_or_else(|e| panic!("{ok}: {e:?}"));
    }
}

#[test]
fn multiplicity_and_family_size_must_be_positive_integers() {
    let e = expect(
        "resource pool: 0;\nmain = skip;",
        ErrorKind::Multiplicity,
        (1, 16),
        &["positive integer", "inf"],
    );
    assert!(
        e.message.contains("multiplicity of `pool` is 0"),
        "{}",
        e.message
    );
    expect(
        "resource pool: 1.5;\nmain = skip;",
        ErrorKind::Multiplicity,
        (1, 16),
        &["positive integer"],
    );
    expect(
        "param P = 4 - 4;\nresource cpu[P];\nmain = skip;",
        ErrorKind::Multiplicity,
        (2, 14),
        &["r[0] .. r[n-1]"],
    );
}

#[test]
fn empty_parameter_range() {
    let e = expect(
        "param N: int >= 10 <= 1;\nmain = skip;",
        ErrorKind::Binding,
        (1, 1),
        &["swap"],
    );
    assert!(
        e.message.contains("lower bound 10 is above upper bound 1"),
        "{}",
        e.message
    );
}

// ----- limits --------------------------------------------------------------------------

#[test]
fn input_too_large() {
    let text = " ".repeat(pamela::syntax::MAX_INPUT_BYTES + 1);
    let e = fail(&text);
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("16 MiB"), "{}", e.message);
    assert!(e.help.is_some());
}

#[test]
fn nesting_too_deep() {
    let text = format!("main = delay({}1{});", "(".repeat(300), ")".repeat(300));
    let e = expect(&text, ErrorKind::Limit, (1, 269), &["flatten"]);
    assert!(e.message.contains("256"));
    let text = format!("main = {}skip{};", "{".repeat(300), "}".repeat(300));
    expect(&text, ErrorKind::Limit, (1, 264), &["flatten"]);
    // Just within the limit is fine.
    let text = format!("main = delay({}1{});", "(".repeat(250), ")".repeat(250));
    pamela::parse("ok.pam", &text).unwrap();
}

#[test]
fn too_many_tokens() {
    let text = format!("process a = skip;\nmain = {}a;", "a;".repeat(600_000));
    let e = fail(&text);
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("1000000 tokens"), "{}", e.message);
    assert_eq!(e.line_col().map(|(l, _)| l), Some(2));
    assert!(e.help.unwrap().contains("seq"));
}

#[test]
fn call_nesting_limit() {
    // A chain of processes each nesting a few levels: fine individually, too deep expanded.
    let mut text = String::from("main = p0;\n");
    for i in 0..400 {
        text.push_str(&format!(
            "process p{i} = {{ skip ; {{ skip || p{} }} }};\n",
            i + 1
        ));
    }
    text.push_str("process p400 = skip;\n");
    let e = fail(&text);
    assert_eq!(e.kind, ErrorKind::Limit, "{e:?}");
    assert!(e.message.contains("levels deep"), "{}", e.message);
}
