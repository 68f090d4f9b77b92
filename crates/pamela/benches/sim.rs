//! Criterion benchmarks of the discrete-event simulator (`cargo bench -p pamela --bench sim`).
//!
//! - `mrm/P=1000,N=1000`: the Machine Repair Model, 2·10^6 `use`/`delay` events, 1000
//!   concurrently active clients (target: under 0.5 s).
//! - `mrm/P=10,N=100000`: the same number of events from 10 long-lived clients.
//! - `network/table1_row8`: the Table 1 `(0,1)^3 || (0,2)^3` transfer (100 008 events,
//!   100 015 threads live at once, resource families).
//!
//! Models are built directly as the checked IR so that the benchmark measures the simulator
//! only (lowering included).

use criterion::Criterion;
use expr::{Expr, Name};
use pamela::model::{Binding, Compose, Loop, Model, Process, Resource, SourceFile, Term, TermKind};
use pamela::sim::{simulate, SimOptions};
use std::hint::black_box;

fn term(kind: TermKind) -> Term {
    Term {
        kind,
        span: (0..0).into(),
    }
}

fn lp(kind: Compose, var: &str, lo: Expr, hi: Expr, body: Term) -> Term {
    term(TermKind::Loop(Loop {
        kind,
        var: Name::from(var),
        lo,
        hi,
        body: Box::new(body),
    }))
}

fn use_(res: usize, index: Option<i64>, time: Expr) -> Term {
    term(TermKind::Use {
        res,
        index: index.map(Expr::int),
        time,
    })
}

fn resource(name: &str, family: Option<i64>) -> Resource {
    Resource {
        name: Name::from(name),
        multiplicity: Some(Expr::int(1)),
        family: family.map(Expr::int),
        span: (0..0).into(),
    }
}

fn model(resources: Vec<Resource>, body: Term) -> Model {
    Model {
        source: SourceFile {
            name: "bench".into(),
            text: "".into(),
        },
        params: vec![],
        resources,
        processes: vec![Process {
            name: Name::from("main"),
            args: vec![],
            body,
            span: (0..0).into(),
        }],
    }
}

/// `par p in 1..=P { seq i in 1..=N { delay(3); use(s, 1) } }`
fn mrm(p: i64, n: i64) -> Model {
    let body = term(TermKind::Compose(
        Compose::Seq,
        vec![
            term(TermKind::Delay(Expr::int(3))),
            use_(0, None, Expr::int(1)),
        ],
    ));
    let seq = lp(Compose::Seq, "i", Expr::int(1), Expr::int(n), body);
    model(
        vec![resource("s", None)],
        lp(Compose::Par, "p", Expr::int(1), Expr::int(p), seq),
    )
}

/// Table 1, row 8: three transfers 0→1 and three 0→2 of 8334 packets each (µs).
fn network_row8() -> Model {
    let packets = || Expr::int(8334);
    let move01 = || {
        lp(
            Compose::Par,
            "i",
            Expr::int(1),
            packets(),
            use_(1, Some(1), Expr::int(108)),
        )
    };
    let move02 = || {
        let hop = term(TermKind::Compose(
            Compose::Par,
            vec![
                use_(0, Some(1), Expr::int(181)),
                use_(1, Some(1), Expr::int(108)),
            ],
        ));
        let packet = term(TermKind::Compose(
            Compose::Seq,
            vec![hop, use_(1, Some(2), Expr::int(108))],
        ));
        lp(Compose::Par, "i", Expr::int(1), packets(), packet)
    };
    let parts = vec![move01(), move01(), move01(), move02(), move02(), move02()];
    model(
        vec![resource("f", Some(3)), resource("x", Some(3))],
        term(TermKind::Compose(Compose::Par, parts)),
    )
}

fn bench(c: &mut Criterion) {
    let opts = SimOptions::default();
    let b = Binding::default();
    let mut g = c.benchmark_group("mrm");
    g.sample_size(10);
    for (p, n) in [(1000, 1000), (10, 100_000)] {
        let m = mrm(p, n);
        g.bench_function(format!("P={p},N={n}"), |bch| {
            bch.iter(|| simulate(black_box(&m), 0, &b, &opts).unwrap().time)
        });
    }
    g.finish();
    let mut g = c.benchmark_group("network");
    g.sample_size(20);
    let m = network_row8();
    g.bench_function("table1_row8", |bch| {
        bch.iter(|| simulate(black_box(&m), 0, &b, &opts).unwrap().time)
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
