//! End-to-end tests of `vates taskpar` (stats, record) and of replaying a recorded DAG with
//! `vates graph analyze`, on DAG files recorded here with taskrec.

use std::path::{Path, PathBuf};

mod common;
use common::{fails, json, stdout, tempdir};

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = taskrec::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// Records fib(n) (all strands kept when `collapse` is off) into `dir/name`.
fn record(dir: &Path, name: &str, n: u64, collapse: bool) -> PathBuf {
    let (v, dag) = taskrec::record_with(taskrec::Options { collapse }, || fib(n));
    assert!(v > 0);
    let meta = taskrec::Meta {
        program: "fib".into(),
        parameters: vec![("n".into(), n as f64)],
        collapse,
    };
    let p = dir.join(name);
    std::fs::write(&p, taskrec::encode(&dag, &meta)).expect("write");
    p
}

#[test]
fn stats_in_every_format_agree_and_keep_the_identity() {
    let dir = tempdir("taskpar-stats");
    let dag = record(&dir, "fib.dag", 15, true);
    let dag = dag.to_str().unwrap();
    let v = json(&["taskpar", "stats", dag, "--format", "json"]);
    // fib(15) joins fib(16) − 1 = 986 times.
    assert_eq!(v["create_task"], 986);
    assert_eq!(v["wait_tasks"], 986);
    assert_eq!(v["end_task"], 987);
    assert_eq!(v["identity_gap"], 0.0);
    let s = &v["seconds"];
    let p = v["workers"].as_f64().unwrap();
    let sum =
        s["work"].as_f64().unwrap() + s["delay"].as_f64().unwrap() + s["no_work"].as_f64().unwrap();
    let total = p * s["elapsed"].as_f64().unwrap();
    assert!((sum - total).abs() <= 1e-9 * total, "{sum} vs {total}");
    assert!(s["span"].as_f64().unwrap() <= s["work"].as_f64().unwrap());
    let stat = stdout(&["taskpar", "stats", dag, "--format", "stat"]);
    assert!(
        stat.starts_with("create_task           = 986\nwait_tasks            = 986\n"),
        "{stat}"
    );
    assert!(stat.contains("compression ratio     = "), "{stat}");
    assert!(!stat.contains("warning"), "{stat}");
    let text = stdout(&["taskpar", "stats", dag]);
    assert!(text.starts_with("fib (n = 15): "), "{text}");
    assert!(
        text.contains("T1 + delay + no_work = P·elapsed exactly"),
        "{text}"
    );
}

#[test]
fn stats_write_the_timeline_and_the_profile() {
    let dir = tempdir("taskpar-files");
    let dag = record(&dir, "fib.dag", 12, false);
    let (trace, gantt, prof) = (dir.join("t.json"), dir.join("g.svg"), dir.join("p.svg"));
    stdout(&[
        "taskpar",
        "stats",
        dag.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        "--gantt",
        gantt.to_str().unwrap(),
        "--profile",
        prof.to_str().unwrap(),
    ]);
    let t: serde_json::Value = serde_json::from_slice(&std::fs::read(&trace).unwrap()).unwrap();
    let slices = t["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .count();
    // fib(12): 232 joins, each a create and a wait strand, and 233 end strands.
    assert_eq!(slices, 2 * 232 + 233);
    assert!(std::fs::read_to_string(&gantt).unwrap().starts_with("<svg"));
    let p = std::fs::read_to_string(&prof).unwrap();
    assert!(
        p.contains("available (running + ready)"),
        "{}",
        &p[..200.min(p.len())]
    );
}

#[test]
fn graph_analyze_replays_a_recording() {
    let dir = tempdir("taskpar-replay");
    let dag = record(&dir, "fib.dag", 12, false);
    let dag = dag.to_str().unwrap();
    let st = json(&["taskpar", "stats", dag, "--format", "json"]);
    let work = st["seconds"]["work"].as_f64().unwrap();
    let span = st["seconds"]["span"].as_f64().unwrap();
    let one = json(&["graph", "analyze", dag, "--procs", "1", "--format", "json"]);
    let m1 = one["makespan"].as_f64().unwrap();
    assert!((m1 - work).abs() <= 1e-9 * work, "{m1} vs work {work}");
    let many = json(&[
        "graph", "analyze", dag, "--procs", "4096", "--format", "json",
    ]);
    let m = many["makespan"].as_f64().unwrap();
    assert!((m - span).abs() <= 1e-9 * span, "{m} vs span {span}");
}

#[test]
fn bad_dag_files_are_named_errors() {
    let dir = tempdir("taskpar-bad");
    let good = std::fs::read(record(&dir, "fib.dag", 8, false)).unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty.dag", Vec::new(), "not a vates DAG file"),
        (
            "text.dag",
            b"{\"tasks\": []}".to_vec(),
            "not a vates DAG file",
        ),
        ("cut.dag", good[..good.len() / 2].to_vec(), "truncated"),
        (
            "v9.dag",
            {
                let mut b = good.clone();
                b[8] = 9;
                b
            },
            "version 9",
        ),
    ];
    for (name, bytes, want) in cases {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        let err = fails(&["taskpar", "stats", p.to_str().unwrap()], 1);
        assert!(err.contains(want), "{name}: {err}");
    }
    let err = fails(&["taskpar", "stats", "/dev/zero"], 1);
    assert!(err.contains("not a vates DAG file"), "{err}");
}

#[test]
fn record_refuses_a_run_that_recorded_another_run() {
    let dir = tempdir("taskpar-record-stale");
    // The program always leaves the recording of n = 10 on one worker: asked for n = 11 it
    // is refused by its size.
    record_at(&dir, 10, 1);
    let prog = fake_program(&dir, true);
    let csv = dir.join("t.csv");
    let err = fails(
        &[
            "taskpar",
            "record",
            "--app",
            "fib",
            "--sizes",
            "11",
            "--procs",
            "1",
            "--reps",
            "1",
            "-o",
            csv.to_str().unwrap(),
            "--",
            prog.to_str().unwrap(),
        ],
        1,
    );
    assert!(err.contains("recorded"), "{err}");
    assert!(!csv.exists(), "no row was written");
}

/// Records fib(n) on a pool of `p` workers into `dir/fib-{n}-{p}.dag` (the header says n
/// and p, as a real run's would).
fn record_at(dir: &Path, n: u64, p: usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(p)
        .build()
        .unwrap();
    let (_, dag) = pool.install(|| taskrec::record(|| fib(n)));
    let meta = taskrec::Meta {
        program: "fib".into(),
        parameters: vec![("n".into(), n as f64)],
        collapse: true,
    };
    std::fs::write(
        dir.join(format!("fib-{n}-{p}.dag")),
        taskrec::encode(&dag, &meta),
    )
    .unwrap();
}

/// A stand-in program for `record`: it copies the recording of its n and RAYON_NUM_THREADS
/// (or, with `stale`, always that of n = 10 on 1 worker) to where VATES_TASKREC says and
/// writes an elapsed time where VATES_TASKREC_ELAPSED says, and fails for n = 13.
fn fake_program(dir: &Path, stale: bool) -> PathBuf {
    let script = dir.join("prog.sh");
    let source = if stale {
        format!("{}/fib-10-1.dag", dir.display())
    } else {
        format!("{}/fib-$1-$RAYON_NUM_THREADS.dag", dir.display())
    };
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             if [ \"$1\" = 13 ]; then echo 'n = 13 is unlucky' >&2; exit 3; fi\n\
             if [ -n \"$VATES_TASKREC\" ]; then cp \"{source}\" \"$VATES_TASKREC\"; fi\n\
             if [ -n \"$VATES_TASKREC_ELAPSED\" ]; then echo 0.001 > \"$VATES_TASKREC_ELAPSED\"; fi\n"
        ),
    )
    .unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&script)
        .status()
        .unwrap();
    script
}

#[test]
fn record_appends_one_row_per_run_and_resumes() {
    let dir = tempdir("taskpar-record");
    for n in 10..=12 {
        for p in 1..=2 {
            record_at(&dir, n, p);
        }
    }
    let prog = fake_program(&dir, false);
    let csv = dir.join("train.csv");
    let args = |sizes: &'static str| {
        vec![
            "taskpar".to_string(),
            "record".into(),
            "--sizes".into(),
            sizes.into(),
            "--procs".into(),
            "1,2".into(),
            "--reps".into(),
            "2".into(),
            "--app".into(),
            "fib".into(),
            "-o".into(),
            csv.display().to_string(),
            "--".into(),
            prog.display().to_string(),
        ]
    };
    let a: Vec<String> = args("10,11");
    let out = stdout(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.contains("8 runs of fib appended"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("app,n,p,rep,work,work_serial,delay,no_work,create_task,wait_tasks,span,elapsed,elapsed_untraced,burdened_span")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 8);
    assert_eq!((rows[0][1], rows[0][2], rows[0][3]), ("10", "1", "0"));
    assert_eq!(rows[0][8], "88"); // fib(10) joins 88 times
    assert_eq!(rows[0][12], "0.001");
    // work_serial is the p = 1 work of the same size.
    assert_eq!(rows[2][5], rows[0][4]);
    // Again with one more size: only its runs are made.
    let a = args("10..12");
    let out = stdout(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.contains("4 runs of fib appended"), "{out}");
    assert!(out.contains("(8 were there already)"), "{out}");
    // A failing run names the program, the worker count and its standard error.
    let a = args("13");
    let err = fails(&a.iter().map(String::as_str).collect::<Vec<_>>(), 1);
    assert!(
        err.contains("failed") && err.contains("n = 13 is unlucky"),
        "{err}"
    );
}

#[test]
fn record_checks_its_options_before_running() {
    let dir = tempdir("taskpar-record-bad");
    let csv = dir.join("t.csv");
    let csv = csv.to_str().unwrap();
    let err = fails(
        &[
            "taskpar", "record", "--app", "t", "--sizes", "10", "--procs", "2,4", "-o", csv, "--",
            "true",
        ],
        2,
    );
    assert!(
        err.contains("have no 1") && err.contains("--procs: add 1"),
        "{err}"
    );
    let err = fails(
        &[
            "taskpar", "record", "--app", "t", "--sizes", "ten", "-o", csv, "--", "true",
        ],
        2,
    );
    assert!(err.contains("--sizes `ten`"), "{err}");
    // A program that records nothing.
    let err = fails(
        &[
            "taskpar", "record", "--app", "t", "--sizes", "10", "--reps", "1", "-o", csv, "--",
            "true",
        ],
        1,
    );
    assert!(err.contains("wrote no VATES_TASKREC file"), "{err}");
    let err = fails(
        &[
            "taskpar",
            "record",
            "--app",
            "t",
            "--sizes",
            "10",
            "-o",
            csv,
            "--",
            "/nonexistent/prog",
        ],
        1,
    );
    assert!(err.contains("cannot run"), "{err}");
}

fn example(name: &str) -> String {
    common::example_in("taskpar", name)
}

/// The recorded BOTS runs (`bench/taskpar_real.sh`): fit a kernel, predict at a test size,
/// and report on the test runs.
#[test]
fn fit_predict_and_report_on_the_recorded_kernels() {
    let dir = tempdir("taskpar-model");
    let model = dir.join("sparselu.json");
    let model = model.to_str().unwrap();
    let text = stdout(&[
        "taskpar",
        "fit",
        &example("train.csv"),
        "--app",
        "sparselu",
        "-o",
        model,
    ]);
    assert!(text.starts_with("sparselu: trained on 36 runs"), "{text}");
    assert!(
        text.contains("eq. 11") && text.contains("model written to"),
        "{text}"
    );
    let v = json(&[
        "taskpar", "predict", model, "-n", "160", "-p", "2", "--format", "json",
    ]);
    let (time, work, delay, no_work) = (
        v["time"].as_f64().unwrap(),
        v["work"].as_f64().unwrap(),
        v["delay"].as_f64().unwrap(),
        v["no_work"].as_f64().unwrap(),
    );
    // Eq. 9.
    assert!((time - (work + delay + no_work) / 2.0).abs() < 1e-12 * time);
    let (lo, hi) = (
        v["interval"][0].as_f64().unwrap(),
        v["interval"][1].as_f64().unwrap(),
    );
    assert!(lo <= time && time <= hi, "{lo} {time} {hi}");
    assert!(v["direct"].as_f64().unwrap() > 0.0);
    assert!(
        v["warnings"][0]
            .as_str()
            .unwrap()
            .contains("largest training size"),
        "{v}"
    );
    // Several points: an array, and a plot over p.
    let plot = dir.join("p.svg");
    let v = json(&[
        "taskpar",
        "predict",
        model,
        "-n",
        "160",
        "-p",
        "1..4",
        "--plot",
        plot.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(v.as_array().unwrap().len(), 4);
    assert!(std::fs::read_to_string(&plot)
        .unwrap()
        .contains("bound T1/p"));
    // The report: every kernel with test runs, the baseline beside the model.
    let r = json(&[
        "taskpar",
        "report",
        &example("train.csv"),
        &example("test.csv"),
        "--transform",
        "fib:n=2^n",
        "--transform",
        "nqueens:n=2^n",
        "--format",
        "json",
    ]);
    let apps: Vec<&str> = r["medians"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["app"].as_str().unwrap())
        .collect();
    assert_eq!(
        apps,
        ["fib", "nqueens", "sort", "sparselu", "fft", "strassen"]
    );
    for m in r["medians"].as_array().unwrap() {
        assert!(
            m["median"]["time"].as_f64().is_some() && m["median"]["direct"].as_f64().is_some(),
            "{m}"
        );
    }
}

/// How the forms are chosen: by forward validation (the default) or shuffled folds, with
/// or without the PMNF search; the text names the scheme and every candidate's score, and
/// the JSON model records the options and PMNF terms by name.
#[test]
fn fit_names_how_the_forms_were_chosen() {
    let dir = tempdir("taskpar-forms");
    let model = dir.join("sort.json");
    let model = model.to_str().unwrap();
    let fit = |app: &'static str, extra: &[&str]| {
        let mut args = vec![
            "taskpar",
            "fit",
            "--app",
            app,
            "--bootstrap",
            "0",
            "-o",
            model,
        ];
        args.extend_from_slice(extra);
        let train = example("train.csv");
        args.push(&train);
        stdout(&args)
    };
    let forward = fit("sort", &[]);
    assert!(
        forward.contains("work_serial: intercept (chosen; forward-validation error: intercept "),
        "{forward}"
    );
    assert!(!forward.contains("PMNF"), "{forward}");
    let shuffled = fit("sort", &["--forms-by", "shuffled"]);
    assert!(
        shuffled.contains("work_serial: power law (chosen; cross-validation error: "),
        "{shuffled}"
    );
    // Strassen's T1' (n^2.8 plus a constant) is a PMNF search's.
    let searched = fit("strassen", &["--pmnf-search"]);
    assert!(
        searched.contains("work_serial: PMNF search (chosen; forward-validation error: "),
        "{searched}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(model).unwrap()).unwrap();
    assert_eq!(v["options"]["pmnf_search"], true);
    assert_eq!(v["options"]["selection"], "forward");
    assert_eq!(v["serial"]["features"][1], "n^(11/4)", "{}", v["serial"]);
    // A model whose size model is a PMNF search reads back and predicts.
    let m = json(&[
        "taskpar", "predict", model, "-n", "4096", "-p", "2", "--format", "json",
    ]);
    assert!(m["time"].as_f64().unwrap() > 0.0, "{m}");
    let err = fails(
        &["taskpar", "fit", "--forms-by", "loo", &example("train.csv")],
        2,
    );
    assert!(err.contains("possible values: forward, shuffled"), "{err}");
}

#[test]
fn bad_training_files_and_model_files_are_named_errors() {
    let dir = tempdir("taskpar-model-bad");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let model = dir.join("m.json");
    let model = model.to_str().unwrap();
    let empty = write("empty.csv", "");
    let err = fails(&["taskpar", "fit", &empty, "-o", model], 1);
    assert!(err.contains("empty"), "{err}");
    let missing = write("missing.csv", "app,n,p,work\nfib,10,1,0.5\n");
    let err = fails(&["taskpar", "fit", &missing, "-o", model], 1);
    assert!(err.contains("no column `work_serial`"), "{err}");
    let bad = write(
        "bad.csv",
        "n,p,work,work_serial,delay,no_work,create_task,wait_tasks,elapsed\n10,1,x,1,1,1,1,1,1\n",
    );
    let err = fails(&["taskpar", "fit", &bad, "-o", model], 1);
    assert!(err.contains("bad.csv:2:") && err.contains("`x`"), "{err}");
    let err = fails(&["taskpar", "fit", &example("train.csv"), "-o", model], 1);
    assert!(
        err.contains("applications") && err.contains("--app"),
        "{err}"
    );
    let err = fails(
        &[
            "taskpar",
            "fit",
            &example("train.csv"),
            "--app",
            "nope",
            "-o",
            model,
        ],
        2,
    );
    assert!(err.contains("--app nope: "), "{err}");
    assert!(err.contains("no runs of `nope`"), "{err}");
    let other = write(
        "v9.json",
        "{\"format\": \"vates-taskpar-model\", \"version\": 9}",
    );
    let err = fails(&["taskpar", "predict", &other, "-n", "10", "-p", "2"], 1);
    assert!(err.contains("version"), "{err}");
    let junk = write("junk.json", "not json");
    let err = fails(&["taskpar", "predict", &junk, "-n", "10", "-p", "2"], 1);
    assert!(err.contains("junk.json"), "{err}");
    let err = fails(
        &[
            "taskpar",
            "fit",
            &example("train.csv"),
            "--app",
            "fib",
            "--transform",
            "n=n^2",
            "-o",
            model,
        ],
        2,
    );
    assert!(err.contains("--transform"), "{err}");
}

/// A DAG Recorder fixture of crates/taskpar/tests/data/dag-recorder.
fn dr_fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../taskpar/tests/data/dag-recorder")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn dag_recorder_files_give_its_stat_file_and_replay() {
    // `--format stat` of DAG Recorder's `.dag` is the `.stat` it wrote for the run.
    for name in ["fib-12-w2", "nqueens-7-w2"] {
        let dag = dr_fixture(&format!("{name}.dag"));
        let got = stdout(&[
            "taskpar",
            "stats",
            &dag,
            "--format",
            "stat",
            "--clock-hz",
            "2.59614e9",
        ]);
        let want = std::fs::read_to_string(dr_fixture(&format!("{name}.stat"))).expect("stat");
        assert_eq!(got, want, "{name}");
    }
    // Without --clock-hz the ticks are read at this machine's clock, and a note says so.
    let dag = dr_fixture("fib-6-w2-nc.dag");
    let (out, err) = common::output_with_code(&["taskpar", "stats", &dag], 0);
    assert!(out.starts_with("fib.c: 2 workers"), "{out}");
    assert!(
        err.contains("does not say how fast its clock ran") && err.contains("--clock-hz"),
        "{err}"
    );
    // The JSON counts the program's tasks: fib(6) creates 12 tasks.
    let v = json(&[
        "taskpar",
        "stats",
        &dag,
        "--format",
        "json",
        "--clock-hz",
        "1e9",
    ]);
    assert_eq!(v["create_task"], 12);
    // Replayed as a task graph: at P = 1 its makespan is the work, in seconds at the rate
    // given (1 GHz: a tick is a nanosecond).
    let one = json(&[
        "graph",
        "analyze",
        &dag,
        "-p",
        "1",
        "--clock-hz",
        "1e9",
        "--format",
        "json",
    ]);
    let work = v["clock"]["work"].as_f64().expect("work in ticks");
    let makespan = one["makespan"].as_f64().expect("makespan");
    assert!(
        (makespan * 1e9 / work - 1.0).abs() < 1e-9,
        "{makespan} vs {work}"
    );
    // A file of another DAG Recorder version is refused with what vates reads.
    let dir = tempdir("dr-version");
    let mut bytes = std::fs::read(&dag).expect("fixture");
    bytes[29..33].copy_from_slice(b"1.23");
    let old = dir.join("old.dag");
    std::fs::write(&old, bytes).expect("write");
    let err = fails(
        &[
            "taskpar",
            "stats",
            old.to_str().unwrap(),
            "--clock-hz",
            "1e9",
        ],
        1,
    );
    assert!(err.contains("version") && err.contains("1.24"), "{err}");
}
