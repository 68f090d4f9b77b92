//! `vates taskpar record --runtime dag-recorder` end to end.
//!
//! MassiveThreads is not installed where the tests usually run, so the first tests run a
//! shell script that behaves as a DAG Recorder program does: it writes `$DR_PREFIX.dag`,
//! here a committed fixture of its size and worker count (`MYTH_NUM_WORKERS`), and the rows
//! are checked against the `.stat` DAG Recorder wrote for that fixture.
//!
//! Where MassiveThreads with DAG Recorder is installed, `VATES_DR_PREFIX_DIR` names its
//! install prefix (the `--prefix` of its `./configure`) and the last test builds the
//! committed `progs/fib.c` against it and records it for real; without it, that test prints
//! a line saying it was skipped and what to set.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{tempdir, vates};

/// The clock rate of the machine that recorded the fixtures (their README).
const FIXTURE_HZ: &str = "2596.14e6";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../taskpar/tests/data/dag-recorder")
}

/// An executable shell script `dir/name` with `body`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("write the script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// The integer fields of a DAG Recorder `.stat` file (`name = value` lines).
fn stat_field(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == name).then(|| v.trim().parse().ok())?
        })
        .unwrap_or_else(|| panic!("no `{name}` in the .stat file"))
}

/// The training file's rows of `app`, as columns.
fn rows(csv: &Path, app: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(csv).expect("the training CSV");
    assert_eq!(
        text.lines().next(),
        Some("app,n,p,rep,work,work_serial,delay,no_work,create_task,wait_tasks,span,elapsed,elapsed_untraced,burdened_span"),
        "{text}"
    );
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect::<Vec<_>>())
        .filter(|r| r[0] == app)
        .collect()
}

fn num(row: &[String], i: usize) -> f64 {
    row[i]
        .parse()
        .unwrap_or_else(|_| panic!("column {i} of {row:?}"))
}

/// work + delay + no_work = p · elapsed on a row, to rounding.
fn assert_identity(row: &[String]) {
    let (p, work, delay, no_work, elapsed) = (
        num(row, 2),
        num(row, 4),
        num(row, 6),
        num(row, 7),
        num(row, 11),
    );
    let total = p * elapsed;
    assert!(
        elapsed > 0.0 && (work + delay + no_work - total).abs() <= 1e-12 * total.max(1.0),
        "{row:?}: work + delay + no_work = {} against p·elapsed = {total}",
        work + delay + no_work
    );
}

/// A program that copies the fixture `KERNEL-N-wP.dag` to `$DR_PREFIX.dag`, after checking
/// that both of DAG Recorder's prefix variables name the same prefix.
fn fixture_program(dir: &Path, kernel: &str) -> PathBuf {
    script(
        dir,
        kernel,
        &format!(
            "[ \"$DR_PREFIX\" = \"$DAG_RECORDER_FILE_PREFIX\" ] || exit 3\n\
             [ \"$DR_GPL\" = 0 ] && [ \"$DAG_RECORDER\" = 1 ] || exit 4\n\
             cp '{}/{kernel}-'\"$1\"'-w'\"$MYTH_NUM_WORKERS\"'.dag' \"$DR_PREFIX.dag\"\n",
            fixtures().display()
        ),
    )
}

fn record(csv: &Path, app: &str, sizes: &str, extra: &[&str], prog: &Path) -> (String, String) {
    let out = vates()
        .args([
            "taskpar",
            "record",
            "--runtime",
            "dag-recorder",
            "--sizes",
            sizes,
        ])
        .args(["--procs", "1,2", "--reps", "1", "--app", app, "-o"])
        .arg(csv)
        .args(extra)
        .arg("--")
        .arg(prog)
        .arg("{n}")
        .output()
        .expect("runs vates");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "vates taskpar record failed: {stderr}"
    );
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

#[test]
fn dag_recorder_rows_hold_the_stat_files_figures() {
    let dir = tempdir("taskpar-dr-fixtures");
    let csv = dir.join("train.csv");
    let keep = dir.join("dags");
    for (kernel, n) in [("fib", "10"), ("nqueens", "6")] {
        let prog = fixture_program(&dir, kernel);
        let keep_arg = keep.display().to_string();
        let (stdout, stderr) = record(
            &csv,
            kernel,
            n,
            &["--clock-hz", FIXTURE_HZ, "--keep-dags", &keep_arg],
            &prog,
        );
        assert!(
            stdout.contains(&format!("2 runs of {kernel} appended")),
            "{stdout}"
        );
        // No columns for the untraced runs that are not made.
        let head = stdout.lines().next().unwrap_or_default();
        assert!(
            head.contains("traced") && !head.contains("untraced"),
            "{stdout}"
        );
        // Untraced runs are not made, and the user is told so; the clock was given.
        assert!(
            stderr.contains("without untraced runs") && !stderr.contains("MHz"),
            "{stderr}"
        );
        let rows = rows(&csv, kernel);
        assert_eq!(rows.len(), 2, "{rows:?}");
        let hz: f64 = FIXTURE_HZ.parse().unwrap();
        for row in &rows {
            let p = row[2].as_str();
            let stat = std::fs::read_to_string(fixtures().join(format!("{kernel}-{n}-w{p}.stat")))
                .expect("the fixture's .stat");
            assert_eq!(row[1], n);
            assert_eq!(stat_field(&stat, "n_workers (P)").to_string(), p);
            let ticks = |i: usize| num(row, i) * hz;
            for (i, field) in [
                (4, "work (T1)"),
                (6, "delay"),
                (7, "no_work"),
                (10, "critical_path (T_inf)"),
                (11, "elapsed"),
            ] {
                let want = stat_field(&stat, field) as f64;
                assert!(
                    (ticks(i) - want).abs() <= 1e-9 * want.max(1.0),
                    "{kernel} n={n} p={p}: {field} {} ticks, the .stat says {want}",
                    ticks(i)
                );
            }
            assert_eq!(num(row, 8) as u64, stat_field(&stat, "create_task"));
            assert_eq!(num(row, 9) as u64, stat_field(&stat, "wait_tasks"));
            assert_eq!(row[12], "", "no untraced time: {row:?}");
            assert_identity(row);
            // The kept file is the program's, under the campaign's name.
            let kept = keep.join(format!("{kernel}-n{n}-p{p}-r0.dag"));
            let fixture = fixtures().join(format!("{kernel}-{n}-w{p}.dag"));
            assert_eq!(
                std::fs::read(&kept).unwrap(),
                std::fs::read(&fixture).unwrap()
            );
        }
        // The serial work of the size is the p = 1 run's.
        assert_eq!(rows[0][5], rows[0][4]);
        assert_eq!(rows[1][5], rows[0][4]);
    }
}

#[test]
fn a_dag_recorder_file_with_fewer_workers_is_counted_at_the_runs_workers() {
    // DAG Recorder counts the workers that ran its code: a two-worker run whose second
    // worker never did is a one-worker file. The row is at p = 2, the idle worker's time
    // counted, and the identity holds at p = 2.
    let dir = tempdir("taskpar-dr-fewer");
    let prog = script(
        &dir,
        "fib",
        &format!(
            "cp '{}/fib-10-w1.dag' \"$DR_PREFIX.dag\"\n",
            fixtures().display()
        ),
    );
    let csv = dir.join("train.csv");
    record(&csv, "fib", "10", &["--clock-hz", FIXTURE_HZ], &prog);
    let rows = rows(&csv, "fib");
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0][2].as_str(), rows[1][2].as_str()), ("1", "2"));
    assert_eq!(rows[0][4], rows[1][4], "the same work");
    assert_eq!(rows[0][11], rows[1][11], "the same elapsed time");
    for row in &rows {
        assert_identity(row);
    }
    assert!(num(&rows[1], 7) > num(&rows[0], 7), "more no_work at p = 2");
}

#[test]
fn a_program_that_writes_no_dag_recorder_file_is_told_what_to_call() {
    let dir = tempdir("taskpar-dr-nofile");
    let prog = script(&dir, "quiet", "exit 0\n");
    let csv = dir.join("train.csv");
    let out = vates()
        .args([
            "taskpar",
            "record",
            "--runtime",
            "dag-recorder",
            "--sizes",
            "5",
        ])
        .args(["--reps", "1", "--app", "quiet", "--clock-hz", "1e9", "-o"])
        .arg(&csv)
        .arg("--")
        .arg(&prog)
        .output()
        .expect("runs vates");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("wrote no DAG Recorder file")
            && stderr.contains("DR_PREFIX=")
            && stderr.contains("dr_dump()")
            && stderr.contains("DAG_RECORDER=2"),
        "{stderr}"
    );
    assert!(!csv.exists(), "no rows, no file");
}

#[test]
fn dag_recorder_flags_are_checked() {
    let dir = tempdir("taskpar-dr-flags");
    let csv = dir.join("t.csv").display().to_string();
    let out = vates()
        .args([
            "taskpar",
            "record",
            "--sizes",
            "5",
            "--app",
            "a",
            "--clock-hz",
            "1e9",
        ])
        .args(["-o", &csv, "--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--clock-hz is for DAG Recorder programs")
            && stderr.contains("--runtime dag-recorder"),
        "{stderr}"
    );
}

/// The integer after `key=` in a line such as fib.c's `fib(10) = 55 (expected 55) ...`.
fn fib_tasks(n: u64) -> u64 {
    // fib(n) for n ≥ 2 creates one task and recurses on n − 1 (in it) and n − 2.
    let (mut a, mut b) = (0u64, 0u64); // tasks of fib(k − 2), fib(k − 1)
    for _ in 2..=n {
        (a, b) = (b, 1 + a + b);
    }
    if n < 2 {
        0
    } else {
        b
    }
}

#[test]
fn a_real_dag_recorder_program_is_recorded_where_massivethreads_is_installed() {
    let Some(prefix) = std::env::var_os("VATES_DR_PREFIX_DIR") else {
        println!(
            "skipped: set VATES_DR_PREFIX_DIR to a MassiveThreads install prefix (with DAG \
             Recorder) to record a real DAG Recorder program"
        );
        return;
    };
    let prefix = PathBuf::from(prefix);
    let dir = tempdir("taskpar-dr-real");
    let exe = dir.join("fib");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(fixtures().join("progs/fib.c"))
        .arg(format!("-I{}", prefix.join("include").display()))
        .arg(format!("-L{}", prefix.join("lib").display()))
        .arg(format!("-Wl,-rpath,{}", prefix.join("lib").display()))
        .args(["-ldr", "-lmyth", "-lpthread"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cc}: {e}"));
    assert!(
        out.status.success(),
        "{cc} failed on progs/fib.c against {}: {}",
        prefix.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = dir.join("train.csv");
    // The clock from this machine, with a note.
    let (stdout, stderr) = record(&csv, "fib", "10,12", &[], &exe);
    assert!(stdout.contains("4 runs of fib appended"), "{stdout}");
    assert!(stderr.contains("MHz"), "{stderr}");
    let rows = rows(&csv, "fib");
    assert_eq!(rows.len(), 4, "{rows:?}");
    for row in &rows {
        let n: u64 = row[1].parse().unwrap();
        assert_eq!(num(row, 8) as u64, fib_tasks(n), "creates: {row:?}");
        assert_eq!(num(row, 9) as u64, fib_tasks(n), "waits: {row:?}");
        assert!(num(row, 4) > 0.0 && num(row, 10) > 0.0, "{row:?}");
        assert!(num(row, 10) <= num(row, 4), "span ≤ work: {row:?}");
        assert_identity(row);
    }
}

/// `vates taskpar stats DAG --compare STAT args…`: exit code, standard output and error.
fn compare(dag: &str, stat: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = vates()
        .args(["taskpar", "stats"])
        .arg(fixtures().join(dag))
        .args(["--clock-hz", FIXTURE_HZ, "--compare"])
        .arg(stat)
        .args(args)
        .output()
        .expect("runs vates");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn stats_compare_sets_a_stat_file_beside_vates_figures() {
    // The same run: every figure agrees.
    for name in ["fib-10-w2", "nqueens-7-w2-a0", "fib-6-w1-nc"] {
        let (code, stdout, stderr) = compare(
            &format!("{name}.dag"),
            &fixtures().join(format!("{name}.stat")),
            &[],
        );
        assert_eq!(code, Some(0), "{stderr}");
        assert!(stdout.contains("all 26 figures agree"), "{stdout}");
        assert!(!stdout.contains("<- differs"), "{stdout}");
    }
    // Another run's .stat: the differences are marked, with vates' minus DAG Recorder's.
    let (code, stdout, _) = compare("fib-10-w1.dag", &fixtures().join("fib-10-w2.stat"), &[]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("21 of 26 figures differ"), "{stdout}");
    let elapsed = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("elapsed"))
        .unwrap();
    assert!(
        elapsed.contains("3246386")
            && elapsed.contains("1670188")
            && elapsed.contains("-1576198")
            && elapsed.contains("<- differs"),
        "{elapsed}"
    );
    let create = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("create_task"))
        .unwrap();
    assert!(!create.contains("differs"), "{create}");
    // JSON.
    let (code, stdout, _) = compare(
        "fib-10-w1.dag",
        &fixtures().join("fib-10-w2.stat"),
        &["--format", "json"],
    );
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(v["differences"], 21);
    assert_eq!(v["fields"][8]["field"], "elapsed");
    assert_eq!(v["fields"][8]["dag_recorder"], "3246386");
    assert_eq!(v["fields"][8]["difference"], -1576198.0);
    assert_eq!(v["matrices"][0]["sides"], serde_json::json!([3, 2]));
}

#[test]
fn stats_compare_refuses_what_is_not_a_stat_file() {
    let dir = tempdir("taskpar-dr-compare");
    // A .dag given as the .stat: binary, refused before it is parsed.
    let (code, _, stderr) = compare("fib-10-w2.dag", &fixtures().join("fib-10-w2.dag"), &[]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("not a text file"), "{stderr}");
    // Truncated, and a huge number: located.
    let good = std::fs::read_to_string(fixtures().join("fib-10-w2.stat")).unwrap();
    let cut = dir.join("cut.stat");
    std::fs::write(&cut, &good[..200]).unwrap();
    let (code, _, stderr) = compare("fib-10-w2.dag", &cut, &[]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("cut.stat:7:24: `critical_path (T_inf)` has no value"),
        "{stderr}"
    );
    let huge = dir.join("huge.stat");
    std::fs::write(&huge, good.replace("= 88\nwait", "= 1e400\nwait")).unwrap();
    let (code, _, stderr) = compare("fib-10-w2.dag", &huge, &[]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("huge.stat:1:25: `create_task` is `1e400`: DAG Recorder prints it as an unsigned integer"),
        "{stderr}"
    );
    // A missing file names itself; --format stat has nothing to compare.
    let (code, _, stderr) = compare("fib-10-w2.dag", &dir.join("none.stat"), &[]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("none.stat"), "{stderr}");
    let (code, _, stderr) = compare(
        "fib-10-w2.dag",
        &fixtures().join("fib-10-w2.stat"),
        &["--format", "stat"],
    );
    assert_eq!(code, Some(2));
    assert!(stderr.contains("--compare prints a comparison"), "{stderr}");
}
