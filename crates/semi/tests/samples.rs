//! From sample runs to a prediction: segment times generated from known coefficients are
//! fitted back exactly, and the fitted model predicts as the true one; the samples file's
//! errors are located.

use semi::instantiate::{instantiate, segment_terms, Bindings, Limits};
use semi::lang::parse;
use semi::samples::{fit_samples, read_samples, SamplesError};
use semi::sim::{simulate, FixedCosts, Options};

fn ge() -> semi::lang::Model {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/semi/ge.tg");
    parse("ge.tg", &std::fs::read_to_string(path).unwrap()).unwrap()
}

const TRUTH: [(&str, f64); 4] = [
    ("c_init", 2e-9),
    ("c_pivot", 5e-9),
    ("c_elim", 1e-9),
    ("c_solve", 3e-9),
];

/// The samples CSV of `model` at `points` (N, P), each segment's time from the truth.
fn samples_csv(model: &semi::lang::Model, points: &[(f64, f64)]) -> String {
    let mut csv = String::from("N,P,segment,seconds,rep\n");
    for &(n, p) in points {
        let b = Bindings {
            params: vec![("N".into(), n), ("P".into(), p)],
            coeffs: Vec::new(),
        };
        for t in segment_terms(model, &b, &Limits::default()).unwrap() {
            let seconds: f64 = t.base
                + t.terms
                    .iter()
                    .map(|(c, f)| f * TRUTH.iter().find(|x| x.0 == c).unwrap().1)
                    .sum::<f64>();
            csv.push_str(&format!("{n},{p},{},{seconds},0\n", t.name));
        }
    }
    csv
}

fn predict(model: &semi::lang::Model, coeffs: &[(String, f64)], n: f64, p: f64) -> f64 {
    let b = Bindings {
        params: vec![("N".into(), n), ("P".into(), p)],
        coeffs: coeffs.to_vec(),
    };
    let inst = instantiate(model, &b, &Limits::default()).unwrap();
    let costs = FixedCosts {
        barrier: 1e-6,
        ..FixedCosts::default()
    };
    simulate(
        &inst.graph,
        &costs,
        &Options {
            processors: p as usize + 1,
            ..Options::default()
        },
    )
    .unwrap()
    .time
}

/// GE's segment sums: per step k the pivot is N − k, the elimination (N − k) times the
/// columns right of k, so the workers' elimination over the run is Σ (N − k)².
#[test]
fn ge_segment_terms_are_the_iteration_counts() {
    let m = ge();
    let b = Bindings {
        params: vec![("N".into(), 64.0), ("P".into(), 4.0)],
        coeffs: Vec::new(),
    };
    let t = segment_terms(&m, &b, &Limits::default()).unwrap();
    let get = |name: &str| t.iter().find(|s| s.name == name).unwrap();
    let sum = |f: &dyn Fn(f64) -> f64| (1..64).map(|k| f(f64::from(k))).sum::<f64>();
    assert_eq!(
        get("pivot").terms,
        vec![("c_pivot".to_string(), sum(&|k| 64.0 - k))]
    );
    assert_eq!(
        get("elim").terms,
        vec![("c_elim".to_string(), sum(&|k| (64.0 - k) * (64.0 - k)))]
    );
    assert_eq!(get("init").terms, vec![("c_init".to_string(), 64.0 * 64.0)]);
    assert_eq!(get("elim").runs, 4.0 * 63.0);
}

#[test]
fn coefficients_fitted_from_two_sample_sizes_predict_as_the_truth() {
    let m = ge();
    let csv = samples_csv(&m, &[(64.0, 4.0), (128.0, 4.0)]);
    let set = read_samples(&m, "samples.csv", &csv).unwrap();
    assert_eq!(set.names, ["N", "P"]);
    let fitted = fit_samples(&m, &set, &Limits::default()).unwrap();
    assert_eq!(fitted.points, 2);
    for (name, value) in TRUTH {
        let got = fitted.coefficients.iter().find(|c| c.0 == name).unwrap().1;
        assert!((got / value - 1.0).abs() < 1e-9, "{name}: {got} vs {value}");
    }
    let truth: Vec<(String, f64)> = TRUTH.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let (a, b) = (
        predict(&m, &fitted.coefficients, 1024.0, 8.0),
        predict(&m, &truth, 1024.0, 8.0),
    );
    assert!((a / b - 1.0).abs() < 1e-9, "{a} vs {b}");
}

/// A segment with two coefficients needs two sample points; one gives a typed error.
#[test]
fn too_few_samples_and_unsampled_coefficients_are_errors() {
    let m = parse(
        "two.tg",
        "param N; coeff a, b, c; thread t { compute s = a * N + b * N^2; compute u = c; }",
    )
    .unwrap();
    let one = "N,segment,seconds\n10,s,1.2\n10,u,0.5\n";
    let set = read_samples(&m, "one.csv", one).unwrap();
    let err = fit_samples(&m, &set, &Limits::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("cannot tell `b` from `a`: sample segment `s` at more sizes"),
        "{err}"
    );
    let none = "N,segment,seconds\n10,s,1.2\n20,s,4.4\n";
    let set = read_samples(&m, "none.csv", none).unwrap();
    let err = fit_samples(&m, &set, &Limits::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("no sampled segment uses the coefficient `c`; samples of segment `u`"),
        "{err}"
    );
    // Two points: exact.
    let two = "N,segment,seconds\n10,s,1.2\n20,s,4.4\n10,u,0.5\n";
    let set = read_samples(&m, "two.csv", two).unwrap();
    let f = fit_samples(&m, &set, &Limits::default()).unwrap();
    let get = |k: &str| f.coefficients.iter().find(|c| c.0 == k).unwrap().1;
    assert!((get("a") - 0.02).abs() < 1e-12 && (get("b") - 0.01).abs() < 1e-12);
    assert!((get("c") - 0.5).abs() < 1e-12);
}

#[test]
fn bad_samples_files_are_located_errors() {
    let m = ge();
    let read = |text: &str| read_samples(&m, "s.csv", text).unwrap_err().to_string();
    assert!(read("").contains("s.csv"), "{}", read(""));
    let e = read("N,P,segment\n64,4,elim\n");
    assert!(e.contains("seconds"), "{e}");
    let e = read("N,segment,seconds\n64,elim,1\n");
    assert!(e.contains("`P`"), "{e}");
    let e = read("N,P,segment,seconds\n64,4,elin,1\n");
    assert!(e.contains("no segment `elin`"), "{e}");
    let err = read_samples(&m, "s.csv", "N,P,segment,seconds\n64,4,elin,1\n").unwrap_err();
    let SamplesError::Read(r) = err else { panic!() };
    assert_eq!(r.help.as_deref(), Some("did you mean `elim`?"));
    let e = read("N,P,segment,seconds\n64,4,elim,-1\n");
    assert!(e.contains("-1"), "{e}");
    let e = read("N,P,segment,seconds\n64,4,elim,x\n");
    assert!(e.contains("2:"), "{e}");
    let e = read("N,P,seconds\n64,4,1\n");
    assert!(e.contains("`segment` column"), "{e}");
    let _ = read_samples(&m, "bin.csv", "\u{0}\u{1}\n\u{2}");
    let long = format!("N,P,segment,seconds\n64,4,{},1\n", "x".repeat(100_000));
    let e = read(&long);
    assert!(
        e.len() < 1000,
        "a long name is shortened: {} bytes",
        e.len()
    );
}

#[test]
fn a_time_not_linear_in_a_coefficient_is_an_error() {
    let m = parse(
        "nl.tg",
        "param N; coeff c; thread t { compute s = c * c * N; }",
    )
    .unwrap();
    let set = read_samples(&m, "s.csv", "N,segment,seconds\n2,s,1\n").unwrap();
    let err = fit_samples(&m, &set, &Limits::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("not linear in the coefficient `c`"),
        "{err}"
    );
}
