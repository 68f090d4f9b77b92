//! Compares the `vates` and `extrap` modelers on the seeded extrapolation suite: median
//! relative error of the prediction at x = 1024 per family. `cargo run --release -p fit
//! --example extrapolation [-- PER_KIND [SEED]]`.

#[path = "../tests/suite/mod.rs"]
mod suite;

use fit::pmnf::{extrap_single, ExtrapOptions};
use fit::vates::{search_single, VatesOptions};
use suite::{cases, median_or_nan, Kind, TARGET};

fn main() {
    let mut args = std::env::args().skip(1);
    let per_kind: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let verbose = std::env::var_os("VERBOSE").is_some();
    let dump = std::env::var("DUMP").ok();
    let all = cases(seed, per_kind);
    let mut rows: Vec<(Kind, f64, f64)> = Vec::new();
    for c in &all {
        let e = extrap_single(&c.measurements, &ExtrapOptions::default()).unwrap();
        let v = search_single(&c.measurements, &VatesOptions::default()).unwrap();
        let err = |p: f64| (p - c.truth).abs() / c.truth;
        let (ee, ve) = (
            err(e.model.eval(&[TARGET])),
            err(v.best.model.eval(&[TARGET])),
        );
        if verbose {
            let names = ["x".to_string()];
            println!(
                "{:?} {:>4.0}% {}\n   extrap {:.3} {}\n   vates  {:.3} {}",
                c.kind,
                c.noise * 100.0,
                c.name,
                ee,
                e.model.display(&names),
                ve,
                v.best.model.display(&names)
            );
        }
        if let Some(path) = &dump {
            use std::io::Write as _;
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .unwrap();
            writeln!(
                f,
                "{:?},{},{},{},{}",
                c.kind,
                c.noise,
                c.name.replace(',', ";"),
                ee,
                ve
            )
            .unwrap();
        }
        rows.push((c.kind, ee, ve));
    }
    println!(
        "| family | sets | extrap median rel. error | vates median rel. error | vates / extrap |"
    );
    println!("|---|---|---|---|---|");
    let families = [
        ("one term", Some(Kind::OneTerm)),
        ("two terms", Some(Kind::TwoTerm)),
        ("outside PMNF", Some(Kind::Outside)),
        ("all", None),
    ];
    for (name, kind) in families {
        let sel: Vec<&(Kind, f64, f64)> = rows
            .iter()
            .filter(|r| kind.is_none_or(|k| r.0 == k))
            .collect();
        let me = median_or_nan(sel.iter().map(|r| r.1).collect());
        let mv = median_or_nan(sel.iter().map(|r| r.2).collect());
        println!(
            "| {name} | {} | {:.4} | {:.4} | {:.3} |",
            sel.len(),
            me,
            mv,
            mv / me
        );
    }
}
