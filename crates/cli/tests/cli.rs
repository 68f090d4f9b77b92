//! End-to-end tests of the `vates` binary on the repository's example models.

use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::{fails, json, stdout, tempdir, vates};

/// Path of an example in `examples/pamela/`.
fn example(name: &str) -> String {
    common::example_in("pamela", name)
}

const MRM_P4: [&str; 8] = ["-D", "N=10", "-D", "P=4", "-D", "tau_l=3", "-D", "tau_s=1"];

/// The factors of a product printed as `a*b*c`, sorted.
fn factors(e: &Value) -> Vec<String> {
    let mut f: Vec<String> = e
        .as_str()
        .expect("an expression")
        .split('*')
        .map(str::to_string)
        .collect();
    f.sort();
    f
}

// ---------------------------------------------------------------------------------------
// bound

#[test]
fn bound_json_mrm_values_at_the_saturation_point() {
    let mrm = example("mrm.pam");
    let mut args = vec!["pamela", "bound", &mrm, "--format", "json"];
    args.extend(MRM_P4);
    let v = json(&args);
    assert_eq!(v["tl"]["value"], 40.0);
    assert_eq!(v["phi"]["value"], 40.0);
    assert_eq!(v["omega"]["value"], 40.0);
    assert_eq!(v["resources"]["s"]["value"], 40.0);
    assert_eq!(v["closed_form"], true);
    assert_eq!(v["theta"], 0.0);
    // At P = P* = 4, phi = omega: the library breaks the tie towards the critical path.
    assert_eq!(v["binding"], "critical path");
    // Fully bound: the expressions stay symbolic.
    let e = v["tl"]["expr"].as_str().unwrap();
    assert!(e.starts_with("N*max(") && e.contains("P*tau_s"), "{e}");
    assert!(v["tl"]["latex"].as_str().unwrap().contains("\\max"));
}

#[test]
fn bound_json_mrm_above_saturation_binds_the_server() {
    let mrm = example("mrm.pam");
    let v = json(&[
        "pamela", "bound", &mrm, "--format", "json", "-D", "N=10", "-D", "P=5", "-D", "tau_l=3",
        "-D", "tau_s=1",
    ]);
    assert_eq!(v["tl"]["value"], 50.0);
    assert_eq!(v["phi"]["value"], 40.0);
    assert_eq!(v["binding"], "resource s");
    let theta = v["theta"].as_f64().unwrap();
    assert!((theta - (50.0f64 / 40.0).ln()).abs() < 1e-12, "{theta}");
}

#[test]
fn bound_json_symbolic_has_no_values() {
    let mrm = example("mrm.pam");
    let v = json(&["pamela", "bound", &mrm, "--format", "json"]);
    for k in ["tl", "phi", "omega"] {
        assert!(v[k].get("value").is_none(), "{k} has a value: {v}");
        assert!(v[k]["expr"].is_string());
    }
    assert!(v.get("theta").is_none());
    assert!(v.get("binding").is_none());
    assert_eq!(v["closed_form"], true);
    let phi = v["phi"]["expr"].as_str().unwrap();
    assert!(phi.contains("tau_l + tau_s") && phi.contains('N'), "{phi}");
    assert_eq!(factors(&v["omega"]["expr"]), ["N", "P", "tau_s"]);
    assert!(v["resources"]["s"].get("value").is_none());
}

#[test]
fn bound_partial_binding_substitutes_the_given_values() {
    let mrm = example("mrm.pam");
    let v = json(&[
        "pamela", "bound", &mrm, "--format", "json", "-D", "N=10", "-D", "tau_s=1",
    ]);
    let e = v["tl"]["expr"].as_str().unwrap();
    assert!(!e.contains('N') && !e.contains("tau_s"), "{e}");
    assert!(
        e.contains("10") && e.contains('P') && e.contains("tau_l"),
        "{e}"
    );
    assert_eq!(factors(&v["omega"]["expr"]), ["10", "P"]);
    assert!(v["tl"].get("value").is_none());
}

#[test]
fn bound_text_reports_closed_form_theta_and_binding() {
    let mrm = example("mrm.pam");
    let mut args = vec!["pamela", "bound", &mrm];
    args.extend(MRM_P4);
    let s = stdout(&args);
    assert!(s.contains("closed form: evaluates in O(1)"), "{s}");
    assert!(s.contains("with N=10, P=4, tau_l=3, tau_s=1"), "{s}");
    let tl_lines: Vec<&str> = s
        .lines()
        .filter(|l| l.trim_start().starts_with("T^l"))
        .collect();
    assert_eq!(tl_lines.len(), 2, "{s}");
    assert!(tl_lines[0].contains("N*max("), "{s}");
    assert!(tl_lines[1].trim_end().ends_with("= 40"), "{s}");
    assert!(s.contains("ln(omega/phi) = 0.000"), "{s}");
    assert!(s.contains("may underestimate T by up to 2x"), "{s}");
    assert!(s.contains("binds    : critical path"), "{s}");
}

#[test]
fn bound_text_says_when_folds_remain() {
    // The j-axis ADI bound keeps a maximum over processors.
    let s = stdout(&["pamela", "bound", &example("adi_j.pam")]);
    let closed = s.contains("closed form: evaluates in O(1)");
    let folds = s.contains("contains folds: evaluation cost grows with ranges");
    assert!(closed ^ folds, "{s}");
    // And its value is the paper's (N - 2) N/P tau_u.
    let v = json(&[
        "pamela",
        "bound",
        &example("adi_j.pam"),
        "--format",
        "json",
        "-D",
        "N=16",
        "-D",
        "P=4",
        "-D",
        "tau_u=1",
    ]);
    assert_eq!(v["tl"]["value"], 56.0);
    assert_eq!(v["closed_form"], closed);
}

#[test]
fn bound_latex_prints_equations() {
    let mrm = example("mrm.pam");
    let mut args = vec!["pamela", "bound", &mrm, "--format", "latex"];
    args.extend(MRM_P4);
    let s = stdout(&args);
    let first = s.lines().next().unwrap();
    assert!(first.starts_with("T^l = N \\max\\left("), "{s}");
    assert!(first.ends_with("= 40"), "{s}");
    assert!(s.lines().any(|l| l.starts_with("\\phi = ")), "{s}");
    assert!(s.lines().any(|l| l.starts_with("\\omega = ")), "{s}");
    assert!(s.contains("\\omega_{\\mathrm{s}} = "), "{s}");
}

#[test]
fn bound_network_rows_match_table_1() {
    let net = example("network.pam");
    for (root, expected) in [("row1", 0.900072), ("row4", 3.016908), ("row8", 5.400432)] {
        let v = json(&[
            "pamela",
            "bound",
            &net,
            "--root",
            root,
            "-D",
            "L=1000000",
            "--format",
            "json",
        ]);
        let got = v["tl"]["value"].as_f64().unwrap();
        assert!((got - expected).abs() < 1e-9, "{root}: {got}");
    }
}

// ---------------------------------------------------------------------------------------
// sim

#[test]
fn sim_json_mrm() {
    let mrm = example("mrm.pam");
    let mut args = vec!["pamela", "sim", &mrm, "--format", "json"];
    args.extend(MRM_P4);
    let v = json(&args);
    assert_eq!(v["time"], 43.0);
    assert_eq!(v["events"], 80); // P * N * 2
    let u = v["utilization"]["s"].as_f64().unwrap();
    assert!((u - 40.0 / 43.0).abs() < 1e-12, "{u}");
    assert!(v["peak_active"].as_u64().unwrap() >= 4);
    let r = &v["resources"][0];
    assert_eq!(r["name"], "s");
    assert_eq!(r["busy"], 40.0);
    assert_eq!(r["served"], 40);
    assert_eq!(r["members"].as_array().unwrap().len(), 0);
}

#[test]
fn sim_text_mrm() {
    let mrm = example("mrm.pam");
    let mut args = vec!["pamela", "sim", &mrm];
    args.extend(MRM_P4);
    let s = stdout(&args);
    assert!(s.contains("T            = 43"), "{s}");
    assert!(s.contains("events       = 80"), "{s}");
    let row = s
        .lines()
        .find(|l| l.trim_start().starts_with("s "))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells, vec!["s", "0.930", "40", "40"], "{s}");
}

#[test]
fn sim_family_lists_busiest_members() {
    let s = stdout(&[
        "pamela",
        "sim",
        &example("adi_i.pam"),
        "-D",
        "N=16",
        "-D",
        "P=4",
        "-D",
        "tau_u=1",
    ]);
    assert!(s.contains("T            = 224"), "{s}");
    assert!(s.contains("busiest members"), "{s}");
    assert!(s.contains("cpu[0]"), "{s}");
    // The cell lists the 3 busiest of the family's 4 members and says so.
    assert!(s.contains(", … (3 of 4 members shown)\n"), "{s}");
}

#[test]
fn sim_writes_chrome_trace_and_gantt() {
    let dir = tempdir("trace");
    let t = dir.join("t.json");
    let g = dir.join("g.svg");
    let mrm = example("mrm.pam");
    let (ts, gs) = (t.display().to_string(), g.display().to_string());
    let mut args = vec!["pamela", "sim", &mrm, "--trace", &ts, "--gantt", &gs];
    args.extend(MRM_P4);
    stdout(&args);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&t).unwrap()).unwrap();
    let events = v["traceEvents"].as_array().expect("traceEvents");
    let slices: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    // 40 on the server lane (one per served use(s, 1)); on the 4 process lanes, 40 delays,
    // 40 services and 3 waits (p=2, 3, 4 queue in the first round only).
    assert_eq!(slices.len(), 123);
    let end = slices
        .iter()
        .map(|e| e["ts"].as_f64().unwrap() + e["dur"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(end, 43.0); // 1 model time unit = 1 µs
    let svg = std::fs::read_to_string(&g).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">s<"), "the server's lane is labelled");
}

#[test]
fn sim_trace_time_scale() {
    let dir = tempdir("scale");
    let t = dir.join("t.json");
    let ts = t.display().to_string();
    let mrm = example("mrm.pam");
    let mut args = vec![
        "pamela",
        "sim",
        &mrm,
        "--trace",
        &ts,
        "--trace-unit-us",
        "1000",
    ];
    args.extend(MRM_P4);
    stdout(&args);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&t).unwrap()).unwrap();
    let max_end = v["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .map(|e| e["ts"].as_f64().unwrap() + e["dur"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(max_end, 43000.0);
}

#[test]
fn sim_missing_parameter_is_named() {
    vates()
        .args([
            "pamela",
            "sim",
            &example("mrm.pam"),
            "-D",
            "N=10",
            "-D",
            "P=4",
            "-D",
            "tau_l=3",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("tau_s"))
        .stderr(predicate::str::contains("missing"));
}

#[test]
fn sim_event_limit_is_an_error() {
    let mrm = example("mrm.pam");
    let mut args = vec!["pamela", "sim", &mrm, "--max-events", "10"];
    args.extend(MRM_P4);
    vates()
        .args(&args)
        .assert()
        .code(1)
        .stderr(predicate::str::is_empty().not());
}

// ---------------------------------------------------------------------------------------
// sweep

#[test]
fn sweep_csv_rows_columns_and_bound_below_sim() {
    let dir = tempdir("sweep");
    let csv = dir.join("s.csv");
    let plot = dir.join("s.svg");
    let (cs, ps) = (csv.display().to_string(), plot.display().to_string());
    let s = stdout(&[
        "pamela",
        "sweep",
        &example("mrm.pam"),
        "-D",
        "P=1..12",
        "-D",
        "N=10",
        "-D",
        "tau_l=3",
        "-D",
        "tau_s=1",
        "--csv",
        &cs,
        "--plot",
        &ps,
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "P,N,tau_l,tau_s,bound,phi,omega,sim");
    assert_eq!(lines.len(), 13);
    for (k, line) in lines[1..].iter().enumerate() {
        let v: Vec<f64> = line.split(',').map(|c| c.parse().unwrap()).collect();
        assert_eq!(v.len(), 8);
        assert_eq!(v[0], (k + 1) as f64);
        let (bound, phi, omega, sim) = (v[4], v[5], v[6], v[7]);
        assert_eq!(bound, phi.max(omega), "row {line}");
        assert!(bound <= sim, "row {line}");
        assert!(sim < 2.0 * bound, "row {line}");
    }
    assert_eq!(lines[4], "4,10,3,1,40,40,40,43");
    assert_eq!(lines[12], "12,10,3,1,120,40,120,123");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("T simulated"));
    // The text table has one row per point.
    assert!(s.contains("12 points"), "{s}");
    let row4 = s
        .lines()
        .find(|l| l.split_whitespace().next() == Some("4"))
        .unwrap();
    assert_eq!(
        row4.split_whitespace().collect::<Vec<_>>(),
        vec!["4", "40", "40", "40", "43", "0.930"]
    );
}

#[test]
fn sweep_json_two_axes_row_major() {
    let v = json(&[
        "pamela",
        "sweep",
        &example("mrm.pam"),
        "-D",
        "P=1..3",
        "-D",
        "N=10,20",
        "-D",
        "tau_l=3",
        "-D",
        "tau_s=1",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["parameters"],
        serde_json::json!(["P", "N", "tau_l", "tau_s"])
    );
    assert_eq!(v["engines"], serde_json::json!(["bound", "sim"]));
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 6);
    // The last -D varies fastest among the swept ones.
    assert_eq!(
        (pts[0]["P"].as_f64(), pts[0]["N"].as_f64()),
        (Some(1.0), Some(10.0))
    );
    assert_eq!(
        (pts[1]["P"].as_f64(), pts[1]["N"].as_f64()),
        (Some(1.0), Some(20.0))
    );
    assert_eq!(pts[5]["bound"], 80); // N=20, P=3: max(80, 60)
    assert_eq!(pts[5]["sim"], 82);
    for p in pts {
        assert!(p["bound"].as_f64().unwrap() <= p["sim"].as_f64().unwrap());
    }
}

#[test]
fn sweep_bound_engine_only_many_points() {
    let dir = tempdir("big");
    let csv = dir.join("big.csv");
    let cs = csv.display().to_string();
    stdout(&[
        "pamela",
        "sweep",
        &example("mrm.pam"),
        "-D",
        "P=1..20000",
        "-D",
        "N=1,2,5,10,100",
        "-D",
        "tau_l=3",
        "-D",
        "tau_s=0.5",
        "--engine",
        "bound",
        "--csv",
        &cs,
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "P,N,tau_l,tau_s,bound,phi,omega");
    assert_eq!(lines.len(), 1 + 100_000);
    // P = 20000, N = 100: 100 * max(3.5, 10000) = 10^6.
    assert_eq!(
        *lines.last().unwrap(),
        "20000,100,3,0.5,1000000,350,1000000"
    );
}

#[test]
fn sweep_large_text_output_is_sampled() {
    let s = stdout(&[
        "pamela",
        "sweep",
        &example("mrm.pam"),
        "-D",
        "P=1..1000",
        "-D",
        "N=10",
        "-D",
        "tau_l=3",
        "-D",
        "tau_s=1",
        "--engine",
        "bound",
    ]);
    assert!(s.contains("(60 of 1000 points shown"), "{s}");
    let last = s
        .lines()
        .filter(|l| l.split_whitespace().next() == Some("1000"))
        .count();
    assert_eq!(last, 1, "the last point is shown: {s}");
}

#[test]
fn sweep_grid_too_large_for_sim() {
    vates()
        .args([
            "pamela",
            "sweep",
            &example("mrm.pam"),
            "-D",
            "P=1..100000",
            "-D",
            "N=1..1000",
            "-D",
            "tau_l=3",
            "-D",
            "tau_s=1",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("100000000 points"))
        .stderr(predicate::str::contains("--engine bound"));
}

#[test]
fn sweep_grid_too_large_for_bound() {
    vates()
        .args([
            "pamela",
            "sweep",
            &example("mrm.pam"),
            "-D",
            "P=1..100000",
            "-D",
            "N=1..10000",
            "-D",
            "tau_l=3",
            "-D",
            "tau_s=1",
            "--engine",
            "bound",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("1000000000 points"));
}

#[test]
fn sweep_missing_parameter_and_bad_values() {
    vates()
        .args([
            "pamela",
            "sweep",
            &example("mrm.pam"),
            "-D",
            "P=1..4",
            "-D",
            "N=10",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("tau_l, tau_s"));
    // B = N/P must be a whole number in the ADI model.
    vates()
        .args([
            "pamela",
            "sweep",
            &example("adi_j.pam"),
            "-D",
            "P=1..8",
            "-D",
            "N=64",
            "-D",
            "tau_u=1",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("P=3"))
        .stderr(predicate::str::contains("adi_j.pam:"));
}

#[test]
fn sweep_unwritable_csv_names_the_path() {
    vates()
        .args([
            "pamela",
            "sweep",
            &example("mrm.pam"),
            "-D",
            "P=1..3",
            "-D",
            "N=10",
            "-D",
            "tau_l=3",
            "-D",
            "tau_s=1",
            "--csv",
            "/nonexistent-dir/x/s.csv",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("/nonexistent-dir/x/s.csv"));
}

// ---------------------------------------------------------------------------------------
// errors

#[test]
fn syntax_error_shows_file_line_and_column() {
    let dir = tempdir("syntax");
    let f = dir.join("bad.pam");
    std::fs::write(
        &f,
        "param N: int >= 1;\nresource s;\nmain = seq i in 1..=N { use(s, ) };\n",
    )
    .unwrap();
    vates()
        .args(["pamela", "bound", &f.display().to_string()])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("bad.pam:3:32"))
        .stderr(predicate::str::contains("expected an expression"));
}

#[test]
fn bad_flag_is_a_usage_error() {
    vates()
        .args(["pamela", "bound", &example("mrm.pam"), "--bogus"])
        .assert()
        .code(2);
    vates()
        .args(["pamela", "bound", &example("mrm.pam"), "--format", "xml"])
        .assert()
        .code(2);
    vates().args(["pamela"]).assert().code(2);
}

#[test]
fn malformed_define_is_a_usage_error() {
    for bad in ["N", "N=abc", "=3", "P=5..1", "P=1..4:0"] {
        vates()
            .args(["pamela", "bound", &example("mrm.pam"), "-D", bad])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("-D"));
    }
}

#[test]
fn range_given_to_bound_or_sim_is_a_usage_error() {
    for cmd in ["bound", "sim"] {
        vates()
            .args(["pamela", cmd, &example("mrm.pam"), "-D", "P=1..4"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("vates pamela sweep"));
    }
}

#[test]
fn model_errors_exit_1() {
    let mrm = example("mrm.pam");
    // A name given by a flag that the model lacks is a usage error (status 2).
    vates()
        .args(["pamela", "bound", &mrm, "--root", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--root nope: the model has no process `nope`",
        ));
    vates()
        .args(["pamela", "bound", &mrm, "-D", "X=1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "-D X=1: the model has no parameter `X`",
        ));
    vates()
        .args(["pamela", "bound", &mrm, "-D", "P=0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("P = 0"));
    vates()
        .args(["pamela", "bound", "/no/such/model.pam"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("/no/such/model.pam"));
}

#[test]
fn unwritable_trace_names_the_path() {
    let mrm = example("mrm.pam");
    let mut args = vec!["pamela", "sim", &mrm, "--trace", "/nonexistent-dir/t.json"];
    args.extend(MRM_P4);
    vates()
        .args(&args)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("/nonexistent-dir/t.json"));
}

// ---------------------------------------------------------------------------------------
// demo

#[test]
fn demo_tells_the_story_and_writes_plots() {
    let dir = tempdir("demo");
    let out = vates()
        .args(["demo", "--out", &dir.display().to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = String::from_utf8(out.stdout).unwrap();
    // The MRM closed form and its table.
    assert!(s.contains("T^l   = N*max("), "{s}");
    assert!(s.contains("closed form: evaluates in O(1)"), "{s}");
    let row4 = s
        .lines()
        .find(|l| l.contains("<- P*"))
        .expect("P* is marked");
    assert_eq!(
        row4.split_whitespace().take(5).collect::<Vec<_>>(),
        vec!["4", "40", "43", "40", "0.930"]
    );
    // ADI: the j-axis wins by a factor P.
    let adi8 = s
        .lines()
        .find(|l| l.split_whitespace().collect::<Vec<_>>() == ["8", "130816", "1046528", "8x"]);
    assert!(adi8.is_some(), "{s}");
    // Table 1, last row.
    assert!(
        s.lines()
            .any(|l| l.contains("(0,1)^3 || (0,2)^3") && l.contains("5.4004")),
        "{s}"
    );
    // Memory banks: stride 8 hits one bank.
    assert!(
        s.lines()
            .any(|l| l.split_whitespace().take(3).collect::<Vec<_>>() == ["8", "1", "256"]),
        "{s}"
    );
    // Message passing: Table 6-4 at p = 3 with its exact probabilities, Table 6-3 beside it,
    // and the merged parametric result.
    assert!(
        s.lines().any(|l| l.split_whitespace().collect::<Vec<_>>()
            == ["3", "669668", "1334336:", "1/16,", "1335335:", "3/4,", "1335336:", "3/16"]),
        "{s}"
    );
    assert!(
        s.contains("Overlap      max(tcomp, 1000*b + 100)   on true"),
        "{s}"
    );
    // Why the bus is slower: in its slowest run at p = 3 each of the two receivers waits for
    // the bus about as long as one message transfer (one message on the bus at a time).
    assert!(
        s.contains("slowest bus run at p = 3 (1335336)")
            && s.contains("\n  Node(1,2) 332333, Node(2,2) 333334\n"),
        "{s}"
    );
    // Task graphs: FIFO runs the big Polyroots task last (425.29 at P = 2), LPT does not
    // (368.66); BLAST at P = 1 takes its work, 382.9127 s.
    assert!(
        s.lines().any(
            |l| l.split_whitespace().collect::<Vec<_>>() == ["2", "425.29", "368.66", "364.11"]
        ),
        "{s}"
    );
    assert!(
        s.lines()
            .any(|l| l.split_whitespace().take(2).collect::<Vec<_>>() == ["1", "382.9127"]),
        "{s}"
    );
    for f in [
        "mrm_sweep.svg",
        "mrm_gantt.svg",
        "adi.svg",
        "membank.svg",
        "blast_gantt.svg",
        "etccs_scatter.svg",
    ] {
        let svg = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(svg.starts_with("<svg"), "{f}");
    }
    // The scatter sweep: one line per scatter (each has one time per p).
    let sweep = std::fs::read_to_string(dir.join("etccs_scatter.svg")).unwrap();
    for agent in [
        "RepeatedBus",
        "NonBlockingBus",
        "RepeatedPerfect",
        "NonBlockingPerfect",
    ] {
        assert!(
            sweep.contains(&format!("\n{agent}\n")),
            "legend names {agent}"
        );
    }
    let trace: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("mrm_trace.json")).unwrap())
            .unwrap();
    assert!(trace["traceEvents"].is_array());
}

#[test]
fn version_and_help() {
    vates()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("pamela"))
        .stdout(predicate::str::contains("demo"));
    vates()
        .args(["pamela", "sweep", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--engine"));
}

#[test]
fn bound_says_when_the_model_is_stochastic() {
    let out = vates()
        .args([
            "pamela",
            "bound",
            &example("branching.pam"),
            "-D",
            "N=100",
            "-D",
            "p=0.3",
            "-D",
            "tau=2",
            "--format",
            "json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["stochastic"], true);
    assert_eq!(v["tl"]["value"], 60.0);
    let out = vates()
        .args(["pamela", "bound", &example("mrm.pam"), "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["stochastic"], false);
    vates()
        .args(["pamela", "bound", &example("branching.pam")])
        .assert()
        .success()
        .stdout(predicate::str::contains("E[T] >= T^l"));
}

#[test]
fn sweep_json_is_one_pretty_document_within_its_limit() {
    let mrm = example("mrm.pam");
    let args = [
        "pamela", "sweep", &mrm, "-D", "P=1,2", "-D", "N=10", "-D", "tau_l=3", "-D", "tau_s=1",
        "--format", "json",
    ];
    let text = stdout(&args);
    // Pretty, as every command's JSON: an object per line group, keys in column order.
    assert!(
        text.starts_with("{\n  \"parameters\": [\n    \"P\",\n"),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
    assert_eq!(v["points"][1]["P"], 2);
    assert_eq!(v["points"][1]["sim"], 41);
    // A document that would hold more than 10^6 points is refused before the sweep runs.
    let err = fails(
        &[
            "pamela",
            "sweep",
            &mrm,
            "-D",
            "P=1..2000",
            "-D",
            "N=1..1000",
            "-D",
            "tau_l=3",
            "-D",
            "tau_s=1",
            "--format",
            "json",
            "--engine",
            "bound",
        ],
        1,
    );
    assert!(
        err.contains("2000000 points, more than the 1000000 a JSON document"),
        "{err}"
    );
    assert!(err.contains("--csv FILE"), "{err}");
}

/// A PAMELA model's times are in the unit its durations were written in: the text reports
/// say so once, the LaTeX and JSON reports carry no prose.
#[test]
fn text_reports_say_times_are_in_the_models_unit() {
    let unit = "\n  times in the model's time unit (the unit of its delay and use durations)\n";
    let m = example("mrm.pam");
    let values = ["-D", "N=10", "-D", "tau_l=3", "-D", "tau_s=1"];
    let bound = stdout(&["pamela", "bound", &m]);
    let sim = stdout(&[&["pamela", "sim", &m, "-D", "P=4"][..], &values[..]].concat());
    let sweep = stdout(&[&["pamela", "sweep", &m, "-D", "P=1..4"][..], &values[..]].concat());
    for s in [bound, sim, sweep] {
        assert_eq!(s.matches(unit).count(), 1, "{s}");
    }
    let latex = stdout(&["pamela", "bound", &m, "--format", "latex"]);
    assert!(!latex.contains("time unit"), "{latex}");
    let sim = stdout(
        &[
            &["pamela", "sim", &m, "-D", "P=4", "--format", "json"][..],
            &values[..],
        ]
        .concat(),
    );
    assert!(!sim.contains("time unit"), "{sim}");
}
