//! The texts and JSON documents of campaigns and studies.

use std::path::Path;

use serde::Serialize;

use crate::compare::{Comparison, MethodResult};
use crate::file::Campaign;
use crate::folder::Manifest;
use crate::plan::Cell;

/// The JSON document of a campaign's plan.
#[derive(Serialize)]
pub struct PlanJson<'a> {
    /// The checked campaign.
    pub campaign: &'a Campaign,
    /// Its cells.
    pub cells: &'a [Cell],
}

/// `value` as pretty JSON with a final newline (the `--format json` document).
///
/// # Errors
/// A value serde cannot encode as JSON.
pub fn json<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}

/// A campaign's plan as JSON ([`PlanJson`]) or text ([`plan_text`]).
///
/// # Errors
/// [`json`]'s.
pub fn plan(c: &Campaign, json: bool) -> serde_json::Result<String> {
    let cells = crate::plan::cells(c);
    match json {
        true => self::json(&PlanJson {
            campaign: c,
            cells: &cells,
        }),
        false => Ok(plan_text(c, &cells)),
    }
}

/// What a campaign left in the study `dir`, as JSON or text ([`manifest_text`]).
///
/// # Errors
/// [`json`]'s.
pub fn manifest(m: &Manifest, dir: &Path, json: bool) -> serde_json::Result<String> {
    match json {
        true => self::json(m),
        false => Ok(manifest_text(m, dir)),
    }
}

/// `n thing` or `n things`.
fn plural(n: u64, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// A campaign's plan as text: the command, the runtime and each cell.
pub fn plan_text(c: &Campaign, cells: &[Cell]) -> String {
    let mut s = format!(
        "campaign {}: {} ({} runtime), {}, {}, at most {} s a run\n\n",
        c.name,
        c.command
            .iter()
            .map(|w| format!("`{w}`"))
            .collect::<Vec<_>>()
            .join(" "),
        c.runtime.name(),
        plural(cells.len() as u64, "cell"),
        plural(c.runs(), "run"),
        trace::text::num(c.timeout_s)
    );
    use trace::text::Align::{Left, Right};
    let heads = [
        ("index", Right),
        ("cell", Left),
        ("set", Left),
        (c.names.size.as_str(), Right),
        (c.names.workers.as_str(), Right),
        ("runs", Right),
    ];
    let mut t = trace::text::TextTable::new(heads.map(|(h, a)| (h.to_string(), a)));
    for x in cells {
        t.push(vec![
            x.index.to_string(),
            x.id(),
            x.set.name().to_string(),
            trace::text::num(x.n),
            x.p.to_string(),
            x.reps.to_string(),
        ]);
    }
    s.push_str(&t.render(""));
    s
}

/// What a campaign left in the study `dir`, as text.
pub fn manifest_text(m: &Manifest, dir: &Path) -> String {
    let mut s = format!(
        "campaign {}: {} of {} finished ({} of {}) in {}\n",
        m.name,
        m.cells_done,
        plural(m.cells as u64, "cell"),
        m.runs_done,
        plural(m.runs, "run"),
        dir.display()
    );
    for f in &m.files {
        s.push_str(&format!("  {f}\n"));
    }
    if m.machine_profile {
        s.push_str(&format!("  {}\n", crate::folder::MACHINE));
    }
    s
}

/// A relative error as a percentage.
fn pct(e: Option<f64>) -> String {
    match e {
        None => "-".to_string(),
        Some(e) if e.is_finite() && e < 100.0 => format!("{:.1}%", 100.0 * e),
        Some(e) => format!("{}x off", trace::text::num(e)),
    }
}

/// A comparison as text: the summary per method, the recommendation, each test point,
/// the notes.
pub fn comparison_text(c: &Comparison) -> String {
    use trace::text::Align::{Left, Right};
    let applied: Vec<&MethodResult> = c.methods.iter().filter(|m| m.skipped.is_none()).collect();
    let sizes: Vec<String> = c
        .training_sizes
        .iter()
        .map(|v| trace::text::num(*v))
        .collect();
    let points = c.test_points;
    let mut s = format!(
        "study {}: {} of {} methods applied, {points} test point(s); training {} = {}\n\n",
        c.study,
        applied.len(),
        c.methods.len(),
        c.parameters[0],
        sizes.join(", ")
    );
    let mut t = trace::text::TextTable::new(
        [
            ("method", Left),
            ("median error", Right),
            ("max error", Right),
            ("self-assessed", Right),
        ]
        .map(|(h, a)| (h.to_string(), a)),
    );
    for m in &applied {
        t.push(vec![
            m.method.to_string(),
            pct(m.median_error),
            pct(m.max_error),
            pct(m.self_assessed_error),
        ]);
    }
    s.push_str(&t.render("  "));
    for m in c.methods.iter().filter(|m| m.skipped.is_some()) {
        s.push_str(&format!(
            "  not applied: {}: {}\n",
            m.method,
            m.skipped.as_deref().unwrap_or_default()
        ));
    }
    s.push('\n');
    match &c.recommended {
        Some(r) => {
            s.push_str(&format!("recommended: {} ({})\n", r.method, r.why));
            s.push_str(&format!(
                "  on the test points: {} median error (self-assessed {}); the best method there: {} at {}\n",
                pct(r.actual_error),
                pct(Some(r.self_assessed_error)),
                r.best_method.unwrap_or("-"),
                pct(r.best_error)
            ));
        }
        None => s.push_str(if c.training_sizes.len() < 2 {
            "recommended: none (forward validation inside the training data needs two training sizes)\n"
        } else {
            "recommended: none (no applied method could be validated inside the training data)\n"
        }),
    }
    if let Some(first) = applied.first() {
        s.push_str(
            "\npredictions (s), error against the measurement (the median of its repetitions):\n",
        );
        let mut heads = vec![("point".to_string(), Left), ("measured".to_string(), Right)];
        heads.extend(applied.iter().map(|m| (m.method.to_string(), Right)));
        let mut t = trace::text::TextTable::new(heads);
        for (k, pt) in first.points.iter().enumerate() {
            let mut row = vec![pt.point.clone(), trace::text::num(pt.measured)];
            for m in &applied {
                row.push(m.points.get(k).map_or("-".to_string(), |q| {
                    format!(
                        "{} ({:+.1}%)",
                        trace::text::num(q.predicted),
                        100.0 * (q.predicted / q.measured - 1.0)
                    )
                }));
            }
            t.push(row);
        }
        s.push_str(&t.render("  "));
    }
    for n in &c.notes {
        s.push_str(&format!("note: {n}\n"));
    }
    s
}

diag::choices! {
    /// How a comparison is written.
    pub enum Format {
        /// [`comparison_text`].
        Text = "text": "Aligned text for people",
        /// One JSON object (the [`Comparison`] serialised).
        Json = "json": "One JSON object (documented schema)",
        /// [`comparison_csv`].
        Csv = "csv": "A row per method and test point",
    }
}

/// A comparison as CSV: a row per method and test point.
pub fn comparison_csv(c: &Comparison) -> String {
    let mut t = trace::csv::Table::new([
        "study",
        "method",
        "point",
        "n",
        "p",
        "predicted",
        "lower",
        "upper",
        "measured",
        "error",
    ]);
    for m in &c.methods {
        for q in &m.points {
            t.push_row([
                trace::csv::Cell::from(c.study.as_str()),
                m.method.into(),
                q.point.as_str().into(),
                q.n.into(),
                f64::from(q.p).into(),
                q.predicted.into(),
                q.interval.map(|i| i[0]).into(),
                q.interval.map(|i| i[1]).into(),
                q.measured.into(),
                q.error.into(),
            ]);
        }
    }
    t.to_string()
}

/// The comparison's plot: the measured times (training and test) and each method's
/// predictions against the size, a line per worker count, the sizes beyond the training
/// shaded.
///
/// # Errors
/// The plot's renderer.
pub fn comparison_plot(
    c: &Comparison,
    measured: &[(crate::compare::Point, f64)],
) -> Result<String, trace::TraceError> {
    use trace::plot::{LinePlot, Series, Stroke};
    let mut ps: Vec<u32> = measured.iter().map(|(q, _)| q.p).collect();
    ps.sort_unstable();
    ps.dedup();
    let mut series = Vec::new();
    for &p in &ps {
        let pts: Vec<(f64, f64)> = measured
            .iter()
            .filter(|(q, _)| q.p == p)
            .map(|(q, t)| (q.n, *t))
            .collect();
        series.push(
            Series::new(format!("measured, {}={p}", c.parameters[1]), pts)
                .with_stroke(Stroke::Points),
        );
        for m in c.methods.iter().filter(|m| !m.points.is_empty()) {
            let pts: Vec<(f64, f64)> = m
                .points
                .iter()
                .filter(|q| q.p == p)
                .map(|q| (q.n, q.predicted))
                .collect();
            if !pts.is_empty() {
                series.push(
                    Series::new(format!("{}, {}={p}", m.method, c.parameters[1]), pts)
                        .with_stroke(Stroke::Dashed),
                );
            }
        }
    }
    let plot = LinePlot {
        title: format!("{}: measured and predicted time", c.study),
        x_label: c.parameters[0].clone(),
        y_label: "time (s)".into(),
        series,
        log_x: false,
        log_y: true,
        shade_from: c
            .training_sizes
            .last()
            .map(|v| (*v, "beyond the training sizes".to_string())),
    };
    plot.render_svg(900, 560)
}
