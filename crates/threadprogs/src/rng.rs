//! Deterministic values from indices (SplitMix64's finaliser): matrices and graphs that any
//! thread can regenerate, so a check needs no copy of the input.

/// A well-mixed 64-bit hash of `x`.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A value in [-1, 1) from `(seed, i, j)`.
pub fn unit(seed: u64, i: usize, j: usize) -> f64 {
    let h = mix(seed ^ mix((i as u64) << 32 | j as u64));
    (h >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}
