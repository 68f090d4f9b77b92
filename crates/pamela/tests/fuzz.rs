//! Robustness of the front end: no input makes it panic, hang or overflow the stack, and
//! every error it reports is located (a span inside the text, a label and a hint).
//!
//! Inputs: every truncation of every example, seeded random byte-level mutations of the
//! examples, random token soup, 10^5-deep nesting of each nesting construct, and a
//! 10^6-element sequence.

use std::path::PathBuf;

use pamela::{ErrorKind, Model, ModelError, TermKind};
use stats::rng::{seeded, RandExt as Rng, Rng as Generator};

fn examples() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/pamela");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pam"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    assert!(out.len() >= 16, "examples found: {}", out.len());
    out
}

/// Parses `text` and checks the invariants of the result.
fn parse(text: &str) -> Result<Model, Box<ModelError>> {
    let r = pamela::parse("f.pam", text);
    match &r {
        Ok(m) => {
            // Binding nothing validates nothing and never fails on a checked model.
            m.bind_partial(&[]).unwrap();
            assert_eq!(&*m.source.text, text);
        }
        Err(e) => assert_located(e, text),
    }
    r
}

#[track_caller]
fn assert_located(e: &ModelError, text: &str) {
    let span = e
        .span()
        .unwrap_or_else(|| panic!("error without a span: {e:?}"));
    assert!(span.offset() + span.len() <= text.len(), "{e:?}");
    assert!(text.is_char_boundary(span.offset()), "{e:?}");
    assert!(text.is_char_boundary(span.offset() + span.len()), "{e:?}");
    assert!(!e.message.is_empty() && !e.label().is_empty(), "{e:?}");
    assert!(
        e.help.as_ref().is_some_and(|h| !h.is_empty()),
        "no help: {e:?}"
    );
    let (line, col) = e.line_col().unwrap();
    assert!(line >= 1 && col >= 1);
    assert!(line <= text.lines().count().max(1) + 1, "{e:?}");
}

#[test]
fn every_truncation_of_every_example() {
    let mut ok = 0;
    let mut errs = 0;
    for (name, text) in examples() {
        assert!(parse(&text).is_ok(), "{name} itself parses");
        let cuts: Vec<usize> = (0..text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        for cut in cuts {
            match parse(&text[..cut]) {
                Ok(_) => ok += 1,
                Err(_) => errs += 1,
            }
        }
        // Without its final `;` the model is incomplete.
        let body = text.trim_end();
        let e = parse(&body[..body.len() - 1]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax, "{name}");
        assert!(e.message.contains("expected `;`"), "{name}: {}", e.message);
    }
    // Cuts inside the header comments leave valid (empty or partial) models, cuts inside
    // declarations do not.
    assert!(errs > 1000 && ok > 1000, "{errs} errors, {ok} models");
}

/// Tokens and fragments that stress the lexer and parser.
const FRAGMENTS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    ":",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "||",
    "&&",
    "!",
    "..",
    "..=",
    ".",
    "|",
    "param",
    "resource",
    "process",
    "int",
    "real",
    "in",
    "seq",
    "par",
    "use",
    "delay",
    "if",
    "else",
    "skip",
    "inf",
    "mod",
    "div",
    "and",
    "or",
    "not",
    "prob",
    "min",
    "max",
    "floor",
    "ceil",
    "gcd",
    "log",
    "main",
    "N",
    "P",
    "s",
    "cpu",
    "x",
    "i",
    "0",
    "1",
    "0.5",
    "1e-6",
    "1e999999",
    "1e",
    "181us",
    "/*",
    "*/",
    "//",
    "\n",
    " ",
    "τ",
    "∞",
    "\u{0}",
    "\"",
    "'",
    "#",
    "99999999999999999999999",
];

fn mutate(rng: &mut Generator, text: &str) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        let len = b.len().max(1);
        let at = rng.gen_range(0..len).min(b.len());
        match rng.gen_range(0..5) {
            0 if !b.is_empty() => {
                let at = at.min(b.len() - 1);
                b[at] = rng.gen();
            }
            1 => {
                let end = (at + rng.gen_range(1..32)).min(b.len());
                b.drain(at..end);
            }
            2 => {
                let end = (at + rng.gen_range(1..64)).min(b.len());
                let copy = b[at..end].to_vec();
                let to = rng.gen_range(0..=b.len());
                b.splice(to..to, copy);
            }
            _ => {
                let frag = FRAGMENTS[rng.gen_range(0..FRAGMENTS.len())].as_bytes();
                b.splice(at..at, frag.iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn random_mutations_of_examples() {
    let mut rng = seeded(0x9a3e1a);
    let examples = examples();
    let mut errs = 0;
    let cases = 256;
    for k in 0..cases {
        let (_, text) = &examples[k % examples.len()];
        let m = mutate(&mut rng, text);
        if parse(&m).is_err() {
            errs += 1;
        }
    }
    assert!(
        errs > cases / 4,
        "mutations mostly break a model: {errs}/{cases}"
    );
}

#[test]
fn random_token_soup() {
    let mut rng = seeded(7);
    for case in 0..256 {
        let n = rng.gen_range(0..200);
        let mut s = String::new();
        if case % 2 == 0 {
            s.push_str("param N; resource s; main = ");
        }
        for _ in 0..n {
            s.push_str(FRAGMENTS[rng.gen_range(0..FRAGMENTS.len())]);
            if rng.gen_bool(0.7) {
                s.push(' ');
            }
        }
        let _ = parse(&s);
    }
}

/// Random but well-formed models: they all parse, and what fails is only the checker.
#[test]
fn random_well_formed_terms() {
    fn term(rng: &mut Generator, depth: usize, vars: &mut Vec<String>) -> String {
        let pick = if depth > 6 {
            rng.gen_range(0..3)
        } else {
            rng.gen_range(0..8)
        };
        let idx = || "0".to_string();
        match pick {
            0 => "skip".into(),
            1 => format!("use(s, {})", vars.last().cloned().unwrap_or_else(idx)),
            2 => format!(
                "use(cpu[{}], 1)",
                vars.last().map_or_else(idx, |v| format!("{v} mod P"))
            ),
            3 => format!(
                "{{ {} ; {} }}",
                term(rng, depth + 1, vars),
                term(rng, depth + 1, vars)
            ),
            4 => format!(
                "{{ {} || {} }}",
                term(rng, depth + 1, vars),
                term(rng, depth + 1, vars)
            ),
            5 | 6 => {
                let v = format!("v{depth}");
                vars.push(v.clone());
                let body = term(rng, depth + 1, vars);
                vars.pop();
                let kw = if pick == 5 { "seq" } else { "par" };
                format!("{kw} {v} in 1..=N {body}")
            }
            _ => format!(
                "if prob(1/2) {} else {}",
                term(rng, depth + 1, vars),
                term(rng, depth + 1, vars)
            ),
        }
    }
    let mut rng = seeded(11);
    for _ in 0..128 {
        let body = term(&mut rng, 0, &mut Vec::new());
        let text = format!(
            "param N: int >= 1; param P: int >= 1; resource s; resource cpu[P];\nmain = {body};"
        );
        parse(&text).unwrap_or_else(|e| panic!("{text}\n{e:?}"));
    }
}

fn nested(d: usize) -> Vec<String> {
    vec![
        format!("main = delay({}1{});", "(".repeat(d), ")".repeat(d)),
        format!("main = delay({}", "(".repeat(d)),
        format!("main = {}skip{};", "{".repeat(d), "}".repeat(d)),
        format!("main = {}", "{".repeat(d)),
        format!("main = delay({}1);", "-".repeat(d)),
        format!("main = if {}1 < 2 skip;", "not ".repeat(d)),
        format!("main = delay({}1{});", "floor(".repeat(d), ")".repeat(d)),
        format!("main = delay(1{});", " mod 2".repeat(d)),
        format!("main = {}skip;", "seq i in 1..=2 ".repeat(d)),
        format!("main = {}skip;", "if 1 < 2 ".repeat(d)),
        format!("main = skip{};", " else if 1 < 2 skip".repeat(d)),
        format!(
            "resource r[2]; main = use(r[{}0{}], 1);",
            "(".repeat(d),
            ")".repeat(d)
        ),
    ]
}

#[test]
fn deep_nesting_is_a_limit_error_not_a_crash() {
    for text in &nested(100_000) {
        let e = parse(text).expect_err("too deep");
        assert!(
            matches!(e.kind, ErrorKind::Limit | ErrorKind::Syntax),
            "{:?}: {}",
            e.kind,
            &text[..40]
        );
        if !text.contains("else") {
            assert_eq!(e.kind, ErrorKind::Limit, "{}", &text[..40]);
            assert!(e.message.contains("256"), "{}", e.message);
        }
    }
}

/// Shallow models are parsed on the caller's thread: even a small stack suffices.
#[test]
fn moderate_nesting_needs_little_stack() {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            for d in (1..=80).step_by(3) {
                for text in nested(d) {
                    if let Err(e) = parse(&text) {
                        assert_ne!(e.kind, ErrorKind::Limit, "{text}");
                    }
                }
            }
            // Closed and well formed: these parse.
            let ok = format!("main = delay({}1{});", "(".repeat(80), ")".repeat(80));
            parse(&ok).unwrap();
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_million_element_sequence() {
    // 10^6 calls are 2*10^6 tokens: over the token limit, reported without a crash.
    let text = format!("process a = skip;\nmain = {}a;", "a;".repeat(1_000_000 - 1));
    let e = parse(&text).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    // Under the limit the sequence parses into one flat composition.
    let n = 200_000;
    let text = format!("process a = skip;\nmain = {}a;", "a;".repeat(n - 1));
    let m = parse(&text).unwrap();
    let TermKind::Compose(_, items) = &m.processes[1].body.kind else {
        panic!("a flat sequence")
    };
    assert_eq!(items.len(), n);
}

#[test]
fn hostile_literals_and_comments() {
    let long = "1".repeat(5_000);
    for text in [
        format!("main = delay({long});"),
        "main = delay(1e999999999);".to_string(),
        "main = delay(1e-999999999);".to_string(),
        format!("main = skip; /*{}", "x".repeat(1 << 20)),
        format!("main = skip; {}", "\u{fffd}".repeat(1000)),
    ] {
        let e = parse(&text).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax, "{}", e.message);
    }
    // A long line comment and many blank lines are fine.
    let text = format!(
        "// {}\n{}main = skip;",
        "x".repeat(1 << 20),
        "\n".repeat(100_000)
    );
    assert!(parse(&text).is_ok());
}

/// Wide models (many arguments, parameters, processes) are checked in linear time.
#[test]
fn wide_models_check_quickly() {
    let n = 10_000;
    let names: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
    // A process with n arguments, called once, using all of them.
    let text = format!(
        "process f({}) = delay({});\nmain = f({});",
        names.join(", "),
        names.join(" + "),
        vec!["1"; n].join(", ")
    );
    let m = parse(&text).unwrap();
    assert_eq!(m.processes[0].args.len(), n);
    // n parameters, a chain of n derived parameters, and a model using them.
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "param p{i} >= 0;\nparam d{i} = d{} + p{i};\n",
            i + 1
        ));
    }
    text.push_str(&format!("param d{n} = 0;\nmain = delay(d0);\n"));
    let m = parse(&text).unwrap();
    assert_eq!(m.params.len(), 2 * n + 1);
    let one = expr::Rational::from_integer(1.into());
    let given: Vec<_> = (0..n)
        .map(|i| (expr::Name::from(format!("p{i}").as_str()), one.clone()))
        .collect();
    let b = m.bind(&given).unwrap();
    assert_eq!(b.get("d0"), Some(&expr::Rational::from_integer(n.into())));
    // A long chain of process calls: no recursion, but too deep once expanded.
    let mut text = String::from("main = q0;\n");
    for i in 0..n {
        text.push_str(&format!("process q{i} = q{};\n", i + 1));
    }
    text.push_str(&format!("process q{n} = skip;\n"));
    let e = parse(&text).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    // The same chain closed into a cycle is named from main.
    let text = text.replace(
        &format!("process q{n} = skip;"),
        &format!("process q{n} = q0;"),
    );
    let e = parse(&text).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Recursion);
    assert!(e
        .message
        .starts_with("process `q0` is recursive: main -> q0 -> q1 -> "));
}
