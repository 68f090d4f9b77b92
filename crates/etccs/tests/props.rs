//! Property tests over random small agents: invariants of the concrete analysis.

use etccs::{analyse, parse, Options, Outcome, Time};
use num_traits::{One, Zero};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Random agent text in the extended syntax (no recursion: always finite).
fn agent() -> impl Strategy<Value = String> {
    let act = prop_oneof![Just("a"), Just("'a"), Just("b"), Just("'b"), Just("tau")];
    let leaf = prop_oneof![Just("nil".to_string()), Just("Terminated".to_string())];
    leaf.prop_recursive(4, 24, 3, move |inner| {
        prop_oneof![
            (act.clone(), 0u32..4, inner.clone()).prop_map(|(a, t, p)| format!("{a}@{t}.{p}")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} + {q})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} | {q})")),
            inner.clone().prop_map(|p| format!("({p})\\{{a}}")),
            inner.prop_map(|p| format!("({p})[b/a]")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn analysis_invariants(body in agent()) {
        let src = format!("define P = {body}");
        let mut m = parse("prop.etccs", &src).expect("generated agents parse");
        let a = analyse(&mut m, "P", &Options::default()).expect("small agents analyse");
        // No recursion, so every agent terminates (possibly deadlocked).
        prop_assert!(
            !matches!(a.outcome, Outcome::NonTerminating { .. }),
            "unexpected non-termination"
        );
        // PEXEC is a probability distribution over exactly the EXEC times.
        let total: Time = a.pexec.values().sum();
        prop_assert!(total.is_one());
        let ek: BTreeSet<_> = a.exec.keys().collect();
        let pk: BTreeSet<_> = a.pexec.keys().collect();
        prop_assert_eq!(ek, pk);
        // min/max witnesses have the extreme EXEC times.
        let min = a.min.clone().expect("min");
        let max = a.max.clone().expect("max");
        prop_assert_eq!(Some(&min.time), a.exec.keys().next());
        prop_assert_eq!(Some(&max.time), a.exec.keys().last());
        // The explored states are exactly the distinct terms reachable through
        // `Arena::transitions` (the analysis keeps them as component vectors).
        let start = m.agent("P").expect("P");
        let mut seen = BTreeSet::from([start]);
        let mut todo = vec![start];
        while let Some(s) = todo.pop() {
            for tr in m.arena.transitions(s) {
                if seen.insert(tr.target) {
                    todo.push(tr.target);
                }
            }
        }
        prop_assert_eq!(seen.len(), a.states);
        // Witness runs are real runs: replay them through the transition system.
        for run in [&min, &max] {
            let mut cur = BTreeSet::from([start]);
            let mut sum = Time::zero();
            for st in &run.steps {
                let mut next = BTreeSet::new();
                for s in cur {
                    for tr in m.arena.transitions(s) {
                        if m.arena.act_str(tr.act) == st.action && tr.delay == st.delay {
                            next.insert(tr.target);
                        }
                    }
                }
                prop_assert!(!next.is_empty(), "witness step not possible");
                sum += &st.delay;
                cur = next;
            }
            prop_assert_eq!(&sum, &run.time);
            prop_assert!(cur.iter().any(|s| m.arena.transitions(*s).is_empty()));
            // Who acted: one component doing the step's action, or two
            // distinct components with complementary actions making a tau;
            // nobody acts before it is ready, and a component acting alone
            // never waits (eagerness).
            let mut now = Time::zero();
            for st in &run.steps {
                now += &st.delay;
                for p in &st.parties {
                    prop_assert!(p.lane < run.lanes.len());
                    prop_assert!(p.ready <= now && p.ready >= Time::zero());
                }
                match &st.parties[..] {
                    [one] => {
                        prop_assert_eq!(&one.action, &st.action);
                        prop_assert_eq!(&one.ready, &now);
                    }
                    [x, y] => {
                        prop_assert_eq!(st.action.as_str(), "tau");
                        prop_assert!(x.lane != y.lane);
                        let co = |a: &str| a.strip_suffix('\'').map_or(format!("{a}'"), str::to_string);
                        prop_assert_eq!(co(&x.action), y.action.clone());
                    }
                    other => prop_assert!(false, "{} parties", other.len()),
                }
            }
        }
    }
}
