//! The error type shared by every part of the crate.

use crate::LaneId;

/// Everything that can go wrong when checking a [`Trace`](crate::Trace) or rendering it.
///
/// Interval and lane numbers in the messages are indices into
/// [`Trace::intervals`](crate::Trace::intervals) and [`Trace::lanes`](crate::Trace::lanes).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TraceError {
    /// An interval names a lane the trace does not have.
    #[error("interval {interval} is on lane {lane}, but the trace has only {lanes} lane(s)")]
    UnknownLane {
        /// Index of the offending interval.
        interval: usize,
        /// The lane id it names.
        lane: LaneId,
        /// How many lanes the trace has.
        lanes: usize,
    },
    /// An interval has a start or end that is NaN or infinite.
    #[error("interval {interval} on lane {lane} has a non-finite time (start {start}, end {end})")]
    NonFinite {
        /// Index of the offending interval.
        interval: usize,
        /// Its lane.
        lane: LaneId,
        /// Its start time.
        start: f64,
        /// Its end time.
        end: f64,
    },
    /// An interval ends before it starts.
    #[error("interval {interval} on lane {lane} ends before it starts ({end} < {start})")]
    EndsBeforeStart {
        /// Index of the offending interval.
        interval: usize,
        /// Its lane.
        lane: LaneId,
        /// Its start time.
        start: f64,
        /// Its end time.
        end: f64,
    },
    /// An option passed to an exporter is out of range (a zero width, a non-positive time
    /// scale, ...).
    #[error("invalid option `{option}`: {reason}")]
    InvalidOption {
        /// The option's name.
        option: &'static str,
        /// Why the value is rejected, including the value itself.
        reason: String,
    },
    /// The plotting backend failed.
    #[error("could not render the plot: {0}")]
    Render(String),
}
