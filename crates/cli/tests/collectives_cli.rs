//! `vates collectives` on bad input (the defects a review found): every one an error with
//! its status, the place and the fix, never a silent result or a hang.

mod common;
use common::{example_in, fails, stdout, tempdir, TempDir};

fn file(dir: &TempDir, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

fn here() -> String {
    example_in("collectives", "here.csv")
}

fn thesis(k: u32) -> String {
    format!(
        "{}/../../bench/macdonald/tables/table_3_{k}.csv",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn many_sizes_are_fitted_in_bounded_time() {
    // 60 sizes: the regime search is skipped with the reason (it once took minutes).
    let dir = tempdir("coll-sizes");
    let mut osu = String::from("# OSU MPI Broadcast Latency Test v7.3\n# Size Avg Latency(us)\n");
    for d in 1..=60 {
        osu.push_str(&format!("{d} {}\n", f64::from(d) * 0.01 + 1.0));
    }
    let f = file(&dir, "osu60.txt", &osu);
    let start = std::time::Instant::now();
    let out = stdout(&["collectives", "fit", &f, "--osu-np", "2"]);
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    assert!(out.contains("*  size  1 + 0.01·d"), "{out}");
    assert!(
        out.contains("a search for regimes splits at most 40"),
        "{out}"
    );
}

#[test]
fn prediction_points_are_checked() {
    let err = fails(
        &["collectives", "fit", &thesis(4), "-D", "p=0", "-D", "d=1"],
        2,
    );
    assert!(err.contains("-D p=0: p is a number of processes"), "{err}");
    let err = fails(
        &["collectives", "fit", &thesis(4), "-D", "p=2", "-D", "d=-1"],
        2,
    );
    assert!(err.contains("-D d=-1: d is a message size"), "{err}");
    let skel = example_in("collectives", "geometric.skel");
    let err = fails(
        &[
            "collectives",
            "skeleton",
            &skel,
            "--table",
            &here(),
            "-D",
            "p=2.5",
        ],
        2,
    );
    assert!(err.contains("p is a number of processes"), "{err}");
}

#[test]
fn a_table_nothing_can_be_fitted_to_is_an_error() {
    let dir = tempdir("coll-none");
    let f = file(&dir, "q.csv", "op,p,d,time\nbroadcast,2,1,3\n");
    let err = fails(&["collectives", "fit", &f], 1);
    assert!(
        err.contains("no form could be fitted to broadcast"),
        "{err}"
    );
}

#[test]
fn a_size_given_in_some_rows_only_is_located() {
    let dir = tempdir("coll-mixed");
    let f = file(
        &dir,
        "b.csv",
        "op,p,d,time\nbroadcast,2,,3\nbroadcast,4,1,3\n",
    );
    let err = fails(&["collectives", "fit", &f], 1);
    assert!(
        err.contains("b.csv:3:13: broadcast has a size here and none"),
        "{err}"
    );
}

#[test]
fn skeleton_errors_are_errors_with_their_place() {
    let dir = tempdir("coll-skel");
    for (text, status, want) in [
        (
            "scatter m*2\n",
            1,
            "s.skel:1:1: `m` is not a parameter of the skeleton",
        ),
        (
            "frobnicate 2\n",
            1,
            "s.skel:1:1: the measurements have no `frobnicate`",
        ),
        ("scatter -5\n", 1, "the size of scatter is -5"),
        ("loop -3\n send-receive 1\nend\n", 1, "a loop count is -3"),
        (
            "param n = n\nscatter n\n",
            1,
            "uses `n`, which no earlier `param` binds",
        ),
    ] {
        let s = file(&dir, "s.skel", text);
        let err = fails(
            &[
                "collectives",
                "skeleton",
                &s,
                "--table",
                &here(),
                "-D",
                "p=2",
            ],
            status,
        );
        assert!(err.contains(want), "{text:?}: {err}");
    }
    // Tables of two platforms for one operation.
    let skel = example_in("collectives", "geometric.skel");
    let err = fails(
        &[
            "collectives",
            "skeleton",
            &skel,
            "--table",
            &thesis(7),
            "--table",
            &thesis(10),
            "--table",
            &thesis(13),
            "--table",
            &thesis(8),
            "-D",
            "p=4",
        ],
        1,
    );
    assert!(
        err.contains("the tables hold scatter on two platforms"),
        "{err}"
    );
}

#[test]
fn fragment_parameters_are_whole_and_not_negative() {
    let f = example_in("collectives", "prefix_sum.f");
    let err = fails(
        &[
            "collectives",
            "count",
            &f,
            "-D",
            "N=-5",
            "--platform",
            "sun",
        ],
        2,
    );
    assert!(
        err.contains("-D N=-5: a loop bound is a whole number"),
        "{err}"
    );
    let out = stdout(&["collectives", "count", &f, "-D", "N=1000"]);
    assert!(out.contains("loadR      2*N - 1         1999"), "{out}");
}

#[test]
fn a_plot_path_that_is_a_file_is_refused_before_the_work() {
    let dir = tempdir("coll-plot");
    let f = file(&dir, "x.svg", "");
    let err = fails(&["collectives", "fit", &here(), "--plot", &f], 2);
    assert!(err.contains("is a file: give a directory"), "{err}");
}

#[test]
fn a_skeleton_lowered_to_etccs_shows_the_bus_contention() {
    // A scatter of 10 integers to 2 ranks, a message costing 5 to start and 1 per integer:
    // perfect network 20, bus 25 (the second transfer waits for the first).
    let dir = tempdir("coll-etccs");
    let s = file(&dir, "s.skel", "scatter 10\n");
    let out = stdout(&[
        "collectives",
        "skeleton",
        &s,
        "--table",
        &here(),
        "-D",
        "p=3",
        "--etccs",
        "both",
        "--message-start",
        "5",
        "--message-per-item",
        "1",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let lowered = &v["points"][0]["lowered"];
    assert_eq!(lowered[0]["network"], "bus");
    assert_eq!(lowered[0]["time"], 25.0);
    assert_eq!(lowered[1]["network"], "perfect");
    assert_eq!(lowered[1]["time"], 20.0);
    // Without the costs given, they come from the table's send-receive.
    let skel = example_in("collectives", "geometric.skel");
    let out = stdout(&[
        "collectives",
        "skeleton",
        &skel,
        "--table",
        &here(),
        "-D",
        "p=2",
        "-D",
        "n=6",
        "--etccs",
        "perfect",
    ]);
    assert!(out.contains("ETCCS perfect (µs)"), "{out}");
    let err = fails(
        &[
            "collectives",
            "skeleton",
            &skel,
            "--table",
            &here(),
            "-D",
            "p=2",
            "--message-start",
            "1",
        ],
        2,
    );
    assert!(err.contains("--etccs"), "{err}");
}

#[test]
fn the_fortran_probe_characterises_this_host() {
    let found = std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("skipped: install gfortran (Debian)");
        }
        println!("skipped: install gfortran (Debian)");
        return;
    }
    let out = stdout(&["probe", "--fortran", "--quick", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    let levels = v["levels"].as_array().expect("levels");
    assert_eq!(levels.len(), 2, "-O0 and -O2");
    for l in levels {
        // The nine operation times fitted, none negative, and every fragment A-F predicted.
        let times = l["calibration"]["times"].as_array().expect("times");
        assert_eq!(times.len(), 9);
        assert!(times.iter().all(|t| t.as_f64().is_some_and(|t| t >= 0.0)));
        let cells = l["comparison"]["cells"].as_array().expect("cells");
        for f in ["A", "B", "C", "D", "E", "F"] {
            assert!(cells.iter().any(|c| c["fragment"] == f), "{f}");
        }
    }
    let text = stdout(&["probe", "--fortran", "--quick"]);
    assert!(
        text.contains("### -O0: prediction differences (%), Table 2-7 form"),
        "{text}"
    );
}

#[test]
fn a_skeleton_prediction_says_how_far_to_trust_it() {
    // here.csv measured sizes up to 65,536 integers: n = 64 scatters 32,768 per process
    // (inside), n = 1024 scatters 524,288 (an extrapolation, marked `*`).
    let skel = example_in("collectives", "geometric.skel");
    let out = stdout(&[
        "collectives",
        "skeleton",
        &skel,
        "--table",
        &here(),
        "-D",
        "p=2",
        "-D",
        "n=64,1024",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["points"][0]["extrapolated"], false);
    assert_eq!(v["points"][1]["extrapolated"], true);
    let ops: Vec<&str> = v["model_differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d[0].as_str().unwrap())
        .collect();
    assert_eq!(ops, vec!["gather", "scatter", "send-receive"]);
    assert!(v["model_differences"][0][2]
        .as_f64()
        .is_some_and(|d| d > 0.0));
    let text = stdout(&[
        "collectives",
        "skeleton",
        &skel,
        "--table",
        &here(),
        "-D",
        "p=2",
        "-D",
        "n=1024",
    ]);
    assert!(text.contains("the prediction extrapolates"), "{text}");
    assert!(
        text.contains("trust: the symbolic models' average difference"),
        "{text}"
    );
}
