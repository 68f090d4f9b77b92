//! `bots KERNEL N [key=value ...]`: builds the kernel's input, runs the traced kernel as
//! the body of `taskrec::run` (so `VATES_TASKREC=FILE` records its DAG), verifies the
//! result and prints one line, e.g. `fib n=30 ok value=832040 seconds=0.004`.
//!
//! Exit status 1, with a message on standard error, on bad arguments or a failed check.

use bots::{fft, fib, nqueens, sort, sparselu, strassen, traced};
use std::process::ExitCode;
use std::time::Instant;

/// One kernel's options: name, meaning, default.
type Options = &'static [(&'static str, &'static str, u64)];

fn options(kernel: &str) -> Options {
    match kernel {
        "fft" => &[
            ("c", "loop cut-off (BOTS hard-codes 128)", 128),
            ("seed", "input seed", 1),
        ],
        "fib" => &[("x", "depth cut-off", 19)],
        "nqueens" => &[("x", "depth cut-off", 7)],
        "sort" => &[
            ("a", "merge cut-off", 512),
            ("y", "quicksort cut-off", 512),
            ("b", "insertion-sort threshold", 20),
            ("seed", "input seed", 1),
        ],
        "sparselu" => &[("m", "block size", 30), ("seed", "genmat seed", 1325)],
        "strassen" => &[
            ("x", "depth cut-off", 7),
            ("y", "matrix-size cut-off", 32),
            ("seed", "input seed", 1),
        ],
        _ => &[],
    }
}

/// The range of `N` a kernel takes, and what `N` is.
fn n_range(kernel: &str) -> (u64, u64, &'static str) {
    match kernel {
        "fft" => (1, 1 << 28, "points, a power of two"),
        "fib" => (0, u64::from(fib::MAX_N), "the Fibonacci index"),
        "nqueens" => (1, nqueens::MAX_N as u64, "the board size"),
        "sort" => (1, 1 << 31, "numbers to sort"),
        "sparselu" => (1, 1000, "blocks per dimension"),
        "strassen" => (
            1,
            1 << 14,
            "matrix rows, halving evenly down to y (a power of two)",
        ),
        _ => (0, 0, ""),
    }
}

fn usage() -> String {
    let mut s = String::from(
        "usage: bots KERNEL N [key=value ...]\n\
         Runs a BOTS kernel under taskrec (VATES_TASKREC=FILE records its DAG), verifies it \
         and prints one line.\n\nkernels and options (defaults are the paper's cut-offs):\n",
    );
    for k in bots::KERNELS {
        let (lo, hi, what) = n_range(k);
        s.push_str(&format!("  {k:<9} N = {what} ({lo}..={hi})\n"));
        for (key, meaning, default) in options(k) {
            let kv = format!("{key}={default}");
            s.push_str(&format!("      {kv:<10} {meaning}\n"));
        }
    }
    s.push_str("\nexamples: bots fib 30 x=19   bots sort 1048576   bots sparselu 50 m=30\n");
    s
}

/// Parses a non-negative integer, also written `2^K`.
fn parse_number(s: &str) -> Option<u64> {
    if let Some((base, exp)) = s.split_once('^') {
        let base: u64 = base.parse().ok()?;
        let exp: u32 = exp.parse().ok()?;
        return base.checked_pow(exp);
    }
    s.parse().ok()
}

struct Args {
    kernel: &'static str,
    n: u64,
    values: Vec<u64>,
}

impl Args {
    /// The value of option `key` (given or default).
    fn get(&self, key: &str) -> u64 {
        options(self.kernel)
            .iter()
            .position(|(k, _, _)| *k == key)
            .map_or(0, |i| self.values[i])
    }

    fn usize(&self, key: &str) -> usize {
        usize::try_from(self.get(key)).unwrap_or(usize::MAX)
    }

    fn u32(&self, key: &str) -> u32 {
        u32::try_from(self.get(key)).unwrap_or(u32::MAX)
    }
}

fn parse(args: &[String]) -> Result<Args, String> {
    let [kernel, n, rest @ ..] = args else {
        return Err(format!("expected a kernel and a size\n\n{}", usage()));
    };
    let Some(kernel) = bots::KERNELS.into_iter().find(|k| k == kernel) else {
        return Err(format!(
            "unknown kernel '{kernel}': the kernels are {}",
            bots::KERNELS.join(", ")
        ));
    };
    let (lo, hi, what) = n_range(kernel);
    let n = parse_number(n)
        .ok_or_else(|| format!("bad size N '{n}': expected a non-negative integer ({what})"))?;
    if n < lo || n > hi {
        return Err(format!(
            "size N = {n} out of range for {kernel}: {what}, {lo}..={hi}"
        ));
    }
    let opts = options(kernel);
    let mut values: Vec<u64> = opts.iter().map(|o| o.2).collect();
    for a in rest {
        let names = || opts.iter().map(|o| o.0).collect::<Vec<_>>().join(", ");
        let Some((key, value)) = a.split_once('=') else {
            return Err(format!(
                "bad option '{a}': options are key=value ({kernel} takes {})",
                names()
            ));
        };
        let Some(i) = opts.iter().position(|o| o.0 == key) else {
            return Err(format!(
                "unknown option '{key}' for {kernel} (options: {})",
                names()
            ));
        };
        values[i] = parse_number(value).ok_or_else(|| {
            format!("bad value for option {key}: '{value}' is not a non-negative integer")
        })?;
    }
    let args = Args { kernel, n, values };
    check(&args)?;
    Ok(args)
}

/// Runs `body` under `taskrec::run` as `kernel` with parameter `n`, timing it.
fn timed<R: Send>(kernel: &str, n: u64, body: impl FnOnce() -> R + Send) -> (R, f64) {
    let t0 = Instant::now();
    let r = taskrec::run(kernel, &[("n", n as f64)], body);
    (r, t0.elapsed().as_secs_f64())
}

/// The kernel-specific checks of the size and the options.
fn check(args: &Args) -> Result<(), String> {
    let nu = usize::try_from(args.n)
        .map_err(|_| format!("size {} is too large for this machine", args.n))?;
    match args.kernel {
        "sort" => sort_config(args).validate(),
        "sparselu" => match args.usize("m") {
            1..=1024 => Ok(()),
            m => Err(format!("block size m = {m} out of range 1..=1024")),
        },
        "strassen" => strassen_config(args).validate(nu),
        "fft" => fft::validate(nu),
        _ => Ok(()),
    }
}

fn sort_config(args: &Args) -> sort::Config {
    sort::Config {
        merge_cutoff: args.usize("a"),
        quick_cutoff: args.usize("y"),
        insertion_cutoff: args.usize("b"),
    }
}

fn strassen_config(args: &Args) -> strassen::Config {
    strassen::Config {
        depth_cutoff: args.u32("x"),
        size_cutoff: args.usize("y"),
    }
}

/// Runs the kernel (its arguments checked): the text after `ok`, or why the result
/// failed its check.
fn run(args: &Args) -> Result<String, String> {
    let n = args.n;
    let nu = n as usize;
    let line = match args.kernel {
        "fib" => {
            let cfg = fib::Config {
                cutoff: args.u32("x"),
            };
            let (v, t) = timed("fib", n, || traced::fib::run(n as u32, &cfg));
            fib::verify(n as u32, v)?;
            format!("value={v} seconds={t:.6}")
        }
        "nqueens" => {
            let cfg = nqueens::Config {
                cutoff: args.u32("x"),
            };
            let (v, t) = timed("nqueens", n, || traced::nqueens::run(nu, &cfg));
            nqueens::verify(nu, v)?;
            format!("solutions={v} seconds={t:.6}")
        }
        "sort" => {
            let cfg = sort_config(args);
            let input = sort::input(nu, args.get("seed"));
            let mut data = input.clone();
            let mut tmp = vec![0i64; nu];
            let ((), t) = timed("sort", n, || traced::sort::run(&mut data, &mut tmp, &cfg));
            sort::verify(&input, &data)?;
            format!("seconds={t:.6}")
        }
        "sparselu" => {
            let cfg = sparselu::Config {
                block: args.usize("m"),
            };
            let original = sparselu::input(nu, &cfg, args.get("seed"));
            let mut lu = original.clone();
            let ((), t) = timed("sparselu", n, || traced::sparselu::run(&mut lu));
            let r = sparselu::verify(&original, &lu)?;
            let (before, after) = (original.present(), lu.present());
            format!("residual={r:.3e} blocks={before}->{after} seconds={t:.6}")
        }
        "strassen" => {
            let cfg = strassen_config(args);
            let seed = args.get("seed");
            let (a, b) = strassen::input(nu, seed);
            let mut c = vec![0.0; nu * nu];
            let ((), t) = timed("strassen", n, || {
                traced::strassen::run(&a, &b, &mut c, nu, &cfg)
            });
            let e = strassen::verify(&a, &b, &c, nu, seed)?;
            format!("error={e:.3e} seconds={t:.6}")
        }
        "fft" => {
            let cfg = fft::Config {
                loop_cutoff: args.usize("c"),
            };
            let input = fft::input(nu, args.get("seed"));
            let mut scratch = input.clone();
            let mut out = vec![fft::Complex::default(); nu];
            let ((), t) = timed("fft", n, || traced::fft::run(&mut scratch, &mut out, &cfg));
            drop(scratch);
            let e = fft::verify(&input, &out)?;
            format!("error={e:.3e} seconds={t:.6}")
        }
        other => return Err(format!("unknown kernel '{other}'")),
    };
    Ok(line)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args
        .iter()
        .any(|a| a == "-h" || a == "--help" || a == "help")
    {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let args = match parse(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bots: {e}");
            return ExitCode::FAILURE;
        }
    };
    match run(&args) {
        Ok(line) => {
            println!("{} n={} ok {line}", args.kernel, args.n);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("bots: {} n={} FAILED: {e}", args.kernel, args.n);
            ExitCode::FAILURE
        }
    }
}
