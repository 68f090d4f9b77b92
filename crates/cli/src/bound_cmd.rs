//! `vates pamela bound`: the symbolic lower bound T^l with φ, ω, θ and the binding term.

use std::fmt::Write as _;
use std::io::Write;

use expr::print::{to_json, to_latex};
use expr::simplify::factor_for_display;
use expr::Expr;
use pamela::bound::{BoundReport, Evaluated};

use crate::error::{CliError, Result};
use crate::input::{self, Define, Loaded};
use crate::BoundFormat;
use trace::text::num;

/// Everything `bound` reports, computed once for any output format.
pub struct Analysis {
    /// The report as shown: symbolic, or substituted with a partial binding.
    pub shown: BoundReport,
    /// Whether the symbolic T^l is in closed form.
    pub closed_form: bool,
    /// Whether the model has `prob(p)` conditions (T^l then bounds the expected time).
    pub stochastic: bool,
    /// The given values.
    pub given: Vec<(expr::Name, expr::Rational)>,
    /// Parameters still symbolic.
    pub missing: Vec<expr::Name>,
    /// The numbers, when every parameter is bound.
    pub values: Option<Evaluated>,
}

/// Analyses the loaded model with the given single values.
pub fn analyse(loaded: &Loaded, given: Vec<(expr::Name, expr::Rational)>) -> Result<Analysis> {
    let model = &loaded.model;
    let missing = input::missing_params(model, &given);
    // Check the values before the (possibly long) analysis.
    let binding = if missing.is_empty() {
        model.bind(&given)?
    } else {
        model.bind_partial(&given)?
    };
    let report = pamela::bound::bound(model, loaded.root)?;
    let closed_form = report.is_closed_form();
    let values = if missing.is_empty() {
        Some(report.evaluate(&binding)?)
    } else {
        None
    };
    let shown = if given.is_empty() || missing.is_empty() {
        report
    } else {
        report.substitute(model, &binding)
    };
    Ok(Analysis {
        shown,
        closed_form,
        stochastic: model.is_stochastic(),
        given,
        missing,
        values,
    })
}

/// Runs the command.
pub fn run(
    loaded: &Loaded,
    defines: &[Define],
    format: BoundFormat,
    out: &mut dyn Write,
) -> Result<()> {
    let given = input::single_values(defines, "bound")?;
    let a = analyse(loaded, given)?;
    let text = match format {
        BoundFormat::Text => render_text(loaded, &a),
        BoundFormat::Json => {
            let mut s = serde_json::to_string_pretty(&to_json_value(&a))
                .map_err(|e| CliError::msg(format!("cannot encode JSON: {e}")))?;
            s.push('\n');
            s
        }
        BoundFormat::Latex => render_latex(&a),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// An expression as printed: sums factored for reading.
pub fn show(e: &Expr) -> String {
    factor_for_display(e).to_string()
}

/// The one-line reading of θ = ln(ω/φ).
pub fn theta_reading(theta: f64) -> &'static str {
    if !theta.is_finite() {
        "undefined: phi or omega is 0"
    } else if theta.abs() < 0.5 {
        "theta ~ 0: contention and synchronisation balance; T^l may underestimate T by up to 2x"
    } else if theta >= 1.5 {
        "theta large: contention dominates and T^l is tight"
    } else if theta <= -1.5 {
        "|theta| large: the critical path dominates and T^l is tight"
    } else if theta > 0.0 {
        "contention leads; T^l tightens as theta grows"
    } else {
        "the critical path leads; T^l tightens as |theta| grows"
    }
}

/// The text report.
pub fn render_text(loaded: &Loaded, a: &Analysis) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PAMELA lower bound: {}, root `{}`",
        loaded.label(),
        loaded.root_name()
    );
    let _ = writeln!(
        s,
        "  phi: critical path (mutual exclusion ignored); omega: contention bound \
         (synchronisation ignored)"
    );
    let _ = writeln!(s);
    let heading = if a.given.is_empty() {
        "symbolic".to_string()
    } else if a.missing.is_empty() {
        "symbolic (values below)".to_string()
    } else {
        let still: Vec<&str> = a.missing.iter().map(|n| &**n).collect();
        format!(
            "with {} (still symbolic: {})",
            input::show_values(&a.given),
            still.join(", ")
        )
    };
    let _ = writeln!(s, "{heading}");
    let mut rows: Vec<(String, String)> = vec![
        ("T^l".into(), show(&a.shown.tl)),
        ("phi".into(), show(&a.shown.phi)),
        ("omega".into(), show(&a.shown.omega)),
    ];
    for r in &a.shown.resources {
        rows.push((format!("omega[{}]", r.name), show(&r.omega)));
    }
    let w = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    for (l, e) in &rows {
        let _ = writeln!(s, "  {l:<w$} = {e}");
    }
    let _ = writeln!(
        s,
        "  {}",
        if a.closed_form {
            "closed form: evaluates in O(1)"
        } else {
            "contains folds: evaluation cost grows with ranges"
        }
    );
    if a.stochastic {
        let _ = writeln!(
            s,
            "  prob() conditions: T^l bounds the expected run time, E[T] >= T^l; single runs vary"
        );
    }
    if let Some(v) = &a.values {
        let _ = writeln!(s);
        if a.given.is_empty() {
            let _ = writeln!(s, "values (the model has no parameters)");
        } else {
            let _ = writeln!(s, "with {}", input::show_values(&a.given));
        }
        let mut rows: Vec<(String, String)> = vec![
            ("T^l".into(), num(v.tl)),
            ("phi".into(), num(v.phi)),
            ("omega".into(), num(v.omega)),
        ];
        for (name, w) in &v.resources {
            rows.push((format!("omega[{name}]"), num(*w)));
        }
        rows.push((
            "theta".into(),
            format!("ln(omega/phi) = {}", theta_text(v.theta)),
        ));
        let w = rows
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        for (l, e) in &rows {
            let _ = writeln!(s, "  {l:<w$} = {e}");
        }
        let _ = writeln!(s, "  {:<w$}   {}", "", theta_reading(v.theta));
        let _ = writeln!(s, "  {:<w$} : {}", "binds", v.binds);
    }
    s
}

/// θ with three decimals, or `undefined`.
fn theta_text(theta: f64) -> String {
    if theta.is_finite() {
        let t = format!("{theta:.3}");
        if t == "-0.000" {
            "0.000".into()
        } else {
            t
        }
    } else {
        "undefined".into()
    }
}

/// The JSON document (schema in the crate docs).
pub fn to_json_value(a: &Analysis) -> serde_json::Value {
    let v = a.values.as_ref();
    let mut m = serde_json::Map::new();
    let j = |e: &Expr, x: Option<f64>| to_json(&factor_for_display(e), x);
    m.insert("tl".into(), j(&a.shown.tl, v.map(|v| v.tl)));
    m.insert("phi".into(), j(&a.shown.phi, v.map(|v| v.phi)));
    m.insert("omega".into(), j(&a.shown.omega, v.map(|v| v.omega)));
    if let Some(v) = v {
        let theta = if v.theta.is_finite() {
            serde_json::json!(v.theta)
        } else {
            serde_json::Value::Null
        };
        m.insert("theta".into(), theta);
        m.insert("binding".into(), serde_json::json!(v.binds.to_string()));
    }
    m.insert("closed_form".into(), serde_json::json!(a.closed_form));
    m.insert("stochastic".into(), serde_json::json!(a.stochastic));
    let mut res = serde_json::Map::new();
    for r in &a.shown.resources {
        let value = v.and_then(|v| {
            v.resources
                .iter()
                .find(|(n, _)| *n == r.name)
                .map(|(_, w)| *w)
        });
        res.insert(r.name.clone(), j(&r.omega, value));
    }
    m.insert("resources".into(), serde_json::Value::Object(res));
    serde_json::Value::Object(m)
}

/// `T^l = …` lines in LaTeX (with `= value` when every parameter is bound).
pub fn render_latex(a: &Analysis) -> String {
    let v = a.values.as_ref();
    let mut s = String::new();
    let mut line = |lhs: &str, e: &Expr, x: Option<f64>| {
        let _ = write!(s, "{lhs} = {}", to_latex(&factor_for_display(e)));
        if let Some(x) = x {
            let _ = write!(s, " = {}", num(x));
        }
        s.push('\n');
    };
    line("T^l", &a.shown.tl, v.map(|v| v.tl));
    line("\\phi", &a.shown.phi, v.map(|v| v.phi));
    line("\\omega", &a.shown.omega, v.map(|v| v.omega));
    for r in &a.shown.resources {
        let x = v.and_then(|v| {
            v.resources
                .iter()
                .find(|(n, _)| *n == r.name)
                .map(|(_, w)| *w)
        });
        let lhs = format!("\\omega_{{\\mathrm{{{}}}}}", r.name.replace('_', "\\_"));
        line(&lhs, &r.omega, x);
    }
    if let Some(v) = v {
        if v.theta.is_finite() {
            let _ = writeln!(s, "\\theta = \\ln(\\omega/\\phi) = {}", theta_text(v.theta));
        }
    }
    s
}
