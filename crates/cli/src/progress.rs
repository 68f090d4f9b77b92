//! Progress bars on standard error, only for long runs on a terminal.
//!
//! A bar starts hidden and becomes visible once the run has taken [`SHOW_AFTER`] and standard
//! error is a terminal, so short runs and redirected output never show one.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run must take before its progress bar appears.
pub const SHOW_AFTER: Duration = Duration::from_millis(500);

/// A progress bar that appears only when the run is long and standard error is a terminal.
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    tty: bool,
    shown: bool,
}

impl Progress {
    /// A bar counting up to `total` items (`None`: a spinner with a running count).
    pub fn new(total: Option<u64>, what: &str) -> Self {
        let bar = match total {
            Some(n) => {
                let b = ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::hidden());
                let style = ProgressStyle::with_template(
                    "{msg} [{bar:40}] {pos}/{len} ({percent}%, {eta} left)",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
                b.set_style(style);
                b
            }
            None => {
                let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
                let style = ProgressStyle::with_template("{spinner} {msg} {pos} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner());
                b.set_style(style);
                b
            }
        };
        bar.set_message(what.to_string());
        Progress {
            bar,
            start: Instant::now(),
            tty: std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    /// The underlying bar (cheap to clone, safe to advance from many threads).
    pub fn bar(&self) -> &ProgressBar {
        &self.bar
    }

    /// Shows the bar if the run has become long; call from the driving thread now and then.
    pub fn poll(&mut self) {
        if self.tty && !self.shown && self.start.elapsed() >= SHOW_AFTER {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
    }

    /// Sets the position and shows the bar if the run has become long.
    pub fn set(&mut self, pos: u64) {
        self.bar.set_position(pos);
        self.poll();
    }

    /// Removes the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
