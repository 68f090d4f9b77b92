//! DAG files: what the recorder writes reads back the same, and every corrupt, truncated or
//! foreign file is a clear error (acceptance item 6), never a panic.

use sweep::{Limit, Reached};
use taskpar::dag::{self, DagError, Limits};

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = taskrec::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// A small recording kept in full (every strand a node).
fn sample() -> (taskrec::Dag, Vec<u8>) {
    let ((), dag) = taskrec::record_with(taskrec::Options { collapse: false }, || {
        taskrec::scope(|s| {
            for k in 3..7 {
                s.spawn(move |_| {
                    fib(k);
                });
            }
        });
    });
    let meta = taskrec::Meta {
        program: "fib \"quoted\"".into(),
        parameters: vec![("n".into(), 13.0)],
        collapse: true,
    };
    let bytes = taskrec::encode(&dag, &meta);
    (dag, bytes)
}

#[test]
fn a_recording_reads_back_as_written() {
    let (dag, bytes) = sample();
    let rec = dag::read(&bytes, &Limits::default()).expect("reads");
    let dag::Body::Tree(root) = &rec.body else {
        panic!("a vates DAG file holds a tree")
    };
    assert_eq!(*root, dag.root);
    assert_eq!(rec.header.program, "fib \"quoted\"");
    assert_eq!(rec.header.parameters["n"], Some(13.0));
    assert_eq!(rec.header.workers, dag.workers);
    assert_eq!(rec.header.clock.frequency_hz, dag.clock_hz);
    assert_eq!(rec.header.elapsed, dag.elapsed);
    assert!(dag::is_dag_file(&bytes));
    // fib(3..7) join 2 + 4 + 7 + 12 times, and the scope spawns 4 tasks.
    assert_eq!(rec.graph().counts().creates, 25 + 4);
    assert!(rec.nodes > 40, "{} nodes", rec.nodes);
}

#[test]
fn every_truncation_is_an_error_that_says_so() {
    let (_, bytes) = sample();
    for len in 0..bytes.len() {
        let e = dag::read(&bytes[..len], &Limits::default()).expect_err("truncated");
        match e {
            DagError::NotDag | DagError::Truncated { .. } => {}
            DagError::Header { .. } if len < 20 + 200 => {}
            other => panic!("at {len} bytes: {other}"),
        }
    }
}

#[test]
fn corrupt_bytes_are_errors_never_panics() {
    let (_, bytes) = sample();
    // Every single byte changed in turn (past the magic): an error or a valid other DAG.
    for at in 8..bytes.len() {
        for delta in [1u8, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[at] = b[at].wrapping_add(delta);
            let _ = dag::read(&b, &Limits::default());
        }
    }
}

#[test]
fn foreign_files_and_versions_are_named() {
    let (_, bytes) = sample();
    assert_eq!(
        dag::read(b"{\"tasks\": []}", &Limits::default()).unwrap_err(),
        DagError::NotDag
    );
    let mut v3 = bytes.clone();
    v3[8] = 3;
    let e = dag::read(&v3, &Limits::default()).unwrap_err();
    assert_eq!(
        e,
        DagError::Version {
            found: 3,
            supported: dag::VERSION
        }
    );
    assert!(e.to_string().contains("version 3"), "{e}");
    let mut junk = bytes.clone();
    junk.push(0);
    let e = dag::read(&junk, &Limits::default()).unwrap_err();
    assert!(
        e.to_string().contains("1 bytes after the end marker"),
        "{e}"
    );
}

#[test]
fn a_header_that_is_not_json_is_named() {
    let mut b = b"VATESDAG".to_vec();
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&5u32.to_le_bytes());
    b.extend_from_slice(b"{oops");
    let e = dag::read(&b, &Limits::default()).unwrap_err();
    assert!(matches!(e, DagError::Header { offset: 16, .. }), "{e}");
}

fn header() -> Vec<u8> {
    let h = br#"{"format":"vates-taskdag","version":1,"workers":2,"clock":{"unit":"ns","frequency_hz":1e9}}"#;
    let mut b = b"VATESDAG".to_vec();
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&(h.len() as u32).to_le_bytes());
    b.extend_from_slice(h);
    b
}

#[test]
fn deep_nesting_and_huge_counts_stop_at_the_limits() {
    // 100,000 nested sections: refused at the depth limit, without recursing that deep.
    let mut b = header();
    b.extend_from_slice(&[taskrec::TAG_TASK]);
    b.extend_from_slice(&1u32.to_le_bytes());
    for _ in 0..100_000 {
        b.push(taskrec::TAG_SECTION);
        b.extend_from_slice(&0u64.to_le_bytes());
        b.extend_from_slice(&1u32.to_le_bytes());
    }
    let e = dag::read(&b, &Limits::default()).unwrap_err();
    assert!(
        matches!(
            e,
            DagError::TooDeep {
                reached: Reached {
                    limit: Limit::Depth,
                    value: 10_000
                },
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("deeper than 10000 levels"), "{e}");
    // A task claiming 4 billion items in a short file: truncated, no huge allocation.
    let mut b = header();
    b.push(taskrec::TAG_TASK);
    b.extend_from_slice(&u32::MAX.to_le_bytes());
    let e = dag::read(&b, &Limits::default()).unwrap_err();
    assert!(matches!(e, DagError::Truncated { .. }), "{e}");
    // Node count over a small limit.
    let (_, bytes) = sample();
    let small = Limits {
        max_nodes: 0,
        max_depth: 100,
        ..Limits::default()
    };
    let e = dag::read(&bytes, &small).unwrap_err();
    assert_eq!(
        e,
        DagError::TooLarge {
            reached: Reached::new(Limit::Nodes, 0)
        }
    );
    assert_eq!(e.to_string(), "the DAG file holds more than 0 nodes");
}

/// fib(8) recorded on one worker, after `edit`.
fn edited(edit: impl FnOnce(&mut taskrec::Dag)) -> Vec<u8> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (_, mut dag) = pool.install(|| taskrec::record(|| fib(8)));
    edit(&mut dag);
    taskrec::encode(&dag, &taskrec::Meta::default())
}

#[test]
fn the_header_and_the_nodes_workers_are_checked() {
    let limits = Limits::default();
    let e = dag::read(&edited(|d| d.workers = 100_000), &limits).unwrap_err();
    assert_eq!(
        e,
        DagError::TooManyWorkers {
            workers: 100_000,
            reached: Reached::new(Limit::Workers, 1024)
        }
    );
    assert_eq!(
        e.to_string(),
        "the DAG file's header names 100000 workers; the limit is 1024"
    );
    let e = dag::read(
        &edited(|d| {
            d.workers = 1;
            match &mut d.root {
                taskrec::tree::Child::Collapsed(a) => a.worker = 3,
                taskrec::tree::Child::Task(t) => {
                    for it in &mut t.items {
                        if let taskrec::tree::Item::Strand(s) = it {
                            s.worker = 3;
                        }
                    }
                }
                _ => panic!("a finished recording has no pending node"),
            }
        }),
        &limits,
    )
    .unwrap_err();
    assert!(
        matches!(e, DagError::Worker { worker: 3, workers: 1, offset } if offset > 16),
        "{e:?}"
    );
    // A node outside the pool (the main thread) is allowed.
    let ok = edited(|d| match &mut d.root {
        taskrec::tree::Child::Collapsed(a) => a.worker = dag::OUTSIDE_POOL,
        taskrec::tree::Child::Task(t) => {
            for it in &mut t.items {
                if let taskrec::tree::Item::Strand(s) = it {
                    s.worker = dag::OUTSIDE_POOL;
                }
            }
        }
        _ => panic!("a finished recording has no pending node"),
    });
    assert!(dag::read(&ok, &limits).is_ok());
    for hz in [0.0, -5.0] {
        let e = dag::read(&edited(|d| d.clock_hz = hz), &limits).unwrap_err();
        assert!(
            matches!(&e, DagError::Header { message, .. } if message.contains("frequency_hz")),
            "{e:?}"
        );
    }
}

#[test]
fn sniff_and_load_tell_dag_files_from_others() {
    let limits = Limits::default();
    assert!(dag::sniff(b"{\"tasks\": []}", &limits).is_none());
    let bytes = edited(|_| {});
    assert!(matches!(dag::sniff(&bytes, &limits), Some(Ok(_))));
    let dir = std::env::temp_dir().join(format!("taskpar-dag-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("run.dag");
    std::fs::write(&f, &bytes).unwrap();
    assert_eq!(dag::load(&f, &limits).unwrap().header.workers, 1);
    let small = Limits {
        max_bytes: 100,
        ..Limits::default()
    };
    let e = dag::load(&f, &small).unwrap_err();
    assert!(
        matches!(
            e,
            dag::LoadError::TooBig {
                reached: Reached {
                    limit: Limit::InputBytes,
                    value: 100
                },
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string()
            .ends_with("is larger than 100 bytes, the limit for a DAG file"),
        "{e}"
    );
    #[cfg(unix)]
    assert!(matches!(
        dag::load(std::path::Path::new("/dev/zero"), &limits),
        Err(dag::LoadError::Dag {
            error: DagError::NotDag,
            ..
        })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// docs/dag-file.md is the format other recorders write to: its version, magic, trailer,
/// tags and end kinds are the recorder's.
#[test]
fn the_format_page_matches_the_recorder() {
    use taskrec::file::{
        FORMAT_VERSION, MAGIC, TAG_COLLAPSED, TAG_CREATE, TAG_SECTION, TAG_STRAND, TAG_TASK,
        TRAILER,
    };
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/dag-file.md"),
    )
    .expect("docs/dag-file.md");
    // The page describes the newest layout the reader reads; taskrec writes version 1.
    assert_eq!(FORMAT_VERSION, 1);
    assert!(page.starts_with(&format!("# The vates DAG file, version {}\n", dag::VERSION)));
    assert!(page.contains(&format!(
        "the layout version, u32: `1` or `{}`",
        dag::VERSION
    )));
    assert!(page.contains("| 8 × 2 per dependence |"));
    assert!(page.contains(&format!("the magic `{}`", String::from_utf8_lossy(MAGIC))));
    assert!(page.contains(&format!(
        "the trailer `{}`",
        String::from_utf8_lossy(TRAILER)
    )));
    for (tag, name) in [
        (TAG_STRAND, "STRAND"),
        (TAG_CREATE, "CREATE"),
        (TAG_COLLAPSED, "COLLAPSED"),
        (TAG_TASK, "TASK"),
        (TAG_SECTION, "SECTION"),
    ] {
        assert!(
            page.contains(&format!("| {tag} | `{name}` |")),
            "tag {tag} {name}"
        );
    }
    for (k, kind) in [
        (0, taskrec::tree::EndKind::Create),
        (1, taskrec::tree::EndKind::Wait),
        (2, taskrec::tree::EndKind::End),
        (3, taskrec::tree::EndKind::Other),
    ] {
        assert_eq!(taskrec::tree::EndKind::from_byte(k), Some(kind));
    }
    assert_eq!(taskrec::tree::EndKind::from_byte(4), None);
    for phrase in [
        "0 created a task, 1 waited",
        "2 ended its task, 3 any other call into the runtime",
    ] {
        assert!(page.contains(phrase), "end kinds: {phrase}");
    }
    // The header's example parses as a header.
    let example = page
        .split("```json\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the header example");
    let h: dag::Header = serde_json::from_str(example).expect("the example is a header");
    assert_eq!(
        (h.format.as_str(), h.version, h.workers),
        ("vates-taskdag", FORMAT_VERSION, 2)
    );
}
