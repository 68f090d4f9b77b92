//! Regression tests for the defects found by trying vates as a new user would (issue 17,
//! "Defects to fix on the way"); each test names the defect it pins.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{tempdir, vates};

/// Runs `vates args…` with a time limit and returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = vates()
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write(dir: &Path, name: &str, text: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

/// Defect 1: an error past column 65,535 of a line renders (no panic), with the line and
/// column of the whole text, and shows a window of the line rather than all of it.
#[test]
fn defect1_errors_render_at_any_column_of_a_one_line_task_graph() {
    let dir = tempdir("long-json");
    // What `json.dump` writes: one line. The unknown predecessor is near its end.
    let mut text = String::from("{\"tasks\": [{\"id\": \"anchor\", \"time\": 1}, ");
    for i in 0..20_000 {
        text.push_str(&format!("{{\"id\": \"t{i}\", \"time\": 1}}, "));
    }
    text.push_str("{\"id\": \"last\", \"time\": 1, \"preds\": [\"anchr\"]}]}");
    let col = text.find("\"anchr\"").unwrap() + 1;
    assert!(col > 65_535);
    let path = write(&dir, "g.json", text.as_bytes());
    let (code, _, err) = run(&["graph", "analyze", &path, "--procs", "2"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("unknown predecessor `anchr`"), "{err}");
    assert!(err.contains(&format!("line 1, column {col}")), "{err}");
    assert!(err.contains("did you mean `anchor`"), "{err}");
    assert!(
        err.len() < 4_000,
        "the whole line was echoed: {} bytes",
        err.len()
    );
}

/// Defect 1 for the PAMELA and ETCCS readers: a long line with an error far to the right.
#[test]
fn defect1_errors_render_at_any_column_of_pamela_and_etccs_models() {
    let dir = tempdir("long-models");
    let pad = " ".repeat(70_000);
    let pam = format!("resource s;\nmain = {pad}use(q, 1);\n");
    let path = write(&dir, "m.pam", pam.as_bytes());
    let (code, _, err) = run(&["pamela", "bound", &path]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("m.pam:2:{}", 8 + pad.len() + 4)),
        "{err}"
    );
    assert!(err.contains("undefined resource `q`"), "{err}");
    assert!(err.len() < 4_000, "{} bytes", err.len());

    let etccs = format!("define P = {pad}(a,1).Q\nanalyse P\n");
    let path = write(&dir, "m.etccs", etccs.as_bytes());
    let (code, _, err) = run(&["etccs", "analyse", &path]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("undefined agent `Q`"), "{err}");
    assert!(
        err.contains(&format!("m.etccs:1:{}", 12 + pad.len() + 6)),
        "{err}"
    );
    assert!(err.len() < 4_000, "{} bytes", err.len());
}

/// Defect 1: a one-line ETCCS file over the size limit is refused at once, without
/// echoing it.
#[test]
fn defect1_an_oversized_one_line_model_is_refused_quickly() {
    let dir = tempdir("huge-etccs");
    let text = "(a,1).".repeat(2_200_000); // 13 MB on one line
    let path = write(&dir, "big.etccs", text.as_bytes());
    let start = Instant::now();
    let (code, _, err) = run(&["etccs", "analyse", &path]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("larger than 1 MiB"), "{err}");
    assert!(err.len() < 2_000, "{} bytes", err.len());
    assert!(start.elapsed() < Duration::from_secs(10));
}

/// Defect 3 and issue 29: no text reader reads on into `/dev/zero`: its first block's NUL
/// byte is refused at once (before, readers stopped only at their size limit, after reading
/// up to 2.6 GB).
#[test]
fn defect3_readers_refuse_binary_input_at_once() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    for args in [
        vec!["etccs", "analyse", "/dev/zero"],
        vec!["pamela", "bound", "/dev/zero"],
        vec!["semi", "check", "/dev/zero"],
        vec!["fit", "/dev/zero"],
        vec!["taskpar", "fit", "/dev/zero"],
        vec!["graph", "analyze", "/dev/zero", "--procs", "2"],
        vec![
            "graph",
            "analyze",
            "/dev/zero",
            "--from",
            "json",
            "--procs",
            "2",
        ],
    ] {
        let start = Instant::now();
        let (code, _, err) = run(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("`/dev/zero` is not a text file: byte 0 is 0x00 (NUL)"),
            "{args:?}: {err}"
        );
        assert!(start.elapsed() < Duration::from_secs(5), "{args:?}");
    }
}

/// Defect 3: non-UTF-8 input names the byte, its offset, line and column, and gives the
/// right hint (not "check the path and its permissions").
#[test]
fn defect3_non_utf8_input_names_the_byte() {
    let dir = tempdir("latin1");
    let mut text = b"define P = (a,1).nil\n-- caf".to_vec();
    text.push(0xe9); // Latin-1 é
    text.extend_from_slice(b"\nanalyse P\n");
    for (args, name) in [
        (vec!["etccs", "analyse"], "m.etccs"),
        (vec!["pamela", "bound"], "m.pam"),
        (vec!["graph", "analyze", "--procs", "2"], "g.json"),
    ] {
        let path = write(&dir, name, &text);
        let mut args = args.clone();
        args.insert(2, &path);
        let (code, _, err) = run(&args);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("byte 0xe9 at offset 27 (line 2, column 7)"),
            "{err}"
        );
        assert!(err.contains("iconv"), "{err}");
        assert!(!err.contains("permissions"), "{err}");
    }
}

fn example(dir: &str, name: &str) -> String {
    common::example_in(dir, name)
}

/// Defect 2: a queueing center with `service = 1e308` used to make the analysis loop
/// forever (the MVA recursion turned to NaN); now it ends with an error naming the task.
#[test]
fn defect2_a_huge_service_demand_ends_with_an_error() {
    let dir = tempdir("huge-service");
    let toml = "rate = \"bus\"\n[[center]]\nname = \"bus\"\nkind = \"queueing\"\nservice = 1e308\n";
    let sys = write(&dir, "big.toml", toml.as_bytes());
    let graph = example("graphs", "psim_rates.json");
    for procs in ["2", "3"] {
        let start = Instant::now();
        let (code, out, err) = run(&[
            "graph", "analyze", &graph, "--procs", procs, "--system", &sys,
        ]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(err.contains("overflows"), "{err}");
        assert!(err.contains("task `"), "{err}");
        assert!(start.elapsed() < Duration::from_secs(30));
    }
    // Two centers whose demands sum past the largest number are refused when read.
    let toml = "[[center]]\nname = \"a\"\nkind = \"delay\"\nservice = 1e308\n\
                [[center]]\nname = \"b\"\nkind = \"delay\"\nservice = 1e308\n";
    let sys = write(&dir, "sum.toml", toml.as_bytes());
    let (code, _, err) = run(&["graph", "analyze", &graph, "--procs", "2", "--system", &sys]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("center `b`"), "{err}");
}

/// Defect 5: task times whose sum overflows, rates of 1e308 and a trace scale that
/// overflows are errors that name the input, not `inf`, `null` or exit 0.
#[test]
fn defect5_overflow_is_an_error_naming_the_input() {
    let dir = tempdir("overflow");
    let times =
        r#"{"tasks": [{"id": "a", "time": 1e308}, {"id": "b", "time": 1e308, "preds": ["a"]}]}"#;
    let g = write(&dir, "t.json", times.as_bytes());
    let (code, out, err) = run(&["graph", "analyze", &g, "--procs", "2", "--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("task `b`") && err.contains("total work overflow"),
        "{err}"
    );

    let rates = r#"{"tasks": [{"id": "a", "time": 1, "rate": {"bus": 1e308}},
                               {"id": "b", "time": 1, "rate": {"bus": 1e308}}]}"#;
    let g = write(&dir, "r.json", rates.as_bytes());
    let bus = example("graphs", "bus.toml");
    let (code, out, err) = run(&["graph", "analyze", &g, "--procs", "2", "--system", &bus]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("task `a`") && err.contains("overflow"),
        "{err}"
    );

    let psim = example("graphs", "psim.json");
    let trace = dir.join("tr.json").display().to_string();
    let (code, _, err) = run(&[
        "graph",
        "analyze",
        &psim,
        "--procs",
        "3",
        "--trace",
        &trace,
        "--trace-unit-us",
        "1e308",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--trace-unit-us") && err.contains("overflows interval"),
        "{err}"
    );
}

/// Defect 7: when the P = 1 baseline deadlocks, the speedup line says so, rather than
/// blaming the run the user asked for; the JSON gives the reason too.
#[test]
fn defect7_the_speedup_note_names_the_baseline_run() {
    let g = example("graphs", "locusroute.json");
    let (code, out, err) = run(&["graph", "analyze", &g, "--procs", "4", "--policy", "queues"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "speedup              = n/a (the P = 1 baseline run failed: the schedule deadlocked"
        ),
        "{out}"
    );
    let (_, out, _) = run(&[
        "graph", "analyze", &g, "--procs", "4", "--policy", "queues", "--format", "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["makespan_p1"].is_null());
    assert!(v["p1_error"]
        .as_str()
        .unwrap()
        .starts_with("the P = 1 baseline run failed"));
}

/// Defect 6: ETCCS JSON says how many paths its `exec` list leaves out, and gives every
/// time with its count (the thesis format says "... (N more)").
#[test]
fn defect6_etccs_json_says_what_exec_leaves_out() {
    let dir = tempdir("exec-cut");
    // Nine parallel unit actions: 9! = 362,880 interleavings, all at time 1.
    let comps = ["(tau,1).nil"; 9].join(" | ");
    let path = write(
        &dir,
        "m.etccs",
        format!("define P = {comps}\nanalyse P\n").as_bytes(),
    );
    let (code, out, err) = run(&["etccs", "analyse", &path, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let a = &v["agents"][0];
    assert_eq!(a["exec"].as_array().unwrap().len(), 100_000);
    assert_eq!(a["paths"], "362880");
    assert_eq!(a["exec_omitted"], "262880");
    assert_eq!(
        a["exec_counts"],
        serde_json::json!([{"time": "1", "count": "362880"}])
    );
}

/// Defect 7: ETCCS output paths are checked before the analysis, not after it.
#[test]
fn defect7_etccs_checks_output_paths_first() {
    let model = example("etccs", "scatter.etccs");
    for flag in ["--trace", "--gantt", "--map"] {
        let start = Instant::now();
        let (code, out, err) = run(&[
            "etccs",
            "analyse",
            &model,
            "--agent",
            "NonBlockingBus",
            "--const",
            "p=9",
            flag,
            "/nonexistent-dir/out",
        ]);
        assert_eq!(code, 1, "{flag}: {err}");
        assert!(out.is_empty(), "{flag}: {out}");
        assert!(
            err.contains("cannot write `/nonexistent-dir/out`"),
            "{flag}: {err}"
        );
        // p = 10 takes over a second to analyse in a release build (far more in this
        // debug build); the check comes first.
        assert!(start.elapsed() < Duration::from_secs(5), "{flag}");
    }
}

/// The engines report which limit stopped them and which values they lack, without
/// naming flags; the command line turns that into hints that name its flags.
#[test]
fn stop_reasons_and_missing_values_render_with_the_flags() {
    let mrm = example("pamela", "mrm.pam");
    let (code, _, err) = run(&[
        "pamela",
        "sim",
        &mrm,
        "-D",
        "N=10",
        "-D",
        "P=4",
        "-D",
        "tau_l=3",
        "-D",
        "tau_s=1",
        "--max-events",
        "50",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("stopped after 50 events, the event limit"),
        "{err}"
    );
    assert!(err.contains("raise --max-events (now 50)"), "{err}");

    let (code, _, err) = run(&[
        "pamela", "sim", &mrm, "-D", "P=4", "-D", "tau_l=3", "-D", "tau_s=1",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("-D N="), "{err}");

    let scatter = example("etccs", "scatter.etccs");
    let (code, _, err) = run(&[
        "etccs",
        "analyse",
        &scatter,
        "--agent",
        "NonBlockingBus",
        "--const",
        "p=4",
        "--max-states",
        "100",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("raise --max-states (now 100)"), "{err}");

    // A name both given a value and made symbolic is a usage error of the flags.
    let (code, _, err) = run(&[
        "etccs",
        "analyse",
        &scatter,
        "--agent",
        "ScatterBus",
        "--const",
        "p=3",
        "--symbolic",
        "p",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--const") && err.contains("--symbolic"),
        "{err}"
    );
}

/// Defect 2: `pamela sim --gantt/--trace` kept every event's intervals without bound; now
/// the timeline stops at `--max-timeline` intervals, says so, and the run goes on.
#[test]
fn defect2_the_simulated_timeline_is_bounded() {
    let dir = tempdir("timeline-cut");
    let mrm = example("pamela", "mrm.pam");
    let gantt = dir.join("g.svg").display().to_string();
    let (code, out, err) = run(&[
        "pamela",
        "sim",
        &mrm,
        "-D",
        "N=1000",
        "-D",
        "P=8",
        "-D",
        "tau_l=3",
        "-D",
        "tau_s=1",
        "--gantt",
        &gantt,
        "--max-timeline",
        "100",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("events       = 16000"), "{out}");
    assert!(err.contains("the timeline files stop at time"), "{err}");
    assert!(err.contains("raise --max-timeline (now 100)"), "{err}");
    let svg = std::fs::read_to_string(&gantt).unwrap();
    assert!(svg.len() < 200_000, "{} bytes", svg.len());
}

/// Defect 2: `par i in 1..p : W` of trivial components has p + 1 states, but its analysis
/// took time growing as p³ (p = 3000: 24 s, 564 MB). Removals of equal components now share
/// one successor lookup, and parallel edges one copy of the successor's distribution.
#[test]
fn defect2_many_equal_components_cost_little() {
    let dir = tempdir("par-many");
    let model = "const p = 4;\nagent W = tau@1 . nil;\nagent S = par i in 1..p : W;\nanalyse S\n";
    let path = write(&dir, "par.etccs", model.as_bytes());
    // Exact: 20! interleavings, all taking time 1.
    let (code, out, err) = run(&[
        "etccs", "analyse", &path, "--const", "p=20", "--format", "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["agents"][0]["states"], 21);
    assert_eq!(v["agents"][0]["paths"], "2432902008176640000");
    assert_eq!(
        v["agents"][0]["pexec"],
        serde_json::json!([{"time": "1", "prob": "1"}])
    );
    // Large p in a debug build: seconds, not minutes.
    let start = Instant::now();
    let (code, out, err) = run(&[
        "etccs", "analyse", &path, "--const", "p=1500", "--format", "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["agents"][0]["states"], 1501);
    assert_eq!(
        v["agents"][0]["paths"].as_str().unwrap().len(),
        4115,
        "1500! has 4115 digits"
    );
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

/// Defect 8: the demo's "try it" commands each write files of their own (two of them both
/// wrote `mrm.svg`).
#[test]
fn defect8_the_demo_suggestions_write_distinct_files() {
    let (code, out, err) = run(&["demo"]);
    assert_eq!(code, 0, "{err}");
    let tail = out.split("Try it yourself:").nth(1).expect("suggestions");
    let mut files = Vec::new();
    for line in tail.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for w in words.windows(2) {
            if ["--gantt", "--plot", "--trace", "--csv", "--map"].contains(&w[0]) {
                files.push(w[1].to_string());
            }
        }
    }
    assert!(files.len() >= 5, "{files:?}");
    let mut unique = files.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        files.len(),
        "a file is written twice: {files:?}"
    );
}

/// Defect 7: numbers with an exponent. ETCCS reads `1e3` exactly; DOT has no exponent and
/// says so, instead of "expected `=`" at the letter after the digits.
#[test]
fn defect7_numbers_with_exponents() {
    let dir = tempdir("exponents");
    let m = write(
        &dir,
        "e.etccs",
        b"const d = 2.5e3;\ndefine P = (a,d).(b,1e-1).nil\nanalyse P\n",
    );
    let (code, out, err) = run(&["etccs", "analyse", &m, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["agents"][0]["exec"], serde_json::json!(["25001/10"]));
    let m = write(&dir, "big.etccs", b"define P = (a,1e999).nil\nanalyse P\n");
    let (code, _, err) = run(&["etccs", "analyse", &m]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("exponent larger than 400"), "{err}");

    let g = write(
        &dir,
        "g.dot",
        b"digraph { a [time=1e308]; b [time=1]; a -> b }\n",
    );
    let (code, _, err) = run(&["graph", "analyze", &g, "--procs", "2"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("badly delimited number `1e308`"), "{err}");
    assert!(err.contains("\"1e308\""), "{err}");
    assert!(!err.contains("expected `=`"), "{err}");
}

/// Defect 7: ETCCS errors in a well-formed model are not called syntax errors.
#[test]
fn defect7_etccs_model_errors_are_not_syntax_errors() {
    let dir = tempdir("etccs-kinds");
    let m = write(&dir, "u.etccs", b"define P = (a,1/0).nil\nanalyse P\n");
    let (code, _, err) = run(&["etccs", "analyse", &m]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("u.etccs:1:15: error: division by zero"),
        "{err}"
    );
    assert!(!err.contains("syntax error"), "{err}");
    let m = write(&dir, "s.etccs", b"define P = (a,1).nil $\n");
    let (_, _, err) = run(&["etccs", "analyse", &m]);
    assert!(
        err.contains("syntax error: unexpected character `$`"),
        "{err}"
    );
}

/// Defect 7: a model in which nothing can happen (every action restricted without a
/// partner) and no `Terminated` used to be reported as terminated at time 0 without a word.
#[test]
fn defect7_a_model_where_nothing_can_happen_is_flagged() {
    let dir = tempdir("stuck");
    let m = write(
        &dir,
        "d.etccs",
        b"define P = ((a,1).nil | (b,2).nil)\\{a,b}\nanalyse P\n",
    );
    let (code, out, err) = run(&["etccs", "analyse", &m]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("warning: no action of `P` can happen"),
        "{out}"
    );
    assert!(out.contains("`Terminated`"), "{out}");
    // A model that runs and ends with idle servers is not flagged.
    let (_, out, _) = run(&["etccs", "analyse", &example("etccs", "messages.etccs")]);
    assert!(!out.contains("can happen"), "{out}");
}

/// Defect 4: a bound sweep over a point where the model is undefined (`x/x` at x = 0) used
/// to print T^l = 1 there and exit 0; it now fails like a simulation would.
#[test]
fn defect4_a_bound_sweep_fails_where_the_model_is_undefined() {
    let dir = tempdir("undefined");
    let m = write(&dir, "m.pam", b"param x; resource s; main = use(s, x/x);\n");
    let (code, out, err) = run(&["pamela", "sweep", &m, "-D", "x=-1..1", "--engine", "bound"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("undefined at 1 point(s)"), "{err}");
    assert!(err.contains("at x=0: division by zero"), "{err}");
    let (code, _, err) = run(&["pamela", "bound", &m, "-D", "x=0"]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("-D NAME=VALUE"), "{err}");
    let neg = write(&dir, "n.pam", b"resource s; main = use(s, -5);\n");
    let (code, _, err) = run(&["pamela", "bound", &neg]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("time is negative"), "{err}");
}

/// A closed standard error (`vates … 2>&1 | head -1`) does not turn an error into a panic:
/// the exit status stays 1.
#[test]
fn a_closed_standard_error_is_not_a_panic() {
    let dir = tempdir("closed-stderr");
    let deep = write(
        &dir,
        "deep.dot",
        format!("digraph {}{}", "{".repeat(10_000), "}".repeat(10_000)).as_bytes(),
    );
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("vates"))
        .args(["graph", "analyze", &deep, "-D", "P=2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stderr.take());
    let status = child.wait().expect("exits");
    assert_eq!(status.code(), Some(1));
}

/// A process-count range too long to sweep says how long it is.
#[test]
fn an_oversized_process_range_gives_its_length() {
    let graph = example("graphs", "psim.json");
    let (code, _, err) = run(&["graph", "sweep", &graph, "-D", "P=1..1e30"]);
    // A limit hit: status 1, as every command's.
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("has 1000000000000000000000000000000 process counts"),
        "{err}"
    );
}

/// Review of issue 29's keyed messages: the user's own braces (a file named `s{n}.etccs`,
/// an agent `X{procs}`, an output `out{n}.xml`) come out as typed, never as a flag, while
/// the libraries' keys in the same messages are spelt as flags.
#[test]
fn a_user_s_braces_are_never_taken_for_flags() {
    let d = tempdir("braces");
    let model = d.join("s{n}.etccs");
    std::fs::copy(common::example_in("etccs", "scatter.etccs"), &model).unwrap();
    let model = model.to_str().unwrap();
    let (code, _, err) = run(&["etccs", "analyse", model, "--symbolic", "zz"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--symbolic: ") && err.contains("s{n}.etccs"),
        "{err}"
    );
    let (code, _, err) = run(&["etccs", "analyse", model, "--agent", "X{procs}"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--agent X{procs}: ") && err.contains("no agent `X{procs}`"),
        "{err}"
    );
    let graph = common::example_in("graphs", "blast-chameleon-small-001.json");
    let out = d.join("out{n}.xml");
    let (code, _, err) = run(&["graph", "convert", &graph, out.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("out{n}.xml") && err.contains("--to json|dot"),
        "{err}"
    );
    let (code, _, err) = run(&["graph", "sweep", &graph, "--procs", "x{n}=4"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("not `x{n}`: give `-D P=8` or `--procs 8`"),
        "{err}"
    );
    let system = d.join("b{procs}.toml");
    std::fs::write(&system, "[[center]]\nkind = 3\n").unwrap();
    let (code, _, err) = run(&[
        "graph",
        "analyze",
        &graph,
        "-p",
        "2",
        "--system",
        system.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("b{procs}.toml"), "{err}");
}

/// Review of issue 29: a misspelt `--op` lists each operation the tables have once (they
/// were listed once per platform and time-shared group).
#[test]
fn a_misspelt_operation_lists_each_operation_once() {
    let table = common::example_in("collectives", "here.csv");
    let (code, _, err) = run(&["collectives", "fit", &table, "--op", "barier"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the tables have allreduce, alltoall, barrier,")
            && err.contains("did you mean `barrier`?"),
        "{err}"
    );
}

/// Review of issue 29: `graph gen`'s advice for an output extension it cannot tell names
/// `--to`, and `graph gen` has it (it had no `--to`).
#[test]
fn graph_gen_takes_the_to_its_advice_names() {
    let d = tempdir("gen-to");
    let out = d.join("g.txt");
    let (code, _, err) = run(&[
        "graph",
        "gen",
        "layered",
        "--tasks",
        "10",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("or --to json|dot"), "{err}");
    let (code, dot, err) = run(&["graph", "gen", "layered", "--tasks", "5", "--to", "dot"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        dot.starts_with("digraph taskgraph {") && dot.matches("[time=").count() == 5,
        "{dot}"
    );
}

/// Review of issue 29: values no command can use are refused as usage errors (exit 2), as
/// every other command refuses them, and the PAMELA sweep suggests the bound alone only for
/// a grid the bound can take.
#[test]
fn review_values_are_refused_and_advice_fits_the_grid() {
    let table = common::example_in("collectives", "here.csv");
    let skel = common::example_in("collectives", "geometric.skel");
    let (code, _, err) = run(&[
        "collectives",
        "skeleton",
        &skel,
        "--table",
        &table,
        "-D",
        "p=2",
        "-D",
        "n=64",
        "--etccs",
        "bus",
        "--max-states",
        "0",
    ]);
    assert_eq!(code, 2, "{err}");
    let runs = common::example_in("fit", "runs.csv");
    let (code, _, err) = run(&[
        "fit",
        &runs,
        "--y",
        "time",
        "--basis",
        "p",
        "--method",
        "lasso-lars-cv",
        "--cv",
        "0",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--cv"), "{err}");
    let (code, _, err) = run(&["campaign", "run", "nowhere.toml", "--clock-hz", "-3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--clock-hz"), "{err}");
    let mrm = common::example_in("pamela", "mrm.pam");
    let sweep = |n: &str| {
        run(&[
            "pamela",
            "sweep",
            &mrm,
            "-D",
            "P=1..10000",
            "-D",
            n,
            "-D",
            "tau_l=3",
            "-D",
            "tau_s=1",
        ])
    };
    let (code, _, err) = sweep("N=1..100000");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("1000000000 points") && !err.contains("--engine bound"),
        "{err}"
    );
    let (code, _, err) = sweep("N=1..10000");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("or --engine bound (up to 10^8 points)"),
        "{err}"
    );
}

/// Review of issue 29: a range given to `semi predict` points to `semi sweep`, as PAMELA's
/// commands point to `pamela sweep`.
#[test]
fn semi_predict_points_a_range_to_semi_sweep() {
    let model = common::example_in("semi", "ge.tg");
    let (code, _, err) = run(&["semi", "predict", &model, "-D", "N=240..480", "-D", "P=2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`vates semi predict` takes one value per parameter; sweep with `vates semi sweep MODEL -D N=240..480`"), "{err}");
}

/// Final review of issues 29 and 33: a campaign's timeout of 1e308 is quoted short, not as
/// its 309 digits.
#[test]
fn a_huge_campaign_timeout_is_quoted_short() {
    let d = tempdir("huge-timeout");
    let file = d.join("c.toml");
    std::fs::write(
        &file,
        "name = \"x\"\ncommand = \"true {n}\"\nruntime = \"plain\"\ntimeout = 1e308\n\
         [train]\nsizes = [1]\nworkers = [1]\nrepetitions = 1\n",
    )
    .unwrap();
    let (code, _, err) = run(&["campaign", "plan", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("c.toml:4:11: a timeout of 1e+308 s: it must be above 0"),
        "{err}"
    );
}
