//! The thesis' numerical prediction (section 3.5, eq. 3.21): a collective's time at
//! `(p, d)` read off the measurements themselves, interpolated linearly in `d` within the
//! measured row of `p` (extrapolated from the two nearest sizes beyond the measured ones);
//! and the symbolic one, the fitted models.

use crate::model::OpModel;
use crate::table::{Group, Statistic};

/// What a skeleton's collectives cost: the time of `op` at `(p, d)`, or why not.
pub trait Costs {
    /// The time of one `op` on `p` processes with `d` (0 without data), or a reason.
    fn time(&self, op: &str, p: f64, d: f64) -> Result<f64, String>;
}

/// The measurements as costs: each operation's real (not time-shared) cells.
#[derive(Clone, Debug)]
pub struct Interpolated {
    groups: Vec<Group>,
    statistic: Statistic,
}

impl Interpolated {
    /// Costs from `groups` (time-shared ones are ignored unless an operation has no other),
    /// each cell standing for its `statistic`.
    pub fn new(groups: Vec<Group>, statistic: Statistic) -> Interpolated {
        Interpolated { groups, statistic }
    }
}

/// Linear interpolation through `(x, y)` points sorted by `x` (two or more), extrapolated
/// from the two nearest beyond either end.
pub fn linear(points: &[(f64, f64)], x: f64) -> f64 {
    let n = points.len();
    if n == 1 {
        return points[0].1;
    }
    let k = points.partition_point(|&(px, _)| px < x).clamp(1, n - 1);
    let ((x0, y0), (x1, y1)) = (points[k - 1], points[k]);
    y0 + (x - x0) / (x1 - x0) * (y1 - y0)
}

impl Costs for Interpolated {
    fn time(&self, op: &str, p: f64, d: f64) -> Result<f64, String> {
        let group = self
            .groups
            .iter()
            .filter(|g| g.op == op)
            .min_by_key(|g| g.shared)
            .ok_or_else(|| format!("the measurements have no {op}"))?;
        let row: Vec<(f64, f64)> = group
            .cells
            .iter()
            .filter(|c| f64::from(c.p) == p)
            .map(|c| (c.d.unwrap_or(0.0), c.value(self.statistic)))
            .collect();
        if row.is_empty() {
            let ps: Vec<String> = group
                .cells
                .iter()
                .map(|c| c.p)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .map(|p| p.to_string())
                .collect();
            let shared = self
                .groups
                .iter()
                .any(|g| g.op == op && g.shared && g.cells.iter().any(|c| f64::from(c.p) == p));
            return Err(format!(
                "no measurement at p = {p} (measured at p = {}{}); the numerical method reads \
                 the row of p",
                ps.join(", "),
                if shared {
                    "; at this p only time-shared runs, which are not used"
                } else {
                    ""
                }
            ));
        }
        Ok(linear(&row, d))
    }
}

/// The fitted models as costs: each operation's chosen model.
#[derive(Clone, Debug)]
pub struct Modelled<'a> {
    /// The models, one per operation (the first real one of an operation is used).
    pub models: &'a [OpModel],
}

impl Modelled<'_> {
    fn model(&self, op: &str) -> Option<&OpModel> {
        self.models
            .iter()
            .filter(|m| m.group.op == op && m.best().is_some())
            .min_by_key(|m| m.group.shared)
    }

    /// The chosen model of `op` as an expression in `p` and `d`, if it has one regime.
    pub fn expr(&self, op: &str) -> Option<expr::Expr> {
        let c = self.model(op)?.best()?;
        // The coefficients as printed (seven digits, decimal), so the formula reads as the
        // models do.
        (c.pieces.len() == 1)
            .then(|| expr::parse(&c.form.text(&c.pieces[0].coefficients)).ok())
            .flatten()
    }
}

impl Costs for Modelled<'_> {
    fn time(&self, op: &str, p: f64, d: f64) -> Result<f64, String> {
        let m = self.model(op).ok_or_else(|| format!("no model of {op}"))?;
        Ok(m.best().expect("a chosen model").predict(p, d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq_3_21_gather_of_75_integers_on_16_t3d_processors() {
        // Table 3-10, p = 16: d = 10 → 367.2 µs, d = 100 → 403.4 µs; the thesis' example
        // gives 393.3 µs for d = 75.
        let v = linear(
            &[(1.0, 340.0), (10.0, 367.2), (100.0, 403.4), (1000.0, 800.0)],
            75.0,
        );
        assert!((v - 393.34).abs() < 0.01, "{v}");
        // Beyond the last size: the last two points' line.
        assert_eq!(linear(&[(1.0, 1.0), (2.0, 2.0)], 4.0), 4.0);
        assert_eq!(linear(&[(1.0, 1.0), (2.0, 2.0)], 0.0), 0.0);
    }
}
