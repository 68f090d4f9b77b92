//! End-to-end tests of `vates fit` on the examples in `examples/fit/` and on malformed files.

use std::path::Path;

mod common;
use common::{fails, json, stdout, tempdir};

fn example(name: &str) -> String {
    common::example_in("fit", name)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

/// `examples/fit/solver.txt` holds 3 + 0.8·p·log2(p) + 0.004·p² (3% noise, p ≤ 64): the
/// solve region's model grows as p·log2(p) (the p² term is within the noise at p ≤ 64), its
/// prediction at p = 1024 is within 10% of that term's 8,195 (the truth with p² is 12,389),
/// with an interval around it, and the report warns that 1024 is 16× the largest p.
#[test]
fn solver_example_models_and_predicts() {
    let v = json(&[
        "fit",
        &example("solver.txt"),
        "--predict",
        "p=1024",
        "--format",
        "json",
    ]);
    assert_eq!(v["modeler"], "vates");
    let models = v["models"].as_array().unwrap();
    assert_eq!(models.len(), 3);
    let solve = &models[0];
    assert_eq!(solve["callpath"], "solve");
    let factors = &solve["model"]["terms"][0]["factors"][0];
    assert_eq!(
        (factors["poly"].as_str(), factors["log"].as_str()),
        (Some("1"), Some("1"))
    );
    let pred = &solve["predictions"][0];
    let value = pred["value"].as_f64().unwrap();
    assert!((value - 8195.0).abs() < 0.1 * 8195.0, "{value}");
    let (lo, hi) = (
        pred["interval"][0].as_f64().unwrap(),
        pred["interval"][1].as_f64().unwrap(),
    );
    assert!(lo < value && value < hi, "{lo} {value} {hi}");
    assert!(pred["warnings"][0].as_str().unwrap().contains("16×"));
    // allreduce is 1.2·log2(p): growth log2(p), coefficient near 1.2.
    let allreduce = &models[2];
    let c = allreduce["model"]["terms"][0]["coefficient"]
        .as_f64()
        .unwrap();
    assert!((c - 1.2).abs() < 0.05, "{c}");
    // The expr text parses back to the model.
    assert!(solve["model"]["expr"]
        .as_str()
        .unwrap()
        .contains("*p^(1)*log2(p)^(1)"));
}

#[test]
fn rank_lists_the_fastest_growing_callpath_first() {
    let out = stdout(&["fit", &example("solver.txt"), "--rank"]);
    let pos: Vec<usize> = ["solve", "exchange", "allreduce"]
        .iter()
        .map(|c| out.find(c).unwrap())
        .collect();
    assert!(pos[0] < pos[1] && pos[1] < pos[2], "{out}");
}

/// The CSV example (0.2 + 3e-5·n·log2(n) + 0.1·log2(p), 2% noise): both modelers find the
/// sum of the two terms; the prediction at p = 128, n = 64000 is within 3% of the truth
/// (31.554).
#[test]
fn csv_example_two_parameters_both_modelers() {
    for modeler in ["vates", "extrap"] {
        let v = json(&[
            "fit",
            &example("runs.csv"),
            "--metric",
            "time",
            "--modeler",
            modeler,
            "--predict",
            "p=128,n=64000",
            "--format",
            "json",
        ]);
        assert_eq!(v["parameters"], serde_json::json!(["p", "n"]));
        let m = &v["models"][0];
        assert_eq!(
            m["model"]["terms"].as_array().unwrap().len(),
            2,
            "{modeler}"
        );
        let value = m["predictions"][0]["value"].as_f64().unwrap();
        assert!((value - 31.554).abs() < 0.03 * 31.554, "{modeler}: {value}");
    }
}

#[test]
fn bad_inputs_name_line_and_column() {
    let d = tempdir("fit-bad");
    // (file, its text, what the error must say: the location and the class).
    let cases: [(&str, &str, [&str; 2]); 5] = [
        // An unknown field, with the closest one suggested.
        (
            "a.txt",
            "PARAMETER p\nPOINTS 1 2 3\nREGON main\n",
            ["a.txt:3:1", "REGION"],
        ),
        // A value that is not a number, at its column.
        (
            "b.txt",
            "PARAMETER p\nPOINTS 1 2\nDATA 1.0 x2\nDATA 2\n",
            ["b.txt:3:10", "not a number"],
        ),
        // More DATA lines than POINTS.
        (
            "c.txt",
            "PARAMETER p\nPOINTS 1 2\nDATA 1\nDATA 2\nDATA 3\n",
            ["c.txt:5:1", "only 2 POINTS"],
        ),
        // NaN in CSV.
        (
            "d.csv",
            "p,t\n1,2\n2,NaN\n",
            ["d.csv:3:3", "not a finite number"],
        ),
        // JSON Lines with a syntax error.
        (
            "e.jsonl",
            "{\"params\": {\"p\": 1}, \"value\": 2}\n{\"params\": \n",
            ["e.jsonl:2:", "invalid JSON"],
        ),
    ];
    for (name, text, wants) in cases {
        let err = fails(&["fit", &write(&d, name, text)], 1);
        assert!(wants.iter().all(|w| err.contains(w)), "{name}: {err}");
    }
    // A CSV column that does not exist: a usage error, as every name given by flag.
    let err = fails(&["fit", &example("runs.csv"), "--metric", "tme"], 2);
    assert!(
        err.contains("no column `tme`") && err.contains("time"),
        "{err}"
    );
    // A prediction at a parameter the file does not have is a usage error.
    let err = fails(&["fit", &example("solver.txt"), "--predict", "q=4"], 2);
    assert!(err.contains("no parameter `q`"), "{err}");
}

#[test]
fn plot_and_latex() {
    let d = tempdir("fit-plot");
    let svg = d.join("solve.svg").display().to_string();
    stdout(&[
        "fit",
        &example("solver.txt"),
        "--callpath",
        "solve",
        "--predict",
        "p=1024",
        "--plot",
        &svg,
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("extrapolated") && text.contains("measured"));
    // Several series cannot share one plot.
    let err = fails(&["fit", &example("solver.txt"), "--plot", &svg], 2);
    assert!(err.contains("--callpath"), "{err}");
    let tex = stdout(&["fit", &example("solver.txt"), "--format", "latex"]);
    assert!(tex.starts_with("\\begin{align*}"), "{tex}");
    assert!(
        tex.contains("\\text{solve / time}") && tex.contains("\\,p\\,\\log_2 p"),
        "{tex}"
    );
}

/// Basis mode on the CSV example (0.2 + 3e-5·n·log2(n) + 0.1·log2(p)): least squares recovers
/// the coefficients; the Lasso with positive coefficients and shuffled folds reports an α;
/// collinear bases are named; a basis that does not parse is a usage error with a caret.
#[test]
fn basis_regression_mode() {
    let csv = example("runs.csv");
    let regress = |basis: &str, extra: &[&str]| {
        let mut args = vec![
            "fit", &csv, "--y", "time", "--basis", basis, "--format", "json",
        ];
        args.extend_from_slice(extra);
        json(&args)
    };
    let v = regress("n*log2(n); log2(p)", &[]);
    let c = &v["coefficients"];
    assert!(
        (c["n*log2(n)"].as_f64().unwrap() - 3e-5).abs() < 1e-6,
        "{v}"
    );
    assert!((c["log2(p)"].as_f64().unwrap() - 0.1).abs() < 0.01, "{v}");
    assert!((v["intercept"].as_f64().unwrap() - 0.2).abs() < 0.05, "{v}");
    assert_eq!(v["rank"], 3);
    let v = regress(
        "n*log2(n); log2(p); n",
        &["--method", "lasso-lars-cv", "--positive", "--shuffle", "1"],
    );
    assert!(v["alpha"].as_f64().is_some(), "{v}");
    let cs = v["coefficients"].as_object().unwrap();
    assert!(cs.values().all(|c| c.as_f64().unwrap() >= 0.0), "{v}");
    let out = stdout(&["fit", &csv, "--y", "time", "--basis", "n; 2*n"]);
    assert!(out.contains("cannot tell them apart"), "{out}");
    let err = fails(&["fit", &csv, "--y", "time", "--basis", "n*log2(n"], 2);
    assert!(err.contains("expected `)`") && err.contains('^'), "{err}");
    let err = fails(&["fit", &csv, "--y", "tme", "--basis", "n"], 2);
    assert!(
        err.contains("--y: ") && err.contains("no column `tme`"),
        "{err}"
    );
    // Fewer rows than unknowns.
    let d = tempdir("fit-few");
    let few = write(&d, "few.csv", "n,t\n1,2\n2,3\n");
    let err = fails(&["fit", &few, "--y", "t", "--basis", "n; n^2"], 1);
    assert!(err.contains("2 rows for 3 unknowns"), "{err}");
}

#[test]
fn user_terms_join_the_vates_search() {
    let err = fails(&["fit", &example("solver.txt"), "--term", "q^2"], 2);
    assert!(
        err.contains("`q`") && err.contains("not a parameter"),
        "{err}"
    );
    let err = fails(
        &[
            "fit",
            &example("solver.txt"),
            "--term",
            "p^2",
            "--modeler",
            "extrap",
        ],
        2,
    );
    assert!(err.contains("--term"), "{err}");
}

/// Strong scaling: time = 1000/p + 5·log2(p), measured at p = 2..64. `--times p` models the
/// total work time·p = 1000 + 5·p·log2(p) (a PMNF form) and predicts the time itself: at
/// p = 256, 1000/256 + 40 = 43.9 (within 5%).
#[test]
fn strong_scaling_is_modelled_as_time_times_p() {
    let d = tempdir("fit-strong");
    let mut csv = String::from("p,time\n");
    for p in [2.0f64, 4.0, 8.0, 16.0, 32.0, 64.0] {
        for r in [0.99, 1.0, 1.01] {
            csv.push_str(&format!("{p},{}\n", (1000.0 / p + 5.0 * p.log2()) * r));
        }
    }
    let f = write(&d, "strong.csv", &csv);
    let v = json(&[
        "fit",
        &f,
        "--times",
        "p",
        "--predict",
        "p=256",
        "--format",
        "json",
    ]);
    let m = &v["models"][0];
    assert_eq!(m["times"], "p");
    let value = m["predictions"][0]["value"].as_f64().unwrap();
    assert!((value - 43.906).abs() < 0.05 * 43.906, "{value}: {m}");
    let err = fails(&["fit", &f, "--times", "q"], 2);
    assert!(err.contains("--times q"), "{err}");
}

/// Non-positive parameter values: a basis with a logarithm of 0 is an error naming the basis
/// and the row; the PMNF modelers leave out log blocks when some x is below 1 (Extra-P's
/// rule) and still model the data.
#[test]
fn non_positive_parameters_and_log_terms() {
    let d = tempdir("fit-zero");
    let f = write(&d, "z.csv", "n,t\n0,1\n1,2\n2,3\n4,5\n8,9\n");
    let err = fails(&["fit", &f, "--y", "t", "--basis", "log2(n)"], 1);
    assert!(err.contains("log2(n)") && err.contains("row 1"), "{err}");
    for modeler in ["vates", "extrap"] {
        let v = json(&["fit", &f, "--modeler", modeler, "--format", "json"]);
        let terms = v["models"][0]["model"]["terms"].as_array().unwrap().clone();
        assert!(
            terms.iter().all(|t| t["factors"]
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["log"] == "0")),
            "{modeler}: {v}"
        );
    }
}

/// Binary input is refused at its first block, not after reading up to the size limit:
/// `/dev/zero` ends at once; a file with a NUL byte names its offset.
#[test]
fn binary_input_is_refused_at_once() {
    let start = std::time::Instant::now();
    let err = fails(&["fit", "/dev/zero"], 1);
    assert!(
        err.contains("`/dev/zero` is not a text file: byte 0 is 0x00 (NUL)"),
        "{err}"
    );
    assert!(start.elapsed().as_secs_f64() < 5.0, "{:?}", start.elapsed());
    let d = tempdir("fit-binary");
    let err = fails(&["fit", &write(&d, "b.csv", "p,t\n1,2\0\n")], 1);
    assert!(err.contains("byte 7 is 0x00"), "{err}");
    let err = fails(
        &[
            "fit",
            &write(&d, "b.csv", "p,t\n1,2\0\n"),
            "--basis",
            "p",
            "--y",
            "t",
        ],
        1,
    );
    assert!(err.contains("byte 7 is 0x00"), "{err}");
}

/// A column name given twice, and a subnormal value, are refused at their line and column.
#[test]
fn duplicated_columns_and_subnormal_values_are_located() {
    let d = tempdir("fit-dup");
    let dup = write(&d, "dup.csv", "p,time,time\n1,1,2\n2,2,3\n4,4,5\n");
    for extra in [&[][..], &["--metric", "time"][..]] {
        let mut args = vec!["fit", dup.as_str()];
        args.extend_from_slice(extra);
        let err = fails(&args, 1);
        assert!(
            err.contains("dup.csv:1:8: the column name `time` appears twice: columns 2 and 3"),
            "{err}"
        );
    }
    let sub = write(&d, "sub.csv", "p,time\n1,1e-320\n2,2\n4,4\n8,8\n16,16\n");
    let err = fails(&["fit", &sub], 1);
    assert!(
        err.contains("sub.csv:2:3: `1e-320` in column `time` is too small to model")
            && err.contains("smaller unit"),
        "{err}"
    );
}

/// A callpath, metric or parameter named by flag that the data does not have is a usage
/// error (exit 2) naming the flag, with the closest name.
#[test]
fn names_the_data_lacks_are_usage_errors() {
    let solver = example("solver.txt");
    let runs = example("runs.csv");
    let cases: [(&[&str], &str); 6] = [
        (
            &["--callpath", "slove"],
            "--callpath: no callpath `slove` in the file; did you mean `solve`?",
        ),
        (
            &["--metric", "tme"],
            "--metric: no metric `tme` in the file; did you mean `time`?",
        ),
        (
            &["-D", "q=4"],
            "-D q=4: no parameter `q` in the measurements",
        ),
        (&["-D", "pp=4"], "did you mean `p`?"),
        (
            &["--times", "pp"],
            "--times pp: no such parameter; did you mean `p`?",
        ),
        (&["--predict", "q=4"], "no parameter `q`"),
    ];
    for (flags, want) in cases {
        let mut args = vec!["fit", solver.as_str()];
        args.extend_from_slice(flags);
        let err = fails(&args, 2);
        assert!(err.contains(want), "{flags:?}: {err}");
    }
    let err = fails(&["fit", &runs, "--metric", "tme"], 2);
    assert!(
        err.contains("--metric: ") && err.contains("did you mean `time`?"),
        "{err}"
    );
    let err = fails(&["fit", &runs, "--param", "pp"], 2);
    assert!(
        err.contains("--param: ") && err.contains("did you mean `p`?"),
        "{err}"
    );
    let err = fails(&["fit", &runs, "--callpath", "x"], 2);
    assert!(err.contains("--callpath: no callpath `x`"), "{err}");
    // Basis mode names its columns by --y and in --basis: the same usage error (it was a
    // located read error, exit 1).
    let err = fails(&["fit", &runs, "--basis", "p", "--y", "tim"], 2);
    assert!(
        err.contains("--y: ") && err.contains("no column `tim`; did you mean `time`?"),
        "{err}"
    );
    let err = fails(&["fit", &runs, "--basis", "q*n", "--y", "time"], 2);
    assert!(
        err.contains("--basis: ") && err.contains("no column `q`"),
        "{err}"
    );
}

/// `-D name=values` names prediction points (a list gives several, several -D every
/// combination); `--predict` is the same for one point; a parameter left unbound is a usage
/// error.
#[test]
fn prediction_points_are_named_with_d() {
    let runs = example("runs.csv");
    let v = json(&[
        "fit",
        &runs,
        "-D",
        "p=64,128",
        "-D",
        "n=64000",
        "--predict",
        "p=128,n=64000",
        "--format",
        "json",
    ]);
    let preds = v["models"][0]["predictions"].as_array().unwrap();
    let points: Vec<(f64, f64)> = preds
        .iter()
        .map(|p| {
            let at = |k: &str| p["point"][k].as_f64().unwrap();
            (at("p"), at("n"))
        })
        .collect();
    assert_eq!(
        points,
        [(64.0, 64000.0), (128.0, 64000.0), (128.0, 64000.0)]
    );
    assert_eq!(
        preds[1]["value"], preds[2]["value"],
        "-D and --predict agree"
    );
    let err = fails(&["fit", &runs, "-D", "p=64"], 2);
    assert!(err.contains("no value for the parameter `n`"), "{err}");
    let err = fails(&["fit", &runs, "-D", "p=x"], 2);
    assert!(err.contains("-D"), "{err}");
}

/// Values near the largest double are modelled on a scaled copy (a finite model, exit 0);
/// values whose range a double-precision fit cannot handle are refused with the reason,
/// never shown as a NaN or infinite model.
#[test]
fn huge_and_wide_values_give_a_finite_model_or_a_reason() {
    let d = tempdir("fit-range");
    let big = write(
        &d,
        "big.csv",
        "p,time\n1,1e307\n2,4e307\n4,1.6e308\n8,1.7e308\n",
    );
    let v = json(&["fit", &big, "--format", "json"]);
    let model = &v["models"][0]["model"];
    let c0 = model["constant"].as_f64().expect("a finite constant");
    let c1 = model["terms"][0]["coefficient"]
        .as_f64()
        .expect("a finite coefficient");
    assert!(c0.is_finite() && c1 > 1e306, "{model}");
    let out = stdout(&["fit", &big, "-D", "p=16"]);
    assert!(!out.contains("NaN"), "{out}");
    assert!(out.contains("beyond the largest double"), "{out}");
    let wide = write(&d, "wide.csv", "p,time\n1,1e-300\n2,1\n4,2\n8,3\n16,4\n");
    let err = fails(&["fit", &wide], 1);
    assert!(
        err.contains("wide.csv: time: the values (magnitudes 1e-300 to 4e0) are beyond what a double-precision fit can handle")
            && err.contains("another unit"),
        "{err}"
    );
    // The basis regression is scaled too: finite coefficients where they were inf and NaN.
    let out = stdout(&["fit", &big, "--basis", "p; p^2", "--y", "time"]);
    assert!(!out.contains("NaN") && out.contains("e+30"), "{out}");
    let ok = write(&d, "ok.csv", "p,y\n1,3e300\n2,5e300\n3,7e300\n4,9e300\n");
    let v = json(&["fit", &ok, "--basis", "p", "--y", "y", "--format", "json"]);
    let c = v["coefficients"]["p"].as_f64().unwrap_or(f64::NAN);
    assert!((c - 2e300).abs() < 1e288, "{v}");
    let wide = write(&d, "wide2.csv", "p,y\n1,1e-300\n1e300,1\n1e-300,1e300\n");
    let err = fails(&["fit", &wide, "--basis", "p^2", "--y", "y"], 1);
    assert!(err.contains("`p^2` at row 2: non-finite value"), "{err}");
}

/// `--format json` prints one pretty JSON object (not JSON Lines), in both modes.
#[test]
fn json_output_is_one_object() {
    for extra in [&[][..], &["--basis", "n", "--y", "time"][..]] {
        let runs = example("runs.csv");
        let mut args = vec!["fit", runs.as_str(), "--format", "json"];
        args.extend_from_slice(extra);
        let out = stdout(&args);
        assert!(out.starts_with("{\n  \"") && out.ends_with("}\n"), "{out}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON value");
        assert!(v.is_object(), "{out}");
    }
}

/// Strong-scaling data t = 100/p + 2 at p = 1 … 64 without `--times`: the model is
/// `2 + 100·p^-1` and its prediction at p = 1024 is within 1% of 2.0977 (it was the
/// constant 5.30, with no warning); `--negative-exponents` finds it too.
#[test]
fn strong_scaling_without_times_extrapolates() {
    let d = tempdir("fit-strong-plain");
    let mut csv = String::from("p,time\n");
    for k in 0..7 {
        let p = f64::from(1 << k);
        csv.push_str(&format!("{p},{}\n", 100.0 / p + 2.0));
    }
    let f = write(&d, "strong.csv", &csv);
    let truth = 100.0 / 1024.0 + 2.0;
    for extra in [&[][..], &["--negative-exponents"][..]] {
        let mut args = vec!["fit", f.as_str(), "-D", "p=1024", "--format", "json"];
        args.extend_from_slice(extra);
        let v = json(&args);
        let m = &v["models"][0];
        let value = m["predictions"][0]["value"].as_f64().unwrap();
        assert!(
            (value - truth).abs() < 0.01 * truth,
            "{extra:?} {value}: {m}"
        );
        assert_eq!(m["model"]["terms"][0]["factors"][0]["poly"], "-1", "{m}");
    }
    let out = stdout(&["fit", &f]);
    assert!(out.contains("model     2 + 100·p^-1"), "{out}");
    // The extrap modeler keeps Extra-P's blocks, and says why its model misses.
    for extra in [&[][..], &["--negative-exponents"][..]] {
        let mut args = vec!["fit", f.as_str(), "--modeler", "extrap"];
        args.extend_from_slice(extra);
        let out = stdout(&args);
        assert!(
            out.contains("the values decrease as p grows, but the model does not follow them with a decreasing term: the extrap modeler's building blocks grow"),
            "{out}"
        );
    }
    assert!(!stdout(&["fit", &f]).contains("but the model does not follow"));
}

/// `fit --help` states the defaults the readers apply.
#[test]
fn help_states_the_true_defaults() {
    let help = stdout(&["fit", "--help"]);
    for want in [
        "Default: with --metric, the columns left of the first metric; without, the columns that are not metrics",
        "default: the columns whose values differ in 90% of the rows or more",
        "-D <NAME=VALUES>",
    ] {
        assert!(help.contains(want), "no `{want}` in\n{help}");
    }
    assert!(!help.contains("default: the last\n"), "{help}");
}

/// The measurements carry no units: the text report says once that its models and
/// predictions are in theirs.
#[test]
fn text_report_says_values_are_in_the_measurements_units() {
    let s = stdout(&["fit", &example("solver.txt"), "-D", "p=1024"]);
    assert!(
        s.starts_with("models and predictions in the units of the measurements\n\n"),
        "{s}"
    );
    assert_eq!(s.matches("units of the measurements").count(), 1, "{s}");
}
