//! Live progress of a running engine: counters the engine updates now and then, which
//! another thread (a progress display) reads while it runs.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a running engine is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The main loop: exploring states, simulating events, scheduling tasks. The count
    /// grows.
    Running,
    /// After the main loop: folding its results (e.g. EXEC and PEXEC over a state graph).
    Analysing,
}

/// What a display calls a [`Meter`]'s phases and what it counts: each engine gives its own
/// words (`exploring` … `states`, `simulating` … `events`).
#[derive(Clone, Copy, Debug)]
pub struct Units {
    /// The main loop, [`Phase::Running`] (`exploring`, `simulating`).
    pub running: &'static str,
    /// The fold after it, [`Phase::Analysing`] (`analysing`).
    pub analysing: &'static str,
    /// What the count counts, plural (`states`, `events`).
    pub noun: &'static str,
}

/// Progress counters of one run, shared with a reader. Engines update it every [`EVERY`]
/// units of work or so, so reading it costs the run nothing measurable. One meter can serve
/// several runs in turn ([`Meter::start`]).
#[derive(Debug, Default)]
pub struct Meter {
    count: AtomicU64,
    phase: AtomicU8,
}

/// Units of work (states, events) between two updates of a [`Meter`] (a power of two).
pub const EVERY: usize = 1 << 12;

impl Meter {
    /// The count so far: states found, events simulated, tasks finished (for a
    /// parametric ETCCS analysis, (state, region) pairs).
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        match self.phase.load(Ordering::Relaxed) {
            0 => Phase::Running,
            _ => Phase::Analysing,
        }
    }

    /// Starts a new run: count 0, [`Phase::Running`].
    pub fn start(&self) {
        self.count.store(0, Ordering::Relaxed);
        self.phase.store(0, Ordering::Relaxed);
    }

    /// Records the count.
    pub fn set_count(&self, n: u64) {
        self.count.store(n, Ordering::Relaxed);
    }

    /// Adds `n` to the count (for runs whose parts finish on several threads, such as the
    /// points of a sweep).
    pub fn add(&self, n: u64) {
        self.count.fetch_add(n, Ordering::Relaxed);
    }

    /// Records that the main loop is over and its results are being folded.
    pub fn set_analysing(&self) {
        self.phase.store(1, Ordering::Relaxed);
    }
}

/// What one event of a long run made of steps (a campaign's runs) tells a progress display:
/// the engine names its events' meaning, the display (`termio::progress::follow`) draws it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tick {
    /// The number of items to do, once known (the plan): a bar starts over it.
    pub total: Option<u64>,
    /// A line for the output, printed above the bar.
    pub line: Option<String>,
    /// A note for the user beside the output.
    pub note: Option<String>,
    /// The items this event finished.
    pub done: u64,
}
