//! Each program checks its own result at small sizes on 1–3 threads, reports a time for
//! every segment its thread-graph model names (and only those), and refuses bad sizes.

fn model(name: &str) -> String {
    let path = format!(
        "{}/../../examples/semi/{name}.tg",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).expect("the model")
}

/// The segment names of a model's `compute NAME = …` statements.
fn segments(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split("compute ")
        .skip(1)
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_string)
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_program_checks_its_result_and_times_its_models_segments() {
    for (prog, n) in [("ge", 40), ("apsp", 60), ("queue", 50)] {
        let expected = segments(&model(prog));
        for p in 1..=3 {
            let r = threadprogs::run(prog, n, p, 3).unwrap_or_else(|e| panic!("{prog}: {e}"));
            let mut names: Vec<String> = r.segments.iter().map(|s| s.0.to_string()).collect();
            names.sort();
            assert_eq!(names, expected, "{prog}");
            assert!(r.seconds > 0.0);
            assert!(r.segments.iter().all(|s| s.1 >= 0.0 && s.1.is_finite()));
            // The CSV: a row per segment and the wall time.
            let csv = r.csv();
            assert_eq!(csv.lines().count(), expected.len() + 1);
            assert!(csv.lines().last().unwrap().starts_with("run,"));
        }
    }
}

#[test]
fn apsp_matches_floyd_warshall_and_ge_solves_the_system() {
    // Within the check's Floyd–Warshall range, on every thread count.
    for p in 1..=4 {
        let r = threadprogs::apsp::run(100, p, 11).unwrap();
        assert!(r.check.starts_with("sum of distances"), "{}", r.check);
    }
    // The same matrix gives the same solution whatever the thread count.
    let a = threadprogs::ge::run(64, 1, 5).unwrap();
    let b = threadprogs::ge::run(64, 3, 5).unwrap();
    assert!(a.check.starts_with("residual") && b.check.starts_with("residual"));
}

#[test]
fn bad_sizes_and_names_are_errors() {
    assert!(threadprogs::run("ge", 1, 2, 1).is_err());
    assert!(threadprogs::run("apsp", 10, 0, 1).is_err());
    assert!(threadprogs::run("queue", 0, 2, 1).is_err());
    let e = threadprogs::run("lu", 10, 2, 1).unwrap_err();
    assert!(e.contains("unknown program `lu`"), "{e}");
}
