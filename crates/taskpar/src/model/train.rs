//! Training: the six sub-models of the paper's Fig. 5 (plus the span and the direct
//! regression) fitted on a set of runs, the forms chosen by cross-validation, and the
//! bootstrap replicates behind the intervals.

use rayon::prelude::*;

use super::bootstrap::{self, Fits};
use super::data::{Run, TrainingSet};
use super::error::TrainError;
use super::features::{self, Feature, Inputs, Transform};
use super::file::{FORMAT, VERSION};
use super::fitted::{Candidate, Choice, Domain, IntervalMethod, Model, SubModel};
use super::options::{AlphaRule, NoWorkForm, TrainOptions, Weighting, MAX_BOOTSTRAP};
use super::pmnf;
use super::regress::{self, Cv, Spec};

fn check_run(i: usize, r: &Run, transform: Transform) -> Result<(), TrainError> {
    let bad = |message: String| TrainError::BadRun {
        row: i,
        n: r.n,
        p: r.p,
        message,
    };
    let values = [
        ("work", r.work),
        ("work_serial", r.work_serial),
        ("delay", r.delay),
        ("no_work", r.no_work),
        ("create_task", r.create_task),
        ("wait_tasks", r.wait_tasks),
        ("span", r.span.unwrap_or(0.0)),
    ];
    if !(r.n.is_finite() && r.n > 0.0) {
        return Err(bad("the size must be a positive number".into()));
    }
    let x = transform.apply(r.n);
    if !(x.is_finite() && x > 0.0) {
        return Err(bad(format!(
            "the size after the transform {} is not a finite positive number",
            transform.name()
        )));
    }
    if !(r.p.is_finite() && r.p >= 1.0) {
        return Err(bad("the worker count must be ≥ 1".into()));
    }
    for (name, v) in values {
        if !(v.is_finite() && v >= 0.0) {
            return Err(bad(format!("{name} = {v} is not a non-negative number")));
        }
    }
    if !(r.elapsed.is_finite() && r.elapsed > 0.0) {
        return Err(bad(format!(
            "elapsed = {} is not a positive time",
            r.elapsed
        )));
    }
    Ok(())
}

/// Distinct values of `v`, ascending.
fn distinct(v: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut out: Vec<f64> = v.collect();
    out.sort_by(f64::total_cmp);
    out.dedup();
    out
}

/// The candidate with the least out-of-fold error (the first on ties or when none could be
/// scored).
fn choose(candidates: Vec<SubModel>, sub_model: &str, fixed: bool) -> (SubModel, Choice) {
    let score = |s: &SubModel| s.cv_score.unwrap_or(f64::INFINITY);
    let best = (0..candidates.len())
        .min_by(|&a, &b| score(&candidates[a]).total_cmp(&score(&candidates[b])))
        .unwrap_or(0);
    let choice = Choice {
        sub_model: sub_model.to_string(),
        chosen: candidates[best].variant.clone(),
        candidates: candidates
            .iter()
            .map(|s| Candidate {
                variant: s.variant.clone(),
                cv_score: s.cv_score,
            })
            .collect(),
        fixed,
    };
    let chosen = candidates.into_iter().nth(best).expect("a candidate");
    (chosen, choice)
}

/// One regression's rows: inputs, targets, weights and sizes.
struct Rows<'a> {
    x: &'a [Inputs],
    y: Vec<f64>,
    w: Option<Vec<f64>>,
    groups: &'a [usize],
    /// A size model's rows: the runs' values at each row's size (empty otherwise).
    reps: Vec<Vec<f64>>,
}

/// How a candidate form of a sub-model is fitted.
enum Way<'s> {
    /// The Lasso on a basis ([`regress::fit`]).
    Lasso(Spec<'s>),
    /// The `fit` engine's PMNF search on a size model's rows ([`pmnf::fit`]).
    Search,
}

impl Rows<'_> {
    /// The runs' values of rows `rows`.
    fn reps_of(&self, rows: &[usize]) -> Vec<&[f64]> {
        rows.iter().map(|&i| self.reps[i].as_slice()).collect()
    }

    fn data(&self) -> regress::Data<'_> {
        regress::Data {
            x: self.x,
            y: &self.y,
            w: self.w.as_deref(),
            groups: self.groups,
        }
    }
}

/// The weights 1/|reference|, a reference below the smallest non-zero one counting as
/// that: a zero count (no tasks at the smallest size) must not take all the weight.
fn inverse(reference: &[f64]) -> Vec<f64> {
    let top = reference.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if !(top.is_finite() && top > 0.0) {
        return vec![1.0; reference.len()];
    }
    let floor = reference
        .iter()
        .map(|v| v.abs())
        .filter(|v| *v > 0.0)
        .fold(top, f64::min);
    reference.iter().map(|v| 1.0 / v.abs().max(floor)).collect()
}

/// The data each sub-model is fitted on.
struct Data<'a> {
    serial: Rows<'a>,
    create_task: Rows<'a>,
    wait_tasks: Rows<'a>,
    span: Option<Rows<'a>>,
    work: Rows<'a>,
    delay: Rows<'a>,
    no_work: Rows<'a>,
    direct: Rows<'a>,
}

/// Trains the two-step model on `set` (runs of one application).
///
/// The n-only models (T1', create_task, wait_tasks, T∞) are fitted on the median of each
/// size's runs; the others on every run, with the measured T1', counts and span as the
/// chained inputs (the paper's §4). Cross-validation folds hold whole sizes, shuffled
/// with the seed. Forms (an intercept in the counts, the no_work form) are chosen by the
/// out-of-fold error of the whole procedure.
///
/// # Errors
/// [`TrainError`]: no runs, runs of several applications, fewer than 3 sizes or 2 worker
/// counts, a value out of range, a feature overflowing, a regression failing.
pub fn train(set: &TrainingSet, opts: &TrainOptions) -> Result<Model, TrainError> {
    let mut model = train_chain(set, opts)?;
    model.calibration = forward_calibration(set, opts);
    Ok(model)
}

/// How many of the largest sizes the calibration predicts, each from the sizes below it.
const CALIBRATION_FOLDS: usize = 3;

/// The fewest sizes a calibration fold trains on, when the runs have more.
const FOLD_SIZES: usize = 4;

/// The calibration of the intervals ([`fit::interval`]): each of the
/// [`CALIBRATION_FOLDS`] largest training sizes predicted (at every worker count, against
/// the median of its runs' elapsed times) by the whole procedure trained on the sizes below
/// it (at least [`FOLD_SIZES`] when there are more, without a bootstrap), with its
/// distance beyond them in the model's input;
/// and the spread of the elapsed times of each (n, p)'s repetitions.
fn forward_calibration(set: &TrainingSet, opts: &TrainOptions) -> fit::interval::Calibration {
    let runs = &set.runs;
    let ns = distinct(runs.iter().map(|r| r.n));
    let t = opts.transform;
    let quick = TrainOptions {
        bootstrap: 0,
        ..opts.clone()
    };
    let mut held = Vec::new();
    // A fold trained on fewer sizes than the procedure needs to choose its forms by
    // forward validation (4: three below the size it predicts) trains another procedure
    // than the model's; such folds count only when the model itself had no more sizes.
    let fewest = FOLD_SIZES.min(ns.len().saturating_sub(1)).max(3);
    for k in ns.len().saturating_sub(CALIBRATION_FOLDS).max(fewest)..ns.len() {
        let below = TrainingSet::new(runs.iter().filter(|r| r.n < ns[k]).cloned().collect());
        let Ok(m) = train_chain(&below, &quick) else {
            continue;
        };
        let x = t.apply(ns[k]);
        let (lo, edge) = (t.apply(ns[0]), t.apply(ns[k - 1]));
        for p in distinct(runs.iter().filter(|r| r.n == ns[k]).map(|r| r.p)) {
            let times: Vec<f64> = runs
                .iter()
                .filter(|r| r.n == ns[k] && r.p == p)
                .map(|r| r.elapsed)
                .collect();
            let (Some(measured), true) = (stats::median(&times), p >= 1.0) else {
                continue;
            };
            let predicted = super::predict::chain(&m, None, x, p).time;
            held.push((predicted, measured, fit::interval::distance(x, lo, edge)));
        }
    }
    let mut groups: Vec<((f64, f64), Vec<f64>)> = Vec::new();
    for r in runs {
        match groups.iter_mut().find(|(k, _)| *k == (r.n, r.p)) {
            Some((_, g)) => g.push(r.elapsed),
            None => groups.push(((r.n, r.p), vec![r.elapsed])),
        }
    }
    fit::interval::Calibration::new(
        "forward validation",
        held,
        groups.iter().map(|(_, g)| g.as_slice()),
    )
}

fn train_chain(set: &TrainingSet, opts: &TrainOptions) -> Result<Model, TrainError> {
    let runs = &set.runs;
    if runs.is_empty() {
        return Err(TrainError::Empty);
    }
    let apps = set.apps();
    if apps.len() > 1 {
        return Err(TrainError::SeveralApps { apps });
    }
    for (i, r) in runs.iter().enumerate() {
        check_run(i, r, opts.transform)?;
    }
    let ns = distinct(runs.iter().map(|r| r.n));
    let ps = distinct(runs.iter().map(|r| r.p));
    if ns.len() < 3 {
        return Err(TrainError::TooFew {
            what: "sizes n",
            found: ns.len(),
            needed: 3,
        });
    }
    if ps.len() < 2 {
        return Err(TrainError::TooFew {
            what: "worker counts p",
            found: ps.len(),
            needed: 2,
        });
    }
    let has_span = runs.iter().all(|r| r.span.is_some());
    let t = opts.transform;
    let relative = opts.weighting == Weighting::Relative;
    let sizes: Vec<Inputs> = ns
        .iter()
        .map(|&n| Inputs {
            n: t.apply(n),
            p: 1.0,
            ..Inputs::default()
        })
        .collect();
    let rows: Vec<Inputs> = runs
        .iter()
        .map(|r| Inputs {
            n: t.apply(r.n),
            p: r.p,
            serial: r.work_serial,
            create_task: r.create_task,
            wait_tasks: r.wait_tasks,
            span: r.span.unwrap_or(0.0),
        })
        .collect();
    let size_groups: Vec<usize> = (0..ns.len()).collect();
    let run_groups: Vec<usize> = runs
        .iter()
        .map(|r| ns.partition_point(|&n| n < r.n))
        .collect();
    let mut by_size: Vec<Vec<&Run>> = vec![Vec::new(); ns.len()];
    for (r, &g) in runs.iter().zip(&run_groups) {
        by_size[g].push(r);
    }
    let per_size = |f: &dyn Fn(&Run) -> f64, reps: &dyn Fn(&[&Run]) -> Vec<f64>| -> Rows {
        let y: Vec<f64> = by_size
            .iter()
            .map(|group| {
                stats::median(&group.iter().map(|r| f(r)).collect::<Vec<f64>>()).unwrap_or(f64::NAN)
            })
            .collect();
        Rows {
            x: &sizes,
            w: relative.then(|| inverse(&y)),
            y,
            groups: &size_groups,
            reps: by_size.iter().map(|group| reps(group)).collect(),
        }
    };
    // The runs' values at a size (the noise a PMNF search tests against); for T1', the
    // works of the p = 1 runs it is the mean of.
    let each = |f: fn(&Run) -> f64| move |group: &[&Run]| group.iter().map(|r| f(r)).collect();
    let serial_reps = |group: &[&Run]| -> Vec<f64> {
        let single: Vec<f64> = group
            .iter()
            .filter(|r| r.p == 1.0)
            .map(|r| r.work)
            .collect();
        if single.is_empty() {
            group.iter().map(|r| r.work_serial).collect()
        } else {
            single
        }
    };
    let total: Vec<f64> = runs.iter().map(|r| r.p * r.elapsed).collect();
    let per_run = |f: &dyn Fn(&Run) -> f64| -> Rows {
        Rows {
            x: &rows,
            y: runs.iter().map(f).collect(),
            w: relative.then(|| inverse(&total)),
            groups: &run_groups,
            reps: Vec::new(),
        }
    };
    let data = Data {
        serial: per_size(&|r| r.work_serial, &serial_reps),
        create_task: per_size(&|r| r.create_task, &each(|r| r.create_task)),
        wait_tasks: per_size(&|r| r.wait_tasks, &each(|r| r.wait_tasks)),
        span: has_span.then(|| {
            let span = |r: &Run| r.span.unwrap_or(0.0);
            per_size(&span, &each(span))
        }),
        work: per_run(&|r| r.work - r.work_serial),
        delay: per_run(&|r| r.delay),
        no_work: per_run(&|r| r.no_work),
        direct: Rows {
            x: &rows,
            y: runs.iter().map(|r| r.elapsed.ln()).collect(),
            w: None,
            groups: &run_groups,
            reps: Vec::new(),
        },
    };
    let cv = Cv {
        folds: opts.folds.max(2),
        seed: opts.seed,
        max_iter: opts.max_iter.max(1),
        transform: t.name(),
        rule: match opts.alpha_rule {
            AlphaRule::Min => regress::Rule::Min,
            AlphaRule::OneSe => regress::Rule::OneSe,
        },
        relaxed: opts.relaxed,
        prune: if opts.relaxed {
            opts.prune.max(0.0)
        } else {
            0.0
        },
        selection: opts.selection,
    };
    let (size_weights, run_weights) = if relative {
        ("target", "p*elapsed")
    } else {
        ("none", "none")
    };
    let size_spec = |model: &'static str,
                     variant: &'static str,
                     features: &'static [Feature],
                     intercept: bool| Spec {
        model,
        target: model,
        variant,
        features,
        intercept,
        positive: true,
        weighting: size_weights,
        log_target: false,
    };
    let run_spec =
        |model: &'static str, variant: &'static str, features: &'static [Feature]| Spec {
            model,
            target: model,
            variant,
            features,
            intercept: false,
            positive: true,
            weighting: run_weights,
            log_target: false,
        };
    // Fits every candidate and keeps the one of least out-of-fold error.
    let mut choices = Vec::new();
    let fit_way = |name: &'static str, way: &Way, d: &Rows| match way {
        Way::Lasso(s) => regress::fit(s, d.data(), cv),
        Way::Search => {
            let all: Vec<usize> = (0..d.y.len()).collect();
            pmnf::fit(name, d.data(), &d.reps_of(&all), relative)
        }
    };
    let score_way = |name: &'static str, way: &Way, d: &Rows| match way {
        Way::Lasso(s) => regress::score(s, d.data(), cv),
        Way::Search => regress::score_by(d.data(), cv, |train, rows| {
            pmnf::fit(name, train, &d.reps_of(rows), relative)
        }),
    };
    let mut pick = |name: &'static str,
                    specs: Vec<Way>,
                    d: &Rows,
                    fixed: bool|
     -> Result<SubModel, TrainError> {
        if specs.len() == 1 {
            let sub = fit_way(name, &specs[0], d)?;
            choices.push(Choice {
                sub_model: name.to_string(),
                chosen: sub.variant.clone(),
                candidates: vec![Candidate {
                    variant: sub.variant.clone(),
                    cv_score: None,
                }],
                fixed,
            });
            return Ok(sub);
        }
        let candidates = specs
            .par_iter()
            .map(|s| {
                let mut sub = fit_way(name, s, d)?;
                sub.cv_score = score_way(name, s, d)?;
                Ok(sub)
            })
            .collect::<Result<Vec<_>, TrainError>>()?;
        let (sub, choice) = choose(candidates, name, fixed);
        choices.push(choice);
        Ok(sub)
    };
    // Beside each size model's basis, a power law c·n^a (fitted in ln, any exponent: n^2.8
    // for Strassen, φ^n = (2^n)^0.69 for fib) when every value is positive; the nested
    // cross-validation chooses (both scored by relative error when rows are weighted).
    let power = |model: &'static str| -> Spec<'static> {
        Spec {
            model,
            target: model,
            variant: "power law",
            features: &features::POWER_BASIS,
            intercept: true,
            positive: false,
            weighting: "ln",
            log_target: true,
        }
    };
    let all_positive = |r: &Rows| r.y.iter().all(|v| *v > 0.0 && v.is_finite());
    // And the fit engine's PMNF search: a constant plus up to two growing terms.
    let with_power = |specs: Vec<Spec<'static>>, model: &'static str, r: &Rows| {
        let mut ways: Vec<Way> = specs.into_iter().map(Way::Lasso).collect();
        if opts.power_laws && all_positive(r) {
            ways.push(Way::Lasso(power(model)));
        }
        if opts.pmnf_search && all_positive(r) {
            ways.push(Way::Search);
        }
        ways
    };
    let searched = opts.power_laws || opts.pmnf_search;
    let serial = pick(
        "work_serial",
        with_power(
            vec![size_spec(
                "work_serial",
                "intercept",
                &features::SERIAL_BASIS,
                true,
            )],
            "work_serial",
            &data.serial,
        ),
        &data.serial,
        !searched,
    )?;
    let count_forms: Vec<bool> = match opts.count_intercept {
        Some(b) => vec![b],
        None => vec![false, true],
    };
    let count_specs = |model: &'static str| -> Vec<Spec> {
        count_forms
            .iter()
            .map(|&b| {
                let variant = if b { "intercept" } else { "no intercept" };
                size_spec(model, variant, &features::COUNT_BASIS, b)
            })
            .collect()
    };
    let fixed_counts = opts.count_intercept.is_some();
    let create_task = pick(
        "create_task",
        with_power(count_specs("create_task"), "create_task", &data.create_task),
        &data.create_task,
        fixed_counts && !searched,
    )?;
    let wait_tasks = pick(
        "wait_tasks",
        with_power(count_specs("wait_tasks"), "wait_tasks", &data.wait_tasks),
        &data.wait_tasks,
        fixed_counts && !searched,
    )?;
    let span = match &data.span {
        Some(d) => Some(pick(
            "span",
            with_power(
                vec![size_spec(
                    "span",
                    "intercept",
                    &features::SERIAL_BASIS,
                    true,
                )],
                "span",
                d,
            ),
            d,
            !searched,
        )?),
        None => None,
    };
    let work = regress::fit(
        &run_spec("work", "paper", &features::WORK_BASIS),
        data.work.data(),
        cv,
    )?;
    let delay = regress::fit(
        &run_spec("delay", "paper", &features::DELAY_BASIS),
        data.delay.data(),
        cv,
    )?;
    let forms: Vec<NoWorkForm> = match opts.no_work {
        Some(f) => vec![f],
        None => NoWorkForm::ALL
            .into_iter()
            .filter(|f| has_span || !f.uses_span())
            .collect(),
    };
    if let Some(f) = forms.iter().find(|f| f.uses_span() && !has_span) {
        return Err(TrainError::NeedsSpan { form: f.name() });
    }
    let no_work_specs = forms
        .iter()
        .map(|f| Way::Lasso(run_spec("no_work", f.name(), f.features())))
        .collect();
    let no_work = pick(
        "no_work",
        no_work_specs,
        &data.no_work,
        opts.no_work.is_some(),
    )?;
    let direct = regress::fit(
        &Spec {
            model: "direct",
            target: "ln(elapsed)",
            variant: "log-log (Barnes et al.)",
            features: &features::DIRECT_BASIS,
            intercept: true,
            positive: false,
            weighting: "none",
            log_target: false,
        },
        data.direct.data(),
        Cv {
            relaxed: false,
            prune: 0.0,
            ..cv
        },
    )?;
    let mut model = Model {
        format: FORMAT.to_string(),
        version: VERSION,
        app: apps.first().filter(|a| !a.is_empty()).cloned(),
        transform: t,
        domain: Domain {
            n_min: ns[0],
            n_max: ns[ns.len() - 1],
            p_min: ps[0],
            p_max: ps[ps.len() - 1],
            rows: runs.len(),
            sizes: ns.len(),
        },
        options: opts.clone(),
        serial,
        create_task,
        wait_tasks,
        work,
        delay,
        no_work,
        span,
        direct,
        choices,
        interval: IntervalMethod {
            method: {
                let (lo, hi) = fit::run::interval_quantiles(fit::run::INTERVAL_LEVEL);
                format!(
                    "wild bootstrap (random signs) of each sub-model's residuals, refitted at \
                     the chosen α and forms; the {}% and {}% quantiles of the chained time \
                     (the uncertainty of the fitted mean, not the spread of single runs)",
                    trace::text::num(lo * 100.0),
                    trace::text::num(hi * 100.0)
                )
            },
            level: fit::run::INTERVAL_LEVEL,
        },
        bootstrap: Vec::new(),
        calibration: fit::interval::Calibration::default(),
    };
    let fits = Fits {
        serial: data.serial.data(),
        create_task: data.create_task.data(),
        wait_tasks: data.wait_tasks.data(),
        work: data.work.data(),
        delay: data.delay.data(),
        no_work: data.no_work.data(),
        span: data.span.as_ref().map(Rows::data),
    };
    model.bootstrap = bootstrap::replicates(&model, &fits, cv, opts.bootstrap.min(MAX_BOOTSTRAP))?;
    Ok(model)
}
