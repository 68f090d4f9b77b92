//! The reports of a modelled experiment: text for people, JSON with a stable schema, a
//! ranking of callpaths by asymptotic growth, and the plot of a one-parameter model.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use trace::text::num;

use crate::model::{Basis, Fitted, Model};
use crate::run::{Prediction, SeriesModel};

diag::choices! {
    /// The formats of a report that can be written as equations: `vates fit`'s, the
    /// collective models' (`collectives::report`) and PAMELA's bound.
    #[derive(Default)]
    pub enum Format {
        /// Aligned text.
        #[default]
        Text = "text": "Aligned text for people",
        /// One JSON object.
        Json = "json": "One JSON object (documented schema)",
        /// LaTeX equations.
        Latex = "latex": "LaTeX equations",
    }
}

/// What a report cannot show as asked: a usage error, its inputs named by the keys of
/// [`diag::Advice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unshown {
    /// Predictions in LaTeX, or beside a ranking in text.
    #[error("predictions show in the text and JSON reports")]
    Predictions,
    /// A regression on basis functions in LaTeX.
    #[error("a regression prints text or JSON")]
    RegressionLatex,
    /// A regression on basis functions of a file that is not CSV.
    #[error("a regression reads a CSV file")]
    RegressionNotCsv,
}

impl diag::Advise for Unshown {
    /// The format (and ranking) to change.
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::usage(match self {
            Unshown::Predictions => "drop {rank} and {format} latex, or use {format} json",
            Unshown::RegressionLatex => "use {format} text or {format} json",
            Unshown::RegressionNotCsv => "drop {from} or give {from} csv",
        }))
    }

    /// The message with its inputs: `predictions ({define}, {predict}) show …`, `{basis}
    /// prints …`.
    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        let keyed = match self {
            Unshown::Predictions => {
                "predictions ({define}, {predict}) show in the text and JSON reports"
            }
            Unshown::RegressionLatex => "{basis} prints text or JSON",
            Unshown::RegressionNotCsv => "{basis} reads a CSV file",
        };
        diag::spell_keys(keyed, spell)
    }
}

/// Checks that a report in `format`, ranked or not, shows the predictions asked for
/// (`predicts`): they show in text and JSON, and beside a ranking only in JSON.
///
/// # Errors
/// [`Unshown::Predictions`].
pub fn shows(format: Format, rank: bool, predicts: bool) -> Result<(), Unshown> {
    match predicts && (rank || format == Format::Latex) && format != Format::Json {
        true => Err(Unshown::Predictions),
        false => Ok(()),
    }
}

/// Checks that a regression on basis functions ([`crate::basis::Regression`]) can be read
/// from a file in `from` (none: told by the file) and reported in `format`.
///
/// # Errors
/// [`Unshown::RegressionLatex`], then [`Unshown::RegressionNotCsv`].
pub fn regression_shows(format: Format, from: Option<crate::read::Format>) -> Result<(), Unshown> {
    if format == Format::Latex {
        return Err(Unshown::RegressionLatex);
    }
    match from.is_some_and(|f| f != crate::read::Format::Csv) {
        true => Err(Unshown::RegressionNotCsv),
        false => Ok(()),
    }
}

/// `v` as pretty JSON ending with a newline.
pub(crate) fn json_text(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("a JSON value with string keys encodes");
    s.push('\n');
    s
}

/// The report of a regression on basis functions in `format` (LaTeX is not one of its
/// formats: the text is given); `method` is the regression's name.
pub fn regression(f: &crate::basis::BasisFit, format: Format, method: &str) -> String {
    match format {
        Format::Json => json_text(&regression_json(f)),
        _ => regression_text(f, method),
    }
}

/// A model in compact text: `2.818 + 0.4827·p^(5/4)·log2(p)`.
pub fn model_text(m: &Model, names: &[String]) -> String {
    let mut s = num(m.constant);
    for t in &m.terms {
        let c = t.coefficient;
        s.push_str(if c < 0.0 { " − " } else { " + " });
        s.push_str(&num(c.abs()));
        s.push('·');
        s.push_str(&basis_text(&t.basis, names));
    }
    s
}

/// A model as an expression `expr::parse` reads, coefficients at full precision:
/// `2.8183276094059617 + 0.48270031135124886*p^(5/4)*log2(p)`.
pub fn model_expr(m: &Model, names: &[String]) -> String {
    let mut s = format!("{:?}", m.constant);
    for t in &m.terms {
        s.push_str(&format!(" + {:?}", t.coefficient));
        let factors = match &t.basis {
            Basis::Pmnf(f) => f,
            Basis::User(u) => {
                s.push_str(&format!("*({})", u.text));
                continue;
            }
        };
        for f in factors {
            let x = names.get(f.param).map_or("?", String::as_str);
            if !f.term.poly.is_zero() {
                s.push_str(&format!("*{x}^({})", f.term.poly));
            }
            if !f.term.log.is_zero() {
                s.push_str(&format!("*log2({x})^({})", f.term.log));
            }
        }
    }
    s
}

/// A basis function in compact text: `p^(5/4)·log2(p)`, `log2(n)^2`.
pub fn basis_text(b: &Basis, names: &[String]) -> String {
    let factors = match b {
        Basis::Pmnf(f) => f,
        Basis::User(u) => return format!("({})", u.text),
    };
    let parts: Vec<String> = factors
        .iter()
        .map(|f| {
            let x = names.get(f.param).map_or("?", String::as_str);
            let (p, l) = (f.term.poly, f.term.log);
            let poly = match (p.num(), p.den()) {
                (0, _) => None,
                (1, 1) => Some(x.to_string()),
                (_, 1) => Some(format!("{x}^{}", p.num())),
                _ => Some(format!("{x}^({p})")),
            };
            let log = match (l.num(), l.den()) {
                (0, _) => None,
                (1, 1) => Some(format!("log2({x})")),
                (_, 1) => Some(format!("log2({x})^{}", l.num())),
                _ => Some(format!("log2({x})^({l})")),
            };
            [poly, log]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("·")
        })
        .collect();
    parts.join("·")
}

fn model_json<'a>(m: &'a Model, names: &'a [String]) -> ModelJson<'a> {
    let terms = m
        .terms
        .iter()
        .map(|t| match &t.basis {
            Basis::User(u) => TermJson::User {
                coefficient: t.coefficient,
                expr: &u.text,
            },
            Basis::Pmnf(factors) => TermJson::Pmnf {
                coefficient: t.coefficient,
                factors: factors
                    .iter()
                    .map(|f| FactorJson {
                        log: f.term.log.to_string(),
                        param: names.get(f.param).map_or("", String::as_str),
                        poly: f.term.poly.to_string(),
                    })
                    .collect(),
            },
        })
        .collect();
    ModelJson {
        constant: m.constant,
        expr: model_expr(m, names),
        terms,
    }
}

/// `v`, or `None` (`null`) when it is not finite.
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn fitted_json<'a>(f: &'a Fitted, names: &'a [String]) -> FittedJson<'a> {
    FittedJson {
        ar2: finite(f.quality.adjusted_r2),
        cv: f.quality.cv.and_then(finite),
        model: model_json(&f.model, names),
        rss: finite(f.quality.rss),
        smape: finite(f.quality.smape),
    }
}

fn prediction_json<'a>(p: &'a Prediction, names: &'a [String]) -> PredictionJson<'a> {
    PredictionJson {
        interval: p.interval.map(|(lo, hi)| [finite(lo), finite(hi)]),
        calibrated: p.calibrated.as_ref(),
        point: names
            .iter()
            .zip(&p.point)
            .map(|(n, &x)| (n.as_str(), finite(x)))
            .collect(),
        value: finite(p.value),
        warnings: &p.warnings,
    }
}

/// One modelled series with its predictions.
pub struct Entry<'a> {
    /// The model.
    pub model: &'a SeriesModel,
    /// Predictions at the requested points.
    pub predictions: Vec<Prediction>,
}

/// The JSON report: `{"modeler": ..., "parameters": [...], "models": [...]}` (the schema in
/// `docs/cli.md`).
pub fn json(modeler: &str, names: &[String], entries: &[Entry<'_>]) -> Value {
    let models = entries
        .iter()
        .map(|e| {
            let m = e.model;
            let best = fitted_json(&m.best, names);
            SeriesJson {
                alternatives: m
                    .alternatives
                    .iter()
                    .map(|a| fitted_json(a, names))
                    .collect(),
                ar2: best.ar2,
                callpath: &m.callpath,
                cv: best.cv,
                metric: &m.metric,
                model: best.model,
                parameters: names,
                points: m.points,
                predictions: e
                    .predictions
                    .iter()
                    .map(|p| prediction_json(p, names))
                    .collect(),
                rss: best.rss,
                runs: m.repetitions,
                smape: best.smape,
                times: m.times_param.map(|p| names[p].as_str()),
                warnings: &m.warnings,
            }
        })
        .collect();
    to_value(ReportJson {
        modeler,
        models,
        parameters: names,
    })
}

/// `doc` as a JSON value (the report structs have string keys only, so this cannot fail).
fn to_value(doc: impl Serialize) -> Value {
    serde_json::to_value(doc).expect("a report serialises")
}

/// The document [`json`] prints; the keys of every report struct here are in alphabetical
/// order, as they print.
#[derive(Serialize)]
struct ReportJson<'a> {
    modeler: &'a str,
    models: Vec<SeriesJson<'a>>,
    parameters: &'a [String],
}

/// One modelled series: its best model with its quality ([`FittedJson`]'s fields), the
/// series, the predictions, the warnings and the runners-up.
#[derive(Serialize)]
struct SeriesJson<'a> {
    alternatives: Vec<FittedJson<'a>>,
    ar2: Option<f64>,
    callpath: &'a str,
    cv: Option<f64>,
    metric: &'a str,
    model: ModelJson<'a>,
    parameters: &'a [String],
    points: usize,
    predictions: Vec<PredictionJson<'a>>,
    rss: Option<f64>,
    runs: usize,
    smape: Option<f64>,
    /// The parameter of `--times`; absent without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    times: Option<&'a str>,
    warnings: &'a [String],
}

/// A fitted model and its quality (`smape` and `cv` are percentages; `null` when not
/// finite).
#[derive(Serialize)]
struct FittedJson<'a> {
    ar2: Option<f64>,
    cv: Option<f64>,
    model: ModelJson<'a>,
    rss: Option<f64>,
    smape: Option<f64>,
}

/// A model: its text (as `expr::parse` reads it), the constant and the terms.
#[derive(Serialize)]
struct ModelJson<'a> {
    constant: f64,
    expr: String,
    terms: Vec<TermJson<'a>>,
}

/// A term: a coefficient times PMNF factors, or times a user's basis expression.
#[derive(Serialize)]
#[serde(untagged)]
enum TermJson<'a> {
    Pmnf {
        coefficient: f64,
        factors: Vec<FactorJson<'a>>,
    },
    User {
        coefficient: f64,
        expr: &'a str,
    },
}

/// A PMNF factor `param^poly·log2(param)^log`, the exponents exact fractions.
#[derive(Serialize)]
struct FactorJson<'a> {
    log: String,
    param: &'a str,
    poly: String,
}

/// A prediction: the point, the value, the bootstrap's interval (`null` without a
/// bootstrap), the calibrated interval (`null` for a value that is not positive), the
/// warnings.
#[derive(Serialize)]
struct PredictionJson<'a> {
    /// The bootstrap's 95% interval.
    interval: Option<[Option<f64>; 2]>,
    /// The calibrated 90% interval ([`crate::interval`]).
    calibrated: Option<&'a crate::interval::Interval>,
    point: BTreeMap<&'a str, Option<f64>>,
    value: Option<f64>,
    warnings: &'a [String],
}

fn percent(v: f64) -> String {
    format!("{}%", trace::text::fixed(v, 2))
}

/// The first line of the text report: the data carry no units, so the models and predictions
/// are in the units the measurements were given in.
pub const VALUE_UNIT_LINE: &str = "models and predictions in the units of the measurements";

/// The text report: per callpath and metric the model, its quality, the runners-up, the
/// predictions with intervals, and the warnings.
pub fn text(modeler: &str, names: &[String], entries: &[Entry<'_>]) -> String {
    let mut s = String::new();
    if !entries.is_empty() {
        s.push_str(VALUE_UNIT_LINE);
        s.push_str("\n\n");
    }
    for e in entries {
        let m = e.model;
        let title = match (m.callpath.is_empty(), m.metric.is_empty()) {
            (true, true) => "(one series)".to_string(),
            (false, true) => m.callpath.clone(),
            (true, false) => m.metric.clone(),
            (false, false) => format!("{} / {}", m.callpath, m.metric),
        };
        let scaled = m
            .times_param
            .map(|p| {
                format!(
                    ", modelled as {}·{}",
                    if m.metric.is_empty() {
                        "value"
                    } else {
                        &m.metric
                    },
                    names[p]
                )
            })
            .unwrap_or_default();
        s.push_str(&format!(
            "{title}  ({} points, {} runs; {modeler} modeler{scaled})\n",
            m.points, m.repetitions
        ));
        let q = &m.best.quality;
        // With `times`, the model is of the metric times a parameter.
        let of = m
            .times_param
            .map(|p| {
                let metric = if m.metric.is_empty() {
                    "value"
                } else {
                    &m.metric
                };
                format!("{metric}·{} = ", names[p])
            })
            .unwrap_or_default();
        s.push_str(&format!(
            "  model     {of}{}\n",
            model_text(&m.best.model, names)
        ));
        let mut quality = format!(
            "  quality   SMAPE {}  RSS {}  adj. R² {}",
            percent(q.smape),
            num(q.rss),
            trace::text::fixed(q.adjusted_r2, 4)
        );
        if let Some(cv) = q.cv {
            quality.push_str(&format!("  CV error {}", percent(cv)));
        }
        s.push_str(&quality);
        s.push('\n');
        let cv_of = |f: &Fitted| f.quality.cv.unwrap_or(f64::INFINITY);
        if m.alternatives.iter().any(|a| cv_of(a) < cv_of(&m.best)) {
            s.push_str(
                "  note      the model fits within the repetitions' noise; the data do not confirm \
                 the larger hypotheses below\n",
            );
        }
        for (i, a) in m.alternatives.iter().enumerate() {
            s.push_str(&format!(
                "  {}{}   (CV error {})\n",
                if i == 0 { "next best " } else { "          " },
                model_text(&a.model, names),
                a.quality.cv.map_or("-".into(), percent)
            ));
        }
        for p in &e.predictions {
            let at: Vec<String> = names
                .iter()
                .zip(&p.point)
                .map(|(n, x)| format!("{n}={}", num(*x)))
                .collect();
            let interval = p
                .interval
                .map(|(lo, hi)| {
                    format!(
                        "  {}% interval [{}, {}]",
                        num(crate::run::INTERVAL_LEVEL * 100.0),
                        num(lo),
                        num(hi)
                    )
                })
                .unwrap_or_default();
            s.push_str(&format!(
                "  predict   {}: {}{interval}\n",
                at.join(", "),
                num(p.value)
            ));
            if let Some(c) = &p.calibrated {
                s.push_str(&format!("  interval  {}\n", c.text(p.value, &|v| num(v))));
            }
            for w in &p.warnings {
                s.push_str(&format!("  warning   {w}\n"));
            }
        }
        for w in &m.warnings {
            s.push_str(&format!("  warning   {w}\n"));
        }
        s.push('\n');
    }
    s
}

/// The series ordered by asymptotic growth, fastest first (ties: the larger value at the
/// largest measured point first): the callpaths that will dominate at scale.
pub fn rank<'a>(models: &[&'a SeriesModel]) -> Vec<&'a SeriesModel> {
    let mut v = models.to_vec();
    let top = |m: &SeriesModel| {
        let point: Vec<f64> = m.domain.iter().map(|d| d.1).collect();
        m.best.model.eval(&point)
    };
    v.sort_by(|a, b| {
        b.best
            .model
            .growth()
            .partial_cmp(&a.best.model.growth())
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(top(b).total_cmp(&top(a)))
    });
    v
}

/// The ranking as text: growth, callpath, metric and model per line.
pub fn rank_text(names: &[String], ranked: &[&SeriesModel]) -> String {
    let mut t = trace::text::TextTable::new([
        ("#".to_string(), trace::text::Align::Right),
        ("growth".to_string(), trace::text::Align::Left),
        ("callpath".to_string(), trace::text::Align::Left),
        ("metric".to_string(), trace::text::Align::Left),
        ("model".to_string(), trace::text::Align::Left),
    ]);
    for (i, m) in ranked.iter().enumerate() {
        let growth = m
            .best
            .model
            .terms
            .iter()
            .filter(|t| t.coefficient > 0.0)
            .max_by(|a, b| {
                a.basis
                    .growth()
                    .partial_cmp(&b.basis.growth())
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map_or("constant or decreasing".to_string(), |t| {
                basis_text(&t.basis, names)
            });
        t.push(vec![
            (i + 1).to_string(),
            growth,
            m.callpath.clone(),
            m.metric.clone(),
            model_text(&m.best.model, names),
        ]);
    }
    t.render("")
}

/// Why a model cannot be drawn.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlotError {
    /// The plot draws models of one parameter.
    #[error("the plot draws models of one parameter; this one has {0}")]
    NotOneParameter(usize),
    /// The SVG could not be rendered.
    #[error("the plot could not be drawn: {0}")]
    Render(String),
}

/// The plot of a one-parameter model: every measured repetition, the model over the measured
/// range (solid), and its extrapolation to `to` (dashed) when `to` lies beyond it. Axes are
/// logarithmic where the values span a factor of 8 or more.
///
/// # Errors
/// [`PlotError::NotOneParameter`] for models of several parameters; [`PlotError::Render`].
pub fn plot(
    m: &SeriesModel,
    series: &crate::read::Series,
    names: &[String],
    to: Option<f64>,
) -> Result<String, PlotError> {
    use trace::plot::{LinePlot, Series, Stroke};
    if names.len() != 1 {
        return Err(PlotError::NotOneParameter(names.len()));
    }
    let (lo, hi) = m.domain[0];
    let end = to.filter(|&t| t > hi).unwrap_or(hi);
    let log_x = lo > 0.0 && hi / lo >= 8.0;
    let sample = |a: f64, b: f64| -> Vec<(f64, f64)> {
        (0..=100)
            .map(|k| {
                let t = f64::from(k) / 100.0;
                let x = if log_x {
                    (a.ln() + t * (b.ln() - a.ln())).exp()
                } else {
                    a + t * (b - a)
                };
                (x, m.predict(names, &[x]).value)
            })
            .collect()
    };
    let legend = match m.times_param {
        Some(p) => format!("({}) / {}", model_text(&m.best.model, names), names[p]),
        None => model_text(&m.best.model, names),
    };
    let measured: Vec<(f64, f64)> = series
        .measurements
        .iter()
        .flat_map(|ms| ms.values.iter().map(move |&v| (ms.point[0], v)))
        .collect();
    let mut lines = vec![
        Series::new("measured", measured).with_stroke(Stroke::Points),
        Series::new(legend, sample(lo, hi)).with_stroke(Stroke::Line),
    ];
    if end > hi {
        lines.push(Series::new("extrapolated", sample(hi, end)).with_stroke(Stroke::Dashed));
    }
    let all_y: Vec<f64> = lines
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .collect();
    let (ymin, ymax) = all_y
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let title = match (m.callpath.is_empty(), m.metric.is_empty()) {
        (false, false) => format!("{} / {}", m.callpath, m.metric),
        (false, true) => m.callpath.clone(),
        _ => m.metric.clone(),
    };
    LinePlot {
        shade_from: None,
        title,
        x_label: names[0].clone(),
        y_label: if m.metric.is_empty() {
            "value".into()
        } else {
            m.metric.clone()
        },
        series: lines,
        log_x,
        log_y: ymin > 0.0 && ymax / ymin >= 8.0,
    }
    .render_svg(800, 500)
    .map_err(|e| PlotError::Render(e.to_string()))
}

/// A model as LaTeX math: `2.842 + 0.8165\,p^{3/2} \log_2^{2} p`.
pub fn model_latex(m: &Model, names: &[String]) -> String {
    let mut s = num(m.constant);
    for t in &m.terms {
        s.push_str(if t.coefficient < 0.0 { " - " } else { " + " });
        s.push_str(&num(t.coefficient.abs()));
        let factors = match &t.basis {
            Basis::Pmnf(f) => f,
            Basis::User(u) => {
                s.push_str(&format!(
                    "\\,\\left({}\\right)",
                    expr::print::to_latex(&u.expr)
                ));
                continue;
            }
        };
        for f in factors {
            let x = names.get(f.param).map_or("?", String::as_str);
            let x = if x.len() == 1 {
                x.to_string()
            } else {
                format!("\\mathit{{{x}}}")
            };
            let (p, l) = (f.term.poly, f.term.log);
            if !p.is_zero() {
                s.push_str("\\,");
                s.push_str(&x);
                if p != crate::pmnf::Exponent::int(1) {
                    s.push_str(&format!("^{{{p}}}"));
                }
            }
            if !l.is_zero() {
                s.push_str("\\,\\log_2");
                if l != crate::pmnf::Exponent::int(1) {
                    s.push_str(&format!("^{{{l}}}"));
                }
                s.push(' ');
                s.push_str(&x);
            }
        }
    }
    s
}

/// The LaTeX report: one `align*` line per series, `\text{callpath / metric}: f(p) = …`.
pub fn latex(names: &[String], entries: &[Entry<'_>]) -> String {
    let args = names.join(", ");
    let mut s = String::from("\\begin{align*}\n");
    for (i, e) in entries.iter().enumerate() {
        let m = e.model;
        let label = [m.callpath.as_str(), m.metric.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" / ");
        let label = expr::print::escape_latex(&label, expr::print::LatexMode::Text);
        let lhs = match m.times_param {
            Some(p) => format!(
                "{}\\,f({args})",
                expr::print::escape_latex(&names[p], expr::print::LatexMode::Text)
            ),
            None => format!("f({args})"),
        };
        s.push_str(&format!(
            "  \\text{{{label}}}\\colon\\ {lhs} &= {}{}\n",
            model_latex(&m.best.model, names),
            if i + 1 < entries.len() { " \\\\" } else { "" }
        ));
    }
    s.push_str("\\end{align*}\n");
    s
}

/// A basis regression as text: one line per coefficient, then its quality.
pub fn regression_text(f: &crate::basis::BasisFit, method: &str) -> String {
    let mut t = trace::text::TextTable::new([
        ("term".to_string(), trace::text::Align::Left),
        ("coefficient".to_string(), trace::text::Align::Right),
    ]);
    t.push(vec!["(intercept)".into(), num(f.intercept)]);
    for (term, c) in f.terms.iter().zip(&f.coefficients) {
        t.push(vec![term.clone(), num(*c)]);
    }
    let mut s = format!("{method} regression\n{}", t.render("  "));
    let mut q = format!("  RSS {}  R² {}", num(f.rss), trace::text::fixed(f.r2, 4));
    if let Some(a) = f.alpha {
        q.push_str(&format!("  alpha {}", num(a)));
    }
    if let Some(r) = f.rank {
        q.push_str(&format!("  rank {r}"));
    }
    s.push_str(&q);
    s.push('\n');
    for (term, combo) in &f.collinear {
        let parts: Vec<String> = combo
            .iter()
            .map(|(n, v)| format!("{}·{n}", num(*v)))
            .collect();
        s.push_str(&format!(
            "  warning   `{term}` equals {} over these rows: the data cannot tell them apart\n",
            if parts.is_empty() {
                "0".to_string()
            } else {
                parts.join(" + ")
            }
        ));
    }
    s
}

/// A basis regression as JSON: `{"coefficients": {term: c}, "intercept", "alpha", "rss",
/// "r2", "rank", "collinear": [{"term", "combination": {term: factor}}]}`.
pub fn regression_json(f: &crate::basis::BasisFit) -> Value {
    to_value(RegressionJson {
        alpha: f.alpha.and_then(finite),
        coefficients: f
            .terms
            .iter()
            .zip(&f.coefficients)
            .map(|(t, &c)| (t.as_str(), finite(c)))
            .collect(),
        collinear: f
            .collinear
            .iter()
            .map(|(t, combo)| CollinearJson {
                combination: combo
                    .iter()
                    .map(|(n, v)| (n.as_str(), finite(*v)))
                    .collect(),
                term: t,
            })
            .collect(),
        intercept: finite(f.intercept),
        r2: finite(f.r2),
        rank: f.rank,
        rss: finite(f.rss),
    })
}

/// The document [`regression_json`] prints.
#[derive(Serialize)]
struct RegressionJson<'a> {
    alpha: Option<f64>,
    /// The coefficient of each basis function, by its text.
    coefficients: BTreeMap<&'a str, Option<f64>>,
    collinear: Vec<CollinearJson<'a>>,
    intercept: Option<f64>,
    r2: Option<f64>,
    rank: Option<usize>,
    rss: Option<f64>,
}

/// A basis function that is a combination of others over the rows.
#[derive(Serialize)]
struct CollinearJson<'a> {
    /// The factor of each other basis function (or `1`) by its text.
    combination: BTreeMap<&'a str, Option<f64>>,
    term: &'a str,
}

#[cfg(test)]
mod refusals {
    use super::*;
    use diag::Advise;

    #[test]
    fn predictions_and_regressions_refused_with_their_inputs() {
        assert_eq!(shows(Format::Text, false, true), Ok(()));
        assert_eq!(shows(Format::Json, true, true), Ok(()));
        assert_eq!(shows(Format::Latex, false, false), Ok(()));
        let e = shows(Format::Text, true, true).unwrap_err();
        let flags = |k: &str| Some(format!("--{k}"));
        assert_eq!(
            e.message(&flags),
            "predictions (--define, --predict) show in the text and JSON reports"
        );
        assert!(e.advice().is_some_and(|a| a.usage));
        assert_eq!(
            regression_shows(Format::Latex, Some(crate::read::Format::Text)),
            Err(Unshown::RegressionLatex)
        );
        assert_eq!(
            regression_shows(Format::Json, Some(crate::read::Format::Text)),
            Err(Unshown::RegressionNotCsv)
        );
        assert_eq!(regression_shows(Format::Text, None), Ok(()));
    }
}
