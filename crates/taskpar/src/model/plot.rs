//! Pictures of predictions and of test reports.

use trace::plot::{LinePlot, Series, Stroke};

use super::predict::Prediction;
use super::report::Report;

/// Time, breakdown, baseline and bounds of `preds` against the workers (`over_p`) or the
/// sizes.
pub fn prediction_plot(app: &str, preds: &[Prediction], over_p: bool) -> LinePlot {
    let x = |p: &Prediction| if over_p { p.p } else { p.n };
    let line = |name: &str, f: &dyn Fn(&Prediction) -> Option<f64>, stroke: Stroke| {
        Series::new(
            name,
            preds
                .iter()
                .filter_map(|p| f(p).map(|y| (x(p), y)))
                .collect(),
        )
        .with_stroke(stroke)
    };
    let mut series = vec![
        line("time (two-step model)", &|p| Some(p.time), Stroke::Solid),
        line("work/p", &|p| Some(p.work / p.p), Stroke::Line),
        line("delay/p", &|p| Some(p.delay / p.p), Stroke::Line),
        line("no_work/p", &|p| Some(p.no_work / p.p), Stroke::Line),
        line("direct regression", &|p| Some(p.direct), Stroke::Points),
        line(
            "bound T1/p",
            &|p| Some(p.bounds.work_over_p),
            Stroke::Dashed,
        ),
        line("bound T1/p + T∞", &|p| p.bounds.greedy, Stroke::Dashed),
    ];
    if preds.iter().any(|p| p.interval.is_some()) {
        let level = preds.first().map_or(0.0, |p| p.level * 100.0);
        series.push(line(
            &format!("{}% interval", trace::text::num(level)),
            &|p| p.interval.map(|i| i.0),
            Stroke::Dashed,
        ));
        series.push(line("", &|p| p.interval.map(|i| i.1), Stroke::Dashed));
    }
    series.retain(|s| !s.points.is_empty());
    let fixed = preds
        .first()
        .map_or(0.0, |p| if over_p { p.n } else { p.p });
    LinePlot {
        shade_from: None,
        title: if over_p {
            format!("{app} at n = {}", trace::text::num(fixed))
        } else {
            format!("{app} at p = {}", trace::text::num(fixed))
        },
        x_label: if over_p { "workers p" } else { "size n" }.into(),
        y_label: "seconds".into(),
        series,
        log_x: !over_p,
        log_y: true,
    }
}

/// Predicted against measured times of a test report (two-step model and direct
/// regression, per application), with the line predicted = measured.
pub fn measured_plot(all: &Report) -> LinePlot {
    let mut series = Vec::new();
    let lo = all
        .rows
        .iter()
        .map(|r| r.actual)
        .fold(f64::INFINITY, f64::min);
    let hi = all.rows.iter().map(|r| r.actual).fold(0.0, f64::max);
    for m in &all.medians {
        let rows = all.rows.iter().filter(|r| r.app == m.app);
        series.push(
            Series::new(
                format!("{} two-step", m.app),
                rows.clone().map(|r| (r.actual, r.predicted)).collect(),
            )
            .with_stroke(Stroke::Points),
        );
        series.push(
            Series::new(
                format!("{} direct", m.app),
                rows.map(|r| (r.actual, r.direct)).collect(),
            )
            .with_stroke(Stroke::Points),
        );
    }
    series.push(
        Series::new("predicted = measured", vec![(lo, lo), (hi, hi)]).with_stroke(Stroke::Dashed),
    );
    LinePlot {
        shade_from: None,
        title: "predicted against measured time (test runs)".into(),
        x_label: "measured (s)".into(),
        y_label: "predicted (s)".into(),
        series,
        log_x: true,
        log_y: true,
    }
}
