//! `vates collectives count`: a Fortran fragment's operation counts (thesis chapter 2).

use std::io::Write;
use std::path::PathBuf;

use clap::ValueEnum;

use super::did_you_mean;
use crate::error::{CliError, Result};

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

/// Runs `vates collectives count`.
pub fn run(a: CountArgs, out: &mut dyn Write) -> Result<()> {
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
