//! `threadprogs PROGRAM N P [SEED]`: runs a program and prints its segment times (summed
//! over the threads) and its wall time as CSV rows `segment,seconds` and `run,SECONDS`.
//!
//! `threadprogs ge-steps N P [SEED]` runs GE and prints instead its elimination's cost per
//! element in bands of trailing size (`threadprogs::ge::cost_by_trailing`), as CSV.

use std::process::ExitCode;

/// The bands of `ge-steps`.
const BANDS: usize = 16;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: threadprogs ge|apsp|queue|ge-steps N P [SEED]";
    if args.len() < 3 || args.len() > 4 {
        eprintln!("{usage}");
        return ExitCode::from(2);
    }
    let num = |s: &str, what: &str| -> Result<usize, String> {
        s.parse()
            .map_err(|_| format!("{what} `{s}` is not a whole number\n{usage}"))
    };
    let parsed = (|| -> Result<(usize, usize, u64), String> {
        let seed = match args.get(3) {
            Some(s) => num(s, "SEED")? as u64,
            None => 1,
        };
        Ok((num(&args[1], "N")?, num(&args[2], "P")?, seed))
    })();
    let (n, p, seed) = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let steps = args[0] == "ge-steps";
    let program = if steps { "ge" } else { args[0].as_str() };
    match threadprogs::run(program, n, p, seed) {
        Ok(r) if steps => {
            println!("trailing_from,trailing_to,working_set_mib,elements,seconds,ns_per_element");
            for b in threadprogs::ge::cost_by_trailing(&r.steps, BANDS) {
                println!(
                    "{},{},{:.1},{},{},{:.4}",
                    b.trailing.0,
                    b.trailing.1,
                    b.working_set / 1048576.0,
                    b.elements,
                    b.seconds,
                    b.ns_per_element()
                );
            }
            eprintln!("ge: {}", r.check);
            ExitCode::SUCCESS
        }
        Ok(r) => {
            print!("{}", r.csv());
            eprintln!("{}: {}", args[0], r.check);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("threadprogs: {e}");
            ExitCode::FAILURE
        }
    }
}
