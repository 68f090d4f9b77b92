//! NQueens (BOTS `nqueens`, manual cut-off): counts the placements of `n` queens on an
//! `n × n` board. A call for row `j` at depth `< cutoff` (`-x`, 7 in the paper) spawns one
//! task per column `i` of the row — each copies the board, puts the queen and, when BOTS's
//! `ok` accepts the board, recurses — then waits and sums the columns' counts. At the
//! cut-off depth the columns are tried serially (`nqueens_ser`), and the call still waits
//! once (BOTS's `taskwait` with nothing to wait for).
//!
//! There is no input to generate: `n` is the input.

use crate::Counts;

/// NQueens' parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Depth cut-off (BOTS `-x`): calls at depth `< cutoff` spawn tasks.
    pub cutoff: u32,
}

impl Default for Config {
    /// The paper's `-x 7`.
    fn default() -> Config {
        Config { cutoff: 7 }
    }
}

/// The largest board the kernel takes.
pub const MAX_N: usize = 23;

/// A board: `a[r]` is the column of the queen in row `r` (BOTS's `char *a`).
pub type Board = [u8; MAX_N];

/// Solutions of the `n`-queens problem, `n = 0..=23` (OEIS A000170).
pub const SOLUTIONS: [u64; MAX_N + 1] = [
    1,
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
    314_666_222_712,
    2_691_008_701_644,
    24_233_937_684_440,
];

/// BOTS's `ok`: whether the first `n` queens of `a` attack no other (all pairs checked).
pub fn ok(n: usize, a: &Board) -> bool {
    for i in 0..n {
        let p = i64::from(a[i]);
        for (j, &q) in a.iter().enumerate().take(n).skip(i + 1) {
            let q = i64::from(q);
            let d = (j - i) as i64;
            if q == p || q == p - d || q == p + d {
                return false;
            }
        }
    }
    true
}

/// BOTS's `nqueens_ser`: the solutions with rows `0..j` placed as in `a`.
pub fn nqueens_ser(n: usize, j: usize, a: &mut Board) -> u64 {
    if n == j {
        return 1;
    }
    let mut solutions = 0;
    for i in 0..n {
        a[j] = i as u8;
        if ok(j + 1, a) {
            solutions += nqueens_ser(n, j + 1, a);
        }
    }
    solutions
}

/// Checks `solutions` against the known count for `n`.
pub fn verify(n: usize, solutions: u64) -> Result<(), String> {
    match SOLUTIONS.get(n) {
        Some(&s) if s == solutions => Ok(()),
        Some(&s) => Err(format!(
            "{n}-queens has {s} solutions, the kernel found {solutions}"
        )),
        None => Err(format!(
            "no known solution count for n = {n} (n <= {MAX_N})"
        )),
    }
}

/// The creates and waits of the traced kernel: with `P(d)` the boards of `d` queens `ok`
/// accepts (`P(0) = 1`), every call at depth `d < n` waits once, and creates `n` tasks when
/// `d < cutoff`; calls exist at depths `0..=min(cutoff, n)`. `P` is counted by a serial
/// walk of the boards up to that depth.
pub fn counts(n: usize, cfg: &Config) -> Counts {
    let depth = (cfg.cutoff as usize).min(n);
    let mut placements = vec![0u64; depth + 1];
    let mut a: Board = [0; MAX_N];
    fn walk(n: usize, j: usize, depth: usize, a: &mut Board, p: &mut [u64]) {
        p[j] += 1;
        if j == depth {
            return;
        }
        for i in 0..n {
            a[j] = i as u8;
            if ok(j + 1, a) {
                walk(n, j + 1, depth, a, p);
            }
        }
    }
    walk(n, 0, depth, &mut a, &mut placements);
    let mut c = Counts::default();
    for (d, &p) in placements.iter().enumerate() {
        if d == n {
            continue; // a full board: the call returns 1 at once
        }
        let spawns = if (d as u32) < cfg.cutoff { n as u64 } else { 0 };
        c += Counts::scope(spawns) * p;
    }
    c
}

/// The kernel, on the `join` and `scope` given.
macro_rules! kernel {
    ($join:path, $scope:path) => {
        use $crate::nqueens::Board;
        pub use $crate::nqueens::Config;

        /// The number of solutions of the `n`-queens problem (`n <= 23`) by BOTS's
        /// task-parallel search.
        pub fn run(n: usize, cfg: &Config) -> u64 {
            let a: Board = [0; $crate::nqueens::MAX_N];
            nqueens(n.min($crate::nqueens::MAX_N), 0, &a, 0, cfg.cutoff)
        }

        fn nqueens(n: usize, j: usize, a: &Board, depth: u32, cutoff: u32) -> u64 {
            if n == j {
                return 1;
            }
            let mut csols: [u64; $crate::nqueens::MAX_N] = [0; $crate::nqueens::MAX_N];
            $scope(|s| {
                for (i, c) in csols.iter_mut().enumerate().take(n) {
                    if depth < cutoff {
                        s.spawn(move |_| {
                            let mut b = *a;
                            b[j] = i as u8;
                            if $crate::nqueens::ok(j + 1, &b) {
                                *c = nqueens(n, j + 1, &b, depth + 1, cutoff);
                            }
                        });
                    } else {
                        let mut b = *a;
                        b[j] = i as u8;
                        if $crate::nqueens::ok(j + 1, &b) {
                            *c = $crate::nqueens::nqueens_ser(n, j + 1, &mut b);
                        }
                    }
                }
            });
            csols.iter().sum()
        }
    };
}
pub(crate) use kernel;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_matches_table() {
        for (n, &want) in SOLUTIONS.iter().enumerate().take(9).skip(1) {
            let mut a = [0; MAX_N];
            assert_eq!(nqueens_ser(n, 0, &mut a), want, "n = {n}");
        }
    }

    #[test]
    fn counts_small() {
        // n = 4, cutoff 1: the root spawns 4 tasks; each column is ok on its own, so 4
        // calls at depth 1 wait once each (serially trying the rest).
        assert_eq!(counts(4, &Config { cutoff: 1 }), Counts::new(4, 5));
        assert_eq!(counts(4, &Config { cutoff: 0 }), Counts::new(0, 1));
    }
}
