//! Deterministic values from indices: matrices and graphs that any thread can regenerate, so
//! a check needs no copy of the input. The hash is the workspace generator's
//! ([`stats::rng::mix`]).

pub use stats::rng::mix;

/// A value in [-1, 1) from `(seed, i, j)`.
pub fn unit(seed: u64, i: usize, j: usize) -> f64 {
    let h = mix(seed ^ mix((i as u64) << 32 | j as u64));
    (h >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}
