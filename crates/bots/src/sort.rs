//! Sort (BOTS `sort`, Cilk's cilksort) of 64-bit integers. `cilksort` splits the array in
//! four quarters and sorts them in four tasks (scratch in a second array), then merges the
//! quarters pairwise into the scratch in two tasks (one `join`), and the two halves back
//! with a third merge in the caller. `cilkmerge` splits the longer run at its middle,
//! finds the split of the other run by binary search (BOTS's `binsplit`) and merges the
//! two sides in two tasks (one `join`), down to runs of at most `-a` elements (512 in the
//! paper) merged serially; arrays shorter than `-y` (512) are sorted by BOTS's serial
//! quicksort, which leaves parts shorter than `-b` (20) to insertion sort.
//!
//! The input, as in BOTS, is the numbers `0..n` scrambled by `n` random swaps.

use crate::Counts;
use stats::rng::{mix, Draw};

/// Sort's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Merge cut-off (BOTS `-a`): merges whose shorter run has at most this many elements
    /// are serial.
    pub merge_cutoff: usize,
    /// Quicksort cut-off (BOTS `-y`): arrays shorter than this are sorted serially.
    pub quick_cutoff: usize,
    /// Insertion-sort threshold (BOTS `-b`): quicksort leaves parts of fewer elements to
    /// insertion sort.
    pub insertion_cutoff: usize,
}

impl Default for Config {
    /// The paper's `-a 512 -y 512 -b 20`.
    fn default() -> Config {
        Config {
            merge_cutoff: 512,
            quick_cutoff: 512,
            insertion_cutoff: 20,
        }
    }
}

impl Config {
    /// Checks the cut-offs the algorithm needs: `quick_cutoff >= 4` (four non-empty
    /// quarters) and `insertion_cutoff >= 2` (BOTS's partition needs two elements).
    pub fn validate(&self) -> Result<(), String> {
        if self.quick_cutoff < 4 {
            return Err(format!(
                "the quicksort cut-off must be at least 4, not {}",
                self.quick_cutoff
            ));
        }
        if self.insertion_cutoff < 2 {
            return Err(format!(
                "the insertion-sort threshold must be at least 2, not {}",
                self.insertion_cutoff
            ));
        }
        Ok(())
    }
}

/// BOTS's input: `0..n` scrambled by swapping each element with a random one.
pub fn input(n: usize, seed: u64) -> Vec<i64> {
    let mut a: Vec<i64> = (0..n as i64).collect();
    let mut rng = stats::rng::seeded(seed);
    for i in 0..n {
        let j = rng.below(n as u64) as usize;
        a.swap(i, j);
    }
    a
}

/// An order-independent checksum of a multiset of numbers (sums of two mixes).
pub fn checksum(a: &[i64]) -> (u64, u64) {
    a.iter().fold((0u64, 0u64), |(s, t), &x| {
        let m = mix(x as u64);
        (
            s.wrapping_add(m),
            t.wrapping_add(mix(m ^ 0x5851_F42D_4C95_7F2D)),
        )
    })
}

/// Checks that `output` is sorted and holds the same numbers as `input` (by checksum).
pub fn verify(input: &[i64], output: &[i64]) -> Result<(), String> {
    if input.len() != output.len() {
        return Err(format!("{} numbers in, {} out", input.len(), output.len()));
    }
    if let Some(i) = output.windows(2).position(|w| w[0] > w[1]) {
        return Err(format!(
            "not sorted at index {i}: {} > {}",
            output[i],
            output[i + 1]
        ));
    }
    if checksum(input) != checksum(output) {
        return Err("the output is not a permutation of the input (checksums differ)".into());
    }
    Ok(())
}

/// Insertion sort (BOTS's `insertion_sort`).
pub fn insertion_sort(a: &mut [i64]) {
    for q in 1..a.len() {
        let x = a[q];
        let mut p = q;
        while p > 0 && a[p - 1] > x {
            a[p] = a[p - 1];
            p -= 1;
        }
        a[p] = x;
    }
}

fn med3(a: i64, b: i64, c: i64) -> i64 {
    if a < b {
        if b < c {
            b
        } else if a < c {
            c
        } else {
            a
        }
    } else if b > c {
        b
    } else if a > c {
        c
    } else {
        a
    }
}

/// BOTS's `seqpart` (`a.len() >= 2`): partitions around the median of the first, middle
/// and last elements; returns `p` with `a[..=p] <= pivot <= a[p+1..]`.
fn seqpart(a: &mut [i64]) -> usize {
    let high = a.len() - 1;
    let pivot = med3(a[0], a[high], a[high / 2]);
    let (mut lo, mut hi) = (0usize, high);
    loop {
        while a[hi] > pivot {
            hi -= 1;
        }
        while a[lo] < pivot {
            lo += 1;
        }
        if lo >= hi {
            break;
        }
        a.swap(lo, hi);
        hi -= 1;
        lo += 1;
    }
    if hi < high {
        hi
    } else {
        hi - 1
    }
}

/// BOTS's `seqquick`: quicksort, leaving parts shorter than `insertion_cutoff` (at least
/// 2) to insertion sort.
pub fn seqquick(mut a: &mut [i64], insertion_cutoff: usize) {
    let cut = insertion_cutoff.max(2);
    while a.len() > cut {
        let p = seqpart(a);
        let (low, high) = a.split_at_mut(p + 1);
        seqquick(low, cut);
        a = high;
    }
    insertion_sort(a);
}

/// BOTS's `seqmerge`: merges the sorted runs `a` and `b` into `dest`.
pub fn seqmerge(a: &[i64], b: &[i64], dest: &mut [i64]) {
    let (mut i, mut j) = (0, 0);
    for d in dest.iter_mut() {
        if j >= b.len() || (i < a.len() && a[i] < b[j]) {
            *d = a[i];
            i += 1;
        } else {
            *d = b[j];
            j += 1;
        }
    }
}

/// Where `cilkmerge` splits: the longer run first, its middle, and the elements of the
/// shorter run below that middle element (BOTS's `binsplit`); `None` when the merge is
/// serial (the shorter run is empty or at most `merge_cutoff` long).
pub fn merge_split<'a>(
    a: &'a [i64],
    b: &'a [i64],
    merge_cutoff: usize,
) -> (&'a [i64], &'a [i64], Option<(usize, usize)>) {
    let (a, b) = if b.len() > a.len() { (b, a) } else { (a, b) };
    if b.is_empty() || b.len() <= merge_cutoff {
        return (a, b, None);
    }
    let m1 = a.len() / 2;
    let v = a[m1];
    let m2 = b.partition_point(|&x| x < v);
    (a, b, Some((m1, m2)))
}

/// The creates and waits of the traced kernel on `input`. The merges' splits depend on
/// the data, so this follows the recursion on a serially sorted copy, splitting the runs
/// as `cilkmerge` does.
pub fn counts(input: &[i64], cfg: &Config) -> Counts {
    let mut a = input.to_vec();
    sort_counts(&mut a, cfg)
}

fn sort_counts(a: &mut [i64], cfg: &Config) -> Counts {
    let size = a.len();
    if size < cfg.quick_cutoff.max(4) {
        a.sort_unstable();
        return Counts::default();
    }
    let q = size / 4;
    let mut c = Counts::scope(4);
    {
        let (qa, rest) = a.split_at_mut(q);
        let (qb, rest) = rest.split_at_mut(q);
        let (qc, qd) = rest.split_at_mut(q);
        c += sort_counts(qa, cfg)
            + sort_counts(qb, cfg)
            + sort_counts(qc, cfg)
            + sort_counts(qd, cfg);
    }
    let (ab, cd) = a.split_at(2 * q);
    let (qa, qb) = ab.split_at(q);
    let (qc, qd) = cd.split_at(q);
    c += Counts::JOIN + merge_counts(qa, qb, cfg) + merge_counts(qc, qd, cfg);
    let mut tmp = vec![0; size];
    let (t1, t2) = tmp.split_at_mut(2 * q);
    seqmerge(qa, qb, t1);
    seqmerge(qc, qd, t2);
    let (t1, t2) = tmp.split_at(2 * q);
    c += merge_counts(t1, t2, cfg);
    seqmerge(t1, t2, a);
    c
}

fn merge_counts(a: &[i64], b: &[i64], cfg: &Config) -> Counts {
    match merge_split(a, b, cfg.merge_cutoff) {
        (_, _, None) => Counts::default(),
        (a, b, Some((m1, m2))) => {
            Counts::JOIN
                + merge_counts(&a[..m1], &b[..m2], cfg)
                + merge_counts(&a[m1 + 1..], &b[m2..], cfg)
        }
    }
}

/// The kernel, on the `join` and `scope` given.
macro_rules! kernel {
    ($join:path, $scope:path) => {
        pub use $crate::sort::Config;

        /// Sorts `data` by cilksort, with `tmp` (as long as `data`) as scratch. Cut-offs
        /// below [`Config::validate`]'s minima are raised to them.
        pub fn run(data: &mut [i64], tmp: &mut [i64], cfg: &Config) {
            let n = data.len().min(tmp.len());
            cilksort(&mut data[..n], &mut tmp[..n], cfg);
        }

        fn cilksort(low: &mut [i64], tmp: &mut [i64], cfg: &Config) {
            let size = low.len();
            if size < cfg.quick_cutoff.max(4) {
                $crate::sort::seqquick(low, cfg.insertion_cutoff);
                return;
            }
            let q = size / 4;
            {
                let (a, rest) = low.split_at_mut(q);
                let (b, rest) = rest.split_at_mut(q);
                let (c, d) = rest.split_at_mut(q);
                let (ta, rest) = tmp.split_at_mut(q);
                let (tb, rest) = rest.split_at_mut(q);
                let (tc, td) = rest.split_at_mut(q);
                $scope(|s| {
                    s.spawn(move |_| cilksort(a, ta, cfg));
                    s.spawn(move |_| cilksort(b, tb, cfg));
                    s.spawn(move |_| cilksort(c, tc, cfg));
                    s.spawn(move |_| cilksort(d, td, cfg));
                });
            }
            {
                let (ab, cd) = low.split_at(2 * q);
                let (a, b) = ab.split_at(q);
                let (c, d) = cd.split_at(q);
                let (t1, t2) = tmp.split_at_mut(2 * q);
                $join(|| cilkmerge(a, b, t1, cfg), || cilkmerge(c, d, t2, cfg));
            }
            let (t1, t2) = tmp.split_at(2 * q);
            cilkmerge(t1, t2, low, cfg);
        }

        fn cilkmerge(a: &[i64], b: &[i64], dest: &mut [i64], cfg: &Config) {
            match $crate::sort::merge_split(a, b, cfg.merge_cutoff) {
                (a, b, None) => {
                    if b.is_empty() {
                        dest.copy_from_slice(a);
                    } else {
                        $crate::sort::seqmerge(a, b, dest);
                    }
                }
                (a, b, Some((m1, m2))) => {
                    let (low, rest) = dest.split_at_mut(m1 + m2);
                    let (mid, high) = rest.split_at_mut(1);
                    mid[0] = a[m1];
                    $join(
                        || cilkmerge(&a[..m1], &b[..m2], low, cfg),
                        || cilkmerge(&a[m1 + 1..], &b[m2..], high, cfg),
                    );
                }
            }
        }
    };
}
pub(crate) use kernel;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_a_permutation() {
        let mut a = input(1000, 3);
        assert_ne!(a, (0..1000).collect::<Vec<i64>>());
        a.sort_unstable();
        assert_eq!(a, (0..1000).collect::<Vec<i64>>());
    }

    #[test]
    fn seqquick_sorts() {
        for n in [0, 1, 2, 3, 19, 20, 21, 100, 1000] {
            for cut in [2, 5, 20] {
                let inp = input(n, n as u64);
                let mut a = inp.clone();
                seqquick(&mut a, cut);
                assert!(verify(&inp, &a).is_ok(), "n = {n}, cut = {cut}");
            }
        }
        let mut dup = vec![3, 1, 3, 3, 2, 1, 3, 3, 0, 3, 3, 1, 1];
        let orig = dup.clone();
        seqquick(&mut dup, 2);
        assert!(verify(&orig, &dup).is_ok());
    }

    #[test]
    fn verify_rejects() {
        assert!(verify(&[2, 1], &[2, 1]).is_err());
        assert!(verify(&[2, 1], &[1, 1]).is_err());
        assert!(verify(&[2, 1], &[1, 2]).is_ok());
    }
}
