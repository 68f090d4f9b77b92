//! Every model in `examples/pamela/` runs end to end: it parses, its bound reaches closed
//! form, and at sample parameter values T^l <= simulated T for every root process.

use expr::{Name, Rational};
use pamela::sim::{simulate, SimOptions};
use std::path::PathBuf;

fn examples() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/pamela");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("examples/pamela exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "pam"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect();
    out.sort();
    out
}

/// A value for each free parameter: integers 4 (so derived `N/P` blocks are integral),
/// probabilities 1/2, times 1 plus a per-name offset so that stage times differ.
fn sample_binding(m: &pamela::Model, scale: i64) -> Vec<(Name, Rational)> {
    m.params
        .iter()
        .filter(|p| p.definition.is_none())
        .enumerate()
        .map(|(k, p)| {
            let v = if p.integer {
                Rational::from_integer((4 * scale).into())
            } else if p.upper.as_ref().is_some_and(|u| u.is_int(1)) {
                Rational::new(1.into(), 2.into())
            } else {
                Rational::new((2 + k as i64).into(), 2.into())
            };
            (p.name.clone(), v)
        })
        .collect()
}

#[test]
fn every_example_bounds_in_closed_form_and_below_simulation() {
    let all = examples();
    assert!(
        all.len() >= 16,
        "expected the paper's models, found {}",
        all.len()
    );
    let mut roots_checked = 0;
    for (file, text) in all {
        let m = pamela::parse(&file, &text).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        // Every zero-argument process is a possible root (`--root`).
        let roots: Vec<String> = m
            .processes
            .iter()
            .filter(|p| p.args.is_empty())
            .map(|p| p.name.to_string())
            .collect();
        for root in roots {
            let r = pamela::check::root(&m, Some(&root)).unwrap();
            let report =
                pamela::bound::bound(&m, r).unwrap_or_else(|e| panic!("{file}:{root}: {e:?}"));
            assert!(
                report.is_closed_form(),
                "{file}:{root}: T^l = {}",
                report.tl
            );
            for scale in [1, 2] {
                let b = m
                    .bind(&sample_binding(&m, scale))
                    .unwrap_or_else(|e| panic!("{file}: {e:?}"));
                let ev = report
                    .evaluate(&b)
                    .unwrap_or_else(|e| panic!("{file}:{root}: {e:?}"));
                // With prob() conditions T^l bounds the expected time: T^l is convex in the
                // branch outcomes, so E[T] >= E[T^l(outcomes)] >= T^l(E[outcomes]) (Jensen).
                // Compare with the mean over many seeds, allowing for sampling error (5%, several
                // standard errors of a 2000-run mean for these small samples).
                let stochastic = text.contains("prob(");
                let seeds = if stochastic { 2000 } else { 1 };
                let mut total = 0.0;
                for seed in 0..seeds {
                    let opts = SimOptions {
                        seed,
                        ..SimOptions::default()
                    };
                    total += simulate(&m, r, &b, &opts)
                        .unwrap_or_else(|e| panic!("{file}:{root}: {e:?}"))
                        .time;
                }
                let t = total / seeds as f64 * if stochastic { 1.05 } else { 1.0 };
                assert!(
                    ev.tl <= t * (1.0 + 1e-12) + 1e-12,
                    "{file}:{root} at scale {scale}: T^l {} > T {t}",
                    ev.tl
                );
                assert!(ev.tl > 0.0, "{file}:{root}: T^l is 0 at the sample point");
            }
            roots_checked += 1;
        }
    }
    assert!(roots_checked >= 24, "only {roots_checked} roots checked");
}
