//! Issue 32, item 3: do the calibrated 90% intervals ([`fit::interval`]) hold? Every
//! committed set of real runs, predicted as the commands predict it, with the share of
//! measured test points inside their intervals and the median relative width pinned (a
//! change that moves them must update this table and `bench/RESULTS.md` knowingly).
//!
//! * semi: `examples/semi` (queue, apsp, ge, ge_large, ge_dram), as `vates semi validate`;
//! * taskpar: the six kernels of `examples/taskpar/{train,test}.csv`, as `vates taskpar
//!   report` (fib and nqueens with n = 2^n);
//! * fit: the examples of `examples/fit` with each series' largest value of its first
//!   parameter held out (the test points), as `vates fit -D`;
//! * the nine studies of `examples/studies` through `vates compare`: fit-vates, fit-extrap,
//!   two-step and semi per test point.
//!
//! Print the table with `cargo test -p study --test coverage -- --nocapture`.

use std::path::PathBuf;

use fit::interval::{Coverage, Interval};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn file(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).expect("a committed file")
}

type Items = Vec<(f64, Option<Interval>, f64)>;

fn semi_sets() -> Items {
    use semi::costs::MachineCosts;
    use semi::validate::{read_measured, validate_samples, Validation};
    let profile = probe::Profile::from_json(&file("examples/semi/machine.json")).expect("profile");
    let costs = MachineCosts { profile };
    let mut out = Vec::new();
    for (set, model) in [
        ("queue", "queue"),
        ("apsp", "apsp"),
        ("ge", "ge"),
        ("ge_large", "ge"),
        ("ge_dram", "ge"),
    ] {
        let m = semi::lang::parse(model, &file(&format!("examples/semi/{model}.tg"))).unwrap();
        let samples = semi::samples::read_samples(
            &m,
            "samples",
            &file(&format!("examples/semi/{set}_samples.csv")),
        )
        .unwrap();
        let measured = read_measured(
            &m,
            "measured",
            &file(&format!("examples/semi/{set}_measured.csv")),
        )
        .unwrap();
        let (checked, _, _) = validate_samples(
            &m,
            &samples,
            &measured,
            &costs,
            &Validation {
                by: "P",
                sample_seconds: None,
                profile: Some(&costs.profile),
                processors: None,
            },
            &semi::predict::PredictOptions::default(),
        )
        .expect("validates");
        out.extend(
            checked
                .into_iter()
                .map(|c| (c.predicted, c.interval, c.actual)),
        );
    }
    out
}

fn taskpar_kernels() -> Items {
    use taskpar::model::{read_runs, report_apps, Policy, Selection, TransformRule};
    let train = read_runs("train", &file("examples/taskpar/train.csv")).unwrap();
    let test = read_runs("test", &file("examples/taskpar/test.csv")).unwrap();
    let policy = Policy {
        paper: false,
        no_work: None,
        selection: Selection::default(),
        pmnf_search: false,
        bootstrap: fit::run::BOOTSTRAP_REPLICATES,
        seed: 0,
        transforms: ["fib:n=2^n", "nqueens:n=2^n"]
            .iter()
            .map(|t| TransformRule::parse(t).unwrap())
            .collect(),
    };
    let r = report_apps(&train, &test, None, &policy).expect("reports");
    assert_eq!(r.report.medians.len(), 6, "the six kernels");
    r.report
        .rows
        .into_iter()
        .map(|r| (r.predicted, r.interval, r.actual))
        .collect()
}

/// Each series of an `examples/fit` file with the largest value of its first parameter held
/// out: the model of the rest predicts the held-out points' means.
fn fit_examples() -> Items {
    use fit::read::{read, Format};
    let mut out = Vec::new();
    for (path, format) in [
        ("examples/fit/solver.txt", Format::Text),
        ("examples/fit/runs.csv", Format::Csv),
    ] {
        let e = read(format, path, &file(path), &Default::default()).expect("reads");
        for s in &e.series {
            let largest = s
                .measurements
                .iter()
                .map(|m| m.point[0])
                .fold(f64::NEG_INFINITY, f64::max);
            let (test, train): (Vec<_>, Vec<_>) = s
                .measurements
                .iter()
                .cloned()
                .partition(|m| m.point[0] == largest);
            let rest = fit::read::Series {
                measurements: train,
                ..s.clone()
            };
            let m =
                fit::run::model_series(&rest, &e.parameters, &Default::default()).expect("models");
            for t in test {
                let p = m.predict(&e.parameters, &t.point);
                out.push((p.value, p.calibrated, t.mean()));
            }
        }
    }
    out
}

/// Per method of `vates compare`, over the nine studies.
fn studies() -> Vec<(&'static str, Items)> {
    let mut by: Vec<(&'static str, Items)> = ["fit-vates", "fit-extrap", "two-step", "semi"]
        .into_iter()
        .map(|m| (m, Vec::new()))
        .collect();
    let dir = root().join("examples/studies");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    assert_eq!(names.len(), 9, "the nine studies");
    for d in names {
        let (c, _) = study::folder::Study::load(&d).expect("a study");
        let inputs = study::compare::load(&d, &c).expect("its inputs");
        let result = study::compare::compare(&inputs);
        for m in &result.methods {
            let Some((_, items)) = by.iter_mut().find(|(n, _)| *n == m.method) else {
                continue;
            };
            for p in &m.points {
                // compare keeps the ends only; an interval is made again from them.
                let interval = p.interval.map(|[lower, upper]| Interval {
                    level: fit::interval::LEVEL,
                    lower,
                    upper,
                    held_out_error: f64::NAN,
                    spread: f64::NAN,
                    held_out: 0,
                    how: String::new(),
                    short: false,
                });
                items.push((p.predicted, interval, p.measured));
            }
        }
    }
    by
}

/// A method's pinned figures (by the table's row name): test points, inside, the median relative half-width in
/// tenths of a percent (`None`: infinite), intervals wider than ±50%, unbounded ones.
struct Pin {
    method: &'static str,
    points: usize,
    inside: usize,
    median_permille: Option<i64>,
    wide: usize,
    unbounded: usize,
}

const PINNED: [Pin; 7] = [
    Pin {
        method: "semi (examples/semi)",
        points: 18,
        inside: 16,
        median_permille: Some(237),
        wide: 2,
        unbounded: 0,
    },
    Pin {
        method: "taskpar (examples/taskpar)",
        points: 60,
        inside: 54,
        median_permille: Some(887),
        wide: 42,
        unbounded: 0,
    },
    Pin {
        method: "fit (examples/fit, largest held out)",
        points: 13,
        inside: 12,
        median_permille: Some(35),
        wide: 0,
        unbounded: 0,
    },
    Pin {
        method: "fit-vates (studies, compare)",
        points: 32,
        inside: 27,
        median_permille: Some(1925),
        wide: 20,
        unbounded: 12,
    },
    Pin {
        method: "fit-extrap (studies, compare)",
        points: 32,
        inside: 30,
        median_permille: Some(1521),
        wide: 23,
        unbounded: 12,
    },
    Pin {
        method: "two-step (studies, compare)",
        points: 20,
        inside: 18,
        median_permille: Some(888),
        wide: 16,
        unbounded: 0,
    },
    Pin {
        method: "semi (studies, compare)",
        points: 12,
        inside: 12,
        median_permille: Some(220),
        wide: 2,
        unbounded: 0,
    },
];

#[test]
fn the_calibrated_intervals_hold_on_every_committed_set() {
    let mut rows: Vec<(String, Items)> = vec![
        ("semi (examples/semi)".into(), semi_sets()),
        ("taskpar (examples/taskpar)".into(), taskpar_kernels()),
        (
            "fit (examples/fit, largest held out)".into(),
            fit_examples(),
        ),
    ];
    rows.extend(
        studies()
            .into_iter()
            .map(|(m, items)| (format!("{m} (studies, compare)"), items)),
    );
    let mut wrong = Vec::new();
    println!("| method | test points | inside 90% | coverage | median width | wider than ±50% | unbounded |");
    println!("|---|---|---|---|---|---|---|");
    for (name, items) in &rows {
        let c = Coverage::of(items);
        let unbounded = items
            .iter()
            .filter(|(_, i, _)| i.as_ref().is_some_and(|i| !i.upper.is_finite()))
            .count();
        let permille = c
            .median_width
            .filter(|w| w.is_finite())
            .map(|w| (w * 1000.0).round() as i64);
        println!(
            "| {name} | {} | {} | {:.1}% | {} | {} | {unbounded} |",
            c.points,
            c.inside,
            100.0 * c.share(),
            permille.map_or("∞".into(), |w| format!("±{:.1}%", w as f64 / 10.0)),
            c.wide
        );
        for (v, i, m) in items {
            if let Some(i) = i.as_ref().filter(|i| !i.contains(*m)) {
                println!(
                    "  outside: {name}: predicted {v:.4}, measured {m:.4}, interval [{:.4}, {:.4}]",
                    i.lower, i.upper
                );
            }
        }
        if c.points == 0 || c.share() < 0.8 {
            wrong.push(format!(
                "{name}: coverage {}/{} under 80%",
                c.inside, c.points
            ));
        }
        if let Some(p) = PINNED.iter().find(|p| name == p.method) {
            let got = (c.points, c.inside, permille, c.wide, unbounded);
            let want = (p.points, p.inside, p.median_permille, p.wide, p.unbounded);
            if got != want {
                wrong.push(format!("{name}: {got:?}, pinned {want:?}"));
            }
        } else {
            wrong.push(format!("{name}: not pinned"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
