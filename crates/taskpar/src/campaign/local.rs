//! The local backend: runs a campaign's programs on this machine, each in a process group
//! of its own, so that a timeout or a cancellation stops everything the program started
//! (a shell's children, a wrapper's, `mpirun`'s), not only the process it began as.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::backend::{Backend, Invocation, Outcome, StartError, Status, STDERR_TAIL};

/// How often a running program is checked on.
const POLL: Duration = Duration::from_millis(2);
/// How long a stopped program's processes have to end after SIGTERM before SIGKILL.
pub const GRACE: Duration = Duration::from_secs(2);

/// Runs programs here. A shared flag cancels the campaign: the program running then is
/// stopped (its whole process group) and the runner stops before the next run; the
/// binary sets it from its SIGINT/SIGTERM handler.
#[derive(Clone, Debug, Default)]
pub struct LocalBackend {
    cancel: Arc<AtomicBool>,
}

impl LocalBackend {
    /// A backend cancelled when `cancel` becomes true.
    pub fn new(cancel: Arc<AtomicBool>) -> Self {
        LocalBackend { cancel }
    }
}

impl Backend for LocalBackend {
    fn run(&self, inv: &Invocation<'_>) -> Result<Outcome, StartError> {
        let start_error = |error| StartError {
            command: inv.shown(),
            error,
        };
        let err_path = inv.scratch.join("stderr.txt");
        let err_file = std::fs::File::create(&err_path).map_err(start_error)?;
        let out = match inv.stdout {
            Some(path) => Stdio::from(std::fs::File::create(path).map_err(start_error)?),
            None => Stdio::null(),
        };
        let mut cmd = Command::new(inv.program);
        cmd.args(inv.args)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err_file);
        for k in inv.env_remove {
            cmd.env_remove(k);
        }
        for (k, v) in inv.env {
            cmd.env(k, v);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // A group of its own: stopping the group stops everything the program started.
            cmd.process_group(0);
        }
        let start = Instant::now();
        let mut child = cmd.spawn().map_err(start_error)?;
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) if s.success() => break Status::Success,
                Ok(Some(s)) => break Status::Failed(s.to_string()),
                Ok(None) if self.cancel.load(Ordering::Relaxed) => {
                    stop_group(&mut child);
                    break Status::Cancelled;
                }
                Ok(None) if start.elapsed() > inv.timeout => {
                    stop_group(&mut child);
                    break Status::TimedOut;
                }
                Ok(None) => std::thread::sleep(POLL),
                Err(e) => {
                    stop_group(&mut child);
                    break Status::Failed(format!("cannot wait for it: {e}"));
                }
            }
        };
        let elapsed = start.elapsed();
        let stderr_tail = tail(&err_path);
        let _ = std::fs::remove_file(&err_path);
        Ok(Outcome {
            status,
            elapsed,
            stderr_tail,
            written: inv.outputs.iter().filter(|p| p.exists()).cloned().collect(),
        })
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// The last [`STDERR_TAIL`] bytes of the file `path`, as text.
fn tail(path: &Path) -> String {
    file_tail(path, STDERR_TAIL)
}

/// The last `max` bytes of the file `path` (however large it is), as text, not beginning
/// inside a UTF-8 sequence; empty when it cannot be read.
pub fn file_tail(path: &Path, max: usize) -> String {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = std::fs::File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map_or(0, |m| m.len());
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(max as u64)));
    let mut text = Vec::with_capacity(max.min(1 << 16));
    let _ = f.take(max as u64).read_to_end(&mut text);
    let mut from = 0;
    while from < text.len() && (text[from] & 0xC0) == 0x80 {
        from += 1;
    }
    String::from_utf8_lossy(&text[from..]).into_owned()
}

/// Stops the process group `child` leads: SIGTERM, then SIGKILL to what is left after
/// [`GRACE`]; reaps the child.
#[cfg(unix)]
fn stop_group(child: &mut Child) {
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    let Ok(id) = i32::try_from(child.id()) else {
        let _ = child.kill();
        let _ = child.wait();
        return;
    };
    let group = Pid::from_raw(id);
    let _ = killpg(group, Signal::SIGTERM);
    let deadline = Instant::now() + GRACE;
    let mut gone = false;
    while !gone && Instant::now() < deadline {
        // Reap the leader (a zombie still counts as a member), then ask whether any
        // member is left.
        let _ = child.try_wait();
        gone = killpg(group, None).is_err();
        if !gone {
            std::thread::sleep(POLL);
        }
    }
    if !gone {
        let _ = killpg(group, Signal::SIGKILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Stops the child (no process groups here).
#[cfg(not(unix))]
fn stop_group(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}
