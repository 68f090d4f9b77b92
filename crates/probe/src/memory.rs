//! The memory hierarchy: load latency by working-set size (pointer chasing), the cache-level
//! boundaries it shows, and read bandwidth by thread count.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Barrier;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::stat::{measure, Rate};
use crate::team::team;
use crate::{Options, ProbeError, SizePoint, Stat};

/// Bytes per cache line: the chase visits one word per line.
const LINE_BYTES: u64 = 64;
/// Words of the chase array per cache line.
const WORDS_PER_LINE: usize = (LINE_BYTES / 8) as usize;

/// A cache-level boundary found in the latency table: where the pointer chase's latency
/// rises by more than the jump factor over the level's plateau (see [`cache_boundaries`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CacheBoundary {
    /// The level that ends here (1: the first cache).
    pub level: usize,
    /// The largest working set still at this level's latency, bytes: the measured capacity.
    pub fits_bytes: u64,
    /// The first working set of the rise above it, bytes.
    pub jump_bytes: u64,
    /// The latency of this level's plateau (the median of its working sets), seconds.
    pub before_s: f64,
    /// The latency where the rise ends and the next level's plateau starts, seconds.
    pub after_s: f64,
}

/// A vector of `len` elements from `fill`, allocated without aborting on failure.
fn try_vec<T>(what: &str, len: usize, fill: impl FnMut(usize) -> T) -> Result<Vec<T>, ProbeError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| ProbeError::Memory {
        what: what.to_string(),
        bytes: (len * std::mem::size_of::<T>()) as u64,
    })?;
    v.extend((0..len).map(fill));
    Ok(v)
}

/// The chase array of a working set of `bytes`: one word per cache line holds the index of
/// the next line's word, the lines in a random single cycle (Sattolo's shuffle).
fn chase_array(bytes: u64) -> Result<Vec<usize>, ProbeError> {
    let lines = usize::try_from(bytes / LINE_BYTES).map_err(|_| ProbeError::Memory {
        what: "memory latency".into(),
        bytes,
    })?;
    let mut order = try_vec("memory latency", lines, |i| i)?;
    let mut rng = stats::rng::seeded(0x5EED ^ bytes);
    for i in (1..lines).rev() {
        order.swap(i, stats::rng::Draw::below(&mut rng, i as u64) as usize);
    }
    let mut chase = try_vec("memory latency", lines * WORDS_PER_LINE, |_| 0usize)?;
    for (line, &next) in order.iter().enumerate() {
        chase[line * WORDS_PER_LINE] = next * WORDS_PER_LINE;
    }
    Ok(chase)
}

/// Follows `n` links of the chase from `at`; returns where it stopped.
fn follow(chase: &[usize], mut at: usize, n: u64) -> usize {
    for _ in 0..n {
        at = chase[at];
    }
    at
}

/// The load latency of one working set: the time per link of a chase through it, after one
/// pass over the whole cycle (at most a million links) to bring it into the caches.
fn chase_latency(options: &Options, bytes: u64) -> Result<Stat, ProbeError> {
    let chase = chase_array(bytes)?;
    let lines = chase.len() / WORDS_PER_LINE;
    let mut at = follow(&chase, 0, lines.min(1 << 20) as u64);
    measure("memory latency", options, |n| {
        let t = Instant::now();
        at = black_box(follow(&chase, at, n));
        Ok(t.elapsed())
    })
}

/// The latency table over `options.chase_sizes()`; `step(bytes)` is called before each size.
pub(crate) fn latencies(
    options: &Options,
    step: &mut dyn FnMut(u64),
) -> Result<Vec<SizePoint>, ProbeError> {
    let mut out = Vec::new();
    for bytes in options.chase_sizes() {
        step(bytes);
        out.push(SizePoint {
            bytes,
            time: chase_latency(options, bytes)?,
        });
    }
    Ok(out)
}

/// The cache-level boundaries of a latency table (sizes increasing), by median latency.
///
/// A *rise* is a run of consecutive working sets each more than √`factor` slower than the
/// one before (1.22× for the default 1.5: the step from one cache to the next often spans two
/// or three doublings, since a set of the cache's size already misses some lines). A rise is
/// a boundary when it ends more than `factor` above the reference of the plateau before it:
/// the median latency of the sets on that plateau (so a slow creep within a level, such as
/// TLB misses adding up, moves the reference along instead of making a level of its own).
/// The boundary lies between the last set before the rise (`fits_bytes`) and the first set
/// of it (`jump_bytes`); `before_s` is the plateau's reference, `after_s` the latency where
/// the rise ends, which starts the next plateau. A rise that stays within `factor` joins the
/// plateau. The level a boundary ends is its place in the list (1, 2, …).
pub fn cache_boundaries(latency: &[SizePoint], factor: f64) -> Vec<CacheBoundary> {
    let lat = |i: usize| latency[i].time.median_s;
    let rising = |i: usize| lat(i) > factor.sqrt() * lat(i - 1);
    let mut out: Vec<CacheBoundary> = Vec::new();
    let Some(first) = latency.first() else {
        return out;
    };
    let mut plateau = vec![first.time.median_s];
    let mut i = 1;
    while i < latency.len() {
        let end = (i..latency.len()).take_while(|&k| rising(k)).last();
        let Some(end) = end else {
            plateau.push(lat(i));
            i += 1;
            continue;
        };
        // The lower median, so that the reference is a measured latency.
        let reference = stats::lower_median(&plateau).unwrap_or(f64::NAN);
        if lat(end) > factor * reference {
            out.push(CacheBoundary {
                level: out.len() + 1,
                fits_bytes: latency[i - 1].bytes,
                jump_bytes: latency[i].bytes,
                before_s: reference,
                after_s: lat(end),
            });
            plateau = vec![lat(end)];
        } else {
            plateau.extend((i..=end).map(lat));
        }
        i = end + 1;
    }
    out
}

/// The array size of the bandwidth table: the option, or four times the largest cache the
/// system reports (32 MiB if none), at least 64 MiB and at most the options' limit
/// (`max_bandwidth_bytes`).
pub fn bandwidth_array_bytes(options: &Options, largest_cache: Option<u64>) -> u64 {
    options.bandwidth_bytes.unwrap_or_else(|| {
        largest_cache
            .unwrap_or(32 << 20)
            .saturating_mul(4)
            .max(64 << 20)
            .min(options.max_bandwidth_bytes)
    })
}

/// The read bandwidth of `threads` threads summing their slices of one array, for each
/// count of `counts`; `step(threads)` is called before each.
pub(crate) fn bandwidths(
    options: &Options,
    bytes: u64,
    counts: &[usize],
    step: &mut dyn FnMut(usize),
) -> Result<Vec<Rate>, ProbeError> {
    let len = usize::try_from(bytes / 8).map_err(|_| ProbeError::Memory {
        what: "memory bandwidth".into(),
        bytes,
    })?;
    // Distinct values, so every page is really there (never the shared zero page).
    let array = try_vec("memory bandwidth", len, |i| i as u64)?;
    let mut out = Vec::with_capacity(counts.len());
    for &k in counts {
        step(k);
        out.push(bandwidth(options, &array, k)?);
    }
    Ok(out)
}

/// The sum of a slice (the read each thread does).
fn sum(slice: &[u64]) -> u64 {
    slice.iter().fold(0u64, |a, &x| a.wrapping_add(x))
}

/// The read bandwidth of `k` threads over `array`, each summing its slice; timed from a
/// common start barrier to a common end barrier. The leader sets the passes per repetition
/// before the start barrier; 0 releases the helpers.
fn bandwidth(options: &Options, array: &[u64], k: usize) -> Result<Rate, ProbeError> {
    let chunk = array.len().div_ceil(k).max(1);
    let slices: Vec<&[u64]> = array.chunks(chunk).collect();
    let slice = |i: usize| slices.get(i).copied().unwrap_or(&[]);
    let b = Barrier::new(k);
    let passes = AtomicU64::new(0);
    let helper = |i| loop {
        b.wait();
        let n = passes.load(Ordering::Acquire);
        if n == 0 {
            return;
        }
        for _ in 0..n {
            black_box(sum(black_box(slice(i))));
        }
        b.wait();
    };
    let leader = || {
        let stat = measure("memory bandwidth", options, |n| {
            passes.store(n, Ordering::Release);
            b.wait();
            let t = Instant::now();
            for _ in 0..n {
                black_box(sum(black_box(slice(0))));
            }
            b.wait();
            Ok(t.elapsed())
        });
        passes.store(0, Ordering::Release);
        b.wait();
        stat
    };
    let stat = team("memory bandwidth", k, helper, leader)??;
    let bytes = (array.len() * 8) as f64;
    let rates = [stat.median_s, stat.min_s, stat.max_s].map(|s| bytes / s);
    Ok(Rate {
        median_bytes_per_s: rates[0],
        min_bytes_per_s: rates[2],
        max_bytes_per_s: rates[1],
        repetitions: stat.repetitions,
        passes_per_repetition: stat.ops_per_repetition,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(lat: &[(u64, f64)]) -> Vec<SizePoint> {
        lat.iter()
            .map(|&(bytes, s)| SizePoint {
                bytes,
                time: Stat {
                    median_s: s,
                    min_s: s,
                    max_s: s,
                    repetitions: 1,
                    ops_per_repetition: 1,
                },
            })
            .collect()
    }

    #[test]
    fn the_chase_is_one_cycle_over_every_line() {
        let chase = chase_array(64 * 1000).unwrap();
        let mut at = 0;
        let mut seen = vec![false; 1000];
        for _ in 0..1000 {
            assert!(!seen[at / WORDS_PER_LINE]);
            seen[at / WORDS_PER_LINE] = true;
            at = chase[at];
        }
        assert_eq!(at, 0);
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn a_ramp_over_two_doublings_is_one_boundary() {
        let t = table(&[
            (1, 1.0),
            (2, 1.1),
            (4, 3.0),
            (8, 3.2),
            (16, 5.5),
            (32, 12.0),
            (64, 13.0),
        ]);
        let b = cache_boundaries(&t, 1.5);
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].level, b[0].fits_bytes, b[0].jump_bytes), (1, 2, 4));
        assert_eq!((b[1].level, b[1].fits_bytes, b[1].jump_bytes), (2, 8, 16));
        assert_eq!((b[1].before_s, b[1].after_s), (3.0, 12.0));
    }

    #[test]
    fn a_creep_within_a_level_is_no_boundary() {
        let t = table(&[(1, 1.0), (2, 3.0), (4, 3.6), (8, 4.0), (16, 4.4), (32, 4.8)]);
        let b = cache_boundaries(&t, 1.5);
        assert_eq!(b.len(), 1, "{b:?}");
        assert_eq!(b[0].fits_bytes, 1);
    }

    #[test]
    fn a_rise_over_three_doublings_is_one_boundary() {
        // A noisy L2 → L3 step: 1.64×, 1.41×, 1.54×, then flat.
        let t = table(&[
            (1, 4.2),
            (2, 4.24),
            (4, 6.97),
            (8, 9.8),
            (16, 15.1),
            (32, 16.9),
        ]);
        let b = cache_boundaries(&t, 1.5);
        assert_eq!(b.len(), 1, "{b:?}");
        assert_eq!(
            (b[0].fits_bytes, b[0].jump_bytes, b[0].after_s),
            (2, 4, 15.1)
        );
    }

    #[test]
    fn a_flat_table_has_no_boundary() {
        let t = table(&[(1, 1.0), (2, 1.2), (4, 1.4), (8, 1.45)]);
        assert!(cache_boundaries(&t, 1.5).is_empty());
        assert!(cache_boundaries(&[], 1.5).is_empty());
    }
}
