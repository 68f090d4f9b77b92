//! The parametric analysis (spec §5.2–§5.4): the thesis's tool runs T7-1…T7-13
//! (spec §6.4), compared semantically — at every valuation of a grid that
//! includes the boundaries (`t1 = t2`, zeros), our regions and expressions give
//! the same times with the same probabilities as the thesis's — plus region
//! merging beyond the thesis and the property that the parametric result
//! instantiated at random valuations equals the concrete analysis there.

use etccs::parametric::{analyse_parametric, Options as POptions, PExpr, ParamAnalysis};
use etccs::parse::parse_with_consts;
use etccs::{analyse, parse, Options, Time};
use num_rational::BigRational;
use num_traits::Zero;
use proptest::prelude::*;
use std::collections::BTreeMap;
use sweep::{Limit, Reached};

type Dist = BTreeMap<Time, BigRational>;

fn q(n: i64, d: i64) -> Time {
    Time::new(n.into(), d.into())
}

fn run(src: &str, agent: &str) -> ParamAnalysis {
    let mut m = parse("t7.etccs", src).unwrap_or_else(|e| panic!("{e:?}"));
    analyse_parametric(&mut m, agent, &POptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// A distribution from (time, probability) pairs, equal times combined.
fn dist(pairs: &[(Time, Time)]) -> Dist {
    let mut d = Dist::new();
    for (t, p) in pairs {
        *d.entry(t.clone()).or_insert_with(BigRational::zero) += p;
    }
    d
}

/// Valuations of `n` parameters over values with many ties and zeros.
fn grid(n: usize) -> Vec<Vec<Time>> {
    let vals = [q(0, 1), q(1, 1), q(3, 2), q(2, 1), q(3, 1), q(5, 1)];
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|v| {
                vals.iter().map(move |x| {
                    let mut w = v.clone();
                    w.push(x.clone());
                    w
                })
            })
            .collect();
    }
    out
}

/// Checks `r` against the expected distribution at every grid valuation.
fn check(r: &ParamAnalysis, expected: impl Fn(&[Time]) -> Dist) {
    for v in grid(r.params.len()) {
        let got = r
            .at(&v)
            .unwrap_or_else(|| panic!("{}: no region contains {v:?}", r.name));
        assert_eq!(got, expected(&v), "{} at {:?} = {v:?}", r.name, r.params);
    }
}

fn half() -> Time {
    q(1, 2)
}

fn one() -> Time {
    q(1, 1)
}

/// The rendered expressions and probabilities of the only region, which
/// must be the whole space.
fn whole_space(r: &ParamAnalysis) -> Vec<(String, String)> {
    assert_eq!(r.regions.len(), 1, "{}: {:?}", r.name, r.regions);
    assert!(r.regions[0].constraints.is_empty(), "{}", r.name);
    r.regions[0]
        .results
        .iter()
        .map(|e| (e.expr.render(&r.params), e.prob.to_string()))
        .collect()
}

#[test]
fn t7_1_3_5_8_9_a_single_parameter_gives_t_everywhere() {
    for (src, name) in [
        ("define P1 = (a,t).nil", "P1"),
        ("define P3 = (a,t).nil + (a,t).nil", "P3"),
        ("define P5 = (a,t).nil | (a',t).nil", "P5"),
        (
            "define P8 = (a,t).nil | (b,t).nil | (c,t).nil | (d,t).nil",
            "P8",
        ),
        ("define P9 = ((a,t).nil)[b/a]", "P9"),
    ] {
        let r = run(src, name);
        assert_eq!(r.params, ["t"]);
        assert_eq!(whole_space(&r), [("t".to_string(), "1".to_string())]);
        check(&r, |v| dist(&[(v[0].clone(), one())]));
    }
    // Multiplicities are kept: P3 has two paths, P5 three (a, a', tau).
    let paths = |src, name| run(src, name).regions[0].results[0].paths.clone();
    assert_eq!(
        paths("define P3 = (a,t).nil + (a,t).nil", "P3"),
        Some(2u32.into())
    );
    assert_eq!(
        paths("define P5 = (a,t).nil | (a',t).nil", "P5"),
        Some(3u32.into())
    );
}

#[test]
fn t7_2_choice_takes_the_earlier_and_splits_evenly_on_ties() {
    let r = run("define P2 = (a,t1).nil + (a',t2).nil", "P2");
    // t1 on t1 < t2, t2 on t2 < t1, {t1: 50%, t2: 50%} on t1 = t2.
    check(&r, |v| {
        let (t1, t2) = (&v[0], &v[1]);
        if t1 < t2 {
            dist(&[(t1.clone(), one())])
        } else if t2 < t1 {
            dist(&[(t2.clone(), one())])
        } else {
            dist(&[(t1.clone(), half()), (t2.clone(), half())])
        }
    });
    // Merged: min(t1, t2) everywhere; one path off the tie, two on it.
    assert_eq!(
        whole_space(&r),
        [("min(t1, t2)".to_string(), "1".to_string())]
    );
    assert_eq!(r.regions[0].results[0].paths, None);
    // Unmerged, the thesis's three regions.
    let mut m = parse("t7.etccs", "define P2 = (a,t1).nil + (a',t2).nil").expect("parses");
    let opts = POptions {
        merge: false,
        ..POptions::default()
    };
    let r = analyse_parametric(&mut m, "P2", &opts).expect("analyses");
    let texts: Vec<String> = r.regions.iter().map(|g| r.render_region(g)).collect();
    assert_eq!(texts, ["t1 - t2 = 0", "t1 - t2 < 0", "t1 - t2 > 0"]);
}

#[test]
fn t7_4_6_10_synchronisation_waits_for_the_later_partner() {
    // T7-4 (unrestricted): t1 on t1 > t2, t2 on t2 > t1, t2 on t1 = t2.
    let r = run("define P4 = (a,t1).nil | (a',t2).nil", "P4");
    check(&r, |v| dist(&[(v[0].clone().max(v[1].clone()), one())]));
    // T7-6 and T7-10 (restricted): the same times; merged into max(t1, t2) on
    // the whole space, the merge the thesis named as further work.
    for (src, name) in [
        ("define P6 = ((a,t1).nil | (a',t2).nil)\\{a}", "P6"),
        ("define P10 = (((a,t1).nil)[b/a] | (b',t2).nil)\\{b}", "P10"),
    ] {
        let r = run(src, name);
        assert_eq!(
            whole_space(&r),
            [("max(t1, t2)".to_string(), "1".to_string())]
        );
        check(&r, |v| dist(&[(v[0].clone().max(v[1].clone()), one())]));
    }
}

#[test]
fn t7_7_two_partners_race_for_the_synchronisation() {
    let r = run(
        "define P7 = ((a,t1).nil | (a,t1).(b,t2).nil | (a',t2).nil)\\{a}",
        "P7",
    );
    // On t1 > t2 and t1 = t2: {t1: 50%, t1+t2: 50%}; on t2 > t1: {t2: 50%, 2 t2: 50%}.
    check(&r, |v| {
        let (t1, t2) = (&v[0], &v[1]);
        let s = t1.clone().max(t2.clone());
        dist(&[(s.clone(), half()), (s + t2, half())])
    });
    assert_eq!(
        whole_space(&r),
        [
            ("max(t1, t2)".to_string(), "1/2".to_string()),
            ("max(t1 + t2, 2*t2)".to_string(), "1/2".to_string())
        ]
    );
}

#[test]
fn t7_11_a_restricted_partner_never_comes() {
    let r = run("define P11 = ((b',t1).nil | (a,t2).nil)\\{b}", "P11");
    assert_eq!(whole_space(&r), [("t2".to_string(), "1".to_string())]);
    check(&r, |v| dist(&[(v[1].clone(), one())]));
}

#[test]
fn t7_12_example_7_2_5_three_parameters() {
    let r = run(
        "define P12 = ((a,t1).nil | (a,t1).(b,t2).nil | (a',t3).nil)\\{a}",
        "P12",
    );
    assert_eq!(r.params, ["t1", "t2", "t3"]);
    // On t3 < t1: {t1, t1+t2}; on t1 <= t3: {t3, t3+t2}; 50% each.
    check(&r, |v| {
        let (t1, t2, t3) = (&v[0], &v[1], &v[2]);
        let s = if t3 < t1 { t1.clone() } else { t3.clone() };
        dist(&[(s.clone(), half()), (s + t2, half())])
    });
}

#[test]
fn t7_13_infeasible_paths_are_pruned() {
    // Section 7.3: after (a, 2x), the branch (d, 3) needs 2x <= 3 and x > 3.
    let r = run("define P13 = a@(2*x).(c@x.nil + d@3.nil) + b@3.nil", "P13");
    check(&r, |v| {
        let x = &v[0];
        let two_x = x * q(2, 1);
        let three = q(3, 1);
        if two_x < three {
            dist(&[(x * q(3, 1), one())])
        } else if two_x > three {
            dist(&[(three, one())])
        } else {
            dist(&[(three, half()), (x * q(3, 1), half())])
        }
    });
    // No region reports the infeasible time 2x + 3.
    for g in &r.regions {
        for e in &g.results {
            assert_ne!(e.expr.render(&r.params), "2*x + 3");
        }
    }
    let texts: Vec<String> = r.regions.iter().map(|g| r.render_region(g)).collect();
    assert_eq!(texts, ["2*x = 3", "2*x < 3", "2*x > 3"]);
}

#[test]
fn regions_are_disjoint_and_cover_the_space() {
    let r = run(
        "define P12 = ((a,t1).nil | (a,t1).(b,t2).nil | (a',t3).nil)\\{a}",
        "P12",
    );
    let r2 = {
        let mut m = parse(
            "t.etccs",
            "define P = a@(2*x).(c@x.nil + d@3.nil) + b@(x+1).nil",
        )
        .expect("parses");
        analyse_parametric(
            &mut m,
            "P",
            &POptions {
                merge: false,
                ..POptions::default()
            },
        )
        .expect("analyses")
    };
    for a in [&r, &r2] {
        for v in grid(a.params.len()) {
            let v: Vec<etccs::Tm> = v.iter().map(etccs::Tm::from_big).collect();
            let n = a
                .regions
                .iter()
                .filter(|g| g.constraints.iter().all(|c| c.holds(&v)))
                .count();
            assert_eq!(n, 1, "{}: {v:?} lies in {n} regions", a.name);
        }
    }
    // Without merging, every expression is linear.
    assert!(r2
        .regions
        .iter()
        .all(|g| g.results.iter().all(|e| matches!(e.expr, PExpr::Lin(_)))));
}

#[test]
fn declared_parameters_with_an_assumed_linear_time() {
    // Extended syntax: `param`, linear expressions, constants.
    let src = "param tsend, b;\nconst s = 1000;\n\
               define Send = 'get@0.'release@(s*b + tsend).nil\n\
               define Bus = get@0.release@0.Bus\n\
               define Two = (Send | Send | Bus)\\{get, release}\nanalyse Two";
    let r = run(src, "Two");
    assert_eq!(r.params, ["tsend", "b"]);
    // Two senders share the bus: 2 (s·b + tsend) on the whole space.
    check(&r, |v| {
        let one_msg = q(1000, 1) * &v[1] + &v[0];
        dist(&[(one_msg * q(2, 1), one())])
    });
}

#[test]
fn the_cli_entry_point_chooses_the_analysis() {
    let src = "param t;\ndefine P = tau@t.nil\ndefine Q = tau@2.nil\nanalyse P\nanalyse Q";
    let mut m = parse("t.etccs", src).expect("parses");
    let (o, p) = (Options::default(), POptions::default());
    let a = etccs::analyse_report(&mut m, "P", &o, &p).expect("P");
    let b = etccs::analyse_report(&mut m, "Q", &o, &p).expect("Q");
    assert!(matches!(a, etccs::Report::Parametric(_)));
    assert!(matches!(b, etccs::Report::Concrete(_)));
    let j = etccs::reports_json(&[a, b]);
    assert_eq!(j["agents"][0]["regions"][0]["results"][0]["expr"], "t");
    assert_eq!(
        j["agents"][0]["regions"][0]["constraints"],
        serde_json::json!([])
    );
    assert_eq!(j["agents"][1]["pexec"][0]["time"], "2");
}

#[test]
fn recursion_that_never_ends_is_reported() {
    let src = "param t;\ndefine L = tau@t.L\nanalyse L";
    let mut m = parse("t.etccs", src).expect("parses");
    let e = analyse_parametric(&mut m, "L", &POptions::default()).unwrap_err();
    assert!(e.to_string().contains("does not terminate"), "{e}");
}

// ---- concrete = parametric at random valuations ----

const PARAMS: [&str; 2] = ["t1", "t2"];

/// Random small agents over the channels a, b (both polarities), tau and
/// linear bounds in t1, t2.
fn agent() -> impl Strategy<Value = String> {
    let bound = prop_oneof![
        Just("0".to_string()),
        Just("1".to_string()),
        Just("t1".to_string()),
        Just("t2".to_string()),
        Just("(t1 + 1)".to_string()),
        Just("(2*t2)".to_string()),
        Just("(t1 + t2)".to_string()),
        Just("(t2 - 1)".to_string()),
    ];
    let act = prop_oneof![
        Just("a"),
        Just("'a"),
        Just("b"),
        Just("'b"),
        Just("tau"),
        Just("c")
    ];
    // `Terminated` ends some branches: where a run gets stuck elsewhere,
    // that is a deadlock, which both analyses must find at the same values.
    let end = prop_oneof![3 => Just("nil"), 1 => Just("Terminated")];
    let leaf = (act.clone(), bound.clone(), end).prop_map(|(a, v, e)| format!("{a}@{v}.{e}"));
    leaf.prop_recursive(4, 16, 3, move |inner| {
        prop_oneof![
            (act.clone(), bound.clone(), inner.clone())
                .prop_map(|(a, v, p)| format!("{a}@{v}.{p}")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} + {q})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} | {q})")),
            inner.clone().prop_map(|p| format!("({p})\\{{a}}")),
            inner.prop_map(|p| format!("({p})[b/a]")),
        ]
    })
}

fn valuation() -> impl Strategy<Value = Vec<Time>> {
    let v = prop_oneof![
        Just(q(0, 1)),
        Just(q(1, 1)),
        Just(q(2, 1)),
        Just(q(1, 2)),
        Just(q(3, 1))
    ];
    proptest::collection::vec(v, 2)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn parametric_at_a_valuation_equals_concrete(
        body in agent(),
        points in proptest::collection::vec(valuation(), 4),
    ) {
        let src = format!("param t1, t2;\ndefine P = ({body})\\{{b}}\nanalyse P");
        let mut m = parse("p.etccs", &src).expect("parses");
        let r = analyse_parametric(&mut m, "P", &POptions::default()).expect("parametric");
        for v in points {
            let overrides: Vec<(&str, Time)> =
                PARAMS.iter().copied().zip(v.iter().cloned()).collect();
            match parse_with_consts("p.etccs", &src, &overrides) {
                Ok(mut c) => {
                    let a = analyse(&mut c, "P", &Options::default()).expect("concrete");
                    let got = r.at(&v).expect("a region contains every valuation");
                    prop_assert_eq!(&got, &a.pexec, "{} at t1, t2 = {:?}", src, v);
                    prop_assert_eq!(
                        r.deadlocks_at(&v),
                        a.outcome.label() == "deadlock",
                        "{} at t1, t2 = {:?}", src, v
                    );
                }
                Err(e) => {
                    // A negative prefix time: outside the parametric domain too.
                    prop_assert!(e.to_string().contains("negative time"), "{}", e);
                    prop_assert!(r.at(&v).is_none(), "{} at {:?}", src, v);
                }
            }
        }
    }
}

#[test]
fn truncated_parametric_models_never_panic() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/etccs/parametric.etccs"
    );
    let src = std::fs::read_to_string(path).expect("example");
    let opts = POptions {
        max_states: 2_000,
        ..POptions::default()
    };
    let mut analysed = 0;
    for end in 0..=src.len() {
        let Some(prefix) = src.get(..end) else {
            continue;
        };
        let Ok(mut m) = parse("cut.etccs", prefix) else {
            continue;
        };
        for agent in m.analyses.clone() {
            // Errors are fine; panics are not.
            if analyse_parametric(&mut m, &agent, &opts).is_ok() {
                analysed += 1;
            }
        }
    }
    assert!(analysed > 0, "some truncation still analyses");
}

#[test]
fn assume_restricts_the_analysed_region() {
    let src = "param t1, t2;\nassume t1 <= t2;\n\
               define P6 = ((a,t1).nil | (a',t2).nil)\\{a}\nanalyse P6";
    let r = run(src, "P6");
    assert_eq!(
        r.domain
            .iter()
            .map(|c| c.render(&r.params))
            .collect::<Vec<_>>(),
        ["t1 - t2 <= 0"]
    );
    assert_eq!(whole_space(&r), [("t2".to_string(), "1".to_string())]);
    assert_eq!(r.at(&[q(1, 1), q(2, 1)]), Some(dist(&[(q(2, 1), one())])));
    assert_eq!(r.at(&[q(3, 1), q(2, 1)]), None, "outside the assumption");
    // Values that break an assumption are an error.
    let e = parse_with_consts("p.etccs", src, &[("t1", q(3, 1)), ("t2", q(2, 1))]).unwrap_err();
    assert!(e.to_string().contains("assumption does not hold"), "{e}");
    // Values that satisfy it give the concrete analysis.
    let mut m = parse_with_consts("p.etccs", src, &[("t1", q(1, 1)), ("t2", q(2, 1))]).unwrap();
    let a = analyse(&mut m, "P6", &Options::default()).expect("concrete");
    assert_eq!(a.pexec, dist(&[(q(2, 1), one())]));
}

#[test]
fn parametric_limits_and_empty_domains_are_errors() {
    // A prefix time negative for every valuation.
    let mut m = parse(
        "t.etccs",
        "param t;\ndefine P = tau@(0 - t - 1).nil\nanalyse P",
    )
    .unwrap();
    let e = analyse_parametric(&mut m, "P", &POptions::default()).unwrap_err();
    assert!(matches!(e, etccs::Error::EmptyDomain { .. }), "{e}");
    assert!(
        e.to_string().contains("-t - 1 >= 0") || e.to_string().contains("t <= -1"),
        "{e}"
    );
    // The state limit is honoured.
    let src = "define P12 = ((a,t1).nil | (a,t1).(b,t2).nil | (a',t3).nil)\\{a}";
    let mut m = parse("t.etccs", src).unwrap();
    let opts = POptions {
        max_states: 3,
        ..POptions::default()
    };
    let e = analyse_parametric(&mut m, "P12", &opts).unwrap_err();
    assert!(matches!(e, etccs::Error::Limit { .. }), "{e}");
    assert_eq!(e.reached(), Some(Reached::new(Limit::States, 3)));
    assert_eq!(e.stopped(), Some(etccs::Stopped::States(3)));
    // So is the depth limit: paths longer than it stop the analysis.
    let opts = POptions {
        max_depth: 1,
        ..POptions::default()
    };
    let e = analyse_parametric(&mut m, "P12", &opts).unwrap_err();
    assert!(
        matches!(
            e,
            etccs::Error::TooDeep {
                reached: Reached {
                    limit: Limit::Depth,
                    value: 1
                },
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.stopped(), Some(etccs::Stopped::Depth(1)));
}

#[test]
fn a_deadlock_on_part_of_the_space_is_reported_with_its_region() {
    // The earlier τ wins: t1 < t2 leads to `a.Terminated` with `a`
    // restricted, a stuck state whose `Terminated` is not active; t2 < t1
    // terminates; on t1 = t2 both happen.
    let src = "param t1, t2;\n\
               agent Main = (tau@t1.a.Terminated + tau@t2.Terminated) \\ {a};\n\
               analyse Main";
    let r = run(src, "Main");
    let (region, state) = r.deadlock.as_ref().expect("a deadlock is found");
    assert_eq!(state, "a@0.Terminated\\{a}");
    // The first stuck state was met on the tie; some run deadlocks on the
    // whole of t1 <= t2.
    assert_eq!(r.render_constraints(region), "t1 - t2 = 0");
    let union: Vec<String> = r
        .deadlock_regions
        .iter()
        .map(|c| r.render_constraints(c))
        .collect();
    assert_eq!(union, ["t1 - t2 <= 0"]);
    let text = etccs::output::param_readable_text(&r);
    assert!(
        text.contains(
            "  deadlock on t1 - t2 <= 0:\n    stuck state a@0.Terminated\\{a}, reached on t1 - t2 = 0\n"
        ),
        "{text}"
    );
    assert_eq!(
        whole_space(&r),
        [("min(t1, t2)".to_string(), "1".to_string())]
    );
    // The concrete analysis agrees on each side.
    let concrete = |t1: i64, t2: i64| {
        let (t1, t2) = (Time::from_integer(t1.into()), Time::from_integer(t2.into()));
        let mut m = parse_with_consts("d.etccs", src, &[("t1", t1), ("t2", t2)]).unwrap();
        analyse(&mut m, "Main", &Options::default())
            .unwrap()
            .outcome
            .label()
    };
    assert_eq!(concrete(1, 1), "deadlock");
    assert_eq!(concrete(1, 2), "deadlock");
    assert_eq!(concrete(2, 1), "terminated");
    // A long union is cut short in the text (JSON lists it all).
    let mut long = r.clone();
    long.deadlock_regions = vec![long.deadlock_regions[0].clone(); 11];
    let text = etccs::output::param_readable_text(&long);
    assert_eq!(text.matches("t1 - t2 <= 0").count(), 8, "{text}");
    assert!(
        text.contains("\n          or 3 more regions (the JSON output lists them):\n"),
        "{text}"
    );
    let j = etccs::output::param_json(&long);
    assert_eq!(j["deadlock"]["regions"].as_array().unwrap().len(), 11);
    // Without the placeholder there is nothing to tell a deadlock by.
    let plain = run(&src.replace("Terminated", "nil"), "Main");
    assert!(plain.deadlock.is_none() && plain.deadlock_regions.is_empty());
}
