//! The regressions against the reference implementations' numbers (numpy's `lstsq`,
//! scikit-learn's `r2_score`, scipy's `nnls`), printed by `bench/fit_reference.py`.

use fit::{cv, least_squares, nnls, Design, FitError, NnlsOptions};
use proptest::prelude::*;

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-300) || (a - b).abs() < 1e-12
}

fn assert_close(got: &[f64], want: &[f64], rel: f64) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!(close(*g, *w, rel), "{got:?} vs {want:?}");
    }
}

#[test]
fn ols_matches_numpy_lstsq() {
    let x = [1.0f64, 2.0, 4.0, 8.0, 16.0, 32.0];
    let noise = [0.3, -0.2, 0.1, -0.4, 0.2, -0.1];
    let y: Vec<f64> = x
        .iter()
        .zip(noise)
        .map(|(x, e)| 200.0 + 10.0 * x * x.log2() + e)
        .collect();
    let d = Design::from_rows(
        &x.iter()
            .map(|&x| vec![1.0, x, x * x.log2()])
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let f = least_squares(&d, &y).unwrap();
    assert_close(
        &f.coefficients,
        &[200.11410256410286, -0.0486490917437159, 10.008838284477667],
        1e-9,
    );
    assert!(close(f.rss, 0.32992261787641297, 1e-9), "{}", f.rss);
    assert_eq!(f.rank, 3);
    assert!(close(f.r2, 0.999999828561607, 1e-12), "{}", f.r2);
    // n = 6, rank 3 (the intercept counted): 1 − (1 − R²)·5/3.
    assert!(close(f.adjusted_r2, 1.0 - (1.0 - f.r2) * 5.0 / 3.0, 1e-12));
    assert!(f.collinear.is_empty());
    assert!(f.condition > 1.0 && f.condition.is_finite());
}

#[test]
fn nnls_matches_scipy() {
    let a = Design::from_rows(&[
        vec![1.0, 0.5, 2.0],
        vec![0.3, 1.0, 0.1],
        vec![2.0, 0.2, 0.7],
        vec![0.1, 0.9, 1.5],
        vec![1.2, 1.1, 0.4],
    ])
    .unwrap();
    let b = [1.0, -2.0, 3.0, 0.5, 1.0];
    let f = nnls(&a, &b, &NnlsOptions::default()).unwrap();
    assert_close(&f.x, &[1.1271675293822585, 0.0, 0.06855279749754412], 1e-9);
    assert!(close(f.rnorm, 2.5061876970536594, 1e-9));
    // Unconstrained, the second coefficient is negative.
    let ls = least_squares(&a, &b).unwrap();
    assert_close(
        &ls.coefficients,
        &[1.4021122174085068, -1.3767040125093633, 0.510685608570887],
        1e-9,
    );

    let rows: Vec<Vec<f64>> = (1..=6)
        .map(|x| {
            let x = f64::from(x);
            vec![1.0, x, x * x, x * x * x]
        })
        .collect();
    let a2 = Design::from_rows(&rows).unwrap();
    let f2 = nnls(
        &a2,
        &[10.0, 7.0, 9.0, 20.0, 41.0, 80.0],
        &NnlsOptions::default(),
    )
    .unwrap();
    assert_close(
        &f2.x,
        &[3.050674914287088, 0.0, 0.0, 0.3371790261094728],
        1e-9,
    );
    assert!(close(f2.rnorm, 10.548162723591597, 1e-9));
}

#[test]
fn collinear_columns_are_named_with_their_combination() {
    // Columns: 1, x, x², 3x − 2 (= 3·x − 2·1), 0.
    let rows: Vec<Vec<f64>> = (1..=8)
        .map(|x| {
            let x = f64::from(x);
            vec![1.0, x, x * x, 3.0 * x - 2.0, 0.0]
        })
        .collect();
    let d = Design::from_rows(&rows).unwrap();
    let y: Vec<f64> = (1..=8).map(|x| 5.0 + f64::from(x).powi(2)).collect();
    let f = least_squares(&d, &y).unwrap();
    assert_eq!(f.rank, 3);
    assert!(f.rss < 1e-18, "{}", f.rss);
    let named: Vec<usize> = f.collinear.iter().map(|c| c.column).collect();
    assert_eq!(named.len(), 2, "{:?}", f.collinear);
    assert!(named.contains(&4), "the zero column: {:?}", f.collinear);
    let zero = f.collinear.iter().find(|c| c.column == 4).unwrap();
    assert!(zero.combination.is_empty());
    // The other names one of x, 1, 3x − 2 as a combination that holds on every row.
    let dep = f.collinear.iter().find(|c| c.column != 4).unwrap();
    for r in &rows {
        let rhs: f64 = dep.combination.iter().map(|&(o, c)| c * r[o]).sum();
        assert!((r[dep.column] - rhs).abs() < 1e-9, "{dep:?}");
    }
}

#[test]
fn bad_input_is_an_error_that_says_what() {
    assert_eq!(
        Design::from_rows(&[]),
        Err(FitError::Empty {
            rows: 0,
            columns: 0
        })
    );
    assert_eq!(
        Design::from_rows(&[vec![1.0, 2.0], vec![1.0]]),
        Err(FitError::Ragged {
            row: 1,
            len: 1,
            expected: 2
        })
    );
    assert!(matches!(
        Design::from_rows(&[vec![1.0, f64::NAN]]),
        Err(FitError::NotFinite {
            what: "row",
            index: 0,
            ..
        })
    ));
    let d = Design::from_rows(&[vec![1.0], vec![2.0]]).unwrap();
    assert_eq!(
        least_squares(&d, &[1.0]),
        Err(FitError::Shape {
            rows: 2,
            observations: 1
        })
    );
    assert!(matches!(
        least_squares(&d, &[1.0, f64::INFINITY]),
        Err(FitError::NotFinite {
            what: "observation",
            index: 1,
            ..
        })
    ));
    // Fewer rows than columns: the minimum-norm solution, rank 1, one column named.
    let short = Design::from_rows(&[vec![1.0, 2.0]]).unwrap();
    let f = least_squares(&short, &[5.0]).unwrap();
    assert_eq!(f.rank, 1);
    assert_eq!(f.collinear.len(), 1);
    assert!(f.adjusted_r2.is_nan());
}

#[test]
fn folds_are_sklearns_kfold() {
    let f = cv::kfold(10, 3);
    let tests: Vec<Vec<usize>> = f.iter().map(|s| s.test.clone()).collect();
    assert_eq!(tests, [vec![0, 1, 2, 3], vec![4, 5, 6], vec![7, 8, 9]]);
    assert_eq!(f[1].train, [0, 1, 2, 3, 7, 8, 9]);
    assert_eq!(cv::leave_one_out(3).len(), 3);
    assert!(cv::kfold(1, 5).is_empty());
    let a = cv::kfold_shuffled(20, 4, 7);
    assert_eq!(a, cv::kfold_shuffled(20, 4, 7));
    assert_ne!(a, cv::kfold(20, 4));
    let mut all: Vec<usize> = a.iter().flat_map(|s| s.test.clone()).collect();
    all.sort_unstable();
    assert_eq!(all, (0..20).collect::<Vec<_>>());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Exact data on a full-rank basis is recovered, and NNLS agrees with least squares when
    /// the true coefficients are non-negative.
    #[test]
    fn exact_data_is_recovered(c in prop::collection::vec(0.0f64..100.0, 3), n in 5usize..40) {
        let rows: Vec<Vec<f64>> = (1..=n).map(|i| {
            let x = i as f64;
            vec![1.0, x.ln(), x.sqrt()]
        }).collect();
        let y: Vec<f64> = rows.iter().map(|r| r.iter().zip(&c).map(|(a, b)| a * b).sum()).collect();
        let d = Design::from_rows(&rows).unwrap();
        let f = least_squares(&d, &y).unwrap();
        for (g, w) in f.coefficients.iter().zip(&c) {
            prop_assert!((g - w).abs() < 1e-7 * (1.0 + w.abs()), "{:?} vs {:?}", f.coefficients, c);
        }
        let nn = nnls(&d, &y, &NnlsOptions::default()).unwrap();
        prop_assert!(nn.x.iter().all(|&v| v >= 0.0));
        prop_assert!(nn.rnorm < 1e-6 * (1.0 + y.iter().map(|v| v.abs()).sum::<f64>()));
    }

    /// NNLS never beats least squares and never returns a negative entry.
    #[test]
    fn nnls_is_feasible_and_no_better_than_least_squares(
        a in prop::collection::vec(prop::collection::vec(-5.0f64..5.0, 3), 4..12),
        b_seed in prop::collection::vec(-10.0f64..10.0, 12),
    ) {
        let b: Vec<f64> = b_seed[..a.len()].to_vec();
        let d = Design::from_rows(&a).unwrap();
        let nn = nnls(&d, &b, &NnlsOptions::default()).unwrap();
        prop_assert!(nn.x.iter().all(|&v| v >= 0.0));
        let ls = least_squares(&d, &b).unwrap();
        prop_assert!(nn.rnorm * nn.rnorm >= ls.rss * (1.0 - 1e-9) - 1e-9);
    }
}
