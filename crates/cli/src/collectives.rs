//! `vates collectives`: MacDonald's collective-communication models fitted to measurement
//! tables (CSV, OSU, IMB); `vates probe --mpi` measures one here and fits it through
//! [`fit_and_write`]. The manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};
use collectives::model::{Criterion, Fitting, OpModel, Options};
use collectives::{report, Form, Source, Statistic, Table};

use crate::error::{CliError, Result};

/// The largest measurement file read (bytes, 64 MiB): a million timed runs.
const MAX_INPUT: usize = 64 << 20;

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
    define: Vec<crate::input::Define>,
    /// Predict the time on one of the thesis' platforms (its operation times, Table 2-5;
    /// Table 2-13 with --optimised). Needs -D for every parameter.
    #[arg(long, value_enum, requires = "define")]
    platform: Option<PlatformArg>,
    /// With --platform: the operation times of optimised code (Table 2-13).
    #[arg(long, requires = "platform")]
    optimised: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = crate::Format::Text)]
    format: crate::Format,
}

/// `--platform`: the thesis' three workstations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlatformArg {
    /// SUN 4/50.
    Sun,
    /// DEC 3300L.
    Dec,
    /// SGI Indigo2.
    Sgi,
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
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=i64::from(collectives::table::MAX_P)))]
    osu_np: Option<u32>,
    /// The points: `-D p=2,4,8` (required), and the skeleton's parameters (`-D n=512`),
    /// each a value, a list or a range; every combination is predicted.
    #[arg(short = 'D', value_name = "NAME=VALUES", value_parser = crate::input::parse_define, required = true)]
    define: Vec<crate::input::Define>,
    /// What the models' least squares minimise.
    #[arg(long, value_enum, default_value_t = FittingArg::Relative)]
    fitting: FittingArg,
    /// The value of each measured point's repetitions that is interpolated and fitted.
    #[arg(long, value_enum, default_value_t = StatisticArg::Median)]
    statistic: StatisticArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = crate::Format::Text)]
    format: crate::Format,
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
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=i64::from(collectives::table::MAX_P)))]
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
    #[arg(long, value_enum, default_value_t = CriterionArg::Cv)]
    criterion: CriterionArg,
    /// What the least squares minimise: relative residuals, or absolute ones (the thesis).
    #[arg(long, value_enum, default_value_t = FittingArg::Relative)]
    fitting: FittingArg,
    /// The value of each point's repetitions that is fitted.
    #[arg(long, value_enum, default_value_t = StatisticArg::Median)]
    statistic: StatisticArg,
    /// The most message-size regimes a model may have (an MPI library switches protocols
    /// at sizes); each regime is fitted apart and the split is chosen like a form. 1: one
    /// formula for every size, as the thesis.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
    regimes: u8,
    /// Predict the chosen models at points: `-D p=512 -D d=1000`, each a value, a list
    /// (`p=2,4,8`) or a range (`d=1..1000:100`); the grid of every combination.
    #[arg(short = 'D', value_name = "NAME=VALUES", value_parser = crate::input::parse_define)]
    define: Vec<crate::input::Define>,
    /// Predict the chosen models at a point, `p=VALUE,d=VALUE` (repeatable; the older
    /// spelling of -D).
    #[arg(long, value_name = "p=P,d=D")]
    predict: Vec<String>,
    /// Write one SVG plot per operation (measurements against the chosen model) into this
    /// directory (created if missing).
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,
}

/// `--criterion`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CriterionArg {
    /// Leave-one-out cross-validation.
    Cv,
    /// The fitted cells (the thesis' rule).
    Fitted,
}

/// `--fitting`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FittingArg {
    /// Relative residuals.
    Relative,
    /// Absolute residuals (the thesis).
    Absolute,
}

/// `--statistic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatisticArg {
    /// The median of the repetitions.
    Median,
    /// Their mean (the thesis' "average time").
    Mean,
    /// Their minimum (the least disturbed run).
    Min,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Aligned text.
    Text,
    /// JSON (documented in docs/cli.md).
    Json,
    /// LaTeX: the chosen models as an align* environment.
    Latex,
}

/// Runs a `vates collectives` command.
pub fn run(cmd: CollectivesCommand, out: &mut dyn Write) -> Result<()> {
    match cmd {
        CollectivesCommand::Fit(a) => fit(a, out),
        CollectivesCommand::Skeleton(a) => skeleton(a, out),
        CollectivesCommand::Count(a) => count(a, out),
    }
}

fn count(a: CountArgs, out: &mut dyn Write) -> Result<()> {
    use collectives::micro;
    let text = termio::files::read_text(
        &a.fragment,
        micro::Limits::default().max_bytes,
        "a Fortran fragment",
        "; the micro-analysis reads fragments (a few loops), not whole programs",
    )?;
    let f = micro::analyse_text(&a.fragment.display().to_string(), &text)
        .map_err(|e| CliError::Report(miette::Report::new(e)))?;
    let single = crate::input::single_values(&a.define, "collectives count", None)?;
    let point: Vec<(String, f64)> = single
        .iter()
        .map(|(n, v)| (n.to_string(), expr::number::to_f64(v)))
        .collect();
    if let Some((n, v)) = point
        .iter()
        .find(|(_, v)| v.fract() != 0.0 || *v < 0.0 || *v > 1e15)
    {
        return Err(CliError::usage(format!(
            "-D {n}={}: a loop bound is a whole number from 0 to 1e15",
            trace::text::num(*v)
        )));
    }
    if let Some((n, _)) = point.iter().find(|(n, _)| !f.names.params.contains(n)) {
        let params: Vec<&str> = f.names.params.iter().map(String::as_str).collect();
        return Err(CliError::usage(format!(
            "-D {n}: the fragment's parameters are {}{}",
            if params.is_empty() {
                "none".to_string()
            } else {
                params.join(", ")
            },
            did_you_mean(n, params.iter().copied())
        )));
    }
    let times = a.platform.map(|p| {
        let i = p as usize;
        (
            micro::thesis::PLATFORMS[i],
            micro::thesis::times(i, a.optimised).expect("three platforms"),
        )
    });
    let report = micro::report::count_report(&f, &point, times.as_ref().map(|(n, t)| (*n, t)))
        .map_err(|e| CliError::usage(format!("-D: {e}")))?;
    let text = match a.format {
        crate::Format::Json => crate::error::json_text(&report)?,
        crate::Format::Text => micro::report::count_text(&report),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// The measurement tables in `files` as one table.
fn read_tables(files: &[PathBuf], osu_np: Option<u32>) -> Result<Table> {
    let mut table = Table::new("", "");
    for path in files {
        let text = termio::files::read_text(
            path,
            MAX_INPUT,
            "a measurement table",
            "; keep fewer repetitions per point",
        )?;
        let source = Source::sniff(&text);
        if source == Source::Osu && osu_np.is_none() {
            return Err(CliError::usage(format!(
                "`{}` is the output of an OSU test, which does not say how many processes \
                 ran: give it with --osu-np P",
                path.display()
            )));
        }
        let name = path.display().to_string();
        let t = collectives::read(source, &name, &text, osu_np.unwrap_or(0))?;
        table.merge(t).map_err(|m| {
            CliError::with_help(
                format!("`{name}`: {m}"),
                "fit tables of one unit together (the thesis' tables and `probe --mpi` count \
                 integers; OSU and IMB count bytes)",
            )
        })?;
    }
    Ok(table)
}

fn fit(a: FitArgs, out: &mut dyn Write) -> Result<()> {
    let mut table = read_tables(&a.files, a.osu_np)?;
    if !a.ops.is_empty() {
        let ops: Vec<String> = a
            .ops
            .iter()
            .map(|o| collectives::table::op_name(o))
            .collect();
        let known: Vec<String> = table.groups().into_iter().map(|g| g.op).collect();
        if let Some(o) = ops.iter().find(|o| !known.contains(o)) {
            return Err(CliError::usage(format!(
                "--op `{o}`: the tables have {}{}",
                known.join(", "),
                did_you_mean(o, known.iter().map(String::as_str))
            )));
        }
        table.rows.retain(|r| ops.contains(&r.op));
    }
    let opts = options(&a)?;
    if let Some(dir) = &a.plot {
        plot_dir(dir)?;
    }
    let mut points = points(&a.predict)?;
    points.extend(grid(&a.define, &table)?);
    write_report(&table, &opts, &points, a.format, a.plot.as_deref(), out)
}

fn skeleton(a: SkeletonArgs, out: &mut dyn Write) -> Result<()> {
    let text = termio::files::read_text(
        &a.skeleton,
        collectives::skeleton::MAX_BYTES,
        "a skeleton",
        "; a skeleton is a few lines per phase of the program",
    )?;
    let name = a.skeleton.display().to_string();
    let located =
        |e: collectives::skeleton::SkeletonError| CliError::Report(miette::Report::new(e));
    let skel = collectives::skeleton::parse(&name, &text).map_err(located)?;
    let table = read_tables(&a.tables, a.osu_np)?;
    let ops: Vec<String> = table.groups().into_iter().map(|g| g.op).collect();
    collectives::skeleton::check(&skel, (&name, &text), &ops).map_err(located)?;
    let params: Vec<&str> = skel.params.iter().map(|(n, _)| &**n).collect();
    if let Some(d) = a
        .define
        .iter()
        .find(|d| &*d.name != "p" && !params.contains(&&*d.name))
    {
        return Err(CliError::usage(format!(
            "-D {}: the skeleton's names are p and its parameters {}{}",
            d.text,
            params.join(", "),
            did_you_mean(&d.name, params.iter().copied())
        )));
    }
    if !a.define.iter().any(|d| &*d.name == "p") {
        return Err(CliError::usage("-D: give the processes, -D p=VALUES"));
    }
    let g = expr::grid::Grid::with_limit(
        a.define
            .iter()
            .map(|d| (d.name.clone(), d.values.clone()))
            .collect(),
        10_000,
    )
    .map_err(|e| CliError::with_help(format!("-D: {e}"), "predict fewer points"))?;
    let names: Vec<String> = g.names().iter().map(|n| n.to_string()).collect();
    let points: Vec<(f64, Vec<(String, f64)>)> = g
        .points_f64()
        .map(|v| {
            let p = names.iter().position(|n| n == "p").map_or(0.0, |i| v[i]);
            check_p(p)?;
            let params = names
                .iter()
                .zip(&v)
                .filter(|(n, _)| *n != "p")
                .map(|(n, &x)| (n.clone(), x))
                .collect();
            Ok((p, params))
        })
        .collect::<Result<_>>()?;
    let opts = Options {
        statistic: statistic(a.statistic),
        fitting: fitting(a.fitting),
        ..Options::default()
    };
    let predicted =
        collectives::skeleton::predict(&skel, &table, &opts, &points).map_err(located)?;
    let text = match a.format {
        crate::Format::Json => crate::error::json_text(&predicted)?,
        crate::Format::Text => collectives::report::skeleton_text(&predicted),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

fn statistic(s: StatisticArg) -> Statistic {
    match s {
        StatisticArg::Median => Statistic::Median,
        StatisticArg::Mean => Statistic::Mean,
        StatisticArg::Min => Statistic::Min,
    }
}

fn fitting(f: FittingArg) -> Fitting {
    match f {
        FittingArg::Relative => Fitting::Relative,
        FittingArg::Absolute => Fitting::Absolute,
    }
}

/// The fitting options the flags ask for.
fn options(a: &FitArgs) -> Result<Options> {
    let forms = a
        .forms
        .iter()
        .map(|name| {
            Form::named(name).ok_or_else(|| {
                CliError::usage(format!(
                    "--form `{name}`: the forms are {}{}",
                    Form::names().join(", "),
                    did_you_mean(name, Form::names())
                ))
            })
        })
        .collect::<Result<Vec<Form>>>()?;
    Ok(Options {
        forms,
        statistic: statistic(a.statistic),
        criterion: match a.criterion {
            CriterionArg::Cv => Criterion::CrossValidated,
            CriterionArg::Fitted => Criterion::Fitted,
        },
        fitting: fitting(a.fitting),
        max_regimes: usize::from(a.regimes),
    })
}

/// ` (did you mean `x`?)` for a misspelt name, or nothing.
fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    diag::did_you_mean(&diag::suggest(name, known))
        .map(|s| format!("; {s}"))
        .unwrap_or_default()
}

/// The points of `--predict p=P,d=D`.
fn points(given: &[String]) -> Result<Vec<(f64, f64)>> {
    let names = ["p".to_string(), "d".to_string()];
    given
        .iter()
        .map(|s| {
            let v = fit::run::parse_point(s, &names)
                .map_err(|e| CliError::usage(format!("--predict `{s}`: {e}")))?;
            check_p(v[0])?;
            check_d(v[1])?;
            Ok((v[0], v[1]))
        })
        .collect()
}

/// The points of `-D p=… -D d=…`: every combination, at most 10,000.
fn grid(defines: &[crate::input::Define], table: &Table) -> Result<Vec<(f64, f64)>> {
    if defines.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(d) = defines.iter().find(|d| !["p", "d"].contains(&&*d.name)) {
        return Err(CliError::usage(format!(
            "-D {}: the models' parameters are p (processes) and d (message size)",
            d.text
        )));
    }
    let has = |n: &str| defines.iter().any(|d| &*d.name == n);
    if !has("p") {
        return Err(CliError::usage("-D: give the processes, -D p=VALUE"));
    }
    let sized: Vec<String> = table
        .groups()
        .into_iter()
        .filter(|g| g.has_size())
        .map(|g| g.op)
        .collect();
    if !has("d") && !sized.is_empty() {
        return Err(CliError::usage(format!(
            "-D: give the message size too, -D d=VALUE: {} carry data",
            sized.join(", ")
        )));
    }
    let bindings = defines
        .iter()
        .map(|d| (d.name.clone(), d.values.clone()))
        .collect();
    let g = expr::grid::Grid::with_limit(bindings, 10_000)
        .map_err(|e| CliError::with_help(format!("-D: {e}"), "predict fewer points"))?;
    let (ip, id) = (
        g.names().iter().position(|n| &**n == "p"),
        g.names().iter().position(|n| &**n == "d"),
    );
    g.points_f64()
        .map(|v| {
            let (p, d) = (ip.map_or(0.0, |i| v[i]), id.map_or(0.0, |i| v[i]));
            check_p(p)?;
            check_d(d)?;
            Ok((p, d))
        })
        .collect()
}

/// A process count given with -D: a whole number from 1 to the tables' largest.
fn check_p(p: f64) -> Result<()> {
    let max = f64::from(collectives::table::MAX_P);
    if p.fract() != 0.0 || !(1.0..=max).contains(&p) {
        return Err(CliError::usage(format!(
            "-D p={}: p is a number of processes, a whole number from 1 to {max}",
            trace::text::num(p)
        )));
    }
    Ok(())
}

/// A message size given with -D: from 0 to 1e15.
fn check_d(d: f64) -> Result<()> {
    if !(0.0..=1e15).contains(&d) {
        return Err(CliError::usage(format!(
            "-D d={}: d is a message size, from 0 to 1e15",
            trace::text::num(d)
        )));
    }
    Ok(())
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
    let models = collectives::fit_table(table, opts);
    if let Some(m) = models.iter().find(|m| m.best().is_none()) {
        let why: Vec<String> = m
            .skipped
            .iter()
            .map(|s| format!("{}: {}", s.form, s.reason))
            .collect();
        return Err(CliError::with_help(
            format!(
                "no form could be fitted to {}: {}",
                m.group.label(),
                why.join("; ")
            ),
            "measure more points (process counts and sizes), or choose the operations with --op",
        ));
    }
    if let Some(dir) = plot_dir {
        write_plots(&models, table, dir)?;
    }
    let text = match format {
        ReportFormat::Text => {
            let mut s = report::text(&models, &table.time_unit, &table.size_unit);
            s.push_str(&report::predictions_text(
                &report::predictions(&models, points),
                &table.time_unit,
            ));
            s
        }
        ReportFormat::Json => crate::error::json_text(&report::report(
            &models,
            &table.time_unit,
            &table.size_unit,
            points,
        ))?,
        ReportFormat::Latex => report::latex(&models, &table.time_unit),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
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

/// One SVG per operation into `dir`: `broadcast.svg`, `broadcast-T3D.svg`,
/// `broadcast-shared.svg`.
fn write_plots(models: &[OpModel], table: &Table, dir: &Path) -> Result<()> {
    plot_dir(dir)?;
    for m in models {
        let mut name = m.group.op.clone();
        if !m.group.platform.is_empty() {
            name.push('-');
            name.push_str(&m.group.platform);
        }
        if m.group.shared {
            name.push_str("-shared");
        }
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let svg = report::plot(m, &table.time_unit, &table.size_unit).map_err(|e| {
            CliError::msg(format!("cannot draw the plot of {}: {e}", m.group.label()))
        })?;
        crate::error::write_file(&dir.join(format!("{name}.svg")), svg.as_bytes())?;
    }
    Ok(())
}
