//! `vates fit`'s inputs: the measurement file read (binary content and size refused first)
//! and parsed in its format, and the prediction points of `-D`.

use std::path::Path;

use fit::read::{self, csv::CsvOptions, Experiment};

use super::{FitArgs, FitFormat};
use crate::error::{CliError, Result};
use crate::input::Define;

/// The largest measurement file read (bytes, 256 MiB): millions of runs, and memory for
/// their values stays well under a gigabyte.
const MAX_INPUT: usize = 256 << 20;

/// The hint for a measurement file over [`MAX_INPUT`].
const TOO_LARGE: &str = "; a file of measurements this large is more runs than a model \
     needs: keep a few repetitions per point, or split it by callpath or metric";

/// Reads a measurement file: binary content is refused at its first block, a file over
/// [`MAX_INPUT`] before it is held ([`crate::input::read_text`]).
pub(super) fn read_measurements(path: &Path, what: &str) -> Result<String> {
    Ok(crate::input::read_text(path, MAX_INPUT, what, TOO_LARGE)?)
}

impl From<FitFormat> for read::Format {
    fn from(f: FitFormat) -> Self {
        match f {
            FitFormat::Text => read::Format::Text,
            FitFormat::Jsonl => read::Format::Jsonl,
            FitFormat::Csv => read::Format::Csv,
        }
    }
}

pub(super) fn read_experiment(a: &FitArgs) -> Result<(Experiment, read::Format)> {
    let text = read_measurements(&a.file, "a measurement file")?;
    let name = a.file.display().to_string();
    let ext = a.file.extension().and_then(|e| e.to_str());
    let fmt = a
        .from
        .map_or_else(|| read::Format::guess(ext, &text), Into::into);
    let csv = CsvOptions {
        params: a.param.clone(),
        metrics: a.metric.clone(),
        callpath: None,
    };
    let e = read::read(fmt, &name, &text, &csv).map_err(|e| {
        // A column named by --param or --metric that the file lacks is a usage error, as
        // every name given by flag that the data does not have.
        if e.kind != read::ReadErrorKind::UnknownName {
            return CliError::from(e);
        }
        let named = |n: &String| e.message.contains(&format!("`{}`", diag::short(n)));
        let flag = if a.metric.iter().any(named) {
            "--metric"
        } else {
            "--param"
        };
        let help = e
            .help
            .as_deref()
            .map(|h| format!("; {h}"))
            .unwrap_or_default();
        CliError::usage(format!("{flag}: {}{help}", e.message))
    })?;
    if fmt != read::Format::Csv && !a.param.is_empty() {
        return Err(CliError::usage(
            "--param chooses CSV columns; Extra-P files name their parameters themselves",
        ));
    }
    Ok((e, fmt))
}

/// The hint for values a double-precision fit cannot handle.
pub(super) const RANGE_HELP: &str =
    "give the values in another unit (e.g. ms rather than s, or GB rather \
     than bytes) so that their squares stay below 1e308, and drop values many orders of \
     magnitude from the rest";

/// The most prediction points the -D bindings may give.
const MAX_POINTS: u64 = 10_000;

/// The prediction points of the `-D` bindings: every combination of their values, each as
/// one value per parameter of `names`. An unknown name (with the closest one), a parameter
/// left unbound, or more than [`MAX_POINTS`] points is a usage error.
pub(super) fn defined_points(defines: &[Define], names: &[String]) -> Result<Vec<Vec<f64>>> {
    if defines.is_empty() {
        return Ok(Vec::new());
    }
    for d in defines {
        if !names.iter().any(|n| *n == *d.name) {
            let hint =
                diag::did_you_mean(&diag::suggest(&d.name, names.iter().map(String::as_str)))
                    .unwrap_or_else(|| format!("the parameters are {}", names.join(", ")));
            return Err(CliError::usage(format!(
                "-D {}: no parameter `{}` in the measurements; {hint}",
                d.text, d.name
            )));
        }
    }
    if let Some(n) = names
        .iter()
        .find(|n| !defines.iter().any(|d| *d.name == **n))
    {
        return Err(CliError::usage(format!(
            "-D binds no value for the parameter `{n}`; give every parameter one, e.g. -D {n}=…"
        )));
    }
    let bindings = defines
        .iter()
        .map(|d| (d.name.clone(), d.values.clone()))
        .collect();
    let grid = expr::grid::Grid::with_limit(bindings, MAX_POINTS).map_err(|e| match e {
        // A limit hit (status 1), as every command's.
        expr::grid::GridError::TooManyPoints { .. } => CliError::msg(format!("-D: {e}")),
        e => CliError::usage(format!("-D: {e}")),
    })?;
    Ok(grid
        .points_f64()
        .map(|p| {
            names
                .iter()
                .map(|n| {
                    let k = grid.names().iter().position(|g| **g == **n);
                    k.map_or(f64::NAN, |k| p[k])
                })
                .collect()
        })
        .collect())
}
