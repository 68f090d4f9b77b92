//! Why a probe stopped, and why a profile could not be read.

use thiserror::Error;

/// Why a probe stopped before it measured everything: a typed stop reason, never a panic.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ProbeError {
    /// The options describe no probe that can run (a thread count of 0, sizes out of order).
    #[error("invalid probe settings: {reason}")]
    Options {
        /// What is wrong.
        reason: String,
    },
    /// The host grants fewer cores than the dedicated set-ups need: the barrier and message
    /// measurements need two threads running at once, free of contention.
    #[error(
        "this host grants {cores} core(s); the barrier and message measurements need at \
         least {needed} running at once"
    )]
    TooFewCores {
        /// The cores available.
        cores: usize,
        /// The cores needed.
        needed: usize,
    },
    /// The operating system refused a thread (or the rayon pool).
    #[error("cannot start {threads} thread(s) for the {what} measurement: {reason}")]
    Threads {
        /// The measurement.
        what: String,
        /// The threads asked for.
        threads: usize,
        /// The system's reason.
        reason: String,
    },
    /// An array of the memory measurements could not be allocated.
    #[error("cannot allocate {bytes} bytes for the {what} measurement")]
    Memory {
        /// The measurement.
        what: String,
        /// The size asked for.
        bytes: u64,
    },
    /// A measurement gave no usable time (zero, not finite, or a helper thread stopped).
    #[error("the {what} measurement gave no usable time: {reason}")]
    Unmeasurable {
        /// The measurement.
        what: String,
        /// Why.
        reason: String,
    },
}

impl ProbeError {
    /// What to do about the stop, naming the options by neutral keys a front end spells
    /// its way (`{max-array-mib}`, `{max-threads}`, `{quick}`); `options` are the probe's.
    ///
    /// ```
    /// let e = probe::ProbeError::Memory { what: "bandwidth".into(), bytes: 1 << 30 };
    /// let fix = e.fix(&probe::Options::new(true));
    /// assert!(fix.starts_with("free some memory, or lower {max-array-mib} (now 256)"));
    /// ```
    pub fn fix(&self, options: &crate::Options) -> String {
        match self {
            ProbeError::TooFewCores { .. } => {
                "run the probe on a host (or in a container) granted at least two cores".into()
            }
            ProbeError::Memory { .. } => format!(
                "free some memory, or lower {{max-array-mib}} (now {}), or probe with {{quick}} \
                 (smaller arrays)",
                options.max_bandwidth_bytes >> 20
            ),
            ProbeError::Threads { .. } => {
                "lower {max-threads}, or raise the process's thread limit".into()
            }
            _ => "run the probe again on an otherwise idle host".into(),
        }
    }
}

/// Why a text is not a usable machine profile.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ProfileError {
    /// The text is not JSON.
    #[error("the machine profile is not JSON: {message} (line {line}, column {column})")]
    Json {
        /// The parser's message.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// A JSON number too large for a 64-bit float: JSON has no infinities or NaNs, so this
    /// is the only way a non-finite value reaches a profile.
    #[error(
        "the machine profile has a number that is not finite (line {line}, column {column}); \
         every value must be a finite number"
    )]
    NotFinite {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// The JSON is not a vates machine profile.
    #[error("not a vates machine profile: {found}")]
    Format {
        /// What the `format` field holds instead (or that it is missing).
        found: String,
    },
    /// A profile of another version.
    #[error(
        "the machine profile has version {found}, but this vates reads version {expected}; \
         run `vates probe` again to measure the host"
    )]
    Version {
        /// The version in the file.
        found: String,
        /// The version this library reads.
        expected: u32,
    },
    /// A field is missing or has the wrong type (serde's message).
    #[error("the machine profile does not have the expected fields: {message}")]
    Field {
        /// The deserializer's message, naming the field.
        message: String,
    },
    /// A value is negative or not finite.
    #[error(
        "the machine profile value `{path}` is {value}: values must be finite and not negative"
    )]
    Value {
        /// Where the value is (`barrier[1].time.median_s`).
        path: String,
        /// The value, as written.
        value: String,
    },
    /// Values that contradict each other (a minimum above its median, an empty or unsorted
    /// table).
    #[error("the machine profile is inconsistent at `{path}`: {reason}")]
    Inconsistent {
        /// Where.
        path: String,
        /// What is wrong.
        reason: String,
    },
}
