//! The machine profile: every measurement of one probe, versioned, as JSON.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{CacheBoundary, Machine, Options, ProfileError, Rate, Stat};

/// The `format` field of every machine profile.
pub const FORMAT: &str = "vates-machine-profile";
/// The profile version this library writes and reads.
pub const VERSION: u32 = 1;

/// A time measured at a thread count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThreadPoint {
    /// The threads taking part.
    pub threads: usize,
    /// The time of one operation.
    pub time: Stat,
}

/// A time measured at a size in bytes (a message, a working set).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizePoint {
    /// The size, bytes.
    pub bytes: u64,
    /// The time of one operation (one message one way, one dependent load).
    pub time: Stat,
}

/// A bandwidth measured at a thread count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BandwidthPoint {
    /// The threads reading at once.
    pub threads: usize,
    /// Their combined rate.
    pub rate: Rate,
}

/// `rayon::join` of two empty closures inside a pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayonJoin {
    /// The workers of the pool.
    pub threads: usize,
    /// The time of one join.
    pub time: Stat,
}

/// The memory hierarchy as the pointer chase sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// The latency of one dependent load by working-set size (sizes increasing).
    pub latency: Vec<SizePoint>,
    /// The cache-level boundaries found in `latency` with the settings' jump factor (the
    /// caches the system reports are in `machine.caches`).
    pub boundaries: Vec<CacheBoundary>,
}

/// Read bandwidth from memory by thread count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bandwidth {
    /// The array read (split into one slice per thread), bytes.
    pub array_bytes: u64,
    /// One point per thread count, increasing. A rate is the array's size over a pass's
    /// time (the median, the slowest and the fastest pass).
    pub points: Vec<BandwidthPoint>,
}

/// A machine profile: the host and every measurement of one probe. Times are seconds per
/// operation (`median_s`, `min_s`, `max_s` over the repetitions), sizes bytes, rates bytes
/// per second. `settings.quick` says whether it came from a quick or a full probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] for profiles this library reads.
    pub version: u32,
    /// When the probe ended, seconds since the Unix epoch.
    pub created_unix_s: u64,
    /// The host.
    pub machine: Machine,
    /// How the probe ran.
    pub settings: Options,
    /// Reading the clock (`Instant::now`).
    pub timer: Stat,
    /// One barrier episode (`std::sync::Barrier`, pre-synchronised arrival) by thread count.
    pub barrier: Vec<ThreadPoint>,
    /// An uncontended `Mutex` acquire and release.
    pub lock: Stat,
    /// An uncontended atomic `fetch_add`.
    pub atomic: Stat,
    /// Forking empty threads and joining them (`std::thread::scope`) by thread count.
    pub fork_join: Vec<ThreadPoint>,
    /// `rayon::join` of two empty closures inside a pool.
    pub rayon_join: RayonJoin,
    /// One message one way (`std::sync::mpsc`, half a ping-pong; the receiver touches every
    /// cache line) by message size.
    pub channel: Vec<SizePoint>,
    /// Load latency by working set and the cache boundaries.
    pub memory: Memory,
    /// Read bandwidth by thread count.
    pub bandwidth: Bandwidth,
}

impl Profile {
    /// The profile as pretty-printed JSON with a final newline; [`Profile::from_json`] reads
    /// it back to an equal profile (numbers round-trip exactly).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Reads a profile, checking in turn that the text is JSON, that it is a vates machine
    /// profile of this version, that no number is negative, that every field is there with
    /// its type, and that the values agree (see [`Profile::validate`]).
    pub fn from_json(text: &str) -> Result<Profile, ProfileError> {
        let value: Value = serde_json::from_str(text).map_err(json_error)?;
        check_format(&value)?;
        check_version(&value)?;
        check_not_negative(&value, &mut String::new())?;
        let profile: Profile = serde_json::from_value(value).map_err(|e| ProfileError::Field {
            message: e.to_string(),
        })?;
        profile.validate()?;
        Ok(profile)
    }

    /// Checks what the engine relies on: every number finite and not negative, each
    /// minimum ≤ median ≤ maximum, at least one repetition, the tables not empty and their
    /// thread counts and sizes positive and increasing.
    pub fn validate(&self) -> Result<(), ProfileError> {
        for (path, value) in self.numbers() {
            if !(value.is_finite() && value >= 0.0) {
                return Err(ProfileError::Value {
                    path,
                    value: value.to_string(),
                });
            }
        }
        for (path, stat) in self.stats() {
            check_stat(&path, stat)?;
        }
        for (i, p) in self.bandwidth.points.iter().enumerate() {
            check_rate(&format!("bandwidth.points[{i}].rate"), &p.rate)?;
        }
        let threads = |t: &[ThreadPoint]| t.iter().map(|p| p.threads as u64).collect::<Vec<_>>();
        let bytes = |t: &[SizePoint]| t.iter().map(|p| p.bytes).collect::<Vec<_>>();
        check_keys("barrier", &threads(&self.barrier))?;
        check_keys("fork_join", &threads(&self.fork_join))?;
        check_keys("channel", &bytes(&self.channel))?;
        check_keys("memory.latency", &bytes(&self.memory.latency))?;
        let bw: Vec<u64> = self
            .bandwidth
            .points
            .iter()
            .map(|p| p.threads as u64)
            .collect();
        check_keys("bandwidth.points", &bw)?;
        Ok(())
    }

    /// Every time measurement with its path in the JSON.
    fn stats(&self) -> Vec<(String, &Stat)> {
        let mut out = vec![
            ("timer".to_string(), &self.timer),
            ("lock".to_string(), &self.lock),
            ("atomic".to_string(), &self.atomic),
            ("rayon_join.time".to_string(), &self.rayon_join.time),
        ];
        let tables: [(&str, Vec<&Stat>); 4] = [
            ("barrier", self.barrier.iter().map(|p| &p.time).collect()),
            (
                "fork_join",
                self.fork_join.iter().map(|p| &p.time).collect(),
            ),
            ("channel", self.channel.iter().map(|p| &p.time).collect()),
            (
                "memory.latency",
                self.memory.latency.iter().map(|p| &p.time).collect(),
            ),
        ];
        for (name, stats) in tables {
            for (i, s) in stats.into_iter().enumerate() {
                out.push((format!("{name}[{i}].time"), s));
            }
        }
        out
    }

    /// Every floating-point value with its path in the JSON.
    fn numbers(&self) -> Vec<(String, f64)> {
        let mut out = vec![
            (
                "settings.repetition_s".to_string(),
                self.settings.repetition_s,
            ),
            (
                "settings.jump_factor".to_string(),
                self.settings.jump_factor,
            ),
        ];
        if let Some(mhz) = self.machine.cpu_mhz {
            out.push(("machine.cpu_mhz".to_string(), mhz));
        }
        for (path, s) in self.stats() {
            out.push((format!("{path}.median_s"), s.median_s));
            out.push((format!("{path}.min_s"), s.min_s));
            out.push((format!("{path}.max_s"), s.max_s));
        }
        for (i, b) in self.memory.boundaries.iter().enumerate() {
            out.push((format!("memory.boundaries[{i}].before_s"), b.before_s));
            out.push((format!("memory.boundaries[{i}].after_s"), b.after_s));
        }
        for (i, p) in self.bandwidth.points.iter().enumerate() {
            let r = &p.rate;
            let path = format!("bandwidth.points[{i}].rate");
            out.push((format!("{path}.median_bytes_per_s"), r.median_bytes_per_s));
            out.push((format!("{path}.min_bytes_per_s"), r.min_bytes_per_s));
            out.push((format!("{path}.max_bytes_per_s"), r.max_bytes_per_s));
        }
        out
    }
}

/// A JSON syntax error, or a number too large to be finite (`1e999`), with its place.
fn json_error(e: serde_json::Error) -> ProfileError {
    let (line, column) = (e.line(), e.column());
    if e.to_string().starts_with("number out of range") {
        return ProfileError::NotFinite { line, column };
    }
    let message = e.to_string();
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_string();
    ProfileError::Json {
        message,
        line,
        column,
    }
}

/// The `format` field must be [`FORMAT`].
fn check_format(value: &Value) -> Result<(), ProfileError> {
    let found = match value {
        Value::Object(map) => match map.get("format") {
            Some(Value::String(s)) if s == FORMAT => return Ok(()),
            Some(Value::String(s)) => format!("its format is \"{s}\", not \"{FORMAT}\""),
            Some(other) => format!("its format is {other}, not \"{FORMAT}\""),
            None => format!("it has no `format` field (\"{FORMAT}\")"),
        },
        _ => "it is not a JSON object".to_string(),
    };
    Err(ProfileError::Format { found })
}

/// The `version` field must be [`VERSION`].
fn check_version(value: &Value) -> Result<(), ProfileError> {
    match value.get("version") {
        Some(v) if v.as_u64() == Some(u64::from(VERSION)) => Ok(()),
        found => Err(ProfileError::Version {
            found: found.map_or_else(|| "(none)".to_string(), Value::to_string),
            expected: VERSION,
        }),
    }
}

/// No number anywhere in `value` may be negative; `path` is where `value` is.
fn check_not_negative(value: &Value, path: &mut String) -> Result<(), ProfileError> {
    let len = path.len();
    let result = match value {
        Value::Number(n) if n.as_f64().is_some_and(|x| x < 0.0) => Err(ProfileError::Value {
            path: path.clone(),
            value: n.to_string(),
        }),
        Value::Array(items) => items.iter().enumerate().try_for_each(|(i, v)| {
            path.push_str(&format!("[{i}]"));
            let r = check_not_negative(v, path);
            path.truncate(len);
            r
        }),
        Value::Object(map) => map.iter().try_for_each(|(k, v)| {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(k);
            let r = check_not_negative(v, path);
            path.truncate(len);
            r
        }),
        _ => Ok(()),
    };
    path.truncate(len);
    result
}

/// A measurement's minimum ≤ median ≤ maximum, from at least one repetition.
fn check_stat(path: &str, s: &Stat) -> Result<(), ProfileError> {
    check_order(path, s.min_s, s.median_s, s.max_s, s.repetitions, "_s")
}

/// A rate's minimum ≤ median ≤ maximum, from at least one repetition.
fn check_rate(path: &str, r: &Rate) -> Result<(), ProfileError> {
    check_order(
        path,
        r.min_bytes_per_s,
        r.median_bytes_per_s,
        r.max_bytes_per_s,
        r.repetitions,
        "_bytes_per_s",
    )
}

/// `min ≤ median ≤ max` and `repetitions ≥ 1` (`unit` ends the field names).
fn check_order(
    path: &str,
    min: f64,
    median: f64,
    max: f64,
    repetitions: usize,
    unit: &str,
) -> Result<(), ProfileError> {
    let reason = if repetitions == 0 {
        "no repetitions".to_string()
    } else if !(min <= median && median <= max) {
        format!("min{unit} ≤ median{unit} ≤ max{unit} does not hold ({min}, {median}, {max})")
    } else {
        return Ok(());
    };
    Err(ProfileError::Inconsistent {
        path: path.to_string(),
        reason,
    })
}

/// A table's keys (thread counts, sizes): at least one, all positive, increasing.
fn check_keys(path: &str, keys: &[u64]) -> Result<(), ProfileError> {
    let reason = if keys.is_empty() {
        "the table is empty".to_string()
    } else if keys[0] == 0 {
        "a thread count or size of 0".to_string()
    } else if keys.windows(2).any(|w| w[0] >= w[1]) {
        format!("thread counts or sizes not increasing: {keys:?}")
    } else {
        return Ok(());
    };
    Err(ProfileError::Inconsistent {
        path: path.to_string(),
        reason,
    })
}
