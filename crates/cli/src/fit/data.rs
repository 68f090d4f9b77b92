//! `vates fit`'s inputs: the measurement file read (binary content and size refused first)
//! and parsed in its format, and the prediction points of `-D`.

use std::path::Path;

use fit::read::{self, csv::CsvOptions, Experiment};

use super::{FitArgs, FitFormat};
use crate::error::{CliError, Result};

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
