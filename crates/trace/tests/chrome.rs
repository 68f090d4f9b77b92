//! Chrome Trace Event JSON: parses back, has one event per interval plus metadata, and
//! carries names, categories and microsecond times.

use std::io::{self, Write};

use serde_json::Value;
use trace::{chrome, Kind, Trace};

/// A task-graph-like schedule on `p` processors plus one resource lane.
fn schedule(p: usize, tasks: usize) -> Trace {
    let mut t = Trace::new("schedule");
    let lanes: Vec<_> = (0..p)
        .map(|i| t.add_lane(format!("P{i}"), "processors"))
        .collect();
    let bus = t.add_lane("bus", "resources");
    let mut clock = vec![0.0; p];
    for k in 0..tasks {
        let lane = k % p;
        let d = 1.0 + (k % 3) as f64 * 0.25;
        t.push(
            lanes[lane],
            clock[lane],
            clock[lane] + d,
            format!("task {k}"),
            Kind::Busy,
        );
        t.push(
            bus,
            clock[lane],
            clock[lane] + 0.5,
            format!("xfer {k}"),
            Kind::Overhead,
        );
        clock[lane] += d;
    }
    t
}

fn parse(json: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(json).expect("valid JSON");
    assert_eq!(v["displayTimeUnit"], "ms");
    v["traceEvents"].as_array().expect("traceEvents").clone()
}

#[test]
fn event_counts_names_and_times() {
    let t = schedule(4, 100);
    let events = parse(&chrome::to_string(&t, 1e6));
    // 2 groups x 2 + 5 lanes x 2 metadata events, and one X event per interval.
    let metadata = events.iter().filter(|e| e["ph"] == "M").count();
    let complete: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    assert_eq!(metadata, 2 * 2 + 5 * 2);
    assert_eq!(complete.len(), 200);
    assert_eq!(events.len(), metadata + complete.len());

    for (e, iv) in complete.iter().zip(&t.intervals) {
        assert_eq!(e["name"], iv.label.as_str());
        assert_eq!(e["cat"], iv.kind.as_str());
        assert_eq!(e["ts"].as_f64(), Some(iv.start * 1e6));
        assert_eq!(e["dur"].as_f64(), Some((iv.end - iv.start) * 1e6));
        assert_eq!(e["tid"].as_u64(), Some(iv.lane as u64 + 1));
        let pid = if iv.lane < 4 { 1 } else { 2 };
        assert_eq!(e["pid"].as_u64(), Some(pid));
    }

    let thread_names: Vec<(u64, &str)> = events
        .iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| {
            (
                e["tid"].as_u64().unwrap(),
                e["args"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        thread_names,
        vec![(1, "P0"), (2, "P1"), (3, "P2"), (4, "P3"), (5, "bus")]
    );
}

#[test]
fn streaming_write_equals_to_string() {
    let t = schedule(3, 50);
    let mut out = Vec::new();
    chrome::write(&t, 1.0, &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), chrome::to_string(&t, 1.0));
}

#[test]
fn special_characters_survive_the_round_trip() {
    let mut t = Trace::new("π \"quoted\" \\ name");
    let l = t.add_lane("lane\twith\ttabs", "group/ü");
    t.push(l, 0.0, 1.0, "label \u{1} <&> \"x\"", Kind::Wait);
    let events = parse(&chrome::to_string(&t, 1.0));
    let x = events.iter().find(|e| e["ph"] == "X").unwrap();
    assert_eq!(x["name"], "label \u{1} <&> \"x\"");
    assert_eq!(x["cat"], "wait");
    assert!(events
        .iter()
        .any(|e| e["name"] == "process_name" && e["args"]["name"] == "group/ü"));
}

/// A writer that fails after `budget` bytes.
struct Failing {
    budget: usize,
}

impl Write for Failing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.len() > self.budget {
            return Err(io::Error::other("disk full"));
        }
        self.budget -= buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn writer_errors_are_passed_on() {
    let t = schedule(2, 10_000);
    let err = chrome::write(&t, 1.0, Failing { budget: 100_000 }).unwrap_err();
    assert_eq!(err.to_string(), "disk full");
}
