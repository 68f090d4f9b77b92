//! `vates collectives`: MacDonald's collective-communication models fitted to measurement
//! tables (CSV, OSU, IMB); `vates probe --mpi` measures one here and fits it through
//! [`fit_and_write`]. The manual is in `docs/cli.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};
use collectives::model::{Criterion, Fitting, OpModel, Options};
use collectives::{report, Form, Source, Statistic, Table};

use crate::error::{CliError, Result};

mod count;
mod points;
mod skeleton;
pub use count::CountArgs;
use points::{grid, points};
pub use skeleton::SkeletonArgs;

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
        CollectivesCommand::Skeleton(a) => skeleton::run(a, out),
        CollectivesCommand::Count(a) => count::run(a, out),
    }
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
        statistic: a.statistic,
        criterion: a.criterion,
        fitting: a.fitting,
        max_regimes: usize::from(a.regimes),
    })
}

/// ` (did you mean `x`?)` for a misspelt name, or nothing.
fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    diag::did_you_mean(&diag::suggest(name, known))
        .map(|s| format!("; {s}"))
        .unwrap_or_default()
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
    crate::error::print(out, &text)
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
