//! Acceptance item 3 of issue 20 as a regression test: the three shared-memory programs of
//! `crates/threadprogs` run on the development machine (`bench/semi_real.sh`: two sample
//! sizes per thread count P ∈ {1, 2}, measured runs at sizes at least 4× the larger sample),
//! with the machine profile of `vates probe`. The coefficients are fitted and the runs
//! predicted here from the committed files, so Ē is deterministic; the figures are pinned:
//! a change that moves them must update this table (and bench/RESULTS.md) knowingly.

use semi::costs::MachineCosts;
use semi::lang::parse;
use semi::predict::PredictOptions;
use semi::samples::read_samples;
use semi::validate::{read_measured, validate_samples, Validation};

fn file(name: &str) -> String {
    let path = format!("{}/../../examples/semi/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("a committed file")
}

/// One set of real runs: its name (the files' prefix in `examples/semi/`), the program's
/// model, Ē at P = 1 and P = 2, whether the cache-level warning is expected (a sample's
/// working set in another level of the memory hierarchy than a target's), and whether the
/// issue's goal, Ē under 10% at both P, is asserted.
struct Runs {
    name: &'static str,
    model: &'static str,
    e1: f64,
    e2: f64,
    cache_warning: bool,
    goal: bool,
    /// The smallest ratio of a measured size to the larger sample size.
    ratio: f64,
}

const PINNED: [Runs; 5] = [
    // Gaussian elimination with samples whose matrices (72-85 MiB) are past every cache,
    // as the target's (1.3 GiB) is: the paper's prescription. Two repetitions.
    Runs {
        name: "ge_dram",
        model: "ge",
        e1: 0.164200,
        e2: 0.143271,
        cache_warning: false,
        goal: false,
        ratio: 4.0,
    },
    // Gaussian elimination at larger sizes: samples (N = 1600, 1792; 20-25 MiB) past the
    // probe's latency boundary but within the reported 32 MiB last-level cache, targets
    // (N = 6400, 7168) far past it. The cost per element still grows between them.
    Runs {
        name: "ge_large",
        model: "ge",
        e1: 0.195360,
        e2: 0.376381,
        cache_warning: true,
        goal: false,
        // 6400 is 4× the smaller sample size, 3.6× the larger.
        ratio: 3.5,
    },
    // Samples (N = 240, 320) whose matrices fit in a cache, targets' (N = 1280, 1600) not.
    Runs {
        name: "ge",
        model: "ge",
        e1: 0.235993,
        e2: 0.195677,
        cache_warning: true,
        goal: false,
        ratio: 4.0,
    },
    Runs {
        name: "apsp",
        model: "apsp",
        e1: 0.066781,
        e2: 0.097341,
        cache_warning: true,
        goal: true,
        ratio: 4.0,
    },
    Runs {
        name: "queue",
        model: "queue",
        e1: 0.007089,
        e2: 0.049301,
        cache_warning: false,
        goal: true,
        ratio: 4.0,
    },
];

#[test]
fn the_real_runs_validate_as_pinned() {
    let profile = probe::Profile::from_json(&file("machine.json")).expect("the profile");
    let costs = MachineCosts { profile };
    let mut seen = Vec::new();
    let mut wrong = Vec::new();
    for run in PINNED {
        let prog = run.name;
        let model = parse(run.model, &file(&format!("{}.tg", run.model))).expect("the model");
        let samples = read_samples(&model, "samples", &file(&format!("{prog}_samples.csv")))
            .expect("the samples");
        let measured = read_measured(&model, "measured", &file(&format!("{prog}_measured.csv")))
            .expect("the measurements");
        // Each measured size is at least 4× the larger sample size (but one set).
        let largest = samples
            .samples
            .iter()
            .map(|s| s.params[0])
            .fold(0.0, f64::max);
        assert!(
            measured.runs.iter().all(|r| r.0[0] >= run.ratio * largest),
            "{prog}"
        );
        let (checked, table, notes) = validate_samples(
            &model,
            &samples,
            &measured,
            &costs,
            &Validation {
                by: "P",
                sample_seconds: None,
                profile: Some(&costs.profile),
                processors: None,
            },
            &PredictOptions::default(),
        )
        .expect("validates");
        // Two sizes at each P (one for ge_dram, whose target runs for a quarter of an hour).
        let sizes = if prog == "ge_dram" { 2 } else { 4 };
        assert_eq!(checked.len(), sizes, "{prog}: measured points");
        assert!(
            samples.run_seconds() > 0.0,
            "{prog}: the sample runs' wall time"
        );
        let e: Vec<f64> = table.rows.iter().map(|r| r.average_error).collect();
        assert_eq!(e.len(), 2);
        // Every R_conservative is a positive number.
        assert!(table
            .rows
            .iter()
            .all(|r| r.max_ratio.is_some_and(|v| v > 0.0)));
        assert_eq!(
            notes.iter().any(|n| n.contains("working set")),
            run.cache_warning,
            "{prog}: the cache-level warning; notes {notes:?}"
        );
        if run.goal {
            assert!(
                e.iter().all(|&x| x < 0.10),
                "{prog}: Ē {e:?} misses the 10% goal"
            );
        }
        seen.push(format!("{prog}: e1 {:.6}, e2 {:.6}", e[0], e[1]));
        if !((e[0] - run.e1).abs() < 1e-4 && (e[1] - run.e2).abs() < 1e-4) {
            wrong.push(prog);
        }
    }
    assert!(
        wrong.is_empty(),
        "{wrong:?} moved; now:\n{}",
        seen.join("\n")
    );
}
