#![allow(missing_docs)] // the crate front page's example, run as a test
use fit::{least_squares, nnls, Design, NnlsOptions};

fn main() -> Result<(), fit::FitError> {
    // Five runs at p = 2..32 of a program whose time is 200 + 10·p·log2(p).
    let p = [2.0f64, 4.0, 8.0, 16.0, 32.0];
    let time: Vec<f64> = p.iter().map(|p| 200.0 + 10.0 * p * p.log2()).collect();
    let basis = Design::from_rows(
        &p.iter()
            .map(|&p| vec![1.0, p, p * p.log2()])
            .collect::<Vec<_>>(),
    )?;
    let fit = least_squares(&basis, &time)?;
    assert_eq!(fit.rank, 3);
    let [c0, c1, c2] = [0, 1, 2].map(|j| fit.coefficients[j]);
    assert!((c0 - 200.0).abs() < 1e-9 && c1.abs() < 1e-9 && (c2 - 10.0).abs() < 1e-9);
    assert!(fit.rss < 1e-18 && fit.r2 == 1.0);

    // A column that is a combination of others is found and named: 2p + 1 = 2·p + 1·1.
    let collinear = Design::from_rows(
        &p.iter()
            .map(|&p| vec![1.0, p, 2.0 * p + 1.0])
            .collect::<Vec<_>>(),
    )?;
    let fit = least_squares(&collinear, &time)?;
    assert_eq!(fit.rank, 2);
    assert_eq!(fit.collinear.len(), 1);

    // Non-negative least squares keeps every coefficient ≥ 0.
    let fit = nnls(&basis, &time, &NnlsOptions::default())?;
    assert!(fit.x.iter().all(|&c| c >= 0.0));
    assert!(fit.rnorm < 1e-6);
    Ok(())
}
