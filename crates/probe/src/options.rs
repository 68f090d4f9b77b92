//! What a probe measures and for how long.

use serde::{Deserialize, Serialize};

use crate::ProbeError;

/// The most threads a barrier or fork/join point may use.
pub const MAX_THREADS: usize = 1024;

/// The largest working set, message or bandwidth array a probe allocates, bytes (4 GiB).
pub const MAX_BYTES: u64 = 1 << 32;

/// The limit on the bandwidth table's automatic array in a quick probe (256 MiB).
pub const QUICK_MAX_ARRAY: u64 = 256 << 20;

/// The limit on the bandwidth table's automatic array in a full probe (1 GiB).
pub const FULL_MAX_ARRAY: u64 = 1 << 30;

fn full_max_array() -> u64 {
    FULL_MAX_ARRAY
}

/// The settings of one probe: which points are measured and how long each takes. Kept in
/// the profile (`settings`) so that a profile says how it was made.
///
/// [`Options::new`] gives the defaults of a quick or a full probe on this host; the fields
/// may then be changed (a test makes every table tiny).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// A quick probe (a few seconds: fewer repetitions, sizes and shorter repetitions)
    /// rather than a full one (a minute or less).
    pub quick: bool,
    /// The cores the probe may use: the fork/join and bandwidth tables run up to this many
    /// threads at once, the rayon pool has this many workers. Default: what the operating
    /// system grants this process.
    pub cores: usize,
    /// The largest thread count of the barrier and fork/join tables, which measure
    /// k = 1, 2, 4, … up to it, plus the core count when that is not above it. Default: twice
    /// the cores, at least 2.
    pub max_threads: usize,
    /// Timed repetitions per point; their median, minimum and maximum are kept.
    pub repetitions: usize,
    /// How long one repetition should take, seconds: the number of operations per
    /// repetition is calibrated to it before the timed repetitions.
    pub repetition_s: f64,
    /// The smallest message of the channel table, bytes.
    pub min_message_bytes: u64,
    /// The largest message of the channel table, bytes (always measured).
    pub max_message_bytes: u64,
    /// Each message size is this many times the one before (4 in a full probe, 16 in a
    /// quick one).
    pub message_step: u64,
    /// The smallest working set of the pointer chase, bytes (a power of two, at least 128).
    pub min_chase_bytes: u64,
    /// The largest working set of the pointer chase, bytes; the sizes double from the
    /// smallest up to it.
    pub max_chase_bytes: u64,
    /// The array the bandwidth table reads, bytes; `None`: four times the largest cache the
    /// system reports (or 32 MiB if it reports none), at least 64 MiB, at most
    /// `max_bandwidth_bytes`.
    pub bandwidth_bytes: Option<u64>,
    /// The limit on the array the bandwidth table allocates when its size is automatic
    /// (`bandwidth_bytes` is `None`), bytes: [`QUICK_MAX_ARRAY`] in a quick probe,
    /// [`FULL_MAX_ARRAY`] in a full one. A host reporting a 480 MiB last cache would
    /// otherwise have its probe allocate 1.9 GiB.
    #[serde(default = "full_max_array")]
    pub max_bandwidth_bytes: u64,
    /// A cache-level boundary is where the pointer chase's latency rises by more than this
    /// factor over the level's plateau (see [`crate::cache_boundaries`]).
    pub jump_factor: f64,
}

impl Options {
    /// The defaults of a quick (`true`) or full (`false`) probe on this host.
    pub fn new(quick: bool) -> Self {
        let cores = available_cores();
        Options {
            quick,
            cores,
            max_threads: (2 * cores).max(2),
            repetitions: if quick { 15 } else { 21 },
            repetition_s: if quick { 0.005 } else { 0.01 },
            min_message_bytes: 8,
            max_message_bytes: 1 << 20,
            message_step: if quick { 16 } else { 4 },
            min_chase_bytes: 4 << 10,
            max_chase_bytes: if quick { 32 << 20 } else { 256 << 20 },
            bandwidth_bytes: None,
            max_bandwidth_bytes: if quick {
                QUICK_MAX_ARRAY
            } else {
                FULL_MAX_ARRAY
            },
            jump_factor: 1.5,
        }
    }

    /// The options with a user's caps over the defaults: the largest thread count of the
    /// barrier and fork/join tables, the largest array of the bandwidth table in MiB.
    pub fn capped(mut self, max_threads: Option<u64>, max_array_mib: Option<u64>) -> Self {
        if let Some(n) = max_threads {
            self.max_threads = usize::try_from(n).unwrap_or(MAX_THREADS);
        }
        if let Some(mib) = max_array_mib {
            self.max_bandwidth_bytes = mib << 20;
        }
        self
    }

    /// Checks that the options describe a probe that can run: at least one thread and one
    /// repetition, positive finite durations, sizes in order and within [`MAX_BYTES`].
    pub fn check(&self) -> Result<(), ProbeError> {
        let bad = |reason: String| Err(ProbeError::Options { reason });
        if self.max_threads == 0 || self.max_threads > MAX_THREADS {
            return bad(format!(
                "the largest thread count must be 1 to {MAX_THREADS}, not {}",
                self.max_threads
            ));
        }
        if self.cores > MAX_THREADS {
            return bad(format!("at most {MAX_THREADS} cores, not {}", self.cores));
        }
        if self.repetitions == 0 {
            return bad("at least one repetition is needed".into());
        }
        if !(self.repetition_s.is_finite() && self.repetition_s > 0.0 && self.repetition_s <= 10.0)
        {
            return bad(format!(
                "a repetition must take more than 0 and at most 10 seconds, not {}",
                self.repetition_s
            ));
        }
        if !(self.jump_factor.is_finite() && self.jump_factor > 1.0) {
            return bad(format!(
                "the latency jump factor must be above 1, not {}",
                self.jump_factor
            ));
        }
        check_range("message", self.min_message_bytes, self.max_message_bytes, 1)?;
        if self.message_step < 2 {
            return bad("message sizes must grow by a factor of at least 2".into());
        }
        check_range(
            "working-set",
            self.min_chase_bytes,
            self.max_chase_bytes,
            128,
        )?;
        if !self.min_chase_bytes.is_power_of_two() {
            return bad(format!(
                "the smallest working set must be a power of two, not {} bytes",
                self.min_chase_bytes
            ));
        }
        if let Some(b) = self.bandwidth_bytes {
            check_range("bandwidth array", b, b, 4096)?;
        }
        check_range(
            "bandwidth array limit",
            self.max_bandwidth_bytes,
            self.max_bandwidth_bytes,
            4096,
        )?;
        Ok(())
    }

    /// The thread counts of the barrier and fork/join tables: 1, 2, 4, … up to
    /// `max_threads`, and the core count when it is not above `max_threads`.
    pub fn thread_counts(&self) -> Vec<usize> {
        let mut out: Vec<usize> = std::iter::successors(Some(1usize), |k| k.checked_mul(2))
            .take_while(|&k| k <= self.max_threads)
            .collect();
        if self.cores >= 1 && self.cores <= self.max_threads {
            out.push(self.cores);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The message sizes of the channel table: the smallest, then each `message_step` times
    /// the one before while below the largest, then the largest.
    pub fn message_sizes(&self) -> Vec<u64> {
        let mut out: Vec<u64> = std::iter::successors(Some(self.min_message_bytes), |&b| {
            b.checked_mul(self.message_step)
        })
        .take_while(|&b| b < self.max_message_bytes)
        .collect();
        out.push(self.max_message_bytes);
        out
    }

    /// The working sets of the pointer chase: powers of two from the smallest to the
    /// largest.
    pub fn chase_sizes(&self) -> Vec<u64> {
        std::iter::successors(Some(self.min_chase_bytes), |&b| b.checked_mul(2))
            .take_while(|&b| b <= self.max_chase_bytes)
            .collect()
    }

    /// The thread counts of the bandwidth table: 1 to the core count in a full probe; in a
    /// quick one 1, 2, 4, … below it and the core count (on 64 cores 7 points, not 64).
    pub fn bandwidth_threads(&self) -> Vec<usize> {
        let cores = self.cores.max(1);
        if !self.quick {
            return (1..=cores).collect();
        }
        let mut out: Vec<usize> = std::iter::successors(Some(1usize), |k| k.checked_mul(2))
            .take_while(|&k| k < cores)
            .collect();
        out.push(cores);
        out
    }
}

/// Sizes `lo..=hi` of `what` must be ordered, at least `least` and at most [`MAX_BYTES`].
fn check_range(what: &str, lo: u64, hi: u64, least: u64) -> Result<(), ProbeError> {
    if lo < least || lo > hi || hi > MAX_BYTES {
        return Err(ProbeError::Options {
            reason: format!(
                "{what} sizes must satisfy {least} ≤ smallest ≤ largest ≤ {MAX_BYTES} bytes, \
                 not {lo} and {hi}"
            ),
        });
    }
    Ok(())
}

/// The cores the operating system grants this process (affinity and quotas included), or 1
/// if it does not say.
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
