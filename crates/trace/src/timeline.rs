//! The timeline data model: [`Trace`], [`Lane`], [`Interval`], [`Kind`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::TraceError;

/// Index of a lane in [`Trace::lanes`], as returned by [`Trace::add_lane`].
pub type LaneId = usize;

/// What a lane is doing during an [`Interval`].
///
/// Serialised in lowercase (`"busy"`, `"overhead"`, `"wait"`), which is also what
/// [`Kind::as_str`] and `Display` give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Useful work: a task running on a processor, a request being served by a resource.
    Busy,
    /// Time the lane is occupied but not doing useful work (scheduling, communication set-up,
    /// context switches). Counts towards parallelism like [`Kind::Busy`], not towards
    /// utilisation.
    Overhead,
    /// Time spent blocked: waiting for a message, a lock or a queue. The lane does no work, so
    /// wait time is part of its idle time in [`metrics::lane_stats`](crate::metrics::lane_stats).
    Wait,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: [Kind; 3] = [Kind::Busy, Kind::Overhead, Kind::Wait];

    /// The lowercase name: `"busy"`, `"overhead"` or `"wait"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Busy => "busy",
            Kind::Overhead => "overhead",
            Kind::Wait => "wait",
        }
    }

    /// Whether the lane is occupied (busy or overhead), i.e. whether the interval counts in
    /// the [parallelism profile](crate::metrics::parallelism_profile).
    pub fn is_active(self) -> bool {
        matches!(self, Kind::Busy | Kind::Overhead)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One row of a timeline: a processor, a resource, a worker thread.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Lane {
    /// Display name, e.g. `"P3"` or `"memory"`.
    pub name: String,
    /// The group the lane belongs to, e.g. `"processors"` or `"resources"`. Exporters keep the
    /// lanes of one group together (one Chrome "process" per group).
    pub group: String,
}

/// A stretch of time `[start, end]` on one lane.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The lane it belongs to (index into [`Trace::lanes`]).
    pub lane: LaneId,
    /// Start time, in model time units.
    pub start: f64,
    /// End time, in model time units; `end >= start` in a valid trace.
    pub end: f64,
    /// What happens, e.g. a task name such as `"fft[3]"`.
    pub label: String,
    /// Busy, overhead or wait.
    pub kind: Kind,
}

impl Interval {
    /// `end - start`.
    pub fn duration(&self) -> f64 {
        self.end - self.start
    }
}

/// A timeline: named lanes, and labelled intervals on them.
///
/// Intervals may be pushed in any order and may overlap, also on one lane; the metrics and
/// exporters do not require sorting. Times are in model units, which start at 0 by
/// convention: the [`makespan`](Trace::makespan) is the latest end time.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Trace {
    /// What the trace shows, e.g. the model name. Used as a title by exporters.
    pub name: String,
    /// The lanes; a [`LaneId`] is an index into this vector.
    pub lanes: Vec<Lane>,
    /// The intervals, in insertion order.
    pub intervals: Vec<Interval>,
}

impl Trace {
    /// An empty trace with the given name.
    pub fn new(name: impl Into<String>) -> Self {
        Trace {
            name: name.into(),
            lanes: Vec::new(),
            intervals: Vec::new(),
        }
    }

    /// Adds a lane and returns its id (lane ids are consecutive from 0).
    pub fn add_lane(&mut self, name: impl Into<String>, group: impl Into<String>) -> LaneId {
        self.lanes.push(Lane {
            name: name.into(),
            group: group.into(),
        });
        self.lanes.len() - 1
    }

    /// Appends an interval. Nothing is checked here, so that engines can record cheaply;
    /// call [`Trace::validate`] before exporting data that did not come from a trusted engine.
    pub fn push(
        &mut self,
        lane: LaneId,
        start: f64,
        end: f64,
        label: impl Into<String>,
        kind: Kind,
    ) {
        self.intervals.push(Interval {
            lane,
            start,
            end,
            label: label.into(),
            kind,
        });
    }

    /// The lane with this id, if there is one.
    pub fn lane(&self, id: LaneId) -> Option<&Lane> {
        self.lanes.get(id)
    }

    /// The intervals on one lane, in insertion order.
    pub fn lane_intervals(&self, lane: LaneId) -> impl Iterator<Item = &Interval> + '_ {
        self.intervals.iter().filter(move |iv| iv.lane == lane)
    }

    /// The distinct lane groups, in order of first appearance in [`Trace::lanes`].
    pub fn groups(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.lanes
            .iter()
            .map(|l| l.group.as_str())
            .filter(|g| seen.insert(*g))
            .collect()
    }

    /// The latest end time of any interval, or 0 for a trace without intervals.
    /// Non-finite end times are ignored.
    pub fn makespan(&self) -> f64 {
        self.intervals
            .iter()
            .map(|iv| iv.end)
            .filter(|e| e.is_finite())
            .fold(0.0, f64::max)
    }

    /// Checks that every interval names an existing lane, has finite times and does not end
    /// before it starts. Reports the first problem found, in interval order.
    pub fn validate(&self) -> Result<(), TraceError> {
        self.intervals
            .iter()
            .enumerate()
            .try_for_each(|(i, iv)| check_interval(i, iv, self.lanes.len()))
    }
}

/// Checks one interval; `i` is its index, used in the error.
pub(crate) fn check_interval(i: usize, iv: &Interval, lanes: usize) -> Result<(), TraceError> {
    if iv.lane >= lanes {
        return Err(TraceError::UnknownLane {
            interval: i,
            lane: iv.lane,
            lanes,
        });
    }
    if !iv.start.is_finite() || !iv.end.is_finite() {
        return Err(TraceError::NonFinite {
            interval: i,
            lane: iv.lane,
            start: iv.start,
            end: iv.end,
        });
    }
    if iv.end < iv.start {
        return Err(TraceError::EndsBeforeStart {
            interval: i,
            lane: iv.lane,
            start: iv.start,
            end: iv.end,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_lane_returns_consecutive_ids() {
        let mut t = Trace::new("t");
        assert_eq!(t.add_lane("P0", "processors"), 0);
        assert_eq!(t.add_lane("P1", "processors"), 1);
        assert_eq!(t.add_lane("bus", "resources"), 2);
        assert_eq!(t.groups(), vec!["processors", "resources"]);
        assert_eq!(t.lane(2).map(|l| l.name.as_str()), Some("bus"));
        assert_eq!(t.lane(3), None);
    }

    #[test]
    fn makespan_is_max_end() {
        let mut t = Trace::new("t");
        assert_eq!(t.makespan(), 0.0);
        let p = t.add_lane("P0", "processors");
        t.push(p, 0.0, 4.0, "a", Kind::Busy);
        t.push(p, 1.0, 7.5, "b", Kind::Wait);
        t.push(p, 2.0, 3.0, "c", Kind::Overhead);
        assert_eq!(t.makespan(), 7.5);
        assert_eq!(t.lane_intervals(p).count(), 3);
    }

    #[test]
    fn validate_reports_the_first_problem() {
        let mut t = Trace::new("t");
        let p = t.add_lane("P0", "processors");
        t.push(p, 0.0, 1.0, "ok", Kind::Busy);
        assert_eq!(t.validate(), Ok(()));

        let mut bad = t.clone();
        bad.push(3, 0.0, 1.0, "x", Kind::Busy);
        let err = bad.validate().unwrap_err();
        assert_eq!(
            err.to_string(),
            "interval 1 is on lane 3, but the trace has only 1 lane(s)"
        );

        let mut bad = t.clone();
        bad.push(p, 7.0, 5.0, "x", Kind::Busy);
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "interval 1 on lane 0 ends before it starts (5 < 7)"
        );

        let mut bad = t.clone();
        bad.push(p, f64::NAN, 5.0, "x", Kind::Busy);
        assert!(matches!(
            bad.validate(),
            Err(TraceError::NonFinite { interval: 1, .. })
        ));
    }

    #[test]
    fn kind_serialises_lowercase() {
        assert_eq!(serde_json::to_string(&Kind::Busy).unwrap(), "\"busy\"");
        assert_eq!(
            serde_json::to_string(&Kind::Overhead).unwrap(),
            "\"overhead\""
        );
        let k: Kind = serde_json::from_str("\"wait\"").unwrap();
        assert_eq!(k, Kind::Wait);
        assert_eq!(Kind::Wait.to_string(), "wait");
    }

    #[test]
    fn trace_round_trips_through_json() {
        let mut t = Trace::new("rt");
        let p = t.add_lane("P0", "processors");
        t.push(p, 0.5, 1.25, "task \"1\"", Kind::Overhead);
        let s = serde_json::to_string(&t).unwrap();
        let back: Trace = serde_json::from_str(&s).unwrap();
        assert_eq!(back, t);
    }
}
