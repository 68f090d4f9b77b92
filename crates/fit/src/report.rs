//! The reports of a modelled experiment: text for people, JSON with a stable schema, a
//! ranking of callpaths by asymptotic growth, and the plot of a one-parameter model.

use serde_json::{json, Value};
use trace::text::num;

use crate::model::{Basis, Fitted, Model};
use crate::run::{Prediction, SeriesModel};

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

fn model_json(m: &Model, names: &[String]) -> Value {
    let terms: Vec<Value> = m
        .terms
        .iter()
        .map(|t| {
            let factors = match &t.basis {
                Basis::Pmnf(f) => f,
                Basis::User(u) => {
                    return json!({"coefficient": t.coefficient, "expr": u.text});
                }
            };
            json!({
                "coefficient": t.coefficient,
                "factors": factors.iter().map(|f| json!({
                    "param": names.get(f.param).cloned().unwrap_or_default(),
                    "poly": f.term.poly.to_string(),
                    "log": f.term.log.to_string(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "expr": model_expr(m, names),
        "constant": m.constant,
        "terms": terms,
    })
}

fn finite(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

fn fitted_json(f: &Fitted, names: &[String]) -> Value {
    json!({
        "model": model_json(&f.model, names),
        "smape": finite(f.quality.smape),
        "rss": finite(f.quality.rss),
        "ar2": finite(f.quality.adjusted_r2),
        "cv": f.quality.cv.map_or(Value::Null, finite),
    })
}

fn prediction_json(p: &Prediction, names: &[String]) -> Value {
    let point: serde_json::Map<String, Value> = names
        .iter()
        .zip(&p.point)
        .map(|(n, &x)| (n.clone(), json!(x)))
        .collect();
    json!({
        "point": point,
        "value": finite(p.value),
        "interval": p.interval.map_or(Value::Null, |(lo, hi)| json!([finite(lo), finite(hi)])),
        "warnings": p.warnings,
    })
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
    let models: Vec<Value> = entries
        .iter()
        .map(|e| {
            let m = e.model;
            let mut v = fitted_json(&m.best, names);
            let o = v.as_object_mut().expect("an object");
            o.insert("callpath".into(), json!(m.callpath));
            o.insert("metric".into(), json!(m.metric));
            o.insert("parameters".into(), json!(names));
            o.insert("points".into(), json!(m.points));
            o.insert("runs".into(), json!(m.repetitions));
            if let Some(p) = m.times_param {
                o.insert("times".into(), json!(names[p]));
            }
            o.insert(
                "predictions".into(),
                e.predictions
                    .iter()
                    .map(|p| prediction_json(p, names))
                    .collect(),
            );
            o.insert("warnings".into(), json!(m.warnings));
            o.insert(
                "alternatives".into(),
                m.alternatives
                    .iter()
                    .map(|a| fitted_json(a, names))
                    .collect(),
            );
            v
        })
        .collect();
    json!({ "modeler": modeler, "parameters": names, "models": models })
}

fn percent(v: f64) -> String {
    format!("{}%", trace::text::fixed(v, 2))
}

/// The text report: per callpath and metric the model, its quality, the runners-up, the
/// predictions with intervals, and the warnings.
pub fn text(modeler: &str, names: &[String], entries: &[Entry<'_>]) -> String {
    let mut s = String::new();
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
    let coefficients: serde_json::Map<String, Value> = f
        .terms
        .iter()
        .zip(&f.coefficients)
        .map(|(t, &c)| (t.clone(), finite(c)))
        .collect();
    json!({
        "coefficients": coefficients,
        "intercept": finite(f.intercept),
        "alpha": f.alpha.map_or(Value::Null, finite),
        "rss": finite(f.rss),
        "r2": finite(f.r2),
        "rank": f.rank,
        "collinear": f.collinear.iter().map(|(t, combo)| json!({
            "term": t,
            "combination": combo.iter().map(|(n, v)| (n.clone(), finite(*v))).collect::<serde_json::Map<String, Value>>(),
        })).collect::<Vec<_>>(),
    })
}
