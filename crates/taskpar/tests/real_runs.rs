//! Acceptance item 5 of issue 19 as a regression test: the BOTS kernels recorded on the
//! development machine (`bench/taskpar_real.sh`: training at p ∈ {1, 2} over small sizes,
//! test runs at sizes at least 4× the largest training size) are fitted and predicted here
//! from the committed CSVs, so the fit and its errors are deterministic. The figures are
//! pinned: a change to the model that moves them must update this table (and
//! bench/RESULTS.md) knowingly.

use taskpar::model::{self, read_runs, Selection, TrainOptions, Transform};

fn read(name: &str) -> model::TrainingSet {
    let path = format!(
        "{}/../../examples/taskpar/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the committed runs");
    read_runs(name, &text).expect("a valid CSV")
}

/// (kernel, median relative error of the two-step model, of the direct regression), both
/// against the traced runs' elapsed times.
const PINNED: [(&str, f64, f64); 6] = [
    ("fib", 0.399447, 0.426000),
    ("nqueens", 0.519247, 0.678300),
    ("sort", 0.066474, 0.093363),
    ("sparselu", 0.097152, 0.142075),
    ("strassen", 0.056518, 0.092580),
    ("fft", 0.061598, 0.311812),
];

fn options(app: &str) -> TrainOptions {
    TrainOptions {
        transform: if app == "fib" || app == "nqueens" {
            Transform::Pow2
        } else {
            Transform::None
        },
        ..TrainOptions::default()
    }
}

/// The median relative error of the two-step model's time for `app` trained with `opts`.
fn median_error(app: &str, opts: &TrainOptions) -> f64 {
    let m = model::train(&read("train.csv").for_app(app), opts).expect("trains");
    let r = model::report(&m, &read("test.csv").for_app(app).runs).expect("predicts");
    r.medians[0].median.time.unwrap()
}

/// The ablation behind the defaults (bench/RESULTS.md): (kernel, median error with the
/// forms chosen by shuffled cross-validation, with the PMNF search as a further size-model
/// candidate). Shuffled folds interpolate, and choose sort's power law n^1.11, which
/// bends up beyond the training sizes; the PMNF search, with 4–9 sizes, fits fib's recording
/// overhead and Strassen's cache step as growth.
const ABLATION: [(&str, f64, f64); 6] = [
    ("fib", 0.399276, 0.520265),
    ("nqueens", 0.519247, 0.541441),
    ("sort", 0.113501, 0.066474),
    ("sparselu", 0.097152, 0.097152),
    ("strassen", 0.056518, 0.220897),
    ("fft", 0.064045, 0.066963),
];

#[test]
fn the_ablation_of_the_form_choice_is_as_pinned() {
    let mut seen = Vec::new();
    let mut wrong = Vec::new();
    for (app, shuffled, pmnf) in ABLATION {
        let s = median_error(
            app,
            &TrainOptions {
                selection: Selection::Shuffled,
                bootstrap: 0,
                ..options(app)
            },
        );
        let p = median_error(
            app,
            &TrainOptions {
                pmnf_search: true,
                bootstrap: 0,
                ..options(app)
            },
        );
        seen.push(format!("(\"{app}\", {s:.6}, {p:.6}),"));
        if (s - shuffled).abs() >= 1e-4 || (p - pmnf).abs() >= 1e-4 {
            wrong.push(app);
        }
    }
    assert!(
        wrong.is_empty(),
        "{wrong:?} moved; now:\n{}",
        seen.join("\n")
    );
}

#[test]
fn the_recorded_kernels_fit_and_predict_as_pinned() {
    let train = read("train.csv");
    let test = read("test.csv");
    let mut seen = Vec::new();
    let mut wrong = Vec::new();
    let mut computed = Vec::new();
    for (app, time, direct) in PINNED {
        let opts = options(app);
        let m = model::train(&train.for_app(app), &opts).expect("trains");
        let runs = test.for_app(app).runs;
        assert!(!runs.is_empty(), "{app} has test runs");
        // Test sizes are at least 4× the largest training size (in 2^n for fib, nqueens).
        let largest = train
            .for_app(app)
            .runs
            .iter()
            .map(|r| opts.transform.apply(r.n))
            .fold(0.0, f64::max);
        assert!(
            runs.iter()
                .all(|r| opts.transform.apply(r.n) >= 4.0 * largest),
            "{app}"
        );
        let r = model::report(&m, &runs).expect("predicts");
        let med = &r.medians[0].median;
        let (t, d) = (med.time.unwrap(), med.direct.unwrap());
        seen.push(format!("(\"{app}\", {t:.6}, {d:.6}),"));
        computed.push((app, t, d));
        if (t - time).abs() >= 1e-4 || (d - direct).abs() >= 1e-4 {
            wrong.push(app);
        }
    }
    assert!(
        wrong.is_empty(),
        "{wrong:?} moved; now:\n{}",
        seen.join("\n")
    );
    // The issue's goal: under 10% for at least four of the six kernels, and the two-step
    // model no worse than the direct regression on any.
    let under = computed.iter().filter(|k| k.1 < 0.10).count();
    assert!(under >= 4, "{under} kernels under 10%");
    for (app, time, direct) in computed {
        assert!(time <= direct, "{app}: two-step {time} > baseline {direct}");
    }
}

/// Issue 30's real runs, pinned as the table above (no goal is asserted: bench/RESULTS.md
/// says how far they are from issue 19's): the six C/OpenMP kernels recorded through the
/// OMPT tool (`bench/taskpar_real_openmp.sh`, `examples/taskpar/openmp/`), and the Rust fib
/// recorded again once work was booked as DAG Recorder books it
/// (`examples/taskpar/fib-2026-11-28/`). (directory, kernel, median relative error of the
/// two-step model, of the direct regression), against the traced runs' elapsed times.
const PINNED_ISSUE30: [(&str, &str, f64, f64); 7] = [
    ("openmp", "fib", 0.271178, 0.080198),
    ("openmp", "nqueens", 0.309798, 0.331122),
    ("openmp", "sort", 0.075173, 0.156598),
    ("openmp", "sparselu", 0.268835, 0.399573),
    ("openmp", "strassen", 0.721156, 0.278443),
    ("openmp", "fft", 0.104481, 0.327416),
    ("fib-2026-11-28", "fib", 0.457441, 0.402892),
];

#[test]
fn the_openmp_kernels_and_fib_recorded_again_are_as_pinned() {
    let mut seen = Vec::new();
    let mut wrong = Vec::new();
    for (dir, app, time, direct) in PINNED_ISSUE30 {
        let m = model::train(
            &read(&format!("{dir}/train.csv")).for_app(app),
            &options(app),
        )
        .expect("trains");
        let runs = read(&format!("{dir}/test.csv")).for_app(app).runs;
        assert!(!runs.is_empty(), "{dir} {app} has test runs");
        let r = model::report(&m, &runs).expect("predicts");
        let med = &r.medians[0].median;
        let (t, d) = (med.time.unwrap(), med.direct.unwrap());
        seen.push(format!("(\"{dir}\", \"{app}\", {t:.6}, {d:.6}),"));
        if (t - time).abs() >= 1e-4 || (d - direct).abs() >= 1e-4 {
            wrong.push(format!("{dir} {app}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{wrong:?} moved; now:\n{}",
        seen.join("\n")
    );
}
