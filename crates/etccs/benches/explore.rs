//! Concrete-exploration throughput (states per second) on state-space-heavy agents.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use etccs::{analyse, parse, Options};

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

fn bench(c: &mut Criterion) {
    let cases = [("indep10", indep(10)), ("bus6", bus(6)), ("bus7", bus(7))];
    let mut g = c.benchmark_group("explore");
    g.sample_size(10);
    for (name, src) in &cases {
        let states = {
            let mut m = parse("bench.etccs", src).expect("parses");
            let agent = m.analyses[0].clone();
            analyse(&mut m, &agent, &Options::default())
                .expect("analyses")
                .states
        };
        eprintln!("{name}: {states} states");
        g.throughput(Throughput::Elements(states as u64));
        g.bench_function(*name, |b| {
            b.iter(|| {
                let mut m = parse("bench.etccs", src).expect("parses");
                let agent = m.analyses[0].clone();
                analyse(&mut m, &agent, &Options::default()).expect("analyses")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
