//! `vates taskpar fit|predict|report`: the two-step model of time(n, p) from a training CSV.

use std::io::Write;
use std::path::{Path, PathBuf};

use taskpar::model::{
    self, from_json, model_text, predict, prediction_text, read_runs, report_text, to_json, train,
    Model, NoWorkForm, Selection, TrainOptions, TrainingSet, Transform, MAX_BOOTSTRAP,
};

use crate::error::{json_text, write_file, CliError, Result};
use crate::Format;

/// The largest training or test CSV read.
const MAX_CSV: usize = 1 << 28;
/// The largest model file read (a model with 200 bootstrap replicates is about 300 kB).
const MAX_MODEL: usize = 1 << 26;
/// The most predictions one `predict` makes.
const MAX_POINTS: usize = 100_000;

/// The no_work forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NoWorkArg {
    /// Chosen by cross-validation among the others (the span forms need a `span` column).
    Cv,
    /// Eq. 15: (p−1)²·(f1 + f2·n + f3·n·ln n + f4·n²).
    Paper,
    /// g0·(p−1) + g1·(p−1)·T∞(n) (Graham's bound).
    SpanLinear,
    /// g1·(p−1)·T∞(n) + g2·(p−1)²·T∞(n).
    SpanQuadratic,
}

/// How rival forms of a sub-model are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormsBy {
    /// Each of the larger half of the training sizes predicted from the sizes below it.
    Forward,
    /// Shuffled K-fold cross-validation over the sizes.
    Shuffled,
}

/// How the sub-models are trained (shared by `fit` and `report`).
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// The application to model when the CSV holds several (`fit`; `report` models each).
    #[arg(long, value_name = "NAME")]
    app: Option<String>,
    /// Transform the size before fitting: `n=2^n` (work exponential in n: fib, nqueens), for
    /// every application, or `APP:n=2^n` for one (repeatable).
    #[arg(long, value_name = "n=2^n")]
    transform: Vec<String>,
    /// The paper's settings: plain least squares, α of least cross-validated error, the
    /// Lasso's coefficients, no intercept in the task counts, eq. 15 for no_work.
    #[arg(long)]
    paper: bool,
    /// The no_work form.
    #[arg(long, value_enum, default_value_t = NoWorkArg::Cv)]
    no_work: NoWorkArg,
    /// How the forms of each sub-model (basis, power law, no_work form) are chosen: by
    /// how they extrapolate (forward), or by shuffled cross-validation.
    #[arg(long, value_enum, default_value_t = FormsBy::Forward)]
    forms_by: FormsBy,
    /// Also try the fit engine's PMNF search (a constant and up to two terms
    /// n^a·log2(n)^j) for the size models. It needs many training sizes: with few, its
    /// freedom fits the noise.
    #[arg(long)]
    pmnf_search: bool,
    /// Bootstrap replicates for the intervals (0: none).
    #[arg(long, default_value_t = 100, value_name = "K")]
    bootstrap: usize,
    /// Seed of the shuffled folds and of the bootstrap.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
}

impl TrainArgs {
    /// Checks that the applications `--transform APP:` names are among `apps`.
    fn check_apps(&self, apps: &[String]) -> Result<()> {
        for t in &self.transform {
            if let Some((who, _)) = t.split_once(':') {
                if !apps.iter().any(|a| a == who) {
                    return Err(CliError::usage(format!(
                        "--transform `{t}`: there are no runs of `{who}` (applications: {})",
                        shortened(apps)
                    )));
                }
            }
        }
        Ok(())
    }

    /// The options for application `app`.
    fn options(&self, app: &str) -> Result<TrainOptions> {
        let mut o = if self.paper {
            TrainOptions::paper()
        } else {
            TrainOptions::default()
        };
        if self.bootstrap > MAX_BOOTSTRAP {
            return Err(CliError::usage(format!(
                "--bootstrap {} is over the limit of {MAX_BOOTSTRAP}",
                self.bootstrap
            )));
        }
        o.bootstrap = self.bootstrap;
        o.seed = self.seed;
        o.selection = match self.forms_by {
            FormsBy::Forward => Selection::Forward,
            FormsBy::Shuffled => Selection::Shuffled,
        };
        o.pmnf_search |= self.pmnf_search;
        o.no_work = match self.no_work {
            NoWorkArg::Cv if self.paper => Some(NoWorkForm::Paper),
            NoWorkArg::Cv => None,
            NoWorkArg::Paper => Some(NoWorkForm::Paper),
            NoWorkArg::SpanLinear => Some(NoWorkForm::SpanLinear),
            NoWorkArg::SpanQuadratic => Some(NoWorkForm::SpanQuadratic),
        };
        for t in &self.transform {
            let (who, form) = match t.split_once(':') {
                Some((a, f)) => (Some(a), f),
                None => (None, t.as_str()),
            };
            let tr = Transform::parse(form).ok_or_else(|| {
                CliError::usage(format!(
                    "--transform `{t}`: the transforms are `n=2^n` and `n=n` (optionally after \
                     `APP:`)"
                ))
            })?;
            if who.is_none_or(|w| w == app) {
                o.transform = tr;
            }
        }
        Ok(o)
    }
}

/// Options of `vates taskpar fit`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// The training CSV (`vates taskpar record` writes it).
    #[arg(value_name = "TRAIN.csv")]
    train: PathBuf,
    #[command(flatten)]
    how: TrainArgs,
    /// Write the model file here.
    #[arg(short, long, value_name = "MODEL.json", default_value = "model.json")]
    output: PathBuf,
    /// Output format: a text summary, or the model itself as JSON (the model file's
    /// content).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Options of `vates taskpar predict`.
#[derive(clap::Args, Debug)]
pub struct PredictArgs {
    /// The model file (`vates taskpar fit` writes it).
    #[arg(value_name = "MODEL.json")]
    model: PathBuf,
    /// Problem sizes: one, a list `30,35,40` or a range `30..40`.
    #[arg(short = 'n', long = "size", value_name = "N")]
    n: String,
    /// Worker counts, in the same forms.
    #[arg(short = 'p', long = "procs", value_name = "P")]
    p: String,
    /// Draw the predictions over the swept workers (or sizes): time, its breakdown, the
    /// direct regression and the bounds (T1/p, T∞, T1/p + T∞).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Options of `vates taskpar report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// The training CSV.
    #[arg(value_name = "TRAIN.csv")]
    train: PathBuf,
    /// The test CSV: runs to predict (other sizes and worker counts).
    #[arg(value_name = "TEST.csv")]
    test: PathBuf,
    #[command(flatten)]
    how: TrainArgs,
    /// Draw predicted against measured times (two-step model and direct regression).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

fn read_set(path: &Path) -> Result<TrainingSet> {
    let text = crate::input::read_text(path, MAX_CSV, "a CSV of runs", "")?;
    Ok(read_runs(&path.display().to_string(), &text)?)
}

fn train_error(app: &str, e: model::TrainError) -> CliError {
    let help = match &e {
        model::TrainError::SeveralApps { .. } => "choose one with --app",
        model::TrainError::TooFew { .. } => {
            "record more sizes or worker counts (`vates taskpar record --sizes ... --procs ...`)"
        }
        model::TrainError::NeedsSpan { .. } => {
            "record the runs with `vates taskpar record` (it writes the span), or choose \
             --no-work paper"
        }
        _ => "check the training runs of this application",
    };
    let e = match e {
        model::TrainError::SeveralApps { apps } => model::TrainError::SeveralApps {
            apps: apps.iter().map(|a| diag::short(a)).collect(),
        },
        e => e,
    };
    CliError::with_help(
        format!("training the model of {}: {e}", diag::short(app)),
        help,
    )
}

/// `app` is among the applications `apps` of the runs in `path`.
fn has_app(path: &Path, apps: &[String], app: &str) -> Result<()> {
    if apps.iter().any(|a| a == app) {
        return Ok(());
    }
    Err(CliError::with_help(
        format!("`{}` has no runs of `{}`", path.display(), diag::short(app)),
        format!("its applications: {}", shortened(apps)),
    ))
}

/// Runs `vates taskpar fit`.
pub fn fit(a: FitArgs, out: &mut dyn Write) -> Result<()> {
    crate::error::check_output(&a.output)?;
    let mut set = read_set(&a.train)?;
    let apps = set.apps();
    if let Some(app) = &a.how.app {
        has_app(&a.train, &apps, app)?;
        set = set.for_app(app);
    }
    let apps = set.apps();
    if apps.len() > 1 {
        return Err(CliError::with_help(
            format!(
                "`{}` holds runs of {} applications ({}); a model describes one",
                a.train.display(),
                apps.len(),
                shortened(&apps)
            ),
            "choose one with --app",
        ));
    }
    let app = apps.first().cloned().unwrap_or_default();
    a.how.check_apps(&apps)?;
    let m = train(&set, &a.how.options(&app)?).map_err(|e| train_error(&app, e))?;
    write_file(&a.output, to_json(&m).as_bytes())?;
    let text = match a.format {
        Format::Text => format!(
            "{}model written to {}\n",
            model_text(&m),
            a.output.display()
        ),
        Format::Json => {
            json_text(&serde_json::to_value(&m).map_err(|e| CliError::msg(e.to_string()))?)?
        }
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

fn load_model(path: &Path) -> Result<Model> {
    let text = crate::input::read_text(path, MAX_MODEL, "a model file (JSON)", "")?;
    from_json(&text).map_err(|e| {
        CliError::with_help(
            format!("`{}`: {e}", path.display()),
            "give a model file written by `vates taskpar fit` of this version (fit it again \
             from the training CSV)",
        )
    })
}

/// Application names as messages list them (each at most 40 characters).
fn shortened(apps: &[String]) -> String {
    apps.iter()
        .map(|a| diag::short(a))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses a list or range of positive numbers.
fn values(flag: &str, text: &str) -> Result<Vec<f64>> {
    super::record::values(flag, text)
}

/// Runs `vates taskpar predict`.
pub fn predict_cmd(a: PredictArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(p) = &a.plot {
        crate::error::check_output(p)?;
    }
    let m = load_model(&a.model)?;
    let ns = values("-n", &a.n)?;
    let ps = values("-p", &a.p)?;
    if let Some(p) = ps.iter().find(|p| p.fract() != 0.0) {
        return Err(CliError::usage(format!(
            "-p: `{}` is not a whole number of workers",
            trace::text::num(*p)
        )));
    }
    if ns.len() * ps.len() > MAX_POINTS {
        return Err(CliError::usage(format!(
            "{} sizes × {} worker counts is over the limit of {MAX_POINTS} predictions",
            ns.len(),
            ps.len()
        )));
    }
    if a.plot.is_some() && ns.len() > 1 && ps.len() > 1 {
        return Err(CliError::usage(
            "--plot draws over the workers at one size or over the sizes at one worker count: \
             give one value to -n or to -p",
        ));
    }
    let mut preds = Vec::with_capacity(ns.len() * ps.len());
    for &n in &ns {
        for &p in &ps {
            preds.push(predict(&m, n, p).map_err(|e| {
                CliError::with_help(
                    e.to_string(),
                    "give sizes and worker counts the model can take (n > 0, p ≥ 1)",
                )
            })?);
        }
    }
    let app = m.app.clone().unwrap_or_else(|| "the application".into());
    if let Some(path) = &a.plot {
        let plot = model::prediction_plot(&app, &preds, ps.len() > 1);
        let svg = plot
            .render_svg(900, 520)
            .map_err(|e| CliError::msg(format!("cannot draw the plot: {e}")))?;
        write_file(path, svg.as_bytes())?;
    }
    let text = match a.format {
        Format::Text => preds
            .iter()
            .map(|p| prediction_text(&app, p))
            .collect::<String>(),
        Format::Json => {
            let v = if preds.len() == 1 {
                serde_json::to_value(&preds[0])
            } else {
                serde_json::to_value(&preds)
            }
            .map_err(|e| CliError::msg(e.to_string()))?;
            json_text(&v)?
        }
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// Runs `vates taskpar report`.
pub fn report(a: ReportArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(p) = &a.plot {
        crate::error::check_output(p)?;
    }
    let train_set = read_set(&a.train)?;
    let test_set = read_set(&a.test)?;
    let mut apps = train_set.apps();
    a.how.check_apps(&apps)?;
    if let Some(app) = &a.how.app {
        has_app(&a.train, &apps, app)?;
        apps.retain(|x| x == app);
    }
    let untested: Vec<&String> = apps
        .iter()
        .filter(|app| test_set.for_app(app).runs.is_empty())
        .collect();
    let apps_trained = train_set.apps();
    let untrained: Vec<String> = test_set
        .apps()
        .into_iter()
        .filter(|app| !apps_trained.contains(app))
        .collect();
    for (what, list) in [
        (
            "no test runs",
            untested.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        ),
        (
            "no training runs",
            untrained.iter().map(String::as_str).collect(),
        ),
    ] {
        if !list.is_empty() && a.how.app.is_none() {
            crate::error::note(&format!("note: left out, with {what}: {}", list.join(", ")));
        }
    }
    let mut all = model::Report {
        rows: Vec::new(),
        medians: Vec::new(),
    };
    for app in &apps {
        let test = test_set.for_app(app);
        if test.runs.is_empty() {
            continue;
        }
        let m = train(&train_set.for_app(app), &a.how.options(app)?)
            .map_err(|e| train_error(app, e))?;
        let r = model::report(&m, &test.runs)
            .map_err(|e| CliError::msg(format!("{}: {e}", diag::short(app))))?;
        all.rows.extend(r.rows);
        all.medians.extend(r.medians);
    }
    if all.rows.is_empty() {
        return Err(CliError::with_help(
            format!(
                "no application has runs in both `{}` and `{}`",
                a.train.display(),
                a.test.display()
            ),
            "the `app` column names the application in both files",
        ));
    }
    if let Some(path) = &a.plot {
        let plot = model::measured_plot(&all);
        let svg = plot
            .render_svg(900, 600)
            .map_err(|e| CliError::msg(format!("cannot draw the plot: {e}")))?;
        write_file(path, svg.as_bytes())?;
    }
    let text = match a.format {
        Format::Text => report_text(&all),
        Format::Json => {
            json_text(&serde_json::to_value(&all).map_err(|e| CliError::msg(e.to_string()))?)?
        }
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
