//! Linear least squares by the singular value decomposition of the column-scaled design.

use nalgebra::{DMatrix, DVector};

use crate::matrix::{check_observations, Design};
use crate::FitError;

/// The least-squares fit of a design to observations.
#[derive(Clone, Debug, PartialEq)]
pub struct LeastSquares {
    /// One coefficient per column: the minimum-norm solution of the column-scaled problem
    /// (the unique solution when the rank is full).
    pub coefficients: Vec<f64>,
    /// The numerical rank of the design: singular values of the column-scaled design above
    /// `max(rows, columns) · ε · σ_max` (`numpy.linalg.lstsq`'s default cut-off).
    pub rank: usize,
    /// σ_max / σ_min of the column-scaled design over the singular values kept; 1 for one
    /// column.
    pub condition: f64,
    /// The singular values of the column-scaled design, largest first.
    pub singular_values: Vec<f64>,
    /// Observation minus prediction, per row.
    pub residuals: Vec<f64>,
    /// The residual sum of squares.
    pub rss: f64,
    /// 1 − RSS/TSS with TSS about the mean (scikit-learn's `r2_score`: 1 for a perfect fit of
    /// constant data, 0 for an imperfect one).
    pub r2: f64,
    /// 1 − (1 − R²)·(n − 1)/(n − rank), with the intercept column (if the design has one)
    /// counted in the rank; NaN when n ≤ rank.
    pub adjusted_r2: f64,
    /// Columns that are combinations of others over these rows (empty at full rank).
    pub collinear: Vec<Collinear>,
}

/// A column of the design that equals a combination of other columns over the rows given
/// (within the rank cut-off): the semi-empirical method must merge such terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Collinear {
    /// The column.
    pub column: usize,
    /// `(other column, factor)`: the column ≈ Σ factor · other column (empty: the column is
    /// zero).
    pub combination: Vec<(usize, f64)>,
}

/// Fits `y ≈ X·c` in the least-squares sense.
///
/// # Errors
/// [`FitError::Shape`] or [`FitError::NotFinite`] for observations that do not fit the
/// design; [`FitError::Factorisation`] if the SVD does not converge (it does on finite
/// input).
pub fn least_squares(x: &Design, y: &[f64]) -> Result<LeastSquares, FitError> {
    check_observations(x, y)?;
    let (n, k) = (x.rows(), x.columns());
    if n == 0 || k == 0 {
        return Err(FitError::Empty {
            rows: n,
            columns: k,
        });
    }
    // Scale every column to unit norm: the rank cut-off and the condition number then speak
    // of the basis functions' shapes, not of their units.
    let norms: Vec<f64> = (0..k)
        .map(|j| x.m.column(j).norm())
        .map(|v| if v > 0.0 { v } else { 1.0 })
        .collect();
    // Zero rows below a short design keep the SVD square, so that every null direction of
    // the columns has its right singular vector.
    let rows = n.max(k);
    let scaled = DMatrix::from_fn(
        rows,
        k,
        |i, j| {
            if i < n {
                x.m[(i, j)] / norms[j]
            } else {
                0.0
            }
        },
    );
    let svd = nalgebra::linalg::SVD::try_new(scaled, true, true, f64::EPSILON, 0)
        .ok_or(FitError::Factorisation("singular value decomposition"))?;
    let (Some(u), Some(v_t)) = (&svd.u, &svd.v_t) else {
        return Err(FitError::Factorisation("singular value decomposition"));
    };
    // Singular values largest first, with their vectors.
    let mut order: Vec<usize> = (0..svd.singular_values.len()).collect();
    order.sort_by(|&a, &b| svd.singular_values[b].total_cmp(&svd.singular_values[a]));
    let sigma: Vec<f64> = order.iter().map(|&i| svd.singular_values[i]).collect();
    let smax = sigma.first().copied().unwrap_or(0.0);
    let tol = rows as f64 * f64::EPSILON * smax;
    let kept: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| svd.singular_values[i] > tol)
        .collect();
    let rank = kept.len();
    // c_s = V Σ⁺ Uᵀ y over the kept singular values.
    let mut yy = DVector::zeros(rows);
    for (i, &v) in y.iter().enumerate() {
        yy[i] = v;
    }
    let mut scaled_coef = DVector::zeros(k);
    for &i in &kept {
        let w = u.column(i).dot(&yy) / svd.singular_values[i];
        scaled_coef += v_t.row(i).transpose() * w;
    }
    let coefficients: Vec<f64> = (0..k).map(|j| scaled_coef[j] / norms[j]).collect();
    let predicted = x.predict(&coefficients);
    let residuals: Vec<f64> = y.iter().zip(&predicted).map(|(a, b)| a - b).collect();
    let rss: f64 = residuals.iter().map(|r| r * r).sum();
    let mean = y.iter().sum::<f64>() / n as f64;
    let tss: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    let r2 = if tss > 0.0 {
        1.0 - rss / tss
    } else if rss == 0.0 {
        1.0
    } else {
        0.0
    };
    let adjusted_r2 = if n > rank {
        1.0 - (1.0 - r2) * (n as f64 - 1.0) / (n - rank) as f64
    } else {
        f64::NAN
    };
    let condition = match (kept.first(), kept.last()) {
        (Some(&a), Some(&b)) => svd.singular_values[a] / svd.singular_values[b],
        _ => f64::INFINITY,
    };
    // Each null direction Σ v_j s_j ≈ 0 of the scaled columns names one dependent column:
    // the one with the largest weight not named yet.
    let mut collinear = Vec::new();
    let mut named = vec![false; k];
    for &i in order.iter().filter(|&&i| svd.singular_values[i] <= tol) {
        let v: Vec<f64> = (0..k).map(|j| v_t[(i, j)] / norms[j]).collect();
        let Some(j) = (0..k)
            .filter(|&j| !named[j])
            .max_by(|&a, &b| (v_t[(i, a)].abs()).total_cmp(&v_t[(i, b)].abs()))
        else {
            break;
        };
        named[j] = true;
        let big = v_t[(i, j)].abs();
        let combination = (0..k)
            .filter(|&o| o != j && v_t[(i, o)].abs() > 1e-9 * big)
            .map(|o| (o, -v[o] / v[j]))
            .collect();
        collinear.push(Collinear {
            column: j,
            combination,
        });
    }
    collinear.sort_by_key(|c| c.column);
    Ok(LeastSquares {
        coefficients,
        rank,
        condition,
        singular_values: sigma,
        residuals,
        rss,
        r2,
        adjusted_r2,
        collinear,
    })
}

/// The indices of the columns kept when they are taken in order and a column nearly in the
/// span of those kept before is left out: each column is scaled to unit norm (centred first
/// when `center`, for a model with an intercept) and orthogonalised against the kept ones
/// (twice, for orthogonality in floating point); it is kept when the norm left exceeds
/// `tolerance`. A zero or non-finite column is never kept. Where [`least_squares`] names the
/// collinear columns of a fit, this says which of a basis survive when earlier columns take
/// precedence.
///
/// ```
/// // The third column is the sum of the first two.
/// let cols = vec![vec![1.0, 0.0, 1.0], vec![0.0, 1.0, 1.0], vec![1.0, 1.0, 2.0]];
/// assert_eq!(fit::independent_columns(&cols, false, 1e-7), vec![0, 1]);
/// ```
pub fn independent_columns(cols: &[Vec<f64>], center: bool, tolerance: f64) -> Vec<usize> {
    let mut basis: Vec<Vec<f64>> = Vec::new();
    let mut keep = Vec::new();
    for (j, col) in cols.iter().enumerate() {
        let mean = if center {
            col.iter().sum::<f64>() / col.len().max(1) as f64
        } else {
            0.0
        };
        let mut v: Vec<f64> = col.iter().map(|x| x - mean).collect();
        let norm0 = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if !(norm0 > 0.0 && norm0.is_finite()) {
            continue;
        }
        v.iter_mut().for_each(|x| *x /= norm0);
        // Twice, for orthogonality in floating point.
        for _ in 0..2 {
            for q in &basis {
                let d: f64 = q.iter().zip(&v).map(|(a, b)| a * b).sum();
                v.iter_mut().zip(q).for_each(|(x, a)| *x -= d * a);
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > tolerance {
            v.iter_mut().for_each(|x| *x /= norm);
            basis.push(v);
            keep.push(j);
        }
    }
    keep
}
