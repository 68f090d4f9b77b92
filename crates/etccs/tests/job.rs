//! The front door `etccs::job`: which analysis runs, one assignment against a table, the
//! checks before any analysis, and the stop reasons a table keeps as cells.

use etccs::job::{Job, JobError, Results, Want};
use etccs::plot::PlotError;
use etccs::{Report, Stopped};

const MODEL: &str = "const t = 2;\nparam b;\nagent A = tau@t . nil;\n\
                     agent B = tau@b . nil;\nagent C = (tau@t . nil | tau@1 . nil);\nanalyse A";

fn binding(s: &str) -> (expr::Name, expr::grid::Values) {
    expr::grid::parse_binding(s).expect("a binding")
}

#[test]
fn one_assignment_gives_every_agents_report() {
    let job = Job {
        agents: vec!["A".into(), "B".into()],
        bindings: vec![binding("t=3")],
        ..Job::new("m.etccs", MODEL)
    };
    let plan = job.plan().expect("plans");
    assert!(!plan.is_sweep());
    assert_eq!(plan.analyses(), 2);
    let Results::One(one) = plan.run(&etccs::job::Unwatched).expect("runs") else {
        panic!("one assignment")
    };
    assert_eq!(one.point.len(), 1);
    // A is concrete (3 at t = 3), B parametric in b.
    let Report::Concrete(a) = &one.reports[0] else {
        panic!("A is concrete")
    };
    assert_eq!(a.max.as_ref().map(|r| r.time.to_string()), Some("3".into()));
    assert!(matches!(one.reports[1], Report::Parametric(_)));
    assert_eq!(one.map_target().map(|p| p.name.as_str()), Some("B"));
    assert_eq!(one.concrete().len(), 1);
    assert!(one.witness_trace().is_some());
    let rows = one.into_rows();
    assert_eq!(rows.len(), 1);
    let names: Vec<&str> = rows[0].1.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["A", "B"]);
}

#[test]
fn a_table_keeps_analyses_stopped_at_a_limit() {
    let job = Job {
        agents: vec!["A".into(), "C".into()],
        bindings: vec![binding("t=1..3")],
        max_states: 2,
        ..Job::new("m.etccs", MODEL)
    };
    let Results::Table(table) = job.run().expect("runs") else {
        panic!("a sweep")
    };
    assert_eq!(table.rows.len(), 3);
    assert_eq!(table.cells(), 6);
    // C (a parallel pair) needs more than two states at every t; A needs two.
    assert_eq!(table.stopped(), 3);
    assert!(matches!(table.rows[0].1[1].1, Err(Stopped::States(2))));
    assert_eq!(table.columns().len(), 3);
    assert_eq!(table.rows[2].0[0].1, expr::Rational::from_integer(3.into()));
}

#[test]
fn checks_come_before_any_analysis() {
    let base = Job::new("m.etccs", MODEL);
    let e = Job {
        bindings: vec![binding("b=1")],
        symbolic: vec!["b".into()],
        ..base.clone()
    }
    .plan()
    .unwrap_err();
    assert!(
        matches!(&e, JobError::BoundAndSymbolic(n) if &**n == "b"),
        "{e:?}"
    );
    let sweep = vec![binding("t=1,2")];
    let want = |want| {
        Job {
            bindings: sweep.clone(),
            want,
            ..base.clone()
        }
        .plan()
        .unwrap_err()
    };
    let map = Want {
        map: true,
        ..Want::default()
    };
    assert!(matches!(want(map), JobError::MapOfSweep));
    let witnesses = Want {
        witnesses: true,
        ..Want::default()
    };
    assert!(matches!(want(witnesses), JobError::WitnessOfSweep));
    let plot = Job {
        want: Want {
            plot: true,
            ..Want::default()
        },
        ..base.clone()
    };
    assert!(matches!(
        plot.plan().unwrap_err(),
        JobError::Plot(PlotError::NotSwept)
    ));
    let many = Job {
        bindings: vec![binding("t=1..200"), binding("b=1..200")],
        ..base.clone()
    };
    assert!(matches!(
        many.plan().unwrap_err(),
        JobError::Space(sweep::SpaceError::TooManyPoints { .. })
    ));
}

#[test]
fn model_errors_name_the_assignment_and_the_agents() {
    let text = "const n = 2;\nagent A = sum i in 0..n-1 : tau@1 . nil;";
    let e = Job::new("m.etccs", text).plan().unwrap_err();
    let JobError::NoAnalyse { agents } = e else {
        panic!("{e:?}")
    };
    assert_eq!(agents, ["A"]);
    let e = Job {
        agents: vec!["A".into()],
        bindings: vec![binding("n=1,0")],
        ..Job::new("m.etccs", text)
    }
    .plan()
    .unwrap_err();
    let JobError::Model { at, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(at, "n=0");
}

#[test]
fn names_from_outside_the_model_that_it_lacks_are_typed() {
    use etccs::error::SyntaxKind;
    let kind = |overrides: &[(&str, etccs::Time)], symbolic: &[&str]| {
        match etccs::parse::parse_with_symbolic("m.etccs", MODEL, overrides, symbolic) {
            Err(etccs::Error::Syntax(s)) => Some(s.kind),
            _ => None,
        }
    };
    let one = etccs::Time::from_integer(1.into());
    assert_eq!(
        kind(&[("zz", one.clone())], &[]),
        Some(SyntaxKind::UnknownOverride)
    );
    assert_eq!(kind(&[], &["zz"]), Some(SyntaxKind::UnknownSymbolic));
    // Declared names are accepted: `t` is a const, `b` a param.
    assert_eq!(kind(&[("t", one)], &["b"]), None);
}
