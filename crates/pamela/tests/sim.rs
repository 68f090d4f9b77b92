//! The discrete-event simulator on models written as `.pam` text: the validation values of
//! spec §4 (MRM, pipeline, network Table 1), resource semantics, randomness, errors, limits
//! and traces. Every test asserts exact values unless the quantity is random.

use expr::{Name, Rational};
use pamela::sim::{simulate, simulate_metered, Arbitration, SimOptions, SimResult};
use pamela::{ErrorKind, Model, ModelError};
use proptest::prelude::*;

fn model(text: &str) -> Model {
    pamela::parse("test.pam", text).unwrap_or_else(|e| panic!("parse: {e:?}"))
}

fn try_sim_with(
    text: &str,
    vals: &[(&str, i64)],
    opts: &SimOptions,
) -> Result<SimResult, Box<ModelError>> {
    let m = model(text);
    let root = pamela::check::root(&m, None)?;
    let given: Vec<(Name, Rational)> = vals
        .iter()
        .map(|(k, v)| (Name::from(*k), Rational::from_integer((*v).into())))
        .collect();
    let b = m.bind(&given)?;
    simulate(&m, root, &b, opts)
}

fn sim_with(text: &str, vals: &[(&str, i64)], opts: &SimOptions) -> SimResult {
    try_sim_with(text, vals, opts).unwrap_or_else(|e| panic!("simulate: {e:?}"))
}

fn sim(text: &str, vals: &[(&str, i64)]) -> SimResult {
    sim_with(text, vals, &SimOptions::default())
}

fn sim_err(text: &str, vals: &[(&str, i64)]) -> Box<ModelError> {
    try_sim_with(text, vals, &SimOptions::default()).expect_err("the simulation should fail")
}

const MRM: &str = "
    param P: int >= 1; param N: int >= 0; param tau_l >= 0; param tau_s >= 0;
    resource s;
    main = par p in 1..=P { seq i in 1..=N { delay(tau_l); use(s, tau_s) } };
";

fn mrm(p: i64, n: i64, tau_l: i64, tau_s: i64) -> SimResult {
    sim(
        MRM,
        &[("P", p), ("N", n), ("tau_l", tau_l), ("tau_s", tau_s)],
    )
}

/// Spec §4 validation values: T, and P·N·2 events.
fn check_mrm(p: i64, n: i64, tau_l: i64, tau_s: i64, t: f64) {
    let r = mrm(p, n, tau_l, tau_s);
    assert_eq!(r.time, t);
    assert_eq!(r.events, (2 * p * n) as u64);
    assert_eq!(r.resources[0].served, (p * n) as u64);
    assert_eq!(r.resources[0].busy, (p * n * tau_s) as f64);
    assert_eq!(r.resources[0].utilization, (p * n * tau_s) as f64 / t);
    // One thread per client plus the `par` waiting for them.
    assert_eq!(r.peak_active, p as usize + 1);
    // The contention bound T^l = N·max(P·tau_s, tau_l + tau_s) holds.
    assert!(r.time >= (n * (p * tau_s).max(tau_l + tau_s)) as f64);
}

#[test]
fn mrm_p1_n5_tl1_ts1_is_10() {
    check_mrm(1, 5, 1, 1, 10.0);
}

#[test]
fn mrm_p2_n3_tl1_ts1_is_7() {
    check_mrm(2, 3, 1, 1, 7.0);
}

#[test]
fn mrm_p3_n4_tl1_ts1_is_13() {
    check_mrm(3, 4, 1, 1, 13.0);
}

#[test]
fn mrm_p4_n10_tl3_ts1_is_43() {
    check_mrm(4, 10, 3, 1, 43.0);
}

#[test]
fn mrm_p8_n10_tl3_ts1_is_83() {
    check_mrm(8, 10, 3, 1, 83.0);
}

#[test]
fn mrm_p2_n10_tl3_ts1_is_41() {
    check_mrm(2, 10, 3, 1, 41.0);
}

#[test]
fn mrm_memory_follows_active_threads_not_events() {
    let small = mrm(3, 2, 3, 1);
    let long = mrm(3, 2000, 3, 1);
    assert_eq!(long.events, 12_000);
    assert_eq!(small.peak_active, long.peak_active);
    // Unsaturated (tau_l + tau_s = 4 > P·tau_s = 3): client 3 is served last at time 5 and
    // then cycles every 4 time units.
    assert_eq!(long.time, (4 * 2000 + 2) as f64);
}

#[test]
fn mrm_with_no_iterations_takes_no_time() {
    let r = mrm(5, 0, 3, 1);
    assert_eq!(
        (r.time, r.events, r.resources[0].utilization),
        (0.0, 0, 0.0)
    );
}

/// The pipeline `par i in 1..=N { seq m in 1..=M use(u[m-1], t(m)) }` with the stage time
/// `t(m)` given as a chain of `if`s.
fn pipeline_text(times: &[i64]) -> String {
    let mut stage = String::from("skip");
    for (k, t) in times.iter().enumerate().rev() {
        stage = format!("if m == {} use(u[{k}], {t}) else {{ {stage} }}", k + 1);
    }
    format!(
        "param N: int >= 1; resource u[{}];
         stage(m) = {stage};
         main = par i in 1..=N {{ seq m in 1..={} stage(m) }};",
        times.len(),
        times.len()
    )
}

fn pipeline(n: i64, times: &[i64]) -> SimResult {
    sim(&pipeline_text(times), &[("N", n)])
}

#[test]
fn pipeline_n4_1111_is_7() {
    assert_eq!(pipeline(4, &[1, 1, 1, 1]).time, 7.0);
}

#[test]
fn pipeline_n3_123_is_12() {
    assert_eq!(pipeline(3, &[1, 2, 3]).time, 12.0);
}

#[test]
fn pipeline_n10_123_is_33() {
    assert_eq!(pipeline(10, &[1, 2, 3]).time, 33.0);
}

#[test]
fn pipeline_n1_123_is_6() {
    let r = pipeline(1, &[1, 2, 3]);
    assert_eq!(r.time, 6.0);
    assert_eq!(r.events, 3);
    let names: Vec<_> = r.resources[0]
        .members
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(names, ["u[0]", "u[1]", "u[2]"]);
    assert_eq!(r.resources[0].members[2].busy, 3.0);
    assert_eq!(r.resources[0].members[2].utilization, 0.5);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Spec §4: in every case T = Σ τ_m + (N−1)·max τ_m.
    #[test]
    fn pipeline_time_is_fill_plus_bottleneck(n in 1i64..7, times in prop::collection::vec(0i64..6, 1..5)) {
        let r = pipeline(n, &times);
        let sum: i64 = times.iter().sum();
        let max = *times.iter().max().unwrap();
        prop_assert_eq!(r.time, (sum + (n - 1) * max) as f64);
        prop_assert_eq!(r.events, (n as u64) * times.len() as u64);
    }
}

/// The network of §2.5(h) on the sub-topology 0–1–2 (times in µs): dimension-order route
/// `n_k = s + k - 1`, `k = 1 ..= K = r - s + 1`; `x[n]` link (DMA) service, `f[n]`
/// forwarding service; 10^6-byte transfers in ⌈10^6/120⌉ = 8334 packets.
const NETWORK: &str = "
    resource f[3]; resource x[3];
    move(s, r, l) = par i in 1..=ceil(l / 120) {
        seq k in 2..=r-s { use(f[s+k-1], 181) || use(x[s+k-1], 108) };
        use(x[r], 108)
    };
";

/// Simulates `main = <transfers>` and returns T in µs.
fn table1(main: &str) -> SimResult {
    sim(&format!("{NETWORK} main = {main};"), &[])
}

const A: &str = "move(0, 1, 1000000)";
const B: &str = "move(0, 2, 1000000)";
const PACKETS: f64 = 8334.0;

// Exact expected values, in µs (FCFS; requests at t = 0 queue in child order):
// - a 0→1 transfer is 8334 uses of x[1] (108 each); a 0→2 packet holds f[1] (181) and x[1]
//   (108) in parallel, then x[2] (108).
// - When x[1] is the bottleneck its queue is busy from 0 to (#packets on x[1])·108, and the
//   last packet served there is a 0→2 packet (they queue behind the 0→1 packets or, for rows
//   without 0→1 transfers, f[1] is slower), which then needs x[2] for 108 more; x[2] never
//   queues (its arrivals are ≥ 108 apart).
// - When f[1] is the bottleneck (181 > 108), the last 0→2 packet leaves f[1] at
//   (#0→2 packets)·181 and then uses x[2] for 108.

#[test]
fn table1_row1_01() {
    let r = table1(A);
    assert_eq!(r.time, PACKETS * 108.0); // 900072 µs ≈ 0.9001 s
    assert_eq!(r.events, 8334);
}

#[test]
fn table1_row2_02() {
    let r = table1(B);
    assert_eq!(r.time, PACKETS * 181.0 + 108.0); // 1508562 µs ≈ 1.5086 s
    assert_eq!(r.events, 3 * 8334);
}

#[test]
fn table1_row3_01x2() {
    assert_eq!(table1(&format!("{A} || {A}")).time, 2.0 * PACKETS * 108.0); // 1.8001 s
}

#[test]
fn table1_row4_02x2() {
    assert_eq!(
        table1(&format!("{B} || {B}")).time,
        2.0 * PACKETS * 181.0 + 108.0 // 3017016 µs ≈ 3.017 s
    );
}

#[test]
fn table1_row5_01_02() {
    assert_eq!(
        table1(&format!("{A} || {B}")).time,
        2.0 * PACKETS * 108.0 + 108.0 // 1800252 µs ≈ 1.8003 s
    );
}

#[test]
fn table1_row6_01x2_02() {
    assert_eq!(
        table1(&format!("{A} || {A} || {B}")).time,
        3.0 * PACKETS * 108.0 + 108.0 // 2700324 µs ≈ 2.7003 s
    );
}

/// The paper's simulator gave 3.3 s here; the printed model gives 3.017 s (spec §4, §5.8):
/// f[1] (2·8334·181 µs) is the bottleneck, exactly as in row 4.
#[test]
fn table1_row7_01_02x2_differs_from_paper() {
    let r = table1(&format!("{A} || {B} || {B}"));
    assert_eq!(r.time, 2.0 * PACKETS * 181.0 + 108.0); // 3017016 µs ≈ 3.017 s
    let f1 = &r.resources[0].members[1];
    assert_eq!(f1.busy, 2.0 * PACKETS * 181.0);
}

#[test]
fn table1_row8_01x3_02x3() {
    let r = table1(&format!("{A} || {A} || {A} || {B} || {B} || {B}"));
    assert_eq!(r.time, 6.0 * PACKETS * 108.0 + 108.0); // 5400540 µs ≈ 5.4005 s
    assert_eq!(r.events, 3 * 8334 + 3 * 3 * 8334);
    let x = &r.resources[1];
    assert_eq!(x.members[1].served, 6 * 8334);
    assert_eq!(x.members[2].served, 3 * 8334);
    assert_eq!(x.members[0].served, 0);
    // Every packet of the six transfers is live at once.
    assert_eq!(r.peak_active, 1 + 6 + 3 * 8334 * 3 + 3 * 8334);
}

#[test]
fn same_instant_requests_are_served_in_child_order() {
    let text = "resource s; main = par p in 1..=3 use(s, 4 - p);";
    let r = sim_with(
        text,
        &[],
        &SimOptions {
            record_trace: true,
            ..SimOptions::default()
        },
    );
    assert_eq!(r.time, 6.0);
    let tr = r.trace.unwrap();
    let mut iv: Vec<_> = tr
        .lane_intervals(0)
        .map(|i| (i.start, i.end, i.label.as_str()))
        .collect();
    iv.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(
        iv,
        [
            (0.0, 3.0, "A: main p=1"),
            (3.0, 5.0, "B: main p=2"),
            (5.0, 6.0, "C: main p=3")
        ]
    );
}

#[test]
fn multiplicity_two_halves_queueing() {
    let one = sim("resource pool: 1; main = par p in 1..=8 use(pool, 1);", &[]);
    let two = sim("resource pool: 2; main = par p in 1..=8 use(pool, 1);", &[]);
    assert_eq!(one.time, 8.0);
    assert_eq!(two.time, 4.0);
    assert_eq!(two.resources[0].utilization, 1.0);
    // MRM with a two-server s: the server demand halves, so does T beyond saturation.
    let text = MRM.replace("resource s;", "resource s: 2;");
    let vals = [("P", 8), ("N", 10), ("tau_l", 0), ("tau_s", 1)];
    assert_eq!(sim(MRM, &vals).time, 80.0);
    assert_eq!(sim(&text, &vals).time, 40.0);
}

#[test]
fn infinite_resource_never_queues() {
    let r = sim(
        "param P: int >= 1; resource net: inf; main = par p in 1..=P use(net, 5);",
        &[("P", 100)],
    );
    assert_eq!(r.time, 5.0);
    assert_eq!(r.resources[0].busy, 500.0);
    assert_eq!(r.resources[0].served, 100);
    assert_eq!(r.resources[0].utilization, 0.0);
}

#[test]
fn families_calls_and_utilization() {
    let text = "
        param P: int >= 1; param t >= 0;
        resource cpu[P];
        work(p, k) = seq j in 1..=k use(cpu[p mod P], t);
        main = par p in 0..=2*P-1 work(p, 2);
    ";
    let r = sim(text, &[("P", 4), ("t", 3)]);
    // Two threads per cpu, two uses each, 3 time units per use.
    assert_eq!(r.time, 12.0);
    assert_eq!(r.events, 16);
    let cpu = &r.resources[0];
    assert_eq!((cpu.busy, cpu.utilization, cpu.served), (48.0, 1.0, 16));
    assert!(cpu
        .members
        .iter()
        .all(|m| m.busy == 12.0 && m.utilization == 1.0));
}

#[test]
fn seq_and_par_composition_and_branches() {
    let text = "
        param N: int >= 1;
        resource s;
        main = { delay(1) ; use(s, 2) } || { if N > 3 delay(10) else delay(20) } ; skip ; delay(0);
    ";
    let r = sim(text, &[("N", 5)]);
    assert_eq!(r.time, 10.0);
    assert_eq!(r.events, 4, "zero-duration delays are events too");
    assert_eq!(sim(text, &[("N", 2)]).time, 20.0);
}

#[test]
fn loop_bounds_are_rounded_like_folds() {
    // N / 2 = 2.5: seq i in 1..=2.5 runs i = 1, 2; par over 0.5..=2 runs i = 1, 2.
    let r = sim(
        "param N: int >= 1; main = seq i in 1..=N/2 delay(i) ; par i in 1/2..=2 delay(10*i);",
        &[("N", 5)],
    );
    assert_eq!(r.time, 3.0 + 20.0);
    assert_eq!(r.events, 4);
    let empty = sim(
        "main = seq i in 3..=1 delay(1) ; par i in 3..=1 delay(1);",
        &[],
    );
    assert_eq!((empty.time, empty.events), (0.0, 0));
}

#[test]
fn random_arbitration_is_reproducible_and_bounded() {
    // Clients with different service times: the order of service matters.
    let text = "
        param P: int >= 1; param N: int >= 1;
        resource s;
        main = par p in 1..=P seq i in 1..=N { delay(p); use(s, p) };
    ";
    let vals = [("P", 6), ("N", 5)];
    let opts = |seed| SimOptions {
        arbitration: Arbitration::Random,
        seed,
        ..SimOptions::default()
    };
    let a = sim_with(text, &vals, &opts(1));
    let b = sim_with(text, &vals, &opts(1));
    assert_eq!(a, b);
    // Contention bound: s serves N·Σp = 5·21 = 105; critical path of client 6: 5·12 = 60.
    let mut times = Vec::new();
    for seed in 0..20 {
        let r = sim_with(text, &vals, &opts(seed));
        assert!(r.time >= 105.0, "seed {seed}: {}", r.time);
        assert_eq!(r.resources[0].busy, 105.0);
        times.push(r.time);
    }
    let fcfs = sim(text, &vals).time;
    assert!(fcfs >= 105.0);
    times.sort_by(f64::total_cmp);
    times.dedup();
    assert!(
        times.len() > 1,
        "different seeds should give different schedules"
    );
}

#[test]
fn prob_conditions_are_sampled_at_the_expected_rate() {
    let text = "
        param N: int >= 1;
        resource a; resource b;
        main = seq i in 1..=N { if prob(0.3) use(a, 1) else use(b, 1) };
    ";
    let n = 20_000;
    let opts = |seed| SimOptions {
        seed,
        ..SimOptions::default()
    };
    let r = sim_with(text, &[("N", n)], &opts(11));
    assert_eq!(r, sim_with(text, &[("N", n)], &opts(11)));
    let hits = r.resources[0].served;
    assert_eq!(hits + r.resources[1].served, n as u64);
    // Binomial(20000, 0.3): sd ≈ 65; allow ±5 sd.
    let f = hits as f64 / n as f64;
    assert!((f - 0.3).abs() < 0.0163, "frequency {f}");
    let other = sim_with(text, &[("N", n)], &opts(12)).resources[0].served;
    assert_ne!(hits, other);
    // prob(0) and prob(1) are certain.
    let r = sim(
        "main = seq i in 1..=100 { if prob(0) delay(1) else delay(2) };",
        &[],
    );
    assert_eq!(r.time, 200.0);
    let r = sim(
        "main = seq i in 1..=100 { if prob(1) delay(1) else delay(2) };",
        &[],
    );
    assert_eq!(r.time, 100.0);
}

#[test]
fn error_negative_time() {
    let e = sim_err("param t >= 0; main = delay(1) ; delay(t - 5);", &[("t", 1)]);
    assert_eq!(e.kind, ErrorKind::Evaluation);
    assert!(e.message.contains("-4"), "{}", e.message);
    let (line, col) = e.line_col().unwrap();
    assert_eq!((line, col), (1, 33), "points at the second delay");
}

#[test]
fn error_negative_use_time() {
    let e = sim_err(
        "param t >= 0; resource s; main = use(s, t - 5);",
        &[("t", 1)],
    );
    assert_eq!(e.kind, ErrorKind::Evaluation);
    assert!(e.span().is_some());
}

#[test]
fn error_index_out_of_range() {
    let e = sim_err(
        "param P: int >= 1; resource cpu[P]; main = par p in 1..=P use(cpu[p], 1);",
        &[("P", 4)],
    );
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);
    assert!(
        e.message.contains("index 4") && e.message.contains("4 members"),
        "{}",
        e.message
    );
    assert!(e.span().is_some());
}

#[test]
fn error_index_not_an_integer() {
    let e = sim_err(
        "param P: int >= 1; resource cpu[P]; main = par p in 1..=P use(cpu[p / 2], 1);",
        &[("P", 4)],
    );
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);
    assert!(
        e.message.contains("0.5") && e.message.contains("not an integer"),
        "{}",
        e.message
    );
}

#[test]
fn error_bad_multiplicity_and_family_size() {
    let e = sim_err(
        "param K: int; resource pool: K; main = use(pool, 1);",
        &[("K", 0)],
    );
    assert_eq!(e.kind, ErrorKind::Multiplicity);
    let e = sim_err(
        "param K; resource pool: K; main = use(pool, 1);",
        &[("K", -2)],
    );
    assert_eq!(e.kind, ErrorKind::Multiplicity);
    let e = sim_err(
        "param K: int; resource cpu[K]; main = use(cpu[0], 1);",
        &[("K", 0)],
    );
    assert_eq!(e.kind, ErrorKind::Multiplicity);
    assert!(e.message.contains("family size"), "{}", e.message);
}

#[test]
fn error_probability_outside_unit_interval() {
    let e = sim_err("param q; main = if prob(q) delay(1);", &[("q", 2)]);
    assert_eq!(e.kind, ErrorKind::Evaluation);
    assert!(e.message.contains("probability 2"), "{}", e.message);
}

#[test]
fn error_uncomputable_loop_bound() {
    let e = sim_err(
        "param N: int >= 1; main = seq i in 1..=N / (N - N) delay(1);",
        &[("N", 3)],
    );
    assert_eq!(e.kind, ErrorKind::Evaluation);
    assert!(e.span().is_some());
}

#[test]
fn error_unbound_parameter() {
    let m = model(MRM);
    let e = simulate(&m, 0, &pamela::Binding::default(), &SimOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Binding);
}

#[test]
fn max_events_limit() {
    let vals = [("P", 4), ("N", 10), ("tau_l", 3), ("tau_s", 1)];
    let opts = SimOptions {
        max_events: 50,
        ..SimOptions::default()
    };
    let e = try_sim_with(MRM, &vals, &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message
            .starts_with("stopped after 50 events, the event limit; simulated time so far "),
        "{}",
        e.message
    );
    assert_eq!(
        e.reached,
        Some(sweep::Reached::new(sweep::Limit::Events, 50))
    );
    // Exactly enough events is fine.
    let opts = SimOptions {
        max_events: 80,
        ..SimOptions::default()
    };
    assert_eq!(try_sim_with(MRM, &vals, &opts).unwrap().events, 80);
}

#[test]
fn steps_without_events_are_bounded() {
    let opts = SimOptions {
        max_events: 10,
        ..SimOptions::default()
    };
    let e = try_sim_with("main = seq i in 1..=1000000000 skip;", &[], &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert_eq!(
        e.reached,
        Some(sweep::Reached::new(sweep::Limit::Events, 10))
    );
}

#[test]
fn huge_par_is_a_limit_error_not_an_allocation() {
    let e = sim_err("main = par i in 1..=1000000000000 delay(1);", &[]);
    assert_eq!(e.kind, ErrorKind::Limit);
}

#[test]
fn progress_is_reported() {
    let m = model(MRM);
    let int = |v: i64| Rational::from_integer(v.into());
    let b = m
        .bind(&[
            (Name::from("P"), int(4)),
            (Name::from("N"), int(20_000)),
            (Name::from("tau_l"), int(3)),
            (Name::from("tau_s"), int(1)),
        ])
        .unwrap();
    let meter = sweep::Meter::default();
    meter.set_analysing();
    let r = simulate_metered(&m, 0, &b, &SimOptions::default(), Some(&meter)).unwrap();
    assert_eq!(r.events, 160_000);
    // The run restarted the meter and left the final count in it.
    assert_eq!(meter.count(), 160_000);
    assert_eq!(meter.phase(), sweep::Phase::Running);
}

/// The recorded timeline is bounded (defect: `--gantt` of 2·10^7 events exhausted memory):
/// past the limit the recording stops, the run goes on, and the result says where the trace
/// ends.
#[test]
fn trace_recording_stops_at_its_limit() {
    let vals = [("P", 8), ("N", 1000), ("tau_l", 3), ("tau_s", 1)];
    let opts = SimOptions {
        record_trace: true,
        max_trace_intervals: 1000,
        ..SimOptions::default()
    };
    let r = try_sim_with(MRM, &vals, &opts).unwrap();
    let full = try_sim_with(MRM, &vals, &SimOptions::default()).unwrap();
    assert_eq!((r.time, r.events), (full.time, full.events));
    let tr = r.trace.expect("trace requested");
    assert!(
        tr.intervals.len() <= 1000 && tr.intervals.len() > 900,
        "{}",
        tr.intervals.len()
    );
    let cut = r.trace_cut.expect("the limit was reached");
    assert_eq!(
        cut.reached,
        sweep::Reached::new(sweep::Limit::TimelineIntervals, 1000)
    );
    assert!(cut.at > 0.0 && cut.at < r.time);
    let last = tr.intervals.iter().map(|i| i.start).fold(0.0, f64::max);
    assert!(last <= cut.at, "{last} > {}", cut.at);
    // Under the limit nothing is cut.
    let small = try_sim_with(
        MRM,
        &[("P", 2), ("N", 10), ("tau_l", 3), ("tau_s", 1)],
        &opts,
    )
    .unwrap();
    assert!(small.trace_cut.is_none());
}

#[test]
fn trace_has_one_lane_per_server() {
    let text = "
        resource s; resource pool: 2; resource cpu[2];
        main = par p in 0..=1 { use(s, 1) ; use(pool, 2) ; use(cpu[p], 1) };
    ";
    let r = sim_with(
        text,
        &[],
        &SimOptions {
            record_trace: true,
            ..SimOptions::default()
        },
    );
    // p=0: s 0-1, pool 1-3, cpu[0] 3-4; p=1: s 1-2, pool 2-4, cpu[1] 4-5.
    assert_eq!(r.time, 5.0);
    let tr = r.trace.expect("trace requested");
    let lanes: Vec<_> = tr
        .lanes
        .iter()
        .map(|l| (l.name.as_str(), l.group.as_str()))
        .collect();
    assert_eq!(
        lanes,
        [
            ("s", "s"),
            ("pool#0", "pool"),
            ("pool#1", "pool"),
            ("cpu[0]", "cpu"),
            ("cpu[1]", "cpu"),
            ("main p=0", "processes"),
            ("main p=1", "processes"),
        ]
    );
    // 6 services on server lanes; p=0: 3 services; p=1: 3 services and 1 wait (for s).
    assert_eq!(tr.intervals.len(), 6 + 3 + 4);
    let cpu1: Vec<_> = tr
        .lane_intervals(4)
        .map(|i| (i.start, i.end, i.label.as_str()))
        .collect();
    assert_eq!(cpu1, [(4.0, 5.0, "B: main p=1")]);
    let p1: Vec<_> = tr
        .lane_intervals(6)
        .map(|i| (i.start, i.end, i.label.as_str(), i.kind))
        .collect();
    assert_eq!(
        p1,
        [
            (0.0, 1.0, "wait s", trace::Kind::Wait),
            (1.0, 2.0, "s", trace::Kind::Busy),
            (2.0, 4.0, "pool", trace::Kind::Busy),
            (4.0, 5.0, "cpu[1]", trace::Kind::Busy),
        ]
    );
    assert_eq!(tr.makespan(), r.time);
    tr.validate().unwrap();
    // No trace unless asked for.
    assert!(sim(text, &[]).trace.is_none());
}

#[test]
fn deep_nesting_runs_without_recursion() {
    // A chain of 300 processes, each calling the next inside a one-iteration loop, and 200
    // nested blocks: lowering recurses once per level, execution not at all.
    let mut text = String::from("resource s; p0(a) = use(s, a);\n");
    for k in 1..300 {
        text.push_str(&format!(
            "p{k}(a) = seq i in 1..=1 {{ p{}(a + i) }};\n",
            k - 1
        ));
    }
    let open = "{ ".repeat(200);
    let close = " }".repeat(200);
    text.push_str(&format!("main = {open}p299(0){close};"));
    let r = sim(&text, &[]);
    assert_eq!(r.time, 299.0);
    assert_eq!(r.events, 1);
}

fn traced(text: &str, vals: &[(&str, i64)]) -> (SimResult, trace::Trace) {
    let mut r = sim_with(
        text,
        vals,
        &SimOptions {
            record_trace: true,
            ..SimOptions::default()
        },
    );
    let tr = r.trace.take().expect("trace requested");
    (r, tr)
}

/// The ids of the lanes in group `processes`.
fn process_lanes(tr: &trace::Trace) -> Vec<usize> {
    (0..tr.lanes.len())
        .filter(|&l| tr.lanes[l].group == "processes")
        .collect()
}

/// Total duration of the intervals of `kind` on `lane`.
fn lane_total(tr: &trace::Trace, lane: usize, kind: trace::Kind) -> f64 {
    tr.lane_intervals(lane)
        .filter(|i| i.kind == kind)
        .map(|i| i.duration())
        .sum()
}

#[test]
fn trace_process_lanes_explain_mrm_queueing() {
    // N=2, P=3, tau_l=1, tau_s=1, FCFS. Round 1: all three request s at t=1; p=1 is served
    // 1-2, p=2 waits 1-2 and is served 2-3, p=3 waits 1-3 and is served 3-4. Round 2: p=1
    // requests at 3 while p=3 holds s, waits 3-4, served 4-5; p=2 requests at 4 (p=1 holds
    // s), waits 4-5, served 5-6; p=3 requests at 5, waits 5-6, served 6-7. T = 7.
    // Waits per process: 0+1, 1+1, 2+1; total queueing 6.
    let text = "param N: int >= 1; param P: int >= 1; param tau_l >= 0; param tau_s >= 0;
        resource s;
        main = par p in 1..=P { seq i in 1..=N { delay(tau_l); use(s, tau_s) } };";
    let (r, tr) = traced(text, &[("N", 2), ("P", 3), ("tau_l", 1), ("tau_s", 1)]);
    assert_eq!(r.time, 7.0);
    tr.validate().unwrap();
    assert_eq!(tr.makespan(), 7.0);
    let lanes: Vec<_> = tr
        .lanes
        .iter()
        .map(|l| (l.name.as_str(), l.group.as_str()))
        .collect();
    assert_eq!(
        lanes,
        [
            ("s", "s"),
            ("main p=1", "processes"),
            ("main p=2", "processes"),
            ("main p=3", "processes"),
        ]
    );
    let procs = process_lanes(&tr);
    assert_eq!(procs.len(), 3);
    for &l in &procs {
        // N·(tau_l + tau_s)
        assert_eq!(lane_total(&tr, l, trace::Kind::Busy), 4.0);
    }
    let waits: Vec<f64> = procs
        .iter()
        .map(|&l| lane_total(&tr, l, trace::Kind::Wait))
        .collect();
    assert_eq!(waits, [1.0, 2.0, 3.0]);
    assert_eq!(waits.iter().sum::<f64>(), 6.0);
    // The full timeline of p=3.
    let p3: Vec<_> = tr
        .lane_intervals(procs[2])
        .map(|i| (i.start, i.end, i.label.as_str(), i.kind))
        .collect();
    use trace::Kind::{Busy, Wait};
    assert_eq!(
        p3,
        [
            (0.0, 1.0, "delay", Busy),
            (1.0, 3.0, "wait s", Wait),
            (3.0, 4.0, "s", Busy),
            (4.0, 5.0, "delay", Busy),
            (5.0, 6.0, "wait s", Wait),
            (6.0, 7.0, "s", Busy),
        ]
    );
    // The server lane: one interval per service, labelled with the client.
    let server: Vec<_> = tr
        .lane_intervals(0)
        .map(|i| (i.start, i.end, i.label.as_str()))
        .collect();
    assert_eq!(
        server,
        [
            (1.0, 2.0, "A: main p=1"),
            (2.0, 3.0, "B: main p=2"),
            (3.0, 4.0, "C: main p=3"),
            (4.0, 5.0, "A: main p=1"),
            (5.0, 6.0, "B: main p=2"),
            (6.0, 7.0, "C: main p=3"),
        ]
    );
    for &l in &procs {
        let mut ivs: Vec<_> = tr.lane_intervals(l).collect();
        ivs.sort_by(|a, b| a.start.total_cmp(&b.start));
        // No overlap on one lane.
        for w in ivs.windows(2) {
            assert!(w[0].end <= w[1].start, "{:?} overlaps {:?}", w[0], w[1]);
        }
        // Every wait ends where the service of the waited-for member starts.
        for (k, iv) in ivs.iter().enumerate() {
            if iv.kind == Wait {
                assert!(iv.duration() > 0.0);
                let member = iv.label.strip_prefix("wait ").expect("wait label");
                let next = ivs[k + 1];
                assert_eq!(
                    (next.start, next.label.as_str(), next.kind),
                    (iv.end, member, Busy)
                );
            }
        }
    }
}

#[test]
fn trace_process_lane_names_are_unique_and_cover_calls_and_families() {
    // The root acts (so it has a lane), a plain `par` names both branches like the parent,
    // and a process called inside a `par` loop is named after the loop's process.
    let text = "resource cpu[2]; resource io: inf;
        work(k) = par j in 0..=1 use(cpu[j], k);
        main = delay(1); { delay(2) || use(io, 1) }; par q in 1..=2 work(q);";
    let (r, tr) = traced(text, &[]);
    // 0-1 main; 1-3 the two branches; then q=1: j=0,1 use 1 each; q=2: 2 each, queued.
    assert_eq!(r.time, 3.0 + 3.0);
    tr.validate().unwrap();
    let names: Vec<_> = tr.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "cpu[0]",
            "cpu[1]",
            "io#0",
            "main",
            "main#2",
            "main#3",
            "work k=1 j=0",
            "work k=1 j=1",
            "work k=2 j=0",
            "work k=2 j=1",
        ]
    );
    let ivs = |l: usize| -> Vec<(f64, f64, String)> {
        tr.lane_intervals(l)
            .map(|i| (i.start, i.end, i.label.clone()))
            .collect()
    };
    assert_eq!(ivs(3), [(0.0, 1.0, "delay".to_string())]);
    assert_eq!(ivs(4), [(1.0, 3.0, "delay".to_string())]);
    assert_eq!(ivs(5), [(1.0, 2.0, "io".to_string())]);
    assert_eq!(
        ivs(8),
        [
            (3.0, 4.0, "wait cpu[0]".to_string()),
            (4.0, 6.0, "cpu[0]".to_string())
        ]
    );
    assert_eq!(
        ivs(0),
        [
            (3.0, 4.0, "D: work k=1 j=0".to_string()),
            (4.0, 6.0, "F: work k=2 j=0".to_string())
        ]
    );
}

#[test]
fn trace_process_lanes_are_capped() {
    let text = "param P: int >= 1; resource s;
        main = par p in 1..=P { delay(1); use(s, 1) };";
    let (r, tr) = traced(text, &[("P", 20_000)]);
    assert_eq!(r.time, 20_001.0);
    tr.validate().unwrap();
    let procs = process_lanes(&tr);
    assert_eq!(pamela::sim::MAX_PROCESS_LANES, 10_000);
    assert_eq!(procs.len(), 10_000);
    assert_eq!(tr.lanes.len(), 1 + 10_000);
    assert_eq!(tr.lanes[procs[0]].name, "main p=1");
    assert_eq!(tr.lanes[procs[9_999]].name, "main p=10000");
    // Every service is on the server lane; the first 10000 processes also have their delay,
    // service and (all but p=1) wait on their own lane.
    assert_eq!(tr.intervals.len(), 20_000 + 10_000 * 2 + 9_999);
    let last = tr.lane_intervals(0).last().unwrap();
    assert_eq!(
        (last.start, last.end, last.label.as_str()),
        (20_000.0, 20_001.0, "main p=20000")
    );
    let p10000: Vec<_> = tr
        .lane_intervals(procs[9_999])
        .map(|i| (i.start, i.end, i.label.as_str()))
        .collect();
    assert_eq!(
        p10000,
        [
            (0.0, 1.0, "delay"),
            (1.0, 10_000.0, "wait s"),
            (10_000.0, 10_001.0, "s")
        ]
    );
}
