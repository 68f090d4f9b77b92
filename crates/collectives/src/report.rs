//! The models of a table as people and programs read them: a text report, a LaTeX one, an
//! SVG plot per operation of the measurements against the model, and [`Report`], whose
//! serialisation is the JSON report.

use serde::Serialize;
use trace::plot::{LinePlot, Series, Stroke};
use trace::text::{fixed, num, Align, TextTable};

use crate::model::{Candidate, Criterion, Fitting, OpModel};
use crate::table::Statistic;

/// The formats of a fit's report: text, JSON ([`Report`]) or LaTeX (the chosen models as
/// an `align*` environment).
pub use fit::report::Format;

/// The report of `models` fitted to `table` in `format`, with the chosen models' times at
/// `points` (text and JSON). JSON is pretty and ends with a newline.
pub fn render(
    models: &[OpModel],
    table: &crate::Table,
    points: &[(f64, f64)],
    format: Format,
) -> String {
    let (time_unit, size_unit) = (&table.time_unit, &table.size_unit);
    match format {
        Format::Text => {
            let mut s = text(models, time_unit, size_unit);
            s.push_str(&predictions_text(&predictions(models, points), time_unit));
            s
        }
        Format::Json => json_text(&report(models, time_unit, size_unit, points)),
        Format::Latex => latex(models, time_unit),
    }
}

/// `value` as pretty JSON ending with a newline.
pub(crate) fn json_text(value: &impl Serialize) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("a report encodes");
    s.push('\n');
    s
}

/// A plot that cannot be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot of {label}: {error}")]
pub struct PlotFailure {
    /// The operation.
    pub label: String,
    /// Why.
    pub error: trace::TraceError,
}

impl diag::Advise for PlotFailure {
    /// Nothing to add (an empty fix): the plotting library's reason.
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::fix(""))
    }
}

/// One SVG plot per operation ([`plot`]) with its file name: `broadcast.svg`,
/// `broadcast-T3D.svg` (the platform), `broadcast-shared.svg` (time-shared rows); a
/// character other than a letter, a digit or `-` is `_`.
///
/// # Errors
/// The first [`PlotFailure`].
pub fn plots(
    models: &[OpModel],
    table: &crate::Table,
) -> Result<Vec<(String, String)>, PlotFailure> {
    models
        .iter()
        .map(|m| {
            let mut name = m.group.op.clone();
            if !m.group.platform.is_empty() {
                name.push('-');
                name.push_str(&m.group.platform);
            }
            if m.group.shared {
                name.push_str("-shared");
            }
            let name: String = name
                .chars()
                .map(|c| {
                    if c.is_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let svg = plot(m, &table.time_unit, &table.size_unit).map_err(|error| PlotFailure {
                label: m.group.label(),
                error,
            })?;
            Ok((format!("{name}.svg"), svg))
        })
        .collect()
}

/// The version of the JSON report's layout.
pub const JSON_VERSION: u32 = 1;

/// Everything a fit of a table found: the JSON report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// [`JSON_VERSION`].
    pub version: u32,
    /// The unit of the times.
    pub time_unit: String,
    /// The unit of the message sizes.
    pub size_unit: String,
    /// The value of each cell's repetitions the models were fitted to.
    pub statistic: Statistic,
    /// How the forms were ranked.
    pub criterion: Criterion,
    /// What the least squares minimised.
    pub fitting: Fitting,
    /// One entry per operation (per platform and time-sharing).
    pub operations: Vec<Operation>,
    /// The chosen models' times at the points asked for.
    pub predictions: Vec<Prediction>,
}

/// A chosen model's time at a point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prediction {
    /// The operation's label (`broadcast on T3D`).
    pub operation: String,
    /// The model that predicts (`size ×2`).
    pub form: String,
    /// Processes.
    pub p: f64,
    /// Message size (`None` for an operation without data).
    pub d: Option<f64>,
    /// The predicted time.
    pub time: f64,
    /// Whether the point lies outside the measured `p` and `d` (an extrapolation).
    pub extrapolated: bool,
}

/// Every chosen model's time at each `(p, d)` of `points`.
pub fn predictions(models: &[OpModel], points: &[(f64, f64)]) -> Vec<Prediction> {
    let mut out = Vec::new();
    for m in models {
        let Some(best) = m.best() else { continue };
        let ps = m.group.cells.iter().map(|c| f64::from(c.p));
        let (pmin, pmax) = (
            ps.clone().fold(f64::INFINITY, f64::min),
            ps.fold(0.0, f64::max),
        );
        let ds: Vec<f64> = m.group.cells.iter().filter_map(|c| c.d).collect();
        let (dmin, dmax) = (
            ds.iter().copied().fold(f64::INFINITY, f64::min),
            ds.iter().copied().fold(0.0, f64::max),
        );
        let mut seen: Vec<(f64, Option<f64>)> = Vec::new();
        for &(p, d) in points {
            let d = m.group.has_size().then_some(d);
            // An operation without data is predicted once per p, whatever the sizes asked.
            if seen.contains(&(p, d)) {
                continue;
            }
            seen.push((p, d));
            out.push(Prediction {
                operation: m.group.label(),
                form: best.name(),
                p,
                d,
                time: best.predict(p, d.unwrap_or(0.0)),
                extrapolated: p < pmin || p > pmax || d.is_some_and(|d| d < dmin || d > dmax),
            });
        }
    }
    out
}

/// The predictions as text lines: `broadcast on T3D at p = 512, d = 1000: 5873 µs (log-size,
/// extrapolated)`.
pub fn predictions_text(preds: &[Prediction], time_unit: &str) -> String {
    let mut s = String::new();
    for p in preds {
        let d = p.d.map(|d| format!(", d = {}", num(d))).unwrap_or_default();
        s.push_str(&format!(
            "{} at p = {}{d}: {} {time_unit} ({}{})\n",
            p.operation,
            num(p.p),
            num(p.time),
            p.form,
            if p.extrapolated { ", extrapolated" } else { "" }
        ));
    }
    s
}

/// One operation's models in the JSON report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Operation {
    /// The operation.
    pub op: String,
    /// The platform (empty if the table names none).
    pub platform: String,
    /// Whether the runs time-shared processors (more processes than processors).
    pub time_shared: bool,
    /// The number of cells (distinct `(p, d)`) and of rows.
    pub cells: usize,
    /// The number of timed runs.
    pub runs: usize,
    /// The chosen model's name, the form's with its regimes (`size ×2`; `null` if no form
    /// could be fitted).
    pub chosen: Option<String>,
    /// Every form fitted, best first.
    pub models: Vec<ModelEntry>,
    /// The forms that could not be fitted, and why.
    pub skipped: Vec<crate::model::Skipped>,
}

/// One fitted form in the JSON report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelEntry {
    /// The form's name.
    pub form: &'static str,
    /// The model as text: `7710.149 + 7834.088·log2(p)`; with regimes, each with its range
    /// of sizes.
    pub equation: String,
    /// The form's coefficients per size regime, by increasing size.
    pub regimes: Vec<RegimeEntry>,
    /// The difference on the fitted cells.
    pub fitted: crate::Difference,
    /// The difference on cells left out one at a time.
    pub cross_validated: Option<crate::Difference>,
    /// The residual sum of squares.
    pub rss: f64,
    /// The condition number of the column-scaled design.
    pub condition: f64,
}

/// One size regime of a model in the JSON report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegimeEntry {
    /// The size where the next regime starts; this one covers the sizes below it (`null`:
    /// every larger size).
    pub upto: Option<f64>,
    /// `(term, coefficient)` in the form's order.
    pub coefficients: Vec<(&'static str, f64)>,
}

/// The model as an equation: `7710.149 + 7834.088·log2(p)`, coefficients to seven
/// significant digits; with regimes, `d < 1024: …; d < 8192: …; d ≥ 8192: …`.
pub fn equation(c: &Candidate) -> String {
    if c.pieces.len() == 1 {
        return piece_equation(c.form, &c.pieces[0].coefficients);
    }
    let mut parts = Vec::new();
    let mut last = 0.0;
    for piece in &c.pieces {
        let e = piece_equation(c.form, &piece.coefficients);
        match piece.upto {
            Some(u) => {
                parts.push(format!("d < {}: {e}", num(u)));
                last = u;
            }
            None => parts.push(format!("d ≥ {}: {e}", num(last))),
        }
    }
    parts.join("; ")
}

/// The sum `Σ coefficients·terms` of one piece as text.
fn piece_equation(form: crate::Form, coefficients: &[f64]) -> String {
    form.text(coefficients).replace('*', "·")
}

/// The JSON report of `models`, with the chosen models' times at `points`.
pub fn report(
    models: &[OpModel],
    time_unit: &str,
    size_unit: &str,
    points: &[(f64, f64)],
) -> Report {
    let first = models.first();
    Report {
        version: JSON_VERSION,
        time_unit: time_unit.to_string(),
        size_unit: size_unit.to_string(),
        statistic: first.map_or(Statistic::default(), |m| m.statistic),
        criterion: first.map_or(Criterion::default(), |m| m.criterion),
        fitting: first.map_or(Fitting::default(), |m| m.fitting),
        operations: models
            .iter()
            .map(|m| Operation {
                op: m.group.op.clone(),
                platform: m.group.platform.clone(),
                time_shared: m.group.shared,
                cells: m.group.cells.len(),
                runs: m.group.cells.iter().map(|c| c.times.len()).sum(),
                chosen: m.best().map(|c| c.name()),
                models: m
                    .candidates
                    .iter()
                    .map(|c| ModelEntry {
                        form: c.form.name,
                        equation: equation(c),
                        regimes: c
                            .pieces
                            .iter()
                            .map(|piece| RegimeEntry {
                                upto: piece.upto,
                                coefficients: c
                                    .form
                                    .terms
                                    .iter()
                                    .map(|t| t.text())
                                    .zip(piece.coefficients.iter().copied())
                                    .collect(),
                            })
                            .collect(),
                        fitted: c.fitted,
                        cross_validated: c.cross_validated,
                        rss: c.rss,
                        condition: c.condition,
                    })
                    .collect(),
                skipped: m.skipped.clone(),
            })
            .collect(),
        predictions: predictions(models, points),
    }
}

/// A percentage with its standard deviation: `4.1% (SD 2.9)`.
fn pct(d: Option<crate::Difference>) -> String {
    match d {
        Some(d) => format!("{:.1}% (SD {:.1})", d.mean, d.sd),
        None => "-".to_string(),
    }
}

/// The range of a group's `p` and `d`, for a heading: `p 2–256, d 1–1000000 integers`.
fn extent(m: &OpModel, size_unit: &str) -> String {
    let ps = m.group.cells.iter().map(|c| c.p);
    let (pmin, pmax) = (ps.clone().min().unwrap_or(0), ps.max().unwrap_or(0));
    let mut s = if pmin == pmax {
        format!("p {pmin}")
    } else {
        format!("p {pmin}–{pmax}")
    };
    let ds: Vec<f64> = m.group.cells.iter().filter_map(|c| c.d).collect();
    if let (Some(lo), Some(hi)) = (
        ds.iter().copied().reduce(f64::min),
        ds.iter().copied().reduce(f64::max),
    ) {
        s.push_str(&format!(", d {}–{} {size_unit}", num(lo), num(hi)));
    }
    s
}

/// The text report: per operation a heading, a table of the forms (chosen first, marked
/// `*`) with their fitted and cross-validated differences, and the forms skipped.
pub fn text(models: &[OpModel], time_unit: &str, size_unit: &str) -> String {
    let mut out = String::new();
    for m in models {
        let runs: usize = m.group.cells.iter().map(|c| c.times.len()).sum();
        let stat = match m.statistic {
            Statistic::Median => "median",
            Statistic::Mean => "mean",
            Statistic::Min => "minimum",
        };
        let fitting = match m.fitting {
            Fitting::Relative => "least squares of relative residuals",
            Fitting::Absolute => "least squares of absolute residuals (as the thesis)",
        };
        out.push_str(&format!(
            "{}: {} cells, {runs} runs ({}), times in {time_unit}\n  fitted to each cell's {stat} by {fitting}\n",
            m.group.label(),
            m.group.cells.len(),
            extent(m, size_unit),
        ));
        if m.group.shared {
            out.push_str(
                "  time-shared: more processes than processors; these models describe \
                 the oversubscribed machine, not the network\n",
            );
        }
        let mut t = TextTable::new([
            ("".to_string(), Align::Left),
            ("form".to_string(), Align::Left),
            ("model".to_string(), Align::Left),
            ("fitted APD".to_string(), Align::Right),
            ("cross-validated APD".to_string(), Align::Right),
        ]);
        for (i, c) in m.candidates.iter().enumerate() {
            // A model with regimes takes a line per regime.
            let eq = equation(c);
            let mut parts = eq.split("; ");
            t.push(vec![
                if i == 0 { "*" } else { "" }.to_string(),
                c.name(),
                parts.next().unwrap_or("").to_string(),
                pct(Some(c.fitted)),
                pct(c.cross_validated),
            ]);
            for part in parts {
                t.push(vec![
                    String::new(),
                    String::new(),
                    part.to_string(),
                    String::new(),
                    String::new(),
                ]);
            }
        }
        out.push_str(&t.render("  "));
        for s in &m.skipped {
            out.push_str(&format!("  not fitted: {}: {}\n", s.form, s.reason));
        }
        match m.criterion {
            Criterion::CrossValidated => out.push_str(
                "  * chosen: lowest average prediction difference on cells left out one at a time\n",
            ),
            Criterion::Fitted => out.push_str(
                "  * chosen: lowest average prediction difference on the fitted cells (the thesis' rule)\n",
            ),
        }
        out.push('\n');
    }
    out
}

/// The LaTeX report: one `align*` line per operation with its chosen model and its
/// average prediction difference.
pub fn latex(models: &[OpModel], time_unit: &str) -> String {
    let names = ["p".to_string(), "d".to_string()];
    let mut s = String::from("\\begin{align*}\n");
    let rows: Vec<String> = models
        .iter()
        .filter_map(|m| {
            let c = m.best()?;
            let label = expr::print::escape_latex(&m.group.label(), expr::print::LatexMode::Text);
            let args = if m.group.has_size() { "p, d" } else { "p" };
            let body = if c.pieces.len() == 1 {
                fit::report::model_latex(&c.model(0.0), &names)
            } else {
                let mut last = 0.0;
                let rows: Vec<String> = c
                    .pieces
                    .iter()
                    .map(|piece| {
                        let m = c.form.model(&piece.coefficients);
                        let cond = match piece.upto {
                            Some(u) => {
                                last = u;
                                format!("d < {}", num(last))
                            }
                            None => format!("d \\ge {}", num(last)),
                        };
                        format!("{} & {cond}", fit::report::model_latex(&m, &names))
                    })
                    .collect();
                format!("\\begin{{cases}} {} \\end{{cases}}", rows.join(" \\\\ "))
            };
            Some(format!(
                "t_{{\\text{{{label}}}}}({args}) &= {}\\ \\text{{{}}} && \\text{{APD {:.1}\\%, SD {:.1}\\%}}",
                body,
                expr::print::escape_latex(time_unit, expr::print::LatexMode::Text),
                c.fitted.mean,
                c.fitted.sd
            ))
        })
        .collect();
    s.push_str(&rows.join(" \\\\\n"));
    s.push_str("\n\\end{align*}\n");
    s
}

/// An SVG plot of one operation: the measured cells as points and the chosen model as
/// lines, one colour per process count, against the message size (log axes); for an
/// operation without data, time against `p`.
///
/// # Errors
/// The plotting library's message if the SVG cannot be drawn.
pub fn plot(m: &OpModel, time_unit: &str, size_unit: &str) -> Result<String, trace::TraceError> {
    let best = m.best();
    let mut series = Vec::new();
    if m.group.has_size() {
        let mut ps: Vec<u32> = m.group.cells.iter().map(|c| c.p).collect();
        ps.dedup();
        for p in ps {
            let cells: Vec<(f64, f64)> = m
                .group
                .cells
                .iter()
                .filter(|c| c.p == p)
                .filter_map(|c| Some((c.d?, c.value(m.statistic))))
                .collect();
            series.push(Series::new(format!("p = {p}"), cells.clone()).with_stroke(Stroke::Points));
            if let Some(b) = best {
                let line = cells
                    .iter()
                    .map(|&(d, _)| (d, b.predict(f64::from(p), d)))
                    .collect();
                series.push(Series::new("", line).with_stroke(Stroke::Line));
            }
        }
    } else {
        let cells: Vec<(f64, f64)> = m
            .group
            .cells
            .iter()
            .map(|c| (f64::from(c.p), c.value(m.statistic)))
            .collect();
        if let Some(b) = best {
            let line = cells.iter().map(|&(p, _)| (p, b.predict(p, 0.0))).collect();
            series.push(
                Series::new(format!("model ({})", b.form.name), line).with_stroke(Stroke::Line),
            );
        }
        series.push(Series::new("measured", cells).with_stroke(Stroke::Points));
    }
    let title = match best {
        Some(b) => format!("{}: {}", m.group.label(), equation(b)),
        None => m.group.label(),
    };
    LinePlot {
        shade_from: None,
        title,
        x_label: if m.group.has_size() {
            format!("d ({size_unit})")
        } else {
            "p (processes)".to_string()
        },
        y_label: format!("time ({time_unit})"),
        series,
        log_x: m.group.has_size(),
        log_y: m.group.has_size(),
    }
    .render_svg(800, 500)
}

impl crate::skeleton::Predicted {
    /// The predictions as text ([`skeleton_text`]) or as pretty JSON ending with a newline.
    pub fn render(&self, json: bool) -> String {
        match json {
            true => json_text(self),
            false => skeleton_text(self),
        }
    }
}

/// The text report of a skeleton's predictions: the formula, then a table of the points
/// (parameters, p, numerical and symbolic time) and the notes of missing predictions.
pub fn skeleton_text(pr: &crate::skeleton::Predicted) -> String {
    let mut out = String::new();
    match (&pr.formula, &pr.formula_note) {
        (Some(f), _) => out.push_str(&format!("symbolic time ({}) = {f}\n\n", pr.time_unit)),
        (None, Some(why)) => out.push_str(&format!("no formula: {why}\n\n")),
        (None, None) => {}
    }
    let names: Vec<String> = pr
        .points
        .first()
        .map(|p| p.params.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default();
    let mut cols: Vec<(String, Align)> = names.iter().map(|n| (n.clone(), Align::Right)).collect();
    cols.push(("p".into(), Align::Right));
    cols.push((format!("numerical ({})", pr.time_unit), Align::Right));
    cols.push((format!("symbolic ({})", pr.time_unit), Align::Right));
    let networks: Vec<&'static str> = pr
        .points
        .first()
        .map(|p| p.lowered.iter().map(|l| l.network).collect())
        .unwrap_or_default();
    for n in &networks {
        cols.push((format!("ETCCS {n} ({})", pr.time_unit), Align::Right));
    }
    let mut t = TextTable::new(cols);
    let mut notes = Vec::new();
    for p in &pr.points {
        let mut row: Vec<String> = p.params.iter().map(|(_, v)| num(*v)).collect();
        row.push(num(p.p));
        row.push(p.numerical.map_or("-".into(), num));
        row.push(match p.symbolic {
            Some(v) if p.extrapolated => format!("{}*", num(v)),
            Some(v) => num(v),
            None => "-".into(),
        });
        for l in &p.lowered {
            row.push(l.time.map_or("-".into(), num));
            if let Some(n) = &l.note {
                notes.push(format!("ETCCS {} at p = {}: {n}", l.network, num(p.p)));
            }
        }
        t.push(row);
        notes.extend(p.notes.iter().cloned());
    }
    out.push_str(&t.render(""));
    if pr.points.iter().any(|p| p.extrapolated) {
        out.push_str(
            "* a collective of the skeleton falls outside the process counts or sizes measured: \
             the prediction extrapolates\n",
        );
    }
    let diffs: Vec<String> = pr
        .model_differences
        .iter()
        .map(|(op, form, d)| match d {
            Some(d) => format!("{op} ({form}) {}%", fixed(*d, 1)),
            None => format!("{op} ({form}) not cross-validated"),
        })
        .collect();
    if !diffs.is_empty() {
        out.push_str(&format!(
            "trust: the symbolic models' average difference on measurements left out: {}\n",
            diffs.join(", ")
        ));
    }
    notes.dedup();
    for n in notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_are_named_by_operation_platform_and_sharing() {
        let text = "platform,op,p,d,time,shared\n\
                    T3D,barrier,2,,1,0\nT3D,barrier,4,,2,0\nT3D,barrier,8,,3,0\n\
                    T3D,barrier,2,,2,1\nT3D,barrier,4,,4,1\nT3D,barrier,8,,6,1\n";
        let t = crate::read_csv("t.csv", text).unwrap();
        let models = crate::fit_all(&t, &crate::Options::default()).unwrap();
        let names: Vec<String> = plots(&models, &t)
            .unwrap()
            .into_iter()
            .map(|p| p.0)
            .collect();
        assert_eq!(names, ["barrier-T3D.svg", "barrier-T3D-shared.svg"]);
        let json = render(&models, &t, &[(2.0, 1.0)], Format::Json);
        assert!(json.ends_with("}\n"));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["version"], JSON_VERSION);
        assert!(render(&models, &t, &[], Format::Latex).contains("align*"));
    }
}
