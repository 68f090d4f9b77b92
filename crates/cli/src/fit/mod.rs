//! `vates fit`: empirical performance models from measurements (the `fit` engine); the
//! manual is in `docs/cli.md`.

use std::io::Write;
use std::path::PathBuf;

use fit::job::{Job, JobError};
use fit::read;
use fit::report;
use fit::run::{Modeler, RunOptions};

use crate::error::{CliError, Result};
use crate::input::Define;

mod data;
use data::{read_experiment, read_measurements, RANGE_HELP};

/// Input formats of measurement files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FitFormat {
    /// Extra-P's text format (PARAMETER / POINTS / REGION / METRIC / DATA).
    Text,
    /// Extra-P's JSON Lines (`{"params": {...}, "value": ...}` per line).
    Jsonl,
    /// CSV with a header, one row per run.
    Csv,
}

/// The modelers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelerArg {
    /// Relative-error fits of up to two terms, chosen by cross-validation and a lack-of-fit
    /// test against the repetitions (the default).
    Vates,
    /// Extra-P 4.2.5's default modelers, for parity.
    Extrap,
}

/// Output formats of `vates fit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FitOutput {
    /// Aligned text for people.
    Text,
    /// One JSON object (documented schema).
    Json,
    /// LaTeX equations, one per series.
    Latex,
}

/// The regression of `--basis`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    /// Least squares (collinear bases are named).
    Ols,
    /// Non-negative least squares.
    Nnls,
    /// The Lasso by LARS, alpha by K-fold cross-validation (scikit-learn's LassoLarsCV).
    LassoLarsCv,
}

/// Options of `vates fit`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// The measurements (.txt Extra-P text, .jsonl Extra-P JSON Lines, .csv one row per run).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Input format (default: from the extension, else from the content).
    #[arg(long, value_enum, value_name = "FMT")]
    from: Option<FitFormat>,
    /// The model search.
    #[arg(long, value_enum, default_value_t = ModelerArg::Vates)]
    modeler: ModelerArg,
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
    #[arg(long, value_enum, default_value_t = FitOutput::Text)]
    format: FitOutput,
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
    #[arg(long, value_enum, default_value_t = MethodArg::Ols, requires = "basis")]
    method: MethodArg,
    /// Basis mode, lasso-lars-cv: keep every coefficient ≥ 0.
    #[arg(long, requires = "basis")]
    positive: bool,
    /// Basis mode: no intercept.
    #[arg(long, requires = "basis")]
    no_intercept: bool,
    /// Basis mode, lasso-lars-cv: K contiguous folds, as scikit-learn's KFold(K).
    #[arg(long, default_value_t = 5, value_name = "K", requires = "basis")]
    cv: usize,
    /// Basis mode, lasso-lars-cv: shuffle the rows with this seed before making the folds
    /// (needed when rows are ordered by size, or every fold extrapolates).
    #[arg(long, value_name = "SEED", requires = "basis")]
    shuffle: Option<u64>,
}

/// `vates fit FILE --basis ... --y COL`: a regression on user basis functions.
fn run_basis(a: &FitArgs, spec: &str, y: &str, out: &mut dyn Write) -> Result<()> {
    use fit::basis::{fit_bases, parse_bases, variables, BasisError, BasisOptions, Method};
    let bases = parse_bases(spec).map_err(|e| match &e {
        BasisError::Parse { error, text, .. } => CliError::usage(format!(
            "--basis: {e}\n  {text}\n  {}^",
            " ".repeat(text[..error.start.min(text.len())].chars().count())
        )),
        _ => CliError::usage(format!(
            "--basis: {e}; give functions such as \"n; n*log(n)\""
        )),
    })?;
    let mut names = variables(&bases);
    names.push(y.to_string());
    let text = read_measurements(&a.file, "a CSV file")?;
    let cols = read::csv::columns(&a.file.display().to_string(), &text, &names)
        .map_err(|e| CliError::Report(miette::Report::new(e)))?;
    let (ys, xs) = cols.split_last().expect("the y column");
    let columns: Vec<(&str, &[f64])> = names
        .iter()
        .zip(xs)
        .map(|(n, c)| (n.as_str(), c.as_slice()))
        .collect();
    let opts = BasisOptions {
        method: match a.method {
            MethodArg::Ols => Method::Ols,
            MethodArg::Nnls => Method::Nnls,
            MethodArg::LassoLarsCv => Method::LassoLarsCv,
        },
        intercept: !a.no_intercept,
        positive: a.positive,
        cv: a.cv,
        shuffle: a.shuffle,
    };
    let f = fit_bases(&bases, &columns, ys, &opts).map_err(|e| {
        let help = match e {
            BasisError::Fit(fit::FitError::Range { .. }) => RANGE_HELP,
            _ => "check the basis functions against the data (a log of 0, too few rows)",
        };
        CliError::with_help(format!("{}: {e}", a.file.display()), help)
    })?;
    let method = clap::ValueEnum::to_possible_value(&a.method)
        .map_or_else(|| "ols".to_string(), |v| v.get_name().to_string());
    let shown = match a.format {
        // `json_text` ends with the newline.
        FitOutput::Json => crate::error::json_text(&report::regression_json(&f))?,
        _ => report::regression_text(&f, &method),
    };
    write!(out, "{shown}").map_err(CliError::Stdout)
}

/// Runs `vates fit`.
pub fn run(a: FitArgs, out: &mut dyn Write) -> Result<()> {
    if let (Some(spec), Some(y)) = (&a.basis, &a.y) {
        if a.format == FitOutput::Latex {
            return Err(CliError::usage(
                "--basis prints text or JSON; use --format text or --format json",
            ));
        }
        if a.from.is_some_and(|f| f != FitFormat::Csv) {
            return Err(CliError::usage(
                "--basis reads a CSV file; drop --from or give --from csv",
            ));
        }
        return run_basis(&a, spec, y, out);
    }
    if (!a.predict.is_empty() || !a.define.is_empty())
        && (a.rank || a.format == FitOutput::Latex)
        && a.format != FitOutput::Json
    {
        return Err(CliError::usage(
            "predictions (-D, --predict) show in the text and JSON reports; drop --rank and \
             --format latex, or use --format json",
        ));
    }
    if let Some(path) = &a.plot {
        crate::error::check_output(path)?;
    }
    let (e, fmt) = read_experiment(&a)?;
    if fmt == read::Format::Csv && a.param.is_empty() && a.metric.is_empty() {
        let quoted = |v: Vec<&str>| {
            v.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        crate::error::note(&format!(
            "note: reading the CSV columns {} as parameters and {} as metrics; choose with \
             --param and --metric",
            quoted(e.parameters.iter().map(String::as_str).collect()),
            quoted(e.metrics())
        ));
    }
    let job = Job {
        callpath: a.callpath.clone(),
        // CSV reads only the --metric columns already.
        metrics: if fmt == read::Format::Csv {
            Vec::new()
        } else {
            a.metric.clone()
        },
        times: a.times.clone(),
        bindings: a
            .define
            .iter()
            .map(|d| (d.name.clone(), d.values.clone()))
            .collect(),
        points: a.predict.clone(),
        terms: a.term.clone(),
        negative_exponents: a.negative_exponents,
        options: RunOptions {
            modeler: match a.modeler {
                ModelerArg::Vates => Modeler::Vates,
                ModelerArg::Extrap => Modeler::Extrap,
            },
            bootstrap: a.bootstrap as usize,
            seed: a.seed,
            ..RunOptions::default()
        },
        ..Job::new(e)
    };
    let modeler = job.options.modeler.name();
    let fitted = job.run().map_err(|e| job_error(&a, e))?;
    if let Some(path) = &a.plot {
        let svg = fitted.plot().ok_or_else(|| {
            CliError::usage(format!(
                "--plot draws one series but {} were modelled; choose one with --callpath and --metric",
                fitted.models.len()
            ))
        })?;
        let svg = svg.map_err(|err| {
            CliError::usage(format!(
                "--plot: {err}; plot a one-parameter file, or omit --plot"
            ))
        })?;
        crate::error::write_file(path, svg.as_bytes())?;
    }
    let (names, entries) = (&fitted.names, fitted.entries());
    match a.format {
        FitOutput::Latex => {
            write!(out, "{}", report::latex(names, &entries)).map_err(CliError::Stdout)?;
        }
        FitOutput::Json => {
            let v = report::json(modeler, names, &entries);
            // One object; `json_text` ends with the newline.
            write!(out, "{}", crate::error::json_text(&v)?).map_err(CliError::Stdout)?;
        }
        FitOutput::Text if a.rank => {
            write!(out, "{}", report::rank_text(names, &fitted.ranked()))
                .map_err(CliError::Stdout)?;
        }
        FitOutput::Text => {
            write!(out, "{}", report::text(modeler, names, &entries)).map_err(CliError::Stdout)?;
        }
    }
    Ok(())
}

/// A modelling run's refusal, with the flag that caused it.
fn job_error(a: &FitArgs, e: JobError) -> CliError {
    match e {
        JobError::UnknownCallpath(m) => CliError::usage(format!("--callpath: {m}")),
        JobError::UnknownMetric(m) => CliError::usage(format!("--metric: {m}")),
        JobError::UnknownTimes { name, hint } => {
            CliError::usage(format!("--times {name}: no such parameter; {hint}"))
        }
        JobError::UnknownParam { name, hint } => {
            let given = a.define.iter().find(|d| *d.name == name);
            CliError::usage(format!(
                "-D {}: no parameter `{name}` in the measurements; {hint}",
                given.map_or(name.as_str(), |d| d.text.as_str())
            ))
        }
        JobError::Unbound { name } => CliError::usage(format!(
            "-D binds no value for the parameter `{name}`; give every parameter one, e.g. -D {name}=…"
        )),
        // A limit hit (status 1), as every command's.
        JobError::Grid(e @ expr::grid::GridError::TooManyPoints { .. }) => {
            CliError::msg(format!("-D: {e}"))
        }
        JobError::Grid(e) => CliError::usage(format!("-D: {e}")),
        JobError::Point { text, message } => {
            CliError::usage(format!("--predict `{text}`: {message}"))
        }
        JobError::TermsNeedVates => CliError::usage(
            "--term adds basis functions to the vates modeler; drop --modeler extrap",
        ),
        JobError::Term(m) => CliError::usage(format!("--term {m}")),
        JobError::Series { series, error } => {
            let message = format!("{}: {series}: {error}", a.file.display());
            match error {
                fit::FitError::Range { .. } => CliError::with_help(message, RANGE_HELP),
                _ => CliError::msg(message),
            }
        }
    }
}
