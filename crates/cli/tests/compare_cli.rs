//! `vates compare` on the nine shipped studies (issue 33): at least three methods each,
//! the documented JSON schema, the CSV and the plot, the recommendation made from the
//! training data alone (the method with the smallest forward-validation error, checked by
//! recomputing that choice from the report), and the figures `bench/RESULTS.md` reports,
//! pinned.

mod common;
use common::{example_in, fails, stdout, tempdir};

/// Per study: the recommended method, its self-assessed and actual median errors, and the
/// best method on the test points with its error (bench/RESULTS.md, "Comparison of the
/// methods on the nine studies").
const PINNED: [(&str, &str, f64, f64, &str, f64); 9] = [
    ("fib", "fit-extrap", 0.371, 0.017, "fit-extrap", 0.017),
    ("fft", "two-step", 0.242, 0.102, "two-step", 0.102),
    ("nqueens", "fit-vates", 0.205, 0.515, "two-step", 0.492),
    ("sort", "two-step", 0.050, 0.021, "two-step", 0.021),
    ("sparselu", "direct", 0.030, 0.119, "two-step", 0.103),
    ("strassen", "direct", 0.095, 0.079, "two-step", 0.057),
    ("queue", "semi", 0.113, 0.024, "fit-extrap", 0.010),
    ("apsp", "semi", 0.111, 0.097, "semi", 0.097),
    ("ge", "semi", 0.089, 0.236, "semi", 0.236),
];

fn study(name: &str) -> String {
    example_in("studies", name)
}

#[test]
fn every_shipped_study_is_compared_by_at_least_three_methods_and_the_choice_is_pinned() {
    for (name, method, own, actual, best, best_error) in PINNED {
        let json: serde_json::Value =
            serde_json::from_str(&stdout(&["compare", &study(name), "--format", "json"])).unwrap();
        assert_eq!(json["study"], name);
        let methods = json["methods"].as_array().unwrap();
        let applied: Vec<&serde_json::Value> =
            methods.iter().filter(|m| m["skipped"].is_null()).collect();
        assert!(applied.len() >= 3, "{name}: {applied:?}");
        // The schema: every applied method's points carry their fields; errors are relative.
        for m in &applied {
            for p in m["points"].as_array().unwrap() {
                for key in ["point", "predicted", "interval", "measured", "error"] {
                    assert!(p.get(key).is_some(), "{name}: {key} missing in {p}");
                }
                let (pr, me, e) = (
                    p["predicted"].as_f64().unwrap(),
                    p["measured"].as_f64().unwrap(),
                    p["error"].as_f64().unwrap(),
                );
                assert!(((pr - me).abs() / me - e).abs() < 1e-12, "{name}: {p}");
            }
            let errs: Vec<f64> = m["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["error"].as_f64().unwrap())
                .collect();
            let max = errs.iter().copied().fold(0.0, f64::max);
            assert!((m["max_error"].as_f64().unwrap() - max).abs() < 1e-12);
        }
        // The recommendation is the applied method of the smallest self-assessed error.
        let r = &json["recommended"];
        let smallest = applied
            .iter()
            .filter(|m| m["self_assessed_error"].is_number())
            .min_by(|a, b| {
                a["self_assessed_error"]
                    .as_f64()
                    .unwrap()
                    .total_cmp(&b["self_assessed_error"].as_f64().unwrap())
            })
            .unwrap();
        assert_eq!(r["method"], smallest["method"], "{name}");
        assert_eq!(r["actual_error"], smallest["median_error"], "{name}");
        let near = |v: &serde_json::Value, x: f64| (v.as_f64().unwrap() - x).abs() < 0.0015;
        assert_eq!(r["method"], method, "{name}");
        assert!(near(&r["self_assessed_error"], own), "{name}: {r}");
        assert!(near(&r["actual_error"], actual), "{name}: {r}");
        assert_eq!(r["best_method"], best, "{name}");
        assert!(near(&r["best_error"], best_error), "{name}: {r}");
        assert!(r["why"].as_str().unwrap().contains("forward validation"));
    }
}

/// The three semi programs' studies train on two sizes. `fit`'s `vates` modeler used to
/// keep a constant there (no hypothesis with a term can leave one of two sizes out) and
/// missed every test point by 87–99%; it now takes the power law through both sizes
/// (bench/RESULTS.md gives the figures). Forward validation inside two sizes would fit one
/// size, so neither modeler is self-assessed: it says why instead of reporting a constant's
/// error.
#[test]
fn two_training_sizes_give_fit_a_growth_and_no_self_assessment() {
    for (name, vates_error) in [("queue", 0.054), ("apsp", 0.195), ("ge", 0.346)] {
        let json: serde_json::Value =
            serde_json::from_str(&stdout(&["compare", &study(name), "--format", "json"])).unwrap();
        let methods = json["methods"].as_array().unwrap();
        let by = |m: &str| methods.iter().find(|x| x["method"] == m).unwrap();
        let e = by("fit-vates")["median_error"].as_f64().unwrap();
        assert!((e - vates_error).abs() < 0.0015, "{name}: fit-vates {e}");
        for m in ["fit-vates", "fit-extrap"] {
            let m = by(m);
            assert!(m["self_assessed_error"].is_null(), "{name}: {m}");
            let how = m["self_assessment"].as_str().unwrap();
            assert!(
                how.contains("one training size (") && how.contains("two or more"),
                "{name}: {how}"
            );
        }
    }
}

#[test]
fn the_text_csv_and_plot_of_a_comparison() {
    let d = tempdir("compare-out");
    let plot = d.join("sort.svg");
    let text = stdout(&["compare", &study("sort"), "--plot", plot.to_str().unwrap()]);
    assert!(
        text.starts_with(
            "study sort: 4 of 6 methods applied, 4 test point(s); training n = 65536, "
        ),
        "{text}"
    );
    assert!(
        text.contains("not applied: replay: no recording at n = 16777216 on one worker"),
        "{text}"
    );
    assert!(
        text.contains("recommended: two-step (in forward validation inside the training data"),
        "{text}"
    );
    assert!(text.contains("n=16777216, p=1"), "{text}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.contains("beyond the training sizes"),
        "the shaded region is labelled"
    );
    assert!(svg.contains("two-step, p=2") && svg.contains("measured, p=1"));
    let csv = stdout(&[
        "compare",
        &study("queue"),
        "--format",
        "csv",
        "--bootstrap",
        "0",
    ]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("study,method,point,n,p,predicted,lower,upper,measured,error")
    );
    // Three applied methods × four test points.
    assert_eq!(lines.count(), 3 * 4);
}

/// A study whose thread graph (`[compare] semi_model`) does not parse is refused with the
/// error located in the model's text (line, column, caret), as `semi` commands show it.
#[test]
fn a_study_s_broken_thread_graph_is_located() {
    let d = tempdir("compare-bad-tg");
    let dir = d.join("ge");
    std::fs::create_dir_all(&dir).unwrap();
    for f in std::fs::read_dir(study("ge")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    let toml = std::fs::read_to_string(dir.join("campaign.toml")).unwrap();
    let toml = toml.replace("\"../../semi/ge.tg\"", "\"../bad.tg\"");
    std::fs::write(dir.join("campaign.toml"), toml).unwrap();
    std::fs::write(
        d.join("bad.tg"),
        "param N: int >= 2;\nthread main { compute x = c * ; }\n",
    )
    .unwrap();
    let err = fails(&["compare", dir.to_str().unwrap()], 1);
    assert!(err.contains("expected an operand"), "{err}");
    assert!(err.contains("bad.tg:2:31"), "{err}");
}
