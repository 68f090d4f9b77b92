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
    // Over the limits, refused before anything is allocated or started.
    let e = threadprogs::run("ge", 100_000, 1, 1).unwrap_err();
    assert!(e.contains("74.5 GiB") && e.contains("smaller n"), "{e}");
    let e = threadprogs::run("apsp", 40_000, 1, 1).unwrap_err();
    assert!(e.contains("23.8 GiB"), "{e}");
    let e = threadprogs::run("queue", 10, 1_000_000, 1).unwrap_err();
    assert!(e.contains("over the limit of 1024"), "{e}");
    assert!(threadprogs::run("ge", usize::MAX, 1, 1).is_err());
    assert!(threadprogs::run("ge", 1, 2, 1).is_err());
    assert!(threadprogs::run("apsp", 10, 0, 1).is_err());
    assert!(threadprogs::run("queue", 0, 2, 1).is_err());
    let e = threadprogs::run("lu", 10, 2, 1).unwrap_err();
    assert!(e.contains("unknown program `lu`"), "{e}");
}

#[test]
fn ge_reports_its_steps_and_their_bands_add_up() {
    let n = 48;
    for p in 1..=2 {
        let r = threadprogs::ge::run(n, p, 9).unwrap();
        assert_eq!(r.steps.len(), n - 1);
        // The steps' times are the elimination segment's, split by step.
        let elim = r.segments.iter().find(|s| s.0 == "elim").unwrap().1;
        let sum: f64 = r.steps.iter().sum();
        assert!(
            (sum - elim).abs() <= 1e-9 * elim.max(1e-9),
            "{sum} vs {elim}"
        );
        let bands = threadprogs::ge::cost_by_trailing(&r.steps, 5);
        assert_eq!(bands.len(), 5);
        // The bands cover trailing sizes 1 ..= n − 1 once, in order, and every element.
        assert_eq!(bands[0].trailing.0, 1);
        assert_eq!(bands[4].trailing.1, n - 1);
        for w in bands.windows(2) {
            assert_eq!(w[0].trailing.1 + 1, w[1].trailing.0);
        }
        let elements: f64 = bands.iter().map(|b| b.elements).sum();
        assert_eq!(elements, ((1..n).map(|m| m * m).sum::<usize>()) as f64);
        let seconds: f64 = bands.iter().map(|b| b.seconds).sum();
        assert!((seconds - sum).abs() <= 1e-9 * sum.max(1e-9));
        let top = &bands[4];
        assert_eq!(top.working_set, 8.0 * ((n - 1) * (n - 1)) as f64);
        assert!(bands.iter().all(|b| b.ns_per_element() >= 0.0));
    }
    // More bands than steps: one per step.
    let r = threadprogs::ge::run(4, 1, 1).unwrap();
    let bands = threadprogs::ge::cost_by_trailing(&r.steps, 16);
    assert_eq!(bands.len(), 3);
    assert!(bands.iter().all(|b| b.trailing.0 == b.trailing.1));
    // Other programs have no steps.
    assert!(threadprogs::apsp::run(20, 1, 1).unwrap().steps.is_empty());
}

#[test]
fn the_binary_prints_segments_or_ge_steps_and_refuses_bad_arguments() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_threadprogs"))
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&["ge", "40", "2"]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("elim,") && out.lines().last().unwrap().starts_with("run,"));
    let o = run(&["ge-steps", "64", "1", "3"]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "trailing_from,trailing_to,working_set_mib,elements,seconds,ns_per_element"
    );
    assert_eq!(lines.len(), 17, "{out}");
    let elements: f64 = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(3).unwrap().parse::<f64>().unwrap())
        .sum();
    assert_eq!(elements, (1..64).map(|m| m * m).sum::<usize>() as f64);
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).to_string();
    for (bad, says) in [
        (&["ge-steps", "x", "1"][..], "N `x` is not a whole number"),
        (&["ge"], "usage: threadprogs"),
        (
            &["nope", "10", "1"],
            "unknown program `nope` (ge, apsp, queue, ge-steps)",
        ),
        (&["ge", "99999999999999999999999", "1"], "is too large"),
    ] {
        let o = run(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&o).contains(says), "{bad:?}: {}", stderr(&o));
    }
    let o = run(&["ge-steps", "1", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("ge-steps needs n ≥ 2"),
        "{}",
        stderr(&o)
    );
    let o = run(&["--help"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("ge-steps N P"));
}
