//! A sweep over process counts: the counts as a user gives them (`1..64`, `1,2,4,8`, or
//! `P=…` as every method's parameters), their space within the limits, the one-process
//! baseline and the point function ([`Setup::scaling`]), and the sweep's reports.
//!
//! Messages name the inputs by neutral keys, as [`diag::Advice`] does: `{procs}` for the
//! process counts, `{define}` for a parameter binding.
//!
//! ```
//! use taskgraph::analysis::scaling::{parse_procs, Sweep};
//! use taskgraph::analysis::{policy::PolicyKind, setup::Setup};
//! let g = taskgraph::read_json(r#"{"tasks": [
//!     {"id": "A", "time": 2}, {"id": "B", "time": 3, "preds": ["A"]},
//!     {"id": "C", "time": 5, "preds": ["A"]}, {"id": "D", "time": 1, "preds": ["B", "C"]}
//! ]}"#).unwrap();
//! let procs = parse_procs("P=1..2").unwrap();
//! assert_eq!(procs.counts, [1, 2]);
//! let setup = Setup { policy: PolicyKind::Fifo, system: None };
//! let sweep = Sweep::new(&setup, &g, &procs).unwrap();
//! let base = sweep.baseline().unwrap();
//! let mut out = [0.0; 5];
//! sweep.point(&base, &[2.0], &mut out).unwrap();
//! assert_eq!(out[..2], [8.0, 11.0 / 8.0]);
//! ```

use expr::grid::{parse_binding, Values};
use expr::{Name, Rational};
use sweep::{Space, SpaceError};

use super::explain::{sweep_json, sweep_text, Labels};
use super::setup::{Baseline, Setup, SCALING_COLUMNS};
use super::AnalysisError;
use crate::TaskGraph;

/// The most process counts in one sweep.
pub const MAX_POINTS: usize = 4096;
/// The largest process count.
pub const MAX_PROCS: usize = 1 << 20;

/// Process counts as given: the counts, or, past [`MAX_POINTS`], their number (a limit the
/// sweep refuses with [`ScalingError::TooMany`], not a malformed value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Procs {
    /// The counts, in order (empty past the limit).
    pub counts: Vec<usize>,
    /// The number of counts given, when past [`MAX_POINTS`].
    pub too_many: Option<String>,
}

/// Parses process counts: `1..64`, `1..64:4`, `1,2,4,8` or `8`, or the same after `P=`.
///
/// # Errors
/// A message (naming inputs by `{procs}` and `{define}`) for another parameter, a value
/// that is not a range or list, or counts that are not whole numbers from 1 to
/// [`MAX_PROCS`].
pub fn parse_procs(s: &str) -> Result<Procs, String> {
    let s = match s.split_once('=') {
        Some((name, values)) if name.trim() == "P" || name.trim() == "p" => values.trim(),
        Some((name, _)) => {
            return Err(format!(
                "the task-graph analysis has one parameter, P (the number of processes), not \
                 `{}`: give `{{define}} P=8` or `{{procs}} 8`",
                diag::literal(name.trim())
            ))
        }
        None => s,
    };
    let (_, values) = parse_binding(&format!("P={s}")).map_err(|_| {
        let s = diag::literal(s);
        format!("`{s}` is not a process count, range (1..64, 1..64:4) or list (1,2,4,8)")
    })?;
    let exact = values.count().to_string();
    let count = exact.parse::<u64>().unwrap_or(u64::MAX);
    if count > MAX_POINTS as u64 {
        return Ok(Procs {
            counts: Vec::new(),
            too_many: Some(exact),
        });
    }
    let mut counts = Vec::with_capacity(count as usize);
    for k in 0..count {
        let v = values
            .get(k)
            .ok_or_else(|| format!("`{}`: bad range", diag::literal(s)))?;
        let p = expr::number::to_f64(&v);
        if !(v.is_integer() && p >= 1.0) || p > MAX_PROCS as f64 {
            return Err(format!(
                "`{}`: process counts must be whole numbers from 1 to {MAX_PROCS}",
                diag::literal(s)
            ));
        }
        counts.push(p as usize);
    }
    Ok(Procs {
        counts,
        too_many: None,
    })
}

/// Why a sweep over process counts cannot start; the messages name inputs by `{key}`s.
#[derive(Debug, thiserror::Error)]
pub enum ScalingError {
    /// More counts than [`MAX_POINTS`].
    #[error("{{procs}} has {count} process counts, more than the limit of {max}")]
    TooMany {
        /// How many were given.
        count: String,
        /// [`MAX_POINTS`].
        max: usize,
    },
    /// No counts.
    #[error("{{procs}} is required, e.g. {{procs}} 1..64")]
    Empty,
    /// The counts do not make a space.
    #[error(transparent)]
    Space(SpaceError),
}

impl diag::Advise for ScalingError {
    fn advice(&self) -> Option<diag::Advice> {
        Some(match self {
            ScalingError::TooMany { .. } => diag::Advice::fix("use fewer values or coarser steps"),
            _ => diag::Advice::usage(""),
        })
    }

    /// The text with its input keys spelt.
    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        diag::spell_keys(&self.to_string(), spell)
    }
}

/// The one-process run of a sweep failed.
#[derive(Debug, thiserror::Error)]
#[error("the P = 1 run (the speedup baseline) failed: {0}")]
pub struct BaselineError(pub AnalysisError);

impl diag::Advise for BaselineError {
    fn advice(&self) -> Option<diag::Advice> {
        self.0.advice()
    }
}

/// A sweep of a graph over process counts with one setup.
pub struct Sweep<'a> {
    setup: &'a Setup,
    g: &'a TaskGraph,
    /// The counts as a one-axis space (`procs`).
    pub space: Space,
}

impl<'a> Sweep<'a> {
    /// The sweep of `g` with `setup` over `procs`.
    ///
    /// # Errors
    /// [`ScalingError`]: too many counts or none.
    pub fn new(setup: &'a Setup, g: &'a TaskGraph, procs: &Procs) -> Result<Self, ScalingError> {
        if let Some(count) = &procs.too_many {
            return Err(ScalingError::TooMany {
                count: count.clone(),
                max: MAX_POINTS,
            });
        }
        if procs.counts.is_empty() {
            return Err(ScalingError::Empty);
        }
        let values = procs
            .counts
            .iter()
            .map(|&p| Rational::from_integer((p as i64).into()))
            .collect();
        let axis = vec![(Name::from("procs"), Values::List(values))];
        let space = Space::new(axis, MAX_POINTS as u64).map_err(ScalingError::Space)?;
        Ok(Sweep { setup, g, space })
    }

    /// The one-process makespan the speedups are measured against.
    ///
    /// # Errors
    /// [`BaselineError`]: the one-process analysis failed.
    pub fn baseline(&self) -> Result<Baseline, BaselineError> {
        self.setup.baseline(self.g).map_err(BaselineError)
    }

    /// The columns of a point ([`SCALING_COLUMNS`]).
    pub fn columns(&self) -> Vec<String> {
        SCALING_COLUMNS.map(String::from).to_vec()
    }

    /// The figures at the process count `p[0]` ([`Setup::scaling`]) into `out`.
    ///
    /// # Errors
    /// As [`Setup::scaling`].
    pub fn point(&self, base: &Baseline, p: &[f64], out: &mut [f64]) -> Result<(), AnalysisError> {
        let figures = self.setup.scaling(self.g, p[0] as usize, base)?;
        out.copy_from_slice(&figures);
        Ok(())
    }

    /// The report as text ([`sweep_text`]) or JSON ([`sweep_json`]) of the rows in `table`.
    pub fn report(
        &self,
        labels: &Labels,
        base: &Baseline,
        table: &sweep::Sample,
        json: bool,
    ) -> String {
        match json {
            false => sweep_text(self.g, labels, base, table),
            true => super::explain::pretty(&sweep_json(self.g, labels, base, table.rows())),
        }
    }

    /// The title of the sweep's plot (the speedup against P).
    pub fn plot_title(labels: &Labels) -> String {
        format!("{}: speedup vs P, policy {}", labels.graph, labels.policy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_ranges_lists_and_the_p_binding() {
        assert_eq!(parse_procs("1..4:2").unwrap().counts, [1, 3]);
        assert_eq!(parse_procs("p = 2,8").unwrap().counts, [2, 8]);
        assert_eq!(
            parse_procs("1..5000").unwrap().too_many.as_deref(),
            Some("5000")
        );
        assert!(parse_procs("n=4").unwrap_err().contains("{define} P=8"));
        assert!(parse_procs("0").unwrap_err().contains("from 1 to"));
        assert!(parse_procs("1.5").unwrap_err().contains("whole numbers"));
        assert!(parse_procs("x")
            .unwrap_err()
            .contains("not a process count"));
    }

    #[test]
    fn a_sweep_refuses_too_many_counts_and_none() {
        let g = crate::read_json(r#"{"tasks": [{"id": "A", "time": 1}]}"#).unwrap();
        let setup = Setup {
            policy: super::super::policy::PolicyKind::Fifo,
            system: None,
        };
        let many = parse_procs("1..5000").unwrap();
        let e = Sweep::new(&setup, &g, &many).err().unwrap();
        assert_eq!(
            e.to_string(),
            "{procs} has 5000 process counts, more than the limit of 4096"
        );
        let none = Procs {
            counts: Vec::new(),
            too_many: None,
        };
        assert!(matches!(
            Sweep::new(&setup, &g, &none),
            Err(ScalingError::Empty)
        ));
    }
}
