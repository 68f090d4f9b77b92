//! `vates taskpar fit|report`: flags → the model's front door ([`taskpar::model::fit_app`],
//! [`taskpar::model::report_apps`]) → output; errors become messages that name the flags.

use std::io::Write;
use std::path::{Path, PathBuf};

use taskpar::model::{
    self, fit_app, model_text, read_runs, report_apps, report_text, to_json, FrontError,
    NoWorkForm, Policy, Selection, TrainingSet, TransformRule,
};

use crate::error::{json_text, write_file, CliError, Result};
use crate::Format;
use termio::files::Keep;

/// The largest training or test CSV read.
const MAX_CSV: usize = 1 << 28;
/// The largest model file read (a model with 200 bootstrap replicates is about 300 kB).
pub const MAX_MODEL: usize = 1 << 26;

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
        let transforms = self
            .transform
            .iter()
            .map(|t| {
                TransformRule::parse(t).ok_or_else(|| {
                    CliError::usage(format!(
                        "--transform `{t}`: the transforms are `n=2^n` and `n=n` (optionally \
                         after `APP:`)"
                    ))
                })
            })
            .collect::<Result<_>>()?;
        Ok(Policy {
            paper: self.paper,
            no_work: match self.no_work {
                NoWorkArg::Cv => None,
                NoWorkArg::Paper => Some(NoWorkForm::Paper),
                NoWorkArg::SpanLinear => Some(NoWorkForm::SpanLinear),
                NoWorkArg::SpanQuadratic => Some(NoWorkForm::SpanQuadratic),
            },
            selection: match self.forms_by {
                FormsBy::Forward => Selection::Forward,
                FormsBy::Shuffled => Selection::Shuffled,
            },
            pmnf_search: self.pmnf_search,
            bootstrap: self.bootstrap,
            seed: self.seed,
            transforms,
        })
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

/// Reads the runs of the CSV file `path`; a file that is not text (a NUL byte, as
/// `/dev/zero` or a binary file has) is refused at its first block
/// ([`crate::input::read_text`]).
fn read_set(path: &Path) -> Result<TrainingSet> {
    let text = crate::input::read_text(path, MAX_CSV, "a CSV of runs", "")?;
    Ok(read_runs(&path.display().to_string(), &text)?)
}

/// The front door's refusal as a message naming the flag or file; `train` is the training
/// CSV.
pub fn front_error(train: &Path, e: FrontError) -> CliError {
    let apps = |apps: &[String]| shortened(apps);
    match e {
        FrontError::Bootstrap { asked, limit } => {
            CliError::usage(format!("--bootstrap {asked} is over the limit of {limit}"))
        }
        FrontError::TransformApp {
            rule,
            app,
            apps: all,
        } => CliError::usage(format!(
            "--transform `{rule}`: there are no runs of `{}` (applications: {})",
            diag::short(&app),
            apps(&all)
        )),
        // Only `--app` names an application: a usage error, as every name given by a flag
        // that the data does not have.
        FrontError::NoRunsOf { app, apps: all } => {
            let hint = diag::did_you_mean(&diag::suggest(&app, all.iter().map(String::as_str)))
                .map(|h| format!("{h} "))
                .unwrap_or_default();
            CliError::usage(format!(
                "--app {}: `{}` has no runs of `{}`; {hint}its applications: {}",
                diag::short(&app),
                train.display(),
                diag::short(&app),
                apps(&all)
            ))
        }
        FrontError::SeveralApps { apps: all } => CliError::with_help(
            format!(
                "`{}` holds runs of {} applications ({}); a model describes one",
                train.display(),
                all.len(),
                apps(&all)
            ),
            "choose one with --app",
        ),
        FrontError::Train { app, error } => train_error(&app, error),
        // A limit hit (status 1), as every command's.
        FrontError::TooManyPoints { .. } => CliError::with_help(
            format!("-D n=... -D p=...: {e}"),
            "use fewer values or coarser steps",
        ),
        FrontError::NotWhole { .. } => CliError::usage(format!("-D n=... -D p=...: {e}")),
        FrontError::Predict(e) => CliError::with_help(
            e.to_string(),
            "give sizes and worker counts the model can take (n > 0, p ≥ 1)",
        ),
        FrontError::Report { app, error } => {
            CliError::msg(format!("{}: {error}", diag::short(&app)))
        }
        FrontError::NothingInCommon => CliError::msg(e.to_string()),
    }
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

/// Runs `vates taskpar fit`.
pub fn fit(a: FitArgs, out: &mut dyn Write) -> Result<()> {
    let output = match (&a.output, a.format) {
        (Some(p), _) => Some(p.clone()),
        (None, Format::Text) => Some(PathBuf::from("model.json")),
        (None, Format::Json) => None,
    };
    if let Some(o) = &output {
        check_model_output(o, &a.train)?;
    }
    let set = read_set(&a.train)?;
    let m = fit_app(&set, a.how.app.as_deref(), &a.how.policy()?)
        .map_err(|e| front_error(&a.train, e))?;
    if let Some(o) = &output {
        write_file(o, to_json(&m).as_bytes())?;
    }
    let text = match a.format {
        Format::Text => format!(
            "{}model written to {}\n",
            model_text(&m),
            output
                .as_deref()
                .unwrap_or(Path::new("model.json"))
                .display()
        ),
        Format::Json => {
            json_text(&serde_json::to_value(&m).map_err(|e| CliError::msg(e.to_string()))?)?
        }
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// Checks that the model file can go to `path`: not the training CSV `train`, and, if the
/// file exists, a model file (anything else is kept).
fn check_model_output(path: &Path, train: &Path) -> Result<()> {
    match termio::files::replaceable(path, train, MAX_MODEL, model::is_model_file)? {
        None => Ok(()),
        Some(Keep::IsInput) => Err(CliError::usage(format!(
            "-o `{}` is the training CSV; give the model file another path with -o",
            path.display()
        ))),
        Some(Keep::Foreign) => Err(CliError::with_help(
            format!(
                "`{}` exists and is not a taskpar model file; it is left as it is",
                path.display()
            ),
            "give the model file another path with -o (or remove that file)",
        )),
    }
}

/// Application names as messages list them (each at most 40 characters).
fn shortened(apps: &[String]) -> String {
    apps.iter()
        .map(|a| diag::short(a))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `vates taskpar report`.
pub fn report(a: ReportArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(p) = &a.plot {
        crate::error::check_output(p)?;
    }
    let train_set = read_set(&a.train)?;
    let test_set = read_set(&a.test)?;
    let r = report_apps(
        &train_set,
        &test_set,
        a.how.app.as_deref(),
        &a.how.policy()?,
    )
    .map_err(|e| match e {
        FrontError::NothingInCommon => CliError::with_help(
            format!(
                "no application has runs in both `{}` and `{}`",
                a.train.display(),
                a.test.display()
            ),
            "the `app` column names the application in both files",
        ),
        e => front_error(&a.train, e),
    })?;
    if a.how.app.is_none() {
        for (what, list) in [
            ("no test runs", &r.untested),
            ("no training runs", &r.untrained),
        ] {
            if !list.is_empty() {
                crate::error::note(&format!("note: left out, with {what}: {}", list.join(", ")));
            }
        }
    }
    let all = r.report;
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
