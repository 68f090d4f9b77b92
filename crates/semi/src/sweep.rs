//! Predictions over a grid of parameter values, on the shared sweep runner
//! ([`sweep::run`]): the point function and the columns are the engine's, the grid, the
//! chunked evaluation and the sinks (CSV, JSON, table, line plot) are the runner's.

use std::sync::Mutex;

use sweep::{LineSpec, LinesConfig};

use crate::fitting::fit_for;
use crate::instantiate::Bindings;
use crate::lang::Model;
use crate::predict::{predict, PredictError, PredictOptions};
use crate::samples::{SampleSet, SamplesError};
use crate::sim::{EventCosts, Options};

/// The columns of a point: the predicted time, the threads' time summed by what it was
/// spent on (`imbalance` is the part of `barrier_wait` that is load imbalance,
/// [`crate::sim::ThreadTimes::imbalance`]), and Θ.
pub const COLUMNS: [&str; 9] = [
    "time",
    "compute",
    "barrier_wait",
    "imbalance",
    "lock_wait",
    "join_wait",
    "recv_wait",
    "event_costs",
    "theta",
];

/// Coefficient values by name.
pub type Coefficients = Vec<(String, f64)>;

/// Coefficients per value of the processor-count parameter (`None`: for every value).
pub type ByValue = Vec<(Option<f64>, Coefficients)>;

/// The coefficients of a sweep whose grid has the values `values` of the processor-count
/// parameter `by`: per value, fitted to the samples at that value ([`fit_for`]); with no
/// values (`by` is not swept), one fit to every sample, for every point. The second part is
/// the fits' notes, each once.
///
/// # Errors
/// As [`fit_for`], at the first value whose fit fails.
pub fn fit_per_value<C: EventCosts>(
    model: &Model,
    samples: &SampleSet,
    by: &str,
    values: &[f64],
    costs: &C,
    opts: &PredictOptions,
) -> Result<(ByValue, Vec<String>), SamplesError> {
    let values: Vec<Option<f64>> = if values.is_empty() {
        vec![None]
    } else {
        values.iter().copied().map(Some).collect()
    };
    let (mut coeffs, mut notes) = (Vec::with_capacity(values.len()), Vec::new());
    for value in values {
        let (fitted, note) = fit_for(model, samples, by, value, costs, opts)?;
        if let Some(n) = note {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
        coeffs.push((value, fitted.coefficients));
    }
    Ok((coeffs, notes))
}

/// A model to sweep: its coefficients (per value of the processor-count parameter, when
/// they were fitted per value), the event costs and the options.
pub struct Sweep<'a, C: EventCosts> {
    /// The model.
    pub model: &'a Model,
    /// The names of the swept point's coordinates, in order.
    pub names: Vec<String>,
    /// The coefficients for each value of the parameter `by` (`None`: for every value).
    pub coeffs: ByValue,
    /// The processor-count parameter: it selects the coefficients and, unless
    /// `opts.sim.processors` is set below `usize::MAX`, the processors.
    pub by: String,
    /// The event costs.
    pub costs: &'a C,
    /// The prediction's options.
    pub opts: PredictOptions,
    /// How many points run at once: each gets `opts.limits.max_ops` divided by it, so that
    /// the sweep as a whole stays within the limit a single prediction has.
    pub at_once: usize,
    /// The samples the coefficients were fitted to, for the cache-level warning.
    pub samples: Option<&'a SampleSet>,
    /// The machine profile, for the cache-level warning.
    pub profile: Option<&'a probe::Profile>,
    /// What the points said: the events whose costs are extrapolated beyond the profile,
    /// each once, and the cache-level mismatches by point ([`Sweep::warnings`]).
    pub said: Mutex<Said>,
}

/// What a sweep's points said ([`Sweep::said`]).
#[derive(Debug, Default)]
pub struct Said {
    /// The warnings about the samples (uneven sizes), each once, given before the run.
    pub notes: Vec<String>,
    /// The points' notes (events beyond the profile), each once, in the order they came
    /// (points run in parallel: [`Sweep::warnings`] sorts them).
    pub point_notes: Vec<String>,
    /// The points whose working set lies in another memory level than their samples': the
    /// point's values, its text and the mismatch, in the order they came.
    pub mismatches: Vec<(Vec<f64>, String, crate::memory_level::Mismatch)>,
    /// Whether a point's graph had branches (its time is one random draw).
    pub branches: bool,
}

impl<C: EventCosts + Sync> Sweep<'_, C> {
    /// Predicts point `p` into `out` ([`COLUMNS`]).
    ///
    /// # Errors
    /// The prediction's error as text (the runner names the point).
    pub fn point(&self, p: &[f64], out: &mut [f64]) -> Result<(), String> {
        let params = crate::point::named(&self.names, p);
        let at = params.iter().find(|(k, _)| *k == self.by).map(|x| x.1);
        let coeffs = self
            .coeffs
            .iter()
            .find(|(v, _)| v.is_none() || *v == at)
            .map(|x| x.1.clone())
            .ok_or_else(|| {
                format!(
                    "no coefficients for {}={}: no samples there",
                    self.by,
                    at.unwrap_or(f64::NAN)
                )
            })?;
        let given = (self.opts.sim.processors != usize::MAX).then_some(self.opts.sim.processors);
        let processors = crate::point::processors(given, &self.by, &params);
        let share = (self.opts.limits.max_ops / self.at_once.max(1) as u64).max(1);
        let opts = PredictOptions {
            sim: Options {
                processors,
                ..self.opts.sim
            },
            limits: crate::instantiate::Limits {
                max_ops: share,
                ..self.opts.limits
            },
            ..self.opts
        };
        let pred =
            predict(self.model, &Bindings { params, coeffs }, self.costs, &opts).map_err(|e| {
                match e {
                    PredictError::Model(m)
                        if m.kind == crate::lang::ErrorKind::Limit && self.at_once > 1 =>
                    {
                        format!(
                        "{m} (the sweep predicts {} points at once, each within {share} of the \
                         {} ops)",
                        self.at_once, self.opts.limits.max_ops
                    )
                    }
                    other => other.to_string(),
                }
            })?;
        let mismatch = match (self.samples, self.profile) {
            (Some(set), Some(profile)) => {
                let (used, _) = set.for_prediction(&self.by, at);
                crate::memory_level::mismatch(self.model, profile, &used, &pred.params)
                    .map_err(|e| e.to_string())?
            }
            _ => None,
        };
        if !pred.notes.is_empty() || mismatch.is_some() || pred.branches {
            let mut said = self.said.lock().unwrap_or_else(|e| e.into_inner());
            said.branches |= pred.branches;
            for n in &pred.notes {
                if !said.point_notes.contains(n) {
                    said.point_notes.push(n.clone());
                }
            }
            if let Some(m) = mismatch {
                let text = crate::point::point_text(&pred.params);
                said.mismatches.push((p.to_vec(), text, m));
            }
        }
        let o = &pred.outcome;
        let sum = |f: fn(&crate::sim::ThreadTimes) -> f64| o.threads.iter().map(f).sum::<f64>();
        let values = [
            o.time,
            sum(|t| t.compute),
            sum(|t| t.barrier_wait),
            sum(|t| t.imbalance),
            sum(|t| t.lock_wait),
            sum(|t| t.join_wait),
            sum(|t| t.recv_wait),
            sum(|t| t.events),
            o.events as f64,
        ];
        out.copy_from_slice(&values);
        Ok(())
    }
}

impl<C: EventCosts> Sweep<'_, C> {
    /// The warnings of the points predicted so far, as `predict` and `validate` give them:
    /// the samples that do not divide over their processors, the events whose costs are
    /// extrapolated beyond the machine profile, each once, then the cache-level
    /// mismatches, one per cause ([`crate::memory_level::grouped`]). The same for every run
    /// of the same sweep: the points' notes sorted, the mismatches in the points' order.
    pub fn warnings(&self) -> Vec<String> {
        let said = self.said.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = said.notes.clone();
        let mut notes = said.point_notes.clone();
        notes.sort();
        out.extend(notes.into_iter().filter(|n| !said.notes.contains(n)));
        let mut found: Vec<&(Vec<f64>, String, crate::memory_level::Mismatch)> =
            said.mismatches.iter().collect();
        found.sort_by(|a, b| {
            let mut order = a.0.iter().zip(&b.0).map(|(x, y)| x.total_cmp(y));
            order
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let found: Vec<(String, crate::memory_level::Mismatch)> = found
            .into_iter()
            .map(|(_, t, m)| (t.clone(), m.clone()))
            .collect();
        out.extend(crate::memory_level::grouped(&found));
        if said.branches {
            out.push(format!(
                "the model has branches: each point's time is one random draw of their arms \
                 (seed {}), not their expectation",
                self.opts.sim.seed
            ));
        }
        out
    }
}

/// The rows of a sweep's text table: an even sample of at most 60 of its points.
pub fn table(space: &sweep::Space) -> sweep::Sample {
    sweep::Sample::new(space.len(), 60)
}

/// The columns of a point as the sweep runner names them ([`COLUMNS`]).
pub fn columns() -> Vec<String> {
    COLUMNS.map(String::from).to_vec()
}

/// The text table of the rows kept of a sweep over `space` ([`text_columns`]).
pub fn table_text(space: &sweep::Space, rows: &sweep::Sample) -> String {
    rows.table(&text_columns(space)).render("")
}

/// The title of the plot of a sweep of the model `model` over `space`, and its x axis: the
/// first swept parameter.
pub fn plot_labels<'a>(model: &str, space: &'a sweep::Space) -> (String, &'a str) {
    let x = space.axes().first().map_or("", |a| &**a.name());
    (format!("{model}: predicted time"), x)
}

/// The text table's columns: the swept parameters, then every column of [`COLUMNS`], each
/// time in seconds (Θ is a count).
pub fn text_columns(space: &sweep::Space) -> Vec<sweep::TextColumn<'_>> {
    let mut cols = sweep::TextColumn::swept(space);
    for (k, c) in COLUMNS.iter().enumerate() {
        let heading = if *c == "theta" {
            (*c).to_string()
        } else {
            format!("{c} (s)")
        };
        cols.push(sweep::TextColumn::num(heading, k));
    }
    cols
}

/// The line plot of a sweep: the predicted time over the first swept parameter, a line
/// per combination of the others.
pub fn lines() -> LinesConfig {
    LinesConfig {
        series: vec![LineSpec::new(0, "predicted time")],
        ..LinesConfig::default()
    }
}
