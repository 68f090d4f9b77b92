//! Line and scatter plots: normal data and the awkward cases (empty, single point, all
//! equal, NaN/inf, non-positive values on log axes, tiny canvases).

mod common;

use common::assert_well_formed_svg;
use trace::plot::{LinePlot, ScatterPlot, Series};
use trace::TraceError;

fn speedup() -> LinePlot {
    LinePlot {
        shade_from: None,
        title: "speed-up of <LU>".into(),
        x_label: "processors P".into(),
        y_label: "T(1)/T(P)".into(),
        series: vec![
            Series::new(
                "model",
                vec![(1.0, 1.0), (2.0, 1.9), (4.0, 3.5), (8.0, 6.0)],
            ),
            Series::new("ideal", vec![(1.0, 1.0), (8.0, 8.0)]),
        ],
        log_x: false,
        log_y: false,
    }
}

/// Number of `<circle` elements: one per drawn marker plus one per legend entry.
fn circles(svg: &str) -> usize {
    svg.matches("<circle").count()
}

/// The distinct fill colours of circles.
fn circle_fills(svg: &str) -> Vec<String> {
    let mut fills: Vec<String> = svg
        .split("<circle")
        .skip(1)
        .filter_map(|c| c.split("fill=\"").nth(1))
        .map(|f| f.split('"').next().unwrap().to_string())
        .collect();
    fills.sort();
    fills.dedup();
    fills
}

#[test]
fn line_plot_has_title_labels_legend_and_markers() {
    let svg = speedup().render_svg(640, 480).unwrap();
    assert_well_formed_svg(&svg);
    assert!(svg.contains("width=\"640\"") && svg.contains("height=\"480\""));
    assert!(svg.contains("speed-up of &lt;LU&gt;"));
    assert!(svg.contains("processors P"));
    assert!(svg.contains("T(1)/T(P)"));
    assert!(svg.contains("model") && svg.contains("ideal"));
    // 6 markers, no circles in the legend of a line plot.
    assert_eq!(circles(&svg), 6);
    // Two series, two colours.
    assert_eq!(circle_fills(&svg).len(), 2);
    assert!(!svg.contains("no data"));
}

#[test]
fn log_axes_skip_non_positive_points() {
    let mut plot = speedup();
    plot.log_x = true;
    plot.log_y = true;
    plot.series.push(Series::new(
        "with zeros",
        vec![(0.0, 1.0), (-1.0, 2.0), (2.0, 0.0), (4.0, 2.0)],
    ));
    let svg = plot.render_svg(800, 600).unwrap();
    assert_well_formed_svg(&svg);
    // 6 + the one positive point of the third series.
    assert_eq!(circles(&svg), 7);
    assert!(svg.contains("with zeros"));
}

#[test]
fn nan_and_infinite_points_are_skipped() {
    let plot = LinePlot {
        series: vec![Series::new(
            "noisy",
            vec![
                (1.0, 2.0),
                (f64::NAN, 1.0),
                (2.0, f64::INFINITY),
                (f64::NEG_INFINITY, 0.0),
                (3.0, 1e308),
                (4.0, 3.0),
            ],
        )],
        ..LinePlot::default()
    };
    let svg = plot.render_svg(400, 300).unwrap();
    assert_well_formed_svg(&svg);
    assert_eq!(circles(&svg), 2);
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
}

#[test]
fn empty_plots_render_with_a_note() {
    let empty = LinePlot::default();
    let svg = empty.render_svg(400, 300).unwrap();
    assert_well_formed_svg(&svg);
    assert!(svg.contains("no data"));

    let empty_series = ScatterPlot {
        title: "nothing yet".into(),
        series: vec![
            Series::new("a", vec![]),
            Series::new("b", vec![(f64::NAN, 1.0)]),
        ],
        ..ScatterPlot::default()
    };
    let svg = empty_series.render_svg(400, 300).unwrap();
    assert_well_formed_svg(&svg);
    assert!(svg.contains("no data"));
    // Legend entries are still drawn (one circle each), but no data points.
    assert_eq!(circles(&svg), 2);
}

#[test]
fn single_points_and_equal_values_render() {
    for log in [false, true] {
        let plot = LinePlot {
            series: vec![Series::new("one", vec![(5.0, 5.0)])],
            log_x: log,
            log_y: log,
            ..LinePlot::default()
        };
        let svg = plot.render_svg(400, 300).unwrap();
        assert_well_formed_svg(&svg);
        assert_eq!(circles(&svg), 1);
    }
    let flat = ScatterPlot {
        series: vec![Series::new(
            "flat",
            vec![(0.0, 0.0), (0.0, 0.0), (0.0, 0.0)],
        )],
        ..ScatterPlot::default()
    };
    let svg = flat.render_svg(400, 300).unwrap();
    assert_well_formed_svg(&svg);
    assert_eq!(circles(&svg), 4);
}

#[test]
fn scatter_plot_with_reference_lines() {
    let plot = ScatterPlot {
        title: "predicted vs measured".into(),
        x_label: "N".into(),
        y_label: "time".into(),
        series: vec![
            Series::new("measured", vec![(1.0, 2.0), (2.0, 3.5), (3.0, 3.9)]),
            Series::new("predicted", vec![(1.0, 2.2), (2.0, 3.1)]),
        ],
        hlines: vec![
            (10.0, "lower bound T^l & co".into()),
            (f64::NAN, "skipped".into()),
        ],
    };
    let svg = plot.render_svg(800, 500).unwrap();
    assert_well_formed_svg(&svg);
    // 5 points + 2 legend markers, two colours.
    assert_eq!(circles(&svg), 7);
    assert_eq!(circle_fills(&svg).len(), 2);
    assert!(svg.contains("lower bound T^l &amp; co"));
    assert!(!svg.contains("skipped"));
    // The y range was stretched to include the line at 10.
    assert!(svg.contains(">10<") || svg.contains(">\n10\n<"));
}

#[test]
fn many_series_get_distinct_colours() {
    let plot = ScatterPlot {
        series: (0..10)
            .map(|i| Series::new(format!("s{i}"), vec![(i as f64, i as f64)]))
            .collect(),
        ..ScatterPlot::default()
    };
    let svg = plot.render_svg(600, 400).unwrap();
    assert_well_formed_svg(&svg);
    assert_eq!(circle_fills(&svg).len(), 10);
}

#[test]
fn control_characters_do_not_reach_the_svg() {
    let plot = LinePlot {
        title: "bad\u{1}title".into(),
        series: vec![Series::new("tab\tname", vec![(1.0, 1.0)])],
        ..LinePlot::default()
    };
    let svg = plot.render_svg(400, 300).unwrap();
    assert_well_formed_svg(&svg);
    assert!(!svg.contains('\u{1}') && !svg.contains('\t'));
    assert!(svg.contains("bad title"));
}

#[test]
fn tiny_canvases_are_rejected() {
    assert!(matches!(
        speedup().render_svg(100, 50),
        Err(TraceError::InvalidOption { .. })
    ));
    assert!(matches!(
        ScatterPlot::default().render_svg(0, 0),
        Err(TraceError::InvalidOption { .. })
    ));
    // The smallest accepted size works.
    let svg = speedup().render_svg(160, 120).unwrap();
    assert_well_formed_svg(&svg);
}
