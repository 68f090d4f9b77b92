//! `vates compare`: every method whose inputs a study holds against its held-out
//! measurements, and the method to trust chosen from the training data alone
//! ([`study::compare`]); the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::PathBuf;

use study::compare::{InputError, OpenError};
use study::folder::StudyError;
use study::report::Format;

use crate::error::{print, CliError, Result};

/// Options of `vates compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The study folder (made by `vates campaign run`, or one of `examples/studies/`).
    #[arg(value_name = "STUDY")]
    study: PathBuf,
    /// Output format.
    #[arg(long, value_parser = crate::input::choice::<Format>(), default_value = "text")]
    format: Format,
    /// Also write an SVG plot: the measured times and each method's predictions against
    /// the size, the sizes beyond the training ones shaded.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Bootstrap replicates of the intervals (0: none; at least 20).
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    bootstrap: u32,
    /// Seed of the bootstraps and of the simulations' random orders.
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    seed: u64,
}

/// Runs `vates compare`.
pub fn run(a: CompareArgs, out: &mut dyn Write) -> Result<()> {
    study::compare::check_bootstrap(a.bootstrap as usize)
        .map_err(|e| CliError::usage(format!("--bootstrap {e}")))?;
    if let Some(p) = &a.plot {
        crate::error::check_output(p)?;
    }
    let inputs =
        study::compare::open(&a.study, a.bootstrap as usize, a.seed).map_err(|e| match e {
            OpenError::Study(StudyError::Campaign(e)) => CliError::Report(miette::Report::new(e)),
            OpenError::Inputs(InputError::Model(e)) => CliError::Report(miette::Report::new(*e)),
            e => CliError::keyed(&e),
        })?;
    let spinner = termio::progress::Progress::new(None, "comparing the methods");
    let result = study::compare::compare(&inputs);
    spinner.finish();
    if let Some(p) = &a.plot {
        let svg = study::report::comparison_plot(&result, &study::compare::measured(&inputs))
            .map_err(|e| CliError::msg(format!("the plot: {e}")))?;
        crate::error::write_file(p, svg.as_bytes())?;
    }
    let text = match a.format {
        Format::Text => study::report::comparison_text(&result),
        Format::Json => crate::error::json_text(&result)?,
        Format::Csv => study::report::comparison_csv(&result),
    };
    print(out, &text)
}
