//! `threadprogs PROGRAM N P [SEED]`: runs a program and prints its segment times (summed
//! over the threads) and its wall time as CSV rows `segment,seconds` and `run,SECONDS`.
//!
//! `threadprogs ge-steps N P [SEED]` runs GE and prints instead its elimination's cost per
//! element in bands of trailing size (`threadprogs::ge::cost_by_trailing`), as CSV.

use std::process::ExitCode;

/// The bands of `ge-steps`.
const BANDS: usize = 16;

const USAGE: &str = "usage: threadprogs ge|apsp|queue|ge-steps N P [SEED]

  ge N P        Gaussian elimination of an N x N system on P workers
  apsp N P      all-pairs shortest paths on N vertices, P workers
  queue W P     W work items per worker, a critical section each, P workers
  ge-steps N P  GE, printing its elimination's cost per element by trailing size
  SEED          the inputs' random seed (default 1)

Prints `segment,seconds` per segment (summed over the threads) and `run,SECONDS` (wall
time); ge-steps prints per band of steps (seconds summed over the workers):
`trailing_from,trailing_to,working_set_mib,elements,seconds,ns_per_element`.";

/// The programs, as the first argument names them.
const PROGRAMS: [&str; 4] = ["ge", "apsp", "queue", "ge-steps"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if args.len() < 3 || args.len() > 4 {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    if !PROGRAMS.contains(&args[0].as_str()) {
        eprintln!(
            "threadprogs: unknown program `{}` ({})\n{USAGE}",
            args[0],
            PROGRAMS.join(", ")
        );
        return ExitCode::from(2);
    }
    let num = |s: &str, what: &str| -> Result<usize, String> {
        s.parse().map_err(|e: std::num::ParseIntError| {
            let why = match e.kind() {
                std::num::IntErrorKind::PosOverflow => "too large",
                _ => "not a whole number",
            };
            format!("{what} `{s}` is {why}\n{USAGE}")
        })
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
            eprintln!("threadprogs: {e}");
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
            // The program's errors name it as `ge`; ge-steps is what the user typed.
            let e = match e.strip_prefix("ge") {
                Some(rest) if steps => format!("ge-steps{rest}"),
                _ => e,
            };
            eprintln!("threadprogs: {e}");
            ExitCode::FAILURE
        }
    }
}
