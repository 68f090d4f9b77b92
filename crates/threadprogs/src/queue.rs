//! A lock-heavy program (`examples/semi/queue.tg`): P workers each process W work items; an
//! item is a computation outside the lock and an update of a shared histogram inside it. The
//! update's timer runs only while the lock is held, so waiting for it (contention) is not in
//! the segment: Algorithm G produces it from the lock. The check recomputes the histogram
//! serially.

use std::sync::Mutex;
use std::time::Instant;

use crate::rng::mix;
use crate::timer::{on_threads, Report, Segments};

/// The segments, as `queue.tg` names them.
pub const SEGMENTS: &[&str] = &["item", "update"];
const ITEM: usize = 0;
const UPDATE: usize = 1;

/// Rounds of mixing of an item's work outside the lock.
pub const ITEM_ROUNDS: u64 = 2_000;
/// Rounds of the update inside the lock.
pub const UPDATE_ROUNDS: u64 = 200;

/// The shared state the lock protects.
struct State {
    bins: [u64; 64],
    count: u64,
}

fn item(seed: u64, worker: usize, k: u64) -> u64 {
    let mut x = seed ^ ((worker as u64) << 40) ^ k;
    for _ in 0..ITEM_ROUNDS {
        x = mix(x);
    }
    x
}

fn update(s: &mut State, v: u64) {
    let mut x = v;
    for _ in 0..UPDATE_ROUNDS {
        x = mix(x);
        s.bins[(x % 64) as usize] = s.bins[(x % 64) as usize].wrapping_add(x >> 32);
    }
    s.count += 1;
}

/// Runs `w` items on each of `p` workers.
///
/// # Errors
/// `w < 1` or `p < 1`, over [`crate::MAX_THREADS`] threads, or a result that differs from
/// the serial one.
pub fn run(w: usize, p: usize, seed: u64) -> Result<Report, String> {
    if w < 1 || p < 1 {
        return Err(format!(
            "queue needs w ≥ 1 and p ≥ 1 (got w = {w}, p = {p})"
        ));
    }
    crate::check_size("queue", 0, p, 0)?;
    let state = Mutex::new(State {
        bins: [0; 64],
        count: 0,
    });
    let start = Instant::now();
    let results = on_threads(p, |t| -> Result<Segments, String> {
        let mut seg = Segments::new(SEGMENTS);
        for k in 0..w as u64 {
            let v = seg.time(ITEM, || item(seed, t, k));
            let mut g = state.lock().map_err(|_| "a worker panicked")?;
            seg.time(UPDATE, || update(&mut g, v));
        }
        Ok(seg)
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let mut seg = Segments::new(SEGMENTS);
    for r in results {
        seg.add(&r?);
    }
    let got = state.into_inner().map_err(|_| "a worker panicked")?;
    // The bins are sums, so the order of the updates does not matter.
    let mut serial = State {
        bins: [0; 64],
        count: 0,
    };
    for t in 0..p {
        for k in 0..w as u64 {
            update(&mut serial, item(seed, t, k));
        }
    }
    if got.count != serial.count || got.bins != serial.bins {
        return Err("the shared histogram differs from the serial one".to_string());
    }
    Ok(Report {
        segments: seg.totals(),
        seconds,
        steps: Vec::new(),
        check: format!("{} updates", got.count),
    })
}
