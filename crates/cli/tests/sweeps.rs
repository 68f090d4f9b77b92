//! One way to say "sweep" for every method (`-D NAME=RANGE`), and one CSV format for every
//! sweep (issue 17, items 1 and 2).

mod common;

use common::{example_in, stdout, tempdir};

/// The CSV at `path`: its header and rows, after checking the one format: LF line ends, no
/// CR, every row as wide as the header.
fn read_csv(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).expect("CSV written");
    assert!(!text.contains('\r'), "lines end in LF: {text:?}");
    assert!(text.ends_with('\n'));
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect::<Vec<_>>())
        .collect();
    for r in &rows {
        assert_eq!(r.len(), header.len(), "{r:?} against {header:?}");
    }
    (header, rows)
}

/// A numeric field: shortest round-trip text, or empty when not computed.
fn num(field: &str) -> Option<f64> {
    (!field.is_empty()).then(|| {
        field
            .parse()
            .unwrap_or_else(|_| panic!("not a number: {field}"))
    })
}

#[test]
fn every_method_sweeps_with_dash_d_into_one_csv_format() {
    let dir = tempdir("sweeps");
    let pam = dir.join("pamela.csv");
    stdout(&[
        "pamela",
        "sweep",
        &example_in("pamela", "mrm.pam"),
        "-D",
        "P=1..4",
        "-D",
        "N=10",
        "-D",
        "tau_l=3",
        "-D",
        "tau_s=1",
        "--csv",
        pam.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&pam);
    assert_eq!(h[0], "P");
    assert_eq!(
        rows.iter().map(|r| num(&r[0])).collect::<Vec<_>>(),
        [1.0, 2.0, 3.0, 4.0].map(Some)
    );
    let sim = h.iter().position(|c| c == "sim").unwrap();
    assert_eq!(num(&rows[3][sim]), Some(43.0));

    let graph = dir.join("graph.csv");
    stdout(&[
        "graph",
        "sweep",
        &example_in("graphs", "psim.json"),
        "-D",
        "P=1..4",
        "--csv",
        graph.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&graph);
    assert_eq!(h[0], "procs");
    assert_eq!(
        rows.iter().map(|r| num(&r[0])).collect::<Vec<_>>(),
        [1.0, 2.0, 3.0, 4.0].map(Some)
    );
    assert_eq!(num(&rows[2][1]), Some(7.0), "P = 3 makespan of psim");

    let etccs = dir.join("etccs.csv");
    stdout(&[
        "etccs",
        "analyse",
        &example_in("etccs", "scatter_gather.etccs"),
        "--agent",
        "ScatterGatherBus",
        "-D",
        "p=2..3",
        "--csv",
        etccs.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&etccs);
    assert_eq!(h, ["p", "agent", "states", "min", "max", "mean", "limit"]);
    assert_eq!(num(&rows[1][0]), Some(3.0));
    // Table 6-x at p = 3: min 1334336, max 1335336, mean 1335272.75.
    assert_eq!(
        rows[1][2..6].iter().map(|f| num(f)).collect::<Vec<_>>(),
        [295.0, 1334336.0, 1335336.0, 1335272.75].map(Some)
    );
    assert_eq!(rows[1][6], "");
    // `--const` and `--procs` stay as the old spellings of `-D`; `analyze` and `analyse`
    // are one word.
    let a = stdout(&[
        "etccs",
        "analyze",
        &example_in("etccs", "scatter_gather.etccs"),
        "--agent",
        "ScatterGatherBus",
        "--const",
        "p=2..3",
    ]);
    let b = stdout(&[
        "etccs",
        "analyse",
        &example_in("etccs", "scatter_gather.etccs"),
        "--agent",
        "ScatterGatherBus",
        "-D",
        "p=2..3",
    ]);
    assert_eq!(a, b);
    let a = stdout(&[
        "graph",
        "analyse",
        &example_in("graphs", "psim.json"),
        "-D",
        "P=3",
    ]);
    let b = stdout(&[
        "graph",
        "analyze",
        &example_in("graphs", "psim.json"),
        "--procs",
        "3",
    ]);
    assert_eq!(a, b);
}
