//! `vates probe`: measures this host for the semi-empirical method and writes the machine
//! profile; the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::PathBuf;

use probe::{Options, ProbeError, Profile};

use crate::error::{check_output, write_file, CliError, Result};
use crate::progress::Progress;
use crate::Format;

/// Options of `vates probe`.
#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// A short probe (a few seconds): fewer repetitions, message sizes and working sets.
    #[arg(long)]
    quick: bool,
    /// Write the machine profile (JSON) to this file.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// The largest thread count of the barrier and fork/join tables (default: twice the
    /// cores, at least 2).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=probe::MAX_THREADS as u64))]
    max_threads: Option<u64>,
    /// Output format: a table of the measurements, or the profile itself.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs `vates probe`.
pub fn run(a: ProbeArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(path) = &a.output {
        check_output(path)?;
    }
    let mut options = Options::new(a.quick);
    if let Some(n) = a.max_threads {
        options.max_threads = usize::try_from(n).unwrap_or(probe::MAX_THREADS);
    }
    let profile = probe_with_bar(&options).map_err(stopped)?;
    let json = profile.to_json();
    if let Some(path) = &a.output {
        write_file(path, json.as_bytes())?;
    }
    let text = match a.format {
        Format::Json => json,
        Format::Text => text_with_place(&profile, a.output.as_deref()),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// Runs the probe with a progress bar on standard error (long runs on a terminal only),
/// drawn between measurements from the probe's own thread so no thread competes with them.
fn probe_with_bar(options: &Options) -> std::result::Result<Profile, ProbeError> {
    let mut bar: Option<Progress> = None;
    let result = probe::run(options, &mut |done, total, what| {
        let bar = bar.get_or_insert_with(|| Progress::new(Some(total as u64), "probing"));
        bar.bar().set_message(format!("probing {what}"));
        bar.set(done as u64);
    });
    if let Some(bar) = bar {
        bar.finish();
    }
    result
}

/// The profile's table and where it was written.
fn text_with_place(profile: &Profile, output: Option<&std::path::Path>) -> String {
    let mut text = probe::profile_text(profile);
    text.push('\n');
    match output {
        Some(path) => text.push_str(&format!("profile written to {}\n", path.display())),
        None => text.push_str("profile not written (give -o FILE to keep it)\n"),
    }
    text
}

/// A probe that stopped, as a message with a hint.
fn stopped(e: ProbeError) -> CliError {
    let help = match &e {
        ProbeError::TooFewCores { .. } => {
            "run the probe on a host (or in a container) granted at least two cores"
        }
        ProbeError::Memory { .. } => "free some memory, or probe with --quick (smaller arrays)",
        ProbeError::Threads { .. } => "lower --max-threads, or raise the process's thread limit",
        _ => "run the probe again on an otherwise idle host",
    };
    CliError::with_help(format!("the probe stopped: {e}"), help)
}
