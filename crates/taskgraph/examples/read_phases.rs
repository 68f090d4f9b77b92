//! Times the phases of reading a task-graph JSON file (a profiling aid).
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).expect("path");
    let t0 = Instant::now();
    let text = std::fs::read_to_string(&path).unwrap();
    let t1 = Instant::now();
    let g = taskgraph::json::read_json_with(&text, &path, &Default::default()).unwrap();
    let t2 = Instant::now();
    let mut pol = taskgraph::analysis::policy::PolicyKind::Fifo.build();
    let s = taskgraph::analysis::engine::analyze(
        &g,
        64,
        pol.as_mut(),
        &mut taskgraph::analysis::system::NoOverhead,
        &Default::default(),
    )
    .unwrap();
    let t3 = Instant::now();
    let cp = g.critical_path();
    let t4 = Instant::now();
    println!(
        "read {:?} parse+build {:?} analyze {:?} cp {:?}; {} {}",
        t1 - t0,
        t2 - t1,
        t3 - t2,
        t4 - t3,
        s.makespan,
        cp.length
    );
}
#[allow(dead_code)]
fn ignored(text: &str) -> std::time::Duration {
    let t = Instant::now();
    let _: serde::de::IgnoredAny = serde_json::from_str(text).unwrap();
    t.elapsed()
}
