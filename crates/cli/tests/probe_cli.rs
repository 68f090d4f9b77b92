//! End-to-end tests of `vates probe`: the quick probe writes a profile that reads back, the
//! text names every measurement, the JSON output is the profile, and a thread count of 0 is
//! a usage error.

use std::sync::Mutex;
use std::time::{Duration, Instant};

mod common;
use common::{fails, stdout, tempdir};

/// Probes run one at a time: two at once on a small host would measure each other.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The quick probe must finish in this time (10 s on an idle 2-core host; the margin is for
/// the other test binaries cargo may run beside this one).
const QUICK_LIMIT: Duration = Duration::from_secs(30);

#[test]
fn quick_probe_writes_a_profile_that_reads_back() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempdir("probe");
    let file = dir.join("machine.json");
    // `-o` over an existing, longer file leaves exactly the new profile (the file is opened
    // before the probe without truncating, and emptied when the profile is written).
    std::fs::write(&file, "x".repeat(1 << 20)).expect("write");
    let path = file.display().to_string();
    let start = Instant::now();
    let text = stdout(&["probe", "--quick", "-o", &path]);
    assert!(
        text.contains(&format!("profile written to {path}")),
        "{text}"
    );
    let took = start.elapsed();
    eprintln!("vates probe --quick took {took:?}");
    assert!(took < QUICK_LIMIT, "vates probe --quick took {took:?}");
    let profile = probe::Profile::from_json(&std::fs::read_to_string(&file).expect("written"))
        .expect("the profile reads back");
    assert!(profile.settings.quick);
    assert!(profile.barrier_s(2) > 0.0);
    for what in [
        "barrier episode",
        "fork and join",
        "lock + unlock",
        "atomic fetch_add",
        "rayon::join",
        "message, one way",
        "load latency",
        "cache boundaries",
        "memory read bandwidth",
        "GB/s",
        "quick probe",
    ] {
        assert!(text.contains(what), "no `{what}` in\n{text}");
    }
    assert!(
        text.contains(&format!("profile written to {path}")),
        "{text}"
    );
}

#[test]
fn json_output_is_the_profile() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // The bandwidth array's limit is a flag: the table reads an array of at most that size
    // and the profile keeps the limit.
    let out = stdout(&[
        "probe",
        "--quick",
        "--max-threads",
        "2",
        "--max-array-mib",
        "16",
        "--format",
        "json",
    ]);
    // One pretty document (the grammar of every command's --format json).
    assert!(out.starts_with("{\n  \""), "{}", &out[..out.len().min(80)]);
    let value: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
    assert_eq!(value["format"], "vates-machine-profile");
    for k in [
        "version",
        "machine",
        "barrier",
        "lock",
        "memory",
        "bandwidth",
    ] {
        assert!(value.get(k).is_some(), "no `{k}`");
    }
    assert_eq!(value["settings"]["max_threads"], 2);
    let profile = probe::Profile::from_json(&out).expect("a profile");
    let threads: Vec<usize> = profile.barrier.iter().map(|p| p.threads).collect();
    assert_eq!(threads.last(), Some(&2), "{threads:?}");
    assert_eq!(profile.settings.max_bandwidth_bytes, 16 << 20);
    assert_eq!(profile.bandwidth.array_bytes, 16 << 20);
    let err = fails(&["probe", "--max-array-mib", "0"], 2);
    assert!(err.contains("--max-array-mib"), "{err}");
}

#[test]
fn zero_threads_is_a_usage_error() {
    let err = fails(&["probe", "--max-threads", "0"], 2);
    assert!(err.contains("--max-threads"), "{err}");
    assert!(err.contains("0 is not in 1..=1024"), "{err}");
}

#[test]
fn an_output_in_a_missing_directory_fails_before_probing() {
    let start = Instant::now();
    let err = fails(&["probe", "--quick", "-o", "/nonexistent-dir/m.json"], 1);
    assert!(err.contains("cannot write"), "{err}");
    assert!(start.elapsed() < Duration::from_secs(5), "it probed first");
}

/// An output path whose directory exists but where no file can be created (`/proc`) fails
/// before the probe runs, not after its seconds; an existing file is kept as it was.
#[test]
fn an_unwritable_output_fails_before_probing() {
    let start = Instant::now();
    let err = fails(&["probe", "--quick", "-o", "/proc/x.json"], 1);
    assert!(err.contains("cannot write `/proc/x.json`"), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "it probed first: {:?}",
        start.elapsed()
    );
}
