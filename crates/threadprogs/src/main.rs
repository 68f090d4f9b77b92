//! `threadprogs PROGRAM N P [SEED]`: runs a program and prints its segment times (summed
//! over the threads) and its wall time as CSV rows `segment,seconds` and `run,SECONDS`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: threadprogs ge|apsp|queue N P [SEED]";
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
    match threadprogs::run(&args[0], n, p, seed) {
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
