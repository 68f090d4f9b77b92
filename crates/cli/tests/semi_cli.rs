//! End-to-end tests of `vates semi check|fit|predict|validate` (the semi-empirical method of
//! Xu, Zhang & Sun) on the example models and the committed real-run data of
//! `examples/semi/`. The real-run data are re-measured from time to time, so the tests
//! check what follows from the files (the fit's shape, the table's arithmetic), never their
//! numbers.

use std::path::Path;

use serde_json::Value;

mod common;
use common::{example_in, fails, json, output_with_code, stdout, tempdir};

fn ex(name: &str) -> String {
    example_in("semi", name)
}

/// Writes `text` to `dir/name` and returns the path as a string.
fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

/// The rows of a CSV file (header excluded) as maps from column to field.
fn csv_rows(path: &str) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).expect("read");
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .expect("a header")
        .split(',')
        .map(|h| h.trim().to_string())
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(|f| f.trim().to_string()))
                .collect()
        })
        .collect()
}

const GE_COEFFS: [&str; 4] = ["c_init", "c_pivot", "c_elim", "c_solve"];

#[test]
fn check_lists_parameters_coefficients_and_segments() {
    let out = stdout(&["semi", "check", &ex("ge.tg")]);
    // A line per kind of declaration, with the names.
    for line in [
        "  parameters   N, P",
        "  coefficients c_init, c_pivot, c_elim, c_solve",
        "  threads      main, worker[i in P]",
        "  barriers     step",
        "  locks        -",
    ] {
        assert!(out.lines().any(|l| l == line), "{line}: {out}");
    }
    // Segments in order of appearance: main's, then the workers'.
    assert!(
        out.lines()
            .any(|l| l == "  segments     pivot, solve, init, elim"),
        "{out}"
    );
    // Without -D nothing is instantiated.
    assert!(!out.contains('Θ'), "{out}");
    let q = stdout(&["semi", "check", &ex("queue.tg")]);
    assert!(q.lines().any(|l| l == "  locks        state"), "{q}");
    assert!(q.lines().any(|l| l == "  segments     item, update"), "{q}");
}

#[test]
fn check_with_bindings_prints_theta_counted_by_hand() {
    let (n, p) = (100u64, 4u64);
    // ge.tg: main forks, meets the workers at the init barrier, at two barriers per step
    // k = 1..N-1, and joins; each worker passes the init barrier and two per step.
    let main = 1 + 1 + 2 * (n - 1) + 1;
    let worker = 1 + 2 * (n - 1);
    let theta = main + p * worker;
    assert_eq!(theta, 997);
    let out = stdout(&["semi", "check", &ex("ge.tg"), "-D", "N=100", "-D", "P=4"]);
    assert!(
        out.contains(&format!("at N=100, P=4: Θ = {theta} event processings")),
        "{out}"
    );
    // forkjoin.tg: a fork and a join; the workers have no events.
    let out = stdout(&["semi", "check", &ex("forkjoin.tg"), "-D", "P=3"]);
    assert!(out.contains("at P=3: Θ = 2 event processings"), "{out}");
}

/// The blocks of `fit`'s text output: a header line and its indented lines.
fn blocks(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("  ") {
            out.last_mut()
                .expect("a header first")
                .1
                .push(line.trim().to_string());
        } else if !line.is_empty() {
            out.push((line.to_string(), Vec::new()));
        }
    }
    out
}

#[test]
fn fit_prints_a_block_per_processor_count() {
    let out = stdout(&[
        "semi",
        "fit",
        &ex("ge.tg"),
        "--samples",
        &ex("ge_samples.csv"),
    ]);
    let b = blocks(&out);
    let heads: Vec<&str> = b.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(b.len(), 2, "{out}");
    assert!(
        heads[0].starts_with("P=1: 4 coefficients from 2 sample points"),
        "{out}"
    );
    assert!(
        heads[1].starts_with("P=2: 4 coefficients from 2 sample points"),
        "{out}"
    );
    for (_, lines) in &b {
        // Every coefficient, in the model's order, with a value.
        let names: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.split_once(" = "))
            .map(|(n, _)| n)
            .filter(|n| n.starts_with("c_"))
            .collect();
        assert_eq!(names, GE_COEFFS, "{out}");
    }
}

#[test]
fn fit_json_has_the_coefficients_of_every_group() {
    let v = json(&[
        "semi",
        "fit",
        &ex("ge.tg"),
        "--samples",
        &ex("ge_samples.csv"),
        "--format",
        "json",
    ]);
    let groups = v.as_array().expect("an array of groups");
    let labels: Vec<&str> = groups
        .iter()
        .map(|g| g["group"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["P=1", "P=2"]);
    for g in groups {
        assert_eq!(g["points"], 2, "{g}");
        let coeffs = g["coefficients"].as_array().unwrap();
        let names: Vec<&str> = coeffs.iter().map(|c| c["name"].as_str().unwrap()).collect();
        assert_eq!(names, GE_COEFFS);
        for c in coeffs {
            // Times are sums of non-negative costs: a negative coefficient is held at 0.
            let x = num(&c["value"]);
            assert!(x.is_finite() && x >= 0.0, "{c}");
        }
        assert!(num(&g["rank"]) >= 1.0 && num(&g["rank"]) <= 6.0, "{g}");
        assert!(g["merges"].is_array(), "{g}");
    }
    // `solve` (main's, c_solve·N²) is the only segment of c_solve, and the rows are
    // relative errors of equal weight: c_solve lies between the two sample points' median
    // solve time over N².
    let rows = csv_rows(&ex("ge_samples.csv"));
    for g in groups {
        let p = g["group"].as_str().unwrap().trim_start_matches("P=");
        let per_point: Vec<f64> = ["240", "320"]
            .iter()
            .map(|n| {
                let mut t: Vec<f64> = rows
                    .iter()
                    .filter(|r| r["N"] == *n && r["P"] == p && r["segment"] == "solve")
                    .map(|r| r["seconds"].parse().unwrap())
                    .collect();
                assert!(!t.is_empty(), "no solve samples at N={n}, P={p}");
                t.sort_by(f64::total_cmp);
                let k = t.len();
                let median = if k % 2 == 1 {
                    t[k / 2]
                } else {
                    (t[k / 2 - 1] + t[k / 2]) / 2.0
                };
                median / n.parse::<f64>().unwrap().powi(2)
            })
            .collect();
        let lo = per_point[0].min(per_point[1]);
        let hi = per_point[0].max(per_point[1]);
        let c_solve = g["coefficients"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "c_solve")
            .map(|c| num(&c["value"]))
            .unwrap();
        assert!(
            c_solve >= lo * (1.0 - 1e-9) && c_solve <= hi * (1.0 + 1e-9),
            "P={p}: c_solve {c_solve} outside [{lo}, {hi}]"
        );
    }
}

#[test]
fn fit_by_none_fits_all_samples_together() {
    let out = stdout(&[
        "semi",
        "fit",
        &ex("ge.tg"),
        "--samples",
        &ex("ge_samples.csv"),
        "--by",
        "none",
    ]);
    let b = blocks(&out);
    assert_eq!(b.len(), 1, "{out}");
    assert!(
        b[0].0
            .starts_with("all samples: 4 coefficients from 4 sample points"),
        "{out}"
    );
    let v = json(&[
        "semi",
        "fit",
        &ex("ge.tg"),
        "--samples",
        &ex("ge_samples.csv"),
        "--by",
        "none",
        "--format",
        "json",
    ]);
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert_eq!(v[0]["group"], "all samples");
    assert_eq!(v[0]["points"], 4);
    assert_eq!(v[0]["coefficients"].as_array().unwrap().len(), 4);
}

#[test]
fn predict_with_given_coefficients_shows_each_thread() {
    let out = stdout(&[
        "semi",
        "predict",
        &ex("forkjoin.tg"),
        "-D",
        "P=3",
        "-C",
        "c_unit=1",
    ]);
    let first = out.lines().next().unwrap();
    assert!(
        first.ends_with(
            "forkjoin.tg at P=3: 3 s  (Θ = 2 events, 9 steps; Θ = 2 with the loop entries and exits the paper counts)"
        ),
        "{out}"
    );
    let row = |name: &str| -> Vec<String> {
        out.lines()
            .map(str::split_whitespace)
            .map(|w| w.map(String::from).collect::<Vec<_>>())
            .find(|w| w.first().map(String::as_str) == Some(name))
            .unwrap_or_else(|| panic!("no row {name}: {out}"))
    };
    assert!(
        out.contains("thread") && out.contains("barrier wait"),
        "{out}"
    );
    // main: starts at 0, ends at 3, all of it waiting for the join.
    assert_eq!(
        row("main"),
        [
            "main", "0", "s", "3", "s", "0", "s", "0", "s", "0", "s", "0", "s", "3", "s", "0", "s",
            "0", "s"
        ]
    );
    // worker[i] computes i + 1 units.
    for i in 0..3 {
        let r = row(&format!("worker[{i}]"));
        assert_eq!(r[3], (i + 1).to_string(), "{out}");
        assert_eq!(r[5], (i + 1).to_string(), "{out}");
    }
    assert!(
        out.contains(
            "all threads: compute 66.7%, barrier wait 0.0% (of which load imbalance 0.0%)"
        ),
        "{out}"
    );
    assert!(out.contains("join wait 33.3%"), "{out}");
}

#[test]
fn predict_json_time_is_the_longest_worker() {
    let v = json(&[
        "semi",
        "predict",
        &ex("forkjoin.tg"),
        "-D",
        "P=3",
        "-C",
        "c_unit=1",
        "--format",
        "json",
    ]);
    // Workers of 1, 2 and 3 units, started together; fork and join free without --machine.
    assert_eq!(v["time"], 3.0, "{v}");
    assert_eq!(v["events"], 2, "{v}");
    assert_eq!(v["params"]["P"], 3.0, "{v}");
    let threads = v["threads"].as_array().unwrap();
    let names: Vec<&str> = threads
        .iter()
        .map(|t| t["thread"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["main", "worker[0]", "worker[1]", "worker[2]"]);
    assert_eq!(threads[0]["join_wait"], 3.0);
    for (i, t) in threads[1..].iter().enumerate() {
        assert_eq!(num(&t["compute"]), (i + 1) as f64, "{t}");
        assert_eq!(num(&t["end"]), (i + 1) as f64, "{t}");
        assert_eq!(t["events"], 0.0, "{t}");
    }
    assert!(num(&v["estimate_seconds"]) >= 0.0);
    // One processor runs the workers one after the other.
    let one = json(&[
        "semi",
        "predict",
        &ex("forkjoin.tg"),
        "-D",
        "P=3",
        "-C",
        "c_unit=1",
        "--processors",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(one["time"], 6.0, "{one}");
}

#[test]
fn predict_writes_a_trace_and_a_gantt_chart() {
    let dir = tempdir("semi-timeline");
    let trace = dir.join("t.json").display().to_string();
    let gantt = dir.join("g.svg").display().to_string();
    stdout(&[
        "semi",
        "predict",
        &ex("forkjoin.tg"),
        "-D",
        "P=3",
        "-C",
        "c_unit=1",
        "--trace",
        &trace,
        "--gantt",
        &gantt,
    ]);
    let t: Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).expect("the trace is JSON");
    let events = t["traceEvents"].as_array().expect("Chrome trace events");
    let lanes: Vec<&str> = events
        .iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(lanes, ["main", "worker[0]", "worker[1]", "worker[2]"]);
    // A compute slice per worker (1, 2, 3 s: a million microseconds a second by default)
    // and main's join wait.
    let mut computes: Vec<f64> = events
        .iter()
        .filter(|e| e["ph"] == "X" && e["name"] == "compute")
        .map(|e| num(&e["dur"]))
        .collect();
    computes.sort_by(f64::total_cmp);
    assert_eq!(computes, [1e6, 2e6, 3e6], "{t}");
    assert!(
        events
            .iter()
            .any(|e| e["name"] == "join wait" && num(&e["dur"]) == 3e6),
        "{t}"
    );
    let svg = std::fs::read_to_string(&gantt).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("worker[2]") && svg.contains("forkjoin.tg"));
}

/// `vates semi validate` of GE's shipped samples against the runs of `measured`.
fn ge_validate(measured: &str, more: &[&str]) -> Vec<String> {
    let mut a = vec![
        "semi".to_string(),
        "validate".into(),
        ex("ge.tg"),
        "--samples".into(),
        ex("ge_samples.csv"),
        "--measured".into(),
        measured.into(),
    ];
    a.extend(more.iter().map(|m| m.to_string()));
    a
}

/// `vates semi predict` of GE at (N, P) with the shipped samples and machine profile.
fn ge_predict_on_the_machine(n: &str, p: &str, more: &[&str]) -> Vec<String> {
    let mut a = vec![
        "semi".to_string(),
        "predict".into(),
        ex("ge.tg"),
        "-D".into(),
        format!("N={n}"),
        "-D".into(),
        format!("P={p}"),
        "--samples".into(),
        ex("ge_samples.csv"),
        "--machine".into(),
        ex("machine.json"),
    ];
    a.extend(more.iter().map(|m| m.to_string()));
    a
}

#[test]
fn predict_beyond_the_samples_warns_of_another_cache_level() {
    let args = |n: &str| ge_predict_on_the_machine(n, "2", &[]);
    // 8·1000² bytes = 7.6 MiB, past the profile's last cache boundary (4 MiB); the samples'
    // 8·240² and 8·320² bytes are inside it.
    let a = args("1000");
    let (out, err) = output_with_code(&a, 0);
    assert!(out.contains("ge.tg at N=1000, P=2: "), "{out}");
    assert!(
        err.contains("warning: the target's working set (7.6 MiB) is in main memory"),
        "{err}"
    );
    assert!(err.contains("a sample's (450 KiB) in cache level"), "{err}");
    // The machine's event costs count: the events column is not all zero.
    assert!(
        out.contains("event costs") && !out.contains("event costs 0.0%"),
        "{out}"
    );
    // At N = 400 (1.2 MiB) the probe's boundaries place target and samples alike (up to
    // 2 MiB), but by the cache sizes the system reports the sample at N = 240 (450 KiB)
    // fits in the 512 KiB level-2 cache and the one at N = 320 and the target do not: the
    // samples span two levels.
    let a = args("400");
    let (_, err) = output_with_code(&a, 0);
    assert!(
        err.contains(
            "the samples' working sets (450 KiB, 800 KiB) span cache level 2 and cache level 3 (by the cache sizes the system reports"
        ) && err.contains("the target's (1.2 MiB) is in cache level 3"),
        "{err}"
    );
}

#[test]
fn validate_ge_prints_the_papers_table() {
    let out = stdout(&[
        "semi",
        "validate",
        &ex("ge.tg"),
        "--samples",
        &ex("ge_samples.csv"),
        "--measured",
        &ex("ge_measured.csv"),
    ]);
    // A line per measured point, then the table.
    for p in ["N=1280, P=1", "N=1600, P=1", "N=1280, P=2", "N=1600, P=2"] {
        assert!(out.contains(&format!("  {p}: measured ")), "{out}");
    }
    let lines: Vec<&str> = out.lines().collect();
    let h = lines
        .iter()
        .position(|l| {
            *l == "No. of processors | Average error | Prediction ratio (average) | Prediction ratio (max)"
        })
        .unwrap_or_else(|| panic!("no table header: {out}"));
    let rows: Vec<Vec<&str>> = lines[h + 2..]
        .iter()
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert_eq!(rows[0][0], "1");
    assert_eq!(rows[1][0], "2");
    for r in &rows {
        assert_eq!(r.len(), 4, "{out}");
        assert!(r[1].ends_with('%'), "{out}");
    }
}

#[test]
fn validate_json_table_is_the_mean_of_its_points_errors() {
    let measured = ex("ge_measured.csv");
    let v = json(&[
        "semi",
        "validate",
        &ex("ge.tg"),
        "--samples",
        &ex("ge_samples.csv"),
        "--measured",
        &measured,
        "--sample-seconds",
        "0.5",
        "--format",
        "json",
    ]);
    let points = v["points"].as_array().expect("points");
    let table = v["table"].as_array().expect("table");
    assert_eq!(points.len(), 4, "{v}");
    assert_eq!(table.len(), 2, "{v}");
    // Each point's actual time is the median of its repetitions in the file, E its
    // relative error.
    let rows = csv_rows(&measured);
    for p in points {
        let point = p["point"].as_str().unwrap();
        let times: Vec<f64> = rows
            .iter()
            .filter(|r| format!("N={}, P={}", r["N"], r["P"]) == point)
            .map(|r| r["seconds"].parse::<f64>().unwrap())
            .collect();
        assert!(!times.is_empty(), "{point}");
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let k = sorted.len();
        let median = if k % 2 == 1 {
            sorted[k / 2]
        } else {
            (sorted[k / 2 - 1] + sorted[k / 2]) / 2.0
        };
        let actual = num(&p["actual"]);
        assert!((actual - median).abs() <= 1e-12 * median, "{p}: {median}");
        let predicted = num(&p["predicted"]);
        assert!(predicted > 0.0, "{p}");
        let e = (actual - predicted).abs() / actual;
        assert!((num(&p["error"]) - e).abs() <= 1e-12, "{p}");
    }
    // A row per processor count: Ē the mean of E, R = actual / (T_sample + T_estimate).
    for (row, procs) in table.iter().zip([1, 2]) {
        assert_eq!(row["processors"], procs.to_string(), "{row}");
        let mine: Vec<&Value> = points.iter().filter(|p| p["processors"] == procs).collect();
        assert_eq!(mine.len(), 2, "{v}");
        let errors: Vec<f64> = mine.iter().map(|p| num(&p["error"])).collect();
        let mean_error = errors.iter().sum::<f64>() / 2.0;
        assert!(
            (num(&row["average_error"]) - mean_error).abs() <= 1e-12,
            "{row}"
        );
        let ratios: Vec<f64> = mine
            .iter()
            .map(|p| num(&p["actual"]) / (0.5 + num(&p["estimate_seconds"])))
            .collect();
        let mean_ratio = ratios.iter().sum::<f64>() / 2.0;
        let max_ratio = ratios.iter().copied().fold(f64::MIN, f64::max);
        assert!(
            (num(&row["average_ratio"]) - mean_ratio).abs() <= 1e-9 * mean_ratio,
            "{row}"
        );
        assert!(
            (num(&row["max_ratio"]) - max_ratio).abs() <= 1e-9 * max_ratio,
            "{row}"
        );
    }
}

#[test]
fn a_syntax_error_is_located_with_a_caret() {
    let dir = tempdir("semi-syntax");
    let bad = write(
        &dir,
        "bad.tg",
        "param P;\ncoeff c;\nthread main {\n  compute work = c * ;\n}\n",
    );
    let err = fails(&["semi", "check", &bad], 1);
    // At the `;` that ended the expression.
    assert!(err.contains("bad.tg:4:22"), "{err}");
    assert!(err.contains("expected an operand"), "{err}");
    assert!(err.contains("found `;`"), "{err}");
    assert!(err.contains("compute work = c * ;"), "{err}");
    assert!(err.contains("╰── here"), "{err}");
    // The same model fails the same way in every command that reads it.
    let err = fails(&["semi", "predict", &bad, "-D", "P=1"], 1);
    assert!(err.contains("bad.tg:4:22"), "{err}");
}

#[test]
fn a_missing_parameter_says_how_to_bind_it() {
    let err = fails(&["semi", "check", &ex("ge.tg"), "-D", "P=4"], 1);
    assert!(err.contains("parameters without a value: `N`"), "{err}");
    assert!(err.contains("bind with -D N=…"), "{err}");
    let err = fails(
        &["semi", "predict", &ex("forkjoin.tg"), "-C", "c_unit=1"],
        1,
    );
    assert!(err.contains("bind with -D P=…"), "{err}");
}

#[test]
fn an_unknown_coefficient_or_a_range_is_a_usage_error() {
    let err = fails(
        &[
            "semi",
            "predict",
            &ex("forkjoin.tg"),
            "-D",
            "P=3",
            "-C",
            "c_unti=1",
        ],
        2,
    );
    assert!(
        err.contains("-C c_unti: the model has no coefficient `c_unti`"),
        "{err}"
    );
    let err = fails(
        &[
            "semi",
            "predict",
            &ex("forkjoin.tg"),
            "-D",
            "P=3",
            "-C",
            "c_unit",
        ],
        2,
    );
    assert!(err.contains("`c_unit` is not NAME=VALUE"), "{err}");
    let err = fails(&["semi", "check", &ex("forkjoin.tg"), "-D", "P=1..4"], 2);
    assert!(err.contains("`-D P=1..4` gives several values"), "{err}");
}

#[test]
fn a_misspelt_segment_in_the_samples_gets_a_suggestion() {
    let dir = tempdir("semi-segment");
    let s = write(&dir, "s.csv", "P,segment,seconds\n2,work,0.5\n2,wrok,0.5\n");
    let err = fails(&["semi", "fit", &ex("forkjoin.tg"), "--samples", &s], 1);
    assert!(err.contains("s.csv:3:3"), "{err}");
    assert!(err.contains("the model has no segment `wrok`"), "{err}");
    assert!(err.contains("did you mean `work`?"), "{err}");
    // The caret's label says what is wrong with the field.
    assert!(err.contains("── unknown"), "{err}");
    // predict reads the samples the same way.
    let err = fails(
        &[
            "semi",
            "predict",
            &ex("forkjoin.tg"),
            "-D",
            "P=2",
            "--samples",
            &s,
        ],
        1,
    );
    assert!(err.contains("did you mean `work`?"), "{err}");
}

#[test]
fn a_machine_file_that_is_no_profile_says_to_probe() {
    let dir = tempdir("semi-machine");
    let m = write(&dir, "m.json", "{\"a\": 1}\n");
    let err = fails(
        &[
            "semi",
            "predict",
            &ex("forkjoin.tg"),
            "-D",
            "P=2",
            "-C",
            "c_unit=1",
            "--machine",
            &m,
        ],
        1,
    );
    assert!(err.contains("m.json: not a vates machine profile"), "{err}");
    assert!(err.contains("vates probe -o machine.json"), "{err}");
    // Not JSON at all: the same hint.
    let err = fails(
        &ge_validate(&ex("ge_measured.csv"), &["--machine", &ex("ge.tg")]),
        1,
    );
    assert!(err.contains("is not JSON"), "{err}");
    assert!(err.contains("vates probe"), "{err}");
}

#[test]
fn a_graph_over_max_steps_is_refused_with_theta() {
    let ge = ex("ge.tg");
    let args = |flag: &'static str, limit: &'static str| {
        let mut a = vec!["semi", "predict", &ge, "-D", "N=100", "-D", "P=4"];
        for c in ["c_init=1", "c_pivot=1", "c_elim=1", "c_solve=1"] {
            a.extend(["-C", c]);
        }
        a.extend([flag, limit]);
        a
    };
    let err = fails(&args("--max-steps", "500"), 1);
    assert!(err.contains("Θ = 997 event processings"), "{err}");
    assert!(err.contains("over --max-steps 500"), "{err}");
    assert!(err.contains("raise --max-steps"), "{err}");
    // The graph's ops have their own limit and flag.
    let err = fails(&args("--max-ops", "100"), 1);
    assert!(
        err.contains("over --max-ops 100") && err.contains("raise --max-ops"),
        "{err}"
    );
    assert!(stdout(&args("--max-ops", "100000")).contains("at N=100, P=4: "));
}

#[test]
fn a_deadlock_names_the_barrier() {
    let dir = tempdir("semi-deadlock");
    // P workers at a barrier of P + 1 participants: nobody comes to release them.
    let m = write(
        &dir,
        "dl.tg",
        "param P;\nbarrier sync(P + 1);\nclass worker[i in P] {\n  compute work = 1;\n  barrier sync;\n}\n",
    );
    let err = fails(&["semi", "predict", &m, "-D", "P=2"], 1);
    assert!(err.contains("deadlock"), "{err}");
    assert!(
        err.contains("barrier `sync` expects 3 threads but 2 arrive"),
        "{err}"
    );
    assert!(
        err.contains("`worker[0]` waits for barrier `sync`"),
        "{err}"
    );
    assert!(
        err.contains("`worker[1]` waits for barrier `sync`"),
        "{err}"
    );
}

/// A coefficient without a value says how to give one; a `--by` that is no parameter is a
/// usage error naming the parameters.
#[test]
fn a_missing_coefficient_and_a_misspelt_by_say_what_to_do() {
    let err = fails(&["semi", "predict", &ex("forkjoin.tg"), "-D", "P=3"], 1);
    assert!(
        err.contains("coefficients without a value: `c_unit`"),
        "{err}"
    );
    assert!(
        err.contains("fit them to sample runs with --samples FILE, or give them with -C c_unit=…"),
        "{err}"
    );
    let err = fails(
        &[
            "semi",
            "fit",
            &ex("ge.tg"),
            "--samples",
            &ex("ge_samples.csv"),
            "--by",
            "p",
        ],
        2,
    );
    assert!(
        err.contains("--by p: the model has no parameter `p` (its parameters: N, P"),
        "{err}"
    );
}

/// A sweep predicts every point of the grid (here each P with the coefficients fitted to
/// the samples at that P), as a table, CSV, JSON and a plot; its point equals `predict`'s.
#[test]
fn sweep_predicts_every_point_as_predict_does() {
    let dir = tempdir("semi-sweep");
    let csv = dir.join("ge.csv");
    let svg = dir.join("ge.svg");
    let (csv_s, svg_s) = (csv.to_str().unwrap(), svg.to_str().unwrap());
    let samples = ex("ge_samples.csv");
    let common = [
        "--samples",
        samples.as_str(),
        "-D",
        "N=400..800:200",
        "-D",
        "P=1,2",
    ];
    let mut args = vec!["semi", "sweep"];
    let model = ex("ge.tg");
    args.push(&model);
    args.extend_from_slice(&common);
    args.extend_from_slice(&["--csv", csv_s, "--plot", svg_s]);
    let text = stdout(&args);
    assert!(text.contains("N  P"), "{text}");
    let rows: Vec<String> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(
        rows[0],
        "N,P,time,compute,barrier_wait,imbalance,lock_wait,join_wait,recv_wait,event_costs,theta"
    );
    assert_eq!(rows.len(), 1 + 3 * 2);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    // The point N=600, P=2 is predict's.
    let row: Vec<&str> = rows
        .iter()
        .find(|r| r.starts_with("600,2,"))
        .unwrap()
        .split(',')
        .collect();
    let p = json(&[
        "semi",
        "predict",
        &model,
        "--samples",
        &samples,
        "-D",
        "N=600",
        "-D",
        "P=2",
        "--format",
        "json",
    ]);
    let swept: f64 = row[2].parse().unwrap();
    assert!(
        (swept - p["time"].as_f64().unwrap()).abs() < 1e-12 * swept,
        "{swept} vs {p}"
    );
    // The imbalance column is the threads' load imbalance summed, as predict gives it.
    let imbalance: f64 = p["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| num(&t["imbalance"]))
        .sum();
    let swept: f64 = row[5].parse().unwrap();
    assert!(
        (swept - imbalance).abs() <= 1e-12 * imbalance.max(1e-300),
        "{swept} vs {imbalance}"
    );
    // JSON: an array of points.
    let mut jargs = args[..args.len() - 4].to_vec();
    jargs.extend_from_slice(&["--format", "json"]);
    let v = json(&jargs);
    assert_eq!(v.as_array().unwrap().len(), 6);
    assert_eq!(v[0]["N"], 400);
    // A grid over the limit is refused before any work (a limit hit: status 1).
    let err = fails(
        &[
            "semi",
            "sweep",
            &model,
            "-C",
            "c_init=1",
            "-D",
            "N=1..1000000",
            "-D",
            "P=1..2",
        ],
        1,
    );
    assert!(err.contains("100000"), "{err}");
}

/// Hostile inputs end in clear errors, fast: a binary model, /dev/zero as any input file,
/// a parameter of 1e308, an expression nested a million deep.
#[test]
fn hostile_inputs_are_clear_errors() {
    let dir = tempdir("semi-hostile");
    let bin = dir.join("bin.tg");
    std::fs::write(&bin, [0x84u8, 0xff, 0x00, 0x13]).unwrap();
    let err = fails(&["semi", "check", bin.to_str().unwrap()], 1);
    assert!(
        err.contains("is not a text file: byte 2 is 0x00 (NUL)"),
        "{err}"
    );
    let model = ex("ge.tg");
    let err = fails(&["semi", "check", "/dev/zero"], 1);
    assert!(
        err.contains("`/dev/zero` is not a text file: byte 0 is 0x00 (NUL)")
            && err.contains("give the path of a thread-graph model (`.tg`), a text file"),
        "{err}"
    );
    let err = fails(&["semi", "fit", &model, "--samples", "/dev/zero"], 1);
    assert!(err.contains("give the path of a samples CSV"), "{err}");
    // Text past the size limit is refused at the limit, which the message names.
    let huge = dir.join("huge.tg");
    std::fs::write(&huge, "// padding\n".repeat(7 << 20)).unwrap();
    let err = fails(&["semi", "check", huge.to_str().unwrap()], 1);
    assert!(
        err.contains("larger than 64 MiB, the limit for a thread-graph model"),
        "{err}"
    );
    let big = write(&dir, "big.tg", "param N; thread t { loop N { mark m; } }");
    let err = fails(&["semi", "predict", &big, "-D", "N=1e308"], 1);
    assert!(err.contains("1e+308, more than can be counted"), "{err}");
    let deep = write(
        &dir,
        "deep.tg",
        &format!(
            "param N; coeff c; thread t {{ compute a = {}c{}; }}",
            "(".repeat(1_000_000),
            ")".repeat(1_000_000)
        ),
    );
    let err = fails(&["semi", "check", &deep], 1);
    assert!(err.contains("nests deeper than"), "{err}");
}

/// Samples with whole-program times only (`run` rows) are fitted through Algorithm G: a
/// class of P workers sharing N units of work, then a barrier, timed at two sizes per P.
/// With the machine's barrier cost the coefficient is what remains of each run's time.
/// GE's four coefficients need more than its two run times per P: a clear error.
#[test]
fn fit_to_whole_program_times_runs_algorithm_g() {
    let dir = tempdir("semi-whole");
    let model = write(
        &dir,
        "w.tg",
        "param N;\nparam P;\ncoeff c_work;\nbarrier b(P);\nclass w[i in P] {\n    compute work = c_work * N / P;\n    barrier b;\n}\n",
    );
    let runs = write(
        &dir,
        "runs.csv",
        "N,P,segment,seconds\n1000,1,run,0.001\n2000,1,run,0.002\n1000,2,run,0.0005\n2000,2,run,0.001\n1000,2,run,0.0006\n",
    );
    let out = json(&[
        "semi",
        "fit",
        &model,
        "--samples",
        &runs,
        "--format",
        "json",
    ]);
    let fits = out.as_array().expect("one fit per P");
    assert_eq!(fits.len(), 2);
    for f in fits {
        // A time linear in the coefficient: settled after one or two solves.
        let k = num(&f["whole_program_linearisations"]);
        assert!((1.0..=2.0).contains(&k), "{f}");
        assert_eq!(num(&f["points"]), 2.0);
        // The median of the two runs at N = 1000, P = 2 is 0.55 ms: least squares over
        // both points, so P = 2 is near 1e-6 but not exactly.
        let c = num(&f["coefficients"][0]["value"]);
        assert!((c - 1e-6).abs() < 0.05e-6, "{f}");
    }
    assert_eq!(num(&fits[0]["coefficients"][0]["value"]), 1e-6);
    // With the machine profile each run's barrier (10.7 µs for two threads here) is
    // known, and the coefficient falls by it.
    let with = json(&[
        "semi",
        "fit",
        &model,
        "--samples",
        &runs,
        "--machine",
        &ex("machine.json"),
        "--format",
        "json",
    ]);
    let c2 = num(&with[1]["coefficients"][0]["value"]);
    assert!(c2 < num(&fits[1]["coefficients"][0]["value"]), "{with}");
    // The prediction from the same samples runs the same fit.
    let out = stdout(&[
        "semi",
        "predict",
        &model,
        "--samples",
        &runs,
        "-D",
        "N=8000",
        "-D",
        "P=1",
    ]);
    assert!(out.contains("at N=8000, P=1: 8 ms"), "{out}");
    // GE from its run rows alone: two points per P for four coefficients.
    let ge_runs = csv_rows(&ex("ge_samples.csv"))
        .into_iter()
        .filter(|r| r["segment"] == "run")
        .map(|r| format!("{},{},run,{}", r["N"], r["P"], r["seconds"]))
        .collect::<Vec<_>>()
        .join("\n");
    let ge_runs = write(
        &dir,
        "ge_runs.csv",
        &format!("N,P,segment,seconds\n{ge_runs}\n"),
    );
    let err = fails(&["semi", "fit", &ex("ge.tg"), "--samples", &ge_runs], 1);
    assert!(
        err.contains("P=1: ") && err.contains("sample points, there are 2"),
        "{err}"
    );
    // Three sizes for four coefficients: those the samples do not pin down come out
    // negative unconstrained and are held at 0, and the fit says so.
    let three = write(
        &dir,
        "ge_three.csv",
        "N,P,segment,seconds\n240,1,run,0.01\n320,1,run,0.024\n480,1,run,0.08\n",
    );
    let out = stdout(&["semi", "fit", &ex("ge.tg"), "--samples", &three]);
    assert!(
        out.contains("  held at 0: c_init (the unconstrained fit gave -"),
        "{out}"
    );
    let v = json(&[
        "semi",
        "fit",
        &ex("ge.tg"),
        "--samples",
        &three,
        "--format",
        "json",
    ]);
    let held = v[0]["held_at_zero"].as_array().unwrap();
    assert!(
        held.iter()
            .any(|h| h["name"] == "c_init" && num(&h["unconstrained"]) < 0.0),
        "{v}"
    );
}

/// `--by` is a given parameter or `none` in fit, predict and sweep alike; a misspelt one is
/// a usage error with a suggestion, and validate, which needs a parameter, says so.
#[test]
fn by_is_one_rule_for_every_subcommand() {
    let base = |sub: &str| {
        vec![
            "semi".to_string(),
            sub.into(),
            ex("ge.tg"),
            "--samples".into(),
            ex("ge_samples.csv"),
            "--by".into(),
            "p".into(),
        ]
    };
    for (sub, more) in [
        ("fit", vec![]),
        ("predict", vec!["-D", "N=400", "-D", "P=2"]),
        ("sweep", vec!["-D", "N=400", "-D", "P=1,2"]),
    ] {
        let mut a = base(sub);
        a.extend(more.iter().map(|s| s.to_string()));
        let err = fails(&a, 2);
        assert!(
            err.contains("--by p: the model has no parameter `p`") && err.contains("`P`"),
            "{sub}: {err}"
        );
    }
    let err = fails(&ge_validate(&ex("ge_measured.csv"), &["--by", "none"]), 2);
    assert!(
        err.contains("a table row per value of a parameter"),
        "{err}"
    );
    // Given without samples, --by is checked too (it sets the processors); a derived
    // parameter cannot group samples.
    let (fj, pipe) = (ex("forkjoin.tg"), ex("pipeline.tg"));
    for (args, says) in [
        (
            [
                "semi", "predict", &fj, "-D", "P=2", "-C", "c_unit=1", "--by", "p",
            ],
            "--by p: the model has no parameter `p`",
        ),
        (
            [
                "semi", "predict", &pipe, "-D", "N=4", "-D", "P=2", "--by", "B",
            ],
            "--by B: `B` is derived from other parameters",
        ),
    ] {
        let err = fails(&args, 2);
        assert!(err.contains(says), "{err}");
    }
    // A coefficient given twice is a usage error too, not the last value silently.
    let twice = ["-D", "P=2", "-C", "c_unit=1", "-C", "c_unit=2"];
    let err = fails(&[&["semi", "predict", fj.as_str()][..], &twice].concat(), 2);
    assert!(err.contains("-C c_unit: given twice"), "{err}");
}

/// Events beyond what the machine profile measured (barriers of more threads) are costed by
/// extrapolation, and predict says so.
#[test]
fn predict_warns_of_event_costs_beyond_the_profile() {
    let args = |p: &str| ge_predict_on_the_machine("200", p, &["--by", "none"]);
    // The profile measured barriers of up to 4 threads; P = 8 meets at barriers of 9.
    let a = args("8");
    let (out, err) = output_with_code(&a, 0);
    assert!(out.contains("at N=200, P=8: "), "{out}");
    assert!(
        err.contains("warning: the model has barriers of 9 threads, the machine profile measured them up to 4: their costs are extrapolated"),
        "{err}"
    );
    let a = args("2");
    let (_, err) = output_with_code(&a, 0);
    assert!(!err.contains("extrapolated"), "{err}");
}

/// A measured point the model cannot be instantiated at is named in the error, with the
/// flags that raise the limit it is over.
#[test]
fn validate_names_the_measured_point_it_cannot_predict() {
    let dir = tempdir("semi-measured-point");
    let measured = write(&dir, "m.csv", "N,P,seconds\n1280,1,0.3\n10000000,1,5\n");
    let err = fails(&ge_validate(&measured, &[]), 1);
    assert!(
        err.contains(
            "at the measured point N=10000000, P=1: the instantiated graph has Θ = 40000000"
        ),
        "{err}"
    );
    assert!(err.contains("raise --max-steps and --max-ops"), "{err}");
}

/// Issue 29: a samples or measurements CSV with a column name twice is refused at the second
/// one (it used the first silently).
#[test]
fn a_column_named_twice_is_refused_where_it_is() {
    let dir = tempdir("semi-dup");
    let samples = write(
        &dir,
        "dup.csv",
        "N,P,segment,seconds,seconds\n240,1,init,0.1,0.2\n",
    );
    let err = fails(&["semi", "fit", &ex("ge.tg"), "--samples", &samples], 1);
    assert!(
        err.contains("dup.csv:1:21: the column name `seconds` appears twice: columns 4 and 5"),
        "{err}"
    );
    let measured = write(&dir, "dupm.csv", "N,N,P,seconds\n240,240,1,0.1\n");
    let err = fails(
        &[
            "semi",
            "validate",
            &ex("ge.tg"),
            "--samples",
            &ex("ge_samples.csv"),
            "--measured",
            &measured,
        ],
        1,
    );
    assert!(
        err.contains("dupm.csv:1:3: the column name `N` appears twice: columns 1 and 2"),
        "{err}"
    );
}

/// Past the first 32 threads the prediction's table sums the rest in one row, and the row
/// says what it is.
#[test]
fn threads_past_the_rows_shown_are_summed_in_a_row_that_says_so() {
    let s = stdout(
        &[
            &["semi", "predict", &ex("ge.tg"), "-D", "N=200", "-D", "P=40"][..],
            &common::GE_COEFFS[..],
        ]
        .concat(),
    );
    // main and worker[0..31] have rows; worker[31..40] are summed.
    assert!(s.contains("\n  worker[30] "), "{s}");
    assert!(!s.contains("worker[31]"), "{s}");
    assert!(s.contains("\n  (9 more threads, summed) "), "{s}");
}

#[test]
fn samples_the_processors_do_not_divide_are_warned_about() {
    // Issue 32: the paper's uneven-sample warning (§4 step 4) was never shown. GE's samples
    // at N = 241 and 321 on P = 2 leave a row over.
    let dir = tempdir("semi-uneven");
    let text = std::fs::read_to_string(ex("ge_samples.csv")).unwrap();
    let uneven: String = text
        .lines()
        .map(|l| {
            l.replacen("240,2,", "241,2,", 1)
                .replacen("320,2,", "321,2,", 1)
        })
        .collect::<Vec<_>>()
        .join("\n");
    let samples = dir.join("uneven.csv");
    std::fs::write(&samples, uneven).unwrap();
    let samples = samples.display().to_string();
    let (_out, err) = output_with_code(
        &[
            "semi",
            "predict",
            &ex("ge.tg"),
            "--samples",
            &samples,
            "-D",
            "N=1600",
            "-D",
            "P=2",
        ],
        0,
    );
    assert!(
        err.contains("the sample at N = 241, P = 2 does not divide evenly over the 2 processors (remainder 1)"),
        "{err}"
    );
    assert!(err.contains("N = 321"), "{err}");
    // The committed samples (N = 240, 320) divide evenly: no such warning.
    let (_, err) = output_with_code(
        &[
            "semi",
            "predict",
            &ex("ge.tg"),
            "--samples",
            &ex("ge_samples.csv"),
            "-D",
            "N=1600",
            "-D",
            "P=2",
        ],
        0,
    );
    assert!(!err.contains("does not divide evenly"), "{err}");
    // Validate and sweep use the same coefficients and say the same, once each.
    let warned = |args: &[&str]| {
        let (_, err) = output_with_code(args, 0);
        assert_eq!(
            err.matches("the sample at N = 241, P = 2 does not divide evenly")
                .count(),
            1,
            "{args:?}: {err}"
        );
    };
    let measured = ex("ge_measured.csv");
    warned(&[
        "semi",
        "validate",
        &ex("ge.tg"),
        "--samples",
        &samples,
        "--measured",
        &measured,
    ]);
    warned(&[
        "semi",
        "sweep",
        &ex("ge.tg"),
        "--samples",
        &samples,
        "-D",
        "N=400,800",
        "-D",
        "P=1,2",
    ]);
}

// Issue 32 items 2 and 4.

/// Eq. 2.5 (`--collapse`): GE's workers collapse to one representative, and the note says
/// the cluster was collapsed and why the time may differ; the time equals the full
/// traversal's here because the representative (the most work) is the slowest worker,
/// and the traversal processes fewer events.
#[test]
fn predict_collapse_applies_eq_2_5_and_says_so() {
    let full = json(&[
        "semi",
        "predict",
        &ex("ge.tg"),
        "-D",
        "N=60",
        "-D",
        "P=3",
        "-C",
        "c_init=1e-8",
        "-C",
        "c_pivot=1e-8",
        "-C",
        "c_elim=1e-8",
        "-C",
        "c_solve=1e-8",
        "--format",
        "json",
    ]);
    let args = [
        "semi",
        "predict",
        &ex("ge.tg"),
        "-D",
        "N=60",
        "-D",
        "P=3",
        "-C",
        "c_init=1e-8",
        "-C",
        "c_pivot=1e-8",
        "-C",
        "c_elim=1e-8",
        "-C",
        "c_solve=1e-8",
        "--collapse",
    ];
    let (out, err) = output_with_code(&args, 0);
    assert!(
        err.contains("note: cluster `worker`: 3 threads collapsed to `worker[0]` (eq. 2.5)"),
        "{err}"
    );
    assert!(
        out.contains("worker[0]") && !out.contains("worker[1]"),
        "{out}"
    );
    let mut j = args.to_vec();
    j.extend(["--format", "json"]);
    let one = json(&j);
    assert!((num(&one["time"]) - num(&full["time"])).abs() <= 1e-12 * num(&full["time"]));
    assert!(num(&one["events"]) < num(&full["events"]));
    assert_eq!(one["collapsed"].as_array().map(Vec::len), Some(1));
}

/// A branch's result says it is one draw, and `--draws K` prints the mean over K draws.
#[test]
fn predict_with_branches_says_one_draw_and_draws_give_the_mean() {
    let base = [
        "semi",
        "predict",
        &ex("branchy.tg"),
        "-D",
        "N=50",
        "-D",
        "P=2",
        "-C",
        "c_fast=1",
        "-C",
        "c_slow=3",
    ];
    let (out, err) = output_with_code(&base, 0);
    assert!(
        out.contains("one random draw of the branches' arms (seed 0)"),
        "{out}"
    );
    assert!(
        err.contains("--draws K gives the mean over K draws"),
        "{err}"
    );
    let mut a = base.to_vec();
    a.extend(["--draws", "50", "--format", "json"]);
    let v = json(&a);
    let d = &v["draws"];
    assert_eq!(d["count"], 50);
    // 50 rounds, each 1 unless one of the two threads takes the slow arm (probability
    // 1 − (3/4)² = 7/16), then 3: the expectation is 50 × (1 + 2 × 7/16) = 93.75.
    assert!((num(&d["mean"]) - 93.75).abs() < 8.0, "{d}");
    assert!(num(&d["min"]) <= num(&d["mean"]) && num(&d["mean"]) <= num(&d["max"]));
    let err = fails(&["semi", "predict", &ex("branchy.tg"), "--draws", "1"], 2);
    assert!(err.contains("--draws"), "{err}");
    // A sweep's points are single draws too, and it says so once.
    let (_, err) = output_with_code(
        &[
            "semi",
            "sweep",
            &ex("branchy.tg"),
            "-D",
            "N=10,20",
            "-D",
            "P=2",
            "-C",
            "c_fast=1",
            "-C",
            "c_slow=3",
        ],
        0,
    );
    assert_eq!(
        err.matches("each point's time is one random draw of their arms (seed 0)")
            .count(),
        1,
        "{err}"
    );
    // So are a validation's predictions.
    let dir = tempdir("semi-branchy-validate");
    let samples = write(
        &dir,
        "s.csv",
        "N,P,segment,seconds\n10,2,fast,15\n10,2,slow,15\n",
    );
    let measured = write(&dir, "m.csv", "N,P,seconds\n20,2,40\n");
    let (_, err) = output_with_code(
        &[
            "semi",
            "validate",
            &ex("branchy.tg"),
            "--samples",
            &samples,
            "--measured",
            &measured,
        ],
        0,
    );
    assert!(
        err.contains("each predicted time is one random draw of their arms (seed 0)"),
        "{err}"
    );
}

/// A model that starts with a UTF-8 byte-order mark is read (the CSV readers accept one).
#[test]
fn a_model_with_a_byte_order_mark_is_read() {
    let dir = tempdir("semi-bom");
    let m = write(
        &dir,
        "bom.tg",
        "\u{feff}param P;\nclass w[i in P] { compute x = 2; }\n",
    );
    let out = stdout(&["semi", "predict", &m, "-D", "P=2"]);
    assert!(out.contains("at P=2: 2 s"), "{out}");
}

/// The deadlock report names the cause before the symptom.
#[test]
fn a_deadlock_names_its_cause() {
    let dir = tempdir("semi-deadlock-cause");
    let m = write(
        &dir,
        "dl.tg",
        "param P;\nbarrier b(3);\nclass t[i in P] { barrier b; }\n",
    );
    let err = fails(&["semi", "predict", &m, "-D", "P=4"], 1);
    assert!(
        err.contains("barrier `b` expects 3 threads but 4 arrive"),
        "{err}"
    );
    // At the barrier's participants, with the fix.
    assert!(err.contains("dl.tg:2:11]"), "{err}");
    assert!(err.contains("3 participants; 4 threads arrive"), "{err}");
    assert!(
        err.contains("help: make the participants of `b` the number of threads that arrive at it"),
        "{err}"
    );
    let m = write(
        &dir,
        "relock.tg",
        "lock l;\nthread t { lock l; critical l { compute x = 1; } unlock l; }\n",
    );
    let err = fails(&["semi", "predict", &m], 1);
    assert!(
        err.contains("thread `t` takes lock `l` it already holds"),
        "{err}"
    );
    let m = write(
        &dir,
        "held.tg",
        "lock l;\nthread t { lock l; }\nthread u { compute x = 1; critical l { compute y = 1; } }\n",
    );
    let err = fails(&["semi", "predict", &m], 1);
    assert!(err.contains("thread `t` ended holding lock `l`"), "{err}");
}

/// The load imbalance is the paper's: GE at P = 1 has one worker, so its barrier waits
/// (the main thread waiting for the eliminations, the worker for the pivots) are none of
/// it; the report says what it counts.
#[test]
fn ge_at_one_worker_shows_no_load_imbalance() {
    let (out, _) = output_with_code(&ge_predict_on_the_machine("400", "1", &[]), 0);
    let line = out
        .lines()
        .find(|l| l.contains("all threads:"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("(of which load imbalance 0.0%)"), "{line}");
    assert!(!line.contains("barrier wait 0.0%"), "{line}");
    assert!(
        out.contains("load imbalance (the paper's): threads that computed since their previous barrier waiting there for the last of them"),
        "{out}"
    );
}

/// `validate --by N` groups by N under an `N` heading, and the processors come from `P`,
/// not from N.
#[test]
fn validate_by_another_parameter_does_not_call_it_the_processor_count() {
    let by_p = json(
        &ge_validate(&ex("ge_measured.csv"), &["--format", "json"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let a = ge_validate(&ex("ge_measured.csv"), &["--by", "N"]);
    let out = stdout(&a);
    assert!(out.contains("\nN    | Average error |"), "{out}");
    assert!(!out.contains("No. of processors"), "{out}");
    // The processors of each point are its P: with --by P the same points, fitted at
    // their P, are predicted on the same processors; --processors 1 changes P = 2's.
    let a = ge_validate(&ex("ge_measured.csv"), &["--by", "N", "--format", "json"]);
    let by_n = json(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(by_n["table"][0]["processors"], "1280");
    assert_eq!(
        by_p["points"].as_array().map(Vec::len),
        by_n["points"].as_array().map(Vec::len)
    );
    let err = fails(
        &ge_validate(&ex("ge_measured.csv"), &["--processors", "Q"]),
        2,
    );
    assert!(err.contains("--processors") && err.contains("`Q`"), "{err}");
}

/// A sweep prints the cache-level warning and the extrapolation notes that predict prints.
#[test]
fn sweep_prints_the_warnings_predict_prints() {
    let (_, err) = output_with_code(
        &[
            "semi",
            "sweep",
            &ex("ge.tg"),
            "-D",
            "N=200,1000",
            "-D",
            "P=8",
            "--by",
            "none",
            "--samples",
            &ex("ge_samples.csv"),
            "--machine",
            &ex("machine.json"),
        ],
        0,
    );
    assert!(
        err.contains("warning: the model has barriers of 9 threads, the machine profile measured them up to 4: their costs are extrapolated"),
        "{err}"
    );
    assert!(err.contains("(7.6 MiB) is in main memory"), "{err}");
    assert_eq!(err.matches("barriers of 9 threads").count(), 1, "{err}");
}

/// A sweep's warnings come in the same order on every run, though its points run in
/// parallel and report as they finish (defect: the cache-level warnings of one sweep came
/// in another order from run to run).
#[test]
fn a_sweep_s_warnings_are_the_same_on_every_run() {
    let args = [
        "semi",
        "sweep",
        &ex("ge.tg"),
        "-D",
        "N=200..6000:200",
        "-D",
        "P=1,2,8",
        "--by",
        "none",
        "--samples",
        &ex("ge_samples.csv"),
        "--machine",
        &ex("machine.json"),
    ];
    let (_, first) = output_with_code(&args, 0);
    assert!(first.contains("is in main memory"), "{first}");
    for _ in 0..3 {
        let (_, again) = output_with_code(&args, 0);
        assert_eq!(again, first);
    }
}

/// `semi check -D` counts Θ as the paper does too, with the loop entries and exits: GE at
/// N = 100, P = 4 has 997 events; main's loop and each worker's run 99 times, 2 events
/// each per iteration: 997 + 5 × 198 = 1987.
#[test]
fn check_counts_theta_with_the_loop_events() {
    let out = stdout(&["semi", "check", &ex("ge.tg"), "-D", "N=100", "-D", "P=4"]);
    assert!(
        out.contains(
            "Θ = 997 event processings (1987 with the loop entries and exits the paper counts)"
        ),
        "{out}"
    );
}

/// Eqs. 2.3 and 2.6 from the command line, for a user with one measured run: the spec's
/// §6.1 case (1.2 s at χ = 200 → 76.8 s at 800) and RT-B.3's (16384, 400, 128, 32) → 11
/// (per processor 128/13).
#[test]
fn scale_gives_eq_2_3_and_eq_2_6_from_one_run() {
    let out = stdout(&[
        "semi",
        "scale",
        "--count",
        "N^3/P",
        "--seconds",
        "1.2",
        "--from",
        "N=200",
        "--from",
        "P=2",
        "--to",
        "N=800",
    ]);
    assert!(out.starts_with("eq. 2.3"), "{out}");
    assert!(out.contains("× 64 → 76.8 s"), "{out}");
    let dp = |ceiling: &str| {
        json(&[
            "semi",
            "scale",
            "--count",
            "S",
            "--seconds",
            "0.5",
            "--from",
            "S=400",
            "--from",
            "P=32",
            "--to",
            "S=16384",
            "--to",
            "P=128",
            "--law",
            "data-parallel",
            "--ceiling",
            ceiling,
            "--format",
            "json",
        ])
    };
    let v = dp("whole");
    assert_eq!(num(&v["multiplier"]), 11.0);
    assert!((num(&v["seconds"]) - 5.5).abs() < 1e-12);
    assert_eq!(v["warnings"].as_array().map(Vec::len), Some(2), "{v}");
    let v = dp("per-processor");
    assert!((num(&v["multiplier"]) - 128.0 / 13.0).abs() < 1e-12);
    // Bad input names the flag and the fix.
    let err = fails(
        &[
            "semi",
            "scale",
            "--count",
            "N*M",
            "--seconds",
            "1",
            "--from",
            "N=2",
        ],
        2,
    );
    assert!(
        err.contains("--from: the count uses `M`") && err.contains("--from NAME=VALUE"),
        "{err}"
    );
    let err = fails(
        &[
            "semi",
            "scale",
            "--count",
            "N",
            "--seconds",
            "1",
            "--from",
            "N=2",
            "--ceiling",
            "whole",
        ],
        2,
    );
    assert!(err.contains("--ceiling: eq. 2.3 has no ceiling"), "{err}");
}

/// Issue 32 item 1: samples of a size fewer than 2x apart get a warning, from `semi fit`
/// and from every command that fits them (GE's samples N = 240, 320 are 1.33x apart); the
/// queue's W = 1000, 2000 are 2x apart and get none.
#[test]
fn samples_closer_than_twice_apart_are_warned_of() {
    let close = "warning: the samples' N = 240, 320 lie only 1.33× apart: over less than 2× a \
                 coefficient's fit cannot show a growth the model lacks, and a prediction far \
                 beyond them carries their noise; sample N at least 2× apart";
    let ge = ex("ge.tg");
    let samples = ex("ge_samples.csv");
    for args in [
        vec!["semi", "fit", &ge, "--samples", &samples],
        vec![
            "semi",
            "predict",
            &ge,
            "--samples",
            &samples,
            "-D",
            "N=1280",
            "-D",
            "P=2",
        ],
    ] {
        let (_, err) = output_with_code(&args, 0);
        assert_eq!(err.matches(close).count(), 1, "{args:?}: {err}");
    }
    let (_, err) = output_with_code(
        &[
            "semi",
            "fit",
            &ex("queue.tg"),
            "--samples",
            &ex("queue_samples.csv"),
        ],
        0,
    );
    assert!(!err.contains("apart"), "{err}");
}
