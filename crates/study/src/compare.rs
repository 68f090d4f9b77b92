//! Every method whose inputs a study holds, confronted with the held-out measurements, and
//! the method to trust chosen from the training data alone.
//!
//! The methods: `fit` on the measured times (its `vates` and `extrap` modelers); the
//! two-step model of `taskpar` and its direct-regression baseline (training rows); replay of
//! a test size's recording on one worker through `taskgraph` at each worker count (kept
//! DAGs); the semi-empirical model (a thread graph named by the study, its samples and the
//! machine's profile). Each predicts every test point (the median of its repetitions is
//! the measurement); a method whose inputs are missing or that fails says why.
//!
//! The recommendation is made before the test points are looked at: each method is
//! trained on the training sizes below the largest and predicts the largest (forward
//! validation, as the two-step model chooses its forms); the one with the smallest median
//! error there is recommended, with that error as its self-assessment. Replay, which
//! needs no training, is assessed on the largest training size's recording, when kept.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::file::Campaign;

/// The methods, by their names in the report.
pub const METHODS: [&str; 6] = [
    "fit-vates",
    "fit-extrap",
    "two-step",
    "direct",
    "replay",
    "semi",
];

/// The fewest bootstrap replicates that make an interval (a central 95% of fewer is two
/// or three of them).
pub const MIN_BOOTSTRAP: usize = 20;

/// A point: a size and a worker count.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Point {
    /// The size.
    pub n: f64,
    /// The worker count.
    pub p: u32,
}

/// What a study gives the methods.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// The study's name (its application).
    pub study: String,
    /// The size's and the worker count's names.
    pub names: (String, String),
    /// Training times: (point, seconds) per run.
    pub train_times: Vec<(Point, f64)>,
    /// Test times.
    pub test_times: Vec<(Point, f64)>,
    /// `taskpar` training rows of the training runs.
    pub train_rows: Option<taskpar::model::TrainingSet>,
    /// The size transform of the two-step model (`n=2^n`).
    pub transform: Option<taskpar::model::Transform>,
    /// Kept DAG files, with their point and set (`true`: test).
    pub dags: Vec<(Point, bool, PathBuf)>,
    /// The semi-empirical model, its samples and the machine's profile.
    pub semi: Option<SemiInputs>,
    /// Why the semi-empirical model named by the study could not be read, if so.
    pub semi_missing: Option<String>,
    /// Bootstrap replicates of the intervals.
    pub bootstrap: usize,
    /// The seed of every random choice.
    pub seed: u64,
}

/// The semi-empirical method's inputs.
#[derive(Clone, Debug)]
pub struct SemiInputs {
    /// The thread graph.
    pub model: semi::lang::Model,
    /// The samples of the training runs.
    pub samples: semi::samples::SampleSet,
    /// The machine's profile (event costs).
    pub profile: Option<probe::Profile>,
}

/// One predicted test point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PointResult {
    /// The point as text (`n=30, p=2`).
    pub point: String,
    /// The size.
    pub n: f64,
    /// The worker count.
    pub p: u32,
    /// The prediction, seconds.
    pub predicted: f64,
    /// Its interval, when the method gives one.
    pub interval: Option<[f64; 2]>,
    /// The measurement: the median of the point's repetitions, seconds.
    pub measured: f64,
    /// |predicted − measured| / measured.
    pub error: f64,
}

/// One method's outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodResult {
    /// Its name ([`METHODS`]).
    pub method: &'static str,
    /// Why it was not applied (missing inputs, a failure), if it was not.
    pub skipped: Option<String>,
    /// The median error over the test points.
    pub median_error: Option<f64>,
    /// The largest.
    pub max_error: Option<f64>,
    /// Its median error in forward validation inside the training data.
    pub self_assessed_error: Option<f64>,
    /// How the self-assessment was made, or why there is none.
    pub self_assessment: String,
    /// The test points.
    pub points: Vec<PointResult>,
}

/// The method recommended from the training data alone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recommendation {
    /// The method.
    pub method: &'static str,
    /// Why.
    pub why: String,
    /// Its median error in forward validation.
    pub self_assessed_error: f64,
    /// Its median error on the test points.
    pub actual_error: Option<f64>,
    /// The method with the smallest test error, and that error.
    pub best_method: Option<&'static str>,
    /// The smallest test error.
    pub best_error: Option<f64>,
}

/// The comparison of a study: the schema `docs/cli.md` documents.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The study's name.
    pub study: String,
    /// The size's and the worker count's names.
    pub parameters: [String; 2],
    /// The training sizes.
    pub training_sizes: Vec<f64>,
    /// The test points (each the median of its repetitions).
    pub test_points: usize,
    /// Every method, applied or not.
    pub methods: Vec<MethodResult>,
    /// The recommendation, when any method could be assessed.
    pub recommended: Option<Recommendation>,
    /// Where methods disagree, and why where it can be told.
    pub notes: Vec<String>,
}

/// A method's predictions at some points, trained on some runs.
type Predict = Result<Vec<(f64, Option<[f64; 2]>)>, String>;

/// The distinct points of `runs` with the median of each one's times, in order.
fn medians(runs: &[(Point, f64)]) -> Vec<(Point, f64)> {
    let mut by: BTreeMap<(u64, u32), (Point, Vec<f64>)> = BTreeMap::new();
    for (pt, t) in runs {
        by.entry((pt.n.to_bits(), pt.p))
            .or_insert_with(|| (*pt, Vec::new()))
            .1
            .push(*t);
    }
    let mut out: Vec<(Point, f64)> = by
        .into_values()
        .map(|(p, t)| (p, stats::median(&t).unwrap_or(f64::NAN)))
        .collect();
    out.sort_by(|a, b| a.0.n.total_cmp(&b.0.n).then(a.0.p.cmp(&b.0.p)));
    out
}

/// The training data restricted to sizes below `limit` (all, when `None`).
#[derive(Clone)]
struct Training<'a> {
    inputs: &'a Inputs,
    below: Option<f64>,
}

impl Training<'_> {
    fn keep(&self, n: f64) -> bool {
        self.below.is_none_or(|b| n < b)
    }

    fn times(&self) -> Vec<(Point, f64)> {
        self.inputs
            .train_times
            .iter()
            .filter(|(p, _)| self.keep(p.n))
            .copied()
            .collect()
    }
}

/// Fewer distinct worker counts than this: `fit` models each worker count's times in n
/// alone (a PMNF term in p needs more values of p to be told from noise).
pub const MIN_WORKER_COUNTS: usize = 3;

/// `fit` on the times: a PMNF model of seconds in n and p when the runs have at least
/// [`MIN_WORKER_COUNTS`] worker counts, else one model in n per worker count; in the
/// study's size transform (`n=2^n`: the model is in 2^n).
fn fit_times(t: &Training<'_>, points: &[Point], modeler: fit::run::Modeler) -> Predict {
    let tr = t.inputs.transform.unwrap_or_default();
    let n_name = &t.inputs.names.0;
    let moved = |q: &Point| -> Result<Point, String> {
        let n = tr.apply(q.n);
        if !n.is_finite() {
            return Err(format!(
                "the size transform 2^{n_name} overflows at {n_name} = {}",
                q.n
            ));
        }
        Ok(Point { n, p: q.p })
    };
    let runs = t
        .times()
        .into_iter()
        .map(|(q, s)| Ok((moved(&q)?, s)))
        .collect::<Result<Vec<_>, String>>()?;
    let points = points
        .iter()
        .map(moved)
        .collect::<Result<Vec<_>, String>>()?;
    if runs.is_empty() {
        return Err("no training times".into());
    }
    let mut ps: Vec<u32> = runs.iter().map(|(q, _)| q.p).collect();
    ps.sort_unstable();
    ps.dedup();
    // One size shows no growth: a model of it is a constant, certain to be wrong beyond it.
    let original = t.times();
    let apart = ps.len() < MIN_WORKER_COUNTS;
    for p in std::iter::once(None).chain(ps.iter().map(|&p| apart.then_some(p))) {
        let mut sizes: Vec<f64> = original
            .iter()
            .filter(|(q, _)| p.is_none_or(|p| q.p == p))
            .map(|(q, _)| q.n)
            .collect();
        sizes.sort_by(f64::total_cmp);
        sizes.dedup();
        if let [n] = sizes[..] {
            let on = p
                .map(|p| format!(" on {p} worker{}", if p == 1 { "" } else { "s" }))
                .unwrap_or_default();
            return Err(format!(
                "one training size{on} ({n_name} = {}): a model in {n_name} needs two or more",
                trace::text::num(n)
            ));
        }
    }
    if ps.len() >= MIN_WORKER_COUNTS {
        return fit_model(t, &runs, &points, modeler, true);
    }
    // One model per worker count, each predicting its own points.
    let mut out = vec![(f64::NAN, None); points.len()];
    for p in ps.iter().copied().chain(points.iter().map(|q| q.p)) {
        let idx: Vec<usize> = (0..points.len()).filter(|&i| points[i].p == p).collect();
        if idx.is_empty() || !out[idx[0]].0.is_nan() {
            continue;
        }
        let mine: Vec<(Point, f64)> = runs.iter().filter(|(q, _)| q.p == p).copied().collect();
        if mine.is_empty() {
            return Err(format!(
                "no training runs on {p} workers (fitted per worker count: the runs have {} of them)",
                ps.len()
            ));
        }
        let at: Vec<Point> = idx.iter().map(|&i| points[i]).collect();
        for (i, v) in idx
            .into_iter()
            .zip(fit_model(t, &mine, &at, modeler, false)?)
        {
            out[i] = v;
        }
    }
    Ok(out)
}

/// One `fit` model of `runs` (in n, and p when `with_p`) predicting `points`.
fn fit_model(
    t: &Training<'_>,
    runs: &[(Point, f64)],
    points: &[Point],
    modeler: fit::run::Modeler,
    with_p: bool,
) -> Predict {
    let (n_name, p_name) = &t.inputs.names;
    let mut text = match with_p {
        true => format!("{n_name},{p_name},seconds\n"),
        false => format!("{n_name},seconds\n"),
    };
    for (q, s) in runs {
        match with_p {
            true => text.push_str(&format!("{},{},{s}\n", q.n, q.p)),
            false => text.push_str(&format!("{},{s}\n", q.n)),
        }
    }
    let opts = fit::read::csv::CsvOptions {
        metrics: vec!["seconds".into()],
        ..Default::default()
    };
    let name = format!("{}-times", t.inputs.study);
    let e =
        fit::read::read(fit::read::Format::Csv, &name, &text, &opts).map_err(|e| e.to_string())?;
    let job = fit::job::Job {
        points: points
            .iter()
            .map(|q| match with_p {
                true => format!("{n_name}={},{p_name}={}", q.n, q.p),
                false => format!("{n_name}={}", q.n),
            })
            .collect(),
        options: fit::run::RunOptions {
            modeler,
            bootstrap: t.inputs.bootstrap,
            seed: t.inputs.seed,
            ..Default::default()
        },
        ..fit::job::Job::new(e)
    };
    let fitted = job.run().map_err(|e| e.to_string())?;
    let entries = fitted.entries();
    let entry = entries.first().ok_or("no model")?;
    Ok(entry
        .predictions
        .iter()
        .map(|p| (p.value, p.calibrated.as_ref().map(|i| [i.lower, i.upper])))
        .collect())
}

/// The two-step model (or its direct baseline) trained on the training rows.
fn two_step(t: &Training<'_>, points: &[Point], direct: bool) -> Predict {
    let rows = t
        .inputs
        .train_rows
        .as_ref()
        .ok_or("no training rows (a task-parallel runtime's train.csv)")?;
    let set = taskpar::model::TrainingSet::new(
        rows.runs.iter().filter(|r| t.keep(r.n)).cloned().collect(),
    );
    let policy = taskpar::model::Policy {
        paper: false,
        no_work: None,
        selection: taskpar::model::Selection::default(),
        pmnf_search: false,
        bootstrap: t.inputs.bootstrap,
        seed: t.inputs.seed,
        transforms: t
            .inputs
            .transform
            .map(|transform| taskpar::model::TransformRule {
                app: None,
                transform,
                text: String::new(),
            })
            .into_iter()
            .collect(),
    };
    let model = taskpar::model::fit_app(&set, None, &policy).map_err(|e| e.to_string())?;
    points
        .iter()
        .map(|q| {
            let pr =
                taskpar::model::predict(&model, q.n, f64::from(q.p)).map_err(|e| e.to_string())?;
            Ok(if direct {
                (pr.direct, None)
            } else {
                (pr.time, pr.calibrated.as_ref().map(|i| [i.lower, i.upper]))
            })
        })
        .collect()
}

/// Replay: the recording at (n, 1) of the given set scheduled on p workers.
fn replay(inputs: &Inputs, points: &[Point], test: bool) -> Predict {
    points
        .iter()
        .map(|q| {
            let (_, _, path) = inputs
                .dags
                .iter()
                .find(|(d, is_test, _)| d.n == q.n && d.p == 1 && *is_test == test)
                .ok_or_else(|| {
                    format!(
                        "no recording at n = {} on one worker",
                        trace::text::num(q.n)
                    )
                })?;
            let rec = taskpar::dag::load(path, &taskpar::dag::Limits::default())
                .map_err(|e| e.to_string())?;
            let g = taskpar::replay::task_graph(&rec.graph(), 1.0 / rec.header.clock.frequency_hz)
                .map_err(|e| e.to_string())?;
            let setup = taskgraph::analysis::setup::Setup {
                policy: taskgraph::analysis::policy::PolicyKind::Fifo,
                system: None,
            };
            let run = setup
                .analyze(&g, q.p as usize, None)
                .map_err(|e| e.to_string())?;
            Ok((run.schedule.makespan, None))
        })
        .collect()
}

/// The semi-empirical model: its coefficients fitted to the samples (of sizes kept) at
/// each point's worker count, the point simulated.
fn semi_predict(t: &Training<'_>, points: &[Point]) -> Predict {
    if let Some(why) = &t.inputs.semi_missing {
        return Err(why.clone());
    }
    let s = t.inputs.semi.as_ref().ok_or(
        "no thread-graph model (`semi_model` under [compare]) or no samples (train-samples.csv)",
    )?;
    let (n_name, p_name) = &t.inputs.names;
    let at = s.samples.names.iter().position(|x| x == n_name);
    let mut samples = s.samples.clone();
    if let Some(k) = at {
        samples.samples.retain(|x| t.keep(x.params[k]));
        samples.runs.retain(|(p, _)| t.keep(p[k]));
    }
    if samples.samples.is_empty() {
        return Err("no samples below the largest training size".into());
    }
    points
        .iter()
        .map(|q| {
            let job = semi::job::Job {
                params: vec![(n_name.clone(), q.n), (p_name.clone(), f64::from(q.p))],
                samples: Some(samples.clone()),
                by: p_name.clone(),
                profile: s.profile.clone(),
                seed: t.inputs.seed,
                ..semi::job::Job::new(s.model.clone())
            };
            let done = job.predict().map_err(|e| e.to_string())?;
            Ok((
                done.prediction.outcome.time,
                done.interval.as_ref().map(|i| [i.lower, i.upper]),
            ))
        })
        .collect()
}

/// Predicts `points` with `method` trained on `t`.
fn predict(method: &str, t: &Training<'_>, points: &[Point], test: bool) -> Predict {
    match method {
        "fit-vates" => fit_times(t, points, fit::run::Modeler::Vates),
        "fit-extrap" => fit_times(t, points, fit::run::Modeler::Extrap),
        "two-step" => two_step(t, points, false),
        "direct" => two_step(t, points, true),
        "replay" => replay(t.inputs, points, test),
        _ => semi_predict(t, points),
    }
}

/// The predictions of `points` against their measurements.
fn scored(
    names: &(String, String),
    measured: &[(Point, f64)],
    predicted: &[(f64, Option<[f64; 2]>)],
) -> Vec<PointResult> {
    measured
        .iter()
        .zip(predicted)
        .map(|((q, m), (v, iv))| PointResult {
            point: format!("{}={}, {}={}", names.0, trace::text::num(q.n), names.1, q.p),
            n: q.n,
            p: q.p,
            predicted: *v,
            interval: *iv,
            measured: *m,
            error: (v - m).abs() / m,
        })
        .collect()
}

fn median_max(points: &[PointResult]) -> (Option<f64>, Option<f64>) {
    let e: Vec<f64> = points
        .iter()
        .map(|p| p.error)
        .filter(|e| e.is_finite())
        .collect();
    if e.is_empty() {
        return (None, None);
    }
    (
        stats::median(&e),
        Some(e.iter().copied().fold(0.0, f64::max)),
    )
}

/// The measured points of the training and test runs, each the median of its repetitions.
pub fn measured(inputs: &Inputs) -> Vec<(Point, f64)> {
    let mut all = inputs.train_times.clone();
    all.extend(inputs.test_times.iter().copied());
    medians(&all)
}

/// A method's forward validation inside the training data (rolling origin), at the
/// distance the test asks for: with `ratio` the smallest test size over the largest
/// training size (in the transformed size), each training size `s` is predicted from the
/// sizes at most `s / ratio` (from the sizes below it when the test lies no further out, or
/// when no size is that far below); replay, which trains on nothing, replays that size's
/// own recording on one worker. The median error over every point of every fold the method
/// could make, and how it was made.
fn self_assess(
    method: &str,
    inputs: &Inputs,
    train: &[(Point, f64)],
    sizes: &[f64],
    ratio: f64,
) -> (Option<f64>, String) {
    let (e, how) = assess(method, inputs, train, sizes, ratio);
    if e.is_some() || ratio <= 1.0 + 1e-9 {
        return (e, how);
    }
    // Too few sizes that far below for this method: one step, said so.
    match assess(method, inputs, train, sizes, 1.0) {
        (Some(e), near) => (
            Some(e),
            format!("{near} (too few sizes for the test's distance; a nearer extrapolation, so likely optimistic)"),
        ),
        _ => (e, how),
    }
}

/// [`self_assess`] at one distance.
fn assess(
    method: &str,
    inputs: &Inputs,
    train: &[(Point, f64)],
    sizes: &[f64],
    ratio: f64,
) -> (Option<f64>, String) {
    if sizes.len() < 2 {
        return (
            None,
            "one training size: nothing to validate forward".into(),
        );
    }
    let tr = inputs.transform.unwrap_or_default();
    // The first size not allowed to train a fold predicting `s`.
    let cutoff = |s: f64, ratio: f64| {
        sizes
            .iter()
            .copied()
            .find(|&x| tr.apply(x) * ratio > tr.apply(s) * (1.0 + 1e-9) || x >= s)
            .unwrap_or(s)
    };
    let far = ratio > 1.0 + 1e-9;
    let folds_at = |ratio: f64| -> Vec<(f64, f64)> {
        sizes
            .iter()
            .map(|&s| (s, cutoff(s, ratio)))
            .filter(|&(_, c)| c > sizes[0])
            .collect()
    };
    let mut plan = if far { folds_at(ratio) } else { Vec::new() };
    let distance = if plan.is_empty() {
        // The larger half, each from the sizes below it.
        let first = (sizes.len() / 2).max(1);
        plan = sizes[first..].iter().map(|&s| (s, s)).collect();
        "from the sizes below it".to_string()
    } else {
        format!(
            "from the sizes at least {}x below it, as far as the test lies beyond the training",
            trace::text::num((ratio * 10.0).round() / 10.0)
        )
    };
    let mut errors = Vec::new();
    let mut folds = Vec::new();
    let mut failed = None;
    for (size, below) in plan {
        let held: Vec<(Point, f64)> = train.iter().filter(|(p, _)| p.n == size).copied().collect();
        let points: Vec<Point> = held.iter().map(|(p, _)| *p).collect();
        let t = Training {
            inputs,
            below: (method != "replay").then_some(below),
        };
        match predict(method, &t, &points, false) {
            Ok(pred) => {
                errors.extend(scored(&inputs.names, &held, &pred).iter().map(|q| q.error));
                folds.push(trace::text::num(size));
            }
            Err(why) => failed = failed.or(Some(why)),
        }
    }
    let n = &inputs.names.0;
    if folds.is_empty() {
        let why = failed.unwrap_or_default();
        return (None, format!("forward validation failed: {why}"));
    }
    let how = match method {
        "replay" => format!(
            "the recordings on one worker at {n} = {} replayed at the training worker counts",
            folds.join(", ")
        ),
        _ => format!("{n} = {} each predicted {distance}", folds.join(", ")),
    };
    let e: Vec<f64> = errors.into_iter().filter(|e| e.is_finite()).collect();
    (stats::median(&e), how)
}

/// Compares every method on `inputs`.
pub fn compare(inputs: &Inputs) -> Comparison {
    let test = medians(&inputs.test_times);
    let test_points: Vec<Point> = test.iter().map(|(p, _)| *p).collect();
    let train = medians(&inputs.train_times);
    let mut sizes: Vec<f64> = train.iter().map(|(p, _)| p.n).collect();
    sizes.dedup();
    // How far beyond the training the test lies, in the transformed size.
    let tr = inputs.transform.unwrap_or_default();
    let ratio = match (
        test_points.iter().map(|q| q.n).reduce(f64::min),
        sizes.last(),
    ) {
        (Some(t), Some(&l)) if tr.apply(l) > 0.0 => (tr.apply(t) / tr.apply(l)).max(1.0),
        _ => 1.0,
    };
    let mut methods = Vec::new();
    for method in METHODS {
        let all = Training {
            inputs,
            below: None,
        };
        let (points, skipped) = if test_points.is_empty() {
            (Vec::new(), Some("the study has no test runs".to_string()))
        } else {
            match predict(method, &all, &test_points, true) {
                Ok(pred) => (scored(&inputs.names, &test, &pred), None),
                Err(why) => (Vec::new(), Some(why)),
            }
        };
        let (self_assessed_error, self_assessment) =
            self_assess(method, inputs, &train, &sizes, ratio);
        let (median_error, max_error) = median_max(&points);
        methods.push(MethodResult {
            method,
            skipped,
            median_error,
            max_error,
            self_assessed_error,
            self_assessment,
            points,
        });
    }
    let recommended = recommend(&methods);
    let notes = disagreements(&methods);
    Comparison {
        study: inputs.study.clone(),
        parameters: [inputs.names.0.clone(), inputs.names.1.clone()],
        training_sizes: sizes,
        test_points: test_points.len(),
        methods,
        recommended,
        notes,
    }
}

/// The applied method with the smallest self-assessed error.
fn recommend(methods: &[MethodResult]) -> Option<Recommendation> {
    let mut ranked: Vec<&MethodResult> = methods
        .iter()
        .filter(|m| m.skipped.is_none() && m.self_assessed_error.is_some_and(f64::is_finite))
        .collect();
    ranked.sort_by(|a, b| {
        a.self_assessed_error
            .unwrap_or(f64::INFINITY)
            .total_cmp(&b.self_assessed_error.unwrap_or(f64::INFINITY))
    });
    let best = ranked.first()?;
    let pct = |e: f64| format!("{:.1}%", 100.0 * e);
    let own = best.self_assessed_error.unwrap_or(f64::NAN);
    let mut why = format!(
        "in forward validation inside the training data ({}), its median error was {}",
        best.self_assessment,
        pct(own)
    );
    match ranked.get(1) {
        Some(next) => why.push_str(&format!(
            ", against {} for {}, the next",
            pct(next.self_assessed_error.unwrap_or(f64::NAN)),
            next.method
        )),
        None => why.push_str(", the only method that could be assessed"),
    }
    let tested: Vec<&MethodResult> = methods
        .iter()
        .filter(|m| m.median_error.is_some())
        .collect();
    let top = tested.iter().min_by(|a, b| {
        a.median_error
            .unwrap_or(f64::INFINITY)
            .total_cmp(&b.median_error.unwrap_or(f64::INFINITY))
    });
    Some(Recommendation {
        method: best.method,
        why,
        self_assessed_error: own,
        actual_error: best.median_error,
        best_method: top.map(|m| m.method),
        best_error: top.and_then(|m| m.median_error),
    })
}

/// Notes where two applied methods differ by more than half at a test point.
fn disagreements(methods: &[MethodResult]) -> Vec<String> {
    let applied: Vec<&MethodResult> = methods.iter().filter(|m| !m.points.is_empty()).collect();
    let mut notes = Vec::new();
    let by = |name: &str| applied.iter().find(|m| m.method == name).copied();
    if let (Some(two), Some(rep)) = (by("two-step"), by("replay")) {
        let over: Vec<&PointResult> = two
            .points
            .iter()
            .zip(&rep.points)
            .filter(|(a, b)| a.predicted > 1.5 * b.predicted)
            .map(|(a, _)| a)
            .collect();
        if let Some(first) = over.first() {
            notes.push(format!(
                "the two-step model predicts over 1.5× the replay at {} point(s) (first {}): its T1'(n) extrapolates a work growth the replay of the recording does not see",
                over.len(),
                first.point
            ));
        }
    }
    for m in &applied {
        // Off by more than 2x either way (an under-prediction's relative error is at most 1).
        let wide = m
            .points
            .iter()
            .filter(|p| p.predicted > 2.0 * p.measured || p.predicted < 0.5 * p.measured)
            .count();
        if wide > 0 {
            notes.push(format!(
                "{} is off by more than a factor of 2 at {wide} of {} test point(s)",
                m.method,
                m.points.len()
            ));
        }
    }
    notes
}

/// A bootstrap of `replicates` that gives no interval: more than none and fewer than
/// [`MIN_BOOTSTRAP`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}: an interval needs at least {MIN_BOOTSTRAP} replicates (0: none)")]
pub struct TooFewReplicates(pub usize);

/// Checks a count of bootstrap replicates: none, or at least [`MIN_BOOTSTRAP`].
///
/// # Errors
/// [`TooFewReplicates`].
pub fn check_bootstrap(replicates: usize) -> Result<(), TooFewReplicates> {
    match (1..MIN_BOOTSTRAP).contains(&replicates) {
        true => Err(TooFewReplicates(replicates)),
        false => Ok(()),
    }
}

/// Why a study cannot be compared: its folder, or its inputs.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The folder holds no study, or its campaign file is not valid.
    #[error(transparent)]
    Study(#[from] crate::folder::StudyError),
    /// Its files are not what a study holds.
    #[error(transparent)]
    Inputs(#[from] InputError),
}

impl diag::Advise for OpenError {
    /// What to do (none for a campaign file's located error).
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::fix(match self {
            OpenError::Study(crate::folder::StudyError::Campaign(_)) => return None,
            OpenError::Study(_) => "give a study folder: `vates campaign run` makes one",
            OpenError::Inputs(_) => "check the study's files (docs/cli.md, vates compare)",
        }))
    }
}

/// The methods' inputs of the study in `dir` ([`load`]), with `bootstrap` replicates for
/// the intervals and the seed `seed`.
///
/// # Errors
/// [`OpenError`].
pub fn open(dir: &Path, bootstrap: usize, seed: u64) -> Result<Inputs, OpenError> {
    let (c, _) = crate::folder::Study::load(dir)?;
    let mut inputs = load(dir, &c)?;
    inputs.bootstrap = bootstrap;
    inputs.seed = seed;
    Ok(inputs)
}

/// Why a study's inputs cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A file could not be read.
    #[error("cannot read `{}`: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A file's contents are not what the study holds.
    #[error("`{}`: {message}", path.display())]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The thread graph `[compare] semi_model` names is not a valid model: located in its
    /// text.
    #[error(transparent)]
    Model(Box<semi::lang::ModelError>),
    /// The study has no times of its test runs.
    #[error("the study `{}` has no test runs (test-times.csv is missing or has no rows): nothing to compare against", dir.display())]
    NoTest {
        /// The study.
        dir: PathBuf,
    },
}

/// The longest time a run may have taken, seconds (about 32 years): beyond it a value is a
/// unit mistake, not a measurement.
pub const MAX_SECONDS: f64 = 1e9;

/// The most bytes of a study file read.
pub const MAX_STUDY_FILE: u64 = 256 << 20;

/// The text of the study file `path` (`None` if there is none): read up to
/// [`MAX_STUDY_FILE`] bytes whatever the file is (a device never ends), refused when it
/// holds a NUL byte (not text) or is not UTF-8.
fn read_file(path: &Path) -> Result<Option<String>, InputError> {
    if !path.exists() {
        return Ok(None);
    }
    crate::text_file::read(path, MAX_STUDY_FILE)
        .map(Some)
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::InvalidData => InputError::Bad {
                path: path.to_path_buf(),
                message: error.to_string(),
            },
            _ => InputError::Io {
                path: path.to_path_buf(),
                error,
            },
        })
}

/// The runs of a times file (`n,p,seconds` in the study's names).
fn read_times(
    path: &Path,
    text: Option<&str>,
    names: &(String, String),
) -> Result<Vec<(Point, f64)>, InputError> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let bad = |message: String| InputError::Bad {
        path: path.to_path_buf(),
        message,
    };
    let mut lines = text.lines();
    let head: Vec<&str> = lines
        .next()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .collect();
    let col = |name: &str| {
        head.iter().position(|h| *h == name).ok_or_else(|| {
            bad(format!(
                "no column `{name}` (the header is `{}`)",
                head.join(",")
            ))
        })
    };
    let (cn, cp, cs) = (col(&names.0)?, col(&names.1)?, col("seconds")?);
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let num = |k: usize| {
            f.get(k)
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite())
        };
        let (Some(n), Some(p), Some(s)) = (num(cn), num(cp), num(cs)) else {
            let shown: String = line.chars().take(80).collect();
            let cut = if shown.len() < line.len() { "…" } else { "" };
            return Err(bad(format!(
                "line {}: `{shown}{cut}` is not {},{},seconds numbers",
                i + 2,
                names.0,
                names.1
            )));
        };
        if !(p >= 1.0 && p.fract() == 0.0 && p <= f64::from(u32::MAX)) {
            return Err(bad(format!(
                "line {}: {} = {}: a worker count is a whole number from 1",
                i + 2,
                names.1,
                trace::text::num(p)
            )));
        }
        if !(s > 0.0 && s <= MAX_SECONDS) {
            return Err(bad(format!(
                "line {}: {} seconds: a run's time is above 0 and at most {MAX_SECONDS:e} s",
                i + 2,
                trace::text::num(s)
            )));
        }
        out.push((Point { n, p: p as u32 }, s));
    }
    Ok(out)
}

/// The texts of a study's files (`None`: the study has no such file).
#[derive(Clone, Copy, Debug, Default)]
pub struct Texts<'a> {
    /// `train-times.csv`.
    pub train_times: Option<&'a str>,
    /// `test-times.csv`.
    pub test_times: Option<&'a str>,
    /// `train.csv`.
    pub train_rows: Option<&'a str>,
    /// `train-samples.csv`.
    pub train_samples: Option<&'a str>,
    /// `machine.json`.
    pub machine: Option<&'a str>,
    /// The thread graph `[compare] semi_model` names: its name and text.
    pub semi_model: Option<(&'a str, &'a str)>,
}

/// Reads the study in `dir` (its campaign `c`) into the methods' inputs.
///
/// # Errors
/// [`InputError`]: a file that cannot be read or is not what the study holds, no test
/// times.
pub fn load(dir: &Path, c: &Campaign) -> Result<Inputs, InputError> {
    let file = |name: &str| read_file(&dir.join(name));
    let (train_times, test_times) = (file("train-times.csv")?, file("test-times.csv")?);
    let (train_rows, train_samples) = (file("train.csv")?, file("train-samples.csv")?);
    let machine = file(crate::folder::MACHINE)?;
    // A model that cannot be read leaves the semi-empirical method out, with the reason.
    let mut semi_missing = None;
    let model = match &c.compare.semi_model {
        Some(m) => {
            let path = dir.join(m);
            match read_file(&path) {
                Ok(Some(text)) => Some((path.display().to_string(), text)),
                Ok(None) => {
                    semi_missing = Some(format!(
                        "the thread graph `{}` ([compare] semi_model, relative to the study) does not exist",
                        path.display()
                    ));
                    None
                }
                Err(e) => {
                    semi_missing = Some(e.to_string());
                    None
                }
            }
        }
        None => None,
    };
    let texts = Texts {
        train_times: train_times.as_deref(),
        test_times: test_times.as_deref(),
        train_rows: train_rows.as_deref(),
        train_samples: train_samples.as_deref(),
        machine: machine.as_deref(),
        semi_model: model.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
    };
    let mut inputs = from_texts(dir, c, &texts)?;
    inputs.semi_missing = semi_missing;
    let mut dags = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir.join("dags")) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pt) = dag_point(&c.name, &name) {
                // A kept DAG's set is the set whose plan has its point.
                let test = c
                    .test
                    .as_ref()
                    .is_some_and(|t| t.sizes.contains(&pt.n) && t.workers.contains(&pt.p))
                    && !(c.train.sizes.contains(&pt.n) && c.train.workers.contains(&pt.p));
                if name.ends_with("-r0.dag") {
                    dags.push((pt, test, e.path()));
                }
            }
        }
    }
    dags.sort_by(|a, b| a.2.cmp(&b.2));
    inputs.dags = dags;
    Ok(inputs)
}

/// The methods' inputs from the texts of a study's files (in `dir`, for messages) and its
/// campaign `c`.
///
/// # Errors
/// [`InputError`]: a file that is not what the study holds, no test times.
pub fn from_texts(dir: &Path, c: &Campaign, t: &Texts<'_>) -> Result<Inputs, InputError> {
    let names = (c.names.size.clone(), c.names.workers.clone());
    let bad = |name: &str, message: String| InputError::Bad {
        path: dir.join(name),
        message,
    };
    let train_times = read_times(&dir.join("train-times.csv"), t.train_times, &names)?;
    let test_times = read_times(&dir.join("test-times.csv"), t.test_times, &names)?;
    if test_times.is_empty() {
        return Err(InputError::NoTest {
            dir: dir.to_path_buf(),
        });
    }
    let train_rows = match t.train_rows {
        Some(text) => Some(
            taskpar::model::read_runs("train.csv", text)
                .map_err(|e| bad("train.csv", e.to_string()))?,
        ),
        None => None,
    };
    let profile = match t.machine {
        Some(text) => Some(
            probe::Profile::from_json(text)
                .map_err(|e| bad(crate::folder::MACHINE, e.to_string()))?,
        ),
        None => None,
    };
    let semi = match (t.semi_model, t.train_samples) {
        (Some((name, text)), Some(samples)) => {
            let model = semi::lang::parse(name, text).map_err(InputError::Model)?;
            let samples = semi::samples::read_samples(&model, "train-samples.csv", samples)
                .map_err(|e| bad("train-samples.csv", e.to_string()))?;
            Some(SemiInputs {
                model,
                samples,
                profile,
            })
        }
        _ => None,
    };
    Ok(Inputs {
        study: c.name.clone(),
        names,
        train_times,
        test_times,
        train_rows,
        transform: c.compare.transform,
        dags: Vec::new(),
        semi,
        semi_missing: None,
        bootstrap: fit::run::BOOTSTRAP_REPLICATES,
        seed: 1,
    })
}

/// The point of a kept DAG file's name (`APP-nN-pP-rR.dag`).
fn dag_point(app: &str, name: &str) -> Option<Point> {
    let rest = name.strip_prefix(app)?.strip_prefix("-n")?;
    let (n, rest) = rest.split_once("-p")?;
    let (p, _) = rest.split_once("-r")?;
    Some(Point {
        n: n.parse().ok()?,
        p: p.parse().ok()?,
    })
}
