//! `vates taskpar record --runtime openmp` end to end: the C/OpenMP fib and nqueens of
//! `crates/bots/openmp`, built with `clang -fopenmp` (or the compiler `CC` names), recorded
//! through the OMPT tool that vates builds from its embedded source into a cache directory
//! (fib) or that `--ompt-tool` names (nqueens, the library the first campaign built).
//!
//! Without a C compiler that builds an OpenMP program the recording test prints
//! `skipped: install clang and libomp-dev (Debian)` and passes, unless `CI=true`: then it
//! fails with that message (as `crates/bots/tests/openmp.rs` does).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{fails, tempdir, vates};

const SKIP: &str = "skipped: install clang and libomp-dev (Debian)";

/// `CC` split into the program and its first arguments, else `clang`.
fn cc() -> (String, Vec<String>) {
    let cc = std::env::var("CC").unwrap_or_default();
    let mut words = cc.split_whitespace().map(String::from);
    match words.next() {
        Some(p) => (p, words.collect()),
        None => ("clang".into(), Vec::new()),
    }
}

/// Compiles `crates/bots/openmp/NAME.c` into `dir` with `-O2 -fopenmp`; `Err` says why not.
fn kernel(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let (program, args) = cc();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bots/openmp")
        .join(format!("{name}.c"));
    let exe = dir.join(name);
    let out = Command::new(&program)
        .args(&args)
        .args(["-O2", "-fopenmp", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{program} failed on {}: {}",
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(exe)
}

/// The program's own counts at size `n` (`count=1`): tasks created, taskwaits executed.
fn counts(exe: &Path, n: &str) -> (u64, u64) {
    let out = Command::new(exe)
        .args([n, "count=1"])
        .env("OMP_NUM_THREADS", "1")
        .env_remove("OMP_TOOL_LIBRARIES")
        .output()
        .expect("run the kernel");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let field = |key: &str| -> u64 {
        text.split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {key} in {text:?}"))
    };
    (field("tasks="), field("taskwaits="))
}

/// Records `exe {n}` at `sizes` on 1 and 2 workers, once each, into `csv`, and checks the
/// rows: one per size and worker count, work + delay + no_work = p·elapsed, and the
/// create and wait counts of the program plus the tool's per-region tasks (with k phases
/// of the parallel region on p threads, p·k creates and k waits: k = 2 on two threads,
/// `parallel` + `single`; on one thread LLVM 14's libomp reports no barrier, k = 1, and 2
/// is accepted), and a positive untraced time.
fn record(
    exe: &Path,
    app: &str,
    sizes: [&str; 2],
    csv: &Path,
    cache: &Path,
    tool: Option<&Path>,
) -> String {
    let sizes_arg = sizes.join(",");
    let mut cmd = vates();
    cmd.env("XDG_CACHE_HOME", cache).args([
        "taskpar",
        "record",
        "--runtime",
        "openmp",
        "--sizes",
        &sizes_arg,
        "--procs",
        "1,2",
        "--reps",
        "1",
        "--app",
        app,
        "-o",
    ]);
    cmd.arg(csv);
    if let Some(t) = tool {
        cmd.arg("--ompt-tool").arg(t);
    }
    cmd.arg("--").arg(exe).arg("{n}");
    let out = cmd.output().expect("runs vates");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "vates taskpar record ({app}) failed: {stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("4 runs of {app} appended")),
        "{stdout}"
    );
    let text = std::fs::read_to_string(csv).expect("the CSV");
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .filter(|r: &Vec<String>| r[0] == app)
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
    for (k, row) in rows.iter().enumerate() {
        let (n, p) = (sizes[k / 2], (k % 2 + 1) as u64);
        assert_eq!(
            (row[1].as_str(), row[2].parse::<u64>().unwrap()),
            (n, p),
            "{row:?}"
        );
        let f = |i: usize| -> f64 { row[i].parse().unwrap_or_else(|_| panic!("{row:?}")) };
        let (work, delay, no_work, elapsed) = (f(4), f(6), f(7), f(11));
        let total = p as f64 * elapsed;
        assert!(
            elapsed > 0.0 && (work + delay + no_work - total).abs() <= 1e-9 * total,
            "{app} n={n} p={p}: work + delay + no_work = {} against p·elapsed = {total}",
            work + delay + no_work
        );
        let (tasks, taskwaits) = counts(exe, n);
        let (creates, waits) = (f(8) as u64, f(9) as u64);
        let phases = waits
            .checked_sub(taskwaits)
            .unwrap_or_else(|| panic!("{app} n={n} p={p}: {waits} waits, {taskwaits} taskwaits"));
        let allowed: &[u64] = if p == 1 { &[1, 2] } else { &[2] };
        assert!(
            allowed.contains(&phases),
            "{app} n={n} p={p}: {phases} phases"
        );
        assert_eq!(creates, tasks + p * phases, "{app} n={n} p={p}: creates");
        assert!(
            f(12) > 0.0,
            "{app} n={n} p={p}: elapsed_untraced {}",
            row[12]
        );
    }
    stderr
}

#[test]
fn record_runs_openmp_programs_through_the_ompt_tool() {
    let dir = tempdir("taskpar-openmp");
    let built = kernel(&dir, "fib").and_then(|fib| Ok((fib, kernel(&dir, "nqueens")?)));
    let (fib, nqueens) = match built {
        Ok(k) => k,
        Err(why) => {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{SKIP} ({why})");
            }
            println!("{SKIP} ({why})");
            return;
        }
    };
    let cache = dir.join("cache");
    let csv = dir.join("train.csv");
    // fib: the tool is built from the embedded source into the cache, with a note.
    let stderr = record(&fib, "fib", ["12", "14"], &csv, &cache, None);
    let libs: Vec<PathBuf> = std::fs::read_dir(cache.join("vates"))
        .expect("the cache directory")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(libs.len(), 1, "{libs:?}");
    let lib = &libs[0];
    let name = lib.file_name().unwrap().to_string_lossy();
    assert!(
        name.starts_with("libvates_ompt-") && name.ends_with(".so"),
        "{name}"
    );
    assert!(
        stderr.contains("built the OMPT tool") && stderr.contains(&*name),
        "{stderr}"
    );
    // nqueens: the tool given with --ompt-tool, appended to the same file.
    let stderr = record(
        &nqueens,
        "nqueens",
        ["6", "7"],
        &csv,
        &dir.join("unused"),
        Some(lib),
    );
    assert!(!stderr.contains("built the OMPT tool"), "{stderr}");
    assert!(!dir.join("unused").exists());
}

#[test]
fn record_names_what_to_install_when_the_tool_cannot_be_built() {
    let dir = tempdir("taskpar-openmp-nocc");
    let csv = dir.join("t.csv");
    let out = vates()
        .env("CC", "/nonexistent/clang")
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .args([
            "taskpar",
            "record",
            "--runtime",
            "openmp",
            "--sizes",
            "10",
            "--app",
            "fib",
            "-o",
        ])
        .arg(&csv)
        .args(["--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    for needle in [
        "OMPT tool",
        "/nonexistent/clang",
        "clang",
        "libomp-dev",
        "--ompt-tool",
    ] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    assert!(!csv.exists());
    // --ompt-tool is for OpenMP.
    let err = fails(
        &[
            "taskpar",
            "record",
            "--sizes",
            "10",
            "--app",
            "fib",
            "--ompt-tool",
            "x.so",
            "--",
            "true",
        ],
        2,
    );
    assert!(err.contains("--runtime openmp"), "{err}");
    // A tool that is missing or not a file is refused before any run, naming the flag.
    for (tool, code) in [("/nonexistent/libvates_ompt.so", 1), ("/dev/zero", 2)] {
        let err = fails(
            &[
                "taskpar",
                "record",
                "--runtime",
                "openmp",
                "--ompt-tool",
                tool,
                "--sizes",
                "10",
                "--app",
                "fib",
                "--",
                "true",
            ],
            code,
        );
        assert!(err.contains("--ompt-tool"), "{tool}: {err}");
    }
}
