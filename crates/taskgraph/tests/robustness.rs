//! Hostile input: truncated, mutated and random JSON / DOT / STG / WfCommons text never
//! panics, and every error it gives has a message and an in-bounds location.

use proptest::prelude::*;
use taskgraph::dot::read_dot;
use taskgraph::stg::read_stg;
use taskgraph::wfcommons::read_wfcommons;
use taskgraph::{read_json, GraphError, TaskGraph};

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

type Reader = fn(&str) -> Result<TaskGraph, GraphError>;

const READERS: [(&str, Reader); 4] = [
    ("json", read_json),
    ("dot", read_dot),
    ("stg", read_stg),
    ("wfcommons", read_wfcommons),
];

/// Runs every reader on `text`; checks the error shape. Returns which readers accepted it.
fn run_all(text: &str) -> Vec<bool> {
    READERS
        .iter()
        .map(|(name, r)| match r(text) {
            Ok(g) => {
                // Whatever was accepted is a valid DAG with a topological order.
                assert_eq!(g.topo_order().len(), g.len(), "{name}");
                true
            }
            Err(e) => {
                assert!(!e.message.is_empty(), "{name}: empty message");
                if let Some(sp) = e.span() {
                    assert!(
                        sp.offset() + sp.len() <= text.len(),
                        "{name}: span out of bounds"
                    );
                }
                if let Some((l, c)) = e.line_col() {
                    assert!(l >= 1 && c >= 1, "{name}");
                }
                false
            }
        })
        .collect()
}

fn prefixes(text: &str) -> impl Iterator<Item = &str> {
    (0..text.len())
        .filter(|&i| text.is_char_boundary(i))
        .map(move |i| &text[..i])
}

#[test]
fn truncated_json_is_always_an_error() {
    let text = data("issue-example.json");
    assert!(read_json(&text).is_ok());
    for p in prefixes(text.trim_end()) {
        run_all(p);
        assert!(read_json(p).is_err(), "accepted prefix {p:?}");
    }
}

#[test]
fn truncated_dot_is_always_an_error() {
    let text = data("polyroots-like.dot");
    let g = read_dot(&text).unwrap();
    assert_eq!(g.len(), 7);
    assert_eq!(g.span(), 2.0 + 4.0 + 1.0 + 1.0);
    // Up to the closing brace every prefix is incomplete.
    let close = text.rfind('}').unwrap();
    for p in prefixes(&text[..=close]) {
        run_all(p);
        assert!(read_dot(p).is_err(), "accepted prefix {p:?}");
    }
}

#[test]
fn truncated_stg_never_panics() {
    let text = data("example.stg");
    assert_eq!(read_stg(&text).unwrap().len(), 12);
    let mut accepted = 0;
    for p in prefixes(&text) {
        run_all(p);
        accepted += usize::from(read_stg(p).is_ok());
    }
    // Only prefixes that keep all 12 records (cut inside the `#` part, or right after the
    // last record's final number) are complete.
    let records_end = text.find('#').unwrap();
    let info_len = text.len() - records_end;
    assert_eq!(accepted, info_len + 1 + 1);
}

#[test]
fn truncated_wfcommons_never_panics() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/wfcommons/epigenomics-chameleon-hep-1seq-100k-001.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    // Every 97th prefix keeps the test fast; all must fail (the JSON is incomplete).
    for (k, p) in prefixes(&text).enumerate() {
        if k % 97 == 0 {
            assert!(read_wfcommons(p).is_err());
        }
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let deep_json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(read_json(&deep_json).is_err());
    assert!(read_wfcommons(&deep_json).is_err());
    let deep_dot = format!("digraph {{ {} }}", "subgraph { ".repeat(10_000));
    assert!(read_dot(&deep_dot).is_err());
}

fn mutate(text: &str, edits: &[(usize, u8)]) -> String {
    let mut b = text.as_bytes().to_vec();
    for &(pos, byte) in edits {
        if !b.is_empty() {
            let i = pos % b.len();
            b[i] = byte;
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

const ALPHABET: &[u8] = b"{}[]\":,;=-> \n#0123456789.eE-+abcxyz\\/*<>";

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let s = String::from_utf8_lossy(&bytes).into_owned();
        run_all(&s);
    }

    #[test]
    fn random_token_soup_never_panics(idx in proptest::collection::vec(0..ALPHABET.len(), 0..200)) {
        let s: String = idx.iter().map(|&i| ALPHABET[i] as char).collect();
        run_all(&s);
        let d = format!("digraph {{ {s} }}");
        run_all(&d);
    }

    #[test]
    fn mutated_inputs_never_panic(
        edits in proptest::collection::vec((any::<usize>(), proptest::sample::select(ALPHABET.to_vec())), 1..4),
        which in 0usize..3,
    ) {
        let file = ["issue-example.json", "polyroots-like.dot", "example.stg"][which];
        let s = mutate(&data(file), &edits);
        run_all(&s);
    }
}
