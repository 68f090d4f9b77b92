//! Regression tests from spec §6.1–6.2 with exact expected values.

use etccs::{
    analyse, json, parse, readable_text, state_space, thesis_text, Analysis, Error, Options,
    Outcome, StateSpace, Stopped,
};
use sweep::{Limit, Reached};

fn run(src: &str, name: &str) -> Analysis {
    let mut m = parse("test.etccs", src).unwrap_or_else(|e| panic!("{e}"));
    analyse(&mut m, name, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// EXEC as (time, multiplicity) strings.
fn exec(a: &Analysis) -> Vec<(String, String)> {
    a.exec
        .iter()
        .map(|(t, n)| (t.to_string(), n.to_string()))
        .collect()
}

fn ex(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn pexec(a: &Analysis) -> Vec<(String, String)> {
    a.pexec
        .iter()
        .map(|(t, p)| (t.to_string(), p.to_string()))
        .collect()
}

/// Thesis-syntax models of T5-1…T5-7 with (EXEC, PEXEC, state count).
/// The state counts equal the spec's (2, 2, 2, 3, 4, 2, 4): our normal form
/// (flattened `|`/`+`, `nil` dropped) identifies the same states.
/// (source, EXEC, PEXEC, states).
type Case = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static [(&'static str, &'static str)],
    usize,
);

const T5: &[Case] = &[
    (
        "define P1 = (a,3).nil\nanalyse P1",
        &[("3", "1")],
        &[("3", "1")],
        2,
    ),
    (
        "define P2 = (a,3).nil + (a',4).nil\nanalyse P2",
        &[("3", "1")],
        &[("3", "1")],
        2,
    ),
    (
        "define P3 = (a,4).nil + (a',4).nil\nanalyse P3",
        &[("4", "2")],
        &[("4", "1")],
        2,
    ),
    (
        "define P4 = (a,3).nil | (a',4).nil\nanalyse P4",
        &[("4", "1")],
        &[("4", "1")],
        3,
    ),
    (
        "define P5 = (a,4).nil | (a',4).nil\nanalyse P5",
        &[("4", "3")],
        &[("4", "1")],
        4,
    ),
    (
        "define P6 = ((a,3).nil | (a',4).nil)\\{a}\nanalyse P6",
        &[("4", "1")],
        &[("4", "1")],
        2,
    ),
    (
        "define P7 = ((a,3).nil | (a,3).(b,4).nil | (a',4).nil)\\{a}\nanalyse P7",
        &[("4", "1"), ("8", "1")],
        &[("4", "1/2"), ("8", "1/2")],
        4,
    ),
];

#[test]
fn t5_1_to_t5_7_thesis_examples() {
    for (i, (src, e, p, states)) in T5.iter().enumerate() {
        let name = format!("P{}", i + 1);
        let a = run(src, &name);
        assert_eq!(exec(&a), ex(e), "EXEC of {name}");
        assert_eq!(pexec(&a), ex(p), "PEXEC of {name}");
        assert_eq!(a.states, *states, "states of {name}");
        assert_eq!(a.outcome, Outcome::Terminated);
    }
}

#[test]
fn t5_7_thesis_output_and_witnesses() {
    let a = run(T5[6].0, "P7");
    assert_eq!(
        thesis_text(&a),
        "Execution times are:\n4\n8\nSummary:\n4 (50.0%)\n8 (50.0%)"
    );
    let min = a.min.as_ref().expect("min");
    let max = a.max.as_ref().expect("max");
    assert_eq!(min.time.to_string(), "4");
    assert_eq!(max.time.to_string(), "8");
    let acts: Vec<(&str, String)> = max
        .steps
        .iter()
        .map(|s| (s.action.as_str(), s.delay.to_string()))
        .collect();
    assert_eq!(acts, vec![("tau", "4".to_string()), ("b", "4".to_string())]);
    let j = json(std::slice::from_ref(&a));
    assert_eq!(j["agents"][0]["name"], "P7");
    assert_eq!(j["agents"][0]["states"], 4);
    assert_eq!(j["agents"][0]["exec"], serde_json::json!(["4", "8"]));
    assert_eq!(
        j["agents"][0]["pexec"],
        serde_json::json!([{"time": "4", "prob": "1/2"}, {"time": "8", "prob": "1/2"}])
    );
    assert_eq!(j["agents"][0]["min"], "4");
    assert_eq!(j["agents"][0]["max"], "8");
    assert_eq!(j["agents"][0]["outcome"], "terminated");
    assert!(readable_text(&a).contains("EXEC  {| 4, 8 |}"));
}

/// T5-7's witnesses say who acted: the slowest run synchronises the
/// second component's `a` (ready at 3) with `a'` (ready at 4), then the
/// second component's `b`, ready 4 after its `a`.
#[test]
fn parts_of_a_component_split_by_a_delay_count_from_the_split() {
    // The agent `P` is one component until the first delay splits it into `'a@1.nil` and
    // `'a@0.nil` at time 1. Neither part waits: each is ready when it acts (at 1 and 2),
    // counted from the split, not from P's start with P's least bound (which would make
    // the part acting at 2 "ready" at 1).
    let a = run("define P = ('a@2.nil | 'a@1.nil)", "P");
    let max = a.max.as_ref().expect("max");
    assert_eq!(max.lanes, ["P", "P.1"]);
    let parties: Vec<(usize, String, String)> = max
        .steps
        .iter()
        .flat_map(|s| &s.parties)
        .map(|p| (p.lane, p.since.to_string(), p.ready.to_string()))
        .collect();
    assert_eq!(
        parties,
        [
            (1, "1".to_string(), "1".to_string()),
            (0, "1".to_string(), "2".to_string())
        ]
    );
}

#[test]
fn t5_7_witness_parties() {
    let a = run(T5[6].0, "P7");
    let max = a.max.as_ref().expect("max");
    assert_eq!(max.lanes, ["a@3.nil", "a@3.b@4.nil", "'a@4.nil"]);
    let parties: Vec<Vec<(usize, &str, String)>> = max
        .steps
        .iter()
        .map(|s| {
            s.parties
                .iter()
                .map(|p| (p.lane, p.action.as_str(), p.ready.to_string()))
                .collect()
        })
        .collect();
    assert_eq!(
        parties,
        vec![
            vec![(1, "a", "3".to_string()), (2, "a'", "4".to_string())],
            vec![(1, "b", "8".to_string())],
        ]
    );
    // The fastest run synchronises the first component instead.
    let min = a.min.as_ref().expect("min");
    assert_eq!(min.steps[0].parties[0].lane, 0);
    let j = json(std::slice::from_ref(&a));
    assert_eq!(
        j["agents"][0]["max_run"]["steps"][1]["parties"],
        serde_json::json!([{"lane": 1, "action": "b", "since": "4", "ready": "8"}])
    );
    assert_eq!(j["agents"][0]["max_run"]["lanes"][2], "'a@4.nil");
}

#[test]
fn t5_3_thesis_output_repeats_paths() {
    let a = run(T5[2].0, "P3");
    assert_eq!(
        thesis_text(&a),
        "Execution times are:\n4\n4\nSummary:\n4 (100.0%)"
    );
}

#[test]
fn t5_8_probability_per_transition() {
    let a = run("define P = a@2.nil + b@2.(c@3.nil + d@3.e@4.nil)", "P");
    assert_eq!(exec(&a), ex(&[("2", "1"), ("5", "1"), ("9", "1")]));
    assert_eq!(pexec(&a), ex(&[("2", "1/2"), ("5", "1/4"), ("9", "1/4")]));
    assert_eq!(
        thesis_text(&a),
        "Execution times are:\n2\n5\n9\nSummary:\n2 (50.0%)\n5 (25.0%)\n9 (25.0%)"
    );
}

#[test]
fn t5_9_eagerness_forces_choice() {
    let a = run("define P = (a@3.nil | a@5.b@4.nil | 'a@4.nil)\\{a}", "P");
    assert_eq!(exec(&a), ex(&[("4", "1")]));
    assert_eq!(a.states, 2);
}

#[test]
fn t5_10_deadlock_vs_termination() {
    let good = run("define D = (a@3.b@4.nil | 'a@5.'b@6.nil)\\{a,b}", "D");
    assert_eq!(exec(&good), ex(&[("11", "1")]));
    let bad = run("define D = (a@3.b@4.nil | 'a@5.b@6.nil)\\{a,b}", "D");
    assert_eq!(exec(&bad), ex(&[("5", "1")]));
    // Without Terminated the deadlock is indistinguishable from termination.
    assert_eq!(bad.outcome, Outcome::Terminated);

    // With the Terminated placeholder the bug is flagged, timings unchanged.
    let good = run(
        "define D = (a@3.b@4.Terminated | 'a@5.'b@6.Terminated)\\{a,b}",
        "D",
    );
    assert_eq!(exec(&good), ex(&[("11", "1")]));
    assert_eq!(good.outcome, Outcome::Terminated);
    let bad = run(
        "define D = (a@3.b@4.Terminated | 'a@5.b@6.Terminated)\\{a,b}",
        "D",
    );
    assert_eq!(exec(&bad), ex(&[("5", "1")]));
    match &bad.outcome {
        Outcome::Deadlock { run, state } => {
            assert_eq!(run.time.to_string(), "5");
            assert!(state.contains("Terminated"), "{state}");
            // The run into the deadlock says who met: `a` ready at 3 waits for `a'` at 5.
            assert_eq!(run.lanes, ["a@3.b@4.Terminated", "'a@5.b@6.Terminated"]);
            let who: Vec<(usize, &str, String)> = run.steps[0]
                .parties
                .iter()
                .map(|p| (p.lane, p.action.as_str(), p.ready.to_string()))
                .collect();
            assert_eq!(who, [(0, "a", "3".into()), (1, "a'", "5".into())]);
        }
        o => panic!("expected deadlock, got {o:?}"),
    }
    assert_eq!(json(&[bad])["agents"][0]["outcome"], "deadlock");
}

#[test]
fn t5_11_exec_not_preserved_by_bisimulation() {
    let p = run("define P = a@0.tau@2.nil + b@0.tau@4.nil", "P");
    assert_eq!(exec(&p), ex(&[("2", "1"), ("4", "1")]));
    let q = run(
        "define Q = a@0.tau@2.nil + a@0.tau@2.nil + a@0.tau@2.nil + b@0.tau@4.nil",
        "Q",
    );
    assert_eq!(exec(&q), ex(&[("2", "3"), ("4", "1")]));
    assert_eq!(pexec(&q), ex(&[("2", "3/4"), ("4", "1/4")]));
}

#[test]
fn t5_12_restriction_not_a_congruence() {
    let p = run("define P = a@2.nil + b@3.nil", "P");
    let q = run("define Q = a@2.nil", "Q");
    assert_eq!(exec(&p), ex(&[("2", "1")]));
    assert_eq!(exec(&q), ex(&[("2", "1")]));
    let pr = run("define P = (a@2.nil + b@3.nil)\\{a}", "P");
    assert_eq!(exec(&pr), ex(&[("3", "1")]));
    assert_eq!(pr.max.as_ref().unwrap().steps[0].action, "b");
    let qr = run("define Q = (a@2.nil)\\{a}", "Q");
    assert_eq!(exec(&qr), ex(&[("0", "1")]));
    assert_eq!(qr.states, 1);
}

#[test]
fn cycle_is_non_termination() {
    let src = "define Cpu = (op,0).(tau,3).Cpu\n\
               define User = (op',0).User\n\
               define Sys = (Cpu | User)\\{op}\n\
               analyse Sys";
    let a = run(src, "Sys");
    match &a.outcome {
        Outcome::NonTerminating { cycle, .. } => {
            assert_eq!(cycle.time.to_string(), "3");
            assert_eq!(cycle.steps.len(), 2);
            // The cycle's own lanes start at its first state: the CPU computes for 3, then
            // takes the next `op` from the user, who has been ready since the cycle began.
            assert_eq!(cycle.lanes, ["tau@3.Cpu", "User"]);
            let who: Vec<Vec<(usize, &str, String)>> = cycle
                .steps
                .iter()
                .map(|st| {
                    st.parties
                        .iter()
                        .map(|p| (p.lane, p.action.as_str(), p.ready.to_string()))
                        .collect()
                })
                .collect();
            assert_eq!(
                who,
                [
                    vec![(0, "tau", "3".into())],
                    vec![(0, "op", "3".into()), (1, "op'", "0".into())]
                ]
            );
        }
        o => panic!("expected non-termination, got {o:?}"),
    }
    assert!(a.exec.is_empty() && a.min.is_none());
    assert_eq!(json(&[a])["agents"][0]["outcome"], "non-terminating");
}

#[test]
fn zero_time_tau_loop_is_non_termination() {
    let a = run("define Z = tau.Z", "Z");
    assert!(matches!(a.outcome, Outcome::NonTerminating { .. }));
    assert_eq!(a.states, 1);
}

#[test]
fn unguarded_recursion_rejected() {
    for src in [
        "define X = X + a.nil",
        "define X = Y\\{a}\ndefine Y = a.nil | X",
        "define X = (X)[b/a]",
    ] {
        match parse("u.etccs", src) {
            Err(Error::UnguardedRecursion(_)) => {}
            r => panic!("{src}: expected unguarded recursion error, got {r:?}"),
        }
    }
    // Guarded recursion is fine.
    assert!(parse("g.etccs", "define X = a.X + b@2.nil").is_ok());
}

#[test]
fn eagerness_warning_for_visible_actions() {
    let a = run(T5[0].0, "P1");
    assert_eq!(a.warnings.len(), 1);
    assert!(a.warnings[0].contains("`a`"), "{}", a.warnings[0]);
    let b = run(T5[5].0, "P6");
    assert!(b.warnings.is_empty());
}

#[test]
fn errors_are_spanned() {
    let e = parse("bad.etccs", "define P = (a,3).nil +\n  )").unwrap_err();
    assert!(
        e.to_string().starts_with("bad.etccs:2:3: syntax error"),
        "{e}"
    );
    let e = parse("u.etccs", "define P = a.Q").unwrap_err();
    assert!(matches!(e, Error::UndefinedAgent(_)), "{e}");
    assert!(e.to_string().starts_with("u.etccs:1:14"), "{e}");
    let e = parse("u.etccs", "define P = nil\nanalyse Q").unwrap_err();
    assert!(matches!(e, Error::UndefinedAgent(_)));
    let deep = format!("define P = {}nil{}", "(".repeat(5000), ")".repeat(5000));
    assert!(matches!(parse("d.etccs", &deep), Err(Error::Syntax(_))));
    let post = format!("define P = nil{}", "\\{a}[b/a]".repeat(50_000));
    assert!(matches!(parse("d.etccs", &post), Err(Error::Syntax(_))));
    let long = format!("define P = {}nil", "a.".repeat(5000));
    assert!(matches!(parse("d.etccs", &long), Err(Error::Syntax(_))));
}

/// The transitions of the graph reachable from `name`, counted through
/// `Arena::transitions` (independently of the explorer), and its states.
fn graph_size(src: &str, name: &str) -> StateSpace {
    let mut m = parse("g.etccs", src).unwrap();
    let start = m.agent(name).unwrap();
    let arena = &mut m.arena;
    let mut seen = std::collections::HashSet::from([start]);
    let (mut todo, mut transitions) = (vec![start], 0);
    while let Some(t) = todo.pop() {
        for tr in arena.transitions(t) {
            transitions += 1;
            if seen.insert(tr.target) {
                todo.push(tr.target);
            }
        }
    }
    StateSpace {
        states: seen.len(),
        transitions,
    }
}

#[test]
fn state_space_sizes_t5_1_to_t5_7_without_analysing() {
    for (i, (src, _, _, states)) in T5.iter().enumerate() {
        let name = format!("P{}", i + 1);
        let mut m = parse("t5.etccs", src).unwrap();
        let size = state_space(&mut m, &name, &Options::default()).unwrap();
        assert_eq!(size.states, *states, "states of {name}");
        assert_eq!(size, graph_size(src, &name), "graph of {name}");
    }
    // P7: two synchronisations of `a` from the start, then one step each.
    let mut m = parse("t5.etccs", T5[6].0).unwrap();
    let size = state_space(&mut m, "P7", &Options::default()).unwrap();
    assert_eq!(size.transitions, 3);
    let e = state_space(&mut m, "Nope", &Options::default()).unwrap_err();
    assert!(matches!(e, Error::UnknownAgent(_)), "{e}");
    let small = Options {
        max_states: 2,
        ..Options::default()
    };
    let e = state_space(&mut m, "P7", &small).unwrap_err();
    assert!(matches!(e, Error::Limit { .. }), "{e}");
    assert_eq!(e.reached(), Some(Reached::new(Limit::States, 2)));
    // Free time variables are the parametric analysis's job.
    let mut m = parse("p.etccs", "param t;\ndefine P = tau@t.nil\nanalyse P").unwrap();
    let e = state_space(&mut m, "P", &Options::default()).unwrap_err();
    assert!(matches!(e, Error::Symbolic { .. }), "{e}");
}

#[test]
fn state_limit() {
    let mut m = parse("p7.etccs", T5[6].0).unwrap();
    let e = analyse(
        &mut m,
        "P7",
        &Options {
            max_states: 2,
            ..Options::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::Limit {
                reached: Reached {
                    limit: Limit::States,
                    value: 2
                },
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.stopped(), Some(Stopped::States(2)));
    assert_eq!(
        e.to_string(),
        "state limit reached: exploring `P7` produced more than 2 states"
    );
}

#[test]
fn growing_states_hit_the_depth_limit() {
    let src = "define Cpu = (op,0).(tau,3).Cpu define S = (Cpu | op'.S)\\{op}";
    let mut m = parse("g.etccs", src).unwrap();
    let opts = Options {
        max_depth: 50,
        ..Options::default()
    };
    let e = analyse(&mut m, "S", &opts).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TooDeep {
                reached: Reached {
                    limit: Limit::Depth,
                    value: 50
                },
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.reached(), Some(Reached::new(Limit::Depth, 50)));
    // A table row still says it stopped at the depth limit.
    let stopped = e.stopped().unwrap();
    assert_eq!((stopped, stopped.kind()), (Stopped::Depth(50), "depth"));
    assert_eq!(stopped.reached(), e.reached());
    assert_eq!(
        e.to_string(),
        "state nesting limit reached: exploring `S` produced a state nested deeper than 50 levels"
    );
}

#[test]
fn syntax_variants_agree() {
    let a = run("define P = ((a,3).nil | (a',4).nil)\\{a}", "P");
    let b = run("define P = (a@3.nil | 'a@4.nil)\\{a}", "P");
    let c = run("define P = (a@3.nil | a'@4.nil)\\{a} // comment", "P");
    let d = run(
        "define Q = (b@3.nil | 'b@4.nil)\ndefine P = Q[a/b]\\{a}",
        "P",
    );
    for x in [&b, &c, &d] {
        assert_eq!(exec(&a), exec(x));
    }
    let r = run("define P = (a,1.5).(tau,2).nil", "P");
    assert_eq!(exec(&r), ex(&[("7/2", "1")]));
    assert_eq!(
        thesis_text(&r),
        "Execution times are:\n3.5\nSummary:\n3.5 (100.0%)"
    );
}

const PROCESSORS: &str = "
define Processor = add@0.tau@3.Processor + mult@0.tau@4.Processor
define Process0 = 'add.'add.'mult.'mult.nil
define Process1 = 'add.'mult.'add.'mult.nil
define Controller = add@0.'adder@0.tau@1.Controller + mult@0.'multiplier@0.tau@1.Controller
define Adder = adder@0.tau@3.Adder
define Multiplier = multiplier@0.tau@4.Multiplier
define SSProcessor = (Controller | Adder | Multiplier)\\{adder,multiplier}
define Sys0 = (Process0 | Processor)\\{add,mult}
define Sys1 = (Process1 | Processor)\\{add,mult}
define SS0 = (Process0 | SSProcessor)\\{add,mult}
define SS1 = (Process1 | SSProcessor)\\{add,mult}
define Multi = (Process0 | Process1 | Processor)\\{add,mult}
analyse Sys0
analyse Sys1
";

#[test]
fn t6_1_processes_and_processor() {
    for name in ["Sys0", "Sys1"] {
        let a = run(PROCESSORS, name);
        assert_eq!(exec(&a), ex(&[("14", "1")]), "{name}");
    }
}

#[test]
fn t6_2_superscalar() {
    assert_eq!(exec(&run(PROCESSORS, "SS0")), ex(&[("12", "1")]));
    // The spec lists the set {9}. As a multiset EXEC has two paths of time 9:
    // at time 6 the controller's tau@1 and the adder's tau@3 are both
    // earliest, so Def 5.2.7 interleaves them (two transitions, same state).
    let ss1 = run(PROCESSORS, "SS1");
    assert_eq!(exec(&ss1), ex(&[("9", "2")]));
    assert_eq!(pexec(&ss1), ex(&[("9", "1")]));
}

#[test]
fn t6_3_multitasking() {
    let a = run(PROCESSORS, "Multi");
    assert_eq!(pexec(&a), ex(&[("28", "1")]));
}

#[test]
fn analyse_all_follows_directives() {
    let mut m = parse("p.etccs", PROCESSORS).unwrap();
    let all = etccs::analyse_all(&mut m, &Options::default()).unwrap();
    let names: Vec<&str> = all.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["Sys0", "Sys1"]);
}

/// Never panic: every truncation of every model above, and random token soup.
#[test]
fn fuzz_truncations_and_token_soup() {
    let mut models: Vec<String> = T5.iter().map(|t| t.0.to_string()).collect();
    models.push(PROCESSORS.to_string());
    models.push("define D = (a@3.b@4.Terminated | 'a@5.b@6.Terminated)\\{a,b}".into());
    models.push("define Cpu = (op,0).(tau,3).Cpu define S = (Cpu | op'.S)\\{op} analyse S".into());
    let opts = Options {
        max_states: 500,
        max_depth: 200,
        ..Options::default()
    };
    let try_all = |src: &str| {
        if let Ok(mut m) = parse("f.etccs", src) {
            let names: Vec<String> = m.agents.iter().map(|(n, _)| n.clone()).collect();
            for n in names {
                let _ = analyse(&mut m, &n, &opts).map(|a| (thesis_text(&a), json(&[a])));
            }
        }
    };
    for src in &models {
        for (i, _) in src.char_indices() {
            try_all(&src[..i]);
        }
    }
    let soup = [
        "define",
        "analyse",
        "P",
        "Q",
        "a",
        "b",
        "tau",
        "nil",
        "Terminated",
        "(",
        ")",
        ",",
        ".",
        "+",
        "|",
        "\\",
        "{",
        "}",
        "[",
        "]",
        "/",
        "=",
        "@",
        "'",
        "3",
        "0",
        "2.5",
        ";",
        "//x\n",
        "é",
        " ",
    ];
    use stats::rng::Draw;
    let mut rng = stats::rng::seeded(0x9E37);
    for _ in 0..3000 {
        let mut s = String::from("define P = ");
        let len = rng.below(24);
        for _ in 0..len {
            s.push_str(soup[rng.below(soup.len() as u64) as usize]);
            s.push(' ');
        }
        try_all(&s);
    }
}

#[test]
fn deepest_accepted_nesting_analyses() {
    // Just inside the limits: a long prefix chain and deep parentheses.
    let chain = format!("define P = {}nil", "a.".repeat(etccs::parse::MAX_DEPTH - 2));
    let a = run(&chain, "P");
    assert_eq!(a.states, etccs::parse::MAX_DEPTH - 1);
    let parens = format!(
        "define P = {}a@1.nil{}",
        "(".repeat(etccs::parse::MAX_DEPTH - 2),
        ")".repeat(etccs::parse::MAX_DEPTH - 2)
    );
    assert_eq!(exec(&run(&parens, "P")), ex(&[("1", "1")]));
}

#[test]
fn diagnostics_have_label_and_help() {
    use miette::Diagnostic;
    let e = parse("bad.etccs", "define P = (a,3).nil +").unwrap_err();
    assert_eq!(e.labels().map(|l| l.count()), Some(1));
    assert!(e.help().is_some());
    assert!(e.source_code().is_some());
    let e = parse("u.etccs", "define X = X + a.nil").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("u.etccs:1:8: unguarded recursion"),
        "{e}"
    );
    assert_eq!(e.labels().map(|l| l.count()), Some(1));
    assert!(e.help().is_some());
}

/// T6-4 (context switch c = 5) and T6-5 (time quanta q = 10) with p = 2,
/// the sums over i ∈ {0,1} and o ∈ {add, mult} written out by hand.
const MULTITASKING: &str = "
define Process0 = 'add.'add.'mult.'mult.nil
define Process1 = 'add.'mult.'add.'mult.nil
define Processing0 = add0@0.tau@3.Processing0 + mult0@0.tau@4.Processing0 + tau@1.Processor
define Processing1 = add1@0.tau@3.Processing1 + mult1@0.tau@4.Processing1 + tau@1.Processor
define Processor = add0@0.tau@5.tau@3.Processing0 + mult0@0.tau@5.tau@4.Processing0
                 + add1@0.tau@5.tau@3.Processing1 + mult1@0.tau@5.tau@4.Processing1
define System = (Processing0 | Process0[add0/add, mult0/mult] | Process1[add1/add, mult1/mult])
                \\{add0, mult0, add1, mult1}

define Timer = 'time@10.nil + cancel@0.nil
define QProcessing0 = add0@0.tau@3.QProcessing0 + mult0@0.tau@4.QProcessing0
                    + tau@1.'cancel@0.QProcessor + time@0.QProcessor
define QProcessing1 = add1@0.tau@3.QProcessing1 + mult1@0.tau@4.QProcessing1
                    + tau@1.'cancel@0.QProcessor + time@0.QProcessor
define QProcessor = add0@0.tau@5.((tau@3.QProcessing0 | Timer)\\{time, cancel})
                  + mult0@0.tau@5.((tau@4.QProcessing0 | Timer)\\{time, cancel})
                  + add1@0.tau@5.((tau@3.QProcessing1 | Timer)\\{time, cancel})
                  + mult1@0.tau@5.((tau@4.QProcessing1 | Timer)\\{time, cancel})
define QSystem = (((QProcessing0 | Timer)\\{time, cancel})
                  | Process0[add0/add, mult0/mult] | Process1[add1/add, mult1/mult])
                 \\{add0, mult0, add1, mult1}
analyse System
analyse QSystem
";

#[test]
fn t6_4_context_switch() {
    let a = run(MULTITASKING, "System");
    assert_eq!(pexec(&a), ex(&[("35", "1")]));
    assert_eq!(a.outcome, Outcome::Terminated);
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
}

#[test]
fn t6_5_time_quanta() {
    let a = run(MULTITASKING, "QSystem");
    assert_eq!(
        pexec(&a),
        ex(&[("33", "1/4"), ("39", "1/2"), ("45", "1/4")])
    );
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
}

#[test]
fn state_sharing_gives_2_pow_n_states() {
    // Spec §5.1: n independent components have n! orderings but 2^n states.
    let a = run("define P = a@0.nil | b@0.nil | c@0.nil | d@0.nil", "P");
    assert_eq!(a.states, 16);
    assert_eq!(exec(&a), ex(&[("0", "24")]));
    // Identical components share even more: the multiset structure remains.
    let b = run("define P = tau.nil | tau.nil | tau.nil", "P");
    assert_eq!(b.states, 4);
    assert_eq!(exec(&b), ex(&[("0", "6")]));
}
