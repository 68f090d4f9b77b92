//! Export to the Chrome Trace Event JSON format, which Perfetto (<https://ui.perfetto.dev>)
//! and `chrome://tracing` open.
//!
//! The output is one JSON object:
//!
//! ```text
//! {"traceEvents":[ ...metadata events..., ...complete events... ],
//!  "displayTimeUnit":"ms","otherData":{"name":"<trace name>"}}
//! ```
//!
//! * Each lane group becomes a process (`pid` = 1 + index of the group in
//!   [`Trace::groups`]), each lane a thread (`tid` = 1 + lane id), named with `"M"` metadata
//!   events `process_name` / `thread_name`, and ordered like the trace with
//!   `process_sort_index` / `thread_sort_index`.
//! * Each interval becomes a complete event `{"name":label,"cat":kind,"ph":"X","ts":..,
//!   "dur":..,"pid":..,"tid":..}`, with `ts` and `dur` in microseconds: model time multiplied
//!   by `time_scale_us` (so `time_scale_us = 1e6` shows model seconds as seconds).
//!
//! The JSON is streamed event by event, so memory stays flat for traces with millions of
//! intervals. Perfetto expects the complete events of one thread to nest; intervals that
//! overlap on a lane without nesting are still written, but may be misdrawn or dropped by the
//! viewer.
//!
//! ```
//! use trace::{chrome, Kind, Trace};
//!
//! let mut t = Trace::new("demo");
//! let p = t.add_lane("P0", "processors");
//! t.push(p, 1.0, 3.0, "task 1", Kind::Busy);
//! let json = chrome::to_string(&t, 1000.0);
//! let v: serde_json::Value = serde_json::from_str(&json).unwrap();
//! let events = v["traceEvents"].as_array().unwrap();
//! let x = events.iter().find(|e| e["ph"] == "X").unwrap();
//! assert_eq!(x["name"], "task 1");
//! assert_eq!(x["ts"], 1000.0);
//! assert_eq!(x["dur"], 2000.0);
//! ```

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};

use crate::timeline::check_interval;
use crate::{Trace, TraceError};

/// Writes `t` as Chrome Trace Event JSON to `w`, with times multiplied by `time_scale_us` to
/// get microseconds.
///
/// The trace is checked first with [`Trace::validate`], and `time_scale_us` must be finite
/// and positive; otherwise nothing is written and the error is an
/// [`io::ErrorKind::InvalidInput`] wrapping the [`TraceError`]. The writer is buffered
/// internally and flushed at the end.
pub fn write<W: Write>(t: &Trace, time_scale_us: f64, w: W) -> io::Result<()> {
    let invalid = |e: TraceError| io::Error::new(io::ErrorKind::InvalidInput, e);
    check_scale(time_scale_us).map_err(invalid)?;
    t.validate().map_err(invalid)?;
    check_scaled(t, time_scale_us).map_err(invalid)?;
    let mut w = BufWriter::new(w);
    write_json(t, time_scale_us, &mut w)?;
    w.flush()
}

/// The Chrome Trace Event JSON of `t` as bytes, as [`write()`] writes them.
///
/// # Errors
/// The [`TraceError`] of [`write()`]: a `time_scale_us` that is not finite and positive or
/// that makes a time overflow ([`TraceError::InvalidOption`]), an invalid trace.
pub fn to_bytes(t: &Trace, time_scale_us: f64) -> Result<Vec<u8>, TraceError> {
    check_scale(time_scale_us)?;
    t.validate()?;
    check_scaled(t, time_scale_us)?;
    let mut buf = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write_json(t, time_scale_us, &mut buf);
    Ok(buf)
}

/// The Chrome Trace Event JSON of `t` as a string (see [`write()`]).
///
/// Unlike [`write()`] this cannot fail: intervals that [`Trace::validate`] rejects are left
/// out, and a `time_scale_us` that is not finite and positive is replaced by 1.
pub fn to_string(t: &Trace, time_scale_us: f64) -> String {
    let scale = if check_scale(time_scale_us).is_ok() && check_scaled(t, time_scale_us).is_ok() {
        time_scale_us
    } else {
        1.0
    };
    let mut buf = Vec::new();
    // Writing to a Vec cannot fail, and serde_json only emits UTF-8.
    if write_json(t, scale, &mut buf).is_err() {
        return String::new();
    }
    String::from_utf8(buf).unwrap_or_default()
}

fn check_scale(time_scale_us: f64) -> Result<(), TraceError> {
    if time_scale_us.is_finite() && time_scale_us > 0.0 {
        Ok(())
    } else {
        Err(TraceError::InvalidOption {
            option: "time_scale_us",
            reason: format!("{time_scale_us} is not a finite positive number"),
        })
    }
}

/// Every scaled start, end and duration must be finite: `1e308` µs per unit would write
/// `null` times otherwise.
fn check_scaled(t: &Trace, time_scale_us: f64) -> Result<(), TraceError> {
    let bad = t.intervals.iter().position(|iv| {
        !((iv.start * time_scale_us).is_finite()
            && (iv.end * time_scale_us).is_finite()
            && (iv.duration() * time_scale_us).is_finite())
    });
    match bad {
        None => Ok(()),
        Some(i) => {
            let iv = &t.intervals[i];
            Err(TraceError::InvalidOption {
                option: "time_scale_us",
                reason: format!(
                    "{time_scale_us} µs per time unit overflows interval {i} (`{}` on lane `{}`, \
                     {} to {}): its time in µs is not a finite number",
                    iv.label,
                    t.lanes.get(iv.lane).map_or("?", |l| l.name.as_str()),
                    iv.start,
                    iv.end
                ),
            })
        }
    }
}

/// Writes a JSON value (string or number) with serde_json's escaping/formatting.
fn json<W: Write, T: serde::Serialize + ?Sized>(w: &mut W, v: &T) -> io::Result<()> {
    serde_json::to_writer(w, v).map_err(io::Error::from)
}

/// Writes the document; intervals that fail validation are skipped.
fn write_json<W: Write>(t: &Trace, scale: f64, w: &mut W) -> io::Result<()> {
    let groups = t.groups();
    let pid_of: HashMap<&str, usize> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| (*g, i + 1))
        .collect();
    let lane_pid: Vec<usize> = t.lanes.iter().map(|l| pid_of[l.group.as_str()]).collect();

    w.write_all(b"{\"traceEvents\":[")?;
    let mut first = true;
    let mut sep = |w: &mut W| -> io::Result<()> {
        if first {
            first = false;
            w.write_all(b"\n")
        } else {
            w.write_all(b",\n")
        }
    };

    for (i, group) in groups.iter().enumerate() {
        let pid = i + 1;
        sep(w)?;
        write!(
            w,
            "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":"
        )?;
        json(w, group)?;
        w.write_all(b"}}")?;
        sep(w)?;
        write!(
            w,
            "{{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":{pid},\"tid\":0,\"args\":{{\"sort_index\":{i}}}}}"
        )?;
    }
    for (lane, l) in t.lanes.iter().enumerate() {
        let (pid, tid) = (lane_pid[lane], lane + 1);
        sep(w)?;
        write!(
            w,
            "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"name\":"
        )?;
        json(w, &l.name)?;
        w.write_all(b"}}")?;
        sep(w)?;
        write!(
            w,
            "{{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"sort_index\":{lane}}}}}"
        )?;
    }

    for (i, iv) in t.intervals.iter().enumerate() {
        if check_interval(i, iv, t.lanes.len()).is_err() {
            continue;
        }
        sep(w)?;
        w.write_all(b"{\"name\":")?;
        json(w, &iv.label)?;
        write!(w, ",\"cat\":\"{}\",\"ph\":\"X\",\"ts\":", iv.kind.as_str())?;
        json(w, &(iv.start * scale))?;
        w.write_all(b",\"dur\":")?;
        json(w, &(iv.duration() * scale))?;
        write!(
            w,
            ",\"pid\":{},\"tid\":{}}}",
            lane_pid[iv.lane],
            iv.lane + 1
        )?;
    }

    w.write_all(b"\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"name\":")?;
    json(w, &t.name)?;
    w.write_all(b"}}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Kind;
    use serde_json::Value;

    fn sample() -> Trace {
        let mut t = Trace::new("sample \"quoted\"");
        let p0 = t.add_lane("P0", "processors");
        let p1 = t.add_lane("P1", "processors");
        let bus = t.add_lane("bus", "resources");
        t.push(p0, 0.0, 2.0, "a\nb", Kind::Busy);
        t.push(p1, 0.5, 1.0, "sched", Kind::Overhead);
        t.push(bus, 1.0, 4.0, "msg <1>", Kind::Wait);
        t
    }

    #[test]
    fn bytes_are_what_write_writes_and_a_bad_scale_is_its_error() {
        let t = sample();
        let mut written = Vec::new();
        write(&t, 2.0, &mut written).unwrap();
        assert_eq!(to_bytes(&t, 2.0).unwrap(), written);
        assert!(matches!(
            to_bytes(&t, 1e308),
            Err(TraceError::InvalidOption { .. })
        ));
        assert!(matches!(
            to_bytes(&t, 0.0),
            Err(TraceError::InvalidOption { .. })
        ));
    }

    #[test]
    fn parses_back_with_names_and_times() {
        let json = to_string(&sample(), 10.0);
        let v: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["displayTimeUnit"], "ms");
        assert_eq!(v["otherData"]["name"], "sample \"quoted\"");
        let events = v["traceEvents"].as_array().unwrap();
        // 2 groups x 2 + 3 lanes x 2 metadata events + 3 intervals.
        assert_eq!(events.len(), 13);
        let xs: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
        assert_eq!(xs.len(), 3);
        assert_eq!(xs[0]["name"], "a\nb");
        assert_eq!(xs[0]["cat"], "busy");
        assert_eq!(xs[0]["ts"], 0.0);
        assert_eq!(xs[0]["dur"], 20.0);
        assert_eq!(
            (xs[0]["pid"].as_u64(), xs[0]["tid"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(xs[1]["cat"], "overhead");
        assert_eq!(xs[1]["ts"], 5.0);
        assert_eq!(xs[1]["dur"], 5.0);
        assert_eq!(xs[2]["name"], "msg <1>");
        assert_eq!(xs[2]["cat"], "wait");
        assert_eq!(
            (xs[2]["pid"].as_u64(), xs[2]["tid"].as_u64()),
            (Some(2), Some(3))
        );

        let names: Vec<(&str, &str)> = events
            .iter()
            .filter(|e| e["ph"] == "M" && e["args"]["name"].is_string())
            .map(|e| {
                (
                    e["name"].as_str().unwrap(),
                    e["args"]["name"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            names,
            vec![
                ("process_name", "processors"),
                ("process_name", "resources"),
                ("thread_name", "P0"),
                ("thread_name", "P1"),
                ("thread_name", "bus"),
            ]
        );
    }

    #[test]
    fn write_matches_to_string() {
        let t = sample();
        let mut buf = Vec::new();
        write(&t, 10.0, &mut buf).unwrap();
        assert_eq!(String::from_utf8(buf).unwrap(), to_string(&t, 10.0));
    }

    #[test]
    fn write_rejects_invalid_input() {
        let mut t = sample();
        let mut buf = Vec::new();
        let err = write(&t, 0.0, &mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("time_scale_us"), "{err}");

        t.push(0, 5.0, 3.0, "bad", Kind::Busy);
        let err = write(&t, 1.0, &mut buf).unwrap_err();
        assert_eq!(
            err.to_string(),
            "interval 3 on lane 0 ends before it starts (3 < 5)"
        );
        assert!(buf.is_empty());

        // to_string leaves the bad interval out and still produces valid JSON.
        t.push(0, f64::NAN, 3.0, "nan", Kind::Busy);
        let v: Value = serde_json::from_str(&to_string(&t, f64::NAN)).unwrap();
        let xs = v["traceEvents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["ph"] == "X")
            .count();
        assert_eq!(xs, 3);
    }

    #[test]
    fn empty_trace_is_valid_json() {
        let v: Value = serde_json::from_str(&to_string(&Trace::new(""), 1.0)).unwrap();
        assert_eq!(v["traceEvents"].as_array().map(Vec::len), Some(0));
    }
}
