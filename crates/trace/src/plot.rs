//! SVG line and scatter plots (speed-up curves, predicted vs. measured times), drawn with
//! `plotters`.
//!
//! Axis ranges come from the data with a 5 % margin. Points with a NaN or infinite
//! coordinate or a magnitude of 1e300 or more are skipped, and on a logarithmic axis so are
//! coordinates outside `1e-100..=1e100` (in particular those `<= 0`). Empty plots, single points and all-equal values render without error: an
//! empty plot shows "no data", and a degenerate range is widened around its value. Each
//! series gets its own colour (10 distinct colours, then repeating) and a legend entry if
//! its name is not empty. A line plot may shade a region from an x to its right edge
//! (`shade_from`: the sizes beyond the measured ones).
//!
//! ```
//! use trace::plot::{LinePlot, Series};
//!
//! let plot = LinePlot {
//!     title: "speed-up".into(),
//!     x_label: "P".into(),
//!     y_label: "T(1)/T(P)".into(),
//!     series: vec![Series::new("model", vec![(1.0, 1.0), (2.0, 1.9), (4.0, 3.5)])],
//!     log_x: true,
//!     log_y: false,
//!     shade_from: Some((2.0, "extrapolated".into())),
//! };
//! let svg = plot.render_svg(640, 480).unwrap();
//! assert!(svg.starts_with("<svg") && svg.contains("speed-up") && svg.contains("extrapolated"));
//! ```

use plotters::coord::combinators::{BindKeyPoints, WithKeyPoints};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::num::label as num_label;
use crate::TraceError;

/// How a [`LinePlot`] draws a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stroke {
    /// A solid line with point markers.
    #[default]
    Solid,
    /// A solid line without markers (a model sampled densely).
    Line,
    /// A dashed line without markers (an extrapolation, a bound).
    Dashed,
    /// Markers only, not joined (measurements).
    Points,
}

/// A named sequence of `(x, y)` points.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    /// Legend entry; an empty name gets no legend entry.
    pub name: String,
    /// The points, joined in this order by a [`LinePlot`].
    pub points: Vec<(f64, f64)>,
    /// How a [`LinePlot`] draws them (a [`ScatterPlot`] draws markers).
    pub stroke: Stroke,
}

impl Series {
    /// A series with this name and these points, drawn solid.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            name: name.into(),
            points,
            stroke: Stroke::Solid,
        }
    }

    /// The series drawn with `stroke`.
    pub fn with_stroke(mut self, stroke: Stroke) -> Self {
        self.stroke = stroke;
        self
    }
}

/// Lines with point markers, one per series; either axis may be logarithmic.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LinePlot {
    /// Caption above the plot (none if empty).
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// The series, each drawn as a polyline through its points in order.
    pub series: Vec<Series>,
    /// Logarithmic x axis (points with `x <= 0` are skipped; see the module docs).
    pub log_x: bool,
    /// Logarithmic y axis (points with `y <= 0` are skipped; see the module docs).
    pub log_y: bool,
    /// A region shaded from this x to the right edge, with its label at the top (e.g. the
    /// extrapolation beyond the largest measured size).
    pub shade_from: Option<(f64, String)>,
}

/// Unconnected points, one colour per series, plus labelled horizontal reference lines.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScatterPlot {
    /// Caption above the plot (none if empty).
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// The series, each drawn as filled circles.
    pub series: Vec<Series>,
    /// Horizontal reference lines `(y, label)`, drawn dashed across the plot with the label
    /// at the right end (e.g. a lower bound, or a measured time). Included in the y range;
    /// non-finite ones are skipped.
    pub hlines: Vec<(f64, String)>,
}

impl LinePlot {
    /// Renders the plot as an SVG document of `width` x `height` pixels (at least 160 x 120).
    pub fn render_svg(&self, width: u32, height: u32) -> Result<String, TraceError> {
        let content = Content::Lines(self);
        let (xs, ys) = content.ranges(self.log_x, self.log_y);
        match (xs, ys) {
            (Axis::Lin(x), Axis::Lin(y)) => render(width, height, &content, lin(x), lin(y)),
            (Axis::Lin(x), Axis::Log(y)) => render(width, height, &content, lin(x), log(y)),
            (Axis::Log(x), Axis::Lin(y)) => render(width, height, &content, log(x), lin(y)),
            (Axis::Log(x), Axis::Log(y)) => render(width, height, &content, log(x), log(y)),
        }
    }
}

impl ScatterPlot {
    /// Renders the plot as an SVG document of `width` x `height` pixels (at least 160 x 120).
    pub fn render_svg(&self, width: u32, height: u32) -> Result<String, TraceError> {
        let content = Content::Scatter(self);
        let (xs, ys) = content.ranges(false, false);
        render(width, height, &content, lin(xs.bounds()), lin(ys.bounds()))
    }
}

/// Ten distinct colours (the Tableau 10 palette).
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// A computed axis range.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Axis {
    Lin((f64, f64)),
    Log((f64, f64)),
}

impl Axis {
    fn bounds(self) -> (f64, f64) {
        match self {
            Axis::Lin(b) | Axis::Log(b) => b,
        }
    }
}

fn lin((lo, hi): (f64, f64)) -> RangedCoordf64 {
    (lo..hi).into()
}

/// A logarithmic axis with the ticks of [`log_ticks`] (plotters' own skip the partial
/// decade at the bottom and repeat each power of ten).
fn log((lo, hi): (f64, f64)) -> WithKeyPoints<LogCoord<f64>> {
    let (bold, light) = log_ticks(lo, hi, 8);
    let coord: LogCoord<f64> = (lo..hi).log_scale().into();
    coord.with_key_points(bold).with_light_points(light)
}

/// Ticks of a logarithmic axis over `lo..hi`: labelled ones (every power of ten; with 1, 2
/// and 5 multiples under three decades; every multiple under one decade; thinned to at most
/// `max`) and grid lines at every multiple `j·10^k` up to six decades.
fn log_ticks(lo: f64, hi: f64, max: usize) -> (Vec<f64>, Vec<f64>) {
    let decades = (hi / lo).log10();
    let (k0, k1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let series = |ms: &[f64]| -> Vec<f64> {
        (k0..=k1)
            .flat_map(|k| ms.iter().map(move |&m| m * 10f64.powi(k)))
            .filter(|v| *v >= lo * (1.0 - 1e-9) && *v <= hi * (1.0 + 1e-9))
            .collect()
    };
    let all = series(&[1., 2., 3., 4., 5., 6., 7., 8., 9.]);
    let mut bold = if decades < 1.0 {
        all.clone()
    } else if decades < 3.0 {
        series(&[1., 2., 5.])
    } else {
        series(&[1.])
    };
    if bold.len() > max {
        bold = series(&[1.]);
    }
    if bold.len() < 2 {
        bold = all.clone();
    }
    let step = bold.len().div_ceil(max.max(2));
    if step > 1 {
        bold = bold.into_iter().step_by(step).collect();
    }
    let light = if decades <= 6.0 { all } else { Vec::new() };
    (bold, light)
}

/// A tick label of a logarithmic axis: plain numbers for axes within `1e-3..1e5`, else
/// `5e4`-style throughout, so that one axis does not mix `900000` with `1e6`.
fn log_label(v: f64, sci: bool) -> String {
    if !sci || v <= 0.0 {
        return num_label(v);
    }
    let e = (v.log10() + 1e-9).floor() as i32;
    let m = v / 10f64.powi(e);
    format!("{}e{e}", num_label((m * 1e6).round() / 1e6))
}

/// Whether a coordinate can be drawn on an axis. Linear axes take magnitudes below 1e300;
/// logarithmic axes take `1e-100..=1e100`, which keeps the axis ratio finite (plotters' log
/// axis loops for a very long time on ratios that overflow).
fn plottable(v: f64, log: bool) -> bool {
    if log {
        (1e-100..=1e100).contains(&v)
    } else {
        v.is_finite() && v.abs() < 1e300
    }
}

/// Range of the plottable `values` with a 5 % margin; never empty.
fn axis_range(values: impl Iterator<Item = f64>, log: bool) -> Axis {
    let (lo, hi) = values
        .filter(|&v| plottable(v, log))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if log {
        if lo > hi {
            return Axis::Log((1.0, 10.0));
        }
        let (l, h) = (lo.log10(), hi.log10());
        let (l, h) = if h - l < 1e-9 {
            (l - 0.5, h + 0.5)
        } else {
            let m = (h - l) * 0.05;
            (l - m, h + m)
        };
        Axis::Log((10f64.powf(l), 10f64.powf(h)))
    } else {
        if lo > hi {
            return Axis::Lin((0.0, 1.0));
        }
        let scale = lo.abs().max(hi.abs());
        if hi - lo <= scale * 1e-9 {
            let pad = if scale > 0.0 { scale * 0.1 } else { 1.0 };
            Axis::Lin((lo - pad, hi + pad))
        } else {
            let m = (hi - lo) * 0.05;
            Axis::Lin((lo - m, hi + m))
        }
    }
}

/// What to draw inside the axes.
enum Content<'a> {
    Lines(&'a LinePlot),
    Scatter(&'a ScatterPlot),
}

impl Content<'_> {
    fn title(&self) -> &str {
        match self {
            Content::Lines(p) => &p.title,
            Content::Scatter(p) => &p.title,
        }
    }

    fn labels(&self) -> (&str, &str) {
        match self {
            Content::Lines(p) => (&p.x_label, &p.y_label),
            Content::Scatter(p) => (&p.x_label, &p.y_label),
        }
    }

    fn series(&self) -> &[Series] {
        match self {
            Content::Lines(p) => &p.series,
            Content::Scatter(p) => &p.series,
        }
    }

    fn hlines(&self) -> &[(f64, String)] {
        match self {
            Content::Lines(_) => &[],
            Content::Scatter(p) => &p.hlines,
        }
    }

    /// The drawable points of series `i`.
    fn points(&self, i: usize, log_x: bool, log_y: bool) -> Vec<(f64, f64)> {
        self.series()[i]
            .points
            .iter()
            .copied()
            .filter(|&(x, y)| plottable(x, log_x) && plottable(y, log_y))
            .collect()
    }

    /// Axis ranges covering all drawable points (and reference lines).
    fn ranges(&self, log_x: bool, log_y: bool) -> (Axis, Axis) {
        let all: Vec<(f64, f64)> = (0..self.series().len())
            .flat_map(|i| self.points(i, log_x, log_y))
            .collect();
        let hys = self
            .hlines()
            .iter()
            .map(|h| h.0)
            .filter(|&y| plottable(y, log_y));
        (
            axis_range(all.iter().map(|p| p.0), log_x),
            axis_range(all.iter().map(|p| p.1).chain(hys), log_y),
        )
    }
}

/// Replaces control characters (which plotters would copy into the SVG unescaped, and which
/// XML forbids) by spaces.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn render_err<E: std::fmt::Display>(e: E) -> TraceError {
    TraceError::Render(e.to_string())
}

/// Points sampled along each segment of a line (its end points included) when placing the
/// legend.
const LEGEND_SAMPLES: usize = 8;

/// The corner of the plotting area that the fewest data points fall in (the outer 35% of
/// each axis), counting points along the segments of lines too, so the legend hides as
/// little as possible; ties prefer the upper left.
fn legend_corner(
    content: &Content<'_>,
    x: &std::ops::Range<f64>,
    y: &std::ops::Range<f64>,
    log_x: bool,
    log_y: bool,
) -> SeriesLabelPosition {
    let frac = |v: f64, r: &std::ops::Range<f64>, log: bool| {
        let (v, lo, hi) = if log {
            (v.ln(), r.start.ln(), r.end.ln())
        } else {
            (v, r.start, r.end)
        };
        if hi > lo {
            (v - lo) / (hi - lo)
        } else {
            0.5
        }
    };
    // Counts for upper-left, upper-right, lower-left, lower-right.
    let mut counts = [0usize; 4];
    let mut count = |fx: f64, fy: f64| {
        let (left, right, low, high) = (fx < 0.35, fx > 0.65, fy < 0.35, fy > 0.65);
        counts[0] += (left && high) as usize;
        counts[1] += (right && high) as usize;
        counts[2] += (left && low) as usize;
        counts[3] += (right && low) as usize;
    };
    // Lines also cover the corners they pass through: sample each segment.
    let steps = match content {
        Content::Lines(_) => LEGEND_SAMPLES,
        Content::Scatter(_) => 1,
    };
    for i in 0..content.series().len() {
        let fs: Vec<(f64, f64)> = content
            .points(i, log_x, log_y)
            .into_iter()
            .map(|(px, py)| (frac(px, x, log_x), frac(py, y, log_y)))
            .collect();
        for (k, &(fx, fy)) in fs.iter().enumerate() {
            count(fx, fy);
            if let Some(&(gx, gy)) = fs.get(k + 1).filter(|_| steps > 1) {
                for j in 1..steps {
                    let t = j as f64 / steps as f64;
                    count(fx + (gx - fx) * t, fy + (gy - fy) * t);
                }
            }
        }
    }
    let best = (0..4).min_by_key(|&k| counts[k]).unwrap_or(0);
    match best {
        1 => SeriesLabelPosition::UpperRight,
        2 => SeriesLabelPosition::LowerLeft,
        3 => SeriesLabelPosition::LowerRight,
        _ => SeriesLabelPosition::UpperLeft,
    }
}

/// Draws `content` on axes `x` and `y` into an SVG string.
fn render<X, Y>(
    width: u32,
    height: u32,
    content: &Content<'_>,
    x: X,
    y: Y,
) -> Result<String, TraceError>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    if width < 160 || height < 120 {
        return Err(TraceError::InvalidOption {
            option: "width/height",
            reason: format!("{width} x {height} pixels is too small; use at least 160 x 120"),
        });
    }
    let (log_x, log_y) = match content {
        Content::Lines(p) => (p.log_x, p.log_y),
        Content::Scatter(_) => (false, false),
    };
    let x_range = x.range();
    let y_range = y.range();
    let (x_lo, x_hi) = (x_range.start, x_range.end);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(render_err)?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64);
        if !content.title().is_empty() {
            builder.caption(clean(content.title()), ("sans-serif", 24));
        }
        let mut chart = builder.build_cartesian_2d(x, y).map_err(render_err)?;
        let (x_label, y_label) = content.labels();
        let (x_label, y_label) = (clean(x_label), clean(y_label));
        // Per axis: a log axis spanning large or small numbers is labelled `5e4` throughout.
        let sci = |log: bool, (lo, hi): (f64, f64)| log && (hi >= 1e5 || lo < 1e-3);
        let (sci_x, sci_y) = (
            sci(log_x, (x_lo, x_hi)),
            sci(log_y, (y_range.start, y_range.end)),
        );
        let fmt_x = |v: &f64| log_label(*v, sci_x);
        let fmt_y = |v: &f64| log_label(*v, sci_y);
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .x_label_formatter(&fmt_x)
            .y_label_formatter(&fmt_y)
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .light_line_style(RGBColor(238, 238, 238))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()
            .map_err(render_err)?;
        if let Content::Lines(LinePlot {
            shade_from: Some((from, label)),
            ..
        }) = content
        {
            if from.is_finite() && *from < x_hi {
                let (lo, hi) = (from.max(x_lo), (y_range.start, y_range.end));
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(lo, hi.0), (x_hi, hi.1)],
                        RGBColor(128, 128, 128).mix(0.12).filled(),
                    )))
                    .map_err(render_err)?;
                chart
                    .draw_series(std::iter::once(Text::new(
                        clean(label),
                        (lo, hi.1),
                        ("sans-serif", 13).into_font().color(&RGBColor(90, 90, 90)),
                    )))
                    .map_err(render_err)?;
            }
        }

        let mut any_points = false;
        let mut any_legend = false;
        for (i, series) in content.series().iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let points = content.points(i, log_x, log_y);
            any_points |= !points.is_empty();
            let name = clean(&series.name);
            any_legend |= !name.is_empty();
            match content {
                Content::Lines(_) if series.stroke == Stroke::Points => {
                    let anno = chart
                        .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                        .map_err(render_err)?;
                    if !name.is_empty() {
                        anno.label(name.as_str())
                            .legend(move |(x, y)| Circle::new((x + 10, y), 3, colour.filled()));
                    }
                }
                Content::Lines(_) if series.stroke == Stroke::Dashed => {
                    let anno = chart
                        .draw_series(DashedLineSeries::new(
                            points.iter().copied(),
                            8,
                            5,
                            colour.stroke_width(2),
                        ))
                        .map_err(render_err)?;
                    if !name.is_empty() {
                        anno.label(name.as_str()).legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 8, y)], colour.stroke_width(2))
                        });
                    }
                }
                Content::Lines(_) => {
                    let anno = chart
                        .draw_series(LineSeries::new(
                            points.iter().copied(),
                            colour.stroke_width(2),
                        ))
                        .map_err(render_err)?;
                    if !name.is_empty() {
                        anno.label(name.as_str()).legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                        });
                    }
                    if series.stroke == Stroke::Solid {
                        chart
                            .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                            .map_err(render_err)?;
                    }
                }
                Content::Scatter(_) => {
                    let anno = chart
                        .draw_series(points.iter().map(|&p| Circle::new(p, 4, colour.filled())))
                        .map_err(render_err)?;
                    if !name.is_empty() {
                        anno.label(name.as_str())
                            .legend(move |(x, y)| Circle::new((x + 10, y), 4, colour.filled()));
                    }
                }
            }
        }

        for (y_ref, label) in content.hlines() {
            if !plottable(*y_ref, log_y) {
                continue;
            }
            let style = ShapeStyle::from(&BLACK).stroke_width(1);
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(x_lo, *y_ref), (x_hi, *y_ref)],
                    6,
                    4,
                    style,
                ))
                .map_err(render_err)?;
            if !label.is_empty() {
                let font = ("sans-serif", 13)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Right, VPos::Bottom));
                chart
                    .draw_series(std::iter::once(Text::new(
                        clean(label),
                        (x_hi, *y_ref),
                        font,
                    )))
                    .map_err(render_err)?;
            }
        }

        if !any_points {
            let area = chart.plotting_area();
            let (w, h) = area.dim_in_pixel();
            let font = ("sans-serif", 16)
                .into_font()
                .color(&RGBColor(120, 120, 120))
                .pos(Pos::new(HPos::Center, VPos::Center));
            area.strip_coord_spec()
                .draw(&Text::new("no data", (w as i32 / 2, h as i32 / 2), font))
                .map_err(render_err)?;
        }

        if any_legend {
            chart
                .configure_series_labels()
                .position(legend_corner(content, &x_range, &y_range, log_x, log_y))
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(160, 160, 160))
                .label_font(("sans-serif", 15))
                .draw()
                .map_err(render_err)?;
        }
        root.present().map_err(render_err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_cover_partial_decades_once() {
        // The ADI plot's y axis: 2.75e4 .. 1.24e6 (defect: nothing below 1e5, 1e6 twice).
        let (bold, light) = log_ticks(2.75e4, 1.24e6, 8);
        assert_eq!(bold, [5e4, 1e5, 2e5, 5e5, 1e6]);
        assert_eq!(light.first(), Some(&3e4));
        assert!(light.windows(2).all(|w| w[0] < w[1]), "{light:?}");
        let labels: Vec<String> = bold.iter().map(|&v| log_label(v, true)).collect();
        assert_eq!(labels, ["5e4", "1e5", "2e5", "5e5", "1e6"]);
        // Its x axis: 1 .. 32.
        assert_eq!(log_ticks(0.9, 35.0, 8).0, [1.0, 2.0, 5.0, 10.0, 20.0]);
        // Within one decade every multiple; over many decades every other power.
        assert_eq!(
            log_ticks(1.5, 9.5, 8).0,
            [2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
        );
        let wide = log_ticks(1e-3, 1e9, 8).0;
        assert!(wide.len() <= 8 && wide.len() >= 5, "{wide:?}");
        assert_eq!(log_label(1234.0, false), num_label(1234.0));
    }

    #[test]
    fn legend_goes_to_the_emptiest_corner() {
        // Points crowd the upper left and the lower right: the legend must avoid both.
        let mut pts: Vec<(f64, f64)> = (0..20).map(|k| (k as f64 * 0.01, 1.0)).collect();
        pts.extend((0..10).map(|k| (1.0 - k as f64 * 0.01, 0.0)));
        pts.push((1.0, 1.0));
        let plot = ScatterPlot {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            series: vec![Series::new("s", pts)],
            hlines: vec![],
        };
        let c = Content::Scatter(&plot);
        let pos = legend_corner(&c, &(0.0..1.0), &(0.0..1.0), false, false);
        assert!(matches!(pos, SeriesLabelPosition::LowerLeft), "{pos:?}");
    }

    #[test]
    fn legend_avoids_a_corner_a_line_passes_through() {
        // A line climbs from the left edge through the upper-left corner to the top edge;
        // each corner holds one end point (the lower left two), so counting end points
        // alone would tie and choose the upper left, under the line.
        let line = |pts: Vec<(f64, f64)>| Series::new("l", pts);
        let plot = LinePlot {
            shade_from: None,
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            series: vec![
                line(vec![(0.0, 0.3), (0.3, 1.0)]),
                // One point in each of the other three corners.
                line(vec![(1.0, 1.0)]),
                line(vec![(0.0, 0.0)]),
                line(vec![(1.0, 0.0)]),
            ],
            log_x: false,
            log_y: false,
        };
        let c = Content::Lines(&plot);
        let pos = legend_corner(&c, &(0.0..1.0), &(0.0..1.0), false, false);
        assert!(!matches!(pos, SeriesLabelPosition::UpperLeft), "{pos:?}");
    }
}
