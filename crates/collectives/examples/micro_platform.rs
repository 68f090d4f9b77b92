//! Chapter 2's platform characterisation on this machine: the experiments and the thesis'
//! fragments A–F compiled with gfortran at -O0 and -O2 and timed, the nine operation times
//! fitted, the fragments predicted against their times in the form of Tables 2-5, 2-7 to
//! 2-9 (2-13 to 2-16 optimised) and the Mflop/s baseline of Table 2-11.
//!
//! `cargo run --release -p collectives --example micro_platform [-- --quick]`

use collectives::micro::platform::gfortran::Gfortran;
use collectives::micro::platform::study::thesis_fragments;
use collectives::micro::platform::{characterise, Plan};
use std::process::ExitCode;

fn main() -> ExitCode {
    let quick = std::env::args().any(|a| a == "--quick");
    let plan = if quick { Plan::quick() } else { Plan::thesis() };
    let mut runner = Gfortran::new(std::env::temp_dir().join("vates-micro"));
    match runner.version() {
        Ok(v) => println!("compiler: {v}"),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    let fragments = match thesis_fragments() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let study = match characterise(&mut runner, &plan, &fragments) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    print!(
        "{}",
        collectives::micro::report::study_text(&study, &fragments)
    );
    ExitCode::SUCCESS
}
