//! The design matrix of a regression: one row per observation, one column per basis
//! function, checked once.

use nalgebra::DMatrix;

use crate::FitError;

/// A checked design matrix: finite values, at least one row and one column.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    pub(crate) m: DMatrix<f64>,
}

impl Design {
    /// The design of `rows` (one per observation, each as long as the first).
    ///
    /// # Errors
    /// [`FitError::Empty`], [`FitError::Ragged`], [`FitError::NotFinite`].
    pub fn from_rows(rows: &[Vec<f64>]) -> Result<Design, FitError> {
        let n = rows.len();
        let k = rows.first().map_or(0, Vec::len);
        if n == 0 || k == 0 {
            return Err(FitError::Empty {
                rows: n,
                columns: k,
            });
        }
        for (i, r) in rows.iter().enumerate() {
            if r.len() != k {
                return Err(FitError::Ragged {
                    row: i,
                    len: r.len(),
                    expected: k,
                });
            }
            if let Some(&v) = r.iter().find(|v| !v.is_finite()) {
                return Err(FitError::NotFinite {
                    what: "row",
                    index: i,
                    value: v,
                });
            }
        }
        Ok(Design {
            m: DMatrix::from_fn(n, k, |i, j| rows[i][j]),
        })
    }

    /// The design whose column `j` is `columns[j]` (all as long as the first).
    ///
    /// # Errors
    /// As [`Design::from_rows`].
    pub fn from_columns(columns: &[Vec<f64>]) -> Result<Design, FitError> {
        let k = columns.len();
        let n = columns.first().map_or(0, Vec::len);
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                columns
                    .iter()
                    .map(|c| c.get(i).copied().unwrap_or(f64::NAN))
                    .collect()
            })
            .collect();
        if k > 0 && columns.iter().any(|c| c.len() != n) {
            let (j, c) = columns
                .iter()
                .enumerate()
                .find(|(_, c)| c.len() != n)
                .expect("found above");
            return Err(FitError::Ragged {
                row: j,
                len: c.len(),
                expected: n,
            });
        }
        Design::from_rows(&rows)
    }

    /// Observations.
    pub fn rows(&self) -> usize {
        self.m.nrows()
    }

    /// Basis functions.
    pub fn columns(&self) -> usize {
        self.m.ncols()
    }

    /// The value at row `i`, column `j`.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.m[(i, j)]
    }

    /// The rows `rows` of the design, in that order (a cross-validation fold).
    pub fn select_rows(&self, rows: &[usize]) -> Design {
        Design {
            m: self.m.select_rows(rows),
        }
    }

    /// The predictions `X·coefficients`.
    pub fn predict(&self, coefficients: &[f64]) -> Vec<f64> {
        (0..self.rows())
            .map(|i| {
                (0..self.columns())
                    .map(|j| self.m[(i, j)] * coefficients[j])
                    .sum()
            })
            .collect()
    }
}

/// Checks that `y` matches the design and is finite.
pub(crate) fn check_observations(x: &Design, y: &[f64]) -> Result<(), FitError> {
    if y.len() != x.rows() {
        return Err(FitError::Shape {
            rows: x.rows(),
            observations: y.len(),
        });
    }
    if let Some((i, &v)) = y.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(FitError::NotFinite {
            what: "observation",
            index: i,
            value: v,
        });
    }
    Ok(())
}
