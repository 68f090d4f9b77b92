//! `vates taskpar fit|predict|report`: flags → the model's front door
//! ([`taskpar::model::fit_app`], [`taskpar::model::predict_grid`],
//! [`taskpar::model::report_apps`]) → output; its refusals become messages that name the
//! flags ([`taskpar::model::FrontError::keyed`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use taskpar::model::{
    self, fit_app, predict_grid, read_runs, report_apps, to_json, NoWorkRule, Policy, Selection,
    TrainingSet, MAX_CSV, MAX_MODEL,
};

use crate::error::{print, write_file, CliError, Result};
use crate::input::Define;
use crate::Format;
use termio::files::Keep;

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
    #[arg(long, value_parser = crate::input::choice::<NoWorkRule>(), default_value = "cv")]
    no_work: NoWorkRule,
    /// How the forms of each sub-model (basis, power law, no_work form) are chosen: by
    /// how they extrapolate (forward), or by shuffled cross-validation.
    #[arg(long, value_parser = crate::input::choice::<Selection>(), default_value = "forward")]
    forms_by: Selection,
    /// Also try the fit engine's PMNF search (a constant and up to two terms
    /// n^a·log2(n)^j) for the size models. It needs many training sizes: with few, its
    /// freedom fits the noise.
    #[arg(long)]
    pmnf_search: bool,
    /// Bootstrap replicates for the intervals (0: none).
    #[arg(
        long,
        default_value_t = fit::run::BOOTSTRAP_REPLICATES,
        value_name = "K"
    )]
    bootstrap: usize,
    /// Seed of the shuffled folds and of the bootstrap.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
}

impl TrainArgs {
    /// The training policy the flags choose.
    fn policy(&self) -> Result<Policy> {
        let (no_work, forms_by) = (self.no_work, self.forms_by);
        Policy::new(
            self.paper,
            no_work,
            forms_by,
            self.pmnf_search,
            self.bootstrap,
            self.seed,
            &self.transform,
        )
        .map_err(|e| CliError::usage(format!("--transform {e}")))
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
    /// Write the model file here (default `model.json`; with `--format json` and no `-o`,
    /// the model goes to standard output only). An existing file is replaced only if it is
    /// a model file, and never the training CSV.
    #[arg(short, long, value_name = "MODEL.json")]
    output: Option<PathBuf>,
    /// Output format: a text summary, or the model itself as JSON (the model file's
    /// content).
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

/// Options of `vates taskpar predict`.
#[derive(clap::Args, Debug)]
pub struct PredictArgs {
    /// The model file (`vates taskpar fit` writes it).
    #[arg(value_name = "MODEL.json")]
    model: PathBuf,
    /// The point: `-D n=SIZE -D p=WORKERS`, each one value, a list `-D p=1,2,4` or a range
    /// `-D n=100..400:100` (the grid is every size × every worker count).
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = crate::input::parse_define)]
    define: Vec<Define>,
    /// Problem sizes (the same as `-D n=...`).
    #[arg(short = 'n', long = "size", value_name = "N")]
    n: Option<String>,
    /// Worker counts (the same as `-D p=...`).
    #[arg(short = 'p', long = "procs", value_name = "P")]
    p: Option<String>,
    /// Draw the predictions over the swept workers (or sizes): time, its breakdown, the
    /// direct regression and the bounds (T1/p, T∞, T1/p + T∞).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Reads the runs of the CSV file `path`; a file that is not text (a NUL byte, as
/// `/dev/zero` or a binary file has) is refused at its first block
/// ([`crate::input::read_text`]).
fn read_set(path: &Path) -> Result<TrainingSet> {
    let text = crate::input::read_text(path, MAX_CSV, "a CSV of runs", "")?;
    Ok(read_runs(&path.display().to_string(), &text)?)
}

/// Runs `vates taskpar fit`.
pub fn fit(a: FitArgs, out: &mut dyn Write) -> Result<()> {
    let output = model::model_path(a.output.as_deref(), a.format == Format::Json);
    if let Some(o) = &output {
        check_model_output(o, &a.train)?;
    }
    let set = read_set(&a.train)?;
    let m = fit_app(&set, a.how.app.as_deref(), &a.how.policy()?)
        .map_err(|e| e.keyed(&a.train, &a.train))?;
    if let Some(o) = &output {
        write_file(o, to_json(&m).as_bytes())?;
    }
    let written = output.as_deref().filter(|_| a.format == Format::Text);
    print(
        out,
        &model::fit_document(&m, written).map_err(super::json_error)?,
    )
}

/// Checks that the model file can go to `path`: not the training CSV `train`, and, if the
/// file exists, a model file (anything else is kept).
fn check_model_output(path: &Path, train: &Path) -> Result<()> {
    let kept = termio::files::replaceable(path, train, MAX_MODEL, model::is_model_file)?;
    kept.map_or(Ok(()), |k| {
        Err(model::kept_file(path, k == Keep::IsInput).into())
    })
}

/// Runs `vates taskpar report`.
pub fn report(a: ReportArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(p) = &a.plot {
        crate::error::check_output(p)?;
    }
    let (train_set, test_set) = (read_set(&a.train)?, read_set(&a.test)?);
    let policy = a.how.policy()?;
    let r = report_apps(&train_set, &test_set, a.how.app.as_deref(), &policy)
        .map_err(|e| e.keyed(&a.train, &a.test))?;
    for text in r.notes().iter().filter(|_| a.how.app.is_none()) {
        crate::error::note(&format!("note: {text}"));
    }
    if let Some(path) = &a.plot {
        super::draw(
            model::measured_plot(&r.report).render_svg(900, 600),
            path,
            "the plot",
        )?;
    }
    let text = model::report_document(&r.report, a.format == Format::Json);
    print(out, &text.map_err(super::json_error)?)
}

/// Runs `vates taskpar predict`.
pub fn predict(a: PredictArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(p) = &a.plot {
        crate::error::check_output(p)?;
    }
    let bindings: Vec<&str> = a.define.iter().map(|d| d.text.as_str()).collect();
    let (ns, ps) = model::grid_values(a.n.as_deref(), a.p.as_deref(), &bindings)?;
    let text = crate::input::read_text(&a.model, MAX_MODEL, "a model file (JSON)", "")?;
    let m = model::read_model(&a.model.display().to_string(), &text)?;
    if a.plot.is_some() {
        model::check_plot(ns.len(), ps.len())?;
    }
    let preds = predict_grid(&m, &ns, &ps).map_err(|e| e.keyed(&a.model, &a.model))?;
    let app = m.app.clone().unwrap_or_else(|| "the application".into());
    if let Some(path) = &a.plot {
        let plot = model::prediction_plot(&app, &preds, ps.len() > 1);
        super::draw(plot.render_svg(900, 520), path, "the plot")?;
    }
    let text = model::predictions_document(&app, &preds, a.format == Format::Json);
    print(out, &text.map_err(super::json_error)?)
}
