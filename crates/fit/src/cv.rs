//! Cross-validation splits: which rows train a model and which test it.

/// One split: the rows a model is fitted on and the rows it is scored on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// Rows to fit on, ascending.
    pub train: Vec<usize>,
    /// Rows to score on, ascending.
    pub test: Vec<usize>,
}

/// K contiguous folds of `n` rows, as scikit-learn's `KFold(k)`: the first `n % k` folds
/// have `n / k + 1` rows, the others `n / k`; fold `f` tests its rows and trains on the rest.
/// `k` is clamped to `2..=n` (no split for fewer than two rows).
pub fn kfold(n: usize, k: usize) -> Vec<Split> {
    kfold_of(&(0..n).collect::<Vec<_>>(), k)
}

/// [`kfold`] over rows shuffled first with a seeded generator (needed when rows are ordered
/// by size: contiguous folds would then all extrapolate); the same seed gives the same folds.
pub fn kfold_shuffled(n: usize, k: usize, seed: u64) -> Vec<Split> {
    let mut rows: Vec<usize> = (0..n).collect();
    stats::rng::Draw::shuffle(&mut stats::rng::seeded(seed), &mut rows);
    kfold_of(&rows, k)
}

/// Rolling-origin splits of `n` rows ordered by size (scikit-learn's `TimeSeriesSplit` with
/// one row per test): for each `h` in `min_train..n`, train on rows `0..h` and test row `h`.
/// Every split extrapolates one row beyond its training rows, as a model made to extrapolate
/// is used; `min_train` is clamped to `1..=n`.
pub fn forward(n: usize, min_train: usize) -> Vec<Split> {
    (min_train.clamp(1, n.max(1))..n)
        .map(|h| Split {
            train: (0..h).collect(),
            test: vec![h],
        })
        .collect()
}

/// Leave-one-out: `n` splits, each testing one row.
pub fn leave_one_out(n: usize) -> Vec<Split> {
    kfold(n, n)
}

fn kfold_of(rows: &[usize], k: usize) -> Vec<Split> {
    let n = rows.len();
    if n < 2 {
        return Vec::new();
    }
    let k = k.clamp(2, n);
    let (size, extra) = (n / k, n % k);
    let mut out = Vec::with_capacity(k);
    let mut start = 0;
    for f in 0..k {
        let len = size + usize::from(f < extra);
        let mut test: Vec<usize> = rows[start..start + len].to_vec();
        let mut train: Vec<usize> = rows[..start]
            .iter()
            .chain(&rows[start + len..])
            .copied()
            .collect();
        test.sort_unstable();
        train.sort_unstable();
        out.push(Split { train, test });
        start += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_splits_extrapolate_one_row() {
        let s = forward(5, 3);
        assert_eq!(
            s,
            vec![
                Split {
                    train: vec![0, 1, 2],
                    test: vec![3]
                },
                Split {
                    train: vec![0, 1, 2, 3],
                    test: vec![4]
                },
            ]
        );
        assert!(forward(3, 3).is_empty());
        assert_eq!(forward(2, 0).len(), 1, "at least one training row");
        assert!(forward(0, 2).is_empty());
    }
}
