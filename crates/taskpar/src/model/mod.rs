//! The two-step model (work, delay, no_work sub-models chained as the paper's Fig. 5).
//!
//! Namsraijav and Taura predict time(n, p) of a task-parallel program from the identity
//! `T1 + delay + no_work = p·elapsed` (eq. 8): six small regressions on the statistics of
//! traced runs at small n and p, chained and recombined as `time = (T1 + delay + no_work)/p`
//! (eq. 9).
//!
//! * [`read_runs`]: the runs (`n, p, work, work_serial, delay, no_work, create_task,
//!   wait_tasks, elapsed`, optionally `app, rep, span`) from CSV text, with located errors;
//! * [`train`]: T1'(n), create_task(n), wait_tasks(n), T1(n, p), delay(n, p) and
//!   no_work(n, p) (eqs. 10–15), each a positive Lasso-LARS on scaled columns with α by
//!   K-fold cross-validation (folds of whole sizes, shuffled with a seed); an intercept in
//!   the task counts and a span-based no_work ([`NoWorkForm`]) when the validation error
//!   prefers them ([`Selection`]: by default forward, each of the three largest sizes
//!   predicted from those below); the span T∞(n); a direct log-log regression as the baseline; bootstrap
//!   replicates for intervals;
//! * [`predict`]: time and components at (n, p), the baseline beside it, an interval, the
//!   work and span laws, and warnings;
//! * [`report`]: relative errors on test runs, per component and per application;
//! * [`to_json`] and [`from_json`]: the model file;
//! * the front door: a [`Policy`] of training choices, [`fit_app`] (which application),
//!   [`predict_grid`] (n × p) and [`report_apps`] (each application on its test runs).
//!
//! Beyond the paper, by default ([`TrainOptions::paper`] turns each off): rows weighted for
//! relative errors (plain least squares fits the largest runs only), the Lasso's selected
//! terms refitted without its shrinkage and pruned from the fastest-growing down by F tests
//! at 5% (a noise term of 1% in n³ at the largest training size is 5× the time at 8× the
//! size), and a power law c·n^a offered beside the basis of each size model (work between
//! the basis terms, such as Strassen's n^2.81 or fib's φ^n, is missed by a growing factor
//! outside the training sizes), and the forms chosen by how they extrapolate (forward
//! validation; shuffled folds mostly interpolate and choose forms that bend beyond the
//! largest size). On data from eqs. 10–15 with 3% noise, trained on p ≤ 8 and n ≤ 2^16, the
//! time at p = 36 and n = 2^19 is within 10% for 59 of 60 seeds this way, for 18 of 60 with
//! the paper's settings. [`TrainOptions::pmnf_search`] adds the `fit` engine's PMNF search
//! (a constant and up to two terms `n^a·log2(n)^j`) as a size-model candidate.
//!
//! The library reads text and returns typed results; it prints nothing and opens no file.

mod bootstrap;
mod cv_curve;
mod data;
pub mod equations;
mod error;
pub mod features;
mod file;
mod fitted;
mod front;
mod options;
mod plot;
mod pmnf;
mod predict;
mod regress;
mod report;
mod show;
mod train;

pub use data::{read_runs, Column, Need, Run, TrainingSet};
pub use error::{PredictError, TrainError};
pub use features::{Feature, Inputs, Transform};
pub use file::{from_json, is_model_file, to_json, ModelFileError, FORMAT, VERSION};
pub use fitted::{
    Candidate, Choice, Coefs, Confound, Domain, IntervalMethod, Model, Replicate, SubModel,
};
pub use front::{
    check_plot, fit_app, grid_values, kept_file, model_path, predict_grid, read_model, report_apps,
    AppsReport, BadTransform, FrontError, NoWorkRule, Policy, TransformRule, MAX_CSV, MAX_MODEL,
    MAX_POINTS,
};
pub use options::{AlphaRule, NoWorkForm, Selection, TrainOptions, Weighting, MAX_BOOTSTRAP};
pub use plot::{measured_plot, prediction_plot};
pub use predict::{predict, Bounds, Prediction};
pub use report::{report, AppMedians, Errors, Report, RowReport};
pub use show::{
    fit_document, model_text, prediction_text, predictions_document, report_document, report_text,
    sorted_json,
};
pub use train::train;
