//! Measures this host the way Xu, Zhang & Sun measured the KSR-1 and the CM-5: each
//! communication and synchronisation event in a dedicated set-up, free of load imbalance and
//! contention (those are the thread-graph algorithm's business), at several thread counts and
//! sizes; and the memory hierarchy (latency by working set, its cache-level boundaries,
//! bandwidth by thread count), which decides whether small sample runs and the predicted run
//! fall in the same regime. The result is a versioned machine [`Profile`] (JSON) that the
//! semi-empirical engine reads, with lookups that interpolate between the measured points.
//!
//! The measurements, each repeated with the median, minimum, maximum and repetition count
//! kept (the operations per repetition are calibrated to a target duration first):
//!
//! 1. a `std::sync::Barrier` episode among k threads with pre-synchronised arrival, k = 1,
//!    2, 4, … up to [`Options::max_threads`] and the core count;
//! 2. an uncontended `Mutex` acquire and release;
//! 3. fork and join of k empty threads (`std::thread::scope`), and `rayon::join` of two empty
//!    closures inside a pool;
//! 4. a message one way (`std::sync::mpsc`, half a ping-pong between two threads) by size,
//!    the message a `Vec<u8>` moved, the receiver touching each of its cache lines;
//! 5. an uncontended atomic `fetch_add`;
//! 6. a dependent load by working set (pointer chasing over a random cycle of cache lines),
//!    the cache-level boundaries it shows, beside the caches Linux reports in sysfs;
//! 7. read bandwidth by thread count over an array much larger than the last cache;
//!
//! and the clock itself (`Instant::now`), the floor under every timing.
//!
//! [`mpi`] times MPI collectives over process counts and message sizes with a benchmark
//! written here, built with `mpicc` and run with `mpirun` (`vates probe --mpi`).
//!
//! ```
//! use probe::{Options, Profile, ProbeError};
//!
//! // A tiny probe (well under a second): one short repetition per point, small tables.
//! let mut options = Options::new(true);
//! options.cores = 2;
//! options.max_threads = 2;
//! options.repetitions = 1;
//! options.repetition_s = 1e-4;
//! options.max_message_bytes = 64;
//! options.max_chase_bytes = 64 << 10;
//! options.bandwidth_bytes = Some(1 << 20);
//! let profile = probe::run(&options, &mut |_done, _total, _what| {})?;
//!
//! // The profile round-trips through its JSON, and the engine asks it for event costs.
//! let back = Profile::from_json(&profile.to_json()).expect("a profile reads back");
//! assert_eq!(back, profile);
//! assert!(back.barrier_s(2) > 0.0 && back.barrier_s(64) >= back.barrier_s(2));
//! assert!(back.channel_latency_s(1000) > 0.0);
//! assert_eq!(back.cache_level(1), 1);
//! # Ok::<(), ProbeError>(())
//! ```

mod channel;
mod error;
mod lookup;
mod machine;
mod memory;
pub mod mpi;
mod options;
mod profile;
mod stat;
mod sync;
mod team;
mod text;

use std::time::{SystemTime, UNIX_EPOCH};

pub use error::{ProbeError, ProfileError};
pub use machine::{cpu_mhz, Machine, SysCache};
pub use memory::{bandwidth_array_bytes, cache_boundaries, CacheBoundary};
pub use options::{
    available_cores, Options, FULL_MAX_ARRAY, MAX_BYTES, MAX_THREADS, QUICK_MAX_ARRAY,
};
pub use profile::{
    Bandwidth, BandwidthPoint, Memory, Profile, RayonJoin, SizePoint, ThreadPoint, FORMAT, VERSION,
};
pub use stat::{Rate, Stat};
pub use text::{bytes_text, profile_text};

/// The cores the dedicated two-thread set-ups (barrier, ping-pong) need.
pub const MIN_CORES: usize = 2;

/// The progress of a probe: the hook is called before each point with the points done, the
/// points in all, and what is measured next (`barrier, 4 threads`), and once at the end with
/// `done == total`.
struct Steps<'a> {
    hook: &'a mut dyn FnMut(usize, usize, &str),
    done: usize,
    total: usize,
}

impl Steps<'_> {
    /// Reports the next point.
    fn next(&mut self, what: &str) {
        (self.hook)(self.done, self.total, what);
        self.done += 1;
    }
}

/// Runs every measurement of `options` on this host and returns the profile; `progress` is
/// called before each point with (points done, points in all, what comes next) and once at
/// the end with both equal. Stops with a [`ProbeError`] when the options are invalid, the
/// host grants fewer than [`MIN_CORES`] cores, or a thread or an array cannot be had.
pub fn run(
    options: &Options,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<Profile, ProbeError> {
    options.check()?;
    if options.cores < MIN_CORES {
        return Err(ProbeError::TooFewCores {
            cores: options.cores,
            needed: MIN_CORES,
        });
    }
    let machine = machine::read(options.cores);
    let threads = options.thread_counts();
    let messages = options.message_sizes();
    let chase = options.chase_sizes();
    let readers = options.bandwidth_threads();
    let total = 4 + 2 * threads.len() + messages.len() + chase.len() + readers.len();
    let mut steps = Steps {
        hook: progress,
        done: 0,
        total,
    };
    let mut events = events(options, &threads, &mut steps)?;
    events.channel = message_table(options, &messages, &mut steps)?;
    let latency = memory::latencies(options, &mut |b| {
        steps.next(&format!("memory latency, {}", text::bytes_text(b)))
    })?;
    let array_bytes = memory::bandwidth_array_bytes(options, machine.largest_cache_bytes());
    let rates = memory::bandwidths(options, array_bytes, &readers, &mut |k| {
        steps.next(&format!("memory bandwidth, {k} threads"))
    })?;
    (steps.hook)(total, total, "done");
    let profile = Profile {
        format: FORMAT.to_string(),
        version: VERSION,
        created_unix_s: now_unix_s(),
        machine,
        settings: options.clone(),
        timer: events.timer,
        barrier: events.barrier,
        lock: events.lock,
        atomic: events.atomic,
        fork_join: events.fork_join,
        rayon_join: events.rayon_join,
        channel: events.channel,
        memory: Memory {
            boundaries: cache_boundaries(&latency, options.jump_factor),
            latency,
        },
        bandwidth: Bandwidth {
            array_bytes,
            points: readers
                .iter()
                .zip(rates)
                .map(|(&threads, rate)| BandwidthPoint { threads, rate })
                .collect(),
        },
    };
    profile.validate().map_err(|e| ProbeError::Unmeasurable {
        what: "profile".into(),
        reason: e.to_string(),
    })?;
    Ok(profile)
}

/// The synchronisation and communication events of a profile.
struct Events {
    timer: Stat,
    lock: Stat,
    atomic: Stat,
    barrier: Vec<ThreadPoint>,
    fork_join: Vec<ThreadPoint>,
    rayon_join: RayonJoin,
    channel: Vec<SizePoint>,
}

/// Clock, lock, atomic, barrier and fork/join tables, `rayon::join` (the channel table is
/// filled in afterwards).
fn events(options: &Options, threads: &[usize], steps: &mut Steps) -> Result<Events, ProbeError> {
    steps.next("clock");
    let timer = sync::timer(options)?;
    steps.next("lock");
    let lock = sync::lock(options)?;
    steps.next("atomic");
    let atomic = sync::atomic(options)?;
    let mut barrier = Vec::with_capacity(threads.len());
    for &k in threads {
        steps.next(&format!("barrier, {k} threads"));
        let time = sync::barrier(options, k)?;
        barrier.push(ThreadPoint { threads: k, time });
    }
    let mut fork_join = Vec::with_capacity(threads.len());
    for &k in threads {
        steps.next(&format!("fork/join, {k} threads"));
        let time = sync::fork_join(options, k)?;
        fork_join.push(ThreadPoint { threads: k, time });
    }
    steps.next("rayon::join");
    let rayon_join = RayonJoin {
        threads: options.cores,
        time: sync::rayon_join(options, options.cores)?,
    };
    Ok(Events {
        timer,
        lock,
        atomic,
        barrier,
        fork_join,
        rayon_join,
        channel: Vec::new(),
    })
}

/// The channel table over `sizes`.
fn message_table(
    options: &Options,
    sizes: &[u64],
    steps: &mut Steps,
) -> Result<Vec<SizePoint>, ProbeError> {
    let stats = channel::latencies(options, sizes, &mut |b| {
        steps.next(&format!("message, {}", text::bytes_text(b)))
    })?;
    Ok(sizes
        .iter()
        .zip(stats)
        .map(|(&bytes, time)| SizePoint { bytes, time })
        .collect())
}

/// Seconds since the Unix epoch (0 if the clock is before it).
fn now_unix_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
