//! Weighted least squares on a handful of columns with exact leave-one-out errors, without
//! heap allocation: the inner loop of the `vates` search, which solves hundreds of small
//! problems per series.

/// The most columns (the constant included) a problem may have.
pub(crate) const MAX_COLUMNS: usize = 8;

/// Means `y` with weights `w`; leave-one-out errors are measured relative to `scale`.
pub(crate) struct Problem<'a> {
    pub y: &'a [f64],
    pub w: &'a [f64],
    pub scale: &'a [f64],
}

/// The fit of `y ≈ c0 + Σ c_j·col_j`.
pub(crate) struct Solution {
    coef: [f64; MAX_COLUMNS],
    k: usize,
    /// Root mean square of the leave-one-out errors relative to the scale.
    pub cv: f64,
    /// The weighted residual sum of squares `Σ w (y − ŷ)²`.
    pub wss: f64,
}

impl Solution {
    /// `[c0, c1, …]`.
    pub fn coef(&self) -> &[f64] {
        &self.coef[..self.k]
    }
}

/// Solves by Cholesky on the column-scaled Gram matrix; `None` when the columns are
/// collinear over the points, there are too many of them, or a point alone decides the fit
/// (its leverage is 1).
pub(crate) fn solve(cols: &[&[f64]], p: &Problem<'_>) -> Option<Solution> {
    let (y, w) = (p.y, p.w);
    let n = y.len();
    let k = cols.len() + 1;
    if n <= k || k > MAX_COLUMNS {
        return None;
    }
    let col = |j: usize, i: usize| if j == 0 { 1.0 } else { cols[j - 1][i] };
    let mut norm = [0.0; MAX_COLUMNS];
    for (j, nj) in norm.iter_mut().enumerate().take(k) {
        let s: f64 = (0..n).map(|i| w[i] * col(j, i) * col(j, i)).sum();
        *nj = s.sqrt();
        if !(nj.is_finite() && *nj > 0.0) {
            return None;
        }
    }
    let mut g = [0.0; MAX_COLUMNS * MAX_COLUMNS];
    let mut z = [0.0; MAX_COLUMNS];
    let mut x = [0.0; MAX_COLUMNS];
    for i in 0..n {
        for (a, xa) in x.iter_mut().enumerate().take(k) {
            *xa = col(a, i) / norm[a];
        }
        for a in 0..k {
            z[a] += w[i] * x[a] * y[i];
            for c in 0..=a {
                g[a * k + c] += w[i] * x[a] * x[c];
            }
        }
    }
    // Cholesky G = L·Lᵀ in place; the scaled Gram matrix has a unit diagonal, so a tiny
    // pivot means collinear columns.
    for a in 0..k {
        for c in 0..=a {
            let mut s = g[a * k + c];
            for m in 0..c {
                s -= g[a * k + m] * g[c * k + m];
            }
            if a == c {
                if s <= 1e-10 {
                    return None;
                }
                g[a * k + a] = s.sqrt();
            } else {
                g[a * k + c] = s / g[c * k + c];
            }
        }
    }
    let forward = |v: &mut [f64; MAX_COLUMNS]| {
        for a in 0..k {
            let mut s = v[a];
            for m in 0..a {
                s -= g[a * k + m] * v[m];
            }
            v[a] = s / g[a * k + a];
        }
    };
    forward(&mut z);
    for a in (0..k).rev() {
        let mut s = z[a];
        for m in a + 1..k {
            s -= g[m * k + a] * z[m];
        }
        z[a] = s / g[a * k + a];
    }
    let mut coef = [0.0; MAX_COLUMNS];
    for a in 0..k {
        coef[a] = z[a] / norm[a];
    }
    let (mut cv, mut wss) = (0.0, 0.0);
    for i in 0..n {
        let pred: f64 = (0..k).map(|j| coef[j] * col(j, i)).sum();
        // Leverage h_ii = w_i · ‖L⁻¹ x̃_i‖² with x̃ the scaled row.
        for (a, xa) in x.iter_mut().enumerate().take(k) {
            *xa = col(a, i) / norm[a];
        }
        forward(&mut x);
        let h = w[i] * x[..k].iter().map(|v| v * v).sum::<f64>();
        if h >= 1.0 - 1e-9 {
            return None;
        }
        let r = y[i] - pred;
        let loo = r / (1.0 - h) / p.scale[i];
        cv += loo * loo;
        wss += w[i] * r * r;
    }
    Some(Solution {
        coef,
        k,
        cv: (cv / n as f64).sqrt(),
        wss,
    })
}
