//! The runner that builds the timing driver with gfortran through `native::build` (the
//! kernels one object file, the main program another linked to it: separate translation
//! units, so no call is inlined away and no repetition removed; both cached under a key of
//! source, compiler and flags) and runs it, stopping it if it outlives the timeout.

use super::{driver, Job, RunError, Runner, Timing};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The Debian package that provides the compiler.
pub const PACKAGE: &str = "gfortran";

/// gfortran as a [`Runner`].
#[derive(Clone, Debug)]
pub struct Gfortran {
    /// The compiler to run.
    pub program: String,
    /// The cache directory of the builds (the CLI's `termio::files::cache_dir`).
    pub cache: PathBuf,
    /// The longest a timing program may run.
    pub timeout: Duration,
}

impl Gfortran {
    /// `gfortran` on the path, builds cached in `cache`, a timeout of 10 minutes.
    pub fn new(cache: impl Into<PathBuf>) -> Gfortran {
        Gfortran {
            program: "gfortran".into(),
            cache: cache.into(),
            timeout: Duration::from_secs(600),
        }
    }

    /// The compiler's name and full version (`gfortran 12.2.0`): whether it is installed.
    ///
    /// # Errors
    /// [`RunError::Missing`] naming the package when it is not.
    pub fn version(&self) -> Result<String, RunError> {
        let out = Command::new(&self.program)
            .arg("-dumpfullversion")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::NotFound {
                    self.missing()
                } else {
                    RunError::Io(format!("cannot run {}: {e}", self.program))
                }
            })?;
        let version = String::from_utf8_lossy(&out.stdout);
        Ok(format!("{} {}", self.program, version.trim()))
    }

    fn missing(&self) -> RunError {
        RunError::Missing {
            program: self.program.clone(),
            package: PACKAGE,
        }
    }

    /// Builds `source` (named `name`) with `args`, as `stem` with extension `ext`.
    fn build(
        &self,
        job: &Job,
        name: &str,
        source: &str,
        stem: &str,
        ext: &str,
        args: &[String],
    ) -> Result<PathBuf, RunError> {
        let b = native::Build {
            source,
            source_name: name,
            output_stem: stem,
            output_ext: ext,
            program: &self.program,
            args,
            dir: &self.cache,
        };
        native::build(&b)
            .map(|built| built.path)
            .map_err(|e| match e {
                native::BuildError::NoCompiler { .. } => self.missing(),
                native::BuildError::Failed { stderr, .. } => RunError::Compile {
                    program: self.program.clone(),
                    flag: job.opt.flag(),
                    stderr: head(stderr.as_bytes()),
                },
                other => RunError::Io(other.to_string()),
            })
    }
}

/// At most this much of a program's standard error goes into an error.
const STDERR_BYTES: usize = 2000;

fn head(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let cut = diag::floor_char_boundary(&s, STDERR_BYTES.min(s.len()));
    s[..cut].trim().to_string()
}

impl Runner for Gfortran {
    fn time(&mut self, job: &Job) -> Result<Vec<Timing>, RunError> {
        let files = driver::sources(job)?;
        let (main, kernels) = files
            .split_first()
            .ok_or_else(|| RunError::Plan("no sources".into()))?;
        let kernels: String = kernels.iter().map(|(_, text)| text.as_str()).collect();
        let flag = job.opt.flag().to_string();
        let free = "-ffree-line-length-none".to_string();
        let object = self.build(
            job,
            "vq_kernels.f90",
            &kernels,
            "vq_kernels",
            ".o",
            &[flag.clone(), free.clone(), "-c".into()],
        )?;
        let exe = self.build(
            job,
            &main.0,
            &main.1,
            "vq_timing",
            "",
            &[flag, free, object.to_string_lossy().into_owned()],
        )?;
        let stdout = run(&exe, self.timeout)?;
        driver::parse_output(job.points, job.samples, &stdout)
    }
}

/// Runs `exe`, returns its standard output; stops it after `timeout`.
fn run(exe: &Path, timeout: Duration) -> Result<String, RunError> {
    let mut child = Command::new(exe)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| RunError::Io(format!("cannot run {}: {e}", exe.display())))?;
    // Drained on threads so a full pipe never blocks the program.
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut v);
            }
            v
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(RunError::Timeout {
                    seconds: timeout.as_secs_f64(),
                });
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(RunError::Io(format!("waiting for the timing program: {e}"))),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if !status.success() {
        return Err(RunError::Run {
            status: status.to_string(),
            stderr: head(&stderr),
        });
    }
    String::from_utf8(stdout).map_err(|_| RunError::Output("not UTF-8".into()))
}
