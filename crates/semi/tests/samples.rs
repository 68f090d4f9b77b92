//! From sample runs to a prediction: segment times written out here in closed form (not
//! made by the model) are fitted back to the coefficients they were made from, and the
//! fitted model predicts them; the samples file's errors are located.

use proptest::prelude::*;
use semi::instantiate::{segment_terms, Bindings, Limits};
use semi::lang::parse;
use semi::samples::{fit_samples, read_samples, SamplesError};
use semi::sim::{FixedCosts, Options};

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

/// GE's segment times written out by hand from the loops of `examples/semi/ge.tg` (sums
/// over every worker and every step, which is what a segment's sample time is):
/// * init: each of the N columns is initialised once, N rows each: c_init·N²;
/// * pivot: Σ_{k=1}^{N−1} (N − k) = N(N − 1)/2 elements: c_pivot·N(N − 1)/2;
/// * elim: Σ_{k=1}^{N−1} (N − k)² = (N − 1)N(2N − 1)/6 elements: c_elim·(N − 1)N(2N − 1)/6;
/// * solve: c_solve·N².
fn ge_closed_form(n: f64) -> [(&'static str, f64); 4] {
    let c = |name: &str| TRUTH.iter().find(|x| x.0 == name).unwrap().1;
    [
        ("init", c("c_init") * n * n),
        ("pivot", c("c_pivot") * n * (n - 1.0) / 2.0),
        ("elim", c("c_elim") * (n - 1.0) * n * (2.0 * n - 1.0) / 6.0),
        ("solve", c("c_solve") * n * n),
    ]
}

/// Segment times from the closed forms above at two sizes (N = 64, 128 on P = 4) give back
/// the four coefficients.
#[test]
fn ge_coefficients_fitted_from_closed_form_segment_sums() {
    let m = ge();
    let mut csv = String::from("N,P,segment,seconds,rep\n");
    for n in [64.0, 128.0] {
        for (segment, seconds) in ge_closed_form(n) {
            csv.push_str(&format!("{n},4,{segment},{seconds},0\n"));
        }
    }
    let set = read_samples(&m, "samples.csv", &csv).unwrap();
    assert_eq!(set.names, ["N", "P"]);
    let fitted = fit_samples(&m, &set, &Limits::default()).unwrap();
    assert_eq!(fitted.points, 2);
    for (name, value) in TRUTH {
        let got = fitted.coefficients.iter().find(|c| c.0 == name).unwrap().1;
        assert!((got / value - 1.0).abs() < 1e-9, "{name}: {got} vs {value}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A segment t = a·N² + b·N, its sample times evaluated here at two sizes: the fit gives
    /// a and b, and the prediction at a size ten times the larger is a·N² + b·N.
    #[test]
    fn two_sample_sizes_recover_a_and_b_of_a_n2_plus_b_n(
        a in 1e-9f64..1e-6,
        r in 0.1f64..10.0,
        n0 in 10u32..200,
        step in 10u32..400,
    ) {
        let (n0, n1) = (f64::from(n0), f64::from(n0 + step));
        // b·N is r times a·N² at N₀: both terms count at the samples.
        let b = r * a * n0;
        let t = |n: f64| a * n * n + b * n;
        let m = parse(
            "quad.tg",
            "param N; coeff a, b; thread t { compute s = a * N^2 + b * N; }",
        )
        .unwrap();
        let csv = format!("N,segment,seconds\n{n0},s,{}\n{n1},s,{}\n", t(n0), t(n1));
        let set = read_samples(&m, "quad.csv", &csv).unwrap();
        let f = fit_samples(&m, &set, &Limits::default()).unwrap();
        let get = |k: &str| f.coefficients.iter().find(|c| c.0 == k).unwrap().1;
        prop_assert!((get("a") / a - 1.0).abs() < 1e-6, "a = {} for {a}", get("a"));
        prop_assert!((get("b") / b - 1.0).abs() < 1e-6, "b = {} for {b}", get("b"));
        let n = 10.0 * n1;
        let predicted = semi::predict::predict(
            &m,
            &f.bindings(vec![("N".into(), n)]),
            &FixedCosts::default(),
            &semi::predict::PredictOptions::default(),
        )
        .unwrap()
        .outcome
        .time;
        prop_assert!((predicted / t(n) - 1.0).abs() < 1e-6, "{predicted} vs {}", t(n));
    }
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
    // Refused when the model is read, before any sample is fitted (the language's checks,
    // tests/lang.rs, cover each form).
    let err = parse(
        "nl.tg",
        "param N; coeff c; thread t { compute s = c * c * N; }",
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("not linear in the coefficients: it multiplies coefficients together"),
        "{err}"
    );
}

/// Algorithm G's time of `model` at (N, P) with the true coefficients and `costs`.
fn true_time(model: &semi::lang::Model, n: f64, p: f64, costs: &FixedCosts) -> f64 {
    let b = Bindings {
        params: vec![("N".into(), n), ("P".into(), p)],
        coeffs: TRUTH.iter().map(|(c, v)| (c.to_string(), *v)).collect(),
    };
    let opts = semi::predict::PredictOptions {
        sim: Options {
            processors: p as usize,
            ..Options::default()
        },
        ..Default::default()
    };
    semi::predict::predict(model, &b, costs, &opts)
        .unwrap()
        .outcome
        .time
}

/// Whole-program times (`run` rows only) made by G from the true coefficients, with
/// barrier costs, are fitted back through G: c_init·N²/P and c_solve·N² both lie on the
/// critical path and grow alike, so only their sum is known, and the fitted model
/// predicts a run 4× larger as the true one does.
#[test]
fn whole_program_times_are_fitted_through_algorithm_g() {
    let m = ge();
    let costs = FixedCosts {
        barrier: 2e-6,
        ..FixedCosts::default()
    };
    let mut csv = String::from("N,P,segment,seconds\n");
    for p in [1.0, 2.0] {
        for n in [64.0, 96.0, 128.0, 160.0, 192.0] {
            let t = true_time(&m, n, p, &costs);
            // Two repetitions around the truth: their median is the truth.
            csv.push_str(&format!(
                "{n},{p},run,{}\n{n},{p},run,{}\n",
                t * 0.99,
                t * 1.01
            ));
        }
    }
    let set = read_samples(&m, "runs.csv", &csv).unwrap();
    assert!(set.samples.is_empty() && set.runs.len() == 20);
    for p in [1.0, 2.0] {
        let (f, note) = semi::samples::fit_for(
            &m,
            &set,
            "P",
            Some(p),
            &costs,
            &semi::predict::PredictOptions::default(),
        )
        .unwrap();
        assert_eq!(note, None);
        let k = f.whole_program.expect("fitted to whole-program times");
        assert!(k <= 10, "{k} linearisations");
        assert_eq!(f.points, 5);
        let b = Bindings {
            params: vec![("N".into(), 768.0), ("P".into(), p)],
            coeffs: f.coefficients.clone(),
        };
        let opts = semi::predict::PredictOptions {
            sim: Options {
                processors: p as usize,
                ..Options::default()
            },
            ..Default::default()
        };
        let predicted = semi::predict::predict(&m, &b, &costs, &opts)
            .unwrap()
            .outcome
            .time;
        let truth = true_time(&m, 768.0, p, &costs);
        assert!(
            (predicted - truth).abs() <= 1e-6 * truth,
            "P={p}: {predicted} against {truth}"
        );
        // c_elim and c_pivot come back; of c_init and c_solve, only c_init/P + c_solve.
        let c = |name: &str| f.coefficients.iter().find(|c| c.0 == name).unwrap().1;
        for (name, want) in [("c_elim", 1e-9), ("c_pivot", 5e-9)] {
            assert!(
                (c(name) - want).abs() <= 1e-6 * want,
                "{name} = {}",
                c(name)
            );
        }
        let seen = c("c_init") / p + c("c_solve");
        let want = 2e-9 / p + 3e-9;
        assert!((seen - want).abs() <= 1e-6 * want, "{seen} against {want}");
    }
    // Two points cannot give four coefficients: a clear error, not an empty answer.
    let few: String = csv
        .lines()
        .filter(|l| !l.starts_with("64,") && !l.starts_with("96,") && !l.starts_with("128,"))
        .collect::<Vec<_>>()
        .join("\n");
    let set = read_samples(&m, "runs.csv", &few).unwrap();
    let err = semi::samples::fit_for(
        &m,
        &set,
        "P",
        Some(1.0),
        &costs,
        &semi::predict::PredictOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("sample points"), "{err}");
}

/// Fits whole-program times of `model` at (N, P) points made by G from `truth`.
fn fit_whole(
    model: &str,
    truth: &[(&str, f64)],
    points: &[(f64, f64)],
) -> Result<semi::samples::Fitted, SamplesError> {
    let m = parse("w.tg", model).unwrap();
    let opts = |p: f64| semi::predict::PredictOptions {
        sim: Options {
            processors: p as usize,
            ..Options::default()
        },
        ..Default::default()
    };
    let mut csv = String::from("N,P,segment,seconds\n");
    for &(n, p) in points {
        let b = Bindings {
            params: vec![("N".into(), n), ("P".into(), p)],
            coeffs: truth.iter().map(|(c, v)| (c.to_string(), *v)).collect(),
        };
        let t = semi::predict::predict(&m, &b, &FixedCosts::default(), &opts(p))
            .unwrap()
            .outcome
            .time;
        csv.push_str(&format!("{n},{p},run,{t}\n"));
    }
    let set = read_samples(&m, "runs.csv", &csv).unwrap();
    let p = points[0].1;
    semi::samples::fit_for(&m, &set, "P", Some(p), &FixedCosts::default(), &opts(p)).map(|(f, _)| f)
}

/// Two terms that grow alike at a fixed P (a·N/P and b·N) can only be known as a sum: the
/// fit merges them, and the merge holds beyond the samples at the same P.
#[test]
fn whole_program_terms_that_grow_alike_are_merged() {
    let model = "param N;\nparam P;\ncoeff a, b;\nclass w[i in P] {\n    compute x = a * N / P;\n    compute y = b * N;\n}\n";
    let f = fit_whole(
        model,
        &[("a", 2e-6), ("b", 1e-6)],
        &[(1000.0, 2.0), (2000.0, 2.0), (4000.0, 2.0)],
    )
    .unwrap();
    assert_eq!(f.fit.merges.len(), 1, "{:?}", f.fit);
    let c = |n: &str| f.coefficients.iter().find(|c| c.0 == n).unwrap().1;
    let sum = c("a") / 2.0 + c("b");
    assert!((sum - 2e-6).abs() < 1e-12, "{sum}");
}

/// A fork whose two sides are critical at different sizes (a·N on main, b·N² on a side
/// thread, crossing at N = 1000): the fit moves between the paths and recovers both. When
/// the side thread is never critical, b cannot be known, and the error says so.
#[test]
fn whole_program_fits_follow_the_critical_path() {
    let model = "param N;\nparam P;\ncoeff a, b;\nthread main {\n    fork side;\n    compute x = a * N;\n    join side;\n}\nthread side {\n    compute y = b * N * N;\n}\n";
    let points = [(250.0, 2.0), (500.0, 2.0), (2000.0, 2.0), (4000.0, 2.0)];
    let f = fit_whole(model, &[("a", 1e-6), ("b", 1e-9)], &points).unwrap();
    let c = |n: &str| f.coefficients.iter().find(|c| c.0 == n).unwrap().1;
    assert!(
        (c("a") - 1e-6).abs() < 1e-12 && (c("b") - 1e-9).abs() < 1e-15,
        "{f:?}"
    );
    let small = [(100.0, 2.0), (200.0, 2.0), (300.0, 2.0)];
    let err = fit_whole(model, &[("a", 1e-6), ("b", 1e-9)], &small).unwrap_err();
    assert!(
        matches!(&err, SamplesError::OffCriticalPath { coeff, .. } if coeff == "b"),
        "{err}"
    );
}

/// A sweep's coefficients: per value of P in the grid, fitted to the samples there, and to
/// every sample (with one note) where there are none; whole-program times are fitted with
/// the sweep's event costs, so a barrier's cost is not taken for work.
#[test]
fn a_sweep_fits_per_value_of_p_with_its_event_costs() {
    let model = "param N;\nparam P;\ncoeff a;\nbarrier b(P);\nclass w[i in P] {\n    compute x = a * N / P;\n    barrier b;\n}\n";
    let m = parse("w.tg", model).unwrap();
    let costs = FixedCosts {
        barrier: 0.01,
        ..FixedCosts::default()
    };
    let opts = semi::predict::PredictOptions::default();
    let mut csv = String::from("N,P,segment,seconds\n");
    for p in [1.0, 2.0] {
        for n in [1000.0, 2000.0, 4000.0] {
            let b = Bindings {
                params: vec![("N".into(), n), ("P".into(), p)],
                coeffs: vec![("a".into(), 1e-5)],
            };
            let t = semi::predict::predict(&m, &b, &costs, &opts)
                .unwrap()
                .outcome
                .time;
            csv.push_str(&format!("{n},{p},run,{t}\n"));
        }
    }
    let set = read_samples(&m, "runs.csv", &csv).unwrap();
    let (by_value, notes) =
        semi::sweep::fit_per_value(&m, &set, "P", &[1.0, 2.0, 4.0], &costs, &opts).unwrap();
    assert_eq!(
        by_value.iter().map(|v| v.0).collect::<Vec<_>>(),
        [Some(1.0), Some(2.0), Some(4.0)]
    );
    for (p, c) in &by_value {
        let a = c.iter().find(|c| c.0 == "a").unwrap().1;
        assert!((a - 1e-5).abs() < 1e-11, "P={p:?}: a = {a}");
    }
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("no samples at P=4"), "{}", notes[0]);
    // Without the barrier's cost the fit takes it for work.
    let (free, _) =
        semi::sweep::fit_per_value(&m, &set, "P", &[], &FixedCosts::default(), &opts).unwrap();
    assert_eq!(free.len(), 1);
    assert_eq!(free[0].0, None);
    let a = free[0].1.iter().find(|c| c.0 == "a").unwrap().1;
    assert!(a > 1.01e-5, "{a}");
}

/// Samples whose points give a sampled segment nothing to do (no worker at P = 0, which
/// this model's parameters do not forbid) cannot
/// give its coefficient, and the error says why rather than that nothing was sampled.
#[test]
fn a_coefficient_whose_segments_do_no_work_at_the_samples_says_so() {
    let m = parse(
        "idle.tg",
        "param N;\nparam P;\ncoeff a, b;\nthread main {\n    compute serial = b * N;\n}\nclass w[i in P] {\n    compute part = a * N;\n}\n",
    )
    .unwrap();
    let csv = "N,P,segment,seconds\n240,0,serial,0.1\n240,0,part,1e-9\n320,0,serial,0.2\n320,0,part,1e-9\n";
    let set = read_samples(&m, "p0.csv", csv).unwrap();
    let err = fit_samples(&m, &set, &Limits::default()).unwrap_err();
    assert!(
        matches!(&err, SamplesError::Idle { coeff, segments, points }
            if coeff == "a" && segments == "segment `part`" && points == "N=240, P=0; N=320, P=0"),
        "{err}"
    );
    assert!(
        err.to_string().contains("take samples where it is not"),
        "{err}"
    );
}
