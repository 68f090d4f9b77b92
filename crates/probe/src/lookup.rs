//! What the engine asks a profile: the cost of an event at any thread count or size,
//! interpolated between the measured points.
//!
//! Every lookup uses the medians. Between measured points a lookup interpolates linearly in
//! its axis (log₂ of the thread count or size, or the count itself); below the first point it
//! returns the first point's value; above the last point it either stays flat or continues
//! the last segment's slope (never downwards), as each method says. A table with one point
//! is flat everywhere; an empty table (a profile [`Profile::validate`] rejects) gives NaN.

use crate::{Profile, SizePoint, ThreadPoint};

/// What a lookup does above its last measured point.
#[derive(Clone, Copy)]
enum Above {
    /// The last point's value.
    Flat,
    /// The last segment's slope, or flat if it falls.
    Slope,
}

/// Interpolates `y(x)` through `points` (`x` increasing), linearly between points, flat
/// below the first, and above the last as `above` says.
fn interpolate(points: &[(f64, f64)], x: f64, above: Above) -> f64 {
    let (Some(&(x0, y0)), Some(&(xn, yn))) = (points.first(), points.last()) else {
        return f64::NAN;
    };
    if x <= x0 {
        return y0;
    }
    if x >= xn {
        return match (above, points.len()) {
            (Above::Slope, n) if n >= 2 => {
                let (xa, ya) = points[n - 2];
                let slope = ((yn - ya) / (xn - xa)).max(0.0);
                yn + slope * (x - xn)
            }
            _ => yn,
        };
    }
    let i = points.partition_point(|&(xi, _)| xi <= x);
    let ((xa, ya), (xb, yb)) = (points[i - 1], points[i]);
    ya + (yb - ya) * (x - xa) / (xb - xa)
}

/// `(log₂ threads, median)` of a thread table.
fn by_log2_threads(t: &[ThreadPoint]) -> Vec<(f64, f64)> {
    t.iter()
        .map(|p| ((p.threads as f64).log2(), p.time.median_s))
        .collect()
}

/// `(log₂ bytes, median)` of a size table.
fn by_log2_bytes(t: &[SizePoint]) -> Vec<(f64, f64)> {
    t.iter()
        .map(|p| ((p.bytes as f64).log2(), p.time.median_s))
        .collect()
}

/// log₂ of a count or size, with 0 read as 1.
fn log2(x: u64) -> f64 {
    (x.max(1) as f64).log2()
}

impl Profile {
    /// One barrier episode among `threads` threads, seconds: linear in log₂ of the thread
    /// count between measured counts (a tree or dissemination barrier costs a + b·log P);
    /// above the largest count measured, the last segment continued in log₂ (never falling);
    /// below the smallest, its value.
    pub fn barrier_s(&self, threads: usize) -> f64 {
        interpolate(
            &by_log2_threads(&self.barrier),
            log2(threads as u64),
            Above::Slope,
        )
    }

    /// Forking `threads` empty threads and joining them, seconds: linear in log₂ of the
    /// thread count between measured counts; above the largest count, linear in the count
    /// itself (the parent starts threads one after another), i.e. the largest measured time
    /// times `threads / largest`; below the smallest, its value.
    pub fn fork_join_s(&self, threads: usize) -> f64 {
        let points = by_log2_threads(&self.fork_join);
        match self.fork_join.last() {
            Some(last) if threads > last.threads => {
                last.time.median_s * threads as f64 / last.threads as f64
            }
            _ => interpolate(&points, log2(threads as u64), Above::Flat),
        }
    }

    /// An uncontended lock acquire and release, seconds.
    pub fn lock_s(&self) -> f64 {
        self.lock.median_s
    }

    /// An uncontended atomic read-modify-write, seconds.
    pub fn atomic_s(&self) -> f64 {
        self.atomic.median_s
    }

    /// A `rayon::join` of two empty closures inside a pool, seconds.
    pub fn rayon_join_s(&self) -> f64 {
        self.rayon_join.time.median_s
    }

    /// One message of `bytes` bytes from one thread to another, seconds: linear in log₂ of
    /// the size between measured sizes; above the largest, the last segment's slope per byte
    /// continued linearly in bytes (large messages cost by their size); below the smallest,
    /// its value.
    pub fn channel_latency_s(&self, bytes: u64) -> f64 {
        let t = self.channel.as_slice();
        match t {
            [.., a, b] if bytes > b.bytes => {
                let per_byte =
                    ((b.time.median_s - a.time.median_s) / (b.bytes - a.bytes) as f64).max(0.0);
                b.time.median_s + per_byte * (bytes - b.bytes) as f64
            }
            _ => interpolate(&by_log2_bytes(t), log2(bytes), Above::Flat),
        }
    }

    /// One dependent load from a working set of `bytes` bytes, seconds: linear in log₂ of
    /// the size between measured sizes, flat beyond both ends (beyond the last cache the
    /// latency is memory's).
    pub fn memory_latency_s(&self, bytes: u64) -> f64 {
        interpolate(
            &by_log2_bytes(&self.memory.latency),
            log2(bytes),
            Above::Flat,
        )
    }

    /// The level of the memory hierarchy a working set of `bytes` bytes falls in, from the
    /// measured boundaries: 1 up to the first level's `fits_bytes`, 2 up to the second's,
    /// …, and one more than the number of boundaries (main memory) above the last.
    pub fn cache_level(&self, bytes: u64) -> usize {
        1 + self
            .memory
            .boundaries
            .iter()
            .take_while(|b| bytes > b.fits_bytes)
            .count()
    }

    /// The level of the memory hierarchy a working set of `bytes` bytes fits in by the cache
    /// sizes the system reports (data and unified caches): the lowest level whose cache
    /// holds it, or one more than the highest level (main memory). `None` when the system
    /// reported no caches. A streaming access pattern can keep a working set in a cache
    /// that the probe's random pointer chase already sees as main memory, so the two
    /// classifications can differ.
    pub fn reported_cache_level(&self, bytes: u64) -> Option<usize> {
        let top = self.reported_cache_levels()?;
        let fits = self
            .data_caches()
            .filter(|c| bytes <= c.size_bytes)
            .map(|c| c.level as usize)
            .min();
        Some(fits.unwrap_or(top + 1))
    }

    /// The highest level of the data and unified caches the system reports (`None`: it
    /// reported none); past it lies main memory.
    pub fn reported_cache_levels(&self) -> Option<usize> {
        self.data_caches().map(|c| c.level as usize).max()
    }

    /// The data and unified caches the system reports.
    fn data_caches(&self) -> impl Iterator<Item = &crate::machine::SysCache> {
        self.machine
            .caches
            .iter()
            .filter(|c| c.kind != "Instruction")
    }

    /// The read bandwidth of `threads` threads together, bytes per second: linear in the
    /// thread count between measured counts, flat beyond both ends (more threads than cores
    /// do not read faster).
    pub fn bandwidth_bytes_per_s(&self, threads: usize) -> f64 {
        let points: Vec<(f64, f64)> = self
            .bandwidth
            .points
            .iter()
            .map(|p| (p.threads as f64, p.rate.median_bytes_per_s))
            .collect();
        interpolate(&points, threads as f64, Above::Flat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_is_linear_inside_and_as_asked_outside() {
        let p = [(0.0, 1.0), (1.0, 3.0), (2.0, 4.0)];
        assert_eq!(interpolate(&p, -1.0, Above::Slope), 1.0);
        assert_eq!(interpolate(&p, 0.5, Above::Flat), 2.0);
        assert_eq!(interpolate(&p, 1.0, Above::Flat), 3.0);
        assert_eq!(interpolate(&p, 1.5, Above::Flat), 3.5);
        assert_eq!(interpolate(&p, 4.0, Above::Flat), 4.0);
        assert_eq!(interpolate(&p, 4.0, Above::Slope), 6.0);
        let falling = [(0.0, 3.0), (1.0, 2.0)];
        assert_eq!(interpolate(&falling, 5.0, Above::Slope), 2.0);
        assert_eq!(interpolate(&[(1.0, 7.0)], 9.0, Above::Slope), 7.0);
        assert!(interpolate(&[], 1.0, Above::Flat).is_nan());
    }
}
