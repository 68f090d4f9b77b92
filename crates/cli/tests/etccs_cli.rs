//! End-to-end tests of `vates etccs analyse` (Eager Timed CCS).

mod common;
use common::{fails, json, stdout, tempdir, vates};

/// The `pexec` entries of an agent's JSON as (time, probability) strings.
fn pexec_pairs(pexec: &serde_json::Value) -> Vec<(String, String)> {
    pexec
        .as_array()
        .expect("pexec is an array")
        .iter()
        .map(|p| {
            (
                p["time"].as_str().unwrap().to_string(),
                p["prob"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

const P7: &str = "define P7 = ((a,3).nil | (a,3).(b,4).nil | (a',4).nil)\\{a}\nanalyse P7\n";

/// `etccs analyse MODEL --agent AGENT` followed by `rest`: the arguments of
/// most tests here.
fn analyse_args<'a>(model: &'a str, agent: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    [&["etccs", "analyse", model, "--agent", agent][..], rest].concat()
}

#[test]
fn thesis_format_of_example_p7() {
    let d = tempdir("etccs-p7");
    let f = d.join("p7.etccs");
    std::fs::write(&f, P7).unwrap();
    let out = stdout(&[
        "etccs",
        "analyse",
        &f.display().to_string(),
        "--format",
        "thesis",
    ]);
    assert_eq!(
        out,
        "Execution times are:\n4\n8\nSummary:\n4 (50.0%)\n8 (50.0%)\n"
    );
}

#[test]
fn json_has_exact_distribution_and_outcome() {
    let d = tempdir("etccs-json");
    let f = d.join("m.etccs");
    // T5-8: EXEC {2,5,9}, PEXEC {2: 1/2, 5: 1/4, 9: 1/4}.
    std::fs::write(&f, "define Q = a@2.nil + b@2.(c@3.nil + d@3.e@4.nil)\n").unwrap();
    let v = json(&analyse_args(
        &f.display().to_string(),
        "Q",
        &["--format", "json"],
    ));
    let a = &v["agents"][0];
    assert_eq!(a["name"], "Q");
    assert_eq!(a["exec"], serde_json::json!(["2", "5", "9"]));
    let pexec = pexec_pairs(&a["pexec"]);
    assert_eq!(
        pexec,
        vec![
            ("2".into(), "1/2".into()),
            ("5".into(), "1/4".into()),
            ("9".into(), "1/4".into())
        ]
    );
    assert_eq!(a["outcome"], "terminated");
}

#[test]
fn errors_are_located_and_exit_one() {
    let d = tempdir("etccs-err");
    let f = d.join("bad.etccs");
    std::fs::write(&f, "define P = (a,3).nil +\n").unwrap();
    let err = fails(&["etccs", "analyse", &f.display().to_string()], 1);
    assert!(err.contains("bad.etccs:2:1"), "{err}");
    // No analyse line and no --agent: say how to fix it, naming the agents.
    let g = d.join("noanalyse.etccs");
    std::fs::write(&g, "define A = (a,1).nil\n").unwrap();
    let err = fails(&["etccs", "analyse", &g.display().to_string()], 1);
    assert!(err.contains("--agent") && err.contains("A"), "{err}");
    // An unknown agent given by --agent: a usage error (exit 2), as every name given by a
    // flag that the model lacks.
    let err = fails(
        &["etccs", "analyse", &g.display().to_string(), "--agent", "B"],
        2,
    );
    assert!(err.contains("--agent B: "), "{err}");
    // A state limit hit is an error naming the flag.
    std::fs::write(&g, P7).unwrap();
    let out = vates()
        .args([
            "etccs",
            "analyse",
            &g.display().to_string(),
            "--max-states",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn const_sweep_prints_the_thesis_table() {
    let f = common::example_in("etccs", "scatter_gather.etccs");
    let bus = analyse_args(&f, "ScatterGatherBus", &["--const", "p=2..3"]);
    let v = json(&[&bus[..], &["--format", "json"]].concat());
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    assert_eq!(points[0]["consts"]["p"], "2");
    // p = 2: every path (EXEC is a multiset, one entry per path) takes 1002002.
    let a2 = &points[0]["agents"][0];
    assert_eq!(
        (a2["min"].as_str(), a2["max"].as_str()),
        (Some("1002002"), Some("1002002"))
    );
    assert_eq!(
        a2["pexec"],
        serde_json::json!([{"time": "1002002", "prob": "1"}])
    );
    // Table 6-4, p = 3: the exact distribution on the bus.
    let pexec = pexec_pairs(&points[1]["agents"][0]["pexec"]);
    assert_eq!(
        pexec,
        vec![
            ("1334336".into(), "1/16".into()),
            ("1335335".into(), "3/4".into()),
            ("1335336".into(), "3/16".into())
        ]
    );
    let text = stdout(&analyse_args(
        &f,
        "ScatterGatherPerfect",
        &["--const", "p=2..4"],
    ));
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["3", "104", "669668", "669668", "669668", "669668"]),
        "{text}"
    );
    // The mean column: Table 6-4 at p = 3 has mean 5341091/4.
    let text = stdout(&bus);
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().take(5).collect::<Vec<_>>()
                == ["3", "295", "1334336", "1335336", "1335272.75"]),
        "{text}"
    );
    // A bad --const is a usage error.
    let out = vates()
        .args(["etccs", "analyse", &f, "--const", "p"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn table_marks_a_point_over_the_state_limit_and_goes_on() {
    // Non-blocking scatter on the bus: 17, 78 and 314 states for p = 2, 3, 4; with a limit of
    // 100 states the p = 4 row says so, and the rows before it and the other agent are whole.
    let f = common::example_in("etccs", "scatter.etccs");
    let args = [
        "etccs",
        "analyse",
        &f,
        "--agent",
        "NonBlockingBus",
        "--agent",
        "RepeatedBus",
        "--const",
        "p=2..4",
        "--max-states",
        "100",
    ];
    // The table is printed, and the run fails: one of its six analyses is incomplete.
    let (text, err) = common::output_with_code(&args, 1);
    assert!(err.contains("1 of 6 analyses stopped at a limit"), "{err}");
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(
        rows.contains(&vec!["3", "78", "2102", "2102", "2102", "2102"]),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l
            .split_whitespace()
            .take(5)
            .eq(["4", ">100", "-", "-", "-"])
            && l.ends_with("stopped: more than 100 states (raise --max-states)")),
        "{text}"
    );
    // RepeatedBus stays under the limit at p = 4 (71 states).
    assert!(
        rows.contains(&vec!["4", "71", "3303", "3303", "3303", "3303"]),
        "{text}"
    );
    let (out, _) = common::output_with_code(&[&args[..], &["--format", "json"]].concat(), 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let cells = &v["points"][2]["agents"];
    assert_eq!(
        cells[0],
        serde_json::json!({
            "name": "NonBlockingBus",
            "limit": "states",
            "error": "stopped: more than 100 states (raise --max-states)"
        })
    );
    assert_eq!(cells[1]["name"], "RepeatedBus");
    assert_eq!(cells[1]["states"], 71);
    // Any other error still ends the run with its diagnostic (an unknown --agent: a usage
    // error, exit 2).
    let err = fails(
        &[
            "etccs", "analyse", &f, "--agent", "Nope", "--const", "p=2..3",
        ],
        2,
    );
    assert!(err.contains("Nope"), "{err}");
    // A model that fails at one value of the sweep says which, and where.
    let err = fails(&["etccs", "analyse", &f, "--const", "p=0..2"], 1);
    assert!(err.contains("with p=0"), "{err}");
    assert!(err.contains("scatter.etccs:37:17"), "{err}");
    assert!(err.contains("empty index range"), "{err}");
}

#[test]
fn table_rows_equal_the_single_analyses() {
    // The table's analyses run in parallel: each row is what the single analysis prints
    // (p = 4 takes seconds in a debug build and adds nothing to the check).
    let f = common::example_in("etccs", "scatter_gather.etccs");
    let table = json(&[
        "etccs", "analyse", &f, "--const", "p=2..3", "--format", "json",
    ]);
    let points = table["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for (k, point) in points.iter().enumerate() {
        let p = format!("p={}", k + 2);
        let single = json(&["etccs", "analyse", &f, "--const", &p, "--format", "json"]);
        assert_eq!(point["agents"], single["agents"], "{p}");
        assert_eq!(point["agents"].as_array().unwrap().len(), 6);
    }
}

#[test]
fn parametric_example_reports_regions_merged_into_max() {
    let model = common::example_in("etccs", "parametric.etccs");
    let j = json(&["etccs", "analyse", &model, "--format", "json"]);
    let agents = j["agents"].as_array().expect("agents");
    let by_name = |n: &str| {
        agents
            .iter()
            .find(|a| a["name"] == n)
            .unwrap_or_else(|| panic!("agent {n}"))
    };
    // Overlap: bounded by the computation or by the transfer, whichever is longer.
    let o = by_name("Overlap");
    assert_eq!(o["parametric"], true);
    assert_eq!(o["free"], serde_json::json!(["tcomp", "b"]));
    assert_eq!(o["regions"].as_array().unwrap().len(), 1);
    assert_eq!(o["regions"][0]["constraints"], serde_json::json!([]));
    assert_eq!(
        o["regions"][0]["results"][0]["expr"],
        "max(tcomp, 1000*b + 100)"
    );
    assert_eq!(o["regions"][0]["results"][0]["prob"], "1");
    // Two messages share the bus before the computation can finish.
    assert_eq!(
        by_name("TwoMessages")["regions"][0]["results"][0]["expr"],
        "max(tcomp, 2000*b + 200)"
    );
    // Without merging: the thesis's view, one linear expression per region.
    let text = stdout(&analyse_args(&model, "Overlap", &["--no-merge"]));
    assert!(
        text.contains("on tcomp - 1000*b > 100:\n    tcomp  with probability 1"),
        "{text}"
    );
    assert!(text.contains("1000*b + 100  with probability 1"), "{text}");
    assert!(!text.contains("max("), "{text}");
    // Giving every parameter a value turns it into the concrete analysis.
    let j = json(&analyse_args(
        &model,
        "Overlap",
        &["--const", "tcomp=500", "--const", "b=1", "--format", "json"],
    ));
    assert_eq!(
        pexec_pairs(&j["agents"][0]["pexec"]),
        [("1100".to_string(), "1".to_string())]
    );
    // The thesis format lists expression, percentage and region.
    let thesis = stdout(&[
        "etccs", "analyse", &model, "--agent", "Race", "--format", "thesis",
    ]);
    assert_eq!(
        thesis,
        "9 states\nSummary:\nmax(t1, t2) (50.0%) (((<T>)))\nmax(t1 + t2, 2*t2) (50.0%) (((<T>)))\n"
    );
}

#[test]
fn parametric_errors_name_the_problem() {
    let d = tempdir("etccs-param-errors");
    let f = d.join("bad.etccs");
    std::fs::write(&f, "param t;\ndefine L = tau@t.L\nanalyse L\n").unwrap();
    let err = fails(&["etccs", "analyse", &f.display().to_string()], 1);
    assert!(err.contains("does not terminate"), "{err}");
    std::fs::write(&f, "param t1, t2;\ndefine P = tau@(t1*t2).nil\nanalyse P\n").unwrap();
    let err = fails(&["etccs", "analyse", &f.display().to_string()], 1);
    assert!(err.contains("not linear"), "{err}");
}

#[test]
fn sweep_plot_draws_times_against_the_swept_constant() {
    let d = tempdir("etccs-plot");
    let svg = d.join("sg.svg");
    let path = svg.display().to_string();
    let f = common::example_in("etccs", "scatter_gather.etccs");
    let table = stdout(&[
        "etccs",
        "analyse",
        &f,
        "--agent",
        "ScatterGatherBus",
        "--agent",
        "ScatterBus",
        "--const",
        "p=2..4",
        "--plot",
        &path,
    ]);
    assert!(
        table.contains("agent ScatterBus"),
        "the table is printed too"
    );
    let text = std::fs::read_to_string(&svg).expect("plot written");
    assert!(text.starts_with("<svg"), "an SVG document");
    assert!(
        text.contains("execution time against p"),
        "the title names the axis"
    );
    // Several times at p = 3 and 4: min, mean and max lines; one time: one line.
    for name in [
        "ScatterGatherBus max",
        "ScatterGatherBus mean",
        "ScatterGatherBus min",
    ] {
        assert!(text.contains(name), "legend names {name}");
    }
    assert!(text.contains("\nScatterBus\n"), "one ScatterBus line");
    assert!(
        !text.contains("ScatterBus max"),
        "ScatterBus has one time per p"
    );
    // Wrong uses are explained before any analysis runs.
    let err = fails(
        &["etccs", "analyse", &f, "--const", "p=3", "--plot", &path],
        2,
    );
    assert!(err.contains("swept constant"), "{err}");
    let err = fails(&["etccs", "analyse", &f, "--plot", &path], 2);
    assert!(err.contains("--const p=2..8"), "{err}");
    // Too many lines fails at once, not after 30 x 2 analyses.
    let err = fails(
        &[
            "etccs",
            "analyse",
            &f,
            "--const",
            "p=2,3",
            "--const",
            "tsend=1..30",
            "--plot",
            &path,
        ],
        2,
    );
    assert!(err.contains("at most 24"), "{err}");
    let model = common::example_in("etccs", "parametric.etccs");
    let err = fails(
        &[
            "etccs", "analyse", &model, "--agent", "Overlap", "--const", "b=1,2", "--plot", &path,
        ],
        2,
    );
    assert!(
        err.contains("no analysis of the sweep has execution times"),
        "{err}"
    );
    // An output path that cannot be written fails before any analysis runs.
    let out = vates()
        .args(analyse_args(
            &f,
            "ScatterBus",
            &["--const", "p=2,3", "--plot", "/nonexistent-dir/plot.svg"],
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write `/nonexistent-dir/plot.svg`"),
        "{err}"
    );
}

#[test]
fn region_map_draws_two_free_parameters() {
    let d = tempdir("etccs-map");
    let svg = d.join("overlap.svg");
    let model = common::example_in("etccs", "parametric.etccs");
    let out = stdout(&analyse_args(
        &model,
        "Overlap",
        &[
            "--map",
            &svg.display().to_string(),
            "--map-range",
            "tcomp=0..400",
        ],
    ));
    assert!(out.contains("max(tcomp, 1000*b + 100)"), "{out}");
    let text = std::fs::read_to_string(&svg).expect("map written");
    assert!(text.starts_with("<svg"), "an SVG document");
    assert!(text.contains("Overlap: execution time by region"));
    assert!(
        text.contains("max(tcomp, 1000*b + 100)"),
        "the legend names the result"
    );
    // Unmerged, both linear pieces appear in the legend.
    stdout(&analyse_args(
        &model,
        "Overlap",
        &["--no-merge", "--map", &svg.display().to_string()],
    ));
    let text = std::fs::read_to_string(&svg).expect("map written");
    assert!(
        text.contains("\ntcomp\n") && text.contains("\n1000*b + 100\n"),
        "two regions"
    );
    // Wrong uses are explained.
    for (args, want) in [
        (
            vec!["--agent", "Overlap", "--map-range", "x=0..1"],
            "not a free parameter",
        ),
        (
            vec!["--agent", "Overlap", "--map-range", "b=2..1"],
            "the range is empty",
        ),
        (
            vec!["--map-range", "b=0..1"],
            "exactly one parametric agent",
        ),
    ] {
        let mut all = vec!["etccs", "analyse", model.as_str()];
        all.extend(args);
        let path = svg.display().to_string();
        all.extend(["--map", path.as_str()]);
        let err = fails(&all, 2);
        assert!(err.contains(want), "{want}: {err}");
    }
}

#[test]
fn symbolic_constants_turn_a_concrete_model_parametric() {
    let model = common::example_in("etccs", "scatter.etccs");
    let j = json(&analyse_args(
        &model,
        "NonBlockingBus",
        &[
            "--const",
            "p=2",
            "--symbolic",
            "tsend,b",
            "--format",
            "json",
        ],
    ));
    let a = &j["agents"][0];
    assert_eq!(a["free"], serde_json::json!(["tsend", "b"]));
    // p = 2: one message, max(send start + transfer + ack, the receiver's start).
    assert_eq!(a["regions"][0]["constraints"], serde_json::json!([]));
    assert_eq!(
        a["regions"][0]["results"][0]["expr"],
        "max(tsend + 1001*b, b + 100)"
    );
    // At the example's values (tsend = 100, b = 1) that is Table 6-1's 1101.
    let bad = |args: &[&str], want: &str| {
        let err = fails(&analyse_args(model.as_str(), "NonBlockingBus", args), 1);
        assert!(err.contains(want), "{want}: {err}");
    };
    // A name the model does not declare, given by a flag, is a usage error (exit 2).
    let err = fails(
        &analyse_args(model.as_str(), "NonBlockingBus", &["--symbolic", "nope"]),
        2,
    );
    assert!(
        err.contains("--symbolic: ") && err.contains("cannot make `nope`"),
        "{err}"
    );
    // Both flags for one name is a usage error (exit 2).
    let err = fails(
        &analyse_args(
            model.as_str(),
            "NonBlockingBus",
            &["--symbolic", "b", "--const", "b=2"],
        ),
        2,
    );
    assert!(err.contains("use one of them for a name"), "{err}");
    // `p` sizes the model (ranges, indices): it cannot be symbolic.
    bad(&["--symbolic", "p"], "╰── symbolic parameter");
}

#[test]
fn regions_with_equal_results_share_one_block_of_the_report() {
    // The non-blocking scatter on the bus at p = 3 with symbolic tsend, b:
    // 16 regions (unions of conjunctions that no merge can join) with 3
    // distinct results.
    let model = common::example_in("etccs", "scatter.etccs");
    let args = analyse_args(
        &model,
        "NonBlockingBus",
        &["--const", "p=3", "--symbolic", "tsend,b"],
    );
    let out = stdout(&args);
    let text = out
        .strip_prefix("times in the model's time unit (the unit of its action delays)\n\n")
        .unwrap_or_else(|| panic!("the unit line first: {out}"));
    let j = json(&[&args[..], &["--format", "json"]].concat());
    let regions = j["agents"][0]["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 16);
    assert!(
        text.starts_with(
            "agent NonBlockingBus: parametric in tsend, b; 11131 states, \
             16 regions with 3 distinct results\n"
        ),
        "{text}"
    );
    // Every region is listed once, `on` the first of its block and `or`
    // the others, and the block's results are those of each of its regions.
    let lines: Vec<&str> = text.lines().skip(1).collect();
    let mut blocks = 0;
    let mut k = 0;
    while k < lines.len() {
        assert!(lines[k].starts_with("  on "), "{text}");
        blocks += 1;
        let mut on = Vec::new();
        loop {
            let l = &lines[k][5..];
            k += 1;
            match l.strip_suffix(':') {
                Some(last) => {
                    on.push(last);
                    break;
                }
                None => {
                    on.push(l);
                    assert!(lines[k].starts_with("  or "), "{text}");
                }
            }
        }
        let mut results = Vec::new();
        while k < lines.len() && lines[k].starts_with("    ") {
            results.push(lines[k].trim());
            k += 1;
        }
        for region in on {
            let r = regions
                .iter()
                .find(|r| {
                    let cs: Vec<&str> = r["constraints"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_str().unwrap())
                        .collect();
                    cs.join(" & ") == region
                })
                .unwrap_or_else(|| panic!("{region} is a region: {text}"));
            let want: Vec<String> = r["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    format!(
                        "{}  with probability {}",
                        e["expr"].as_str().unwrap(),
                        e["prob"].as_str().unwrap()
                    )
                })
                .collect();
            assert_eq!(results, want, "{region}");
        }
    }
    assert_eq!(blocks, 3, "{text}");
    assert_eq!(
        text.matches("\n  on ").count() + text.matches("\n  or ").count(),
        16
    );
}

/// `--explain` prints the runs step by step with who waited; `--trace` and `--gantt` draw
/// them; the JSON runs name their components and parties.
#[test]
fn witness_runs_explain_who_waited() {
    let model = common::example_in("etccs", "scatter.etccs");
    let base = ["etccs", "analyse", model.as_str(), "--const", "p=3"];
    let mut args = base.to_vec();
    args.extend(["--agent", "NonBlockingBus", "--explain"]);
    let out = stdout(&args);
    // min and max take the same time here, so one run is shown.
    assert!(
        out.contains("slowest run of NonBlockingBus (2102), step by step:")
            && !out.contains("fastest run"),
        "{out}"
    );
    // Node 1 is ready for the bus at 1100 but gets it at 2100 (Table 6-1's contention).
    assert!(
        out.contains("      2100  Node(1) get' (waited 1000) + Net(0) get\n"),
        "{out}"
    );
    let d = tempdir("etccs-witness");
    let (tr, svg) = (d.join("w.json"), d.join("w.svg"));
    let (trs, svgs) = (tr.display().to_string(), svg.display().to_string());
    let mut args = base.to_vec();
    args.extend(["--agent", "NonBlockingBus", "--format", "json"]);
    args.extend(["--trace", &trs, "--gantt", &svgs]);
    let v = json(&args);
    let run = &v["agents"][0]["max_run"];
    assert_eq!(
        run["lanes"],
        serde_json::json!(["Node0(1)", "Node(1)", "Node(2)", "Net(0)"])
    );
    assert_eq!(run["steps"][0]["parties"][0]["action"], "tau");
    let chrome: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tr).expect("trace written"))
            .expect("trace is JSON");
    let events = chrome["traceEvents"].as_array().expect("events");
    let waits: Vec<(f64, f64)> = events
        .iter()
        .filter(|e| e["name"] == "wait get'" && e["tid"] == 2)
        .map(|e| (e["ts"].as_f64().unwrap(), e["dur"].as_f64().unwrap()))
        .collect();
    assert_eq!(waits, [(1100.0, 1000.0)], "node 1 waits for the bus");
    let text = std::fs::read_to_string(&svg).expect("Gantt written");
    assert!(text.starts_with("<svg") && text.contains("NonBlockingBus: slowest run (2102)"));
    // Runs of one analysis only, and of a concrete agent.
    let mut args = vec!["etccs", "analyse", model.as_str(), "--const", "p=2..3"];
    args.push("--explain");
    assert!(fails(&args, 2).contains("give --const single values"));
    let mut args = base.to_vec();
    args.extend(["--explain", "--format", "thesis"]);
    assert!(fails(&args, 2).contains("not to the thesis tool's output"));
    // A cycle is explained too: the user is ready at once but waits for the CPU.
    let d2 = tempdir("etccs-witness-cycle");
    let cyc = d2.join("cyc.etccs");
    std::fs::write(
        &cyc,
        "define Cpu = (op,0).(tau,3).Cpu\ndefine User = (op',0).User\n\
         define Sys = (Cpu | User)\\{op}\nanalyse Sys\n",
    )
    .unwrap();
    let out = stdout(&["etccs", "analyse", &cyc.display().to_string(), "--explain"]);
    assert!(
        out.contains("cycle of Sys (3), step by step:\n         3  tau@3.Cpu tau\n         3  tau@3.Cpu op + User op' (waited 3)\n"),
        "{out}"
    );
    let param = common::example_in("etccs", "parametric.etccs");
    let err = fails(
        &[
            "etccs", "analyse", &param, "--agent", "Overlap", "--trace", &trs,
        ],
        2,
    );
    assert!(err.contains("terminating concrete agent"), "{err}");
}

/// An ETCCS model's times are in the unit its action delays were written in: the readable
/// report and the sweep table say so once, at the top; the thesis tool's output and JSON do
/// not.
#[test]
fn text_reports_say_times_are_in_the_models_unit() {
    let unit = "times in the model's time unit (the unit of its action delays)\n\n";
    let f = common::example_in("etccs", "scatter.etccs");
    let one = stdout(&[
        "etccs",
        "analyse",
        &f,
        "--agent",
        "NonBlockingBus",
        "--explain",
    ]);
    let table = stdout(&["etccs", "analyse", &f, "-D", "p=2..3"]);
    let parametric = stdout(&[
        "etccs",
        "analyse",
        &common::example_in("etccs", "parametric.etccs"),
    ]);
    for s in [one, table, parametric] {
        assert!(s.starts_with(unit), "{s}");
        assert_eq!(s.matches("time unit").count(), 1, "{s}");
    }
    for rest in [
        &["--format", "thesis"][..],
        &["-D", "p=2..3", "--format", "thesis"],
    ] {
        let s = stdout(&[&["etccs", "analyse", &f][..], rest].concat());
        assert!(!s.contains("time unit"), "{s}");
    }
}
