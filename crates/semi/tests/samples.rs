//! From sample runs to a prediction: segment and whole-program times written out here in
//! closed form (not made by the model or by Algorithm G) are fitted back to the
//! coefficients they were made from, and the fitted model predicts them; the samples
//! file's errors are located.

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

/// Fits the whole-program times `truth(N)` at `ns` on `p` processors (the sample file's
/// `run` rows) through `fit_for`, with event costs `costs`.
fn fit_runs_of(
    model: &semi::lang::Model,
    truth: &dyn Fn(f64) -> f64,
    ns: &[f64],
    p: f64,
    costs: &FixedCosts,
) -> Result<semi::samples::Fitted, SamplesError> {
    let mut csv = String::from("N,P,segment,seconds\n");
    for &n in ns {
        csv.push_str(&format!("{n},{p},run,{}\n", truth(n)));
    }
    let set = read_samples(model, "runs.csv", &csv).unwrap();
    assert!(set.samples.is_empty() && set.runs.len() == ns.len());
    semi::fitting::fit_for(model, &set, "P", Some(p), costs, &opts(p)).map(|(f, _)| f)
}

fn opts(p: f64) -> semi::predict::PredictOptions {
    semi::predict::PredictOptions {
        sim: Options {
            processors: p as usize,
            ..Options::default()
        },
        ..Default::default()
    }
}

/// A serial set-up, then a fork of P equal workers that each run R = 3 steps of work and a
/// barrier, then a join.
const FORK_JOIN: &str = "param N;\nparam P;\ncoeff a, b;\nbarrier step(P);\nthread main {\n    compute setup = b * N^2;\n    fork w;\n    join w;\n}\nclass w[i in P] {\n    loop k in 1..=3 {\n        compute part = a * N / P;\n        barrier step;\n    }\n}\n";

/// The event costs of the fork/join tests: fork φ, barrier β, join ψ.
const FORK_JOIN_COSTS: FixedCosts = FixedCosts {
    fork: 1e-3,
    barrier: 5e-4,
    join: 2e-3,
    lock: 0.0,
    unlock: 0.0,
    send: 0.0,
    latency: 0.0,
    per_byte: 0.0,
    recv: 0.0,
};

/// [`FORK_JOIN`]'s time derived by hand: the set-up b·N², the fork φ, then the workers run
/// in lock-step (equal work, so every barrier releases at the common arrival + β) for
/// three steps of a·N/P + β, then the join ψ after the last worker:
/// T = b·N² + φ + 3·(a·N/P + β) + ψ.
fn fork_join_time(a: f64, b: f64, n: f64, p: f64) -> f64 {
    let c = FORK_JOIN_COSTS;
    b * n * n + c.fork + 3.0 * (a * n / p + c.barrier) + c.join
}

/// Whole-program times from the closed form above, fitted through Algorithm G: a and b
/// come back (the event costs are subtracted, not taken for work), per processor count;
/// one point cannot give two coefficients.
#[test]
fn whole_program_fork_join_of_equal_workers_fitted_from_its_closed_form() {
    let m = parse("fj.tg", FORK_JOIN).unwrap();
    let (a, b) = (1e-4, 1e-8);
    for p in [2.0, 4.0] {
        let truth = |n: f64| fork_join_time(a, b, n, p);
        let f = fit_runs_of(&m, &truth, &[1000.0, 2000.0, 4000.0], p, &FORK_JOIN_COSTS).unwrap();
        assert!(f.whole_program.is_some());
        assert_eq!(f.points, 3);
        let c = |name: &str| f.coefficients.iter().find(|c| c.0 == name).unwrap().1;
        assert!((c("a") / a - 1.0).abs() < 1e-6, "P={p}: a = {}", c("a"));
        assert!((c("b") / b - 1.0).abs() < 1e-6, "P={p}: b = {}", c("b"));
    }
    let truth = |n: f64| fork_join_time(a, b, n, 2.0);
    let err = fit_runs_of(&m, &truth, &[1000.0], 2.0, &FORK_JOIN_COSTS).unwrap_err();
    assert!(err.to_string().contains("sample points"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// predict(fit(runs)) reproduces the runs: random a, b, P and sizes, times from the
    /// closed form; Algorithm G with the fitted coefficients gives each sample's time back,
    /// and the closed form's time at a size beyond the samples.
    #[test]
    fn whole_program_prediction_of_the_fit_reproduces_the_runs(
        a in 1e-5f64..1e-3,
        ratio in 0.2f64..5.0,
        p in 1u32..6,
        n0 in 200u32..1000,
        spacing in 200u32..1000,
    ) {
        let m = parse("fj.tg", FORK_JOIN).unwrap();
        let p = f64::from(p);
        let n0 = f64::from(n0);
        // b·N² is `ratio` times 3·a·N/P at N₀: both count.
        let b = ratio * 3.0 * a / (p * n0);
        let ns: Vec<f64> = (0..3).map(|i| n0 + f64::from(i * spacing)).collect();
        let truth = |n: f64| fork_join_time(a, b, n, p);
        let f = fit_runs_of(&m, &truth, &ns, p, &FORK_JOIN_COSTS).unwrap();
        for n in ns.iter().copied().chain([4.0 * ns[2]]) {
            let predicted = semi::predict::predict(
                &m,
                &f.bindings(vec![("N".into(), n), ("P".into(), p)]),
                &FORK_JOIN_COSTS,
                &opts(p),
            )
            .unwrap()
            .outcome
            .time;
            prop_assert!(
                (predicted / truth(n) - 1.0).abs() < 1e-6,
                "N={n}, P={p}: {predicted} vs {}", truth(n)
            );
        }
    }
}

/// Two terms that grow alike at a fixed P: P workers each run a·N/P then b·N, no events, so
/// T = (a/P + b)·N. Runs from that formula can only give the sum a/P + b: the fit merges
/// the two, and the sum is the truth's.
#[test]
fn whole_program_terms_that_grow_alike_are_merged_to_their_closed_form_sum() {
    let model = "param N;\nparam P;\ncoeff a, b;\nclass w[i in P] {\n    compute x = a * N / P;\n    compute y = b * N;\n}\n";
    let m = parse("w.tg", model).unwrap();
    let (a, b, p) = (2e-6, 1e-6, 2.0);
    let truth = |n: f64| (a / p + b) * n;
    let f = fit_runs_of(
        &m,
        &truth,
        &[1000.0, 2000.0, 4000.0],
        p,
        &FixedCosts::default(),
    )
    .unwrap();
    assert_eq!(f.fit.merges.len(), 1, "{:?}", f.fit);
    let c = |n: &str| f.coefficients.iter().find(|c| c.0 == n).unwrap().1;
    let sum = c("a") / p + c("b");
    assert!((sum / (a / p + b) - 1.0).abs() < 1e-9, "{sum}");
}

/// A fork whose two sides are critical at different sizes: main runs a·N while the forked
/// side runs b·N², joined with no event costs, so T = max(a·N, b·N²), crossing at
/// N = a/b = 1000. Runs from that formula on both sides of the crossing give back both; runs
/// only below it never put the side thread on the critical path, and the error says so.
#[test]
fn whole_program_fits_follow_the_critical_path_of_max_a_n_b_n2() {
    let model = "param N;\nparam P;\ncoeff a, b;\nthread main {\n    fork side;\n    compute x = a * N;\n    join side;\n}\nthread side {\n    compute y = b * N * N;\n}\n";
    let m = parse("w.tg", model).unwrap();
    let (a, b) = (1e-6, 1e-9);
    let truth = |n: f64| (a * n).max(b * n * n);
    let costs = FixedCosts::default();
    let f = fit_runs_of(&m, &truth, &[250.0, 500.0, 2000.0, 4000.0], 2.0, &costs).unwrap();
    let c = |n: &str| f.coefficients.iter().find(|c| c.0 == n).unwrap().1;
    assert!(
        (c("a") / a - 1.0).abs() < 1e-6 && (c("b") / b - 1.0).abs() < 1e-6,
        "{f:?}"
    );
    let err = fit_runs_of(&m, &truth, &[100.0, 200.0, 300.0], 2.0, &costs).unwrap_err();
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
