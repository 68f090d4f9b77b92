//! Machine profiles without a probe: the lookups the engine uses on known tables, and every
//! class of bad profile text.

use probe::{
    Bandwidth, BandwidthPoint, Machine, Memory, Options, Profile, ProfileError, Rate, RayonJoin,
    SizePoint, Stat, SysCache, ThreadPoint,
};

/// A measurement whose every repetition took `s` seconds.
fn stat(s: f64) -> Stat {
    Stat {
        median_s: s,
        min_s: s * 0.9,
        max_s: s * 1.2,
        repetitions: 5,
        ops_per_repetition: 100,
    }
}

fn threads(points: &[(usize, f64)]) -> Vec<ThreadPoint> {
    points
        .iter()
        .map(|&(threads, s)| ThreadPoint {
            threads,
            time: stat(s),
        })
        .collect()
}

fn sizes(points: &[(u64, f64)]) -> Vec<SizePoint> {
    points
        .iter()
        .map(|&(bytes, s)| SizePoint {
            bytes,
            time: stat(s),
        })
        .collect()
}

/// A profile with round numbers.
fn known() -> Profile {
    let latency = sizes(&[
        (4 << 10, 1e-9),
        (32 << 10, 1e-9),
        (64 << 10, 4e-9),
        (1 << 20, 4e-9),
        (2 << 20, 16e-9),
        (64 << 20, 100e-9),
    ]);
    Profile {
        format: probe::FORMAT.into(),
        version: probe::VERSION,
        created_unix_s: 1_700_000_000,
        machine: Machine {
            cpu_model: Some("Test CPU".into()),
            cpu_mhz: Some(2500.5),
            cores: 4,
            arch: "x86_64".into(),
            os: "linux".into(),
            caches: vec![SysCache {
                level: 1,
                kind: "Data".into(),
                size_bytes: 32 << 10,
            }],
        },
        settings: Options::new(false),
        timer: stat(20e-9),
        barrier: threads(&[(1, 100e-9), (2, 1e-6), (4, 2e-6), (8, 4e-6)]),
        lock: stat(5e-9),
        atomic: stat(2.5e-9),
        fork_join: threads(&[(1, 40e-6), (2, 80e-6), (4, 160e-6)]),
        rayon_join: RayonJoin {
            threads: 4,
            time: stat(18e-9),
        },
        channel: sizes(&[(8, 5e-6), (512, 6e-6), (1 << 20, 30e-6)]),
        memory: Memory {
            boundaries: probe::cache_boundaries(&latency, 1.5),
            latency,
        },
        bandwidth: Bandwidth {
            array_bytes: 128 << 20,
            points: vec![
                BandwidthPoint {
                    threads: 1,
                    rate: Rate {
                        median_bytes_per_s: 10e9,
                        min_bytes_per_s: 9e9,
                        max_bytes_per_s: 11e9,
                        repetitions: 5,
                        passes_per_repetition: 1,
                    },
                },
                BandwidthPoint {
                    threads: 2,
                    rate: Rate {
                        median_bytes_per_s: 18e9,
                        min_bytes_per_s: 17e9,
                        max_bytes_per_s: 19e9,
                        repetitions: 5,
                        passes_per_repetition: 1,
                    },
                },
            ],
        },
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1e-300)
}

#[test]
fn the_known_profile_is_valid_and_round_trips() {
    let p = known();
    p.validate().expect("valid");
    let text = p.to_json();
    assert!(text.contains("\"format\": \"vates-machine-profile\""));
    assert!(text.contains("\"median_s\""));
    assert_eq!(Profile::from_json(&text).expect("reads"), p);
}

#[test]
fn barrier_costs_interpolate_in_log2_of_the_thread_count() {
    let p = known();
    assert_eq!(p.barrier_s(2), 1e-6);
    // 3 threads: log2 3 = 1.585 of the way from 2 (1 µs) to 4 (2 µs).
    assert!(close(p.barrier_s(3), 1e-6 + (3f64.log2() - 1.0) * 1e-6));
    // Below the first count: flat; above the last: the last segment continued in log2.
    assert_eq!(p.barrier_s(0), 100e-9);
    assert!(close(p.barrier_s(16), 6e-6));
    assert!(close(p.barrier_s(64), 10e-6));
}

#[test]
fn fork_join_costs_grow_linearly_beyond_the_largest_count() {
    let p = known();
    assert_eq!(p.fork_join_s(2), 80e-6);
    assert!(close(p.fork_join_s(3), 80e-6 + (3f64.log2() - 1.0) * 80e-6));
    assert!(close(p.fork_join_s(8), 320e-6));
    assert_eq!(p.fork_join_s(1), 40e-6);
}

#[test]
fn single_event_costs_are_the_medians() {
    let p = known();
    assert_eq!(p.lock_s(), 5e-9);
    assert_eq!(p.atomic_s(), 2.5e-9);
    assert_eq!(p.rayon_join_s(), 18e-9);
}

#[test]
fn message_latency_interpolates_in_log_bytes_and_grows_by_size_beyond() {
    let p = known();
    assert_eq!(p.channel_latency_s(1), 5e-6);
    assert_eq!(p.channel_latency_s(512), 6e-6);
    // 64 bytes: log2 is 6, half way from 8 (3) to 512 (9).
    assert!(close(p.channel_latency_s(64), 5.5e-6));
    // Above 1 MiB: the last segment's cost per byte.
    let per_byte = (30e-6 - 6e-6) / ((1u64 << 20) - 512) as f64;
    let at_2m = 30e-6 + per_byte * (1u64 << 20) as f64;
    assert!(close(p.channel_latency_s(2 << 20), at_2m));
}

#[test]
fn memory_latency_is_flat_beyond_the_table_and_levels_follow_the_boundaries() {
    let p = known();
    let b: Vec<(usize, u64, u64)> = p
        .memory
        .boundaries
        .iter()
        .map(|b| (b.level, b.fits_bytes, b.jump_bytes))
        .collect();
    assert_eq!(b, [(1, 32 << 10, 64 << 10), (2, 1 << 20, 2 << 20)]);
    assert_eq!(
        p.memory.boundaries[1].after_s, 100e-9,
        "a ramp over two doublings"
    );
    assert_eq!(p.memory_latency_s(1), 1e-9);
    assert_eq!(p.memory_latency_s(1 << 40), 100e-9);
    assert!(close(p.memory_latency_s(128 << 10), 4e-9));
    assert_eq!(p.cache_level(32 << 10), 1);
    assert_eq!(p.cache_level((32 << 10) + 1), 2);
    assert_eq!(p.cache_level(1 << 20), 2);
    assert_eq!(p.cache_level(8 << 20), 3);
    assert_eq!(p.bandwidth_bytes_per_s(2), 18e9);
    assert_eq!(p.bandwidth_bytes_per_s(16), 18e9);
    // By the reported sizes: the one data cache of 32 KiB, then main memory; instruction
    // caches do not count, and without reported caches there is no placing.
    assert_eq!(p.reported_cache_level(32 << 10), Some(1));
    assert_eq!(p.reported_cache_level((32 << 10) + 1), Some(2));
    let mut q = p.clone();
    q.machine.caches.push(SysCache {
        level: 2,
        kind: "Instruction".into(),
        size_bytes: 1 << 30,
    });
    q.machine.caches.push(SysCache {
        level: 3,
        kind: "Unified".into(),
        size_bytes: 32 << 20,
    });
    assert_eq!(q.reported_cache_level(1 << 20), Some(3));
    assert_eq!(q.reported_cache_level(33 << 20), Some(4));
    q.machine.caches.clear();
    assert_eq!(q.reported_cache_level(1), None);
}

/// The known profile's JSON with `edit` applied to its value.
fn edited(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&known().to_json()).expect("JSON");
    edit(&mut v);
    serde_json::to_string_pretty(&v).expect("JSON")
}

#[test]
fn text_that_is_not_json_is_located() {
    let e = Profile::from_json("{\n  \"format\": \"vates-machine-profile\",\n  oops\n}")
        .expect_err("not JSON");
    let ProfileError::Json { line, column, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!((line, column), (3, 3));
    assert!(e.to_string().contains("line 3, column 3"), "{e}");
}

#[test]
fn another_format_is_refused() {
    let e = Profile::from_json(&edited(|v| v["format"] = "chrome-trace".into()))
        .expect_err("other format");
    assert!(matches!(e, ProfileError::Format { .. }), "{e:?}");
    assert!(e.to_string().contains("chrome-trace"), "{e}");
    let e = Profile::from_json("[1, 2]").expect_err("not an object");
    assert!(matches!(e, ProfileError::Format { .. }), "{e:?}");
}

#[test]
fn another_version_says_to_probe_again() {
    let e = Profile::from_json(&edited(|v| v["version"] = 2.into())).expect_err("version 2");
    assert_eq!(
        e,
        ProfileError::Version {
            found: "2".into(),
            expected: 1
        }
    );
    assert!(e.to_string().contains("run `vates probe` again"), "{e}");
}

#[test]
fn missing_and_mistyped_fields_are_named() {
    let e = Profile::from_json(&edited(|v| {
        v.as_object_mut().expect("object").remove("lock");
    }))
    .expect_err("no lock");
    assert!(matches!(e, ProfileError::Field { .. }), "{e:?}");
    assert!(e.to_string().contains("missing field `lock`"), "{e}");
    let e = Profile::from_json(&edited(|v| {
        v["barrier"][0]["time"]["median_s"] = "fast".into()
    }))
    .expect_err("a string");
    assert!(matches!(e, ProfileError::Field { .. }), "{e:?}");
    assert!(e.to_string().contains("invalid type"), "{e}");
}

#[test]
fn negative_values_are_refused_with_their_place() {
    let e = Profile::from_json(&edited(|v| {
        v["channel"][1]["time"]["min_s"] = (-1.0).into()
    }))
    .expect_err("negative");
    assert_eq!(
        e,
        ProfileError::Value {
            path: "channel[1].time.min_s".into(),
            value: "-1.0".into()
        }
    );
    let e = Profile::from_json(&edited(|v| v["machine"]["cores"] = (-2).into()))
        .expect_err("negative count");
    assert!(matches!(e, ProfileError::Value { ref path, .. } if path == "machine.cores"));
}

#[test]
fn numbers_that_are_not_finite_are_refused() {
    let text = known()
        .to_json()
        .replacen("\"median_s\": 2e-8", "\"median_s\": 1e999", 1);
    assert!(text.contains("1e999"), "the timer's median is in the text");
    let e = Profile::from_json(&text).expect_err("infinite");
    assert!(matches!(e, ProfileError::NotFinite { .. }), "{e:?}");
    let mut p = known();
    p.lock.median_s = f64::NAN;
    assert!(
        matches!(p.validate(), Err(ProfileError::Value { ref path, .. }) if path == "lock.median_s")
    );
}

#[test]
fn contradictory_values_are_refused() {
    let e = Profile::from_json(&edited(|v| v["atomic"]["min_s"] = 1.0.into()))
        .expect_err("min above median");
    assert!(
        matches!(e, ProfileError::Inconsistent { ref path, .. } if path == "atomic"),
        "{e:?}"
    );
    let e = Profile::from_json(&edited(|v| v["barrier"] = serde_json::json!([])))
        .expect_err("empty table");
    assert!(
        matches!(e, ProfileError::Inconsistent { ref path, .. } if path == "barrier"),
        "{e:?}"
    );
    let e = Profile::from_json(&edited(|v| {
        v["channel"][2]["bytes"] = 8.into();
    }))
    .expect_err("unsorted");
    assert!(
        matches!(e, ProfileError::Inconsistent { ref path, .. } if path == "channel"),
        "{e:?}"
    );
}
