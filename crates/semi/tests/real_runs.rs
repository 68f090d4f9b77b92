//! Acceptance item 3 of issue 20 as a regression test: the three shared-memory programs of
//! `crates/threadprogs` run on the development machine (`bench/semi_real.sh`: two sample
//! sizes per thread count P ∈ {1, 2}, measured runs at sizes at least 4× the larger sample),
//! with the machine profile of `vates probe`. The coefficients are fitted and the runs
//! predicted here from the committed files, so Ē is deterministic; the figures are pinned:
//! a change that moves them must update this table (and bench/RESULTS.md) knowingly.

use semi::costs::MachineCosts;
use semi::lang::parse;
use semi::predict::{read_measured, validate_samples, PredictOptions, Validation};
use semi::samples::read_samples;

fn file(name: &str) -> String {
    let path = format!("{}/../../examples/semi/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("a committed file")
}

/// (program, Ē at P = 1, Ē at P = 2).
const PINNED: [(&str, f64, f64); 3] = [
    ("ge", 0.235993, 0.195677),
    ("apsp", 0.066781, 0.097341),
    ("queue", 0.007089, 0.049301),
];

#[test]
fn the_real_runs_validate_as_pinned() {
    let profile = probe::Profile::from_json(&file("machine.json")).expect("the profile");
    let costs = MachineCosts { profile };
    let mut seen = Vec::new();
    let mut wrong = Vec::new();
    for (prog, p1, p2) in PINNED {
        let model = parse(prog, &file(&format!("{prog}.tg"))).expect("the model");
        let samples = read_samples(&model, "samples", &file(&format!("{prog}_samples.csv")))
            .expect("the samples");
        let measured = read_measured(&model, "measured", &file(&format!("{prog}_measured.csv")))
            .expect("the measurements");
        // Each measured size is at least 4× the larger sample size.
        let largest = samples
            .samples
            .iter()
            .map(|s| s.params[0])
            .fold(0.0, f64::max);
        assert!(
            measured.runs.iter().all(|r| r.0[0] >= 4.0 * largest),
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
            },
            &PredictOptions::default(),
        )
        .expect("validates");
        assert_eq!(checked.len(), 4, "{prog}: two sizes at each P");
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
        if prog != "queue" {
            assert!(!notes.is_empty(), "{prog}: the cache-level warning");
        }
        seen.push(format!("(\"{prog}\", {:.6}, {:.6}),", e[0], e[1]));
        if (e[0] - p1).abs() >= 1e-4 || (e[1] - p2).abs() >= 1e-4 {
            wrong.push(prog);
        }
    }
    assert!(
        wrong.is_empty(),
        "{wrong:?} moved; now:\n{}",
        seen.join("\n")
    );
}
