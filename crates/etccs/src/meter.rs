//! Live progress of a running analysis: counters the analysis updates now
//! and then, which another thread (a progress display) reads while it runs.
//!
//! ```
//! use std::sync::Arc;
//! use etccs::{analyse, parse, Meter, Options, Phase};
//!
//! let src = "define P = ((a,3).nil | (a',4).nil)\\{a}\nanalyse P";
//! let mut model = parse("p.etccs", src)?;
//! let meter = Arc::new(Meter::default());
//! let opts = Options { meter: Some(Arc::clone(&meter)), ..Options::default() };
//! let result = analyse(&mut model, "P", &opts)?;
//! // After the run the meter holds the final count.
//! assert_eq!(meter.states(), result.states);
//! assert_eq!(meter.phase(), Phase::Analysing);
//! # Ok::<(), etccs::Error>(())
//! ```

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What a running analysis is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Building the state graph (concrete) or the (state, region) pairs
    /// (parametric).
    Exploring,
    /// Folding the explored graph into EXEC, PEXEC and the witnesses.
    Analysing,
}

/// Progress counters of one analysis, shared with a reader (see the
/// `meter` field of [`crate::Options`] and [`crate::parametric::Options`]).
/// Updated every few thousand states, so reading it costs the analysis
/// nothing measurable.
#[derive(Debug, Default)]
pub struct Meter {
    states: AtomicUsize,
    analysing: AtomicBool,
}

/// States between two updates of a [`Meter`] (a power of two).
pub(crate) const EVERY: usize = 1 << 12;

impl Meter {
    /// States found so far (for the parametric analysis, (state, region)
    /// pairs).
    pub fn states(&self) -> usize {
        self.states.load(Ordering::Relaxed)
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        if self.analysing.load(Ordering::Relaxed) {
            Phase::Analysing
        } else {
            Phase::Exploring
        }
    }

    /// Starts a new exploration (a meter can serve several analyses in turn).
    pub(crate) fn start(&self) {
        self.states.store(0, Ordering::Relaxed);
        self.analysing.store(false, Ordering::Relaxed);
    }

    /// Records the number of states found.
    pub(crate) fn set_states(&self, n: usize) {
        self.states.store(n, Ordering::Relaxed);
    }

    /// Records that the exploration is over and the graph is being analysed.
    pub(crate) fn set_analysing(&self) {
        self.analysing.store(true, Ordering::Relaxed);
    }
}
