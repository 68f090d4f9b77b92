//! Analyses a generated layered DAG of 10^6 tasks (about 4·10^6 edges) on 64 processes with
//! the FIFO policy, with the basic model and with an MVA bus model, printing the times. Run
//! under `/usr/bin/time -v` to see the peak memory.
//!
//! ```text
//! cargo run --release -p taskgraph --example large_graph -- [tasks] [procs]
//! ```

use std::time::Instant;
use taskgraph::analysis::policy::PolicyKind;
use taskgraph::analysis::system::{MvaModel, NoOverhead, SystemSpec};
use taskgraph::analysis::UniformRate;
use taskgraph::gen::{layered, GenOptions, TimeDist};

/// A bus (queueing) and a memory (delay) center.
const BUS: &str = "
[[center]]
name = \"bus\"
kind = \"queueing\"
service = 0.003
[[center]]
name = \"memory\"
kind = \"delay\"
service = 0.005
";

fn main() {
    let mut args = std::env::args().skip(1);
    let tasks: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let procs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let t0 = Instant::now();
    let opts = GenOptions {
        tasks,
        width: 1000,
        degree: 4.0,
        time: TimeDist::Uniform(1.0, 10.0),
        seed: 1,
        ..GenOptions::default()
    };
    let g = layered(&opts).expect("generates");
    println!(
        "generated {} tasks, {} edges in {:.3} s",
        g.len(),
        g.edge_count(),
        t0.elapsed().as_secs_f64()
    );
    let t1 = Instant::now();
    let mut pol = PolicyKind::Fifo.build();
    let s = taskgraph::analysis::engine::analyze(
        &g,
        procs,
        pol.as_mut(),
        &mut NoOverhead,
        &Default::default(),
    )
    .expect("analyses");
    println!(
        "basic model, fifo, P={procs}: makespan {:.1} (work/P {:.1}, span {:.1}) in {:.3} s",
        s.makespan,
        g.work() / procs as f64,
        g.span(),
        t1.elapsed().as_secs_f64()
    );
    let t2 = Instant::now();
    let mut mva = MvaModel::new(SystemSpec::parse(BUS).expect("valid"));
    let mut pol = PolicyKind::Fifo.build();
    let s = taskgraph::analysis::engine::analyze(
        &UniformRate {
            graph: &g,
            rate: 20.0,
        },
        procs,
        pol.as_mut(),
        &mut mva,
        &Default::default(),
    )
    .expect("analyses");
    println!(
        "MVA bus model, fifo, P={procs}: makespan {:.1}, {} network solves, in {:.3} s",
        s.makespan,
        mva.solves,
        t2.elapsed().as_secs_f64()
    );
}
