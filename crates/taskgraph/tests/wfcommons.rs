//! The three real WfCommons instances in `tests/data/wfcommons/` (byte-exact copies of the
//! published files; see the README there): task and edge counts, level widths, work and
//! critical path, each checked against an independent computation written here.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;
use taskgraph::wfcommons::read_wfcommons;

fn load(name: &str) -> String {
    let p = format!("{}/tests/data/wfcommons/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// Runtimes, edges, span and level widths.
type Independent = (Vec<f64>, BTreeSet<(usize, usize)>, f64, Vec<usize>);

/// Independent reading: (runtimes, edges) straight from the JSON, and the longest path by
/// repeated relaxation (no topological order needed).
fn independent(text: &str) -> Independent {
    let v: Value = serde_json::from_str(text).unwrap();
    let w = &v["workflow"];
    let (tasks, rt): (Vec<Value>, Vec<f64>) =
        if let Some(t) = w["specification"]["tasks"].as_array() {
            let ex: HashMap<String, f64> = w["execution"]["tasks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    (
                        e["id"].as_str().unwrap().to_string(),
                        e["runtimeInSeconds"].as_f64().unwrap(),
                    )
                })
                .collect();
            let rt = t.iter().map(|x| ex[x["id"].as_str().unwrap()]).collect();
            (t.clone(), rt)
        } else {
            let t = w["tasks"].as_array().unwrap().clone();
            let rt = t
                .iter()
                .map(|x| x["runtimeInSeconds"].as_f64().unwrap())
                .collect();
            (t, rt)
        };
    let mut key: HashMap<String, usize> = HashMap::new();
    for (i, t) in tasks.iter().enumerate() {
        key.insert(t["name"].as_str().unwrap().to_string(), i);
    }
    for (i, t) in tasks.iter().enumerate() {
        key.insert(t["id"].as_str().unwrap().to_string(), i);
    }
    let mut edges = BTreeSet::new();
    for (i, t) in tasks.iter().enumerate() {
        for p in t["parents"].as_array().into_iter().flatten() {
            edges.insert((key[p.as_str().unwrap()], i));
        }
        for c in t["children"].as_array().into_iter().flatten() {
            edges.insert((i, key[c.as_str().unwrap()]));
        }
    }
    let n = tasks.len();
    let mut fin = rt.clone();
    let mut lev = vec![0usize; n];
    for _ in 0..n {
        for &(a, b) in &edges {
            fin[b] = fin[b].max(fin[a] + rt[b]);
            lev[b] = lev[b].max(lev[a] + 1);
        }
    }
    let span = fin.iter().cloned().fold(0.0, f64::max);
    let mut widths = vec![0usize; lev.iter().max().unwrap() + 1];
    for l in lev {
        widths[l] += 1;
    }
    (rt, edges, span, widths)
}

fn check(file: &str, tasks: usize, edges: usize, span: f64, work: f64, widths: &[usize]) {
    let text = load(file);
    let g = read_wfcommons(&text).unwrap();
    let (rt, e, ispan, iwidths) = independent(&text);
    assert_eq!(g.len(), tasks);
    assert_eq!(g.len(), rt.len());
    assert_eq!(g.edge_count(), edges);
    assert_eq!(e.len(), edges);
    let mine: BTreeSet<(usize, usize)> = (0..g.len() as u32)
        .flat_map(|i| g.preds(i).iter().map(move |&p| (p as usize, i as usize)))
        .collect();
    assert_eq!(mine, e);
    assert_eq!(g.times(), rt.as_slice());
    assert_eq!(g.span(), ispan);
    assert_eq!(g.span(), span);
    assert!((g.work() - work).abs() < 1e-9, "{}", g.work());
    assert_eq!(g.level_widths(), iwidths);
    assert_eq!(g.level_widths(), widths);
    // The critical path is a chain whose times add up to the span.
    let cp = g.critical_path();
    assert_eq!(cp.length, span);
    assert!(cp.tasks.windows(2).all(|w| g.preds(w[1]).contains(&w[0])));
    assert!(g.preds(cp.tasks[0]).is_empty());
    let sum: f64 = cp.tasks.iter().map(|&t| g.time(t)).sum();
    assert!((sum - span).abs() < 1e-9);
}

#[test]
fn blast_chameleon_small_001() {
    check(
        "blast-chameleon-small-001.json",
        43,
        120,
        10.413171,
        382.91272,
        &[1, 40, 2],
    );
    let g = read_wfcommons(&load("blast-chameleon-small-001.json")).unwrap();
    assert_eq!(g.id(0), "split_fasta_ID000001");
    assert_eq!(g.max_level_width(), 40);
}

#[test]
fn epigenomics_chameleon_hep_1seq_100k_001() {
    check(
        "epigenomics-chameleon-hep-1seq-100k-001.json",
        41,
        48,
        104.822,
        539.307,
        &[1, 9, 9, 9, 9, 1, 1, 1, 1],
    );
    let g = read_wfcommons(&load("epigenomics-chameleon-hep-1seq-100k-001.json")).unwrap();
    // Pegasus 1.4: ids are task names, the WfCommons id is kept as `wf_id`.
    assert_eq!(g.id(0), "chr21_chr21_ID0000001");
    assert_eq!(g.attrs(0).extra["wf_id"], Value::from("ID0000001"));
}

#[test]
fn atacseq_dirt02_001() {
    check(
        "atacseq-dirt02-001.json",
        265,
        593,
        936.159,
        7799.574,
        &[
            22, 11, 8, 14, 30, 6, 24, 13, 25, 11, 18, 32, 19, 11, 11, 8, 2,
        ],
    );
    let g = read_wfcommons(&load("atacseq-dirt02-001.json")).unwrap();
    // Names are not unique here, so the unique WfCommons ids are kept.
    assert_eq!(
        g.id(0),
        "NFCORE_ATACSEQ.ATACSEQ.INPUT_CHECK.SAMPLESHEET_CHECK_4"
    );
    assert_eq!(
        g.attrs(0).extra["name"],
        Value::from("NFCORE_ATACSEQ.ATACSEQ.INPUT_CHECK.SAMPLESHEET_CHECK")
    );
    assert_eq!(g.times().iter().filter(|&&t| t == 0.0).count(), 56);
    let isolated = (0..g.len() as u32)
        .filter(|&i| g.preds(i).is_empty() && g.succs(i).is_empty())
        .count();
    assert_eq!(isolated, 2);
    // Converting to JSON and back keeps everything.
    let j = taskgraph::read_json(&taskgraph::write_json(&g)).unwrap();
    assert_eq!(j, g);
}

#[test]
fn format_detection_finds_wfcommons() {
    use std::path::Path;
    use taskgraph::Format;
    for f in [
        "blast-chameleon-small-001.json",
        "epigenomics-chameleon-hep-1seq-100k-001.json",
        "atacseq-dirt02-001.json",
    ] {
        let text = load(f);
        assert_eq!(
            Format::detect(Path::new(f), &text),
            Some(Format::WfCommons),
            "{f}"
        );
        let g = taskgraph::format::read(&text, f, Format::WfCommons, &Default::default()).unwrap();
        assert_eq!(g, read_wfcommons(&text).unwrap());
    }
}
