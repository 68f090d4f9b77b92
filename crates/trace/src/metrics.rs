//! Metrics derived from a [`Trace`]: busy/overhead/wait/idle time per lane, utilisation, the
//! parallelism profile and average parallelism.
//!
//! All functions here skip intervals that [`Trace::validate`] would reject (unknown lane,
//! non-finite times, end before start), so they never panic; validate first if such intervals
//! should be an error.
//!
//! ```
//! use trace::{metrics, Kind, Trace};
//!
//! let mut t = Trace::new("two tasks");
//! let p0 = t.add_lane("P0", "processors");
//! let p1 = t.add_lane("P1", "processors");
//! t.push(p0, 0.0, 4.0, "a", Kind::Busy);
//! t.push(p1, 2.0, 3.0, "b", Kind::Busy);
//!
//! let stats = metrics::lane_stats(&t);
//! assert_eq!(stats[1].idle, 3.0);
//! assert_eq!(stats[1].utilization, 0.25);
//! assert_eq!(
//!     metrics::parallelism_profile(&t),
//!     vec![(0.0, 1), (2.0, 2), (3.0, 1), (4.0, 0)]
//! );
//! assert_eq!(metrics::average_parallelism(&t), 1.25);
//! ```

use crate::timeline::check_interval;
use crate::{Interval, LaneId, Trace};

/// Time accounting for one lane over `[0, makespan]` of the whole trace.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneStats {
    /// The lane.
    pub lane: LaneId,
    /// Total duration of [`Kind::Busy`](crate::Kind::Busy) intervals.
    pub busy: f64,
    /// Total duration of [`Kind::Overhead`](crate::Kind::Overhead) intervals.
    pub overhead: f64,
    /// Total duration of [`Kind::Wait`](crate::Kind::Wait) intervals (part of `idle`).
    pub wait: f64,
    /// `makespan - busy - overhead`, clamped at 0: the time the lane does nothing useful,
    /// including its wait time.
    pub idle: f64,
    /// `busy / makespan`, or 0 when the makespan is 0.
    pub utilization: f64,
}

/// The intervals that pass validation.
fn valid_intervals(t: &Trace) -> impl Iterator<Item = &Interval> + '_ {
    let lanes = t.lanes.len();
    t.intervals
        .iter()
        .enumerate()
        .filter(move |(i, iv)| check_interval(*i, iv, lanes).is_ok())
        .map(|(_, iv)| iv)
}

/// Busy, overhead, wait and idle time and utilisation of every lane, in lane order.
///
/// Durations are plain sums, so intervals that overlap on one lane are counted twice; `idle`
/// is clamped at 0 in that case.
pub fn lane_stats(t: &Trace) -> Vec<LaneStats> {
    let mut sums = vec![[0.0f64; 3]; t.lanes.len()];
    for iv in valid_intervals(t) {
        let k = match iv.kind {
            crate::Kind::Busy => 0,
            crate::Kind::Overhead => 1,
            crate::Kind::Wait => 2,
        };
        sums[iv.lane][k] += iv.duration();
    }
    let makespan = valid_makespan(t);
    sums.into_iter()
        .enumerate()
        .map(|(lane, [busy, overhead, wait])| LaneStats {
            lane,
            busy,
            overhead,
            wait,
            idle: (makespan - busy - overhead).max(0.0),
            utilization: if makespan > 0.0 { busy / makespan } else { 0.0 },
        })
        .collect()
}

/// The makespan over valid intervals only (equal to [`Trace::makespan`] for a valid trace).
fn valid_makespan(t: &Trace) -> f64 {
    valid_intervals(t).map(|iv| iv.end).fold(0.0, f64::max)
}

/// The parallelism profile: how many busy or overhead intervals are active over time.
///
/// Returns a step function as `(time, count)` pairs sorted by strictly increasing time: from
/// `time` until the next pair's time, exactly `count` busy-or-overhead intervals are active
/// (an interval `[s, e]` is active on `s <= t < e`). Before the first pair the count is 0, and
/// the last pair has count 0. Consecutive steps with equal counts are merged, and intervals of
/// zero length do not appear. Empty when there is no busy or overhead time. `O(n log n)`.
pub fn parallelism_profile(t: &Trace) -> Vec<(f64, usize)> {
    let mut events: Vec<(f64, i64)> = Vec::new();
    for iv in valid_intervals(t) {
        if iv.kind.is_active() && iv.end > iv.start {
            events.push((iv.start, 1));
            events.push((iv.end, -1));
        }
    }
    events.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));

    let mut profile: Vec<(f64, usize)> = Vec::new();
    let mut active: i64 = 0;
    let mut i = 0;
    while i < events.len() {
        let time = events[i].0;
        while i < events.len() && events[i].0 == time {
            active += events[i].1;
            i += 1;
        }
        // Every interval adds +1 no later than its -1, so `active` never goes negative.
        let count = usize::try_from(active).unwrap_or(0);
        if profile.last().map(|&(_, c)| c) != Some(count) {
            profile.push((time, count));
        }
    }
    profile
}

/// The largest count in the [parallelism profile](parallelism_profile) (0 if empty).
pub fn peak_parallelism(t: &Trace) -> usize {
    parallelism_profile(t)
        .iter()
        .map(|&(_, c)| c)
        .max()
        .unwrap_or(0)
}

/// Total busy and overhead time divided by the makespan: the time-average of the
/// [parallelism profile](parallelism_profile) over `[0, makespan]`. 0 when the makespan is 0.
pub fn average_parallelism(t: &Trace) -> f64 {
    let makespan = valid_makespan(t);
    if makespan <= 0.0 {
        return 0.0;
    }
    let work: f64 = valid_intervals(t)
        .filter(|iv| iv.kind.is_active())
        .map(Interval::duration)
        .sum();
    work / makespan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Kind;

    /// P0: busy [0,4], overhead [4,5]; P1: wait [0,2], busy [2,3]; P2: nothing.
    fn sample() -> Trace {
        let mut t = Trace::new("sample");
        let p0 = t.add_lane("P0", "processors");
        let p1 = t.add_lane("P1", "processors");
        t.add_lane("P2", "processors");
        t.push(p0, 0.0, 4.0, "a", Kind::Busy);
        t.push(p0, 4.0, 5.0, "sched", Kind::Overhead);
        t.push(p1, 0.0, 2.0, "recv", Kind::Wait);
        t.push(p1, 2.0, 3.0, "b", Kind::Busy);
        t
    }

    #[test]
    fn lane_stats_on_a_hand_made_trace() {
        let s = lane_stats(&sample());
        assert_eq!(s.len(), 3);
        assert_eq!(
            s[0],
            LaneStats {
                lane: 0,
                busy: 4.0,
                overhead: 1.0,
                wait: 0.0,
                idle: 0.0,
                utilization: 0.8
            }
        );
        assert_eq!(
            s[1],
            LaneStats {
                lane: 1,
                busy: 1.0,
                overhead: 0.0,
                wait: 2.0,
                idle: 4.0,
                utilization: 0.2
            }
        );
        assert_eq!(
            s[2],
            LaneStats {
                lane: 2,
                busy: 0.0,
                overhead: 0.0,
                wait: 0.0,
                idle: 5.0,
                utilization: 0.0
            }
        );
    }

    #[test]
    fn empty_trace_has_zero_metrics() {
        let mut t = Trace::new("empty");
        t.add_lane("P0", "processors");
        let s = lane_stats(&t);
        assert_eq!(s[0].idle, 0.0);
        assert_eq!(s[0].utilization, 0.0);
        assert!(parallelism_profile(&t).is_empty());
        assert_eq!(average_parallelism(&t), 0.0);
        assert_eq!(peak_parallelism(&t), 0);
    }

    #[test]
    fn profile_of_the_sample() {
        let t = sample();
        // Wait intervals do not count; the overhead interval does.
        assert_eq!(
            parallelism_profile(&t),
            vec![(0.0, 1), (2.0, 2), (3.0, 1), (5.0, 0)]
        );
        assert_eq!(average_parallelism(&t), 6.0 / 5.0);
        assert_eq!(peak_parallelism(&t), 2);
    }

    #[test]
    fn profile_merges_touching_and_equal_steps() {
        let mut t = Trace::new("t");
        let p0 = t.add_lane("P0", "processors");
        let p1 = t.add_lane("P1", "processors");
        // Back-to-back on one lane: no step at 1.0.
        t.push(p0, 0.0, 1.0, "a", Kind::Busy);
        t.push(p0, 1.0, 2.0, "b", Kind::Busy);
        // Hand-over at 3.0 between lanes: the count stays 1, so no step there either.
        t.push(p0, 2.5, 3.0, "c", Kind::Busy);
        t.push(p1, 3.0, 4.0, "d", Kind::Busy);
        // Zero-length interval: invisible.
        t.push(p1, 5.0, 5.0, "e", Kind::Busy);
        assert_eq!(
            parallelism_profile(&t),
            vec![(0.0, 1), (2.0, 0), (2.5, 1), (4.0, 0)]
        );
    }

    #[test]
    fn profile_counts_overlapping_intervals() {
        let mut t = Trace::new("t");
        let p = t.add_lane("P0", "processors");
        let q = t.add_lane("P1", "processors");
        // Pushed out of order, and two overlap on one lane.
        t.push(q, 1.0, 6.0, "x", Kind::Busy);
        t.push(p, 0.0, 3.0, "y", Kind::Busy);
        t.push(p, 2.0, 4.0, "z", Kind::Overhead);
        t.push(q, 0.0, 10.0, "w", Kind::Wait);
        assert_eq!(
            parallelism_profile(&t),
            vec![(0.0, 1), (1.0, 2), (2.0, 3), (3.0, 2), (4.0, 1), (6.0, 0)]
        );
        // (3 + 2 + 5) / 10
        assert_eq!(average_parallelism(&t), 1.0);
        // Overlap on P0 counts twice in busy + overhead, idle clamps at 0 only when needed.
        let s = lane_stats(&t);
        assert_eq!((s[0].busy, s[0].overhead, s[0].idle), (3.0, 2.0, 5.0));
        assert_eq!((s[1].busy, s[1].wait, s[1].idle), (5.0, 10.0, 5.0));
    }

    #[test]
    fn invalid_intervals_are_ignored() {
        let mut t = sample();
        t.push(9, 0.0, 100.0, "bad lane", Kind::Busy);
        t.push(0, f64::NAN, 1.0, "nan", Kind::Busy);
        t.push(0, 3.0, 1.0, "reversed", Kind::Busy);
        t.push(0, 0.0, f64::INFINITY, "inf", Kind::Busy);
        assert_eq!(lane_stats(&t), lane_stats(&sample()));
        assert_eq!(parallelism_profile(&t), parallelism_profile(&sample()));
        assert_eq!(average_parallelism(&t), average_parallelism(&sample()));
    }
}
