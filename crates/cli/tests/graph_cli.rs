//! End-to-end tests of `vates graph` (deterministic task graph analysis) on small graphs and
//! the examples in `examples/graphs/`.

use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::{fails, json, stdout, tempdir, vates};

/// Path of an example in `examples/graphs/`.
fn example(name: &str) -> String {
    common::example_in("graphs", name)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

fn makespan(graph: &str, procs: &str, extra: &[&str]) -> f64 {
    let mut args = vec![
        "graph", "analyze", graph, "--procs", procs, "--format", "json",
    ];
    args.extend_from_slice(extra);
    json(&args)["makespan"].as_f64().expect("a makespan")
}

const DIAMOND: &str = r#"{"tasks": [
  {"id": "A", "time": 2}, {"id": "B", "time": 3, "preds": ["A"]},
  {"id": "C", "time": 5, "preds": ["A"]}, {"id": "D", "time": 1, "preds": ["B", "C"]}
]}"#;

const FORK_1114: &str = r#"{"tasks": [
  {"id": "start", "time": 0},
  {"id": "a", "time": 1, "preds": ["start"]}, {"id": "b", "time": 1, "preds": ["start"]},
  {"id": "c", "time": 1, "preds": ["start"]}, {"id": "d", "time": 1, "preds": ["start"]},
  {"id": "big", "time": 4, "preds": ["start"]},
  {"id": "end", "time": 0, "preds": ["a", "b", "c", "d", "big"]}
]}"#;

// ---------------------------------------------------------------------------------------
// analyze

#[test]
fn tg1_diamond_json() {
    let d = tempdir("tg1");
    let g = write(&d, "diamond.json", DIAMOND);
    let v = json(&["graph", "analyze", &g, "--procs", "2", "--format", "json"]);
    assert_eq!(v["makespan"], 8.0);
    assert_eq!(v["work"], 11.0);
    assert_eq!(v["span"], 8.0);
    assert_eq!(v["critical_path"], serde_json::json!(["A", "C", "D"]));
    assert_eq!(v["makespan_p1"], 11.0);
    assert_eq!(v["speedup"], 11.0 / 8.0);
    assert_eq!(v["efficiency"], 11.0 / 16.0);
    assert_eq!(v["average_parallelism"], 11.0 / 8.0);
    assert_eq!(v["policy"], "fifo");
    assert_eq!(v["p"], 2);
    let procs = v["procs"].as_array().expect("procs");
    assert_eq!(procs.len(), 2);
    // A, B, D on process 0 (B is first in the FIFO queue); C on process 1.
    assert_eq!(procs[0]["busy"], 6.0);
    assert_eq!(procs[0]["tasks"], 3);
    assert_eq!(procs[0]["idle"], 2.0);
    assert_eq!(procs[1]["busy"], 5.0);
    assert_eq!(procs[1]["idle"], 3.0);
    for p in procs {
        assert_eq!(p["overhead"], 0.0);
    }
    assert_eq!(makespan(&g, "1", &[]), 11.0);
    assert_eq!(makespan(&g, "4", &[]), 8.0);
}

#[test]
fn tg1_diamond_text() {
    let d = tempdir("tg1text");
    let g = write(&d, "diamond.json", DIAMOND);
    let s = stdout(&["graph", "analyze", &g, "--procs", "2"]);
    assert!(s.contains("makespan             = 8\n"), "{s}");
    assert!(
        s.contains("critical path        = A → C → D (3 tasks)"),
        "{s}"
    );
    assert!(
        s.contains("speedup              = 1.375 (makespan 11 at P = 1)"),
        "{s}"
    );
    assert!(s.contains("total      4    11"), "{s}");
}

#[test]
fn tg2_fifo_big_task_last_vs_lpt() {
    let d = tempdir("tg2");
    let g = write(&d, "fork.json", FORK_1114);
    assert_eq!(makespan(&g, "2", &["--policy", "fifo"]), 6.0);
    assert_eq!(makespan(&g, "2", &["--policy", "lpt"]), 4.0);
    assert_eq!(makespan(&g, "3", &["--policy", "fifo"]), 5.0);
    assert_eq!(makespan(&g, "1", &["--policy", "lpt"]), 8.0);
}

#[test]
fn tg3_psim_example_processor_splitting() {
    let g = example("psim.json");
    let v = json(&[
        "graph", "analyze", &g, "--procs", "3", "--policy", "assigned", "--format", "json",
    ]);
    assert_eq!(v["makespan"], 9.0);
    assert_eq!(v["makespan_p1"], 20.0);
    let busy: Vec<f64> = v["procs"]
        .as_array()
        .expect("procs")
        .iter()
        .map(|p| p["busy"].as_f64().expect("busy"))
        .collect();
    assert_eq!(busy, vec![6.0, 9.0, 5.0]);
}

#[test]
fn tg4_wavefront_example() {
    let g = example("wavefront.json");
    for (p, want) in [
        ("1", 64.0),
        ("2", 33.0),
        ("3", 25.0),
        ("4", 19.0),
        ("8", 15.0),
    ] {
        assert_eq!(makespan(&g, p, &["--policy", "assigned"]), want, "P = {p}");
    }
}

#[test]
fn polyroots_example_lpt_beats_fifo() {
    let g = example("polyroots.json");
    let fifo = makespan(&g, "4", &["--policy", "fifo"]);
    let lpt = makespan(&g, "4", &["--policy", "lpt"]);
    assert_eq!(fifo, 294.48);
    assert!((lpt - 215.94).abs() < 1e-9, "{lpt}");
}

#[test]
fn queues_report_processes_per_active_queue() {
    let g = example("locusroute.json");
    let v = json(&[
        "graph", "analyze", &g, "--procs", "8", "--policy", "queues", "--steal", "--format", "json",
    ]);
    let q = v["processes_per_active_queue"].as_f64().expect("a number");
    assert!((1.0..=8.0).contains(&q), "{q}");
    assert_eq!(v["steal"], true);
    // Without stealing, P = 1 serves only queue 0: the baseline deadlocks, speedup is null.
    let v = json(&[
        "graph", "analyze", &g, "--procs", "8", "--policy", "queues", "--format", "json",
    ]);
    assert!(v["speedup"].is_null());
    assert!(v["makespan"].as_f64().expect("makespan") > 0.0);
}

#[test]
fn system_model_adds_overhead() {
    let g = example("psim_rates.json");
    let sys = example("bus.toml");
    let v = json(&[
        "graph", "analyze", &g, "--procs", "3", "--policy", "assigned", "--system", &sys,
        "--format", "json",
    ]);
    let m = v["makespan"].as_f64().expect("makespan");
    assert!(m > 9.0, "{m}");
    let overhead = v["overhead"].as_f64().expect("overhead");
    assert!(overhead > 0.0);
    assert!(v["system"]["solves"].as_u64().expect("solves") > 0);
    assert_eq!(v["system"]["overhead"].as_f64(), Some(overhead));
    let s = stdout(&[
        "graph", "analyze", &g, "--procs", "3", "--policy", "assigned", "--system", &sys,
    ]);
    assert!(s.contains("network solves, total overhead"), "{s}");
}

#[test]
fn wfcommons_blast_p1_is_the_work() {
    let g = example("blast-chameleon-small-001.json");
    let v = json(&["graph", "analyze", &g, "--procs", "1", "--format", "json"]);
    let (m, w) = (v["makespan"].as_f64().unwrap(), v["work"].as_f64().unwrap());
    assert!((m - 382.91272).abs() < 1e-6, "{m}");
    assert!((m - w).abs() < 1e-9);
    assert_eq!(v["tasks"], 43);
    let d = tempdir("blast");
    let svg = d.join("blast.svg");
    let v = json(&[
        "graph",
        "analyze",
        &g,
        "--procs",
        "8",
        "--gantt",
        svg.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let m8 = v["makespan"].as_f64().unwrap();
    assert!(m8 >= w / 8.0 && m8 <= w / 8.0 + v["span"].as_f64().unwrap());
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(text.starts_with("<svg") && text.contains("proc 7"));
}

#[test]
fn trace_has_one_slice_per_task_and_gantt_is_svg() {
    let g = example("wavefront.json");
    let d = tempdir("trace");
    let (t, s) = (d.join("t.json"), d.join("g.svg"));
    stdout(&[
        "graph",
        "analyze",
        &g,
        "--procs",
        "4",
        "--policy",
        "assigned",
        "--trace",
        t.to_str().unwrap(),
        "--trace-unit-us",
        "1000",
        "--gantt",
        s.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&t).unwrap()).unwrap();
    let x: Vec<&Value> = v["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .collect();
    assert_eq!(x.len(), 64);
    assert!(x.iter().all(|e| e["dur"] == 1000.0));
    let last = x
        .iter()
        .map(|e| e["ts"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(last, 18_000.0);
    let svg = std::fs::read_to_string(&s).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("proc 3"));
}

#[test]
fn many_processes_are_abbreviated_in_text() {
    let g = example("forkjoin_loops.json");
    let s = stdout(&["graph", "analyze", &g, "--procs", "32"]);
    // The rows not shown are one `…` row, counted in the total, and a line says so.
    assert!(s.contains("\n      …\n  total"), "{s}");
    assert!(
        s.contains("\n  (16 of 32 processes shown; the total is over all 32)\n"),
        "{s}"
    );
    assert!(
        s.contains("→ … →"),
        "long critical paths are abbreviated: {s}"
    );
    let v = json(&["graph", "analyze", &g, "--procs", "32", "--format", "json"]);
    assert_eq!(v["procs"].as_array().unwrap().len(), 32);
}

#[test]
fn every_example_analyses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/graphs");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("examples/graphs") {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            let v = json(&[
                "graph",
                "analyze",
                p.to_str().unwrap(),
                "--procs",
                "4",
                "--format",
                "json",
            ]);
            let m = v["makespan"].as_f64().unwrap();
            let (w, s) = (v["work"].as_f64().unwrap(), v["span"].as_f64().unwrap());
            // Graham's bounds for the (work-conserving) default fifo policy.
            assert!(
                m >= (w / 4.0).max(s) - 1e-9 && m <= w / 4.0 + s + 1e-9,
                "{p:?}"
            );
            n += 1;
        }
    }
    assert!(n >= 7, "{n} examples");
}

// ---------------------------------------------------------------------------------------
// sweep

#[test]
fn sweep_csv_speedup_and_monotone_fifo_forkjoin() {
    let d = tempdir("sweep");
    let g = d.join("fj.json");
    stdout(&[
        "graph",
        "gen",
        "forkjoin",
        "--tasks",
        "41",
        "--width",
        "8",
        "--time",
        "uniform:1,5",
        "--seed",
        "7",
        "-o",
        g.to_str().unwrap(),
    ]);
    let (csv, plot) = (d.join("s.csv"), d.join("s.svg"));
    stdout(&[
        "graph",
        "sweep",
        g.to_str().unwrap(),
        "--procs",
        "1..8",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("procs,makespan,speedup,efficiency,work_bound,span_bound")
    );
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[0][0], 1.0);
    assert_eq!(rows[0][2], 1.0);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r[0], (i + 1) as f64);
        assert_eq!(r[4], r[0]);
        assert!(r[2] <= r[4].min(r[5]) + 1e-9);
        if i > 0 {
            assert!(r[1] <= rows[i - 1][1], "makespan rises at P = {}", r[0]);
        }
    }
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("span bound") && svg.contains("work bound"));
}

#[test]
fn sweep_json_list_matches_analyze() {
    let g = example("wavefront.json");
    let v = json(&[
        "graph", "sweep", &g, "--procs", "1,2,4,8", "--policy", "assigned", "--format", "json",
    ]);
    let pts = v["points"].as_array().unwrap();
    let got: Vec<(u64, f64)> = pts
        .iter()
        .map(|p| {
            (
                p["procs"].as_u64().unwrap(),
                p["makespan"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, vec![(1, 64.0), (2, 33.0), (4, 19.0), (8, 15.0)]);
    assert_eq!(pts[2]["speedup"], 64.0 / 19.0);
    assert_eq!(v["span"], 15.0);
    let s = stdout(&[
        "graph", "sweep", &g, "--procs", "1..2", "--policy", "assigned",
    ]);
    assert!(s.contains("average parallelism"), "{s}");
}

// ---------------------------------------------------------------------------------------
// convert and gen

#[test]
fn convert_json_dot_json_round_trip() {
    let d = tempdir("convert");
    let src = example("psim.json");
    let dot = d.join("p.dot");
    let back = d.join("p.json");
    stdout(&["graph", "convert", &src, dot.to_str().unwrap()]);
    assert!(std::fs::read_to_string(&dot)
        .unwrap()
        .starts_with("digraph"));
    stdout(&[
        "graph",
        "convert",
        dot.to_str().unwrap(),
        back.to_str().unwrap(),
    ]);
    for p in [
        &src,
        &back.display().to_string(),
        &dot.display().to_string(),
    ] {
        assert_eq!(makespan(p, "3", &["--policy", "assigned"]), 9.0, "{p}");
    }
    // WfCommons is detected by content; --to dot to standard output.
    let s = stdout(&[
        "graph",
        "convert",
        &example("blast-chameleon-small-001.json"),
        "-",
        "--to",
        "dot",
    ]);
    assert!(s.starts_with("digraph") && s.contains("split_fasta"));
}

#[test]
fn convert_refuses_unwritable_formats() {
    let d = tempdir("convert-bad");
    let out = d.join("x.stg");
    let e = fails(
        &[
            "graph",
            "convert",
            &example("psim.json"),
            out.to_str().unwrap(),
        ],
        2,
    );
    assert!(e.contains("only json and dot"), "{e}");
    let out = d.join("x.txt");
    let e = fails(
        &[
            "graph",
            "convert",
            &example("psim.json"),
            out.to_str().unwrap(),
        ],
        2,
    );
    assert!(e.contains("--to"), "{e}");
}

#[test]
fn gen_is_reproducible_and_has_the_task_count() {
    let args = [
        "graph", "gen", "layered", "--tasks", "50", "--width", "7", "--degree", "2.5", "--time",
        "exp:5", "--seed", "42",
    ];
    let a = stdout(&args);
    let b = stdout(&args);
    assert_eq!(a, b);
    let v: Value = serde_json::from_str(&a).unwrap();
    assert_eq!(v["tasks"].as_array().unwrap().len(), 50);
    let mut other = args.to_vec();
    other[args.len() - 1] = "43";
    assert_ne!(stdout(&other), a);
    for (kind, n) in [("forkjoin", 25), ("wavefront", 36), ("sp", 30)] {
        let s = stdout(&[
            "graph",
            "gen",
            kind,
            "--tasks",
            &n.to_string(),
            "--width",
            "6",
        ]);
        let v: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["tasks"].as_array().unwrap().len(), n, "{kind}");
    }
    // To a DOT file, by extension.
    let d = tempdir("gen");
    let f = d.join("w.dot");
    stdout(&[
        "graph",
        "gen",
        "wavefront",
        "--tasks",
        "16",
        "--width",
        "4",
        "-o",
        f.to_str().unwrap(),
    ]);
    let f = f.display().to_string();
    assert!(std::fs::read_to_string(&f).unwrap().starts_with("digraph"));
    // A 4x4 grid of unit tasks: span 7.
    assert_eq!(makespan(&f, "16", &[]), 7.0);
}

// ---------------------------------------------------------------------------------------
// errors

#[test]
fn unknown_policy_lists_the_names() {
    let e = fails(
        &[
            "graph",
            "analyze",
            &example("psim.json"),
            "--procs",
            "2",
            "--policy",
            "best",
        ],
        2,
    );
    for name in ["fifo", "lpt", "cp", "assigned", "queues"] {
        assert!(e.contains(name), "{e}");
    }
}

#[test]
fn missing_proc_attribute_names_the_task() {
    let d = tempdir("noproc");
    let g = write(&d, "diamond.json", DIAMOND);
    let e = fails(
        &[
            "graph", "analyze", &g, "--procs", "2", "--policy", "assigned",
        ],
        1,
    );
    assert!(e.contains("task `A`") && e.contains("attrs.proc"), "{e}");
    let e = fails(
        &["graph", "analyze", &g, "--procs", "2", "--policy", "queues"],
        1,
    );
    assert!(e.contains("attrs.queue"), "{e}");
}

#[test]
fn cycle_in_dot_is_named() {
    let d = tempdir("cycle");
    let g = write(
        &d,
        "c.dot",
        "digraph {\n  a [time=1];\n  b [time=2];\n  c [time=1];\n  a -> b;\n  b -> c;\n  c -> a;\n}\n",
    );
    let e = fails(&["graph", "analyze", &g, "--procs", "2"], 1);
    assert!(e.contains("cycle") && e.contains("a -> b -> c -> a"), "{e}");
    assert!(e.contains("c.dot:"), "shows the source location: {e}");
}

#[test]
fn malformed_json_shows_line_and_column() {
    let d = tempdir("badjson");
    let g = write(
        &d,
        "g.json",
        "{\"tasks\": [\n  {\"id\": \"a\", \"time\": 1},\n  {\"id\": \"b\" \"time\": 2}\n]}",
    );
    let e = fails(&["graph", "analyze", &g, "--procs", "2"], 1);
    assert!(e.contains("line 3"), "{e}");
    let g = write(&d, "neg.json", r#"{"tasks": [{"id": "a", "time": -1}]}"#);
    let e = fails(&["graph", "analyze", &g, "--procs", "2"], 1);
    assert!(e.contains("task `a`"), "{e}");
    let e = fails(
        &[
            "graph",
            "analyze",
            &d.join("missing.json").display().to_string(),
            "--procs",
            "2",
        ],
        1,
    );
    assert!(e.contains("cannot read"), "{e}");
    let g = write(&d, "g.txt", "digraph { a [time=1]; }");
    let e = fails(&["graph", "analyze", &g, "--procs", "2"], 1);
    assert!(e.contains("--from"), "{e}");
    stdout(&["graph", "analyze", &g, "--procs", "2", "--from", "dot"]);
}

#[test]
fn bad_system_toml_is_an_input_error() {
    let d = tempdir("badtoml");
    let sys = write(
        &d,
        "s.toml",
        "[[center]]\nname = \"bus\"\nkind = \"bus\"\nservice = 1\n",
    );
    let e = fails(
        &[
            "graph",
            "analyze",
            &example("psim_rates.json"),
            "--procs",
            "2",
            "--system",
            &sys,
        ],
        1,
    );
    assert!(e.contains("s.toml") && e.contains("kind"), "{e}");
    let sys = write(&d, "empty.toml", "rate = \"bus\"\n");
    let e = fails(
        &[
            "graph",
            "analyze",
            &example("psim_rates.json"),
            "--procs",
            "2",
            "--system",
            &sys,
        ],
        1,
    );
    assert!(e.contains("center"), "{e}");
}

#[test]
fn bad_procs_and_deadlock_are_input_errors() {
    let g = example("psim.json");
    // A process count out of range is a usage error (exit 2), for analyze and sweep alike.
    let e = fails(&["graph", "analyze", &g, "--procs", "0"], 2);
    assert!(
        e.contains("process counts must be whole numbers from 1"),
        "{e}"
    );
    let e = fails(&["graph", "analyze", &g, "--procs", "100000000"], 2);
    assert!(e.contains("100000000"), "{e}");
    let e = fails(&["graph", "analyze", &g, "--procs", "1..4"], 2);
    assert!(e.contains("graph sweep"), "{e}");
    fails(&["graph", "analyze", &g, "--procs", "two"], 2);
    fails(&["graph", "sweep", &g, "--procs", "0..4"], 2);
    // Queues without stealing at P = 1 leave the other queues' tasks waiting forever.
    let e = fails(
        &[
            "graph",
            "analyze",
            &example("locusroute.json"),
            "--procs",
            "1",
            "--policy",
            "queues",
        ],
        1,
    );
    assert!(e.contains("deadlocked") && e.contains("--steal"), "{e}");
    // --steal without queues is a usage error.
    fails(&["graph", "analyze", &g, "--procs", "2", "--steal"], 2);
}

#[test]
fn unwritable_outputs_name_the_path() {
    let g = example("psim.json");
    for flag in ["--trace", "--gantt"] {
        vates()
            .args([
                "graph",
                "analyze",
                &g,
                "--procs",
                "2",
                flag,
                "/nonexistent-dir/x",
            ])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("/nonexistent-dir/x"));
    }
    vates()
        .args([
            "graph",
            "sweep",
            &g,
            "--procs",
            "1..3",
            "--csv",
            "/nonexistent-dir/x.csv",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot write"));
}

#[test]
fn gen_bad_options() {
    fails(&["graph", "gen", "tree", "--tasks", "3"], 2);
    fails(
        &[
            "graph", "gen", "layered", "--tasks", "3", "--time", "normal:1",
        ],
        2,
    );
    // A value that makes no sense is a usage error too, like a malformed one.
    let e = fails(
        &["graph", "gen", "layered", "--tasks", "3", "--width", "0"],
        2,
    );
    assert!(e.contains("width"), "{e}");
    fails(
        &[
            "graph", "gen", "layered", "--tasks", "3", "--time", "const:-1",
        ],
        2,
    );
}

#[test]
fn profile_over_time_as_csv() {
    let d = tempdir("profile");
    let g = write(&d, "diamond.json", DIAMOND);
    let csv = d.join("profile.csv");
    stdout(&[
        "graph",
        "analyze",
        &g,
        "--procs",
        "2",
        "--profile",
        &csv.display().to_string(),
    ]);
    // A runs alone on [0,2), B and C together on [2,5), then C alone and D on [5,8).
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0], "time,running");
    assert_eq!(rows[1..], ["0,1", "2,2", "5,1", "8,0"]);
    // With geographic queues the processes per active queue come along.
    let q = d.join("queues.csv");
    stdout(&[
        "graph",
        "analyze",
        &example("locusroute.json"),
        "--procs",
        "8",
        "--policy",
        "queues",
        "--steal",
        "--profile",
        &q.display().to_string(),
    ]);
    let text = std::fs::read_to_string(&q).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("time,running,processes_per_active_queue")
    );
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert!(rows.len() > 10);
    assert!(rows.iter().all(|r| r[1] <= 8.0 && r[2] <= 8.0));
    assert!(
        rows.iter().any(|r| r[2] > 1.0),
        "stealing puts several processes on a queue"
    );
    assert_eq!(rows.last().unwrap()[1], 0.0);
}

#[test]
fn long_cycle_message_is_short() {
    // A ring of 5,000 tasks once printed every id (44 kB); the message names the ends of
    // the cycle and how many tasks it leaves out.
    let d = tempdir("ring");
    let n = 5000;
    let tasks: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"id": "t{i}", "time": 1, "preds": ["t{}"]}}"#,
                (i + n - 1) % n
            )
        })
        .collect();
    let g = write(
        &d,
        "ring.json",
        &format!(r#"{{"tasks": [{}]}}"#, tasks.join(",")),
    );
    let err = fails(&["graph", "analyze", &g, "--procs", "2"], 1);
    assert!(err.len() < 2000, "{} bytes: {err}", err.len());
    assert!(
        err.contains(
            "a cycle of 5,000 tasks: t0 -> t1 -> t2 -> t3 -> t4 -> … (4,990 more) … -> t4995"
        ),
        "{err}"
    );
}

/// A task graph's times are in the unit its task times were given in: `graph analyze` and
/// `graph sweep` say so once in text, never in JSON.
#[test]
fn text_reports_say_times_are_in_the_graphs_unit() {
    let unit = "\n  times in the graph's time unit (the unit of its task times)\n";
    let g = example("polyroots.json");
    let analyze = stdout(&["graph", "analyze", &g, "--procs", "4"]);
    let sweep = stdout(&["graph", "sweep", &g, "--procs", "1..4"]);
    for s in [analyze, sweep] {
        assert_eq!(s.matches(unit).count(), 1, "{s}");
    }
    let s = stdout(&["graph", "analyze", &g, "--procs", "4", "--format", "json"]);
    assert!(!s.contains("time unit"), "{s}");
}
