//! Skeletons lowered to Eager Timed CCS and analysed: the message patterns and the two
//! networks of chapter 4 (a bus: one transfer at a time; a perfect network: no
//! contention), against times worked out by hand.

use collectives::lower::{to_etccs, Lowering, Network};
use collectives::skeleton;

/// The execution time of the lowered model's `System` (it must be deterministic).
fn analysed(text: &str, p: u32, network: Network, params: &[(&str, f64)]) -> f64 {
    let s = skeleton::parse("s.skel", text).unwrap();
    let l = Lowering {
        p,
        params: params.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        start: 5.0,
        per_item: 1.0,
        network,
    };
    let model = to_etccs(&s, &l).unwrap();
    let job = etccs::job::Job::new("lowered.etccs", &model);
    let results = job.run().unwrap_or_else(|e| panic!("{e}\n{model}"));
    let etccs::job::Results::One(one) = results else {
        panic!("one analysis")
    };
    let a = one.concrete()[0];
    assert_eq!(a.exec.len(), 1, "one execution time: {:?}", a.exec);
    let t = a.exec.keys().next().unwrap();
    t.to_string()
        .parse::<f64>()
        .unwrap_or_else(|_| panic!("{t}"))
}

#[test]
fn a_scatter_serialises_on_the_bus_only() {
    // The root starts the message to rank 1 (5), whose transfer takes 10; then the one to
    // rank 2 (5 more). Perfect: the second transfer runs 10..20. Bus: it waits for the
    // first, 15..25.
    assert_eq!(analysed("scatter 10\n", 3, Network::Perfect, &[]), 20.0);
    assert_eq!(analysed("scatter 10\n", 3, Network::Bus, &[]), 25.0);
}

#[test]
fn a_ring_shift_is_concurrent_on_a_perfect_network() {
    // Three messages of 10, each started at once (5): perfect 15; on the bus the three
    // transfers follow each other, 5 + 30.
    assert_eq!(
        analysed("send-receive 10\n", 3, Network::Perfect, &[]),
        15.0
    );
    assert_eq!(analysed("send-receive 10\n", 3, Network::Bus, &[]), 35.0);
}

#[test]
fn loops_and_compute_phases_add_up() {
    // Twice: compute 100/p, then a ring shift of n items; p = 2, n = 4:
    // perfect 2·(50 + 5 + 4) = 118.
    let text = "param n = 4\nparam i = 2\nloop i\n  compute 100/p\n  send-receive n\nend\n";
    assert_eq!(analysed(text, 2, Network::Perfect, &[]), 118.0);
    assert_eq!(analysed(text, 2, Network::Perfect, &[("i", 1.0)]), 59.0);
}

#[test]
fn the_lowering_refuses_what_it_cannot_model() {
    let s = skeleton::parse("s", "loop 1e9\n  barrier\nend\n").unwrap();
    let l = Lowering {
        p: 2,
        params: Vec::new(),
        start: 1.0,
        per_item: 1.0,
        network: Network::Bus,
    };
    let e = to_etccs(&s, &l).unwrap_err();
    assert!(e.message.contains("too long to unroll"), "{}", e.message);
    let s = skeleton::parse("s", "loop 2000\n  barrier\nend\n").unwrap();
    assert!(to_etccs(&s, &Lowering { p: 4, ..l.clone() })
        .unwrap_err()
        .message
        .contains("over 2000 messages"));
    let s = skeleton::parse("s", "frobnicate 3\n").unwrap();
    assert!(to_etccs(&s, &l)
        .unwrap_err()
        .message
        .contains("no message pattern"));
    assert!(to_etccs(&s, &Lowering { p: 0, ..l }).is_err());
}
