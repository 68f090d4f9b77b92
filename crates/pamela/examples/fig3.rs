//! The random-model experiment of the paper's Fig. 3: α = T^l/T against the contention index
//! θ = ln(ω/φ) for 1000 random PAMELA models.
//!
//! Each model is `N = 100` coarse-grain tasks in parallel; each task runs a long sequence of
//! accesses, each a think time (`delay`) followed by service on one of `M` resources chosen
//! uniformly at random (load balance is the worst case for the bound). `M` varies from 2 to
//! 100 across models, and the ratio of think to service time is drawn so that θ spreads over
//! (−2, 2). The paper does not give its generator; this one follows its description. Times
//! are deterministic per access but vary between accesses (uniform ±50%).
//!
//! ```text
//! cargo run --release -p pamela --example fig3 -- [--models 1000] [--tasks 100]
//!     [--accesses 40] [--seed 1] [--svg fig3.svg]
//! ```
//!
//! Prints α binned by θ (mean, minimum, count) and writes the scatter plot as SVG.

use pamela::sim::{simulate, SimOptions};
use stats::rng::{seeded, RandExt as Rng, Rng as Generator};
use std::fmt::Write as _;

struct Options {
    models: usize,
    tasks: usize,
    accesses: usize,
    seed: u64,
    svg: String,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        models: 1000,
        tasks: 100,
        accesses: 40,
        seed: 1,
        svg: "fig3.svg".into(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("{flag} expects a positive integer, got `{v}`"))
        };
        match flag.as_str() {
            "--models" => o.models = num(&value)?,
            "--tasks" => o.tasks = num(&value)?,
            "--accesses" => o.accesses = num(&value)?,
            "--seed" => o.seed = num(&value)? as u64,
            "--svg" => o.svg = value,
            _ => {
                return Err(format!(
                    "unknown flag {flag}; use --models, --tasks, --accesses, --seed or --svg"
                ))
            }
        }
    }
    if o.models == 0 || o.tasks == 0 || o.accesses == 0 {
        return Err("--models, --tasks and --accesses must be at least 1".into());
    }
    Ok(o)
}

/// One random model as `.pam` text, and the θ it was drawn for.
fn random_model(g: &mut Generator, tasks: usize, accesses: usize) -> String {
    let m: usize = g.gen_range(2..=100);
    // Balanced load: omega ≈ tasks*accesses*y/m, phi ≈ accesses*(x + y), so
    // theta ≈ ln(tasks*y / (m*(x + y))). Draw the target theta and solve for x/y.
    let theta: f64 = g.gen_range(-2.0..2.0);
    let share = (m as f64 * theta.exp() / tasks as f64).min(1.0); // y/(x+y)
    let y = 1.0;
    let x = y * (1.0 / share - 1.0);
    let mut src = String::new();
    for r in 0..m {
        let _ = writeln!(src, "resource r{r};");
    }
    src.push_str("main = ");
    for t in 0..tasks {
        if t > 0 {
            src.push_str(" || ");
        }
        src.push('{');
        for a in 0..accesses {
            if a > 0 {
                src.push_str("; ");
            }
            let think = x * g.gen_range(0.5..1.5);
            let service = y * g.gen_range(0.5..1.5);
            let r = g.gen_range(0..m);
            let _ = write!(src, "delay({think:.4}); use(r{r}, {service:.4})");
        }
        src.push('}');
    }
    src.push_str(";\n");
    src
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut g = seeded(o.seed);
    let mut points: Vec<(f64, f64)> = Vec::with_capacity(o.models);
    for k in 0..o.models {
        let src = random_model(&mut g, o.tasks, o.accesses);
        let model = pamela::parse("random.pam", &src).expect("generated model parses");
        let root = pamela::check::root(&model, None).expect("main");
        let binding = model.bind(&[]).expect("no parameters");
        let ev = pamela::bound::bound(&model, root)
            .and_then(|b| b.evaluate(&binding))
            .expect("bound evaluates");
        let t = simulate(&model, root, &binding, &SimOptions::default())
            .expect("simulates")
            .time;
        assert!(
            ev.tl <= t * (1.0 + 1e-9),
            "T^l {} > T {t} in model {k}",
            ev.tl
        );
        points.push((ev.theta, ev.tl / t));
        if (k + 1) % 100 == 0 {
            eprintln!("{} models done", k + 1);
        }
    }

    println!(
        "alpha = T^l/T against theta = ln(omega/phi), {} models",
        points.len()
    );
    println!(
        "{:>14}  {:>6}  {:>10}  {:>10}",
        "theta bin", "count", "mean alpha", "min alpha"
    );
    let width = 0.5;
    let mut lo = -2.5;
    while lo < 2.5 {
        let bin: Vec<f64> = points
            .iter()
            .filter(|(th, _)| *th >= lo && *th < lo + width)
            .map(|(_, a)| *a)
            .collect();
        if !bin.is_empty() {
            let mean = bin.iter().sum::<f64>() / bin.len() as f64;
            let min = bin.iter().copied().fold(f64::INFINITY, f64::min);
            println!(
                "[{lo:>5.2}, {:>5.2})  {:>6}  {mean:>10.3}  {min:>10.3}",
                lo + width,
                bin.len()
            );
        }
        lo += width;
    }
    let overall = points.iter().map(|(_, a)| a).sum::<f64>() / points.len() as f64;
    println!("mean alpha over all models: {overall:.3}");

    let plot = trace::plot::ScatterPlot {
        title: format!("T^l/T for {} random models (Fig. 3)", points.len()),
        x_label: "theta = ln(omega/phi)".into(),
        y_label: "alpha = T^l / T".into(),
        series: vec![trace::plot::Series::new("random models", points)],
        hlines: vec![(1.0, "T^l = T".into()), (0.5, "T^l = T/2".into())],
    };
    match plot.render_svg(900, 600) {
        Ok(svg) => match std::fs::write(&o.svg, svg) {
            Ok(()) => println!("scatter plot written to {}", o.svg),
            Err(e) => eprintln!("error: cannot write {}: {e}", o.svg),
        },
        Err(e) => eprintln!("error: cannot draw the plot: {e}"),
    }
}
