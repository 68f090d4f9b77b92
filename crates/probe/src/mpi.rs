//! MPI collectives on this host: a benchmark written here (`mpi/vates_mpi_bench.c`),
//! built with `mpicc` through [`native::build`] and run with `mpirun` once per process
//! count, timing barrier, broadcast, scatter, gather, reduce, allreduce, alltoall and a
//! send-receive ring over message sizes, with the discipline of IMB and the OSU tests
//! (warm-up, a barrier before every repetition, a loop long enough for the clock, the
//! slowest process's time per call).
//!
//! Process counts above the cores run oversubscribed: those rows are marked
//! [`MpiRow::shared`], so they are never pooled with real ones.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The benchmark's source, as this build embeds it.
pub const SOURCE: &str = include_str!("../mpi/vates_mpi_bench.c");

/// The operations the benchmark times, by the names its rows carry.
pub const OPS: [&str; 8] = [
    "barrier",
    "broadcast",
    "scatter",
    "gather",
    "reduce",
    "allreduce",
    "alltoall",
    "send-receive",
];

/// The largest message size, in integers, the benchmark accepts (its buffers hold
/// `size × p` integers).
pub const MAX_SIZE: u64 = 1 << 24;

/// The largest process count a run may ask for.
pub const MAX_PROCESSES: u32 = 1024;

/// What to measure and with what.
#[derive(Clone, Debug, PartialEq)]
pub struct MpiOptions {
    /// The operations (names of [`OPS`]).
    pub ops: Vec<String>,
    /// The process counts, one `mpirun` each.
    pub processes: Vec<u32>,
    /// The message sizes, in integers (`MPI_INT`).
    pub sizes: Vec<u64>,
    /// Timed repetitions per operation and size.
    pub repetitions: u32,
    /// The shortest a repetition may last, µs (its loop is as long as that takes).
    pub repetition_us: f64,
    /// The cores of this host: runs with more processes are time-shared.
    pub cores: usize,
    /// The MPI compiler wrapper.
    pub mpicc: String,
    /// The MPI launcher.
    pub mpirun: String,
    /// Where the built benchmark is kept.
    pub cache_dir: PathBuf,
    /// The longest one `mpirun` may take before it is stopped.
    pub timeout: Duration,
}

impl MpiOptions {
    /// The default grid: every operation, 2 and 4 processes (2, 4 and 8 without `quick`),
    /// sizes by powers of 2 from 1 to 64 Ki integers (1 Mi without `quick`), 10 repetitions
    /// of at least 300 µs (20 without `quick`).
    pub fn new(quick: bool, cache_dir: PathBuf) -> MpiOptions {
        let top = if quick { 16 } else { 20 };
        let sizes: Vec<u64> = (0..=top).map(|k| 1u64 << k).collect();
        MpiOptions {
            ops: OPS.iter().map(|s| s.to_string()).collect(),
            processes: if quick { vec![2, 4] } else { vec![2, 4, 8] },
            sizes,
            repetitions: if quick { 10 } else { 20 },
            repetition_us: 300.0,
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            mpicc: "mpicc".into(),
            mpirun: "mpirun".into(),
            cache_dir,
            timeout: Duration::from_secs(if quick { 60 } else { 600 }),
        }
    }
}

impl MpiOptions {
    /// The options with what a user gave over the defaults: the process counts, sizes and
    /// operations when not empty, the repetitions when given.
    ///
    /// ```
    /// use probe::mpi::MpiOptions;
    /// let o = MpiOptions::new(true, "/tmp".into()).with(&[3], &[], vec![], Some(7));
    /// assert_eq!((o.processes, o.repetitions), (vec![3], 7));
    /// assert_eq!(o.sizes, MpiOptions::new(true, "/tmp".into()).sizes);
    /// ```
    pub fn with(
        mut self,
        processes: &[u32],
        sizes: &[u64],
        ops: Vec<String>,
        repetitions: Option<u32>,
    ) -> MpiOptions {
        if !processes.is_empty() {
            self.processes = processes.to_vec();
        }
        if !sizes.is_empty() {
            self.sizes = sizes.to_vec();
        }
        if !ops.is_empty() {
            self.ops = ops;
        }
        if let Some(r) = repetitions {
            self.repetitions = r;
        }
        self
    }
}

impl MpiRun {
    /// A note for the user when the benchmark was built for this run: with which compiler,
    /// into which directory.
    pub fn built(&self, opts: &MpiOptions) -> Option<String> {
        self.compiled.then(|| {
            format!(
                "built the MPI benchmark (vates_mpi_bench.c, with {}) into {}",
                opts.mpicc,
                opts.cache_dir.display()
            )
        })
    }
}

impl MpiError {
    /// What to do about the stop, naming the options by neutral keys a front end spells its
    /// way (`{np}`, `{sizes}`, `{op}`, `{reps}`, `{help}`).
    pub fn fix(&self) -> &'static str {
        match self {
            MpiError::NotInstalled { .. } => {
                "install an MPI (Debian: apt install openmpi-bin libopenmpi-dev)"
            }
            MpiError::Options(_) => "see `vates probe {help}` for {np}, {sizes} and {op}",
            MpiError::Build(_) => {
                "check the MPI installation (mpicc must compile a C program: Debian's \
                 libopenmpi-dev)"
            }
            MpiError::Timeout { .. } => {
                "fewer or smaller {sizes}, fewer {reps}, or fewer {np} process counts"
            }
            MpiError::Run { .. } | MpiError::Output { .. } => {
                "run `mpirun -np 2 hostname` to check the MPI installation"
            }
        }
    }
}

/// One timed repetition.
#[derive(Clone, Debug, PartialEq)]
pub struct MpiRow {
    /// The operation.
    pub op: String,
    /// Processes.
    pub p: u32,
    /// Message size in integers (`None` for the barrier).
    pub d: Option<u64>,
    /// Time per call, µs (the slowest process's).
    pub time_us: f64,
    /// Whether the processes outnumbered the cores (time-shared).
    pub shared: bool,
}

/// What a run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct MpiRun {
    /// Every repetition of every operation, size and process count.
    pub rows: Vec<MpiRow>,
    /// The resolution of `MPI_Wtime`, s.
    pub wtick_s: f64,
    /// The MPI implementation (`mpirun --version`'s first line).
    pub implementation: String,
    /// The cores the runs were judged against.
    pub cores: usize,
    /// Whether the benchmark was compiled for this run (`false`: found in the cache).
    pub compiled: bool,
}

/// Why the MPI probe stopped.
#[derive(Debug, thiserror::Error)]
pub enum MpiError {
    /// A program of the MPI installation is missing.
    #[error("`{program}` is not installed (or not on PATH)")]
    NotInstalled {
        /// The program (`mpicc`, `mpirun`).
        program: String,
    },
    /// The options ask for something the benchmark cannot do.
    #[error("{0}")]
    Options(String),
    /// The benchmark could not be built.
    #[error("cannot build the MPI benchmark: {0}")]
    Build(native::BuildError),
    /// A run failed.
    #[error("`{command}` failed ({status}):\n{stderr}")]
    Run {
        /// The command line.
        command: String,
        /// Its exit status.
        status: String,
        /// The end of its standard error.
        stderr: String,
    },
    /// A run took longer than the timeout and was stopped.
    #[error("the run on {p} processes took longer than {seconds} s and was stopped")]
    Timeout {
        /// Processes.
        p: u32,
        /// The timeout.
        seconds: u64,
    },
    /// The benchmark printed a line that is not a row.
    #[error("the benchmark printed `{line}`, which is not a row op,p,d,time")]
    Output {
        /// The line.
        line: String,
    },
}

/// Checks `opts` before anything is built or run.
fn check(opts: &MpiOptions) -> Result<(), MpiError> {
    if let Some(op) = opts.ops.iter().find(|o| !OPS.contains(&o.as_str())) {
        return Err(MpiError::Options(format!(
            "unknown operation `{op}`: the benchmark times {}",
            OPS.join(", ")
        )));
    }
    if opts.ops.is_empty() || opts.processes.is_empty() || opts.sizes.is_empty() {
        return Err(MpiError::Options(
            "no operation, process count or size to measure".into(),
        ));
    }
    if let Some(p) = opts
        .processes
        .iter()
        .find(|&&p| p == 0 || p > MAX_PROCESSES)
    {
        return Err(MpiError::Options(format!(
            "{p} processes: a run has 1 to {MAX_PROCESSES}"
        )));
    }
    if let Some(d) = opts.sizes.iter().find(|&&d| d > MAX_SIZE) {
        return Err(MpiError::Options(format!(
            "size {d}: the benchmark takes sizes up to {MAX_SIZE} integers"
        )));
    }
    if opts.sizes.len() > 64 {
        return Err(MpiError::Options("more than 64 sizes".into()));
    }
    if opts.repetitions == 0 || !(opts.repetition_us > 0.0 && opts.repetition_us <= 1e7) {
        return Err(MpiError::Options(
            "repetitions must be at least 1 and last 0 to 10 s".into(),
        ));
    }
    Ok(())
}

/// Builds the benchmark and runs it at every process count of `opts`, reporting
/// `progress(done, total, what)` before each run.
///
/// # Errors
/// [`MpiError`]: no MPI, a failed build, a failed or overlong run, output that is not rows.
pub fn run(
    opts: &MpiOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<MpiRun, MpiError> {
    check(opts)?;
    for program in [&opts.mpicc, &opts.mpirun] {
        if !native::available(program) {
            return Err(MpiError::NotInstalled {
                program: program.clone(),
            });
        }
    }
    let built = native::build(&native::Build {
        source: SOURCE,
        source_name: "vates_mpi_bench.c",
        output_stem: "vates_mpi_bench",
        output_ext: "",
        program: &opts.mpicc,
        args: &["-O2".to_string()],
        dir: &opts.cache_dir,
    })
    .map_err(MpiError::Build)?;
    let implementation = version(&opts.mpirun);
    let open_mpi = implementation.contains("Open MPI") || implementation.contains("OpenRTE");
    let mut out = MpiRun {
        rows: Vec::new(),
        wtick_s: f64::NAN,
        implementation,
        cores: opts.cores,
        compiled: built.compiled,
    };
    let total = opts.processes.len();
    for (k, &p) in opts.processes.iter().enumerate() {
        let shared = p as usize > opts.cores;
        progress(
            k,
            total,
            &format!(
                "{p} processes{}",
                if shared { " (time-shared)" } else { "" }
            ),
        );
        let mut cmd = Command::new(&opts.mpirun);
        // Open MPI refuses root and more processes than slots unless told; the variables
        // are ignored by other implementations.
        cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        if open_mpi && shared {
            cmd.args(["--oversubscribe", "--bind-to", "none"]);
        }
        cmd.arg("-np")
            .arg(p.to_string())
            .arg(&built.path)
            .arg(opts.ops.join(","))
            .arg(
                opts.sizes
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            )
            .arg(opts.repetitions.to_string())
            .arg(opts.repetition_us.to_string());
        let text = run_one(cmd, p, opts.timeout)?;
        out.wtick_s = parse(&text, shared, &mut out.rows)?.unwrap_or(out.wtick_s);
    }
    progress(total, total, "done");
    Ok(out)
}

/// The launcher's `--version` first line (empty if it prints none).
fn version(mpirun: &str) -> String {
    Command::new(mpirun)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map(|o| {
            let text = String::from_utf8_lossy(&o.stdout).into_owned()
                + &String::from_utf8_lossy(&o.stderr);
            text.lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim()
                .to_string()
        })
        .unwrap_or_default()
}

/// Runs `cmd` to its end or the timeout; its standard output, or why not.
fn run_one(mut cmd: Command, p: u32, timeout: Duration) -> Result<String, MpiError> {
    use std::os::unix::process::CommandExt;
    let command = format!("{cmd:?}").replace('"', "");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| MpiError::Run {
            command: command.clone(),
            status: "not started".into(),
            stderr: e.to_string(),
        })?;
    // Read both pipes on threads, so a chatty run never blocks on a full pipe.
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("piped")));
    let stderr = read(Box::new(child.stderr.take().expect("piped")));
    let start = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        if start.elapsed() > timeout {
            // The launcher and its processes are one group: stop them all.
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(child.id() as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
            let _ = child.wait();
            return Err(MpiError::Timeout {
                p,
                seconds: timeout.as_secs(),
            });
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    if !status.success() {
        let tail: Vec<&str> = err.lines().rev().take(20).collect();
        return Err(MpiError::Run {
            command,
            status: status.to_string(),
            stderr: tail.into_iter().rev().collect::<Vec<_>>().join("\n"),
        });
    }
    Ok(text)
}

/// Appends the rows of a run's output to `rows`; the clock resolution it states.
fn parse(text: &str, shared: bool, rows: &mut Vec<MpiRow>) -> Result<Option<f64>, MpiError> {
    let mut wtick = None;
    let bad = |line: &str| MpiError::Output {
        line: line.chars().take(80).collect(),
    };
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(c) = line.strip_prefix('#') {
            if let Some(v) = c.trim().strip_prefix("wtick_s=") {
                wtick = v.parse().ok();
            }
            continue;
        }
        if line == "op,p,d,time" {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let [op, p, d, t] = f[..] else {
            return Err(bad(line));
        };
        let op = OPS.iter().find(|o| **o == op).ok_or_else(|| bad(line))?;
        let p: u32 = p.parse().map_err(|_| bad(line))?;
        let d: Option<u64> = if d.is_empty() {
            None
        } else {
            Some(d.parse().map_err(|_| bad(line))?)
        };
        let time_us: f64 = t.parse().map_err(|_| bad(line))?;
        if !(time_us.is_finite() && time_us > 0.0) {
            return Err(bad(line));
        }
        rows.push(MpiRow {
            op: op.to_string(),
            p,
            d,
            time_us,
            shared,
        });
    }
    Ok(wtick)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_benchmarks_rows() {
        let mut rows = Vec::new();
        let w = parse(
            "# wtick_s=1e-09\n# processes=2\nop,p,d,time\nbarrier,2,,0.5\nbroadcast,2,16,0.25\n# iterations x\n",
            false,
            &mut rows,
        )
        .unwrap();
        assert_eq!(w, Some(1e-9));
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[1].op.as_str(), rows[1].d, rows[1].time_us),
            ("broadcast", Some(16), 0.25)
        );
        for bad in [
            "x,2,,1",
            "barrier,2,,0",
            "barrier,two,,1",
            "barrier,2",
            "barrier,2,,nan",
        ] {
            assert!(parse(bad, false, &mut rows).is_err(), "{bad}");
        }
    }

    #[test]
    fn options_are_checked_first() {
        let mut o = MpiOptions::new(true, std::env::temp_dir());
        o.ops = vec!["bcast".into()];
        assert!(
            matches!(run(&o, &mut |_, _, _| {}), Err(MpiError::Options(m)) if m.contains("`bcast`"))
        );
        let mut o = MpiOptions::new(true, std::env::temp_dir());
        o.sizes = vec![MAX_SIZE + 1];
        assert!(matches!(check(&o), Err(MpiError::Options(_))));
        o.sizes = vec![1];
        o.processes = vec![0];
        assert!(matches!(check(&o), Err(MpiError::Options(_))));
        let mut o = MpiOptions::new(true, std::env::temp_dir());
        o.mpirun = "/nonexistent/mpirun".into();
        assert!(matches!(
            run(&o, &mut |_, _, _| {}),
            Err(MpiError::NotInstalled { .. })
        ));
    }
}
