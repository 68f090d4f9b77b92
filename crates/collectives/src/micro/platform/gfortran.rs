//! The runner that compiles the timing driver with gfortran and runs it: sources written to
//! a scratch directory (removed afterwards), one compiler call per job (each kernel its own
//! translation unit, so no call is inlined away), the program stopped if it outlives the
//! timeout.

use super::{driver, Job, RunError, Runner, Timing};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The Debian package that provides the compiler.
pub const PACKAGE: &str = "gfortran";

/// gfortran as a [`Runner`].
#[derive(Clone, Debug)]
pub struct Gfortran {
    /// The compiler to run.
    pub program: String,
    /// Where scratch directories are made.
    pub scratch: PathBuf,
    /// The longest a timing program may run.
    pub timeout: Duration,
}

impl Gfortran {
    /// `gfortran` on the path, scratch directories under `scratch`, a timeout of 10 minutes.
    pub fn new(scratch: impl Into<PathBuf>) -> Gfortran {
        Gfortran {
            program: "gfortran".into(),
            scratch: scratch.into(),
            timeout: Duration::from_secs(600),
        }
    }

    /// The compiler's version line: whether it is installed.
    ///
    /// # Errors
    /// [`RunError::Missing`] naming the package when it is not.
    pub fn version(&self) -> Result<String, RunError> {
        let out = Command::new(&self.program)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| self.spawn_error(e))?;
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string())
    }

    fn spawn_error(&self, e: std::io::Error) -> RunError {
        if e.kind() == std::io::ErrorKind::NotFound {
            RunError::Missing {
                program: self.program.clone(),
                package: PACKAGE,
            }
        } else {
            RunError::Io(format!("cannot run {}: {e}", self.program))
        }
    }
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

static NEXT: AtomicU64 = AtomicU64::new(0);

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
        let dir = self.scratch.join(format!(
            "vates-micro-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|e| RunError::Io(format!("cannot create {}: {e}", dir.display())))?;
        let scratch = Scratch(dir);
        for (name, text) in &files {
            let path = scratch.0.join(name);
            std::fs::write(&path, text)
                .map_err(|e| RunError::Io(format!("cannot write {}: {e}", path.display())))?;
        }
        let exe = scratch.0.join("vq_prog");
        let out = Command::new(&self.program)
            .arg(job.opt.flag())
            .arg("-ffree-line-length-none")
            .arg("-o")
            .arg(&exe)
            .args(files.iter().map(|(n, _)| n))
            .current_dir(&scratch.0)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| self.spawn_error(e))?;
        if !out.status.success() {
            return Err(RunError::Compile {
                program: self.program.clone(),
                flag: job.opt.flag(),
                stderr: head(&out.stderr),
            });
        }
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
