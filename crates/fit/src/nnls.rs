//! Non-negative least squares: minimise ‖A·x − b‖ subject to x ≥ 0, by Lawson and Hanson's
//! active-set method (Solving Least Squares Problems, 1974, ch. 23).

use crate::matrix::{check_observations, Design};
use crate::{least_squares, FitError};

/// Options of [`nnls`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NnlsOptions {
    /// The most iterations (steps that free or bind a variable); `None`: 3 × columns, as
    /// `scipy.optimize.nnls`.
    pub max_iter: Option<usize>,
}

/// The solution of a non-negative least-squares problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Nnls {
    /// The solution, every entry ≥ 0.
    pub x: Vec<f64>,
    /// ‖A·x − b‖.
    pub rnorm: f64,
    /// Iterations taken.
    pub iterations: usize,
}

/// Solves `min ‖A·x − b‖` subject to `x ≥ 0`.
///
/// # Errors
/// As [`least_squares`] for the input, and [`FitError::IterationLimit`].
pub fn nnls(a: &Design, b: &[f64], opts: &NnlsOptions) -> Result<Nnls, FitError> {
    check_observations(a, b)?;
    // Columns scaled to unit norm: the same optimum, but the tolerances of the active set then
    // speak of the basis functions' shapes, not their units (columns a factor 10^10 apart
    // otherwise make the active set cycle).
    let norms: Vec<f64> = (0..a.columns())
        .map(|j| a.m.column(j).norm())
        .map(|v| if v > 0.0 && v.is_finite() { v } else { 1.0 })
        .collect();
    let scaled = Design {
        m: nalgebra::DMatrix::from_fn(a.rows(), a.columns(), |i, j| a.m[(i, j)] / norms[j]),
    };
    let mut out = nnls_unit(&scaled, b, opts)?;
    for (x, n) in out.x.iter_mut().zip(&norms) {
        *x /= n;
    }
    Ok(out)
}

/// [`nnls`] on columns of unit norm.
fn nnls_unit(a: &Design, b: &[f64], opts: &NnlsOptions) -> Result<Nnls, FitError> {
    let (m, n) = (a.rows(), a.columns());
    let limit = opts.max_iter.unwrap_or(3 * n).max(1);
    let mut x = vec![0.0; n];
    let mut passive = vec![false; n];
    let gradient = |x: &[f64]| -> Vec<f64> {
        let r: Vec<f64> = b.iter().zip(a.predict(x)).map(|(b, p)| b - p).collect();
        (0..n)
            .map(|j| (0..m).map(|i| a.get(i, j) * r[i]).sum())
            .collect()
    };
    let mut w = gradient(&x);
    let scale = w.iter().fold(0.0f64, |s, v| s.max(v.abs()));
    let tol = 10.0 * m.max(n) as f64 * f64::EPSILON * scale.max(f64::MIN_POSITIVE);
    let mut iterations = 0;
    // Free the most promising variable still held at zero, while there is one.
    while let Some(t) = (0..n)
        .filter(|&j| !passive[j] && w[j] > tol)
        .max_by(|&i, &j| w[i].total_cmp(&w[j]))
    {
        passive[t] = true;
        loop {
            iterations += 1;
            if iterations > limit {
                return Err(FitError::IterationLimit {
                    method: "non-negative least squares",
                    limit,
                });
            }
            let cols: Vec<usize> = (0..n).filter(|&j| passive[j]).collect();
            if cols.is_empty() {
                // Every variable stepped back to its bound: x = 0 is the point to go on from.
                x = vec![0.0; n];
                break;
            }
            let sub = Design {
                m: a.m.select_columns(&cols),
            };
            let s_p = least_squares(&sub, b)?.coefficients;
            let mut s = vec![0.0; n];
            for (&j, &v) in cols.iter().zip(&s_p) {
                s[j] = v;
            }
            if cols.iter().all(|&j| s[j] > 0.0) {
                x = s;
                break;
            }
            // Step from x towards s as far as every variable stays ≥ 0.
            let alpha = cols
                .iter()
                .filter(|&&j| s[j] <= 0.0)
                .map(|&j| x[j] / (x[j] - s[j]))
                .fold(f64::INFINITY, f64::min);
            for j in 0..n {
                x[j] += alpha * (s[j] - x[j]);
            }
            for &j in &cols {
                if x[j] <= tol {
                    x[j] = 0.0;
                    passive[j] = false;
                }
            }
        }
        w = gradient(&x);
    }
    let rnorm = b
        .iter()
        .zip(a.predict(&x))
        .map(|(b, p)| (b - p) * (b - p))
        .sum::<f64>()
        .sqrt();
    Ok(Nnls {
        x,
        rnorm,
        iterations,
    })
}
