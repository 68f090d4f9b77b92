//! Concrete throughput (states per second) on state-space-heavy agents:
//! `explore/*` builds the state graph only ([`etccs::state_space`]),
//! `analyse/*` runs the whole concrete analysis ([`etccs::analyse`]: the
//! exploration, then the cycle check, the EXEC/PEXEC fold and the witnesses).
#![allow(missing_docs)]

/// The allocator of the `vates` binary, so that the figures are the CLI's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use etccs::parse::parse_with_consts;
use etccs::{analyse, state_space, Analysis, Model, Options, StateSpace, Time};

/// `n` independent components, all enabled at time 1: 2^n-ish states.
fn indep(n: usize) -> String {
    let parts: Vec<String> = (0..n).map(|_| "(tau,1).(tau,1).nil".to_string()).collect();
    let names: Vec<String> = (0..n)
        .flat_map(|k| [format!("a{k}"), format!("b{k}")])
        .collect();
    format!(
        "define Indep = ({})\\{{{}}}\nanalyse Indep",
        parts.join(" | "),
        names.join(",")
    )
}

/// Bus contention: `p` senders each send one message (get the bus, hold it
/// for the transfer, release), then compute; the bus serves one at a time.
fn bus(p: usize) -> String {
    let mut s = String::from("define Bus = (get,0).(release,0).Bus\n");
    let mut comps = vec!["Bus".to_string()];
    for i in 0..p {
        s.push_str(&format!(
            "define S{i} = (get',0).(tau,2).(release',0).(tau,{}).(get',0).(tau,1).(release',0).nil\n",
            i + 1
        ));
        comps.push(format!("S{i}"));
    }
    s.push_str(&format!(
        "define Sys = ({})\\{{get,release}}\nanalyse Sys\n",
        comps.join(" | ")
    ));
    s
}

/// A benchmark case: a model source, its `const` overrides and the agent.
struct Case {
    name: &'static str,
    src: String,
    p: Option<i64>,
    agent: Option<&'static str>,
}

impl Case {
    fn model(&self) -> Model {
        let consts: Vec<(&str, Time)> = self
            .p
            .map(|p| ("p", Time::from_integer(p.into())))
            .into_iter()
            .collect();
        parse_with_consts("bench.etccs", &self.src, &consts).expect("parses")
    }

    /// The agent analysed.
    fn agent(&self, m: &Model) -> String {
        match self.agent {
            Some(a) => a.to_string(),
            None => m.analyses[0].clone(),
        }
    }

    /// Parses and explores; returns the state count.
    fn run(&self) -> usize {
        let m = self.model();
        let agent = self.agent(&m);
        Self::explore(m, &agent).1.states
    }

    /// Explores a freshly parsed model; returns the model and the graph's
    /// size, which the benchmark drops outside the timed part (as it parses
    /// outside it).
    fn explore(mut m: Model, agent: &str) -> (Model, StateSpace) {
        let s = state_space(&mut m, agent, &Options::default()).expect("explores");
        (m, s)
    }

    /// Analyses a freshly parsed model; returns the model and the result.
    fn analyse(mut m: Model, agent: &str) -> (Model, Analysis) {
        let a = analyse(&mut m, agent, &Options::default()).expect("analyses");
        (m, a)
    }
}

fn example(file: &str) -> String {
    let path = format!("{}/../../examples/etccs/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bench(c: &mut Criterion) {
    let generated = |name, src| Case {
        name,
        src,
        p: None,
        agent: None,
    };
    let scatter = example("scatter.etccs");
    let scatter_gather = example("scatter_gather.etccs");
    let cases = [
        generated("indep10", indep(10)),
        generated("bus6", bus(6)),
        generated("bus7", bus(7)),
        // Thesis §6.3.1: the non-blocking scatter on the bus.
        Case {
            name: "scatter_nonblocking_bus_p7",
            src: scatter.clone(),
            p: Some(7),
            agent: Some("NonBlockingBus"),
        },
        Case {
            name: "scatter_nonblocking_bus_p8",
            src: scatter.clone(),
            p: Some(8),
            agent: Some("NonBlockingBus"),
        },
        Case {
            name: "scatter_repeated_bus_p8",
            src: scatter,
            p: Some(8),
            agent: Some("RepeatedBus"),
        },
        Case {
            name: "scatter_gather_bus_p5",
            src: scatter_gather,
            p: Some(5),
            agent: Some("ScatterGatherBus"),
        },
    ];
    let states: Vec<usize> = cases.iter().map(Case::run).collect();
    for (case, n) in cases.iter().zip(&states) {
        eprintln!("{}: {n} states", case.name);
    }
    for (group, analyse) in [("explore", false), ("analyse", true)] {
        let mut g = c.benchmark_group(group);
        g.sample_size(20);
        for (case, &n) in cases.iter().zip(&states) {
            g.throughput(Throughput::Elements(n as u64));
            // Each iteration gets a freshly parsed model.
            g.bench_function(case.name, |b| {
                b.iter_batched(
                    || {
                        let m = case.model();
                        let agent = case.agent(&m);
                        (m, agent)
                    },
                    // The model and the result are dropped untimed.
                    |(m, agent)| {
                        if analyse {
                            let (m, a) = Case::analyse(m, &agent);
                            (m, Some(a))
                        } else {
                            (Case::explore(m, &agent).0, None)
                        }
                    },
                    BatchSize::LargeInput,
                )
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
