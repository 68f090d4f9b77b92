//! SVG Gantt charts of a [`Trace`]: one row per lane, time running left to right.
//!
//! Bars are coloured by [`Kind`]: busy bars get a colour from a stable hash of the label's
//! prefix (see [`label_prefix`]), so all `fft[..]` tasks share a colour and differ from
//! `transpose[..]` tasks; overhead bars are dark grey; wait bars are thin light-grey bars.
//! Each bar carries a `<title>` tooltip with its label and times.
//!
//! Huge traces stay small: on each lane, intervals narrower than one pixel (and intervals that
//! overlap what is already drawn) are merged with their neighbours closer than one pixel into
//! a single bar, which keeps its colour if all merged intervals share it and otherwise is
//! drawn in a neutral "merged" colour by its dominant kind. A lane therefore never holds more
//! than a few bars per pixel column, whatever the number of intervals.
//!
//! ```
//! use trace::{gantt, Kind, Trace};
//!
//! let mut t = Trace::new("demo");
//! let p = t.add_lane("P0", "processors");
//! t.push(p, 0.0, 3.0, "fft[0]", Kind::Busy);
//! let svg = gantt::render_svg(&t, &gantt::GanttOptions::default()).unwrap();
//! assert!(svg.starts_with("<svg") && svg.contains(">P0<"));
//! ```

use std::fmt::Write as _;

use crate::num::{label as num_label, ticks, truncate, xml_escape};
use crate::{Kind, Trace, TraceError};

/// Layout options for [`render_svg`].
#[derive(Debug, Clone, PartialEq)]
pub struct GanttOptions {
    /// Total width of the SVG in pixels (at least 200).
    pub width: u32,
    /// Title above the chart; `None` uses the trace's name (no title if that is empty), and
    /// `Some("")` shows none.
    pub title: Option<String>,
    /// Label under the time axis, e.g. `"time (s)"`.
    pub time_label: String,
    /// Show at most this many lanes (the first ones); a note says how many were left out.
    pub max_lanes: usize,
    /// What busy bars mean, by label: `(label, text)` draws a legend entry `text` in the
    /// colour of busy bars labelled `label` (e.g. `("delay", "think (delay)")`). Empty: one
    /// entry "busy (colour by task)".
    pub legend: Vec<(String, String)>,
    /// The legend text for wait bars; `None`: "wait".
    pub wait_legend: Option<String>,
}

impl Default for GanttOptions {
    /// Width 1200, no explicit title, time label `"time"`, at most 64 lanes, the generic
    /// legend.
    fn default() -> Self {
        GanttOptions {
            width: 1200,
            title: None,
            time_label: "time".to_string(),
            max_lanes: 64,
            legend: Vec::new(),
            wait_legend: None,
        }
    }
}

/// The default options with a title and a time-axis label (the legend is the generic one).
///
/// ```
/// let o = trace::gantt::titled("run", "seconds");
/// assert_eq!((o.title.as_deref(), &*o.time_label), (Some("run"), "seconds"));
/// ```
pub fn titled(title: &str, time_label: &str) -> GanttOptions {
    GanttOptions {
        title: Some(title.to_string()),
        time_label: time_label.to_string(),
        ..GanttOptions::default()
    }
}

/// The part of a label that decides a busy bar's colour: the leading run of letters and
/// underscores, without trailing underscores (`"fft[3]"` → `"fft"`, `"task 12"` → `"task"`,
/// `"T7"` → `"T"`), or the whole label if that run is empty (`"42"` → `"42"`).
pub fn label_prefix(label: &str) -> &str {
    let end = label
        .find(|c: char| !(c.is_alphabetic() || c == '_'))
        .unwrap_or(label.len());
    let prefix = label[..end].trim_end_matches('_');
    if prefix.is_empty() {
        label
    } else {
        prefix
    }
}

/// FNV-1a, a hash that is stable across platforms and Rust versions.
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A bar's fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fill {
    /// Busy, with the hash of the label prefix.
    Busy(u64),
    Overhead,
    Wait,
    /// Several intervals of different colours merged; dominant kind.
    Merged(Kind),
}

impl Fill {
    fn of(kind: Kind, label: &str) -> Fill {
        match kind {
            Kind::Busy => Fill::Busy(fnv1a(label_prefix(label))),
            Kind::Overhead => Fill::Overhead,
            Kind::Wait => Fill::Wait,
        }
    }

    fn kind(self) -> Kind {
        match self {
            Fill::Busy(_) => Kind::Busy,
            Fill::Overhead => Kind::Overhead,
            Fill::Wait => Kind::Wait,
            Fill::Merged(k) => k,
        }
    }

    fn css(self) -> String {
        match self {
            Fill::Busy(h) => {
                let hue = h % 360;
                let light = [42, 52, 62][((h >> 16) % 3) as usize];
                format!("hsl({hue},62%,{light}%)")
            }
            Fill::Overhead => "#555555".to_string(),
            Fill::Wait => "#bdbdbd".to_string(),
            Fill::Merged(Kind::Busy) => "#7f8fa6".to_string(),
            Fill::Merged(Kind::Overhead) => "#6b6b6b".to_string(),
            Fill::Merged(Kind::Wait) => "#cfcfcf".to_string(),
        }
    }
}

/// The fill for an interval, reusing the previous answer when the label repeats.
fn fill_of<'a>(last: &mut Option<(&'a str, Kind, Fill)>, kind: Kind, label: &'a str) -> Fill {
    match *last {
        Some((l, k, fill)) if k == kind && l == label => fill,
        _ => {
            let fill = Fill::of(kind, label);
            *last = Some((label, kind, fill));
            fill
        }
    }
}

/// Consecutive intervals of one lane drawn as one bar.
struct Run {
    x0: f64,
    x1: f64,
    t0: f64,
    t1: f64,
    count: usize,
    /// Fill of the first interval.
    fill: Fill,
    /// Whether intervals with another fill were merged in.
    mixed: bool,
    /// Total duration and count per kind, to find the dominant kind of a merged bar.
    weight: [(f64, usize); 3],
    /// Index of the first interval, for the tooltip of a single-interval bar.
    first: usize,
}

fn kind_index(k: Kind) -> usize {
    match k {
        Kind::Busy => 0,
        Kind::Overhead => 1,
        Kind::Wait => 2,
    }
}

impl Run {
    fn new(x0: f64, x1: f64, t0: f64, t1: f64, fill: Fill, idx: usize) -> Run {
        let mut weight = [(0.0, 0); 3];
        weight[kind_index(fill.kind())] = (t1 - t0, 1);
        Run {
            x0,
            x1,
            t0,
            t1,
            count: 1,
            fill,
            mixed: false,
            weight,
            first: idx,
        }
    }

    /// Adds an interval that starts no earlier than the run (intervals come sorted by start).
    fn absorb(&mut self, x0: f64, x1: f64, t0: f64, t1: f64, kind: Kind) {
        debug_assert!(x0 >= self.x0 && t0 >= self.t0);
        if x1 > self.x1 {
            self.x1 = x1;
            self.t1 = t1;
        }
        self.count += 1;
        let w = &mut self.weight[kind_index(kind)];
        w.0 += t1 - t0;
        w.1 += 1;
    }

    /// The fill to draw: the common fill, or the dominant kind's merged fill.
    fn final_fill(&self) -> Fill {
        if !self.mixed {
            return self.fill;
        }
        let dominant = Kind::ALL
            .into_iter()
            .max_by(|a, b| {
                let (wa, wb) = (self.weight[kind_index(*a)], self.weight[kind_index(*b)]);
                wa.0.total_cmp(&wb.0).then(wa.1.cmp(&wb.1))
            })
            .unwrap_or(Kind::Busy);
        Fill::Merged(dominant)
    }
}

const ROW_H: f64 = 20.0;
const BAR_H: f64 = 14.0;
const WAIT_H: f64 = 6.0;
const CHAR_W: f64 = 7.0;

/// Renders `t` as an SVG Gantt chart.
///
/// Fails with [`TraceError::InvalidOption`] if `opts.width < 200`, and with the error of
/// [`Trace::validate`] if the trace is invalid. The output is a standalone `<svg>` document
/// (no XML declaration); all labels are XML-escaped.
pub fn render_svg(t: &Trace, opts: &GanttOptions) -> Result<String, TraceError> {
    if opts.width < 200 {
        return Err(TraceError::InvalidOption {
            option: "width",
            reason: format!("{} pixels is too narrow; use at least 200", opts.width),
        });
    }
    t.validate()?;

    let width = f64::from(opts.width);
    let shown = t.lanes.len().min(opts.max_lanes);
    let hidden = t.lanes.len() - shown;

    // Horizontal layout: lane names on the left, then the plot area.
    let longest = t.lanes[..shown]
        .iter()
        .map(|l| l.name.chars().count())
        .max()
        .unwrap_or(0);
    let label_w = (longest as f64 * CHAR_W + 14.0).clamp(40.0, (width / 4.0).min(240.0));
    let max_chars = ((label_w - 12.0) / CHAR_W).floor().max(3.0) as usize;
    let plot_x0 = label_w;
    let plot_x1 = width - 24.0;
    let plot_w = plot_x1 - plot_x0;

    // Vertical layout: title, legend, rows, axis, note.
    let title = match &opts.title {
        Some(s) => s.as_str(),
        None => t.name.as_str(),
    };
    let title_h = if title.is_empty() { 8.0 } else { 30.0 };
    let legend_y = title_h;
    let rows_y = legend_y + 26.0;
    let rows_h = shown as f64 * ROW_H;
    let axis_y = rows_y + rows_h;
    let note_h = if hidden > 0 { 20.0 } else { 0.0 };
    let height = axis_y + 44.0 + note_h + 6.0;

    // Time range: [min(0, earliest start), makespan], never empty. Positions are computed
    // from half-values so that even a span of +-1e308 does not overflow.
    let t0 = t.intervals.iter().map(|iv| iv.start).fold(0.0, f64::min);
    let mut t1 = t.makespan();
    if !(plot_w / (t1 * 0.5 - t0 * 0.5)).is_finite() {
        // Empty or (sub)normally tiny span; t0 <= 0 <= t1, so t0 is tiny too.
        t1 = t0 + 1.0;
    }
    let px_per_half = plot_w / (t1 * 0.5 - t0 * 0.5);
    let px = |time: f64| plot_x0 + (time * 0.5 - t0 * 0.5) * px_per_half;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">",
        w = opts.width,
        h = height.ceil()
    );
    svg.push_str("<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    if !title.is_empty() {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"20\" text-anchor=\"middle\" font-size=\"15\" \
             font-weight=\"bold\">{}</text>",
            width / 2.0,
            xml_escape(&truncate(title, (width / 8.0) as usize))
        );
    }

    // Row stripes, lane names, group separators.
    svg.push_str("<g class=\"lanes\">\n");
    for (row, lane) in t.lanes[..shown].iter().enumerate() {
        let y = rows_y + row as f64 * ROW_H;
        if row % 2 == 0 {
            let _ = writeln!(
                svg,
                "<rect x=\"{plot_x0:.1}\" y=\"{y:.1}\" width=\"{plot_w:.1}\" height=\"{ROW_H}\" \
                 fill=\"#f5f5f5\"/>"
            );
        }
        if row > 0 && t.lanes[row - 1].group != lane.group {
            let _ = writeln!(
                svg,
                "<line x1=\"0\" y1=\"{y:.1}\" x2=\"{plot_x1:.1}\" y2=\"{y:.1}\" \
                 stroke=\"#999999\" stroke-width=\"1\"/>"
            );
        }
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}<title>{} ({})</title></text>",
            label_w - 6.0,
            y + ROW_H / 2.0 + 4.0,
            xml_escape(&truncate(&lane.name, max_chars)),
            xml_escape(&lane.name),
            xml_escape(&lane.group)
        );
    }
    svg.push_str("</g>\n");

    // Grid lines and the time axis.
    let tick_target = ((plot_w / 110.0) as usize).clamp(2, 12);
    let tick_values = ticks(t0, t1, tick_target);
    svg.push_str("<g class=\"axis\" stroke=\"#dddddd\">\n");
    for &v in &tick_values {
        let x = px(v);
        let _ = writeln!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{rows_y:.1}\" x2=\"{x:.1}\" y2=\"{axis_y:.1}\"/>"
        );
    }
    svg.push_str("</g>\n");

    // Bars.
    let mut any_merged = false;
    svg.push_str("<g class=\"bars\">\n");
    let mut per_lane: Vec<Vec<(f64, f64, usize)>> = vec![Vec::new(); shown];
    for (i, iv) in t.intervals.iter().enumerate() {
        if iv.lane < shown {
            per_lane[iv.lane].push((iv.start, iv.end, i));
        }
    }
    for (row, ivs) in per_lane.iter_mut().enumerate() {
        // Stable sort: linear time for the common case of intervals pushed in time order.
        ivs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let y = rows_y + row as f64 * ROW_H;
        let mut emit = |run: &Run, svg: &mut String| {
            any_merged |= run.mixed;
            write_bar(svg, t, run, y);
        };
        // Labels usually repeat, so remember the last label's fill.
        let mut last: Option<(&str, Kind, Fill)> = None;
        let mut cursor = f64::NEG_INFINITY;
        let mut pending: Option<Run> = None;
        for &(s, e, idx) in ivs.iter() {
            let x0 = plot_x0 + (s * 0.5 - t0 * 0.5) * px_per_half;
            let x1 = plot_x0 + (e * 0.5 - t0 * 0.5) * px_per_half;
            let iv = &t.intervals[idx];
            // A bar of its own: at least a pixel wide, and clear of what is already drawn.
            let alone = x1 - x0 >= 1.0
                && x0 >= cursor - 0.5
                && match &pending {
                    Some(p) => x0 >= p.x1 - 0.5,
                    None => true,
                };
            if !alone {
                if let Some(p) = pending.as_mut() {
                    if x0 <= p.x1 + 1.0 {
                        // Fast path for dense stretches: the fill only matters until the
                        // run is known to be mixed.
                        if !p.mixed {
                            p.mixed = fill_of(&mut last, iv.kind, &iv.label) != p.fill;
                        }
                        p.absorb(x0, x1, s, e, iv.kind);
                        continue;
                    }
                }
            }
            let fill = fill_of(&mut last, iv.kind, &iv.label);
            if let Some(p) = pending.take() {
                cursor = cursor.max(p.x1);
                emit(&p, &mut svg);
            }
            let run = Run::new(x0, x1, s, e, fill, idx);
            if alone {
                cursor = cursor.max(x1);
                emit(&run, &mut svg);
            } else {
                pending = Some(run);
            }
        }
        if let Some(p) = pending.take() {
            emit(&p, &mut svg);
        }
    }
    svg.push_str("</g>\n");

    // Axis line, ticks and labels.
    let _ = writeln!(
        svg,
        "<line x1=\"{plot_x0:.1}\" y1=\"{axis_y:.1}\" x2=\"{plot_x1:.1}\" y2=\"{axis_y:.1}\" \
         stroke=\"black\"/>"
    );
    for &v in &tick_values {
        let x = px(v);
        let _ = writeln!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{axis_y:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"black\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            axis_y + 5.0,
            axis_y + 18.0,
            xml_escape(&num_label(v))
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
        plot_x0 + plot_w / 2.0,
        axis_y + 36.0,
        xml_escape(&opts.time_label)
    );
    if hidden > 0 {
        let _ = writeln!(
            svg,
            "<text x=\"{plot_x0:.1}\" y=\"{:.1}\" font-style=\"italic\">… {hidden} more lane{}</text>",
            axis_y + 56.0,
            if hidden == 1 { "" } else { "s" }
        );
    }

    // Legend (after the bars, so it can mention merged bars only when there are some): an
    // entry per kind of bar drawn, busy bars by the caller's labels when given.
    let mut present = [false; 3];
    for iv in t.intervals.iter().filter(|iv| iv.lane < shown) {
        present[kind_index(iv.kind)] = true;
    }
    let mut entries: Vec<(String, String, f64)> = Vec::new();
    if present[0] {
        if opts.legend.is_empty() {
            entries.push((
                Fill::Busy(fnv1a("busy")).css(),
                "busy (colour by task)".to_string(),
                BAR_H,
            ));
        }
        for (label, text) in &opts.legend {
            entries.push((Fill::of(Kind::Busy, label).css(), xml_escape(text), BAR_H));
        }
    }
    if present[1] {
        entries.push((Fill::Overhead.css(), "overhead".to_string(), BAR_H));
    }
    if present[2] {
        let text = opts.wait_legend.as_deref().unwrap_or("wait");
        entries.push((Fill::Wait.css(), xml_escape(text), WAIT_H));
    }
    if any_merged {
        entries.push((
            Fill::Merged(Kind::Busy).css(),
            "merged (dense, mixed)".to_string(),
            BAR_H,
        ));
    }
    svg.push_str("<g class=\"legend\">\n");
    let mut x = plot_x0;
    for (css, text, h) in entries {
        let w = 19.0 + text.chars().count() as f64 * CHAR_W + 16.0;
        if x + w > width && x > plot_x0 {
            // One row: entries that do not fit are left out rather than drawn over the edge.
            break;
        }
        let _ = writeln!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"14\" height=\"{h}\" fill=\"{css}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{text}</text>",
            legend_y + 4.0 + (BAR_H - h) / 2.0,
            x + 19.0,
            legend_y + 15.0
        );
        x += w;
    }
    svg.push_str("</g>\n</svg>\n");
    Ok(svg)
}

/// Writes one bar for `run` on the row whose top is `y`.
fn write_bar(svg: &mut String, t: &Trace, run: &Run, y: f64) {
    let fill = run.final_fill();
    let kind = fill.kind();
    let h = if kind == Kind::Wait { WAIT_H } else { BAR_H };
    let top = y + (ROW_H - h) / 2.0;
    let w = (run.x1 - run.x0).max(1.0);
    let tip = if run.count == 1 {
        let iv = &t.intervals[run.first];
        format!(
            "{} ({}) {} – {}",
            truncate(&iv.label, 200),
            iv.kind,
            num_label(iv.start),
            num_label(iv.end)
        )
    } else {
        format!(
            "{} intervals, {} – {}",
            run.count,
            num_label(run.t0),
            num_label(run.t1)
        )
    };
    // A thin white edge on single intervals wide enough to show it, so back-to-back tasks
    // of the same colour stay distinguishable.
    let edge = if run.count == 1 && w >= 3.0 {
        " stroke=\"white\" stroke-width=\"0.75\""
    } else {
        ""
    };
    let _ = writeln!(
        svg,
        "<rect x=\"{:.2}\" y=\"{top:.1}\" width=\"{w:.2}\" height=\"{h}\" fill=\"{}\"{edge}>\
         <title>{}</title></rect>",
        run.x0,
        fill.css(),
        xml_escape(&tip)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        assert_eq!(label_prefix("fft[3]"), "fft");
        assert_eq!(label_prefix("task 12"), "task");
        assert_eq!(label_prefix("T7"), "T");
        assert_eq!(label_prefix("update_"), "update");
        assert_eq!(label_prefix("42"), "42");
        assert_eq!(label_prefix(""), "");
    }

    #[test]
    fn colour_is_stable_and_by_prefix() {
        assert_eq!(
            Fill::of(Kind::Busy, "fft[1]"),
            Fill::of(Kind::Busy, "fft[2]")
        );
        assert_ne!(
            Fill::of(Kind::Busy, "fft[1]"),
            Fill::of(Kind::Busy, "transpose[1]")
        );
        // FNV-1a of "" is the offset basis: the hash does not depend on the platform.
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn narrow_intervals_merge_and_wide_ones_do_not() {
        let mut t = Trace::new("");
        let p = t.add_lane("P0", "processors");
        // Two wide bars, then 1000 sub-pixel intervals covering [10, 20).
        t.push(p, 0.0, 5.0, "a", Kind::Busy);
        t.push(p, 5.0, 10.0, "b", Kind::Busy);
        for i in 0..1000 {
            let s = 10.0 + i as f64 * 0.01;
            t.push(p, s, s + 0.01, "c", Kind::Busy);
        }
        let svg = render_svg(&t, &GanttOptions::default()).unwrap();
        let bars = svg.split("<g class=\"bars\">").nth(1).unwrap();
        let bars = bars.split("</g>").next().unwrap();
        assert_eq!(bars.matches("<rect").count(), 3);
        assert!(bars.contains("<title>1000 intervals, 10 – 20</title>"));
        // All merged intervals share a colour, so the merged bar keeps it.
        assert!(!svg.contains("merged (dense"));
    }
}
