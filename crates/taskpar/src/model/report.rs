//! The accuracy of a model on test runs: the paper's error |actual − predicted|/actual per
//! run, for each chained component, the time and the direct regression, with medians per
//! application.

use serde::Serialize;

use super::data::Run;
use super::error::PredictError;
use super::fitted::Model;
use super::predict::{chain, direct, input};

/// Relative errors |actual − predicted|/actual, one per quantity (`None` where the actual
/// value is 0 or the quantity was not recorded).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Errors {
    /// T1'(n).
    pub work_serial: Option<f64>,
    /// create_task(n).
    pub create_task: Option<f64>,
    /// wait_tasks(n).
    pub wait_tasks: Option<f64>,
    /// T1(n, p).
    pub work: Option<f64>,
    /// delay(n, p).
    pub delay: Option<f64>,
    /// no_work(n, p).
    pub no_work: Option<f64>,
    /// T∞(n).
    pub span: Option<f64>,
    /// The two-step model's time against the elapsed time.
    pub time: Option<f64>,
    /// The direct regression's time against the elapsed time.
    pub direct: Option<f64>,
    /// The two-step model's time against the untraced run's elapsed time (when measured).
    pub untraced: Option<f64>,
    /// The direct regression's time against the untraced run's elapsed time.
    pub direct_untraced: Option<f64>,
}

impl Errors {
    /// The quantities by name, in the chain's order.
    pub fn named(&self) -> [(&'static str, Option<f64>); 11] {
        [
            ("work_serial", self.work_serial),
            ("create_task", self.create_task),
            ("wait_tasks", self.wait_tasks),
            ("work", self.work),
            ("delay", self.delay),
            ("no_work", self.no_work),
            ("span", self.span),
            ("time", self.time),
            ("direct", self.direct),
            ("untraced", self.untraced),
            ("direct_untraced", self.direct_untraced),
        ]
    }
}

/// One test run against its prediction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowReport {
    /// The application.
    pub app: String,
    /// The size.
    pub n: f64,
    /// The workers.
    pub p: f64,
    /// The measured elapsed time.
    pub actual: f64,
    /// The two-step model's time.
    pub predicted: f64,
    /// The direct regression's time.
    pub direct: f64,
    /// The calibrated 90% interval of the two-step model's time ([`fit::interval`]).
    pub interval: Option<fit::interval::Interval>,
    /// Whether the measured elapsed time lies inside it.
    pub inside: Option<bool>,
    /// The relative errors.
    pub errors: Errors,
}

/// The median errors of one application's runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AppMedians {
    /// The application.
    pub app: String,
    /// Its runs.
    pub rows: usize,
    /// Its runs' coverage by their calibrated intervals.
    pub coverage: fit::interval::Coverage,
    /// The median of each quantity's errors (over the runs where it is defined).
    pub median: Errors,
}

/// A model's accuracy on test runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// One entry per run, in order.
    pub rows: Vec<RowReport>,
    /// Medians per application, in order of first appearance.
    pub medians: Vec<AppMedians>,
    /// The share of runs inside their calibrated intervals and the intervals' median width.
    pub coverage: fit::interval::Coverage,
}

/// The coverage of the calibrated intervals of `rows`.
pub(crate) fn coverage(rows: &[RowReport]) -> fit::interval::Coverage {
    fit::interval::Coverage::of(
        &rows
            .iter()
            .map(|r| (r.predicted, r.interval.clone(), r.actual))
            .collect::<Vec<_>>(),
    )
}

fn relative(actual: f64, predicted: f64) -> Option<f64> {
    (actual.is_finite() && actual != 0.0 && predicted.is_finite())
        .then(|| ((actual - predicted) / actual).abs())
}

/// The model's relative errors on `runs`, per run and as medians per application.
///
/// # Errors
/// [`PredictError`] for a run at which the model cannot predict (n or p out of range).
pub fn report(model: &Model, runs: &[Run]) -> Result<Report, PredictError> {
    let mut rows = Vec::with_capacity(runs.len());
    for r in runs {
        let x = input(model, r.n, r.p)?;
        let c = chain(model, None, x, r.p);
        let d = direct(model, x, r.p);
        let interval = super::predict::predict(model, r.n, r.p)?.calibrated;
        rows.push(RowReport {
            inside: interval.as_ref().map(|i| i.contains(r.elapsed)),
            interval,
            app: r.app.clone(),
            n: r.n,
            p: r.p,
            actual: r.elapsed,
            predicted: c.time,
            direct: d,
            errors: Errors {
                work_serial: relative(r.work_serial, c.serial),
                create_task: relative(r.create_task, c.create_task),
                wait_tasks: relative(r.wait_tasks, c.wait_tasks),
                work: relative(r.work, c.work),
                delay: relative(r.delay, c.delay),
                no_work: relative(r.no_work, c.no_work),
                span: match (r.span, c.span) {
                    (Some(a), Some(p)) => relative(a, p),
                    _ => None,
                },
                time: relative(r.elapsed, c.time),
                direct: relative(r.elapsed, d),
                untraced: r.elapsed_untraced.and_then(|u| relative(u, c.time)),
                direct_untraced: r.elapsed_untraced.and_then(|u| relative(u, d)),
            },
        });
    }
    let mut apps: Vec<String> = Vec::new();
    for r in &rows {
        if !apps.contains(&r.app) {
            apps.push(r.app.clone());
        }
    }
    let medians = apps
        .into_iter()
        .map(|app| {
            let mine: Vec<&RowReport> = rows.iter().filter(|r| r.app == app).collect();
            let med = |f: &dyn Fn(&Errors) -> Option<f64>| {
                let v: Vec<f64> = mine.iter().filter_map(|r| f(&r.errors)).collect();
                stats::median(&v)
            };
            AppMedians {
                coverage: fit::interval::Coverage::of(
                    &mine
                        .iter()
                        .map(|r| (r.predicted, r.interval.clone(), r.actual))
                        .collect::<Vec<_>>(),
                ),
                rows: mine.len(),
                median: Errors {
                    work_serial: med(&|e| e.work_serial),
                    create_task: med(&|e| e.create_task),
                    wait_tasks: med(&|e| e.wait_tasks),
                    work: med(&|e| e.work),
                    delay: med(&|e| e.delay),
                    no_work: med(&|e| e.no_work),
                    span: med(&|e| e.span),
                    time: med(&|e| e.time),
                    direct: med(&|e| e.direct),
                    untraced: med(&|e| e.untraced),
                    direct_untraced: med(&|e| e.direct_untraced),
                },
                app,
            }
        })
        .collect();
    let coverage = coverage(&rows);
    Ok(Report {
        rows,
        medians,
        coverage,
    })
}
