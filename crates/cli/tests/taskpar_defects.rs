//! Regression tests of defects of `vates taskpar` (issue 29): each fails on the code before
//! its fix and asserts the value or the message.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::{fails, stdout, tempdir, vates};

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = taskrec::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// fib(n) recorded on a pool of `p` workers, after `edit` changed the recording.
fn recorded(n: u64, p: usize, edit: impl FnOnce(&mut taskrec::Dag)) -> Vec<u8> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(p)
        .build()
        .unwrap();
    let (_, mut dag) = pool.install(|| taskrec::record(|| fib(n)));
    edit(&mut dag);
    let meta = taskrec::Meta {
        program: "fib".into(),
        parameters: vec![("n".into(), n as f64)],
        collapse: true,
    };
    taskrec::encode(&dag, &meta)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

#[test]
fn stats_refuses_a_header_with_more_workers_than_the_limit() {
    let dir = tempdir("tpd-workers");
    // Before: 10^5 workers made (10^5 + 1)² edge matrices (hundreds of GB).
    let f = write(&dir, "w.dag", &recorded(8, 1, |d| d.workers = 100_000));
    let err = fails(&["taskpar", "stats", &f], 1);
    assert!(
        err.contains("names 100000 workers; the limit is 1024"),
        "{err}"
    );
}

#[test]
fn stats_refuses_a_node_on_a_worker_the_header_does_not_have() {
    let dir = tempdir("tpd-worker-id");
    let f = write(
        &dir,
        "w.dag",
        &recorded(8, 1, |d| match &mut d.root {
            taskrec::tree::Child::Task(t) => {
                for it in &mut t.items {
                    if let taskrec::tree::Item::Strand(s) = it {
                        s.worker = 7;
                    }
                }
            }
            taskrec::tree::Child::Collapsed(a) => a.worker = 7,
            _ => panic!("a finished recording has no pending node"),
        }),
    );
    let err = fails(&["taskpar", "stats", &f], 1);
    assert!(
        err.contains("a node on worker 7, but the header names 1 workers (0 to 0)")
            && err.contains("corrupt at byte"),
        "{err}"
    );
}

#[test]
fn stats_refuses_a_clock_that_is_not_positive() {
    let dir = tempdir("tpd-clock");
    for (name, hz) in [("zero.dag", 0.0), ("neg.dag", -1e9)] {
        let f = write(&dir, name, &recorded(8, 1, |d| d.clock_hz = hz));
        // Before: inf and NaN seconds, exit 0.
        let err = fails(&["taskpar", "stats", &f, "--format", "json"], 1);
        assert!(
            err.contains("`clock.frequency_hz` is") && err.contains("must be a positive number"),
            "{err}"
        );
    }
}

/// A stand-in program: copies the recording of n = 9 on one worker where VATES_TASKREC
/// says and writes `elapsed` where VATES_TASKREC_ELAPSED says.
fn program(dir: &Path, elapsed: &str) -> PathBuf {
    std::fs::write(dir.join("fib.dag"), recorded(9, 1, |_| {})).unwrap();
    let script = dir.join(format!("prog-{}.sh", elapsed.replace(['.', '-'], "_")));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             if [ -n \"$VATES_TASKREC\" ]; then cp \"{}/fib.dag\" \"$VATES_TASKREC\"; fi\n\
             if [ -n \"$VATES_TASKREC_ELAPSED\" ]; then echo '{elapsed}' > \"$VATES_TASKREC_ELAPSED\"; fi\n",
            dir.display()
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

fn record_args<'a>(csv: &'a str, app: &'a str, prog: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "taskpar", "record", "--app", app, "--sizes", "9", "--procs", "1", "--reps", "1", "-o", csv,
    ];
    v.extend_from_slice(more);
    v.extend(["--", prog]);
    v
}

#[test]
fn record_refuses_rows_with_times_that_cannot_be() {
    let dir = tempdir("tpd-nan");
    let csv = dir.join("t.csv");
    let csv_s = csv.display().to_string();
    for (elapsed, why) in [
        ("nan", "NaN: not a finite number"),
        ("inf", "inf: not a finite number"),
        ("-0.5", "-0.5: negative"),
    ] {
        let prog = program(&dir, elapsed).display().to_string();
        let err = fails(&record_args(&csv_s, "fib", &prog, &[]), 1);
        assert!(
            err.contains(&format!("elapsed_untraced = {why}; the row is not written")),
            "{err}"
        );
        assert!(!csv.exists(), "no row was written");
    }
}

#[test]
fn record_resumes_a_file_whose_last_line_has_no_newline() {
    let dir = tempdir("tpd-newline");
    let csv = dir.join("t.csv");
    let prog = program(&dir, "0.002").display().to_string();
    let csv_s = csv.display().to_string();
    stdout(&record_args(&csv_s, "fib", &prog, &[]));
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, text.trim_end_matches('\n')).unwrap();
    let out = stdout(&record_args(&csv_s, "fib2", &prog, &[]));
    assert!(out.contains("1 runs of fib2 appended"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Before: the new row was glued onto the old one (two lines, the second 27 fields).
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[1].starts_with("fib,9,1,0,"), "{text}");
    assert!(lines[2].starts_with("fib2,9,1,0,"), "{text}");
    assert!(lines.iter().all(|l| l.split(',').count() == 14), "{text}");
}

#[test]
fn record_refuses_an_app_name_that_is_not_a_plain_name() {
    let dir = tempdir("tpd-app");
    let dags = dir.join("dags");
    let csv = dir.join("t.csv").display().to_string();
    let prog = program(&dir, "0.002").display().to_string();
    let keep = dags.display().to_string();
    let err = fails(
        &record_args(&csv, "../escaped", &prog, &["--keep-dags", &keep]),
        2,
    );
    assert!(
        err.contains("the application name `../escaped` holds `/`") && err.contains("--app"),
        "{err}"
    );
    // Before: the DAG file went to dir/escaped-n9-p1-r0.dag, outside --keep-dags.
    assert!(!dir.join("escaped-n9-p1-r0.dag").exists());
}

#[test]
fn record_bad_flag_values_are_usage_errors() {
    let dir = tempdir("tpd-usage");
    let csv = dir.join("t.csv").display().to_string();
    for (procs, says) in [
        (
            "0,1",
            "--procs `0,1`: every value must be a positive number",
        ),
        ("1,5000", "5000 workers is over the limit of 1024"),
        ("2,4", "have no 1"),
    ] {
        let err = fails(
            &[
                "taskpar", "record", "--app", "a", "--sizes", "9", "--procs", procs, "-o", &csv,
                "--", "true",
            ],
            2,
        );
        assert!(err.contains(says), "{procs}: {err}");
    }
    // A negative value is read as a value, not as a flag.
    let err = fails(
        &[
            "taskpar", "record", "--app", "a", "--sizes", "-5", "-o", &csv, "--", "true",
        ],
        2,
    );
    assert!(
        err.contains("--sizes `-5`: every value must be a positive number"),
        "{err}"
    );
}

/// Whether a process whose command line holds `needle` is alive.
fn alive(needle: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
        let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        cmd.contains(needle) && !cmd.contains("vates")
    })
}

#[cfg(unix)]
#[test]
fn record_timeout_stops_every_process_the_program_started() {
    let dir = tempdir("tpd-timeout");
    let csv = dir.join("t.csv").display().to_string();
    // A duration no other process uses, to find this test's sleeps.
    let tag = format!("{}.{}", 200 + std::process::id() % 500, std::process::id());
    let script = format!("sleep {tag} & sleep {tag}; wait");
    let start = Instant::now();
    let out = vates()
        .args([
            "taskpar",
            "record",
            "--app",
            "a",
            "--sizes",
            "9",
            "--procs",
            "1",
            "--reps",
            "1",
            "--timeout",
            "1",
            "-o",
            &csv,
            "--",
            "sh",
            "-c",
            &script,
        ])
        .output()
        .unwrap();
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("ran longer than 1 s and was stopped"), "{err}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    // Before: the direct child (sh) was killed and both sleeps kept running.
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive(&format!("sleep {tag}")) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !alive(&format!("sleep {tag}")),
        "a sleep of the group is alive"
    );
}

fn example(name: &str) -> String {
    common::example_in("taskpar", name)
}

#[test]
fn fit_refuses_to_overwrite_its_input_or_a_file_that_is_not_a_model() {
    let dir = tempdir("tpd-fit-out");
    let train = dir.join("train.csv");
    std::fs::copy(example("train.csv"), &train).unwrap();
    let before = std::fs::read(&train).unwrap();
    let t = train.display().to_string();
    let err = fails(&["taskpar", "fit", &t, "--app", "fib", "-o", &t], 2);
    assert!(
        err.contains("is the training CSV") && err.contains("-o"),
        "{err}"
    );
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let n = notes.display().to_string();
    let err = fails(&["taskpar", "fit", &t, "--app", "fib", "-o", &n], 1);
    assert!(
        err.contains("exists and is not a taskpar model file") && err.contains("-o"),
        "{err}"
    );
    assert_eq!(std::fs::read(&train).unwrap(), before);
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    // A model file is replaced.
    let m = dir.join("m.json").display().to_string();
    let args = [
        "taskpar",
        "fit",
        &t,
        "--app",
        "fib",
        "--bootstrap",
        "0",
        "-o",
        &m,
    ];
    stdout(&args);
    stdout(&args);
}

#[test]
fn fit_with_format_json_and_no_output_writes_no_file() {
    let dir = tempdir("tpd-fit-json");
    let out = vates()
        .current_dir(&dir)
        .args([
            "taskpar",
            "fit",
            &example("train.csv"),
            "--app",
            "fib",
            "--bootstrap",
            "0",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["app"], "fib");
    // Before: model.json was written beside the JSON on standard output.
    assert!(!dir.join("model.json").exists());
}

#[cfg(unix)]
#[test]
fn fit_refuses_a_file_that_is_not_text_before_reading_it() {
    let start = Instant::now();
    let err = fails(&["taskpar", "fit", "/dev/zero"], 1);
    assert!(
        err.contains("`/dev/zero` is not a text file: byte 0 is 0x00 (NUL)"),
        "{err}"
    );
    // Before: 256 MiB of zeros were read first.
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn predict_names_the_point_with_defines() {
    let dir = tempdir("tpd-predict");
    let m = dir.join("m.json").display().to_string();
    stdout(&[
        "taskpar",
        "fit",
        &example("train.csv"),
        "--app",
        "fib",
        "--bootstrap",
        "0",
        "-o",
        &m,
    ]);
    let by_d = stdout(&["taskpar", "predict", &m, "-D", "n=30", "-D", "p=1,2,4"]);
    let by_flags = stdout(&["taskpar", "predict", &m, "-n", "30", "-p", "1..4:1"]);
    assert_eq!(by_d.matches("fib at n = 30, p = ").count(), 3, "{by_d}");
    assert!(by_flags.starts_with(&by_d[..by_d.find("p = 2").unwrap()]));
    let ranged = stdout(&["taskpar", "predict", &m, "-D", "n=28..32:2", "-D", "p=2"]);
    assert_eq!(ranged.matches("fib at n = ").count(), 3, "{ranged}");
    let err = fails(&["taskpar", "predict", &m, "-D", "P=2", "-D", "n=30"], 2);
    assert!(err.contains("no parameter `P`; did you mean `p`?"), "{err}");
    let err = fails(&["taskpar", "predict", &m, "-D", "q=2", "-D", "n=30"], 2);
    assert!(err.contains("no parameter `q`"), "{err}");
    let err = fails(&["taskpar", "predict", &m, "-n", "-5", "-p", "1"], 2);
    assert!(
        err.contains("-n `-5`: every value must be a positive number"),
        "{err}"
    );
    let err = fails(&["taskpar", "predict", &m, "-D", "n=30"], 2);
    assert!(
        err.contains("give the worker count with -D p=VALUE"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn record_stopped_by_sigterm_stops_the_program_and_removes_its_scratch_files() {
    let dir = tempdir("tpd-sigterm");
    let csv = dir.join("t.csv").display().to_string();
    let tag = format!("{}.{}", 700 + std::process::id() % 200, std::process::id());
    let script = format!("sleep {tag} & sleep {tag}; wait");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("vates"))
        .args([
            "taskpar", "record", "--app", "a", "--sizes", "9", "--procs", "1", "--reps", "1", "-o",
            &csv, "--", "sh", "-c", &script,
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // vates's scratch files and directories are named after its process id.
    let scratch = || {
        std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .filter(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name == format!("vates-taskpar-{pid}")
                    || name.starts_with(&format!("vates-taskpar-{pid}-"))
            })
            .count()
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while !alive(&format!("sleep {tag}")) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        scratch() > 0,
        "the run's scratch files are there while it runs"
    );
    std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(start.elapsed() < Duration::from_secs(10));
    assert!(
        err.contains("interrupted; the program running was stopped"),
        "{err}"
    );
    // Before: vates died at once, leaving both sleeps and its scratch directory.
    assert_eq!(scratch(), 0, "the scratch files are removed");
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive(&format!("sleep {tag}")) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !alive(&format!("sleep {tag}")),
        "a sleep of the group is alive"
    );
}
