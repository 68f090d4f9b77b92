//! `vates probe`: measures this host for the semi-empirical method and writes the machine
//! profile; the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::PathBuf;

use termio::files::Reserved;
use termio::progress::with_steps;

use crate::error::{flag_of, json_text, note, print, CliError, Result};
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
    // The output must be writable before the probe spends its seconds (a file it creates
    // is removed if the probe stops).
    let output = a.output.as_deref().map(Reserved::open).transpose()?;
    let options = probe::Options::new(a.quick).capped(a.max_threads, a.max_array_mib);
    let stop = |e: probe::ProbeError| stopped("the probe", &e, &e.fix(&options));
    let profile = with_steps("probing", |step| probe::run(&options, step)).map_err(stop)?;
    let json = profile.to_json();
    let text = match a.format {
        Format::Json => json.clone(),
        Format::Text => probe::profile_text(&profile) + "\n" + &place("profile", &a.output),
    };
    if let Some(o) = output {
        o.write(json.as_bytes())?;
    }
    print(out, &text)
}

/// `what written to FILE`, or that it was not.
fn place(what: &str, output: &Option<std::path::PathBuf>) -> String {
    match output {
        Some(path) => format!("{what} written to {}\n", path.display()),
        None => format!("{what} not written (give -o FILE to keep it)\n"),
    }
}

/// `WHAT stopped: e`, with the library's `fix` (its input keys spelt as flags) as the hint.
fn stopped(what: &str, e: &dyn std::fmt::Display, fix: &str) -> CliError {
    CliError::with_help(
        format!("{what} stopped: {e}"),
        diag::spell_keys(fix, &flag_of),
    )
}

/// `vates probe --mpi`: the collective benchmark run here, its table written and fitted.
fn mpi(a: ProbeArgs, out: &mut dyn Write) -> Result<()> {
    let output = a.output.as_deref().map(Reserved::open).transpose()?;
    // The plot directory must be usable before the measurement spends its seconds.
    if let Some(dir) = &a.plot {
        crate::collectives::plot_dir(dir)?;
    }
    let dir = termio::files::cache_dir("set HOME or XDG_CACHE_HOME: the benchmark is built there")?;
    let ops = collectives::table::ops_among(&a.ops, &probe::mpi::OPS)
        .map_err(|e| CliError::usage(format!("--op {e}")))?;
    let o = probe::mpi::MpiOptions::new(a.quick, dir).with(&a.np, &a.sizes, ops, a.reps);
    let stop = |e: probe::mpi::MpiError| stopped("the MPI probe", &e, e.fix());
    let run = with_steps("MPI collectives", |step| probe::mpi::run(&o, step)).map_err(stop)?;
    if let Some(n) = run.built(&o) {
        note(&format!("note: {n}"));
    }
    let mut table = collectives::Table::new("µs", "integers");
    table.rows = run
        .rows
        .iter()
        .map(|r| collectives::Row::measured(&r.op, r.p, r.d, r.time_us, r.shared))
        .collect();
    if let Some(f) = output {
        f.write(table.to_csv().as_bytes())?;
    }
    let text = a.format == Format::Text;
    if text {
        let h = collectives::table::measured_heading(&run.implementation, run.wtick_s, run.cores);
        print(out, &h)?;
    }
    let opts = collectives::Options::measured_here();
    let format = match a.format {
        Format::Text => crate::collectives::ReportFormat::Text,
        Format::Json => crate::collectives::ReportFormat::Json,
    };
    crate::collectives::write_report(&table, &opts, &[], format, a.plot.as_deref(), out)?;
    match text {
        true => print(out, &place("table", &a.output)),
        false => Ok(()),
    }
}

crate::keyed_from!(collectives::micro::platform::host::HostError);

/// `vates probe --fortran`: chapter 2's platform characterisation on this host.
fn fortran(a: &ProbeArgs, out: &mut dyn Write) -> Result<()> {
    use collectives::micro::platform::host::HostProbe;
    let output = a.output.as_deref().map(Reserved::open).transpose()?;
    let dir =
        termio::files::cache_dir("set HOME or XDG_CACHE_HOME: the fragments are built there")?;
    let host = HostProbe::start(&dir, a.quick)?;
    // No spinner: a drawing thread would compete with the timings.
    note(&format!("note: {}", host.note()));
    let done = host.run()?;
    let json = json_text(&done.study)?;
    if let Some(f) = output {
        f.write(json.as_bytes())?;
    }
    let text = match a.format {
        Format::Json => json,
        Format::Text => done.text(),
    };
    print(out, &text)
}
