//! `vates collectives`: MacDonald's collective models, skeletons and micro-analysis;
//! `vates probe --mpi` fits its table through [`write_report`]. Manual: `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use collectives::lower::{analyse_points, message_costs_of, Networks};
use collectives::micro::{self, thesis::Platform};
use collectives::model::{Criterion, Fitting, Options};
use collectives::points::{self, PointsError};
use collectives::{report, skeleton, table, Form, Statistic, Table, TableError};
use etccs::job::{Job as Etccs, Results};

use crate::error::{note, print, write_file, CliError, Result};
use crate::input::{read_text, Define};
pub use collectives::report::Format as ReportFormat;

/// `vates collectives` subcommands.
#[derive(Subcommand, Debug)]
pub enum CollectivesCommand {
    /// Fit symbolic models of collective operations (barrier, broadcast, scatter, gather,
    /// send-receive, …) in the process count p and the message size d to measurements, as
    /// MacDonald's thesis (chapter 3) does; rank the forms by their average prediction
    /// difference.
    Fit(FitArgs),
    /// Predict an SPMD program from its skeleton (its collectives, computation phases and
    /// loops; thesis section 3.5): numerically (the measurements interpolated) and
    /// symbolically (the fitted models summed into one formula in p and the parameters).
    Skeleton(SkeletonArgs),
    /// Micro-analysis of sequential code (thesis chapter 2): a Fortran 77 fragment's counts
    /// of the nine basic operations (Table 2-4's mapping), at a point with -D, and its time
    /// on one of the thesis' platforms (Table 2-5 or 2-13).
    Count(CountArgs),
}

/// Options of `vates collectives fit`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// Measurement files: CSV with the columns op,p,d,time (platform and shared optional;
    /// repetitions as rows), the output of an OSU latency test (with --osu-np), or of
    /// IMB-MPI1. The format is told by the content.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The number of processes the OSU outputs ran on (their text does not say).
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=i64::from(table::MAX_P)))]
    osu_np: Option<u32>,
    /// Only these operations (comma-separated: barrier,broadcast,…).
    #[arg(long = "op", value_name = "OP", value_delimiter = ',')]
    ops: Vec<String>,
    /// Only these forms (comma-separated): constant, log, linear (without size); size,
    /// log-size, linear-size (with size). Default: every form that applies.
    #[arg(long = "form", value_name = "FORM", value_delimiter = ',')]
    forms: Vec<String>,
    /// How the form is chosen: by the average prediction difference on cells left out one
    /// at a time (cv), or on the fitted cells (fitted, the thesis' rule).
    #[arg(long, value_parser = crate::input::choice::<Criterion>(), default_value = "cv")]
    criterion: Criterion,
    /// What the least squares minimise: relative residuals, or absolute ones (the thesis).
    #[arg(long, value_parser = crate::input::choice::<Fitting>(), default_value = "relative")]
    fitting: Fitting,
    /// The value of each point's repetitions that is fitted.
    #[arg(long, value_parser = crate::input::choice::<Statistic>(), default_value = "median")]
    statistic: Statistic,
    /// The most message-size regimes a model may have (an MPI library switches protocols
    /// at sizes); each regime is fitted apart and the split is chosen like a form. 1: one
    /// formula for every size, as the thesis.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
    regimes: u8,
    /// Predict the chosen models at points: `-D p=512 -D d=1000`, each a value, a list
    /// (`p=2,4,8`) or a range (`d=1..1000:100`); the grid of every combination.
    #[arg(short = 'D', value_name = "NAME=VALUES", value_parser = crate::input::parse_define)]
    define: Vec<Define>,
    /// Predict the chosen models at a point, `p=VALUE,d=VALUE` (repeatable; the older
    /// spelling of -D).
    #[arg(long, value_name = "p=P,d=D")]
    predict: Vec<String>,
    /// Write one SVG plot per operation (measurements against the chosen model) into this
    /// directory (created if missing).
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_parser = crate::input::choice::<ReportFormat>(), default_value = "text")]
    format: ReportFormat,
}

/// Options of `vates collectives skeleton`.
#[derive(clap::Args, Debug)]
pub struct SkeletonArgs {
    /// The skeleton (lines: `param NAME = EXPR`, `OPERATION SIZE`, `compute TIME`,
    /// `loop COUNT` … `end`; docs/cli.md).
    #[arg(value_name = "SKELETON")]
    skeleton: PathBuf,
    /// Measurement tables of the collectives it uses (as `collectives fit` reads them).
    #[arg(long = "table", required = true, value_name = "FILE")]
    tables: Vec<PathBuf>,
    /// The number of processes the OSU outputs ran on.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=i64::from(table::MAX_P)))]
    osu_np: Option<u32>,
    /// The points: `-D p=2,4,8` (required), and the skeleton's parameters (`-D n=512`),
    /// each a value, a list or a range; every combination is predicted.
    #[arg(short = 'D', value_name = "NAME=VALUES", value_parser = crate::input::parse_define, required = true)]
    define: Vec<Define>,
    /// What the models' least squares minimise.
    #[arg(long, value_parser = crate::input::choice::<Fitting>(), default_value = "relative")]
    fitting: Fitting,
    /// The value of each measured point's repetitions that is interpolated and fitted.
    #[arg(long, value_parser = crate::input::choice::<Statistic>(), default_value = "median")]
    statistic: Statistic,
    /// Also lower the skeleton to an Eager Timed CCS model at each point and analyse it on
    /// a bus (one transfer at a time), a perfect network (no contention), or both: the
    /// contention the collective models leave out (thesis chapter 4's two extremes).
    #[arg(long, value_parser = crate::input::choice::<Networks>())]
    etccs: Option<Networks>,
    /// With --etccs: a message's start-up on its sender, in the tables' time unit
    /// (default: the constant of `a + c·d` fitted to the tables' send-receive).
    #[arg(long, value_name = "T", requires = "etccs")]
    message_start: Option<f64>,
    /// With --etccs: the network time per integer of a message (default: the slope of that
    /// fit).
    #[arg(long, value_name = "T", requires = "etccs")]
    message_per_item: Option<f64>,
    /// With --etccs: the most states an analysis explores.
    #[arg(long, value_name = "N", requires = "etccs", default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_states: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = crate::Format::Text)]
    format: crate::Format,
}

/// Options of `vates collectives count`.
#[derive(clap::Args, Debug)]
pub struct CountArgs {
    /// The fragment: the Fortran 77 subset of the thesis' Table 2-2 (DO loops with symbolic
    /// bounds, assignments to INTEGER and REAL scalars and arrays), fixed or free form.
    #[arg(value_name = "FRAGMENT")]
    fragment: PathBuf,
    /// The values of the fragment's parameters (the names its loop bounds read):
    /// `-D N=1000`.
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = crate::input::parse_define)]
    define: Vec<Define>,
    /// Predict the time on one of the thesis' platforms (its operation times, Table 2-5;
    /// Table 2-13 with --optimised). Needs -D for every parameter.
    #[arg(long, value_parser = crate::input::choice::<Platform>(), requires = "define")]
    platform: Option<Platform>,
    /// With --platform: the operation times of optimised code (Table 2-13).
    #[arg(long, requires = "platform")]
    optimised: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = crate::Format::Text)]
    format: crate::Format,
}

/// Runs a `vates collectives` command.
pub fn run(cmd: CollectivesCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        CollectivesCommand::Fit(a) => fit(a, out),
        CollectivesCommand::Skeleton(a) => skeleton(a, out),
        CollectivesCommand::Count(a) => count(a, out),
    }
}

/// The measurement tables in `files` as one table.
fn read_tables(files: &[PathBuf], osu_np: Option<u32>) -> Result<Table> {
    let mut table = Table::new("", "");
    for path in files {
        let what = "a measurement table";
        let text = read_text(path, table::MAX_BYTES, what, table::TOO_LARGE)?;
        let name = path.display().to_string();
        table.add(&name, &text, osu_np).map_err(|e| match e {
            TableError::Read(e) => e.into(),
            e => CliError::flagged("", &e),
        })?;
    }
    Ok(table)
}

/// Runs `vates collectives fit`.
fn fit(a: FitArgs, out: &mut dyn Write) -> Result<()> {
    let mut table = read_tables(&a.files, a.osu_np)?;
    table
        .keep_ops(&a.ops)
        .map_err(|e| CliError::flagged("--op ", &e))?;
    let opts = Options {
        forms: Form::all_named(&a.forms).map_err(|e| CliError::flagged("--form ", &e))?,
        statistic: a.statistic,
        criterion: a.criterion,
        fitting: a.fitting,
        max_regimes: usize::from(a.regimes),
    };
    if let Some(dir) = &a.plot {
        plot_dir(dir)?;
    }
    let points = points::parse_points(&a.predict);
    let mut points = points.map_err(|e| points_error("--predict", e))?;
    let grid = points::table_points(&Define::pairs(&a.define), &table);
    points.extend(grid.map_err(|e| points_error("-D", e))?);
    write_report(&table, &opts, &points, a.format, a.plot.as_deref(), out)
}

/// A points error as a message naming `flag` (`-D` or `--predict`).
fn points_error(flag: &str, e: PointsError) -> CliError {
    CliError::flagged(&format!("{flag}{}", e.join()), &e)
}

/// Fits `table` and writes the report in `format` to `out`, and the plots into `plot_dir`.
pub fn write_report(
    table: &Table,
    opts: &Options,
    points: &[(f64, f64)],
    format: ReportFormat,
    plot_dir: Option<&Path>,
    out: &mut dyn Write,
) -> Result<()> {
    let models = collectives::fit_all(table, opts).map_err(|e| CliError::flagged("", &e))?;
    if let Some(dir) = plot_dir {
        self::plot_dir(dir)?;
        for (name, svg) in report::plots(&models, table).map_err(|e| CliError::flagged("", &e))? {
            write_file(&dir.join(name), svg.as_bytes())?;
        }
    }
    print(out, &report::render(&models, table, points, format))
}

/// Creates the plot directory `dir` (if missing); an error names it when it is a file or
/// cannot be created.
pub fn plot_dir(dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::usage(format!(
            "--plot `{}` is a file: give a directory, where one SVG per operation is written",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::write(dir, &e))
}

/// Runs `vates collectives skeleton`.
fn skeleton(a: SkeletonArgs, out: &mut dyn Write) -> Result<()> {
    let (limit, advice) = (skeleton::MAX_BYTES, skeleton::TOO_LARGE);
    let text = read_text(&a.skeleton, limit, "a skeleton", advice)?;
    let name = a.skeleton.display().to_string();
    let skel = skeleton::parse(&name, &text)?;
    let table = read_tables(&a.tables, a.osu_np)?;
    skel.check_with((&name, &text), &table)?;
    let points = skel.points(&Define::pairs(&a.define));
    let points = points.map_err(|e| points_error("-D", e))?;
    let opts = Options {
        statistic: a.statistic,
        fitting: a.fitting,
        ..Options::default()
    };
    let mut predicted = skeleton::predict(&skel, &table, &opts, &points)?;
    if let Some(networks) = a.etccs {
        let given = (a.message_start, a.message_per_item);
        let costs = message_costs_of(&table, opts.statistic, given);
        let costs = costs.map_err(|e| CliError::on_input(e.input(), &e))?;
        note(&format!("note: --etccs: {costs}"));
        analyse_points(&skel, &costs, networks, &mut predicted, &mut |model| {
            let job = Etccs {
                max_states: usize::try_from(a.max_states).unwrap_or(usize::MAX),
                ..Etccs::new("lowered.etccs", model)
            };
            match job.run() {
                Ok(Results::One(one)) => Ok(one.concrete().first().map_or((0, None), |an| {
                    (an.states, an.exec.keys().last().map(expr::number::to_f64))
                })),
                Ok(_) => Err("more than one analysis".into()),
                Err(e) => Err(format!("{e} (raise --max-states, or a smaller p)")),
            }
        });
    }
    print(out, &predicted.render(a.format == crate::Format::Json))
}

/// Runs `vates collectives count`.
fn count(a: CountArgs, out: &mut dyn Write) -> Result<()> {
    let limit = micro::Limits::default().max_bytes;
    let text = read_text(&a.fragment, limit, "a Fortran fragment", micro::TOO_LARGE)?;
    let f = micro::analyse_text(&a.fragment.display().to_string(), &text)?;
    let point = crate::input::single_values(&a.define, "collectives count", None)?;
    let platform = a.platform.map(|p| (p, a.optimised));
    let report = micro::report::count_at(&f, &point, platform);
    let report = report.map_err(|e| CliError::on_input(e.input(), &e))?;
    print(out, &report.render(a.format == crate::Format::Json))
}
