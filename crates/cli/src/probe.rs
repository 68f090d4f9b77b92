//! `vates probe`: measures this host for the semi-empirical method and writes the machine
//! profile; the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::PathBuf;

use probe::{Options, ProbeError, Profile};

use crate::error::{check_output, CliError, Result};
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
    let output = a.output.as_deref().map(Output::open).transpose()?;
    let mut options = Options::new(a.quick);
    if let Some(n) = a.max_threads {
        options.max_threads = usize::try_from(n).unwrap_or(probe::MAX_THREADS);
    }
    if let Some(mib) = a.max_array_mib {
        options.max_bandwidth_bytes = mib << 20;
    }
    let profile = match probe_with_bar(&options) {
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

/// The `-o` file, opened for writing before the probe runs (so `-o /proc/x.json` fails at
/// once, not after the probe) and written when it is done.
struct Output {
    path: std::path::PathBuf,
    file: std::fs::File,
    /// Whether opening created the file (removed again if the probe stops).
    created: bool,
}

impl Output {
    /// Opens `path` for writing without truncating it: an existing profile stays as it is
    /// until the new one is written.
    fn open(path: &std::path::Path) -> Result<Output> {
        check_output(path)?;
        let existed = path.exists();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| CliError::write(path, &e))?;
        Ok(Output {
            path: path.to_path_buf(),
            file,
            created: !existed,
        })
    }

    /// Replaces the file's contents with `bytes`.
    fn write(mut self, bytes: &[u8]) -> Result<()> {
        let fail = |e: std::io::Error| CliError::write(&self.path, &e);
        // A regular file is emptied first; a device or pipe (`-o /dev/stdout`) has no length.
        if self.file.metadata().is_ok_and(|m| m.is_file()) {
            self.file.set_len(0).map_err(fail)?;
        }
        self.file.write_all(bytes).map_err(fail)?;
        self.file.flush().map_err(fail)
    }

    /// The probe stopped: a file this run created is removed, an existing one kept.
    fn abandon(self) {
        if self.created {
            drop(self.file);
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
