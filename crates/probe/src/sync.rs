//! The synchronisation events of the thread graph, each in a dedicated set-up: barrier
//! episodes with pre-synchronised arrival (no load imbalance), an uncontended lock and
//! atomic (no contention), fork/join of empty threads, `rayon::join` of empty closures, and
//! the clock itself.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::Instant;

use crate::stat::measure;
use crate::team::team;
use crate::{Options, ProbeError, Stat};

/// The cost of reading the clock (`Instant::now`), the floor under every timing.
pub(crate) fn timer(options: &Options) -> Result<Stat, ProbeError> {
    measure("timer", options, |n| {
        let t = Instant::now();
        for _ in 0..n {
            black_box(Instant::now());
        }
        Ok(t.elapsed())
    })
}

/// An uncontended `Mutex` acquire and release on one thread.
pub(crate) fn lock(options: &Options) -> Result<Stat, ProbeError> {
    let m = Mutex::new(0u64);
    measure("lock", options, |n| {
        let t = Instant::now();
        for _ in 0..n {
            let mut g = black_box(&m).lock().unwrap_or_else(|e| e.into_inner());
            *g += 1;
        }
        Ok(t.elapsed())
    })
}

/// An uncontended `fetch_add` on one thread.
pub(crate) fn atomic(options: &Options) -> Result<Stat, ProbeError> {
    let a = AtomicU64::new(0);
    measure("atomic", options, |n| {
        let t = Instant::now();
        for _ in 0..n {
            black_box(black_box(&a).fetch_add(1, Ordering::SeqCst));
        }
        Ok(t.elapsed())
    })
}

/// One episode of a `std::sync::Barrier` among `k` threads, timed from a common start: all
/// threads leave a start barrier together and then pass `n` barriers back to back, so every
/// episode begins with all threads arriving at once (EPCC's pre-synchronised arrival). The
/// leader sets `n` before the start barrier; `n = 0` releases the helpers.
pub(crate) fn barrier(options: &Options, k: usize) -> Result<Stat, ProbeError> {
    let b = Barrier::new(k);
    let count = AtomicU64::new(0);
    let helper = |_| loop {
        b.wait();
        let n = count.load(Ordering::Acquire);
        if n == 0 {
            return;
        }
        for _ in 0..n {
            b.wait();
        }
    };
    let leader = || {
        let stat = measure("barrier", options, |n| {
            count.store(n, Ordering::Release);
            b.wait();
            let t = Instant::now();
            for _ in 0..n {
                b.wait();
            }
            Ok(t.elapsed())
        });
        count.store(0, Ordering::Release);
        b.wait();
        stat
    };
    team("barrier", k, helper, leader)?
}

/// Forking `k` threads that do nothing and joining them (`std::thread::scope`).
pub(crate) fn fork_join(options: &Options, k: usize) -> Result<Stat, ProbeError> {
    measure("fork/join", options, |n| {
        let t = Instant::now();
        for _ in 0..n {
            fork_join_once(k)?;
        }
        Ok(t.elapsed())
    })
}

/// One fork of `k` empty threads and their join.
fn fork_join_once(k: usize) -> Result<(), ProbeError> {
    std::thread::scope(|s| {
        for _ in 0..k {
            if let Err(e) = std::thread::Builder::new().spawn_scoped(s, || {}) {
                return Err(ProbeError::Threads {
                    what: "fork/join".into(),
                    threads: k,
                    reason: e.to_string(),
                });
            }
        }
        Ok(())
    })
}

/// One `rayon::join` of two empty closures, called inside a pool of `threads` workers.
pub(crate) fn rayon_join(options: &Options, threads: usize) -> Result<Stat, ProbeError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("probe-rayon-{i}"))
        .build()
        .map_err(|e| ProbeError::Threads {
            what: "rayon::join".into(),
            threads,
            reason: e.to_string(),
        })?;
    measure("rayon::join", options, |n| {
        Ok(pool.install(|| {
            let t = Instant::now();
            for _ in 0..n {
                black_box(rayon::join(|| black_box(0u8), || black_box(0u8)));
            }
            t.elapsed()
        }))
    })
}
