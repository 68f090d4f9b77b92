//! `vates probe`: measures this host for the semi-empirical method and writes the machine
//! profile; the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::PathBuf;

use probe::{Options, ProbeError, Profile};
use termio::files::Reserved;
use termio::progress::with_steps;

use crate::error::{CliError, Result};
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
    /// The largest array the bandwidth table allocates, MiB: its array is four times the
    /// last cache, at least 64 MiB, at most this (default: 256 with --quick, 1024 without).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=(probe::MAX_BYTES >> 20)))]
    max_array_mib: Option<u64>,
    /// Output format: a table of the measurements, or the profile itself.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs `vates probe`.
pub fn run(a: ProbeArgs, out: &mut dyn Write) -> Result<()> {
    // The output must be writable before the probe spends its seconds.
    let output = a.output.as_deref().map(Reserved::open).transpose()?;
    let mut options = Options::new(a.quick);
    if let Some(n) = a.max_threads {
        options.max_threads = usize::try_from(n).unwrap_or(probe::MAX_THREADS);
    }
    if let Some(mib) = a.max_array_mib {
        options.max_bandwidth_bytes = mib << 20;
    }
    let profile = match with_steps("probing", |step| probe::run(&options, step)) {
        Ok(p) => p,
        Err(e) => {
            if let Some(o) = output {
                o.abandon();
            }
            return Err(stopped(e, &options));
        }
    };
    let json = profile.to_json();
    if let Some(o) = output {
        o.write(json.as_bytes())?;
    }
    let text = match a.format {
        Format::Json => json,
        Format::Text => text_with_place(&profile, a.output.as_deref()),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
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
fn stopped(e: ProbeError, options: &Options) -> CliError {
    let help = match &e {
        ProbeError::TooFewCores { .. } => {
            "run the probe on a host (or in a container) granted at least two cores".to_string()
        }
        ProbeError::Memory { .. } => format!(
            "free some memory, or lower --max-array-mib (now {}), or probe with --quick \
             (smaller arrays)",
            options.max_bandwidth_bytes >> 20
        ),
        ProbeError::Threads { .. } => {
            "lower --max-threads, or raise the process's thread limit".to_string()
        }
        _ => "run the probe again on an otherwise idle host".to_string(),
    };
    CliError::with_help(format!("the probe stopped: {e}"), help)
}
