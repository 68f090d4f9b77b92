//! SparseLU (BOTS `sparselu`, the `single` version): LU factorisation without pivoting of
//! a sparse matrix of `n × n` blocks of `m × m` numbers (BOTS `-n` and `-m`; `m = 30` in
//! the paper), where absent blocks are null. For each `k`, `lu0` factors the diagonal
//! block in the root task; one task per non-null block of row `k` (`fwd`) and of column
//! `k` (`bdiv`), a wait; one task per pair of non-null blocks `(i, k)`, `(k, j)` updating
//! block `(i, j)` (`bmod`, allocating it when it was null: fill-in), a wait.
//!
//! The matrix is BOTS's `genmat`: the same null structure and the same linear
//! congruential numbers (`x ← 3125 x mod 65536`, value `(x − 32768) / 16384`, from
//! `x = 1325`, or from the seed given). Two departures, both for the residual check: the
//! numbers are `f64` (BOTS uses `float`), and each diagonal block's diagonal gets the
//! row's absolute sum times `n`, as the SPEC OMP 2012 variant of BOTS does, which makes
//! the matrix diagonally dominant so that LU without pivoting is stable.

use crate::Counts;

/// SparseLU's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The size of a block (BOTS `-m`).
    pub block: usize,
}

impl Default for Config {
    /// The paper's `-m 30`.
    fn default() -> Config {
        Config { block: 30 }
    }
}

/// A block matrix: `n × n` blocks of `m × m` numbers, row-major, `None` for a null block.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    /// Blocks per dimension (BOTS `-n`).
    pub n: usize,
    /// Numbers per block dimension (BOTS `-m`).
    pub m: usize,
    /// The `n · n` blocks, row by row; each `m · m` numbers, row by row.
    pub blocks: Vec<Option<Vec<f64>>>,
}

impl Matrix {
    /// The block in row `i` and column `j`.
    pub fn block(&self, i: usize, j: usize) -> Option<&[f64]> {
        self.blocks.get(i * self.n + j)?.as_deref()
    }

    /// The null structure: `true` where a block is present.
    pub fn structure(&self) -> Vec<bool> {
        self.blocks.iter().map(Option::is_some).collect()
    }

    /// Present blocks.
    pub fn present(&self) -> usize {
        self.blocks.iter().filter(|b| b.is_some()).count()
    }
}

/// Whether BOTS's `genmat` leaves block `(ii, jj)` null.
pub fn is_null(ii: usize, jj: usize) -> bool {
    if ii == jj || ii + 1 == jj || jj + 1 == ii {
        return false;
    }
    (ii < jj && !ii.is_multiple_of(3))
        || (ii > jj && !jj.is_multiple_of(3))
        || ii % 2 == 1
        || jj % 2 == 1
}

/// BOTS's `genmat` for `n × n` blocks of `cfg.block` numbers, the numbers from the
/// congruential generator started at `seed` (BOTS: 1325), made diagonally dominant.
pub fn input(n: usize, cfg: &Config, seed: u64) -> Matrix {
    let m = cfg.block;
    let mut x = (seed % 65536) as u32;
    let mut blocks = Vec::with_capacity(n * n);
    for ii in 0..n {
        for jj in 0..n {
            if is_null(ii, jj) {
                blocks.push(None);
                continue;
            }
            let mut b = vec![0.0; m * m];
            for i in 0..m {
                let mut rowsum = 0.0;
                for j in 0..m {
                    x = (3125 * x) % 65536;
                    let v = (f64::from(x) - 32768.0) / 16384.0;
                    b[i * m + j] = v;
                    rowsum += v.abs();
                }
                if ii == jj {
                    b[i * m + i] = rowsum * n as f64 + b[i * m + i].abs();
                }
            }
            blocks.push(Some(b));
        }
    }
    Matrix { n, m, blocks }
}

/// BOTS's `lu0`: LU of a diagonal block in place (unit lower part below the diagonal).
pub fn lu0(diag: &mut [f64], m: usize) {
    for k in 0..m {
        for i in k + 1..m {
            let l = diag[i * m + k] / diag[k * m + k];
            diag[i * m + k] = l;
            for j in k + 1..m {
                diag[i * m + j] -= l * diag[k * m + j];
            }
        }
    }
}

/// BOTS's `fwd`: `col ← L⁻¹ col`, with `L` the unit lower part of `diag` (a block of the
/// diagonal's row).
pub fn fwd(diag: &[f64], col: &mut [f64], m: usize) {
    for k in 0..m {
        for i in k + 1..m {
            let l = diag[i * m + k];
            for j in 0..m {
                col[i * m + j] -= l * col[k * m + j];
            }
        }
    }
}

/// BOTS's `bdiv`: `row ← row U⁻¹`, with `U` the upper part of `diag` (a block of the
/// diagonal's column).
pub fn bdiv(diag: &[f64], row: &mut [f64], m: usize) {
    for i in 0..m {
        for k in 0..m {
            let r = row[i * m + k] / diag[k * m + k];
            row[i * m + k] = r;
            for j in k + 1..m {
                row[i * m + j] -= r * diag[k * m + j];
            }
        }
    }
}

/// BOTS's `bmod`: `inner ← inner − row · col`.
pub fn bmod(row: &[f64], col: &[f64], inner: &mut [f64], m: usize) {
    for i in 0..m {
        for k in 0..m {
            let r = row[i * m + k];
            let (c, t) = (&col[k * m..(k + 1) * m], &mut inner[i * m..(i + 1) * m]);
            for (t, c) in t.iter_mut().zip(c) {
                *t -= r * c;
            }
        }
    }
}

/// The creates and waits of the traced kernel on a matrix with this null `structure`
/// (`n · n` flags, row-major; `true` for a present block): per `k`, one task per present
/// block right of and below the diagonal and a wait, then one task per present pair
/// `(i, k)`, `(k, j)` and a wait, with fill-in added to the structure as it goes.
pub fn counts(n: usize, structure: &[bool]) -> Counts {
    let mut s = structure.to_vec();
    s.resize(n * n, false);
    let mut c = Counts::default();
    for k in 0..n {
        let row: Vec<usize> = (k + 1..n).filter(|&j| s[k * n + j]).collect();
        let col: Vec<usize> = (k + 1..n).filter(|&i| s[i * n + k]).collect();
        c += Counts::scope((row.len() + col.len()) as u64);
        c += Counts::scope((row.len() * col.len()) as u64);
        for &i in &col {
            for &j in &row {
                s[i * n + j] = true;
            }
        }
    }
    c
}

/// Checks the factors in `lu` against `original`: `‖A − L·U‖_F / ‖A‖_F` over all present
/// blocks of `lu` (a block null in `lu` is null in `A` and in `L·U`), below `1e-10`.
/// Returns the relative residual.
pub fn verify(original: &Matrix, lu: &Matrix) -> Result<f64, String> {
    use rayon::prelude::*;
    let (n, m) = (lu.n, lu.m);
    if original.n != n
        || original.m != m
        || lu.blocks.len() != n * n
        || original.blocks.len() != n * n
    {
        return Err("the factored matrix does not have the original's shape".into());
    }
    for (idx, b) in original.blocks.iter().enumerate() {
        if b.is_some() && lu.blocks[idx].is_none() {
            return Err(format!("block ({}, {}) disappeared", idx / n, idx % n));
        }
    }
    let sums: Vec<(f64, f64)> = (0..n * n)
        .into_par_iter()
        .map(|idx| {
            let (ii, jj) = (idx / n, idx % n);
            if lu.block(ii, jj).is_none() {
                return (0.0, 0.0);
            }
            let mut p = vec![0.0; m * m];
            for k in 0..ii.min(jj) {
                if let (Some(l), Some(u)) = (lu.block(ii, k), lu.block(k, jj)) {
                    for i in 0..m {
                        for kk in 0..m {
                            let r = l[i * m + kk];
                            for j in 0..m {
                                p[i * m + j] += r * u[kk * m + j];
                            }
                        }
                    }
                }
            }
            let k = ii.min(jj);
            // L(ii, k) · U(k, jj) with the diagonal block's unit-lower or upper part.
            let (l_diag, u_diag) = (ii == k, jj == k);
            let (lb, ub) = (lu.block(ii, k), lu.block(k, jj));
            if let (Some(l), Some(u)) = (lb, ub) {
                for i in 0..m {
                    for kk in 0..m {
                        let r = if l_diag {
                            match i.cmp(&kk) {
                                std::cmp::Ordering::Less => 0.0,
                                std::cmp::Ordering::Equal => 1.0,
                                std::cmp::Ordering::Greater => l[i * m + kk],
                            }
                        } else {
                            l[i * m + kk]
                        };
                        if r == 0.0 {
                            continue;
                        }
                        for j in 0..m {
                            let v = if u_diag && j < kk { 0.0 } else { u[kk * m + j] };
                            p[i * m + j] += r * v;
                        }
                    }
                }
            }
            let a = original.block(ii, jj);
            let mut err = 0.0;
            let mut norm = 0.0;
            for (idx, &pv) in p.iter().enumerate() {
                let av = a.map_or(0.0, |a| a[idx]);
                err += (av - pv) * (av - pv);
                norm += av * av;
            }
            (err, norm)
        })
        .collect();
    let (err, norm) = sums
        .iter()
        .fold((0.0, 0.0), |(e, n), &(a, b)| (e + a, n + b));
    let rel = if norm > 0.0 {
        (err / norm).sqrt()
    } else {
        err.sqrt()
    };
    if rel.is_finite() && rel < 1e-10 {
        Ok(rel)
    } else {
        Err(format!(
            "relative residual ‖A − L·U‖/‖A‖ = {rel:e} (must be below 1e-10)"
        ))
    }
}

/// The kernel, on the `join` and `scope` given.
macro_rules! kernel {
    ($join:path, $scope:path) => {
        pub use $crate::sparselu::{Config, Matrix};

        /// Factors `mat` in place: `L` (unit lower, not stored on the diagonal) and `U`,
        /// allocating fill-in blocks.
        pub fn run(mat: &mut Matrix) {
            let (n, m) = (mat.n, mat.m);
            if mat.blocks.len() != n * n {
                return;
            }
            for kk in 0..n {
                let (top, bottom) = mat.blocks.split_at_mut((kk + 1) * n);
                let (row_left, row_right) = top[kk * n..].split_at_mut(kk + 1);
                let diag = row_left[kk].get_or_insert_with(|| vec![0.0; m * m]);
                $crate::sparselu::lu0(diag, m);
                let diag: &[f64] = diag;
                $scope(|s| {
                    for blk in row_right.iter_mut() {
                        if let Some(b) = blk.as_mut() {
                            s.spawn(move |_| $crate::sparselu::fwd(diag, b, m));
                        }
                    }
                    for row in bottom.chunks_mut(n) {
                        if let Some(b) = row[kk].as_mut() {
                            s.spawn(move |_| $crate::sparselu::bdiv(diag, b, m));
                        }
                    }
                });
                let row_right: &[Option<Vec<f64>>] = row_right;
                $scope(|s| {
                    for row in bottom.chunks_mut(n) {
                        let (left, right) = row.split_at_mut(kk + 1);
                        let Some(a) = left[kk].as_deref() else {
                            continue;
                        };
                        for (inner, col) in right.iter_mut().zip(row_right) {
                            if let Some(col) = col.as_deref() {
                                s.spawn(move |_| {
                                    let inner = inner.get_or_insert_with(|| vec![0.0; m * m]);
                                    $crate::sparselu::bmod(a, col, inner, m);
                                });
                            }
                        }
                    }
                });
            }
        }
    };
}
pub(crate) use kernel;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structure_as_bots() {
        // BOTS's structure for n = 6: x present, . null.
        let want = ["xxx.x.", "xxx...", "xxxx..", "..xxx.", "x..xxx", "....xx"];
        for (ii, row) in want.iter().enumerate() {
            for (jj, ch) in row.chars().enumerate() {
                assert_eq!(!is_null(ii, jj), ch == 'x', "({ii}, {jj})");
            }
        }
    }

    #[test]
    fn serial_factorisation_verifies() {
        let cfg = Config { block: 4 };
        let a = input(7, &cfg, 1325);
        let mut lu = a.clone();
        crate::plain::sparselu::run(&mut lu);
        assert!(lu.present() > a.present(), "fill-in expected");
        let r = verify(&a, &lu).unwrap();
        assert!(r < 1e-13, "{r}");
        // A wrong factor is caught.
        if let Some(Some(b)) = lu.blocks.get_mut(1) {
            b[0] += 1.0;
        }
        assert!(verify(&a, &lu).is_err());
    }
}
