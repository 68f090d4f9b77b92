//! Fib (BOTS `fib`, manual cut-off): `fib(n)` spawns `fib(n-1)` and `fib(n-2)` and waits
//! for both, down to the depth cut-off (`-x`, 19 in the paper); below it `fib_seq`
//! recurses serially. BOTS's two tasks and `taskwait` are one `join` here.
//!
//! There is no input to generate: `n` is the input.

use crate::Counts;

/// Fib's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Depth cut-off (BOTS `-x`): calls at depth `< cutoff` create tasks.
    pub cutoff: u32,
}

impl Default for Config {
    /// The paper's `-x 19`.
    fn default() -> Config {
        Config { cutoff: 19 }
    }
}

/// The largest `n` whose Fibonacci number fits in a `u64`.
pub const MAX_N: u32 = 93;

/// BOTS's `fib_seq`: the plain doubly recursive Fibonacci.
pub fn fib_seq(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    fib_seq(n - 1) + fib_seq(n - 2)
}

/// The Fibonacci number by iteration (the check), `None` above [`MAX_N`].
pub fn fib_iter(n: u32) -> Option<u64> {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        let next = a.checked_add(b);
        a = b;
        b = next.unwrap_or(u64::MAX);
    }
    (n <= MAX_N).then_some(a)
}

/// Checks `value` against the iterative Fibonacci number of `n`.
pub fn verify(n: u32, value: u64) -> Result<(), String> {
    match fib_iter(n) {
        Some(v) if v == value => Ok(()),
        Some(v) => Err(format!("fib({n}) = {v}, the kernel computed {value}")),
        None => Err(format!("fib({n}) does not fit in 64 bits (n <= {MAX_N})")),
    }
}

/// The creates and waits of the traced `fib(n)`: one join per call with `n >= 2` at depth
/// `< cutoff`. `J(n, d) = 0` if `n < 2` or `d >= cutoff`, else `1 + J(n-1, d+1) +
/// J(n-2, d+1)`; computed level by level (`O(n · cutoff)`).
pub fn counts(n: u32, cfg: &Config) -> Counts {
    // joins[k] = J(k, d) for the current depth d, from the deepest level up.
    let depth = cfg.cutoff.min(n.saturating_add(1));
    let mut joins = vec![0u64; n as usize + 1];
    for _ in 0..depth {
        let below = joins.clone();
        for k in 2..=n as usize {
            joins[k] = 1 + below[k - 1] + below[k - 2];
        }
    }
    let j = joins[n as usize];
    Counts::new(j, j)
}

/// The kernel, on the `join` and `scope` given.
macro_rules! kernel {
    ($join:path, $scope:path) => {
        pub use $crate::fib::Config;

        /// Fibonacci number `n` by BOTS's task-parallel recursion (`n <= 93`, or the
        /// addition overflows).
        pub fn run(n: u32, cfg: &Config) -> u64 {
            fib(n, 0, cfg.cutoff)
        }

        fn fib(n: u32, d: u32, cutoff: u32) -> u64 {
            if n < 2 {
                return u64::from(n);
            }
            if d < cutoff {
                let (x, y) = $join(|| fib(n - 1, d + 1, cutoff), || fib(n - 2, d + 1, cutoff));
                x + y
            } else {
                $crate::fib::fib_seq(n - 1) + $crate::fib::fib_seq(n - 2)
            }
        }
    };
}
pub(crate) use kernel;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iter_matches_seq() {
        for n in 0..20 {
            assert_eq!(fib_iter(n), Some(fib_seq(n)));
        }
        assert_eq!(fib_iter(93), Some(12_200_160_415_121_876_738));
        assert_eq!(fib_iter(94), None);
    }

    #[test]
    fn counts_without_cutoff_are_the_internal_nodes() {
        // Without a cut-off every call with n >= 2 joins: F(n+1) - 1 of them.
        let c = counts(20, &Config { cutoff: 100 });
        assert_eq!(c, Counts::new(10945, 10945));
        assert_eq!(counts(20, &Config { cutoff: 0 }), Counts::default());
        assert_eq!(counts(1, &Config::default()), Counts::default());
        assert_eq!(counts(2, &Config { cutoff: 1 }), Counts::new(1, 1));
    }
}
