//! `vates fit`: empirical performance models from measurements (the `fit` engine); the
//! manual is in `docs/cli.md`. Also the glue the commands of `collectives` share.

use std::io::Write;
use std::path::PathBuf;

use fit::basis::{BasisOptions, Method, Regression, RegressionError};
use fit::job::{Job, JobError};
use fit::read::{self, LoadError};
use fit::report;
use fit::run::{Modeler, RunOptions};

use crate::error::{note, print, CliError, Result};
use crate::input::{read_text, Define};
use diag::Choice;

/// Options of `vates fit`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// The measurements (.txt Extra-P text, .jsonl Extra-P JSON Lines, .csv one row per run).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Input format (default: from the extension, else from the content).
    #[arg(long, value_name = "FMT", value_parser = crate::input::choice::<read::Format>())]
    from: Option<read::Format>,
    /// The model search.
    #[arg(long, value_parser = crate::input::choice::<Modeler>(), default_value = "vates")]
    modeler: Modeler,
    /// CSV: a parameter column (repeat for several). Default: with --metric, the columns
    /// left of the first metric; without, the columns that are not metrics; never
    /// `callpath`.
    #[arg(long, value_name = "NAME")]
    param: Vec<String>,
    /// The metric to model (repeat for several). CSV: a metric column; default: the columns
    /// whose values differ in 90% of the rows or more (measured, not a design), or else the
    /// last column (with --param: the last column that is not a parameter). Other formats:
    /// only series of this metric (default: all).
    #[arg(long, value_name = "NAME")]
    metric: Vec<String>,
    /// Only series of this callpath (region).
    #[arg(long, value_name = "NAME")]
    callpath: Option<String>,
    /// Predict at the points these bindings give: one value (`-D p=1024`), a list
    /// (`-D p=256,1024`) or a range (`-D p=64..1024:64`) per parameter, every parameter
    /// bound; several -D give every combination.
    #[arg(short = 'D', value_name = "NAME=VALUES", value_parser = crate::input::parse_define)]
    define: Vec<Define>,
    /// Predict at a point, `p=1024` or `p=1024,n=1e6` (repeat for several points); the
    /// same as -D for one point.
    #[arg(long, value_name = "POINT")]
    predict: Vec<String>,
    /// Rank the callpaths by asymptotic growth, fastest first.
    #[arg(long)]
    rank: bool,
    /// Model the metric times this parameter (strong scaling: time·p, the total work);
    /// predictions are of the metric itself.
    #[arg(long, value_name = "PARAM")]
    times: Option<String>,
    /// A basis function of the parameters for the vates modeler to try beside the PMNF
    /// blocks, e.g. "2^p" or "n^log2(7)" (repeat for several).
    #[arg(long, value_name = "EXPR")]
    term: Vec<String>,
    /// Also try Extra-P's negative exponents (decreasing terms, for strong scaling).
    #[arg(long)]
    negative_exponents: bool,
    /// Bootstrap resamples of the repetitions for the prediction intervals (0: none; at
    /// most 100000).
    #[arg(long, default_value_t = 200, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100_000))]
    bootstrap: u32,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw the model of a one-parameter series as SVG: the measurements, the model over
    /// the measured range and, to the largest `--predict` point, its extrapolation (dashed).
    /// With several series, give `--callpath` (and `--metric`) to choose one.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_parser = crate::input::choice::<report::Format>(), default_value = "text")]
    format: report::Format,
    /// Basis mode: a plain regression of the CSV column `--y` on these basis functions of
    /// the columns, separated by `;` (e.g. "n; n*log(n); n^2").
    #[arg(
        long,
        value_name = "EXPRS",
        requires = "y",
        conflicts_with_all = ["define", "predict", "rank", "times", "plot", "term", "negative_exponents", "callpath", "modeler"]
    )]
    basis: Option<String>,
    /// Basis mode: the column to explain.
    #[arg(long, value_name = "COL", requires = "basis")]
    y: Option<String>,
    /// Basis mode: the regression.
    #[arg(long, value_parser = crate::input::choice::<Method>(), default_value = "ols", requires = "basis")]
    method: Method,
    /// Basis mode, lasso-lars-cv: keep every coefficient ≥ 0.
    #[arg(long, requires = "basis")]
    positive: bool,
    /// Basis mode: no intercept.
    #[arg(long, requires = "basis")]
    no_intercept: bool,
    /// Basis mode, lasso-lars-cv: K contiguous folds, as scikit-learn's KFold(K).
    #[arg(long, default_value_t = 5, value_name = "K", requires = "basis", value_parser = clap::value_parser!(u32).range(2..))]
    cv: u32,
    /// Basis mode, lasso-lars-cv: shuffle the rows with this seed before making the folds
    /// (needed when rows are ordered by size, or every fold extrapolates).
    #[arg(long, value_name = "SEED", requires = "basis")]
    shuffle: Option<u64>,
}

crate::keyed_from!(report::Unshown);

/// Runs `vates fit`.
pub fn run(a: FitArgs, out: &mut dyn Write) -> Result<()> {
    if let (Some(spec), Some(y)) = (&a.basis, &a.y) {
        report::regression_shows(a.format, a.from)?;
        let options = BasisOptions {
            method: a.method,
            intercept: !a.no_intercept,
            positive: a.positive,
            cv: a.cv as usize,
            shuffle: a.shuffle,
        };
        let job =
            Regression::new(spec, y, options).map_err(|e| CliError::flagged("--basis: ", &e))?;
        let text = read_text(&a.file, read::MAX_BYTES, "a CSV file", read::TOO_LARGE)?;
        let f = job
            .run(&a.file.display().to_string(), &text)
            .map_err(|e| match e {
                RegressionError::Read(e) => e.into(),
                e => CliError::on_input(e.input(), &e),
            })?;
        return print(out, &report::regression(&f, a.format, a.method.name()));
    }
    let predicts = !a.predict.is_empty() || !a.define.is_empty();
    report::shows(a.format, a.rank, predicts)?;
    if let Some(path) = &a.plot {
        crate::error::check_output(path)?;
    }
    let what = "a measurement file";
    let text = read_text(&a.file, read::MAX_BYTES, what, read::TOO_LARGE)?;
    let request = read::Request::of_path(&a.file, a.from, &a.param, &a.metric);
    let loaded = request.read(&text).map_err(|e| match e {
        LoadError::Read(e) => e.into(),
        e => CliError::on_input(e.input(), &e),
    })?;
    if let Some(guessed) = &loaded.guessed {
        note(&format!(
            "note: {guessed}; choose with --param and --metric"
        ));
    }
    let job = Job {
        callpath: a.callpath.clone(),
        times: a.times.clone(),
        bindings: Define::pairs(&a.define),
        points: a.predict.clone(),
        terms: a.term.clone(),
        negative_exponents: a.negative_exponents,
        options: RunOptions {
            modeler: a.modeler,
            bootstrap: a.bootstrap as usize,
            seed: a.seed,
            ..RunOptions::default()
        },
        ..Job::loaded(loaded)
    };
    let fitted = job.run().map_err(|e| match &e {
        JobError::UnknownParam { name, .. } => {
            let given = a.define.iter().find(|d| *d.name == **name);
            let given = given.map_or(name.as_str(), |d| d.text.as_str());
            CliError::flagged(&format!("-D {given}: "), &e)
        }
        JobError::Series { .. } => CliError::flagged(&format!("{}: ", a.file.display()), &e),
        _ => CliError::on_input(e.input(), &e),
    })?;
    if let Some(path) = &a.plot {
        let svg = fitted
            .plot_one()
            .map_err(|e| CliError::on_input(e.input(), &e))?;
        crate::error::write_file(path, svg.as_bytes())?;
    }
    print(out, &fitted.report(a.format, a.rank))
}
