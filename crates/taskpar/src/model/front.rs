//! The model's front door: the training policy a caller chooses ([`Policy`]), which
//! application a training set's model is of ([`fit_app`]), the n × p grid of predictions
//! ([`predict_grid`]) and the per-application report on test runs ([`report_apps`]). Each
//! returns a typed result or a [`FrontError`] that the caller turns into a message.

use super::fitted::Model;
use super::from_json;
use super::TrainError;
use super::{
    predict, report, train, NoWorkForm, PredictError, Prediction, Report, Selection, TrainOptions,
    TrainingSet, Transform, MAX_BOOTSTRAP,
};
use diag::{literal, Keyed};
use std::path::{Path, PathBuf};

/// The most predictions one grid holds.
pub const MAX_POINTS: usize = 100_000;
/// The largest training or test CSV a front end reads.
pub const MAX_CSV: usize = 1 << 28;
/// The largest model file a front end reads (a model with 200 bootstrap replicates is
/// about 300 kB).
pub const MAX_MODEL: usize = 1 << 26;

/// A transform of the size for every application, or for one.
#[derive(Clone, Debug, PartialEq)]
pub struct TransformRule {
    /// The application it is for (`None`: every one).
    pub app: Option<String>,
    /// The transform.
    pub transform: Transform,
    /// The rule as written, for messages.
    pub text: String,
}

impl TransformRule {
    /// Parses `n=2^n` (every application) or `APP:n=2^n` (one); the transforms are those of
    /// [`Transform::parse`].
    pub fn parse(text: &str) -> Option<TransformRule> {
        let (app, form) = match text.split_once(':') {
            Some((a, f)) => (Some(a.to_string()), f),
            None => (None, text),
        };
        Some(TransformRule {
            app,
            transform: Transform::parse(form)?,
            text: text.to_string(),
        })
    }
}

diag::choices! {
    /// The no_work form a caller asks for: one of [`NoWorkForm`], or the one validation
    /// prefers.
    pub enum NoWorkRule {
        /// Chosen by validation (eq. 15 with the paper's settings).
        Cv = "cv": "Chosen by cross-validation among the others (the span forms need a `span` column)",
        /// [`NoWorkForm::Paper`].
        Paper = "paper": "Eq. 15: (p−1)²·(f1 + f2·n + f3·n·ln n + f4·n²)",
        /// [`NoWorkForm::SpanLinear`].
        SpanLinear = "span-linear": "g0·(p−1) + g1·(p−1)·T∞(n) (Graham's bound)",
        /// [`NoWorkForm::SpanQuadratic`].
        SpanQuadratic = "span-quadratic": "g1·(p−1)·T∞(n) + g2·(p−1)²·T∞(n)",
    }
}

impl NoWorkRule {
    /// The form asked for (`None`: chosen by validation).
    pub fn form(self) -> Option<NoWorkForm> {
        match self {
            NoWorkRule::Cv => None,
            NoWorkRule::Paper => Some(NoWorkForm::Paper),
            NoWorkRule::SpanLinear => Some(NoWorkForm::SpanLinear),
            NoWorkRule::SpanQuadratic => Some(NoWorkForm::SpanQuadratic),
        }
    }
}

/// A transform rule that is not one ([`TransformRule::parse`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("`{0}`: the transforms are `n=2^n` and `n=n` (optionally after `APP:`)")]
pub struct BadTransform(pub String);

/// How rival forms of a sub-model are chosen, and which no_work form: the choices a caller
/// makes, turned into [`TrainOptions`] per application by [`Policy::options`].
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// The paper's settings ([`TrainOptions::paper`]).
    pub paper: bool,
    /// The no_work form (`None`: chosen by validation, or eq. 15 with `paper`).
    pub no_work: Option<NoWorkForm>,
    /// How forms are scored.
    pub selection: Selection,
    /// Also try the PMNF search for the size models.
    pub pmnf_search: bool,
    /// Bootstrap replicates (at most [`MAX_BOOTSTRAP`]).
    pub bootstrap: usize,
    /// Seed of the folds and of the bootstrap.
    pub seed: u64,
    /// Transforms of the size; a later rule for the same application wins.
    pub transforms: Vec<TransformRule>,
}

/// Why the front door refuses a request.
#[derive(Debug, thiserror::Error)]
pub enum FrontError {
    /// More bootstrap replicates than [`MAX_BOOTSTRAP`].
    #[error("{asked} bootstrap replicates is over the limit of {limit}")]
    Bootstrap {
        /// Asked for.
        asked: usize,
        /// The limit.
        limit: usize,
    },
    /// A transform rule for an application with no runs.
    #[error("the transform `{rule}` names `{app}`, which has no runs (applications: {})", .apps.join(", "))]
    TransformApp {
        /// The rule.
        rule: String,
        /// The application it names.
        app: String,
        /// The applications there are.
        apps: Vec<String>,
    },
    /// The application asked for has no runs.
    #[error("there are no runs of `{app}`")]
    NoRunsOf {
        /// The application.
        app: String,
        /// The applications there are.
        apps: Vec<String>,
    },
    /// Runs of several applications and none chosen.
    #[error("the runs are of {} applications ({}); a model describes one", .apps.len(), .apps.join(", "))]
    SeveralApps {
        /// The applications.
        apps: Vec<String>,
    },
    /// Training failed.
    #[error("training the model of {app}: {error}")]
    Train {
        /// The application.
        app: String,
        /// Why.
        error: TrainError,
    },
    /// A grid over the limit.
    #[error("{sizes} sizes × {procs} worker counts is over the limit of {limit} predictions")]
    TooManyPoints {
        /// Sizes.
        sizes: usize,
        /// Worker counts.
        procs: usize,
        /// [`MAX_POINTS`].
        limit: usize,
    },
    /// A worker count that is not whole.
    #[error("`{p}` is not a whole number of workers")]
    NotWhole {
        /// The count.
        p: f64,
    },
    /// A prediction failed.
    #[error(transparent)]
    Predict(#[from] PredictError),
    /// The report of an application failed.
    #[error("{app}: {error}")]
    Report {
        /// The application.
        app: String,
        /// Why.
        error: PredictError,
    },
    /// No application has both training and test runs.
    #[error("no application has runs in both the training and the test set")]
    NothingInCommon,
}

impl Policy {
    /// The policy of a caller's choices, the transform rules as written.
    ///
    /// # Errors
    /// [`BadTransform`]: the first rule that is not one.
    pub fn new(
        paper: bool,
        no_work: NoWorkRule,
        selection: Selection,
        pmnf_search: bool,
        bootstrap: usize,
        seed: u64,
        transforms: &[String],
    ) -> Result<Policy, BadTransform> {
        let transforms = transforms
            .iter()
            .map(|t| TransformRule::parse(t).ok_or_else(|| BadTransform(t.clone())))
            .collect::<Result<_, _>>()?;
        Ok(Policy {
            paper,
            no_work: no_work.form(),
            selection,
            pmnf_search,
            bootstrap,
            seed,
            transforms,
        })
    }

    /// Checks that the applications the transform rules name are among `apps`.
    ///
    /// # Errors
    /// [`FrontError::TransformApp`].
    pub fn check_apps(&self, apps: &[String]) -> Result<(), FrontError> {
        for t in &self.transforms {
            if let Some(app) = &t.app {
                if !apps.contains(app) {
                    return Err(FrontError::TransformApp {
                        rule: t.text.clone(),
                        app: app.clone(),
                        apps: apps.to_vec(),
                    });
                }
            }
        }
        Ok(())
    }

    /// The training options for application `app`.
    ///
    /// # Errors
    /// [`FrontError::Bootstrap`].
    pub fn options(&self, app: &str) -> Result<TrainOptions, FrontError> {
        let mut o = if self.paper {
            TrainOptions::paper()
        } else {
            TrainOptions::default()
        };
        if self.bootstrap > MAX_BOOTSTRAP {
            return Err(FrontError::Bootstrap {
                asked: self.bootstrap,
                limit: MAX_BOOTSTRAP,
            });
        }
        o.bootstrap = self.bootstrap;
        o.seed = self.seed;
        o.selection = self.selection;
        o.pmnf_search |= self.pmnf_search;
        o.no_work = match self.no_work {
            None if self.paper => Some(NoWorkForm::Paper),
            form => form,
        };
        for t in &self.transforms {
            if t.app.as_deref().is_none_or(|w| w == app) {
                o.transform = t.transform;
            }
        }
        Ok(o)
    }
}

/// Fits the model of one application of `set`: `app` if given, else the only one.
///
/// # Errors
/// [`FrontError`]: no runs of `app`, several applications and none chosen, a transform
/// rule for an application with no runs, too many bootstrap replicates, training failed.
pub fn fit_app(set: &TrainingSet, app: Option<&str>, policy: &Policy) -> Result<Model, FrontError> {
    let all = set.apps();
    let set = match app {
        Some(app) if !all.iter().any(|a| a == app) => {
            return Err(FrontError::NoRunsOf {
                app: app.to_string(),
                apps: all,
            })
        }
        Some(app) => set.for_app(app),
        None => set.clone(),
    };
    let apps = set.apps();
    if apps.len() > 1 {
        return Err(FrontError::SeveralApps { apps });
    }
    let app = apps.first().cloned().unwrap_or_default();
    policy.check_apps(&apps)?;
    train(&set, &policy.options(&app)?).map_err(|error| FrontError::Train { app, error })
}

/// The predictions at every size of `ns` × every worker count of `ps` (sizes outer).
///
/// # Errors
/// [`FrontError`]: more than [`MAX_POINTS`] points, a worker count that is not whole, a
/// point the model cannot take.
pub fn predict_grid(model: &Model, ns: &[f64], ps: &[f64]) -> Result<Vec<Prediction>, FrontError> {
    if let Some(&p) = ps.iter().find(|p| p.fract() != 0.0) {
        return Err(FrontError::NotWhole { p });
    }
    if ns.len().saturating_mul(ps.len()) > MAX_POINTS {
        return Err(FrontError::TooManyPoints {
            sizes: ns.len(),
            procs: ps.len(),
            limit: MAX_POINTS,
        });
    }
    let mut out = Vec::with_capacity(ns.len() * ps.len());
    for &n in ns {
        for &p in ps {
            out.push(predict(model, n, p)?);
        }
    }
    Ok(out)
}

/// A report over several applications and what it left out.
#[derive(Clone, Debug, PartialEq)]
pub struct AppsReport {
    /// The rows and medians of every application reported.
    pub report: Report,
    /// Applications with training runs and no test runs (left out).
    pub untested: Vec<String>,
    /// Applications with test runs and no training runs (left out).
    pub untrained: Vec<String>,
}

/// Fits each application of `train_set` (or only `app`) and reports its errors on its runs
/// in `test_set`.
///
/// # Errors
/// [`FrontError`]: no runs of `app`, a transform rule for an application with no runs, a
/// training that fails, a test run the model cannot take, no application in both sets.
pub fn report_apps(
    train_set: &TrainingSet,
    test_set: &TrainingSet,
    app: Option<&str>,
    policy: &Policy,
) -> Result<AppsReport, FrontError> {
    let mut apps = train_set.apps();
    policy.check_apps(&apps)?;
    if let Some(app) = app {
        if !apps.iter().any(|a| a == app) {
            return Err(FrontError::NoRunsOf {
                app: app.to_string(),
                apps,
            });
        }
        apps.retain(|x| x == app);
    }
    let trained = train_set.apps();
    let mut out = AppsReport {
        report: Report {
            rows: Vec::new(),
            medians: Vec::new(),
            coverage: fit::interval::Coverage::of(&[]),
        },
        untested: Vec::new(),
        untrained: test_set
            .apps()
            .into_iter()
            .filter(|a| !trained.contains(a))
            .collect(),
    };
    for app in &apps {
        let test = test_set.for_app(app);
        if test.runs.is_empty() {
            out.untested.push(app.clone());
            continue;
        }
        let m = train(&train_set.for_app(app), &policy.options(app)?).map_err(|error| {
            FrontError::Train {
                app: app.clone(),
                error,
            }
        })?;
        let r = report(&m, &test.runs).map_err(|error| FrontError::Report {
            app: app.clone(),
            error,
        })?;
        out.report.rows.extend(r.rows);
        out.report.medians.extend(r.medians);
    }
    if out.report.rows.is_empty() {
        return Err(FrontError::NothingInCommon);
    }
    out.report.coverage = super::report::coverage(&out.report.rows);
    Ok(out)
}

/// `name` quoted for a keyed message (at most 40 characters, [`diag::short`]).
fn named(name: &str) -> String {
    literal(&diag::short(name))
}

/// Names as keyed messages list them (each at most 40 characters).
fn shortened(names: &[String]) -> String {
    literal(
        &names
            .iter()
            .map(|a| diag::short(a))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

impl FrontError {
    /// The error as a front end shows it for the training set in the file `train` (and the
    /// test set in `test`), each input named by its key: `{app}`, `{bootstrap}`,
    /// `{transform}`, `{define}` (a point's binding), `{no-work}`, `{sizes}`, `{procs}`.
    pub fn keyed(&self, train: &Path, test: &Path) -> Keyed {
        let name = |p: &Path| literal(&p.display().to_string());
        let (train, test) = (name(train), name(test));
        let points = "{define} n=... {define} p=...";
        let said = literal(&self.to_string());
        match self {
            FrontError::Bootstrap { asked, limit } => Keyed::usage(format!(
                "{{bootstrap}} {asked} is over the limit of {limit}"
            )),
            FrontError::TransformApp { rule, app, apps } => Keyed::usage(format!(
                "{{transform}} `{}`: there are no runs of `{}` (applications: {})",
                literal(rule),
                named(app),
                shortened(apps)
            )),
            // Only the application option names an application: a usage error, as every
            // name given by an option that the data does not have.
            FrontError::NoRunsOf { app, apps } => {
                let hint = diag::did_you_mean(&diag::suggest(app, apps.iter().map(String::as_str)))
                    .map(|h| format!("{} ", literal(&h)))
                    .unwrap_or_default();
                let app = named(app);
                Keyed::usage(format!(
                    "{{app}} {app}: `{train}` has no runs of `{app}`; {hint}its applications: {}",
                    shortened(apps)
                ))
            }
            FrontError::SeveralApps { apps } => Keyed::fix(
                format!(
                    "`{train}` holds runs of {} applications ({}); a model describes one",
                    apps.len(),
                    shortened(apps)
                ),
                "choose one with {app}",
            ),
            FrontError::Train { app, error } => {
                let help = match error {
                    TrainError::SeveralApps { .. } => "choose one with {app}",
                    TrainError::TooFew { .. } => {
                        "record more sizes or worker counts (`vates taskpar record {sizes} ... \
                         {procs} ...`)"
                    }
                    TrainError::NeedsSpan { .. } => {
                        "record the runs with `vates taskpar record` (it writes the span), or \
                         choose {no-work} paper"
                    }
                    _ => "check the training runs of this application",
                };
                let error = match error {
                    TrainError::SeveralApps { apps } => TrainError::SeveralApps {
                        apps: apps.iter().map(|a| diag::short(a)).collect(),
                    }
                    .to_string(),
                    e => e.to_string(),
                };
                let (app, error) = (named(app), literal(&error));
                Keyed::fix(format!("training the model of {app}: {error}"), help)
            }
            // A limit hit (status 1), as every command's.
            FrontError::TooManyPoints { .. } => Keyed::fix(
                format!("{points}: {said}"),
                "use fewer values or coarser steps",
            ),
            FrontError::NotWhole { .. } => Keyed::usage(format!("{points}: {said}")),
            FrontError::Predict(e) => Keyed::fix(
                literal(&e.to_string()),
                "give sizes and worker counts the model can take (n > 0, p ≥ 1)",
            ),
            FrontError::Report { app, error } => Keyed::fix(
                format!("{}: {}", named(app), literal(&error.to_string())),
                "",
            ),
            FrontError::NothingInCommon => Keyed::fix(
                format!("no application has runs in both `{train}` and `{test}`"),
                "the `app` column names the application in both files",
            ),
        }
    }
}

/// The sizes (`n`) and worker counts (`p`) of a grid: the lists of the options `n` and
/// `p`, and bindings `name=values` (each as written) of the same parameters, each parameter
/// given once; `{define}` names a binding, `{n}` and `{p}` the options.
///
/// # Errors
/// [`Keyed`], a usage error: a parameter other than `n` and `p` (with a suggestion), one
/// given twice or not at all, a list that is not one of positive numbers.
pub fn grid_values(
    n: Option<&str>,
    p: Option<&str>,
    bindings: &[&str],
) -> Result<(Vec<f64>, Vec<f64>), Keyed> {
    // Each parameter's list and the option that gave it.
    let mut n = n.map(|v| (v, "{n}".to_string()));
    let mut p = p.map(|v| (v, "{p}".to_string()));
    for b in bindings {
        let (name, values) = b.split_once('=').unwrap_or((b, ""));
        let name = name.trim();
        let slot = match name {
            "n" => &mut n,
            "p" => &mut p,
            _ => {
                let guess = match name.to_lowercase().as_str() {
                    "n" | "size" | "sizes" => vec!["n".to_string()],
                    "p" | "procs" | "workers" | "threads" => vec!["p".to_string()],
                    _ => diag::suggest(name, ["n", "p"]),
                };
                let hint = diag::did_you_mean(&guess)
                    .unwrap_or_else(|| "the names are `n` (size) and `p` (workers)".into());
                return Err(Keyed::usage(format!(
                    "{{define}} {}: `vates taskpar predict` has no parameter `{}`; {}",
                    literal(b),
                    literal(name),
                    literal(&hint)
                )));
            }
        };
        if slot.is_some() {
            return Err(Keyed::usage(format!(
                "`{name}` is given more than once ({{define}} {name}=... and {{{name}}} are the \
                 same)"
            )));
        }
        *slot = Some((values, format!("{{define}} {name}")));
    }
    let values = |given: Option<(&str, String)>, name: &str, what: &str| {
        let (text, option) = given.ok_or_else(|| {
            Keyed::usage(format!(
                "give the {what} with {{define}} {name}=VALUE (or {{{name}}} VALUE)"
            ))
        })?;
        crate::lists::values(text)
            .map_err(|e| Keyed::usage(format!("{option} {}", literal(&e.to_string()))))
    };
    Ok((values(n, "n", "size")?, values(p, "p", "worker count")?))
}

/// Where the model is written: the path `given`, else `model.json`, unless the model goes
/// to the output as `json` (then nowhere).
pub fn model_path(given: Option<&Path>, json: bool) -> Option<PathBuf> {
    match (given, json) {
        (Some(p), _) => Some(p.to_path_buf()),
        (None, false) => Some(PathBuf::from("model.json")),
        (None, true) => None,
    }
}

/// Why the model file is not written to `path` (given with `{o}`): it is the training CSV
/// (`is_training`), or an existing file that is not a model file, which is kept.
pub fn kept_file(path: &Path, is_training: bool) -> Keyed {
    let path = literal(&path.display().to_string());
    match is_training {
        true => Keyed::usage(format!(
            "{{o}} `{path}` is the training CSV; give the model file another path with {{o}}"
        )),
        false => Keyed::fix(
            format!("`{path}` exists and is not a taskpar model file; it is left as it is"),
            "give the model file another path with {o} (or remove that file)",
        ),
    }
}

/// The model in the file named `name` whose text is `text` ([`from_json`]).
///
/// # Errors
/// [`Keyed`]: the file's error, with what to give instead.
pub fn read_model(name: &str, text: &str) -> Result<Model, Keyed> {
    from_json(text).map_err(|e| {
        Keyed::fix(
            format!("`{}`: {}", literal(name), literal(&e.to_string())),
            "give a model file written by `vates taskpar fit` of this version (fit it again \
             from the training CSV)",
        )
    })
}

/// Checks that a grid of `sizes` × `workers` values can be drawn (`{plot}`): over the
/// workers at one size or over the sizes at one worker count.
///
/// # Errors
/// [`Keyed`], a usage error: several of both.
pub fn check_plot(sizes: usize, workers: usize) -> Result<(), Keyed> {
    match sizes > 1 && workers > 1 {
        false => Ok(()),
        true => Err(Keyed::usage(
            "{plot} draws over the workers at one size or over the sizes at one worker count: \
             give one value to {define} n or to {define} p",
        )),
    }
}

/// The notes of a report over every application: those left out, and why.
impl AppsReport {
    /// A line per reason some applications were left out.
    pub fn notes(&self) -> Vec<String> {
        [
            ("no test runs", &self.untested),
            ("no training runs", &self.untrained),
        ]
        .into_iter()
        .filter(|(_, list)| !list.is_empty())
        .map(|(what, list)| format!("left out, with {what}: {}", list.join(", ")))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spell(k: &str) -> Option<String> {
        Some(match k {
            "define" => "-D".to_string(),
            k => format!("-{k}"),
        })
    }

    #[test]
    fn a_grid_is_every_size_by_every_worker_count() {
        let (ns, ps) = grid_values(None, Some("1..3"), &["n=10,20"]).unwrap();
        assert_eq!(ns, [10.0, 20.0]);
        assert_eq!(ps, [1.0, 2.0, 3.0]);
    }

    #[test]
    fn names_are_checked_with_their_options() {
        let said = |e: Keyed| diag::Advise::message(&e, &spell);
        let e = grid_values(None, None, &["workers=2"]).unwrap_err();
        assert!(e.advice.usage);
        let e = said(e);
        assert!(e.starts_with("-D workers=2: "), "{e}");
        assert!(e.contains("`p`"), "{e}");
        let e = said(grid_values(None, None, &["{p}=2"]).unwrap_err());
        assert!(e.starts_with("-D {p}=2: "), "{e}");
        let e = said(grid_values(Some("1"), None, &["n=2"]).unwrap_err());
        assert_eq!(
            e,
            "`n` is given more than once (-D n=... and -n are the same)"
        );
        let e = said(grid_values(None, None, &["n=1"]).unwrap_err());
        assert_eq!(e, "give the worker count with -D p=VALUE (or -p VALUE)");
        let e = said(grid_values(Some("-5"), Some("1"), &[]).unwrap_err());
        assert!(e.starts_with("-n `-5`: every value"), "{e}");
    }

    #[test]
    fn the_model_file_is_named_and_checked() {
        assert_eq!(model_path(None, false), Some(PathBuf::from("model.json")));
        assert_eq!(model_path(None, true), None);
        let said = |e: Keyed| diag::Advise::message(&e, &spell);
        let e = kept_file(Path::new("t{n}.csv"), true);
        assert!(e.advice.usage);
        assert_eq!(
            said(e),
            "-o `t{n}.csv` is the training CSV; give the model file another path with -o"
        );
        assert!(!kept_file(Path::new("m.json"), false).advice.usage);
        let e = read_model("m{p}.json", "[").unwrap_err();
        assert!(said(e).starts_with("`m{p}.json`: the model file is not valid JSON"));
        assert!(check_plot(1, 3).is_ok() && check_plot(3, 1).is_ok());
        assert!(said(check_plot(2, 2).unwrap_err()).starts_with("-plot draws"));
    }

    #[test]
    fn left_out_applications_are_noted() {
        let r = AppsReport {
            report: Report {
                rows: Vec::new(),
                medians: Vec::new(),
                coverage: fit::interval::Coverage::of(&[]),
            },
            untested: vec!["fib".into()],
            untrained: Vec::new(),
        };
        assert_eq!(r.notes(), ["left out, with no test runs: fib"]);
    }
}
