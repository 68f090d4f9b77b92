//! The C/OpenMP versions of the kernels (`crates/bots/openmp`): each compiles with
//! `clang -O2 -fopenmp` (or the compiler `CC` names), runs at small sizes on one and two
//! threads (`OMP_NUM_THREADS`), verifies its result, and — with `count=1` — creates tasks
//! and executes taskwaits exactly as the Rust kernel's `counts` says.
//!
//! Without a C compiler that builds and runs an OpenMP program, every test prints
//! `skipped: install clang and libomp-dev (Debian)` and passes, unless `CI=true`: then it
//! fails with that message.
//!
//! The `ompt_*` tests build the OMPT tool `openmp/ompt/vates_ompt.c` with `-O2 -fPIC
//! -shared`, record fib and nqueens through it (`OMP_TOOL_LIBRARIES`, `VATES_TASKREC`) on
//! one and two threads, and read the files back with `taskpar::dag::read`; the recording's
//! elapsed time is the parallel region's (within the program's own `seconds=`), and with
//! `VATES_TASKREC_ELAPSED` alone (the light mode) the tool writes that time and no DAG.

use bots::{fft, fib, nqueens, sort, sparselu, strassen, Counts};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};

const SKIP: &str = "skipped: install clang and libomp-dev (Debian)";

/// A C compiler: the program and the arguments before ours (`CC="ccache clang"`).
#[derive(Debug)]
struct Cc {
    program: String,
    args: Vec<String>,
}

impl Cc {
    fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args);
        c
    }

    /// Compiles `source` into `exe` with `-O2 -fopenmp`.
    fn compile(&self, source: &Path, exe: &Path) -> Result<Output, String> {
        let out = self
            .command()
            .args(["-O2", "-fopenmp", "-Wall", "-o"])
            .arg(exe)
            .arg(source)
            .arg("-lm")
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.program))?;
        if out.status.success() {
            Ok(out)
        } else {
            Err(format!(
                "{} failed on {}:\n{}",
                self.program,
                source.display(),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }
}

/// A directory of this test process's own, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(what: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("vates-bots-openmp-{}-{what}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `CC` from the environment, else `clang` on `PATH`.
fn find_cc() -> Option<Cc> {
    if let Ok(cc) = std::env::var("CC") {
        let mut words = cc.split_whitespace().map(String::from);
        if let Some(program) = words.next() {
            return Some(Cc {
                program,
                args: words.collect(),
            });
        }
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("clang"))
        .find(|p| p.is_file())
        .map(|p| Cc {
            program: p.to_string_lossy().into_owned(),
            args: Vec::new(),
        })
}

/// The compiler, once it has built and run a small OpenMP program; or why not.
fn toolchain() -> Result<&'static Cc, &'static str> {
    static CC: OnceLock<Result<Cc, String>> = OnceLock::new();
    let probe = || -> Result<Cc, String> {
        let cc = find_cc().ok_or("no C compiler: CC is unset and clang is not on PATH")?;
        let dir = TempDir::new("probe");
        let src = dir.0.join("probe.c");
        let exe = dir.0.join("probe");
        std::fs::write(
            &src,
            "#include <omp.h>\n#include <stdio.h>\nint main(void) {\n  int t = 0;\n\
             #pragma omp parallel\n#pragma omp single\n  t = omp_get_num_threads();\n\
             printf(\"%d\\n\", t);\n  return 0;\n}\n",
        )
        .map_err(|e| e.to_string())?;
        cc.compile(&src, &exe)?;
        let out = Command::new(&exe)
            .env("OMP_NUM_THREADS", "2")
            .output()
            .map_err(|e| format!("cannot run the OpenMP probe: {e}"))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || stdout.trim() != "2" {
            return Err(format!(
                "the OpenMP probe did not run on 2 threads: {stdout}{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(cc)
    };
    match CC.get_or_init(probe) {
        Ok(cc) => Ok(cc),
        Err(why) => Err(why.as_str()),
    }
}

/// One thread of OpenMP runs at a time: the tests share two cores.
fn lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// A kernel compiled into its own temporary directory.
struct Kernel {
    name: &'static str,
    exe: PathBuf,
    _dir: TempDir,
}

/// Compiles `name`.c, or `None` (having printed why) when there is no OpenMP toolchain
/// and `CI` is not `true`.
fn build(name: &'static str) -> Option<Kernel> {
    let cc = match toolchain() {
        Ok(cc) => cc,
        Err(why) => {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{SKIP} ({why})");
            }
            println!("{SKIP} ({why})");
            return None;
        }
    };
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("openmp")
        .join(format!("{name}.c"));
    let dir = TempDir::new(name);
    let exe = dir.0.join(name);
    let out = cc.compile(&src, &exe).unwrap_or_else(|e| panic!("{e}"));
    if !out.stderr.is_empty() {
        println!("{name}.c: {}", String::from_utf8_lossy(&out.stderr));
    }
    Some(Kernel {
        name,
        exe,
        _dir: dir,
    })
}

/// A result line: `KERNEL n=N ok key=value ...`.
#[derive(Debug)]
struct Line {
    fields: HashMap<String, String>,
}

impl Line {
    fn get<T: std::str::FromStr>(&self, key: &str) -> T {
        let v = self
            .fields
            .get(key)
            .unwrap_or_else(|| panic!("no {key}= in {:?}", self.fields));
        v.parse()
            .unwrap_or_else(|_| panic!("{key}={v} does not parse"))
    }

    fn counts(&self) -> Counts {
        Counts::new(self.get("tasks"), self.get("taskwaits"))
    }
}

impl Kernel {
    fn command(&self, threads: u32, args: &[&str]) -> Command {
        let mut c = Command::new(&self.exe);
        c.args(args).env("OMP_NUM_THREADS", threads.to_string());
        c
    }

    /// Runs with `args` on `threads` threads; asserts success and the `ok` line.
    fn run(&self, threads: u32, args: &[&str]) -> Line {
        self.run_with(threads, args, &[])
    }

    /// [`Kernel::run`] with `env` added to the environment.
    fn run_with(&self, threads: u32, args: &[&str], env: &[(&str, &Path)]) -> Line {
        let _g = lock();
        let mut cmd = self.command(threads, args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("run the kernel");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let what = format!(
            "{} {} (OMP_NUM_THREADS={threads})",
            self.name,
            args.join(" ")
        );
        assert!(
            out.status.success(),
            "{what} failed: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let words: Vec<&str> = stdout.split_whitespace().collect();
        let n = format!("n={}", args[0]);
        assert!(
            stdout.lines().count() == 1 && words.len() >= 4,
            "{what}: not one result line: {stdout:?}"
        );
        assert_eq!(
            words[..3],
            [self.name, n.as_str(), "ok"],
            "{what}: {stdout:?}"
        );
        let fields: HashMap<String, String> = words[3..]
            .iter()
            .map(|w| {
                let (k, v) = w
                    .split_once('=')
                    .unwrap_or_else(|| panic!("{what}: {w:?} is not key=value"));
                (k.to_string(), v.to_string())
            })
            .collect();
        let line = Line { fields };
        let seconds: f64 = line.get("seconds");
        assert!(seconds >= 0.0, "{what}: {seconds} seconds");
        line
    }

    /// Runs with `args` on one and two threads, with and without `count=1`; the lines
    /// with counting on, which must agree (the counts follow from the code, not the
    /// schedule) and with `expected` when given.
    fn check(&self, args: &[&str], expected: Option<Counts>) -> Line {
        let mut counted = Vec::new();
        for threads in [1, 2] {
            let plain = self.run(threads, args);
            assert!(
                !plain.fields.contains_key("tasks"),
                "{} counted without count=1",
                self.name
            );
            let mut with = args.to_vec();
            with.push("count=1");
            counted.push(self.run(threads, &with));
        }
        let two = counted.pop().expect("two runs");
        let one = counted.pop().expect("two runs");
        let what = format!("{} {}", self.name, args.join(" "));
        assert_eq!(one.counts(), two.counts(), "{what}: 1 and 2 threads differ");
        if let Some(c) = expected {
            assert_eq!(
                one.counts(),
                c,
                "{what}: the C counts against the Rust kernel's"
            );
        }
        one
    }

    /// Asserts that `args` are refused: exit status 1 and a message.
    fn refuses(&self, args: &[&str]) {
        let out = self.command(1, args).output().expect("run the kernel");
        assert_eq!(
            out.status.code(),
            Some(1),
            "{} {args:?} accepted",
            self.name
        );
        assert!(out.stdout.is_empty() && !out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn fib_c() {
    let Some(k) = build("fib") else { return };
    for (n, x, value) in [(25u32, None, 75025u64), (25, Some(5), 75025), (1, None, 1)] {
        let cfg = fib::Config {
            cutoff: x.unwrap_or(fib::Config::default().cutoff),
        };
        let (ns, xs) = (n.to_string(), format!("x={}", cfg.cutoff));
        let mut args = vec![ns.as_str()];
        if x.is_some() {
            args.push(xs.as_str());
        }
        let line = k.check(&args, Some(fib::counts(n, &cfg)));
        assert_eq!(line.get::<u64>("value"), value);
    }
    for bad in [
        &["94"][..],
        &["10", "x=abc"],
        &["10", "y=1"],
        &["10", "count=2"],
        &[],
    ] {
        k.refuses(bad);
    }
}

#[test]
fn nqueens_c() {
    let Some(k) = build("nqueens") else { return };
    for (n, x, solutions) in [(8usize, 7u32, 92u64), (9, 7, 352), (8, 2, 92), (4, 0, 2)] {
        let cfg = nqueens::Config { cutoff: x };
        let (ns, xs) = (n.to_string(), format!("x={x}"));
        let line = k.check(&[&ns, &xs], Some(nqueens::counts(n, &cfg)));
        assert_eq!(line.get::<u64>("solutions"), solutions);
    }
}

/// The C program's input is the Rust `sort::input` (the same SplitMix64 draws), so the
/// data-dependent merge splits, and hence the counts, agree.
#[test]
fn sort_c() {
    let Some(k) = build("sort") else { return };
    let small = sort::Config {
        merge_cutoff: 16,
        quick_cutoff: 64,
        insertion_cutoff: 8,
    };
    for (n, cfg, seed) in [
        (20000usize, sort::Config::default(), 1u64),
        (3000, small, 7),
        (3, small, 1),
    ] {
        let args = [
            n.to_string(),
            format!("a={}", cfg.merge_cutoff),
            format!("y={}", cfg.quick_cutoff),
            format!("b={}", cfg.insertion_cutoff),
            format!("seed={seed}"),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        k.check(&args, Some(sort::counts(&sort::input(n, seed), &cfg)));
    }
    k.refuses(&["100", "y=3"]);
}

#[test]
fn sparselu_c() {
    let Some(k) = build("sparselu") else { return };
    for (n, m) in [(10usize, 20usize), (6, 30), (1, 5)] {
        let structure: Vec<bool> = (0..n * n)
            .map(|idx| !sparselu::is_null(idx / n, idx % n))
            .collect();
        let (ns, ms) = (n.to_string(), format!("m={m}"));
        let line = k.check(&[&ns, &ms], Some(sparselu::counts(n, &structure)));
        let residual: f64 = line.get("residual");
        assert!(residual < 1e-10, "residual {residual}");
    }
}

#[test]
fn strassen_c() {
    let Some(k) = build("strassen") else { return };
    let default = strassen::Config::default();
    for (n, cfg) in [
        (256usize, default),
        (
            128,
            strassen::Config {
                depth_cutoff: 1,
                size_cutoff: 16,
            },
        ),
        (
            96,
            strassen::Config {
                depth_cutoff: 7,
                size_cutoff: 8,
            },
        ),
        (32, default),
    ] {
        let args = [
            n.to_string(),
            format!("x={}", cfg.depth_cutoff),
            format!("y={}", cfg.size_cutoff),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let line = k.check(&args, Some(strassen::counts(n, &cfg)));
        let error: f64 = line.get("error");
        assert!(error < 1e-10, "error {error}");
    }
    k.refuses(&["66"]);
}

#[test]
fn fft_c() {
    let Some(k) = build("fft") else { return };
    let default = fft::Config::default();
    for (n, cfg) in [
        (1usize << 15, default),
        (4096, default),
        (512, fft::Config { loop_cutoff: 4 }),
        (32, default),
        (2, default),
        (1, default),
    ] {
        let (ns, cs) = (n.to_string(), format!("c={}", cfg.loop_cutoff));
        let line = k.check(&[&ns, &cs], Some(fft::counts(n, &cfg)));
        let error: f64 = line.get("error");
        assert!(error < 1e-9, "error {error}");
    }
    k.refuses(&["1000"]);
}

/// The OMPT tool, built into `dir`; `None` (having printed why) when it cannot be built
/// and `CI` is not `true` (GCC has no `omp-tools.h`: OMPT needs clang and LLVM's libomp).
fn ompt_tool(dir: &Path) -> Option<PathBuf> {
    let build = || -> Result<PathBuf, String> {
        let cc = toolchain()?;
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("openmp/ompt/vates_ompt.c");
        let lib = dir.join("libvates_ompt.so");
        let out = cc
            .command()
            .args([
                "-O2", "-fPIC", "-shared", "-std=c11", "-Wall", "-Wextra", "-o",
            ])
            .arg(&lib)
            .arg(&src)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", cc.program))?;
        if !out.status.success() {
            return Err(format!(
                "{} failed on {}:\n{}",
                cc.program,
                src.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        assert!(
            out.stderr.is_empty(),
            "vates_ompt.c: warnings:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(lib)
    };
    match build() {
        Ok(lib) => Some(lib),
        Err(why) => {
            let msg = format!("{SKIP}; the OMPT tool needs clang and LLVM's libomp ({why})");
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{msg}");
            }
            println!("{msg}");
            None
        }
    }
}

/// Records `kernel args count=1` through the OMPT tool on 1 and 2 threads and checks the
/// file against the counts the program prints.
///
/// The tool writes the initial task as the root, and a parallel region as one section
/// per phase (the parts of the region between its barriers: the `single`'s implicit
/// barrier and the final one), each creating one task per thread and waiting for them.
/// With `k` phases on `P` threads and the program's `tasks` and `taskwaits`:
/// creates = tasks + P·k, waits = taskwaits + k, ends = tasks + P·k + 1 (the root).
/// On two threads k = 2 (fib and nqueens run their kernel in `parallel` + `single`);
/// on one thread LLVM 14's libomp reports no barrier, so k = 1 there (2 is accepted, for
/// a runtime that does).
fn ompt_check(kernel: &'static str, args: &[&str]) {
    let Some(k) = build(kernel) else { return };
    let dir = TempDir::new(&format!("ompt-{kernel}"));
    let Some(tool) = ompt_tool(&dir.0) else {
        return;
    };
    let tool = tool.as_path();
    let mut with = args.to_vec();
    with.push("count=1");
    for threads in [1u32, 2] {
        let file = dir.0.join(format!("{kernel}-{threads}.dag"));
        let line = k.run_with(
            threads,
            &with,
            &[("OMP_TOOL_LIBRARIES", tool), ("VATES_TASKREC", &file)],
        );
        let what = format!("{kernel} {} on {threads} threads", with.join(" "));
        let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{what}: no file: {e}"));
        let rec = taskpar::dag::read(&bytes, &taskpar::dag::Limits::default())
            .unwrap_or_else(|e| panic!("{what}: the file does not read: {e}"));
        let h = &rec.header;
        assert_eq!(h.recorder, "vates-ompt", "{what}");
        assert_eq!(h.program, kernel, "{what}");
        assert_eq!(h.workers, threads, "{what}");
        assert!(!h.collapse, "{what}");
        assert_eq!(
            (h.clock.unit.as_str(), h.clock.frequency_hz),
            ("ns", 1e9),
            "{what}"
        );
        let g = rec.graph();
        let c = g.counts();
        let (tasks, taskwaits): (u64, u64) = (line.get("tasks"), line.get("taskwaits"));
        let p = u64::from(threads);
        let phases = c
            .waits
            .checked_sub(taskwaits)
            .unwrap_or_else(|| panic!("{what}: {} waits for {taskwaits} taskwaits", c.waits));
        let allowed: &[u64] = if threads == 1 { &[1, 2] } else { &[2] };
        assert!(
            allowed.contains(&phases),
            "{what}: {phases} phases ({c:?}, {tasks} tasks, {taskwaits} taskwaits)"
        );
        assert_eq!(c.creates, tasks + p * phases, "{what}: creates, {c:?}");
        assert_eq!(c.ends, tasks + p * phases + 1, "{what}: ends, {c:?}");
        assert_eq!(c.waits, taskwaits + phases, "{what}: waits, {c:?}");
        if threads == 1 {
            // One thread: libomp runs each task at once, inside the call that created it,
            // so the creator's strand between the create and the task's start is runtime:
            // every such "other" strand (one per task) has zero length, its time delay.
            let others: Vec<_> = g
                .nodes
                .iter()
                .filter(|n| n.kind == taskpar::dag::NodeKind::Strand(taskrec::tree::EndKind::Other))
                .collect();
            assert_eq!(others.len() as u64, tasks, "{what}: other strands");
            assert!(
                others.iter().all(|n| n.work == 0),
                "{what}: an other strand of positive length"
            );
        }
        let s = taskpar::stats::Stats::of(
            &g,
            h.workers,
            rec.nodes,
            &taskpar::stats::StatsOptions::default(),
        );
        assert_eq!(
            s.identity_gap(),
            0,
            "{what}: work + delay + no_work != P·elapsed"
        );
        assert!(s.work > 0 && s.elapsed > 0, "{what}: {s:?}");
        // The recording covers the parallel region only (not the input or the check):
        // its elapsed time is within the program's own timing of the region.
        let seconds: f64 = line.get("seconds");
        let elapsed = h.elapsed as f64 / 1e9;
        assert!(
            elapsed > 0.0 && elapsed <= seconds + MARGIN,
            "{what}: the DAG's elapsed {elapsed} s against the program's {seconds} s"
        );
        // With VATES_TASKREC_ELAPSED too, the same span in seconds goes there.
        let both = dir.0.join(format!("{kernel}-{threads}-both.txt"));
        let line = k.run_with(
            threads,
            &with,
            &[
                ("OMP_TOOL_LIBRARIES", tool),
                ("VATES_TASKREC", &file),
                ("VATES_TASKREC_ELAPSED", &both),
            ],
        );
        let seconds: f64 = line.get("seconds");
        let rec = taskpar::dag::load(&file, &taskpar::dag::Limits::default())
            .unwrap_or_else(|e| panic!("{what}: the file does not read: {e}"));
        let written = elapsed_file(&both, &what);
        let from_dag = rec.header.elapsed as f64 / 1e9;
        assert!(
            (written - from_dag).abs() <= 1e-9 * from_dag.max(1.0) + 1e-9,
            "{what}: {written} s written, {from_dag} s in the DAG"
        );
        assert!(
            written <= seconds + MARGIN,
            "{what}: {written} s > {seconds} s"
        );
        // Light mode: VATES_TASKREC_ELAPSED alone times the parallel part, writes no DAG.
        let light = dir.0.join(format!("{kernel}-{threads}-light.txt"));
        let _ = std::fs::remove_file(&file);
        let line = k.run_with(
            threads,
            &with,
            &[
                ("OMP_TOOL_LIBRARIES", tool),
                ("VATES_TASKREC_ELAPSED", &light),
            ],
        );
        let seconds: f64 = line.get("seconds");
        let untraced = elapsed_file(&light, &what);
        assert!(
            untraced > 0.0 && untraced <= seconds + MARGIN,
            "{what}: light mode wrote {untraced} s, the program timed {seconds} s"
        );
        assert!(!file.exists(), "{what}: light mode wrote a DAG file");
        assert!(
            s.span <= s.work,
            "{what}: span {} > work {}",
            s.span,
            s.work
        );
    }
    // Without VATES_TASKREC and VATES_TASKREC_ELAPSED the tool stays out of the run: no
    // file, no message.
    let out = k
        .command(2, &with)
        .env("OMP_TOOL_LIBRARIES", tool)
        .env_remove("VATES_TASKREC")
        .env_remove("VATES_TASKREC_ELAPSED")
        .output()
        .expect("run the kernel");
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
}

/// How far the tool's elapsed time may exceed the program's `seconds=` (its
/// `omp_get_wtime` around the region, which contains the tool's span; the margin covers
/// the two clocks' reading order and resolution).
const MARGIN: f64 = 1e-3;

/// The number a file of the tool's elapsed time holds (one number and a newline).
fn elapsed_file(path: &Path, what: &str) -> f64 {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{what}: no elapsed file {}: {e}", path.display()));
    assert!(
        text.ends_with('\n') && text.trim().lines().count() == 1,
        "{what}: {text:?}"
    );
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("{what}: {text:?} is not a number"))
}

#[test]
fn ompt_records_fib() {
    ompt_check("fib", &["15", "x=19"]);
}

#[test]
fn ompt_records_nqueens() {
    ompt_check("nqueens", &["6", "x=7"]);
}

/// A test program of `tests/openmp/` (not a kernel: its own output), compiled into `dir`.
fn build_test_program(name: &str, dir: &Path) -> Option<PathBuf> {
    let cc = match toolchain() {
        Ok(cc) => cc,
        Err(why) => {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{SKIP} ({why})");
            }
            println!("{SKIP} ({why})");
            return None;
        }
    };
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/openmp/{name}.c"));
    let exe = dir.join(name);
    cc.compile(&src, &exe).unwrap_or_else(|e| panic!("{e}"));
    Some(exe)
}

/// Runs `exe args` through the OMPT tool on `threads` threads and reads the file back;
/// the program's output (`ok` and the order its tasks ran in) and the recording.
fn record_test_program(
    exe: &Path,
    tool: &Path,
    threads: u32,
    args: &[&str],
    file: &Path,
) -> (String, taskpar::dag::Recording) {
    let _g = lock();
    let out = Command::new(exe)
        .args(args)
        .env("OMP_NUM_THREADS", threads.to_string())
        .env("OMP_TOOL_LIBRARIES", tool)
        .env("VATES_TASKREC", file)
        .output()
        .expect("run the test program");
    let what = format!("{} {args:?} on {threads} threads", exe.display());
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{what}: {out:?}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(stdout.starts_with("ok"), "{what}: {stdout}");
    let rec = taskpar::dag::load(file, &taskpar::dag::Limits::default())
        .unwrap_or_else(|e| panic!("{what}: the file does not read: {e}"));
    (stdout, rec)
}

/// An explicit task of a recording: its number in the file, its work (its strands'
/// durations), its first start and its last end.
#[derive(Debug, Clone, Copy)]
struct Explicit {
    number: u64,
    work: u64,
    start: u64,
    end: u64,
}

/// The explicit tasks (those created by an implicit task: the root creates the implicit
/// ones), in the file's order, numbered as the file numbers tasks (the root 0).
fn explicit_tasks(rec: &taskpar::dag::Recording) -> Vec<Explicit> {
    use taskrec::tree::{Child, Item};
    fn walk(c: &Child, depth: usize, next: &mut u64, out: &mut Vec<Explicit>) {
        let number = *next;
        *next += 1;
        let Child::Task(t) = c else { return };
        if depth == 2 {
            let mut e = Explicit {
                number,
                work: 0,
                start: u64::MAX,
                end: 0,
            };
            leaves(&t.items, &mut e);
            out.push(e);
        }
        items(&t.items, depth, next, out);
    }
    fn items(list: &[Item], depth: usize, next: &mut u64, out: &mut Vec<Explicit>) {
        for it in list {
            match it {
                Item::Create { child, .. } => walk(child, depth + 1, next, out),
                Item::Section(s) => items(&s.items, depth, next, out),
                _ => {}
            }
        }
    }
    fn leaves(list: &[Item], e: &mut Explicit) {
        for it in list {
            let s = match it {
                Item::Strand(s) | Item::Create { strand: s, .. } => s,
                Item::Section(sec) => {
                    leaves(&sec.items, e);
                    continue;
                }
                Item::Collapsed(_) => panic!("the OMPT tool does not collapse"),
            };
            e.work += s.duration();
            e.start = e.start.min(s.start);
            e.end = e.end.max(s.end);
        }
    }
    let taskpar::dag::Body::Tree(root) = &rec.body else {
        panic!("the OMPT tool writes a vates DAG file")
    };
    let mut out = Vec::new();
    walk(root, 0, &mut 0, &mut out);
    out
}

/// `depend` clauses become the file's dependence list (version 2), and the span honours
/// them. Hand-computed cases, on one and two threads:
///
/// - `chain 4 3`: four tasks of 3 ms, each `depend(inout: x)`: the edges 1→2, 2→3, 3→4
///   (the tasks in creation order), so the span is at least the four tasks' work, where
///   without the list it would be under it (they could all run at once); the run honours
///   the order (each task starts after its source ended).
/// - `diamond 2 9 3 2`: A (2 ms) out(a); B (9 ms) in(a) out(b); C (3 ms) in(a) out(c);
///   D (2 ms) in(b, c): the edges A→B, A→C, B→D, C→D; the span is at least A + B + D and,
///   as no path holds both B and C, under A + B + C + D; without the list it is under
///   A + B + D.
/// - `readers 2 3 9 2`: W (2 ms) out(x); R (3 ms) and S (9 ms) in(x); V (2 ms) inout(x):
///   readers after a writer and a writer after readers, the edges W→R, W→S, R→V, S→V;
///   the span is at least W + S + V and under the four tasks' work.
///
/// In each, the critical path crosses a dependence edge between each two tasks on the
/// longest side (the chain's three; A→B→D, W→S→V: two).
#[test]
fn ompt_records_depend_clauses_as_edges() {
    let dir = TempDir::new("ompt-depend");
    let Some(exe) = build_test_program("depend", &dir.0) else {
        return;
    };
    let Some(tool) = ompt_tool(&dir.0) else {
        return;
    };
    for threads in [1u32, 2] {
        for (args, edges, path) in [
            (
                &["chain", "4", "3"][..],
                &[(0usize, 1usize), (1, 2), (2, 3)][..],
                &[0usize, 1, 2, 3][..],
            ),
            (
                &["diamond", "2", "9", "3", "2"][..],
                &[(0, 1), (0, 2), (1, 3), (2, 3)][..],
                &[0, 1, 3][..],
            ),
            (
                &["readers", "2", "3", "9", "2"][..],
                &[(0, 1), (0, 2), (1, 3), (2, 3)][..],
                &[0, 2, 3][..],
            ),
        ] {
            let what = format!("depend {args:?} on {threads} threads");
            let file = dir.0.join(format!("{}-{threads}.dag", args[0]));
            let (_, rec) = record_test_program(&exe, &tool, threads, args, &file);
            assert_eq!(rec.header.version, 2, "{what}");
            let tasks = explicit_tasks(&rec);
            assert_eq!(tasks.len(), 4, "{what}");
            let mut expected: Vec<(u64, u64)> = edges
                .iter()
                .map(|&(a, b)| (tasks[a].number, tasks[b].number))
                .collect();
            expected.sort_unstable();
            let mut got = rec.dependences.clone();
            got.sort_unstable();
            assert_eq!(got, expected, "{what}: {tasks:?}");
            // The runtime honoured them: each sink started after its source ended.
            for &(a, b) in edges {
                assert!(
                    tasks[b].start >= tasks[a].end,
                    "{what}: {a} → {b}: {tasks:?}"
                );
            }
            let g = rec.graph();
            let s = taskpar::stats::Stats::of(
                &g,
                rec.header.workers,
                rec.nodes,
                &taskpar::stats::StatsOptions::default(),
            );
            assert_eq!(s.identity_gap(), 0, "{what}");
            assert_eq!(s.dependences, edges.len() as u64, "{what}");
            let on_path: u64 = path.iter().map(|&k| tasks[k].work).sum();
            let all: u64 = tasks.iter().map(|t| t.work).sum();
            assert!(s.span >= on_path, "{what}: span {} < {on_path}", s.span);
            if args[0] != "chain" {
                assert!(s.span < all, "{what}: span {} ≥ all tasks {all}", s.span);
            }
            // The critical path follows the dependences through the expected tasks: one
            // dependence edge between each two of them (the chain's three, the longer
            // side's two).
            let critical = &taskpar::stats::critical_paths(&g, 1)[0];
            let crossed = critical
                .windows(2)
                .filter(|w| {
                    g.preds(w[1] as usize)
                        .contains(&(w[0], taskpar::dag::EdgeKind::Depend))
                })
                .count();
            assert_eq!(crossed, path.len() - 1, "{what}: {critical:?}");
            // The tree alone (the edges dropped) lets the tasks run side by side.
            let bare = taskpar::dag::Graph::from_root(match &rec.body {
                taskpar::dag::Body::Tree(root) => root,
                taskpar::dag::Body::Graph(_) => unreachable!(),
            });
            let sb = taskpar::stats::Stats::of(
                &bare,
                rec.header.workers,
                rec.nodes,
                &taskpar::stats::StatsOptions::default(),
            );
            assert!(
                sb.span < on_path,
                "{what}: without the edges the span {} is not under {on_path}",
                sb.span
            );
        }
    }
}

/// Nested parallel regions (`nested 2 2 3`: an outer team of 2, each thread running an
/// inner team of 2 whose implicit tasks spin 3 ms and whose thread 0 creates two 3 ms
/// tasks), with nesting off (`OMP_MAX_ACTIVE_LEVELS=1`: each inner team is its
/// encountering thread) and on (`=2`: each inner team brings a thread of its own). The
/// workers are the threads: as many as the program saw (2, then 4, or 3 when an inner team
/// reuses the other's thread), and each runs one
/// strand at a time (no two strands of positive length on one worker overlap, which team
/// numbers would break: both inner teams have a thread 0 and a thread 1). The counts follow
/// the tool's scheme, regions within regions: with inner teams of t threads (1 with nesting
/// off, 2 with it on), k_o phases of the outer region and k_i of each inner one, creates =
/// 4 tasks + 2·k_o + 2·t·k_i, waits = k_o + 2·k_i (no taskwait), ends = creates + 1; the
/// work is at least the spins, (2·t + 4) × 3 ms.
#[test]
fn ompt_records_nested_parallel_regions_on_distinct_workers() {
    let dir = TempDir::new("ompt-nested");
    let Some(exe) = build_test_program("nested", &dir.0) else {
        return;
    };
    let Some(tool) = ompt_tool(&dir.0) else {
        return;
    };
    for (levels, threads, t) in [("1", 2..=2u32, 1u64), ("2", 3..=4, 2)] {
        let what = format!("nested 2 2 3, OMP_MAX_ACTIVE_LEVELS={levels}");
        let file = dir.0.join(format!("nested-{levels}.dag"));
        let out = {
            let _g = lock();
            Command::new(&exe)
                .args(["2", "2", "3"])
                .env("OMP_MAX_ACTIVE_LEVELS", levels)
                .env("OMP_TOOL_LIBRARIES", &tool)
                .env("VATES_TASKREC", &file)
                .output()
                .expect("run nested")
        };
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{what}: {out:?}"
        );
        // The threads the program saw: the inner teams' threads return to libomp's pool at
        // the end of their region, so when the two inner regions do not overlap (a loaded
        // machine) the second may reuse the first's thread: 3 threads, not 4.
        let seen: u32 = stdout
            .trim()
            .strip_prefix("ok threads=")
            .and_then(|r| r.strip_suffix(" tasks=4"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{what}: {stdout:?}"));
        assert!(threads.contains(&seen), "{what}: {seen} threads");
        let rec = taskpar::dag::load(&file, &taskpar::dag::Limits::default())
            .unwrap_or_else(|e| panic!("{what}: the file does not read: {e}"));
        assert_eq!(rec.header.workers, seen, "{what}");
        let g = rec.graph();
        let mut by_worker: HashMap<u32, Vec<(u64, u64)>> = HashMap::new();
        for n in g.nodes.iter().filter(|n| n.end > n.start) {
            by_worker
                .entry(n.worker)
                .or_default()
                .push((n.start, n.end));
        }
        assert_eq!(by_worker.len(), seen as usize, "{what}: {by_worker:?}");
        for (w, spans) in &mut by_worker {
            spans.sort_unstable();
            for pair in spans.windows(2) {
                assert!(
                    pair[1].0 >= pair[0].1,
                    "{what}: worker {w} runs {:?} and {:?} at once",
                    pair[0],
                    pair[1]
                );
            }
        }
        let c = g.counts();
        let fits = (1..=2u64).any(|ko| {
            (1..=2u64).any(|ki| c.creates == 4 + 2 * ko + 2 * t * ki && c.waits == ko + 2 * ki)
        });
        assert!(fits, "{what}: {c:?}");
        assert_eq!(c.ends, c.creates + 1, "{what}: {c:?}");
        let s = taskpar::stats::Stats::of(
            &g,
            rec.header.workers,
            rec.nodes,
            &taskpar::stats::StatsOptions::default(),
        );
        assert_eq!(s.identity_gap(), 0, "{what}");
        assert!(s.work >= (2 * t + 4) * 3_000_000, "{what}: work {}", s.work);
    }
}
