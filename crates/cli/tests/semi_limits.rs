//! The semi engine's memory limits (issue 29): the default op limit bounds a prediction near
//! 400 MB (an op takes about 100 bytes), and a sweep shares it among the points it predicts
//! at once instead of multiplying it by the core count.

mod common;

use common::{example_in, fails, stdout, GE_COEFFS};

/// GE at N = 4096 has about 3.2 million ops at P = 256 and 12.6 million at P = 1024
/// (`semi check` counts them): the first is within the default, the second is refused
/// before it is built, with the flag that raises the limit.
#[test]
fn the_default_op_limit_bounds_a_prediction() {
    let ge = example_in("semi", "ge.tg");
    let ok = stdout(&["semi", "check", &ge, "-D", "N=4096", "-D", "P=256"]);
    assert!(ok.contains("3157761 ops") && !ok.contains("over"), "{ok}");
    let over = stdout(&["semi", "check", &ge, "-D", "N=4096", "-D", "P=1024"]);
    assert!(
        over.contains("over --max-ops 4000000: predict would refuse it"),
        "{over}"
    );
    let mut args = vec!["semi", "predict", &ge, "-D", "N=4096", "-D", "P=1024"];
    args.extend(GE_COEFFS);
    let err = fails(&args, 1);
    assert!(err.contains("--max-ops"), "{err}");
}

/// Two points at once share the op limit: a point of 85,000 ops passes a single prediction
/// under `--max-ops 100000` and is refused in a two-thread sweep, which says why.
#[test]
fn a_sweep_shares_the_op_limit_among_its_parallel_points() {
    let ge = example_in("semi", "ge.tg");
    let point = ["-D", "N=400", "-D", "P=70", "--max-ops", "100000"];
    let counted = stdout(&[&["semi", "check", &ge][..], &point[..]].concat());
    let ops: u64 = counted
        .split(" ops")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|s| s.parse().ok())
        .expect("ops in the check's output");
    assert!((50_001..100_000).contains(&ops), "{counted}");
    let mut single = vec!["semi", "predict", ge.as_str()];
    single.extend(point);
    single.extend(GE_COEFFS);
    assert!(stdout(&single).contains("N=400, P=70"));
    let out = common::vates()
        .env("RAYON_NUM_THREADS", "2")
        .args(["semi", "sweep", &ge, "-D", "N=400", "-D", "P=69,70"])
        .args(["--max-ops", "100000"])
        .args(GE_COEFFS)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the sweep predicts 2 points at once, each within 50000 of the 100000 ops"),
        "{err}"
    );
}

/// A name `-D` binds that the model does not have is a usage error (exit 2) with the closest
/// name, as an unknown `-C` is; a derived parameter says it cannot be bound.
#[test]
fn unknown_and_derived_bindings_are_usage_errors() {
    let ge = example_in("semi", "ge.tg");
    let mut args = vec!["semi", "predict", ge.as_str(), "-D", "n=100", "-D", "P=1"];
    args.extend(GE_COEFFS);
    let err = fails(&args, 2);
    assert!(
        err.contains("-D: the model has no parameter `n` to bind; did you mean `N`?"),
        "{err}"
    );
    let err = fails(&["semi", "check", &ge, "-D", "N=10", "-D", "Q=1"], 2);
    assert!(
        err.contains("no parameter `Q` to bind (its parameters: N, P)"),
        "{err}"
    );
    let err = fails(&["semi", "sweep", &ge, "-D", "N=10,20", "-D", "PP=1"], 2);
    assert!(err.contains("did you mean `P`?"), "{err}");
}

/// `semi sweep --format json` prints one pretty JSON document: an array with a point per
/// element, each value the same as the text table's.
#[test]
fn a_sweep_prints_one_pretty_json_document() {
    let ge = example_in("semi", "ge.tg");
    let mut args = vec!["semi", "sweep", ge.as_str(), "-D", "N=100,200", "-D", "P=1"];
    args.extend(GE_COEFFS);
    args.extend(["--format", "json"]);
    let text = stdout(&args);
    assert!(text.starts_with("[\n"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
    let points = v.as_array().expect("an array");
    assert_eq!(points.len(), 2);
    assert_eq!(points[1]["N"], 200.0);
    // Θ of GE at P = 1 is 4N events (stated by `semi check`).
    assert_eq!(points[1]["theta"], 800.0);
}
