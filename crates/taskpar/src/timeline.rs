//! A recorded run's timeline: one lane per worker with its strands and collapsed nodes (for
//! Chrome trace JSON and Gantt charts), and the parallelism profile as a plot.

use crate::dag::{Graph, NodeKind};
use crate::stats::ProfilePoint;
use taskrec::tree::EndKind;
use trace::plot::{LinePlot, Series, Stroke};
use trace::{Kind, Trace};

/// The timeline of `g`, recorded with `workers` workers, in seconds
/// (`seconds_per_unit` per clock unit) from the run's start. A strand is labelled by the
/// call that ended it; a collapsed node by its strand count. Nodes outside the pool's
/// workers go to a lane `other`.
pub fn timeline(g: &Graph, workers: u32, seconds_per_unit: f64, title: &str) -> Trace {
    let mut t = Trace::new(title);
    let lanes: Vec<usize> = (0..workers)
        .map(|w| t.add_lane(format!("worker {w}"), "workers"))
        .collect();
    let mut other = None;
    let t0 = g.nodes.iter().map(|n| n.start).min().unwrap_or(0);
    for n in &g.nodes {
        let lane = match lanes.get(n.worker as usize) {
            Some(&l) => l,
            None => *other.get_or_insert_with(|| t.add_lane("other", "workers")),
        };
        let label = match n.kind {
            NodeKind::Strand(EndKind::Create) => "strand → create".to_string(),
            NodeKind::Strand(EndKind::Wait) => "strand → wait".to_string(),
            NodeKind::Strand(EndKind::End) => "strand → end".to_string(),
            NodeKind::Strand(EndKind::Other) => "strand".to_string(),
            NodeKind::Collapsed => format!("collapsed: {} strands", n.counts.strands),
        };
        let (a, b) = (
            (n.start - t0) as f64 * seconds_per_unit,
            (n.end - t0) as f64 * seconds_per_unit,
        );
        t.push(lane, a, b, label, Kind::Busy);
    }
    t
}

/// The parallelism profile as a step plot: nodes running, and running plus ready (the
/// available parallelism), against time in seconds; with the worker count as a line.
pub fn profile_plot(
    profile: &[ProfilePoint],
    workers: u32,
    seconds_per_unit: f64,
    title: &str,
) -> LinePlot {
    let steps = |f: &dyn Fn(&ProfilePoint) -> f64| {
        let mut pts = Vec::with_capacity(profile.len() * 2);
        for (k, p) in profile.iter().enumerate() {
            let x = p.t * seconds_per_unit;
            if k > 0 {
                pts.push((x, f(&profile[k - 1])));
            }
            pts.push((x, f(p)));
        }
        pts
    };
    let end = profile.last().map_or(0.0, |p| p.t * seconds_per_unit);
    LinePlot {
        shade_from: None,
        title: title.to_string(),
        x_label: "time (s)".into(),
        y_label: "nodes".into(),
        series: vec![
            Series::new(
                "available (running + ready)",
                steps(&|p| f64::from(p.running + p.ready)),
            )
            .with_stroke(Stroke::Line),
            Series::new("running", steps(&|p| f64::from(p.running))).with_stroke(Stroke::Line),
            Series::new(
                "workers",
                vec![(0.0, f64::from(workers)), (end, f64::from(workers))],
            )
            .with_stroke(Stroke::Dashed),
        ],
        log_x: false,
        log_y: false,
    }
}
