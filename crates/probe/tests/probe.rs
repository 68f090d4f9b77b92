//! A tiny probe of this host (about a second): every value finite and positive, the memory
//! hierarchy visible, barriers among more threads no cheaper than among one, the profile's
//! JSON round-trip, the progress reports and the stop reasons.

use std::sync::OnceLock;

use probe::{Options, ProbeError, Profile};
use serde_json::Value;

/// A configuration that measures every table with few, short repetitions.
fn tiny() -> Options {
    let mut o = Options::new(true);
    o.cores = 2;
    o.max_threads = 4;
    o.repetitions = 5;
    o.repetition_s = 1e-3;
    o.min_message_bytes = 8;
    o.max_message_bytes = 4096;
    o.message_step = 8;
    o.min_chase_bytes = 16 << 10;
    o.max_chase_bytes = 16 << 20;
    o.bandwidth_bytes = Some(8 << 20);
    o
}

/// The progress reports of a probe: (points done, points in all, what comes next).
type Reports = Vec<(usize, usize, String)>;

/// The tiny probe, run once for all tests of this file, with its progress reports.
fn probed() -> &'static (Profile, Reports) {
    static PROFILE: OnceLock<(Profile, Reports)> = OnceLock::new();
    PROFILE.get_or_init(|| {
        let mut reports = Vec::new();
        let profile = probe::run(&tiny(), &mut |done, total, what| {
            reports.push((done, total, what.to_string()))
        })
        .expect("the tiny probe runs");
        (profile, reports)
    })
}

/// Every number of a JSON value with its path.
fn numbers(v: &Value, path: String, out: &mut Vec<(String, f64)>) {
    match v {
        Value::Number(n) => out.push((path, n.as_f64().expect("a number"))),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                numbers(x, format!("{path}[{i}]"), out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                numbers(x, format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_value_is_finite_and_positive() {
    let (p, _) = probed();
    p.validate().expect("the profile is consistent");
    let value: Value = serde_json::from_str(&p.to_json()).expect("JSON");
    let mut all = Vec::new();
    numbers(&value, String::new(), &mut all);
    assert!(all.len() > 100, "{} numbers", all.len());
    for (path, x) in all {
        assert!(x.is_finite() && x > 0.0, "{path} = {x}");
    }
}

#[test]
fn every_table_has_the_points_asked_for() {
    let (p, _) = probed();
    let threads: Vec<usize> = p.barrier.iter().map(|t| t.threads).collect();
    assert_eq!(threads, [1, 2, 4]);
    let forks: Vec<usize> = p.fork_join.iter().map(|t| t.threads).collect();
    assert_eq!(forks, [1, 2, 4]);
    let sizes: Vec<u64> = p.channel.iter().map(|c| c.bytes).collect();
    assert_eq!(sizes, [8, 64, 512, 4096]);
    assert_eq!(p.memory.latency.len(), 11, "16 KiB … 16 MiB");
    assert_eq!(p.bandwidth.points.len(), 2);
    assert_eq!(p.bandwidth.array_bytes, 8 << 20);
    assert_eq!(p.rayon_join.threads, 2);
    assert!(p.settings.quick);
    assert_eq!(
        (p.format.as_str(), p.version),
        (probe::FORMAT, probe::VERSION)
    );
    assert!(p.barrier.iter().all(|t| t.time.repetitions == 5));
}

#[test]
fn chasing_pointers_through_a_large_set_is_slower_than_through_a_small_one() {
    let (p, _) = probed();
    let small = &p.memory.latency[0];
    let large = p.memory.latency.last().expect("points");
    assert_eq!((small.bytes, large.bytes), (16 << 10, 16 << 20));
    assert!(
        large.time.median_s > small.time.median_s,
        "16 KiB: {} s, 16 MiB: {} s",
        small.time.median_s,
        large.time.median_s
    );
    assert!(p.memory_latency_s(16 << 20) > p.memory_latency_s(16 << 10));
    assert!(p.cache_level(16 << 20) >= p.cache_level(16 << 10));
}

#[test]
fn a_barrier_among_more_threads_costs_no_less_than_among_one() {
    // Among one thread a barrier is a lock and an unlock; among several, at least one
    // thread sleeps and is woken: tens of times dearer, far beyond the noise of a median.
    let (p, _) = probed();
    let one = p.barrier[0].time.median_s;
    for t in &p.barrier[1..] {
        assert!(
            t.time.median_s >= one,
            "{} threads: {} s < 1 thread: {one} s",
            t.threads,
            t.time.median_s
        );
    }
    assert!(p.barrier_s(4) >= p.barrier_s(1));
}

#[test]
fn the_profile_round_trips_through_json_exactly() {
    let (p, _) = probed();
    let text = p.to_json();
    let back = Profile::from_json(&text).expect("reads back");
    assert_eq!(&back, p);
    assert_eq!(back.to_json(), text);
}

#[test]
fn progress_counts_every_point_up_to_the_total() {
    let (_, reports) = probed();
    let total = reports[0].1;
    // clock, lock, atomic, rayon::join; 3 barrier and 3 fork/join counts; 4 messages; 11
    // working sets; 2 bandwidth counts.
    assert_eq!(total, 4 + 3 + 3 + 4 + 11 + 2);
    assert_eq!(reports.len(), total + 1);
    for (k, (done, t, _)) in reports.iter().enumerate() {
        assert_eq!((*done, *t), (k, total));
    }
    assert!(reports.iter().any(|r| r.2 == "barrier, 4 threads"));
    assert_eq!(reports.last().map(|r| r.2.as_str()), Some("done"));
}

#[test]
fn one_core_is_a_stop_reason_not_a_panic() {
    let mut o = tiny();
    o.cores = 1;
    let e = probe::run(&o, &mut |_, _, _| {}).expect_err("needs two cores");
    assert_eq!(
        e,
        ProbeError::TooFewCores {
            cores: 1,
            needed: 2
        }
    );
    assert!(e.to_string().contains("1 core"), "{e}");
}

#[test]
fn invalid_settings_are_a_stop_reason() {
    let mut o = tiny();
    o.max_threads = 0;
    let e = probe::run(&o, &mut |_, _, _| {}).expect_err("no threads");
    assert!(matches!(e, ProbeError::Options { .. }), "{e:?}");
    let mut o = tiny();
    o.min_chase_bytes = 3000;
    assert!(matches!(o.check(), Err(ProbeError::Options { .. })));
    let mut o = tiny();
    o.repetition_s = f64::NAN;
    assert!(matches!(o.check(), Err(ProbeError::Options { .. })));
}

#[test]
fn the_text_names_every_measurement() {
    let (p, _) = probed();
    let text = probe::profile_text(p);
    for what in [
        "clock read",
        "Mutex",
        "fetch_add",
        "rayon::join",
        "barrier",
        "fork and join",
        "message",
        "load latency",
        "cache boundaries",
        "bandwidth",
        "GB/s",
    ] {
        assert!(text.contains(what), "no `{what}` in\n{text}");
    }
}

/// The bandwidth array is four times the last cache, at least 64 MiB, and at most the
/// options' limit: 256 MiB in a quick probe, 1 GiB in a full one (a host reporting a
/// 480 MiB last cache allocated 1.9 GiB before); the quick probe measures bandwidth at
/// 1, 2, 4, … threads and the core count, not at every count.
#[test]
fn the_bandwidth_array_and_threads_are_capped() {
    use probe::{bandwidth_array_bytes, FULL_MAX_ARRAY, QUICK_MAX_ARRAY};
    let mut quick = Options::new(true);
    let full = Options::new(false);
    assert_eq!(quick.max_bandwidth_bytes, QUICK_MAX_ARRAY);
    assert_eq!(QUICK_MAX_ARRAY, 256 << 20);
    assert_eq!(full.max_bandwidth_bytes, FULL_MAX_ARRAY);
    assert_eq!(FULL_MAX_ARRAY, 1 << 30);
    let llc = 480u64 << 20;
    assert_eq!(bandwidth_array_bytes(&quick, Some(llc)), 256 << 20);
    assert_eq!(bandwidth_array_bytes(&full, Some(llc)), 1 << 30);
    assert_eq!(bandwidth_array_bytes(&quick, Some(32 << 20)), 128 << 20);
    assert_eq!(bandwidth_array_bytes(&quick, Some(4 << 20)), 64 << 20);
    assert_eq!(bandwidth_array_bytes(&quick, Some(u64::MAX)), 256 << 20);
    quick.bandwidth_bytes = Some(8 << 20);
    assert_eq!(
        bandwidth_array_bytes(&quick, Some(llc)),
        8 << 20,
        "an explicit size"
    );
    quick.bandwidth_bytes = None;
    quick.cores = 64;
    assert_eq!(quick.bandwidth_threads(), [1, 2, 4, 8, 16, 32, 64]);
    quick.cores = 6;
    assert_eq!(quick.bandwidth_threads(), [1, 2, 4, 6]);
    let mut f = full.clone();
    f.cores = 3;
    assert_eq!(f.bandwidth_threads(), [1, 2, 3]);
    quick.max_bandwidth_bytes = 100;
    assert!(matches!(quick.check(), Err(ProbeError::Options { .. })));
}
