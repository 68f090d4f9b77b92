//! The models of a table as people and programs read them: a text report, a LaTeX one, an
//! SVG plot per operation of the measurements against the model, and [`Report`], whose
//! serialisation is the JSON report.

use serde::Serialize;
use trace::plot::{LinePlot, Series, Stroke};
use trace::text::{num, Align, TextTable};

use crate::model::{Candidate, Criterion, OpModel};
use crate::table::Statistic;

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
    /// One entry per operation (per platform and time-sharing).
    pub operations: Vec<Operation>,
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
    /// The chosen form's name (`null` if none could be fitted).
    pub chosen: Option<&'static str>,
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
    /// The model as text: `7710.149 + 7834.088 * log2(p)`.
    pub equation: String,
    /// `(term, coefficient)` in the form's order.
    pub coefficients: Vec<(&'static str, f64)>,
    /// The difference on the fitted cells.
    pub fitted: crate::Difference,
    /// The difference on cells left out one at a time.
    pub cross_validated: Option<crate::Difference>,
    /// The residual sum of squares.
    pub rss: f64,
    /// The condition number of the column-scaled design.
    pub condition: f64,
}

/// The model as an equation: `7710.149 + 7834.088·log2(p)`, coefficients to seven
/// significant digits.
pub fn equation(c: &Candidate) -> String {
    let mut s = String::new();
    for (k, (t, &v)) in c.form.terms.iter().zip(&c.coefficients).enumerate() {
        let text = if t.text() == "1" {
            num(v.abs())
        } else {
            format!("{}·{}", num(v.abs()), t.text().replace('*', "·"))
        };
        match (k, v < 0.0) {
            (0, true) => s.push_str(&format!("-{text}")),
            (0, false) => s.push_str(&text),
            (_, true) => s.push_str(&format!(" - {text}")),
            (_, false) => s.push_str(&format!(" + {text}")),
        }
    }
    s
}

/// The JSON report of `models`.
pub fn report(models: &[OpModel], time_unit: &str, size_unit: &str) -> Report {
    let first = models.first();
    Report {
        version: JSON_VERSION,
        time_unit: time_unit.to_string(),
        size_unit: size_unit.to_string(),
        statistic: first.map_or(Statistic::default(), |m| m.statistic),
        criterion: first.map_or(Criterion::default(), |m| m.criterion),
        operations: models
            .iter()
            .map(|m| Operation {
                op: m.group.op.clone(),
                platform: m.group.platform.clone(),
                time_shared: m.group.shared,
                cells: m.group.cells.len(),
                runs: m.group.cells.iter().map(|c| c.times.len()).sum(),
                chosen: m.best().map(|c| c.form.name),
                models: m
                    .candidates
                    .iter()
                    .map(|c| ModelEntry {
                        form: c.form.name,
                        equation: equation(c),
                        coefficients: c
                            .form
                            .terms
                            .iter()
                            .map(|t| t.text())
                            .zip(c.coefficients.iter().copied())
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
        out.push_str(&format!(
            "{}: {} cells, {runs} runs ({}), times in {time_unit}, each cell's {stat}\n",
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
            t.push(vec![
                if i == 0 { "*" } else { "" }.to_string(),
                c.form.name.to_string(),
                equation(c),
                pct(Some(c.fitted)),
                pct(c.cross_validated),
            ]);
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
            Some(format!(
                "t_{{\\text{{{label}}}}}({args}) &= {}\\ \\text{{{}}} && \\text{{APD {:.1}\\%, SD {:.1}\\%}}",
                fit::report::model_latex(&c.model(), &names),
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
