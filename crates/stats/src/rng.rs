//! The workspace's one seeded generator family: SplitMix64 (Steele, Lea & Flood), as
//! `rand_xoshiro` implements it, behind `rand`'s traits so that `rand`'s distributions
//! apply. Small, fast, and the same sequence on every platform for the same seed: a
//! simulation, a bootstrap or a generated input is reproduced by its seed.

pub use rand::{Rng as RandExt, RngCore, SeedableRng};

/// The generator.
pub type Rng = rand_xoshiro::SplitMix64;

/// The generator started from `seed` (its state is the seed itself, as in the reference
/// SplitMix64).
pub fn seeded(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// The `k`-th of independent streams of one seed (parallel replicates, or the structure and
/// the times of one generated graph): the seed moved by `(k + 1)` times SplitMix64's odd
/// increment, so that stream `k` of seed `s` starts far from stream `k` of seed `s + 1`.
pub fn stream(seed: u64, k: u64) -> Rng {
    seeded(seed ^ k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// SplitMix64 as a counter-based hash: the first output of the generator seeded with `x`.
/// Values that any thread can regenerate from an index (a matrix element from `(i, j)`)
/// without sharing a generator.
pub fn mix(x: u64) -> u64 {
    seeded(x).next_u64()
}

/// The draws the engines make, on any generator.
pub trait Draw: RngCore {
    /// A number in `0..n` (`n > 0`; `n = 0` is taken as 1), by the remainder: the slight
    /// bias does not matter for shuffles and resampling.
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A number in `[0, 1)` with 53 random bits.
    fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A number in `[-1, 1)`.
    fn symmetric(&mut self) -> f64 {
        2.0 * self.uniform() - 1.0
    }

    /// A standard normal number (Box–Muller).
    fn gauss(&mut self) -> f64 {
        let u = self.uniform().max(f64::MIN_POSITIVE);
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    /// Shuffles `v` in place (Fisher–Yates, from the end).
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

impl<R: RngCore + ?Sized> Draw for R {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference SplitMix64's first outputs from state 0 (Vigna's `splitmix64.c`).
    #[test]
    fn reference_sequence() {
        let mut r = seeded(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
        // Streams differ from each other and from the seed's own sequence.
        let firsts: Vec<u64> = (0..4).map(|k| stream(5, k).next_u64()).collect();
        assert!(firsts.iter().all(|&x| x != seeded(5).next_u64()));
        assert!(firsts.windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn draws_in_range_and_repeatable() {
        let (mut a, mut b) = (seeded(11), seeded(11));
        for _ in 0..1000 {
            let x = a.uniform();
            assert_eq!(x, b.uniform());
            assert!((0.0..1.0).contains(&x));
            assert!((-1.0..1.0).contains(&a.symmetric()));
            assert!(a.below(7) < 7);
            b.symmetric();
            b.below(7);
        }
        let mut v: Vec<u32> = (0..50).collect();
        a.shuffle(&mut v);
        let mut s = v.clone();
        s.sort_unstable();
        assert_eq!(s, (0..50).collect::<Vec<_>>());
        assert_ne!(v, s);
    }
}
