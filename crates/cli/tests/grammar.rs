//! One command-line grammar (issue 29, item 3), checked command by command on the
//! examples: `--format json` prints one pretty JSON document of the documented shape; an
//! unknown flag is a usage error (status 2), and so is a `-D` name the input does not
//! have; a malformed input file is an input error (status 1); a table that shows a sample
//! of its rows says so; a negative value reaches the flag's own check. The table of
//! `docs/cli.md` ("One grammar") states the same.

mod common;

use std::path::Path;

use common::{example_in, fails, stdout, tempdir, TempDir, GE_COEFFS};
use serde_json::Value;

/// Example paths, by directory and name.
fn ex(dir: &str, name: &str) -> String {
    example_in(dir, name)
}

/// `args` followed by `more`, as owned strings.
fn with(args: &[&str], more: &[&str]) -> Vec<String> {
    args.iter().chain(more).map(|s| s.to_string()).collect()
}

/// A file `name` in `dir` holding `text`; its path.
fn file(dir: &TempDir, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

/// A two-step model file of `vates taskpar fit` (sort, no bootstrap) in `dir`.
fn taskpar_model(dir: &Path) -> String {
    let m = dir.join("sort.json").display().to_string();
    stdout(&[
        "taskpar",
        "fit",
        &ex("taskpar", "train.csv"),
        "--app",
        "sort",
        "--bootstrap",
        "0",
        "-o",
        &m,
    ]);
    m
}

/// The commands that evaluate something, with arguments that succeed (one model point or
/// a small sweep), by name.
fn commands(model: &str) -> Vec<(&'static str, Vec<String>)> {
    let datapar = ex("pamela", "datapar.pam");
    let bind = [
        "-D",
        "N=64",
        "-D",
        "P=4",
        "-D",
        "tau_c=1",
        "-D",
        "tau_l=0.5",
        "-D",
        "tau_g=10",
    ];
    let ge = ex("semi", "ge.tg");
    let samples = ex("semi", "ge_samples.csv");
    vec![
        ("pamela bound", with(&["pamela", "bound", &datapar], &bind)),
        ("pamela sim", with(&["pamela", "sim", &datapar], &bind)),
        (
            "pamela sweep",
            with(
                &["pamela", "sweep", &datapar],
                &[
                    "-D",
                    "N=64",
                    "-D",
                    "P=1..3",
                    "-D",
                    "tau_c=1",
                    "-D",
                    "tau_l=0.5",
                    "-D",
                    "tau_g=10",
                ],
            ),
        ),
        (
            "graph analyze",
            with(
                &["graph", "analyze", &ex("graphs", "psim.json")],
                &["-D", "P=2"],
            ),
        ),
        (
            "graph sweep",
            with(
                &["graph", "sweep", &ex("graphs", "psim.json")],
                &["-D", "P=1..3"],
            ),
        ),
        (
            "etccs analyse",
            with(&["etccs", "analyse", &ex("etccs", "processors.etccs")], &[]),
        ),
        (
            "fit",
            with(
                &["fit", &ex("fit", "runs.csv")],
                &["-D", "p=2,4", "-D", "n=1000"],
            ),
        ),
        (
            "taskpar stats",
            with(&["taskpar", "stats", &ex("taskpar", "sparselu.dag")], &[]),
        ),
        (
            "taskpar fit",
            with(
                &["taskpar", "fit", &ex("taskpar", "train.csv")],
                &["--app", "sort", "--bootstrap", "0"],
            ),
        ),
        (
            "taskpar predict",
            with(&["taskpar", "predict", model], &["-D", "n=20", "-D", "p=2"]),
        ),
        (
            "taskpar report",
            with(
                &[
                    "taskpar",
                    "report",
                    &ex("taskpar", "train.csv"),
                    &ex("taskpar", "test.csv"),
                ],
                &["--app", "sort", "--bootstrap", "0"],
            ),
        ),
        (
            "semi fit",
            with(&["semi", "fit", &ge, "--samples", &samples], &[]),
        ),
        (
            "semi predict",
            with(
                &["semi", "predict", &ge, "-D", "N=100", "-D", "P=2"],
                &GE_COEFFS,
            ),
        ),
        (
            "semi validate",
            with(
                &[
                    "semi",
                    "validate",
                    &ge,
                    "--samples",
                    &samples,
                    "--measured",
                    &ex("semi", "ge_measured.csv"),
                ],
                &[],
            ),
        ),
        (
            "semi sweep",
            with(
                &["semi", "sweep", &ge, "-D", "N=100..200:50", "-D", "P=1,2"],
                &GE_COEFFS,
            ),
        ),
        (
            "collectives fit",
            with(
                &[
                    "collectives",
                    "fit",
                    &ex("collectives", "here.csv"),
                    "-D",
                    "p=2",
                    "-D",
                    "d=1000",
                ],
                &[],
            ),
        ),
        (
            "campaign plan",
            with(
                &["campaign", "plan", &ex("studies", "queue/campaign.toml")],
                &[],
            ),
        ),
        (
            "compare",
            with(
                &["compare", &ex("studies", "queue"), "--bootstrap", "0"],
                &[],
            ),
        ),
    ]
}

/// The JSON shape of each command's `--format json`: an object with these keys, or an
/// array (`[`) whose elements have them.
fn shape(name: &str) -> (bool, &'static [&'static str]) {
    match name {
        "pamela bound" => (
            false,
            &[
                "binding",
                "closed_form",
                "omega",
                "phi",
                "resources",
                "stochastic",
                "theta",
                "tl",
            ],
        ),
        "pamela sim" => (
            false,
            &["events", "peak_active", "resources", "time", "utilization"],
        ),
        "pamela sweep" => (false, &["engines", "parameters", "points"]),
        "graph analyze" => (
            false,
            &[
                "achieved_parallelism",
                "average_parallelism",
                "critical_path",
                "edges",
                "efficiency",
                "graph",
                "idle",
                "makespan",
                "makespan_p1",
                "overhead",
                "p",
                "p1_error",
                "policy",
                "procs",
                "processes_per_active_queue",
                "profile",
                "span",
                "speedup",
                "steal",
                "steps",
                "system",
                "tasks",
                "work",
            ],
        ),
        "graph sweep" => (
            false,
            &[
                "graph",
                "makespan_p1",
                "points",
                "policy",
                "span",
                "steal",
                "system",
                "work",
            ],
        ),
        "etccs analyse" => (false, &["agents"]),
        "fit" => (false, &["modeler", "models", "parameters"]),
        "taskpar stats" => (
            false,
            &["bounds", "clock", "identity_gap", "parallelism", "seconds"],
        ),
        "taskpar fit" => (
            false,
            &[
                "app", "direct", "domain", "format", "no_work", "span", "version", "work",
            ],
        ),
        "taskpar predict" => (
            false,
            &["bounds", "direct", "interval", "n", "p", "time", "warnings"],
        ),
        "taskpar report" => (false, &["medians", "rows"]),
        "semi fit" => (
            true,
            &[
                "coefficients",
                "condition",
                "group",
                "leave_one_out",
                "points",
                "rank",
            ],
        ),
        "semi predict" => (
            false,
            &["estimate_seconds", "events", "params", "threads", "time"],
        ),
        "semi validate" => (false, &["points", "table"]),
        "semi sweep" => (true, &["N", "P", "theta", "time"]),
        "collectives fit" => (
            false,
            &[
                "criterion",
                "fitting",
                "operations",
                "predictions",
                "size_unit",
                "statistic",
                "time_unit",
                "version",
            ],
        ),
        "campaign plan" => (false, &["campaign", "cells"]),
        "compare" => (
            false,
            &[
                "methods",
                "notes",
                "parameters",
                "recommended",
                "study",
                "training_sizes",
            ],
        ),
        other => panic!("no shape for {other}"),
    }
}

#[test]
fn format_json_prints_one_pretty_document_of_the_documented_shape() {
    let dir = tempdir("grammar-json");
    let model = taskpar_model(&dir);
    for (name, args) in commands(&model) {
        let out = stdout(&with(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            &["--format", "json"],
        ));
        // One document: the whole output parses, and it is pretty-printed (one key a line).
        let v: Value = serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("{name}: not one JSON document: {e}\n{out}"));
        assert!(
            out.starts_with("{\n  \"") || out.starts_with("[\n  {\n    \""),
            "{name}: not pretty JSON: {}",
            &out[..out.len().min(80)]
        );
        assert!(out.ends_with("}\n") || out.ends_with("]\n"), "{name}");
        let (array, keys) = shape(name);
        let obj = if array {
            let a = v.as_array().unwrap_or_else(|| panic!("{name}: an array"));
            assert!(!a.is_empty(), "{name}: an empty array");
            &a[0]
        } else {
            assert!(v.is_object(), "{name}: an object");
            &v
        };
        for k in keys {
            assert!(obj.get(k).is_some(), "{name}: no key `{k}` in {obj}");
        }
    }
}

#[test]
fn json_values_are_the_commands_results() {
    // A few values, so that the shape test cannot pass on empty documents.
    let dir = tempdir("grammar-values");
    let model = taskpar_model(&dir);
    let all = commands(&model);
    let json = |name: &str| -> Value {
        let args = &all.iter().find(|(n, _)| *n == name).expect(name).1;
        let out = stdout(&with(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            &["--format", "json"],
        ));
        serde_json::from_str(&out).expect("JSON")
    };
    // datapar: T^l = tau_c·ceil(N/P) = 16 at N = 64, P = 4.
    assert_eq!(json("pamela bound")["tl"]["value"], 16.0);
    assert_eq!(json("pamela sim")["time"], 16.0);
    let sweep = json("pamela sweep");
    assert_eq!(sweep["points"].as_array().unwrap().len(), 3);
    assert_eq!(sweep["points"][0]["bound"], 64);
    // psim: 20 units of work, span 2 (the README's example graph).
    let g = json("graph analyze");
    assert_eq!((g["p"].clone(), g["work"].clone()), (2.into(), 20.0.into()));
    assert_eq!(json("graph sweep")["points"].as_array().unwrap().len(), 3);
    // processors.etccs, T6-1: EXEC {14}.
    assert_eq!(json("etccs analyse")["agents"][0]["max"], "14");
    // Two prediction points of every model.
    let f = json("fit");
    assert_eq!(
        f["models"][0]["predictions"].as_array().unwrap().len(),
        2,
        "{f}"
    );
    assert_eq!(json("taskpar predict")["p"], 2.0);
    assert_eq!(json("semi fit").as_array().unwrap().len(), 2); // P = 1 and P = 2
    assert_eq!(json("semi predict")["params"]["N"], 100.0);
    assert_eq!(json("semi sweep").as_array().unwrap().len(), 6);
    assert_eq!(json("semi validate")["table"].as_array().unwrap().len(), 2);
}

#[test]
fn taskpar_predict_prints_an_array_for_several_points() {
    let dir = tempdir("grammar-predict");
    let model = taskpar_model(&dir);
    let out = stdout(&[
        "taskpar", "predict", &model, "-D", "n=20", "-D", "p=1,2", "--format", "json",
    ]);
    let v: Value = serde_json::from_str(&out).expect("one document");
    let ps: Vec<f64> = v
        .as_array()
        .expect("an array")
        .iter()
        .map(|x| x["p"].as_f64().unwrap())
        .collect();
    assert_eq!(ps, [1.0, 2.0]);
}

#[test]
fn an_unknown_flag_is_a_usage_error_in_every_command() {
    let dir = tempdir("grammar-flag");
    let model = taskpar_model(&dir);
    let mut all: Vec<Vec<String>> = commands(&model).into_iter().map(|(_, a)| a).collect();
    all.push(with(&["semi", "check", &ex("semi", "ge.tg")], &[]));
    all.push(with(
        &[
            "graph",
            "convert",
            &ex("graphs", "psim.json"),
            &dir.join("g.dot").display().to_string(),
        ],
        &[],
    ));
    all.push(with(&["graph", "gen", "layered", "--tasks", "5"], &[]));
    all.push(with(
        &["taskpar", "record", "--app", "a", "--sizes", "1"],
        &[],
    ));
    all.push(with(&["probe", "--quick"], &[]));
    all.push(with(&["demo"], &[]));
    for args in all {
        // The unknown flag before any `--` (record's command follows it).
        let mut a = args.clone();
        a.push("--no-such-flag".into());
        if a[..2] == ["taskpar", "record"] {
            a.extend(["--".into(), "true".into()]);
        }
        let err = fails(&a, 2);
        assert!(
            err.contains("unexpected argument '--no-such-flag'"),
            "{a:?}: {err}"
        );
        assert!(err.contains("Usage: vates "), "{a:?}: {err}");
    }
}

#[test]
fn an_unknown_d_name_is_a_usage_error_in_every_command_that_takes_d() {
    let dir = tempdir("grammar-d");
    let model = taskpar_model(&dir);
    let datapar = ex("pamela", "datapar.pam");
    let ge = ex("semi", "ge.tg");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            with(&["pamela", "bound", &datapar, "-D", "tau=1"], &[]),
            "-D tau=1: the model has no parameter `tau`",
        ),
        (
            with(&["pamela", "sim", &datapar, "-D", "Q=1"], &[]),
            "-D Q=1: the model has no parameter `Q`",
        ),
        (
            with(&["pamela", "sweep", &datapar, "-D", "Q=1..4"], &[]),
            "its parameters: N, P, tau_c, tau_l, tau_g",
        ),
        (
            with(
                &["graph", "analyze", &ex("graphs", "psim.json"), "-D", "N=4"],
                &[],
            ),
            "one parameter, P",
        ),
        (
            with(
                &["graph", "sweep", &ex("graphs", "psim.json"), "-D", "N=1..4"],
                &[],
            ),
            "one parameter, P",
        ),
        (
            with(
                &[
                    "etccs",
                    "analyse",
                    &ex("etccs", "processors.etccs"),
                    "-D",
                    "zz=3",
                ],
                &[],
            ),
            "cannot override `zz`",
        ),
        (
            with(&["fit", &ex("fit", "runs.csv"), "-D", "q=4"], &[]),
            "no parameter `q` in the measurements",
        ),
        (
            with(&["fit", &ex("fit", "runs.csv"), "--predict", "q=4"], &[]),
            "--predict `q=4`: no parameter `q`",
        ),
        (
            with(&["taskpar", "predict", &model, "-D", "size=4"], &[]),
            "has no parameter `size`",
        ),
        (
            with(&["semi", "check", &ge, "-D", "M=1"], &[]),
            "the model has no parameter `M`",
        ),
        (
            with(&["semi", "predict", &ge, "-D", "M=1"], &GE_COEFFS),
            "the model has no parameter `M`",
        ),
        (
            with(&["semi", "sweep", &ge, "-D", "M=1..2"], &GE_COEFFS),
            "the model has no parameter `M`",
        ),
    ];
    for (args, want) in cases {
        let err = fails(&args, 2);
        assert!(err.contains(want), "{args:?}: want {want:?} in {err}");
    }
}

#[test]
fn other_names_given_by_flags_are_usage_errors() {
    let datapar = ex("pamela", "datapar.pam");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            with(&["pamela", "bound", &datapar, "--root", "nope"], &[]),
            "--root nope: the model has no process `nope`",
        ),
        (
            with(
                &[
                    "etccs",
                    "analyse",
                    &ex("etccs", "processors.etccs"),
                    "--agent",
                    "Nope",
                ],
                &[],
            ),
            "--agent Nope: ",
        ),
        (
            with(
                &[
                    "etccs",
                    "analyse",
                    &ex("etccs", "processors.etccs"),
                    "--symbolic",
                    "zz",
                ],
                &[],
            ),
            "--symbolic: ",
        ),
        (
            with(
                &[
                    "taskpar",
                    "fit",
                    &ex("taskpar", "train.csv"),
                    "--app",
                    "sortt",
                ],
                &["--format", "json"],
            ),
            "did you mean `sort`?",
        ),
        (
            with(&["fit", &ex("fit", "runs.csv"), "--metric", "nope"], &[]),
            "--metric: ",
        ),
        (
            with(
                &[
                    "semi",
                    "fit",
                    &ex("semi", "ge.tg"),
                    "--samples",
                    &ex("semi", "ge_samples.csv"),
                    "--by",
                    "Q",
                ],
                &[],
            ),
            "--by Q: the model has no parameter `Q`",
        ),
        (
            with(
                &["semi", "predict", &ex("semi", "ge.tg"), "-D", "N=100"],
                &["-D", "P=2", "-C", "c_nope=1"],
            ),
            "the model has no coefficient `c_nope`",
        ),
    ];
    for (args, want) in cases {
        let err = fails(&args, 2);
        assert!(err.contains(want), "{args:?}: want {want:?} in {err}");
    }
}

#[test]
fn a_malformed_input_file_is_an_input_error_in_every_command() {
    let dir = tempdir("grammar-bad");
    let junk = "this is { not a model\n";
    let pam = file(&dir, "bad.pam", junk);
    let graph = file(&dir, "bad.json", junk);
    let etccs = file(&dir, "bad.etccs", junk);
    let tg = file(&dir, "bad.tg", junk);
    let dag = file(&dir, "bad.dag", junk);
    let runs = file(&dir, "bad.csv", "p,n,time\n1,2,x\n");
    let samples = file(&dir, "s.csv", "N,P,segment,seconds\n100,1,elim,x\n");
    let ge = ex("semi", "ge.tg");
    let out = dir.join("out.json").display().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            with(&["pamela", "bound", &pam], &[]),
            "expected a declaration",
        ),
        (
            with(&["pamela", "sim", &pam], &[]),
            "expected a declaration",
        ),
        (
            with(&["pamela", "sweep", &pam, "-D", "P=1..2"], &[]),
            "expected a declaration",
        ),
        (
            with(&["graph", "analyze", &graph, "-D", "P=2"], &[]),
            "invalid task graph JSON",
        ),
        (
            with(&["graph", "sweep", &graph, "-D", "P=1..2"], &[]),
            "invalid task graph JSON",
        ),
        (
            with(&["graph", "convert", &graph, &out], &[]),
            "invalid task graph JSON",
        ),
        (with(&["etccs", "analyse", &etccs], &[]), "syntax error"),
        (
            with(&["fit", &runs], &[]),
            "`x` in column `time` is not a number",
        ),
        (
            with(&["taskpar", "stats", &dag], &[]),
            "not a vates DAG file",
        ),
        (
            with(&["taskpar", "fit", &runs, "--format", "json"], &[]),
            "no column `work`",
        ),
        (
            with(
                &["taskpar", "predict", &graph, "-D", "n=1", "-D", "p=1"],
                &[],
            ),
            "the model file is not valid JSON",
        ),
        (
            with(&["taskpar", "report", &runs, &runs], &[]),
            "no column `work`",
        ),
        (
            with(
                &[
                    "taskpar", "record", "--app", "a", "--sizes", "1", "-o", &runs,
                ],
                &["--", "true"],
            ),
            "is not a training file",
        ),
        (with(&["semi", "check", &tg], &[]), "expected a declaration"),
        (
            with(&["semi", "fit", &ge, "--samples", &samples], &[]),
            "`x` in column `seconds` is not a number",
        ),
        (
            with(&["semi", "predict", &tg, "-D", "N=1"], &[]),
            "expected a declaration",
        ),
        (
            with(
                &[
                    "semi",
                    "validate",
                    &ge,
                    "--samples",
                    &ex("semi", "ge_samples.csv"),
                    "--measured",
                    &runs,
                ],
                &[],
            ),
            "no column `N`",
        ),
        (
            with(&["semi", "sweep", &tg, "-D", "N=1..2"], &[]),
            "expected a declaration",
        ),
    ];
    for (args, want) in cases {
        let err = fails(&args, 1);
        assert!(err.contains(want), "{args:?}: want {want:?} in {err}");
    }
}

#[test]
fn a_grid_over_a_limit_is_an_input_error_not_a_usage_error() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            with(
                &[
                    "graph",
                    "sweep",
                    &ex("graphs", "psim.json"),
                    "-D",
                    "P=1..5000",
                ],
                &[],
            ),
            "5000 process counts, more than the limit of 4096",
        ),
        (
            with(
                &[
                    "etccs",
                    "analyse",
                    &ex("etccs", "processors.etccs"),
                    "-D",
                    "tadd=1..1000",
                    "-D",
                    "tmult=1..1000",
                ],
                &[],
            ),
            "more than the limit of 10000",
        ),
        (
            with(
                &[
                    "fit",
                    &ex("fit", "runs.csv"),
                    "-D",
                    "p=1..200",
                    "-D",
                    "n=1..200",
                ],
                &[],
            ),
            "40000 points, more than the limit of 10000",
        ),
        (
            with(
                &["semi", "sweep", &ex("semi", "ge.tg"), "-D", "N=1..1000"],
                &["-D", "P=1..1000", "-C", "c_init=1"],
            ),
            "1000000 points",
        ),
    ];
    for (args, want) in cases {
        let err = fails(&args, 1);
        assert!(err.contains(want), "{args:?}: want {want:?} in {err}");
    }
}

#[test]
fn negative_values_reach_the_flags_own_check() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            with(
                &[
                    "graph",
                    "analyze",
                    &ex("graphs", "psim.json"),
                    "--procs",
                    "-3",
                ],
                &[],
            ),
            "process counts must be whole numbers from 1",
        ),
        (
            with(&["fit", &ex("fit", "runs.csv"), "--bootstrap", "-5"], &[]),
            "-5 is not in 0..=100000",
        ),
        (
            with(&["graph", "gen", "layered", "--tasks", "-5"], &[]),
            "tip: --tasks <N> cannot be negative (got `-5`)",
        ),
        (
            with(&["probe", "--max-threads", "-1"], &[]),
            "tip: --max-threads <N> cannot be negative (got `-1`)",
        ),
        (
            with(
                &[
                    "taskpar",
                    "stats",
                    &ex("taskpar", "sparselu.dag"),
                    "--burden",
                    "-1",
                ],
                &[],
            ),
            "`-1` is not a positive number",
        ),
    ];
    for (args, want) in cases {
        let err = fails(&args, 2);
        assert!(err.contains(want), "{args:?}: want {want:?} in {err}");
        assert!(
            !err.contains("use '-- -"),
            "{args:?}: the wrong hint: {err}"
        );
    }
}

#[test]
fn a_sampled_sweep_table_says_how_many_rows_it_shows() {
    let pamela = stdout(&[
        "pamela",
        "sweep",
        &ex("pamela", "datapar.pam"),
        "--engine",
        "bound",
        "-D",
        "N=64",
        "-D",
        "P=1..100",
        "-D",
        "tau_c=1",
        "-D",
        "tau_l=0.5",
        "-D",
        "tau_g=10",
    ]);
    assert!(
        pamela.contains("(60 of 100 points shown, evenly spaced; --csv FILE writes them all)"),
        "{pamela}"
    );
    let semi = stdout(&with(
        &[
            "semi",
            "sweep",
            &ex("semi", "ge.tg"),
            "-D",
            "N=100..1000:10",
            "-D",
            "P=1",
        ],
        &GE_COEFFS,
    ));
    assert!(
        semi.contains("(60 of 91 points shown, evenly spaced; --csv FILE writes them all)"),
        "{semi}"
    );
    // Its times are seconds, and say so; Θ is a count.
    let head = semi.lines().next().unwrap();
    assert!(
        head.contains("time (s)") && head.contains("theta"),
        "{head}"
    );
    assert!(!head.contains("theta (s)"), "{head}");
    // A table with every row says nothing.
    let small = stdout(&with(
        &[
            "semi",
            "sweep",
            &ex("semi", "ge.tg"),
            "-D",
            "N=100..200:50",
            "-D",
            "P=1",
        ],
        &GE_COEFFS,
    ));
    assert!(!small.contains("points shown"), "{small}");
    assert_eq!(small.lines().count(), 2 + 3, "{small}");
}

// `probe --format json` (one pretty document, the profile's keys) is checked by
// `probe_cli.rs::json_output_is_the_profile`: a probe run costs seconds, so it runs once.

#[test]
fn the_manuals_table_names_the_keys_each_command_prints() {
    let manual =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli.md"))
            .expect("docs/cli.md");
    let dir = tempdir("grammar-manual");
    let model = taskpar_model(&dir);
    for (name, _) in commands(&model) {
        let row = manual
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("no row for `{name}` in docs/cli.md's grammar table"));
        let json = row.split(" | ").nth(2).expect("a JSON column");
        let (array, keys) = shape(name);
        assert_eq!(json.starts_with("array"), array, "{name}: {json}");
        for k in keys {
            // `semi sweep`'s points hold the swept parameters by name.
            if name == "semi sweep" && (*k == "N" || *k == "P") {
                continue;
            }
            assert!(
                json.contains(&format!("`{k}`")),
                "{name}: `{k}` not in {json}"
            );
        }
    }
}

#[test]
fn an_etccs_sweep_prints_its_points_as_one_document() {
    let out = stdout(&[
        "etccs",
        "analyse",
        &ex("etccs", "processors.etccs"),
        "-D",
        "tadd=1,2",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&out).expect("one document");
    let points = v["points"].as_array().expect("points");
    assert_eq!(points.len(), 2);
    assert!(
        points[0]["consts"].is_object() || points[0]["consts"].is_array(),
        "{v}"
    );
    assert!(points[1]["agents"].is_array(), "{v}");
}
