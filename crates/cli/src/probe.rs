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
    /// Measure MPI collectives instead (MacDonald's chapter 3): build a benchmark with
    /// mpicc, run it with mpirun over process counts and message sizes, write the table
    /// with -o (CSV op,p,d,time,shared) and fit the thesis' models to it. Process counts
    /// above the cores run time-shared and are fitted apart.
    #[arg(long, conflicts_with = "fortran")]
    mpi: bool,
    /// Characterise this host for MacDonald's micro-analysis (thesis section 2.2) instead:
    /// time generated Fortran fragments compiled with gfortran at -O0 and -O2, fit the nine
    /// basic operation times, and predict the thesis' fragments A-F against their measured
    /// times beside the Mflop/s baseline (Tables 2-5 to 2-11). About a minute; --quick a few
    /// seconds.
    #[arg(long)]
    fortran: bool,
    /// With --mpi: the process counts, one mpirun each (default 2,4; 2,4,8 without --quick).
    #[arg(long = "np", value_name = "P", value_delimiter = ',', requires = "mpi", value_parser = clap::value_parser!(u32).range(1..=i64::from(probe::mpi::MAX_PROCESSES)))]
    np: Vec<u32>,
    /// With --mpi: the message sizes in integers (default powers of 2 from 1 to 65536 with
    /// --quick, to 1048576 without).
    #[arg(long, value_name = "D", value_delimiter = ',', requires = "mpi", value_parser = clap::value_parser!(u64).range(0..=probe::mpi::MAX_SIZE))]
    sizes: Vec<u64>,
    /// With --mpi: the operations (default all: barrier, broadcast, scatter, gather,
    /// reduce, allreduce, alltoall, send-receive).
    #[arg(
        long = "op",
        value_name = "OP",
        value_delimiter = ',',
        requires = "mpi"
    )]
    ops: Vec<String>,
    /// With --mpi: timed repetitions per operation and size (default 10; 20 without
    /// --quick).
    #[arg(long, value_name = "N", requires = "mpi", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    reps: Option<u32>,
    /// With --mpi: write one SVG plot per operation into this directory.
    #[arg(long, value_name = "DIR", requires = "mpi")]
    plot: Option<PathBuf>,
}

/// Runs `vates probe`.
pub fn run(a: ProbeArgs, out: &mut dyn Write) -> Result<()> {
    if a.mpi {
        return mpi(a, out);
    }
    if a.fortran {
        return fortran(&a, out);
    }
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

/// `vates probe --mpi`: the collective benchmark run here, its table written and fitted.
fn mpi(a: ProbeArgs, out: &mut dyn Write) -> Result<()> {
    let output = a.output.as_deref().map(Reserved::open).transpose()?;
    // The plot directory must be usable before the measurement spends its seconds.
    if let Some(dir) = &a.plot {
        crate::collectives::plot_dir(dir)?;
    }
    let dir = termio::files::cache_dir("set HOME or XDG_CACHE_HOME: the benchmark is built there")?;
    let mut o = probe::mpi::MpiOptions::new(a.quick, dir);
    if !a.np.is_empty() {
        o.processes = a.np.clone();
    }
    if !a.sizes.is_empty() {
        o.sizes = a.sizes.clone();
    }
    if !a.ops.is_empty() {
        o.ops = a
            .ops
            .iter()
            .map(|s| collectives::table::op_name(s))
            .collect();
        if let Some((given, _)) = a
            .ops
            .iter()
            .zip(&o.ops)
            .find(|(_, op)| !probe::mpi::OPS.contains(&op.as_str()))
        {
            let hint = diag::did_you_mean(&diag::suggest(given, probe::mpi::OPS))
                .map(|s| format!("; {s}"))
                .unwrap_or_default();
            return Err(CliError::usage(format!(
                "--op `{given}`: the benchmark times {}{hint}",
                probe::mpi::OPS.join(", ")
            )));
        }
    }
    if let Some(r) = a.reps {
        o.repetitions = r;
    }
    let run = match with_steps("MPI collectives", |step| probe::mpi::run(&o, step)) {
        Ok(r) => r,
        Err(e) => {
            if let Some(f) = output {
                f.abandon();
            }
            return Err(mpi_error(e));
        }
    };
    if run.compiled {
        crate::error::note(&format!(
            "note: built the MPI benchmark (vates_mpi_bench.c, with {}) into {}",
            o.mpicc,
            o.cache_dir.display()
        ));
    }
    let mut table = collectives::Table::new("µs", "integers");
    table.rows = run
        .rows
        .iter()
        .map(|r| collectives::Row {
            platform: String::new(),
            op: r.op.clone(),
            p: r.p,
            d: r.d.map(|d| d as f64),
            time: r.time_us,
            shared: r.shared,
        })
        .collect();
    if let Some(f) = output {
        f.write(table.to_csv().as_bytes())?;
    }
    if a.format == Format::Text {
        let line =
            format!(
            "{}; MPI_Wtime resolution {} s; {} cores: runs on more processes are time-shared\n\n",
            if run.implementation.is_empty() { "MPI" } else { &run.implementation },
            trace::text::num(run.wtick_s),
            run.cores
        );
        out.write_all(line.as_bytes()).map_err(CliError::Stdout)?;
    }
    // The least disturbed repetition of each point: on a shared host the others carry
    // the other programs' time slices.
    let opts = collectives::Options {
        statistic: collectives::Statistic::Min,
        ..collectives::Options::default()
    };
    let format = match a.format {
        Format::Text => crate::collectives::ReportFormat::Text,
        Format::Json => crate::collectives::ReportFormat::Json,
    };
    crate::collectives::write_report(&table, &opts, &[], format, a.plot.as_deref(), out)?;
    if a.format == Format::Text {
        let line = match &a.output {
            Some(path) => format!("table written to {}\n", path.display()),
            None => "table not written (give -o FILE to keep it)\n".to_string(),
        };
        out.write_all(line.as_bytes()).map_err(CliError::Stdout)?;
    }
    Ok(())
}

/// An MPI probe that stopped, as a message with a hint.
fn mpi_error(e: probe::mpi::MpiError) -> CliError {
    use probe::mpi::MpiError;
    let help = match &e {
        MpiError::NotInstalled { .. } => {
            "install an MPI (Debian: apt install openmpi-bin libopenmpi-dev)".to_string()
        }
        MpiError::Options(_) => "see `vates probe --help` for --np, --sizes and --op".into(),
        MpiError::Build(_) => {
            "check the MPI installation (mpicc must compile a C program: Debian's \
             libopenmpi-dev)"
                .into()
        }
        MpiError::Timeout { .. } => {
            "fewer or smaller --sizes, fewer --reps, or fewer --np process counts".into()
        }
        MpiError::Run { .. } | MpiError::Output { .. } => {
            "run `mpirun -np 2 hostname` to check the MPI installation".into()
        }
    };
    CliError::with_help(format!("the MPI probe stopped: {e}"), help)
}

/// `vates probe --fortran`: chapter 2's platform characterisation on this host.
fn fortran(a: &ProbeArgs, out: &mut dyn Write) -> Result<()> {
    use collectives::micro::platform::{characterise, gfortran::Gfortran, study, Plan};
    let output = a.output.as_deref().map(Reserved::open).transpose()?;
    let dir =
        termio::files::cache_dir("set HOME or XDG_CACHE_HOME: the fragments are built there")?;
    let mut runner = Gfortran::new(dir.join("micro"));
    let version = runner.version().map_err(|e| {
        CliError::with_help(
            format!("the Fortran probe cannot start: {e}"),
            "install gfortran (Debian: apt install gfortran)",
        )
    })?;
    let fragments = study::thesis_fragments()
        .map_err(|e| CliError::msg(format!("the thesis' fragments: {e}")))?;
    let plan = if a.quick {
        Plan::quick()
    } else {
        Plan::thesis()
    };
    // No spinner: a drawing thread would compete with the timings.
    crate::error::note(&format!(
        "note: timing Fortran fragments built with {version} ({})",
        if a.quick {
            "a few seconds"
        } else {
            "about a minute"
        }
    ));
    let result = characterise(&mut runner, &plan, &fragments);
    let study = match result {
        Ok(s) => s,
        Err(e) => {
            if let Some(f) = output {
                f.abandon();
            }
            return Err(CliError::with_help(
                format!("the Fortran probe stopped: {e}"),
                "run it again on an otherwise idle host; check that gfortran compiles a program",
            ));
        }
    };
    let json = crate::error::json_text(&study)?;
    if let Some(f) = output {
        f.write(json.as_bytes())?;
    }
    let text = match a.format {
        Format::Json => json,
        Format::Text => format!(
            "compiler: {version}\n{}",
            collectives::micro::report::study_text(&study, &fragments)
        ),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
