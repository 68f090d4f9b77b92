//! Ctrl-C and SIGTERM for commands that run programs: the first sets a flag the running
//! work checks (it stops its programs and says where to resume), the second ends the
//! process at once with status 130.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag that becomes true at the first Ctrl-C or SIGTERM; the second ends the process.
/// A process has one handler: a second call returns a flag the signals do not set.
pub fn flag() -> Arc<AtomicBool> {
    let cancel = Arc::new(AtomicBool::new(false));
    let set = Arc::clone(&cancel);
    let _ = ctrlc::set_handler(move || {
        if set.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    cancel
}
