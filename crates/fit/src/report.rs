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
        let Basis::Pmnf(factors) = &t.basis;
        s.push_str(&format!(" + {:?}", t.coefficient));
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
    let Basis::Pmnf(factors) = b;
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
            let Basis::Pmnf(factors) = &t.basis;
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
            o.insert("repetitions".into(), json!(m.repetitions));
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
        s.push_str(&format!(
            "  model     {}\n",
            model_text(&m.best.model, names)
        ));
        let mut quality = format!(
            "  quality   SMAPE {}  RSS {}  adj. R² {}",
            percent(q.smape),
            num(q.rss),
            trace::text::fixed(q.adjusted_r2, 4)
        );
        if let Some(cv) = q.cv {
            quality.push_str(&format!("  CV error {}", cv_text(modeler, cv)));
        }
        s.push_str(&quality);
        s.push('\n');
        for (i, a) in m.alternatives.iter().enumerate() {
            s.push_str(&format!(
                "  {}{}   (CV error {})\n",
                if i == 0 { "also fits " } else { "          " },
                model_text(&a.model, names),
                a.quality.cv.map_or("-".into(), |cv| cv_text(modeler, cv))
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
                .map(|(lo, hi)| format!("  95% interval [{}, {}]", num(lo), num(hi)))
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

/// The vates modeler's CV error is a relative error (a fraction); Extra-P's is a SMAPE in
/// percent.
fn cv_text(modeler: &str, cv: f64) -> String {
    if modeler == "extrap" {
        percent(cv)
    } else {
        percent(100.0 * cv)
    }
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
