//! Medians and quantiles of repeated measurements: one definition of each for the workspace.
//!
//! Non-finite values are ordered by [`f64::total_cmp`] (NaN last); callers that must refuse
//! them check before.

/// The values sorted by [`f64::total_cmp`].
fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// The median: the middle value, the mean of the two middle values for an even count;
/// `None` for no values.
pub fn median(values: &[f64]) -> Option<f64> {
    quantile(values, 0.5)
}

/// The lower median: the middle value, the lower of the two middle values for an even count,
/// so that the result is one of the values (a measured latency, not a mean of two); `None`
/// for no values.
pub fn lower_median(values: &[f64]) -> Option<f64> {
    let v = sorted(values);
    v.get(v.len().checked_sub(1)? / 2).copied()
}

/// The `q`-quantile (`0 ≤ q ≤ 1`, clamped) by linear interpolation between the order
/// statistics (Hyndman & Fan's type 7, the default of R and NumPy); `None` for no values.
pub fn quantile(values: &[f64], q: f64) -> Option<f64> {
    quantile_sorted(&sorted(values), q)
}

/// [`quantile`] of values already sorted ascending (several quantiles of one sample sort it
/// once).
pub fn quantile_sorted(sorted: &[f64], q: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let q = if q.is_nan() { 0.5 } else { q.clamp(0.0, 1.0) };
    let pos = q * last as f64;
    let lo = (pos.floor() as usize).min(last);
    let hi = (pos.ceil() as usize).min(last);
    let (a, b) = (sorted[lo], sorted[hi]);
    if lo == hi || a == b {
        return Some(a);
    }
    Some(a + (pos - lo as f64) * (b - a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hand_computed() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[4.0]), Some(4.0));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[5.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(lower_median(&[5.0, 1.0, 3.0, 2.0]), Some(2.0));
        assert_eq!(lower_median(&[]), None);
        // NumPy: np.quantile([1, 2, 4, 8], 0.9) = 6.8.
        assert!((quantile(&[8.0, 1.0, 4.0, 2.0], 0.9).unwrap() - 6.8).abs() < 1e-12);
        assert_eq!(quantile(&[1.0, 2.0], 0.0), Some(1.0));
        assert_eq!(quantile(&[1.0, 2.0], 1.0), Some(2.0));
        assert_eq!(quantile(&[1.0, 2.0], 7.0), Some(2.0));
        // Infinite equal values do not make NaN.
        assert_eq!(
            quantile(&[f64::INFINITY, f64::INFINITY], 0.3),
            Some(f64::INFINITY)
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// A quantile lies between the smallest and largest value and grows with q; half
        /// the values are at most the median and half at least.
        #[test]
        fn quantiles_are_ordered(v in prop::collection::vec(-1e6f64..1e6, 1..40), q in 0.0f64..1.0) {
            let s = sorted(&v);
            let x = quantile(&v, q).unwrap();
            prop_assert!(s[0] <= x && x <= s[s.len() - 1]);
            prop_assert!(quantile(&v, q / 2.0).unwrap() <= x);
            let m = median(&v).unwrap();
            let below = v.iter().filter(|&&y| y <= m).count();
            let above = v.iter().filter(|&&y| y >= m).count();
            prop_assert!(2 * below >= v.len() && 2 * above >= v.len());
        }
    }
}
