//! `vates collectives skeleton`: an SPMD skeleton predicted from measured collectives.

use std::io::Write;
use std::path::PathBuf;

use collectives::model::Options;

use super::{check_p, did_you_mean, fitting, read_tables, statistic, FittingArg, StatisticArg};
use crate::error::{CliError, Result};

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

/// Runs `vates collectives skeleton`.
pub fn run(a: SkeletonArgs, out: &mut dyn Write) -> Result<()> {
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
