//! Chapter 6 message-passing models of `examples/etccs/` (spec §6.2–6.3),
//! parameterised by `p`, against the spec's verified expected values.

use etccs::parse::parse_with_consts;
use etccs::{analyse, Analysis, Options, Time};

fn load(file: &str, p: i64) -> etccs::Model {
    let path = format!("{}/../../examples/etccs/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_with_consts(file, &src, &[("p", Time::from_integer(p.into()))])
        .unwrap_or_else(|e| panic!("{e:?}"))
}

fn run(file: &str, p: i64, agent: &str) -> Analysis {
    let mut m = load(file, p);
    analyse(&mut m, agent, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// PEXEC as (time, probability) strings.
fn pexec(a: &Analysis) -> Vec<(String, String)> {
    a.pexec
        .iter()
        .map(|(t, q)| (t.to_string(), q.to_string()))
        .collect()
}

fn single(a: &Analysis) -> String {
    let d = pexec(a);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].1, "1");
    d[0].0.clone()
}

/// Table 6-1 and 6-2 (spec T6-9, T6-9b; corrected non-blocking perfect column).
#[test]
fn t6_9_scatter_tables_6_1_and_6_2() {
    for p in 2..=5i64 {
        let m = 1101 * (p - 1);
        let nb_bus = 1101 + (p - 2) * 1001;
        let nb_perfect = (p - 1) * 100 + 1001;
        for (agent, want) in [
            ("RepeatedBus", m),
            ("NonBlockingBus", nb_bus),
            ("RepeatedPerfect", m),
            ("NonBlockingPerfect", nb_perfect),
        ] {
            let a = run("scatter.etccs", p, agent);
            assert_eq!(single(&a), want.to_string(), "{agent} p={p}");
            assert!(a.warnings.is_empty(), "{:?}", a.warnings);
        }
    }
}

const SG: &str = "scatter_gather.etccs";

/// Tables 6-5 and 6-6 (spec T6-12, T6-13).
#[test]
fn t6_12_t6_13_scatter_micro() {
    let perfect = ["501001", "335334", "253001", "204001"];
    let bus = ["501001", "667668", "751003", "801004"];
    for p in 2..=5i64 {
        let i = (p - 2) as usize;
        assert_eq!(single(&run(SG, p, "ScatterPerfect")), perfect[i], "p={p}");
        assert_eq!(single(&run(SG, p, "ScatterBus")), bus[i], "p={p}");
    }
    for (p, want) in [(6, "171668"), (7, "148858")] {
        assert_eq!(single(&run(SG, p, "ScatterPerfect")), want, "p={p}");
    }
}

/// Tables 6-7 and 6-8 (spec T6-14, T6-15).
#[test]
fn t6_14_t6_15_gather_micro() {
    let perfect = ["501001", "334334", "251001"];
    let bus = ["501001", "667668", "751003"];
    for p in 2..=4i64 {
        let i = (p - 2) as usize;
        assert_eq!(single(&run(SG, p, "GatherPerfect")), perfect[i], "p={p}");
        assert_eq!(single(&run(SG, p, "GatherBus")), bus[i], "p={p}");
    }
}

/// Table 6-3 (spec T6-10; p = 3 corrected to 669668) and the micro totals
/// of Table 6-9 (T6-16): exact without contention.
#[test]
fn t6_10_t6_16_scatter_gather_perfect() {
    let want = ["1002002", "669668", "504002"];
    for p in 2..=4i64 {
        let i = (p - 2) as usize;
        let a = run(SG, p, "ScatterGatherPerfect");
        assert_eq!(single(&a), want[i], "p={p}");
        let micro: Time =
            single_time(&run(SG, p, "ScatterPerfect")) + single_time(&run(SG, p, "GatherPerfect"));
        assert_eq!(micro.to_string(), want[i]);
    }
}

fn single_time(a: &Analysis) -> Time {
    assert_eq!(a.pexec.len(), 1);
    a.pexec.keys().next().expect("one").clone()
}

/// Table 6-4 (spec T6-11) with exact probabilities, and Table 6-10 (T6-17):
/// the micro total is the maximum of the integrated distribution.
#[test]
fn t6_11_t6_17_scatter_gather_bus() {
    let want: [&[(&str, &str)]; 3] = [
        &[("1002002", "1")],
        &[("1334336", "1/16"), ("1335335", "3/4"), ("1335336", "3/16")],
        &[
            ("1501006", "3161/11664"),
            ("1502004", "32/81"),
            ("1502005", "38/243"),
            ("1502006", "2071/11664"),
        ],
    ];
    let micro = ["1002002", "1335336", "1502006"];
    for p in 2..=4i64 {
        let i = (p - 2) as usize;
        let a = run(SG, p, "ScatterGatherBus");
        let got = pexec(&a);
        let exp: Vec<(String, String)> = want[i]
            .iter()
            .map(|(t, q)| (t.to_string(), q.to_string()))
            .collect();
        assert_eq!(got, exp, "p={p}");
        // The mean is the expectation of PEXEC, exact.
        let mean: Time = want[i]
            .iter()
            .map(|(t, q)| t.parse::<Time>().expect("time") * q.parse::<Time>().expect("prob"))
            .sum();
        assert_eq!(a.mean(), Some(mean), "p={p}");
        let m = single_time(&run(SG, p, "ScatterBus")) + single_time(&run(SG, p, "GatherBus"));
        assert_eq!(m.to_string(), micro[i]);
        assert_eq!(
            a.max.as_ref().map(|r| r.time.to_string()),
            Some(micro[i].to_string())
        );
    }
}

/// Table 6-4 at p = 3 (spec T6-11): the mean of 1334336 (1/16), 1335335 (3/4) and
/// 1335336 (3/16) is 5341091/4, which the readable report and JSON show.
#[test]
fn t6_11_mean_of_the_p3_distribution() {
    let a = run(SG, 3, "ScatterGatherBus");
    assert_eq!(a.mean().map(|m| m.to_string()), Some("5341091/4".into()));
    assert!(
        etccs::readable_text(&a).contains("  mean  1335272.75\n"),
        "{}",
        etccs::readable_text(&a)
    );
    assert_eq!(etccs::agent_json(&a)["mean"], "5341091/4");
    // One time: the mean is that time, and the report does not repeat it.
    let one = run(SG, 3, "ScatterBus");
    assert_eq!(one.mean(), Some(single_time(&one)));
    assert!(!etccs::readable_text(&one).contains("mean"));
}

/// Examples 6.3.1-6.3.3 (spec T6-6..T6-8).
#[test]
fn t6_6_to_t6_8_messages() {
    assert_eq!(single(&run("messages.etccs", 2, "NoLatency")), "100");
    assert_eq!(single(&run("messages.etccs", 2, "Latency")), "1101");
    assert_eq!(single(&run("messages.etccs", 2, "Contention")), "1101");
}

fn plain(file: &str, agent: &str) -> Analysis {
    let path = format!("{}/../../examples/etccs/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut m = etccs::parse(file, &src).unwrap_or_else(|e| panic!("{e:?}"));
    analyse(&mut m, agent, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Section 6.2 (spec T6-1..T6-5).
#[test]
fn t6_1_to_t6_5_processors() {
    let f = "processors.etccs";
    assert_eq!(single(&plain(f, "T6_1a")), "14");
    assert_eq!(single(&plain(f, "T6_1b")), "14");
    assert_eq!(single(&plain(f, "T6_2a")), "12");
    assert_eq!(single(&plain(f, "T6_2b")), "9");
    assert_eq!(single(&plain(f, "T6_3")), "28");
    assert_eq!(single(&plain(f, "T6_4")), "35");
    let a = plain(f, "T6_5");
    assert_eq!(
        pexec(&a),
        [("33", "1/4"), ("39", "1/2"), ("45", "1/4")].map(|(t, q)| (t.to_string(), q.to_string()))
    );
}

/// Every example file parses, and each `analyse` directive runs at its default `p`.
#[test]
fn examples_run_as_written() {
    for f in [
        "processors.etccs",
        "messages.etccs",
        "scatter.etccs",
        "scatter_gather.etccs",
    ] {
        let path = format!("{}/../../examples/etccs/{f}", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(&path).expect("example");
        let mut m = etccs::parse(f, &src).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(!m.analyses.is_empty());
        for a in etccs::analyse_all(&mut m, &Options::default()).expect("analyses") {
            assert_eq!(a.outcome, etccs::Outcome::Terminated, "{f} {}", a.name);
            assert!(a.warnings.is_empty(), "{f} {}: {:?}", a.name, a.warnings);
        }
    }
}

/// The witness of the non-blocking scatter on the bus (p = 3) shows the
/// contention of Table 6-1: node 1 is ready to take the bus at 1100, when
/// its message has arrived, but node 0 holds it for its second message
/// until 2100; on the contention-free network nobody waits for `get`.
#[test]
fn scatter_witness_shows_bus_contention() {
    let a = run("scatter.etccs", 3, "NonBlockingBus");
    let max = a.max.as_ref().expect("max");
    assert_eq!(max.lanes, ["Node0(1)", "Node(1)", "Node(2)", "Net(0)"]);
    let mut now = Time::from_integer(0.into());
    let mut waits = Vec::new();
    for st in &max.steps {
        now += &st.delay;
        for p in &st.parties {
            assert!(p.ready <= now, "ready {} after the step at {now}", p.ready);
            if p.action == "get'" && p.ready < now {
                waits.push((
                    max.lanes[p.lane].as_str(),
                    p.ready.to_string(),
                    now.to_string(),
                ));
            }
        }
    }
    assert_eq!(
        waits,
        [
            ("Node(1)", "1100".to_string(), "2100".to_string()),
            ("Node(2)", "2100".to_string(), "2101".to_string())
        ]
    );
    let free = run("scatter.etccs", 3, "NonBlockingPerfect");
    let max = free.max.as_ref().expect("max");
    let mut now = Time::from_integer(0.into());
    for st in &max.steps {
        now += &st.delay;
        for p in st.parties.iter().filter(|p| p.action == "get'") {
            assert_eq!(p.ready, now, "no wait for the network");
        }
    }
}
