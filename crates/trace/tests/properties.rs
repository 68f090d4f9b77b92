//! Invariants of the metrics and exporters on random traces.

mod common;

use proptest::prelude::*;
use trace::plot::{LinePlot, ScatterPlot, Series};
use trace::{chrome, gantt, metrics, Kind, Trace};

/// One lane's intervals, as (gap before, duration, kind) steps laid end to end, so that the
/// intervals of a lane never overlap.
fn lane_steps() -> impl Strategy<Value = Vec<(f64, f64, Kind)>> {
    let kind = prop_oneof![Just(Kind::Busy), Just(Kind::Overhead), Just(Kind::Wait)];
    prop::collection::vec((0.0..5.0f64, 0.0..10.0f64, kind), 0..20)
}

fn build(lanes: &[Vec<(f64, f64, Kind)>]) -> Trace {
    let mut t = Trace::new("random");
    for (l, steps) in lanes.iter().enumerate() {
        let id = t.add_lane(format!("P{l}"), if l % 2 == 0 { "even" } else { "odd" });
        let mut clock = 0.0;
        for (k, &(gap, dur, kind)) in steps.iter().enumerate() {
            let start = clock + gap;
            t.push(id, start, start + dur, format!("t{k}"), kind);
            clock = start + dur;
        }
    }
    t
}

fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-9 * scale.max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn lane_time_adds_up_to_the_makespan(lanes in prop::collection::vec(lane_steps(), 1..6)) {
        let t = build(&lanes);
        prop_assert!(t.validate().is_ok());
        let makespan = t.makespan();
        for s in metrics::lane_stats(&t) {
            prop_assert!(close(s.busy + s.overhead + s.idle, makespan, makespan),
                "lane {}: {} + {} + {} != {}", s.lane, s.busy, s.overhead, s.idle, makespan);
            prop_assert!(s.idle >= s.wait - 1e-9 * makespan.max(1.0));
            prop_assert!((0.0..=1.0 + 1e-12).contains(&s.utilization));
        }
    }

    #[test]
    fn profile_integrates_to_active_time(lanes in prop::collection::vec(lane_steps(), 1..6)) {
        let t = build(&lanes);
        let profile = metrics::parallelism_profile(&t);
        let active: f64 = t
            .intervals
            .iter()
            .filter(|iv| iv.kind != Kind::Wait)
            .map(|iv| iv.end - iv.start)
            .sum();
        let area: f64 = profile.windows(2).map(|w| (w[1].0 - w[0].0) * w[0].1 as f64).sum();
        let makespan = t.makespan();
        prop_assert!(close(area, active, makespan * lanes.len() as f64), "{area} vs {active}");
        if let Some(&(_, last)) = profile.last() {
            prop_assert_eq!(last, 0);
        }
        for w in profile.windows(2) {
            prop_assert!(w[0].0 < w[1].0, "times not increasing");
            prop_assert_ne!(w[0].1, w[1].1);
        }
        // Intervals of one lane never overlap, so at most one per lane is active.
        prop_assert!(profile.iter().all(|&(_, c)| c <= lanes.len()));
        let avg = metrics::average_parallelism(&t);
        if makespan > 0.0 {
            prop_assert!(close(avg * makespan, active, makespan * lanes.len() as f64));
        } else {
            prop_assert_eq!(avg, 0.0);
        }
    }

    #[test]
    fn exporters_accept_every_valid_trace(lanes in prop::collection::vec(lane_steps(), 0..6)) {
        let t = build(&lanes);
        let v: serde_json::Value = serde_json::from_str(&chrome::to_string(&t, 1000.0)).unwrap();
        let complete = v["traceEvents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["ph"] == "X")
            .count();
        prop_assert_eq!(complete, t.intervals.len());

        let opts = gantt::GanttOptions { width: 400, max_lanes: 4, ..Default::default() };
        let svg = gantt::render_svg(&t, &opts).unwrap();
        common::assert_well_formed_svg(&svg);
        for lane in t.lanes.iter().take(4) {
            let needle = format!(">{}<", lane.name);
            prop_assert!(svg.contains(&needle));
        }
    }

    #[test]
    fn plots_never_fail_on_odd_numbers(
        series in prop::collection::vec(prop::collection::vec((coordinate(), coordinate()), 0..8), 0..4),
        log_x in any::<bool>(),
        log_y in any::<bool>(),
        hline in coordinate(),
    ) {
        let series: Vec<Series> = series
            .into_iter()
            .enumerate()
            .map(|(i, points)| Series::new(format!("s{i}"), points))
            .collect();
        let line = LinePlot { series: series.clone(), log_x, log_y, ..LinePlot::default() };
        common::assert_well_formed_svg(&line.render_svg(320, 240).unwrap());
        let scatter = ScatterPlot {
            series,
            hlines: vec![(hline, "ref".into())],
            ..ScatterPlot::default()
        };
        common::assert_well_formed_svg(&scatter.render_svg(320, 240).unwrap());
    }
}

/// Ordinary, tiny, huge, zero, negative and non-finite coordinates.
fn coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -100.0..100.0f64,
        1 => Just(0.0),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(-1e299),
        1 => Just(1e-300),
        1 => (1.0..2.0f64).prop_map(|v| 1e12 + v * 1e-4),
    ]
}
