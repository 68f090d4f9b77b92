//! Chapter 2's platform characterisation on this machine: the experiments and the thesis'
//! fragments A–F compiled with gfortran at -O0 and -O2 and timed, the nine operation times
//! fitted, the fragments predicted against their times in the form of Tables 2-5, 2-7 to
//! 2-9 (2-13 to 2-16 optimised) and the Mflop/s baseline of Table 2-11.
//!
//! `cargo run --release -p collectives --example micro_platform [-- --quick]`

use collectives::micro::dependence::carried;
use collectives::micro::platform::gfortran::Gfortran;
use collectives::micro::platform::study::{by_dependence, thesis_fragments};
use collectives::micro::platform::{characterise, Plan};
use collectives::micro::predict::Summary;
use collectives::micro::thesis::TABLE_2_9;
use collectives::micro::OPS;
use std::process::ExitCode;

fn row(name: &str, s: &Summary) -> String {
    let [max, min, avg, sd] = s.row();
    format!("| {name} | {max:+.0} | {min:+.0} | {avg:.1} | {sd:.1} |")
}

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
    println!("\n### Counts (Table 2-6 form) and flops (Table 2-10 form)\n");
    println!(
        "| operation | {} |",
        fragments
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}", "---|".repeat(fragments.len()));
    for op in OPS {
        let cells: Vec<String> = fragments
            .iter()
            .map(|f| f.counts.get(op).to_string())
            .collect();
        println!("| {} | {} |", op.name(), cells.join(" | "));
    }
    let flops: Vec<String> = fragments
        .iter()
        .map(|f| f.counts.flops().to_string())
        .collect();
    println!("| flops | {} |", flops.join(" | "));
    println!("\nLoop-carried dependences:");
    for f in &fragments {
        let c: Vec<String> = carried(&f.program)
            .iter()
            .map(|c| format!("{} (loop {})", c.name, c.loop_var))
            .collect();
        println!(
            "  {}: {}",
            f.name,
            if c.is_empty() {
                "none".to_string()
            } else {
                c.join(", ")
            }
        );
    }
    println!("\n### Operation times (ns; Table 2-5 / 2-13 form)\n");
    let mut head = "| operation |".to_string();
    let mut rule = "|---|".to_string();
    for l in &study.levels {
        head += &format!(" {} NNLS | {} LS |", l.opt.flag(), l.opt.flag());
        rule += "---:|---:|";
    }
    println!("{head}\n{rule}");
    for op in OPS {
        let mut line = format!("| {} |", op.name());
        for l in &study.levels {
            line += &format!(
                " {:.3} | {:.3} |",
                l.calibration.times.get(op) * 1e9,
                l.calibration.least_squares[op.index()] * 1e9
            );
        }
        println!("{line}");
    }
    for l in &study.levels {
        println!(
            "\n{}: call overhead {:.2} ns; design rank {}, condition {:.0}",
            l.opt.flag(),
            l.overhead * 1e9,
            l.calibration.rank,
            l.calibration.condition
        );
    }
    for l in &study.levels {
        println!(
            "\n### {}: prediction differences (%), Table 2-7 form\n",
            l.opt.flag()
        );
        let lengths: Vec<i64> = {
            let mut v: Vec<i64> = l.comparison.cells.iter().map(|c| c.n).collect();
            v.dedup();
            v.sort_unstable();
            v.dedup();
            v
        };
        println!(
            "| fragment | {} |",
            lengths
                .iter()
                .map(|n| format!("n = {n}"))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        println!("|---|{}", "---:|".repeat(lengths.len()));
        for f in &fragments {
            let cells: Vec<String> = lengths
                .iter()
                .map(|n| {
                    l.comparison
                        .cells
                        .iter()
                        .find(|c| c.fragment == f.name && c.n == *n)
                        .map_or("".into(), |c| format!("{:+.0}", c.percent()))
                })
                .collect();
            println!("| {} | {} |", f.name, cells.join(" | "));
        }
        println!("\nBy fragment (Table 2-8 form; max, min, avg |d|, SD |d|):\n");
        println!("| fragment | max | min | avg | SD |\n|---|---:|---:|---:|---:|");
        for (name, s) in l.comparison.by_fragment() {
            println!("{}", row(&name, &s));
        }
        println!("\nOverall (Table 2-9 form) and the Mflop/s baseline (Table 2-11 form):\n");
        println!("| prediction | max | min | avg | SD |\n|---|---:|---:|---:|---:|");
        if let Some(s) = l.comparison.summary(|_| true) {
            println!("{}", row("micro-analysis", &s));
        }
        let (independent, carried) = by_dependence(&l.comparison, &fragments);
        if let Some(s) = independent {
            println!("{}", row("micro-analysis, no carried dependence", &s));
        }
        if let Some(s) = carried {
            println!("{}", row("micro-analysis, a loop-carried dependence", &s));
        }
        if let Some(s) = l.baseline.summary(|_| true) {
            println!("{}", row("Mflop/s baseline", &s));
        }
        let rates: Vec<String> = l.rates.iter().map(|(n, r)| format!("{n} {r:.0}")).collect();
        println!(
            "\nBaseline rates (Mflop/s, geometric mean of the other fragments): {}",
            rates.join(", ")
        );
    }
    let thesis: Vec<String> = TABLE_2_9.iter().map(|r| format!("{:.0}", r[2])).collect();
    println!(
        "\nThe thesis' unoptimised average magnitudes (Table 2-9): {} %",
        thesis.join(", ")
    );
    ExitCode::SUCCESS
}
