//! Gantt chart rendering: content, well-formedness, escaping, and size on huge traces.

mod common;

use common::assert_well_formed_svg;
use trace::gantt::{render_svg, GanttOptions};
use trace::{Kind, Trace, TraceError};

fn small_trace() -> Trace {
    let mut t = Trace::new("small");
    let p0 = t.add_lane("P0", "processors");
    let p1 = t.add_lane("P1 <fast> & \"big\"", "processors");
    let bus = t.add_lane("bus", "resources");
    t.push(p0, 0.0, 2.0, "fft[0]", Kind::Busy);
    t.push(p0, 2.0, 2.5, "sched", Kind::Overhead);
    t.push(p1, 0.0, 1.0, "wait for <msg>", Kind::Wait);
    t.push(p1, 1.0, 3.0, "transpose[1]", Kind::Busy);
    t.push(bus, 0.5, 1.5, "xfer", Kind::Busy);
    t
}

/// The `<rect>` elements inside the bars group.
fn bar_count(svg: &str) -> usize {
    let bars = svg.split("<g class=\"bars\">").nth(1).expect("bars group");
    let bars = bars.split("</g>").next().unwrap();
    bars.matches("<rect").count()
}

#[test]
fn small_chart_has_lanes_bars_axis_and_legend() {
    let opts = GanttOptions {
        title: Some("My title".into()),
        time_label: "time (s)".into(),
        ..GanttOptions::default()
    };
    let svg = render_svg(&small_trace(), &opts).unwrap();
    assert_well_formed_svg(&svg);
    assert!(svg.contains("width=\"1200\""));
    assert!(svg.contains(">My title<"));
    assert!(svg.contains(">P0<"));
    assert!(svg.contains(">bus<"));
    assert!(svg.contains(">time (s)<"));
    for entry in ["busy (colour by task)", "overhead", "wait"] {
        assert!(svg.contains(&format!(">{entry}<")), "legend entry {entry}");
    }
    // Every interval is wide enough to get its own bar with a tooltip.
    assert_eq!(bar_count(&svg), 5);
    assert!(svg.contains("<title>fft[0] (busy) 0 – 2</title>"));
    // Tick labels for 0..3 on a nice step.
    assert!(svg.contains(">0</text>") && svg.contains(">3</text>"));
    assert!(!svg.contains("more lane"));
}

#[test]
fn labels_are_escaped() {
    let svg = render_svg(&small_trace(), &GanttOptions::default()).unwrap();
    assert_well_formed_svg(&svg);
    assert!(svg.contains("P1 &lt;fast&gt; &amp; &quot;big&quot;"));
    assert!(svg.contains("wait for &lt;msg&gt;"));
    assert!(!svg.contains("<fast>") && !svg.contains("<msg>"));
}

#[test]
fn default_title_is_the_trace_name_and_empty_title_hides_it() {
    let t = small_trace();
    let svg = render_svg(&t, &GanttOptions::default()).unwrap();
    assert!(svg.contains("font-weight=\"bold\">small</text>"));
    let opts = GanttOptions {
        title: Some(String::new()),
        ..GanttOptions::default()
    };
    let svg = render_svg(&t, &opts).unwrap();
    assert!(!svg.contains("font-weight=\"bold\""));
}

#[test]
fn busy_colours_follow_the_label_prefix() {
    let mut t = Trace::new("colours");
    let p = t.add_lane("P0", "processors");
    t.push(p, 0.0, 1.0, "fft[0]", Kind::Busy);
    t.push(p, 1.0, 2.0, "fft[1]", Kind::Busy);
    t.push(p, 2.0, 3.0, "transpose[0]", Kind::Busy);
    let svg = render_svg(&t, &GanttOptions::default()).unwrap();
    let fills: Vec<&str> = svg
        .split("<g class=\"bars\">")
        .nth(1)
        .unwrap()
        .split("</g>")
        .next()
        .unwrap()
        .split("fill=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert_eq!(fills.len(), 3);
    assert_eq!(fills[0], fills[1]);
    assert_ne!(fills[0], fills[2]);
    // Stable across runs and platforms.
    let again = render_svg(&t, &GanttOptions::default()).unwrap();
    assert_eq!(svg, again);
}

#[test]
fn extra_lanes_are_summarised() {
    let mut t = Trace::new("many");
    for p in 0..10 {
        let l = t.add_lane(format!("P{p}"), "processors");
        t.push(l, 0.0, 1.0 + p as f64, "w", Kind::Busy);
    }
    let opts = GanttOptions {
        max_lanes: 4,
        ..GanttOptions::default()
    };
    let svg = render_svg(&t, &opts).unwrap();
    assert_well_formed_svg(&svg);
    assert!(svg.contains(">P3<"));
    assert!(!svg.contains(">P4<"));
    assert!(svg.contains("… 6 more lanes"));
    assert_eq!(bar_count(&svg), 4);
    // The time axis still covers the whole trace (makespan 10).
    assert!(svg.contains(">10</text>"));
}

#[test]
fn empty_traces_render() {
    let svg = render_svg(&Trace::new("nothing"), &GanttOptions::default()).unwrap();
    assert_well_formed_svg(&svg);
    assert_eq!(bar_count(&svg), 0);

    let mut t = Trace::new("idle lanes");
    t.add_lane("P0", "processors");
    let svg = render_svg(&t, &GanttOptions::default()).unwrap();
    assert_well_formed_svg(&svg);
    assert!(svg.contains(">P0<"));
}

#[test]
fn bad_input_is_an_error() {
    let opts = GanttOptions {
        width: 10,
        ..GanttOptions::default()
    };
    assert!(matches!(
        render_svg(&small_trace(), &opts),
        Err(TraceError::InvalidOption {
            option: "width",
            ..
        })
    ));
    let mut t = small_trace();
    t.push(7, 0.0, 1.0, "lost", Kind::Busy);
    assert!(matches!(
        render_svg(&t, &GanttOptions::default()),
        Err(TraceError::UnknownLane { lane: 7, .. })
    ));
}

#[test]
fn a_million_intervals_give_a_small_svg() {
    const LANES: usize = 100;
    const PER_LANE: usize = 10_000;
    let mut t = Trace::new("huge");
    let labels = ["fft", "transpose", "sched", "recv"];
    for l in 0..LANES {
        t.add_lane(format!("P{l}"), "processors");
    }
    t.intervals.reserve(LANES * PER_LANE);
    for i in 0..PER_LANE {
        for l in 0..LANES {
            let start = i as f64 + (l % 7) as f64 * 0.05;
            // Every 997th interval is long enough to be several pixels wide.
            let len = if (i + l) % 997 == 0 { 40.0 } else { 0.6 };
            let kind = match i % 4 {
                2 => Kind::Overhead,
                3 => Kind::Wait,
                _ => Kind::Busy,
            };
            t.push(l, start, start + len, labels[i % 4], kind);
        }
    }
    assert_eq!(t.intervals.len(), 1_000_000);

    let opts = GanttOptions::default();
    let svg = render_svg(&t, &opts).unwrap();
    let elements = assert_well_formed_svg(&svg);
    let shown = opts.max_lanes;
    assert!(svg.contains(&format!("… {} more lanes", LANES - shown)));
    // Bounded by lanes x width, whatever the number of intervals.
    let bars = bar_count(&svg);
    assert!(bars > 0);
    assert!(
        bars <= shown * opts.width as usize,
        "{bars} bars for {shown} lanes"
    );
    assert!(elements < 4 * shown * opts.width as usize);
    assert!(svg.len() < 2_000_000, "SVG is {} bytes", svg.len());
    // Sub-pixel intervals of different kinds were merged.
    assert!(svg.contains("merged (dense, mixed)"));
}

#[test]
fn extreme_times_give_finite_coordinates() {
    for (start, end) in [(-1e308, 1e308), (0.0, 1e-320), (1e300, 1e300), (-5.0, -1.0)] {
        let mut t = Trace::new("extreme");
        let p = t.add_lane("P0", "processors");
        t.push(p, start, end, "x", Kind::Busy);
        let svg = render_svg(&t, &GanttOptions::default()).unwrap();
        assert_well_formed_svg(&svg);
        assert!(
            !svg.contains("NaN") && !svg.contains("inf"),
            "{start}..{end}"
        );
        assert_eq!(bar_count(&svg), 1);
    }
}

/// The legend names only the kinds of bar drawn, and busy bars by the caller's labels when
/// given (a PAMELA chart: think, service, queueing), each swatch in its bars' colour.
#[test]
fn legend_entries_follow_the_bars_and_the_callers_labels() {
    let mut t = Trace::new("sim");
    let p = t.add_lane("main p=1", "processes");
    t.push(p, 0.0, 3.0, "delay", Kind::Busy);
    t.push(p, 3.0, 4.0, "wait s", Kind::Wait);
    t.push(p, 4.0, 5.0, "s", Kind::Busy);
    let opts = GanttOptions {
        legend: vec![
            ("delay".into(), "think (delay)".into()),
            ("s".into(), "service at s".into()),
        ],
        wait_legend: Some("queueing for a resource".into()),
        ..GanttOptions::default()
    };
    let svg = render_svg(&t, &opts).unwrap();
    assert_well_formed_svg(&svg);
    let legend = svg.split("<g class=\"legend\">").nth(1).unwrap();
    for entry in ["think (delay)", "service at s", "queueing for a resource"] {
        assert!(legend.contains(&format!(">{entry}<")), "{entry}: {legend}");
    }
    // No overhead bars, so no overhead entry; no generic busy entry either.
    assert!(!legend.contains(">overhead<") && !legend.contains("colour by task"));
    // Each swatch has the colour of its bars.
    let bars = svg.split("<g class=\"bars\">").nth(1).unwrap();
    let fill_of = |tip: &str| {
        let i = bars.find(tip).unwrap();
        let rect = &bars[..i].rsplit("<rect").next().unwrap();
        rect.split("fill=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_string()
    };
    let delay = fill_of("<title>delay");
    let service = fill_of("<title>s (busy)");
    assert_ne!(delay, service);
    for (fill, entry) in [(delay, "think (delay)"), (service, "service at s")] {
        let swatch = legend.split(&format!(">{entry}<")).next().unwrap();
        let swatch = swatch.rsplit("<rect").next().unwrap();
        assert!(
            swatch.contains(&format!("fill=\"{fill}\"")),
            "{entry}: {swatch}"
        );
    }
}
