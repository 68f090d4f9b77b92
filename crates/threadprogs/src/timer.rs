//! Per-thread segment timers: each thread adds the time of each of its segments into its own
//! totals (no shared writes while it runs); the totals are summed over the threads at the end,
//! the samples' `seconds` of each segment.

use std::time::Instant;

/// One thread's time per segment.
#[derive(Clone, Debug, PartialEq)]
pub struct Segments {
    names: &'static [&'static str],
    totals: Vec<f64>,
}

impl Segments {
    /// Zero for each of `names`.
    pub fn new(names: &'static [&'static str]) -> Self {
        Segments {
            names,
            totals: vec![0.0; names.len()],
        }
    }

    /// Runs `f` as segment `segment` (an index into the names) and adds its time.
    pub fn time<R>(&mut self, segment: usize, f: impl FnOnce() -> R) -> R {
        self.timed(segment, f).0
    }

    /// As [`Segments::time`], and returns this run's seconds too.
    pub fn timed<R>(&mut self, segment: usize, f: impl FnOnce() -> R) -> (R, f64) {
        let start = Instant::now();
        let r = f();
        let seconds = start.elapsed().as_secs_f64();
        self.totals[segment] += seconds;
        (r, seconds)
    }

    /// Adds another thread's totals.
    pub fn add(&mut self, other: &Segments) {
        for (a, b) in self.totals.iter_mut().zip(&other.totals) {
            *a += b;
        }
    }

    /// (name, seconds) per segment.
    pub fn totals(&self) -> Vec<(&'static str, f64)> {
        self.names
            .iter()
            .copied()
            .zip(self.totals.iter().copied())
            .collect()
    }
}

/// What a run reports: the segments' times summed over the threads, the wall time of the
/// timed region, and a check of the result.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// (segment, seconds summed over the threads).
    pub segments: Vec<(&'static str, f64)>,
    /// The timed region's wall time, seconds.
    pub seconds: f64,
    /// Seconds per step of a program that goes in steps (GE: step k's elimination, summed
    /// over the workers); empty for the others.
    pub steps: Vec<f64>,
    /// What the result check found (for the reader).
    pub check: String,
}

impl Report {
    /// The report as CSV rows without a header: `segment,seconds` per segment and
    /// `run,SECONDS` for the wall time.
    pub fn csv(&self) -> String {
        let mut out = String::new();
        for (name, s) in &self.segments {
            out.push_str(&format!("{name},{s}\n"));
        }
        out.push_str(&format!("run,{}\n", self.seconds));
        out
    }
}

/// Runs `work(t)` on `p` threads, t = 0 … p−1, and returns their results in order.
///
/// # Errors
/// A thread panicked.
pub fn on_threads<R: Send>(p: usize, work: impl Fn(usize) -> R + Sync) -> Result<Vec<R>, String> {
    std::thread::scope(|s| {
        let work = &work;
        let handles: Vec<_> = (0..p).map(|t| s.spawn(move || work(t))).collect();
        handles
            .into_iter()
            .map(|h| h.join())
            .collect::<Result<Vec<_>, _>>()
    })
    .map_err(|_| "a worker panicked".to_string())
}
