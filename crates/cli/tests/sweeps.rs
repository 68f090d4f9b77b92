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

/// Runs `vates args… --csv FILE` and reads the CSV it wrote.
fn sweep_csv(args: &[&str], name: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let dir = tempdir(&format!("sweeps-{name}"));
    let path = dir.join(name);
    let mut args = args.to_vec();
    let file = path.display().to_string();
    args.extend(["--csv", file.as_str()]);
    stdout(&args);
    read_csv(&path)
}

/// The first column's numbers.
fn first_column(rows: &[Vec<String>]) -> Vec<Option<f64>> {
    rows.iter().map(|r| num(&r[0])).collect()
}

#[test]
fn every_method_sweeps_with_dash_d_into_one_csv_format() {
    let mrm = example_in("pamela", "mrm.pam");
    let pamela = ["pamela", "sweep", &mrm, "-D", "P=1..4", "-D", "N=10"];
    let (h, rows) = sweep_csv(
        &[&pamela[..], &["-D", "tau_l=3", "-D", "tau_s=1"]].concat(),
        "p.csv",
    );
    assert_eq!(h[0], "P");
    assert_eq!(first_column(&rows), [1.0, 2.0, 3.0, 4.0].map(Some));
    let sim = h.iter().position(|c| c == "sim").unwrap();
    assert_eq!(num(&rows[3][sim]), Some(43.0));

    let psim = example_in("graphs", "psim.json");
    let (h, rows) = sweep_csv(&["graph", "sweep", &psim, "-D", "P=1..4"], "g.csv");
    assert_eq!(h[0], "procs");
    assert_eq!(first_column(&rows), [1.0, 2.0, 3.0, 4.0].map(Some));
    assert_eq!(num(&rows[2][1]), Some(7.0), "P = 3 makespan of psim");

    let sg = example_in("etccs", "scatter_gather.etccs");
    let etccs = ["etccs", "analyse", &sg, "--agent", "ScatterGatherBus"];
    let (h, rows) = sweep_csv(&[&etccs[..], &["-D", "p=2..3"]].concat(), "e.csv");
    assert_eq!(h, ["p", "agent", "states", "min", "max", "mean", "limit"]);
    assert_eq!(num(&rows[1][0]), Some(3.0));
    // The scatter-gather table at p = 3: min 1334336, max 1335336, mean 1335272.75.
    let fields: Vec<Option<f64>> = rows[1][2..6].iter().map(|f| num(f)).collect();
    assert_eq!(fields, [295.0, 1334336.0, 1335336.0, 1335272.75].map(Some));
    assert_eq!(rows[1][6], "");

    // `--const` and `--procs` stay as the old spellings of `-D`; `analyze` and `analyse`
    // are one word.
    let alias = [
        "etccs",
        "analyze",
        &sg,
        "--agent",
        "ScatterGatherBus",
        "--const",
        "p=2..3",
    ];
    assert_eq!(
        stdout(&alias),
        stdout(&[&etccs[..], &["-D", "p=2..3"]].concat())
    );
    let a = stdout(&["graph", "analyse", &psim, "-D", "P=3"]);
    assert_eq!(a, stdout(&["graph", "analyze", &psim, "--procs", "3"]));
}
