//! Text for people: a trained model (each sub-model's terms, the forms chosen, the
//! training domain), a prediction with its breakdown, and a test report's medians.

use std::fmt::Write as _;

use trace::text::{fixed, num, seconds, TextTable};

use super::features::Feature;
use super::fitted::{Model, SubModel};
use super::options::Selection;
use super::predict::Prediction;
use super::report::Report;

fn terms(s: &SubModel) -> String {
    if s.log_target {
        // exp(c + a·ln n) = e^c·n^a.
        let a = s.coefficients.first().copied().unwrap_or(0.0);
        return format!("{}·n^{}", num(sig(s.intercept.exp())), num(sig(a)));
    }
    let mut parts: Vec<String> = Vec::new();
    if s.intercept != 0.0 {
        parts.push(num(sig(s.intercept)));
    }
    for (f, c) in s.selected() {
        parts.push(match f {
            Feature::One => num(sig(c)),
            _ => format!("{}·{}", num(sig(c)), f.name()),
        });
    }
    if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join(" + ").replace("+ -", "− ")
    }
}

/// Four significant digits.
fn sig(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let e = v.abs().log10().floor() as i32 - 3;
    let m = 10f64.powi(e);
    (v / m).round() * m
}

/// A trained model as text: the application and domain, each sub-model's selected terms
/// (the paper's equation numbers), the forms cross-validation chose and the intervals.
pub fn model_text(m: &Model) -> String {
    let mut o = String::new();
    let d = &m.domain;
    let _ = writeln!(
        o,
        "{}: trained on {} runs, n {}..{} ({} sizes{}), p {}..{}",
        m.app.as_deref().unwrap_or("the application"),
        d.rows,
        num(d.n_min),
        num(d.n_max),
        d.sizes,
        if m.transform.name() == "none" {
            String::new()
        } else {
            format!(", n → {}", m.transform.name())
        },
        num(d.p_min),
        num(d.p_max)
    );
    let eq = |name: &str| match name {
        "work_serial" => "T1'(n)       eq. 11",
        "create_task" => "create(n)    eq. 13",
        "wait_tasks" => "wait(n)      eq. 14",
        "work" => "T1 − T1'     eq. 10",
        "delay" => "delay        eq. 12",
        "no_work" => "no_work      eq. 15",
        "span" => "T∞(n)        span",
        _ => "ln elapsed   direct",
    };
    for (name, s) in m.sub_models() {
        let label = if name == "no_work" && s.variant != "paper" {
            "no_work      span form"
        } else {
            eq(name)
        };
        let _ = writeln!(o, "  {} = {}  [{}]", label, terms(s), s.variant);
    }
    for (name, s) in m.sub_models() {
        let mixed: Vec<String> = s
            .dropped
            .iter()
            .filter(|f| !s.confounded.iter().any(|c| c.term == **f))
            .map(|f| f.name().into_owned())
            .collect();
        if !mixed.is_empty() {
            let _ = writeln!(
                o,
                "  note: {name}: left out {}: on the training runs each is a combination of \
                 terms earlier in the basis, which stand for it",
                mixed.join(", ")
            );
        }
        // A pair whose kept term is not in the fit chose nothing.
        let selected = s.selected();
        for c in s
            .confounded
            .iter()
            .filter(|c| selected.iter().any(|(f, _)| *f == c.stands_in))
        {
            let (kept, left) = (c.stands_in.name(), c.term.name());
            let _ = writeln!(
                o,
                "  note: {name}: in every training run {left} = {} × {kept}: the fit keeps \
                 {kept}, earlier in the basis, for both (predictions warn where they differ)",
                num(sig(c.ratio)),
            );
        }
    }
    let _ = writeln!(
        o,
        "  (times in seconds; n the size{}, p the workers, ct and wt the predicted task \
         creations and waits, span the predicted T∞)",
        if m.transform.name() == "none" {
            String::new()
        } else {
            format!(" after n → {}", m.transform.name())
        }
    );
    for c in &m.choices {
        let scores: Vec<String> = c
            .candidates
            .iter()
            .map(|k| {
                format!(
                    "{} {}",
                    k.variant,
                    k.cv_score.map_or("not scored".to_string(), |v| num(sig(v)))
                )
            })
            .collect();
        let _ = writeln!(
            o,
            "  {}: {} ({}; {} error: {})",
            c.sub_model,
            c.chosen,
            if c.fixed { "fixed" } else { "chosen" },
            match m.options.selection {
                Selection::Forward => "forward-validation",
                Selection::Shuffled => "cross-validation",
            },
            scores.join(", ")
        );
    }
    let _ = writeln!(
        o,
        "  intervals: {}",
        if m.bootstrap.is_empty() {
            "none".to_string()
        } else {
            format!("{} ({} replicates)", m.interval.method, m.bootstrap.len())
        }
    );
    o
}

/// A prediction as text: the time with its interval, the breakdown of eq. 9, the direct
/// regression beside it, the bounds and the warnings.
pub fn prediction_text(app: &str, p: &Prediction) -> String {
    let mut o = String::new();
    let interval = p.interval.map_or(String::new(), |(lo, hi)| {
        format!(
            "  [{}, {}] {}% interval",
            seconds(lo),
            seconds(hi),
            trace::text::num(p.level * 100.0)
        )
    });
    let _ = writeln!(
        o,
        "{app} at n = {}, p = {}: {}{interval}",
        num(p.n),
        num(p.p),
        seconds(p.time)
    );
    if let Some(c) = &p.calibrated {
        let _ = writeln!(o, "  {}", c.text(p.time, &seconds));
    }
    let _ = writeln!(
        o,
        "  = (work {} + delay {} + no_work {}) / {}",
        seconds(p.work),
        seconds(p.delay),
        seconds(p.no_work),
        num(p.p)
    );
    let total = p.work + p.delay + p.no_work;
    if total.is_finite() && total > 0.0 {
        let share = |v: f64| fixed(100.0 * v / total, 1);
        let _ = writeln!(
            o,
            "    work {}%, delay {}%, no_work {}%; serial work T1' {}, work inflation {}×",
            share(p.work),
            share(p.delay),
            share(p.no_work),
            seconds(p.serial),
            fixed(p.work / p.serial, 3)
        );
    }
    let _ = writeln!(
        o,
        "  tasks: {} created, {} waits{}",
        num(p.create_task.round()),
        num(p.wait_tasks.round()),
        p.span
            .map_or(String::new(), |s| format!("; span T∞ {}", seconds(s)))
    );
    let _ = writeln!(o, "  direct regression (baseline): {}", seconds(p.direct));
    let mut b = format!("  bounds: T1/p {}", seconds(p.bounds.work_over_p));
    if let Some(s) = p.bounds.span {
        let _ = write!(b, ", T∞ {}", seconds(s));
    }
    if let Some(g) = p.bounds.greedy {
        let _ = write!(b, ", greedy T1/p + T∞ {}", seconds(g));
    }
    let _ = writeln!(o, "{b}");
    for w in &p.warnings {
        let _ = writeln!(o, "  warning: {w}");
    }
    o
}

/// A test report as a table: per application the median relative error of each component,
/// of the two-step model's time and of the direct regression.
pub fn report_text(r: &Report) -> String {
    use trace::text::Align;
    let names = [
        "T1'", "create", "wait", "T1", "delay", "no_work", "span", "time", "direct", "time*",
        "direct*",
    ];
    let mut cols = vec![
        ("app".to_string(), Align::Left),
        ("runs".to_string(), Align::Right),
    ];
    cols.extend(names.iter().map(|n| (n.to_string(), Align::Right)));
    let mut t = TextTable::new(cols);
    for m in &r.medians {
        let mut row = vec![m.app.clone(), m.rows.to_string()];
        row.extend(
            m.median
                .named()
                .iter()
                .map(|(_, v)| v.map_or("-".to_string(), |e| format!("{}%", fixed(100.0 * e, 1)))),
        );
        t.push(row);
    }
    let c = &r.coverage;
    let coverage = if c.points == 0 {
        String::new()
    } else {
        format!(
            "\n{} of {} runs ({}%) inside their calibrated {}% intervals; median width ±{}%{}\n",
            c.inside,
            c.points,
            fixed(100.0 * c.share(), 1),
            trace::text::num(fit::interval::LEVEL * 100.0),
            c.median_width.map_or("-".into(), |w| fixed(100.0 * w, 1)),
            if c.wide > 0 {
                format!(" ({} wider than ±50%)", c.wide)
            } else {
                String::new()
            }
        )
    };
    format!(
        "median relative error |actual − predicted| / actual on the test runs (time and \
         direct: against the traced run's elapsed time; time* and direct*: against the \
         untraced run's):\n{}{coverage}",
        t.render("  ")
    )
}

/// `value` as pretty JSON with its keys in alphabetical order and a final newline (the
/// model's documents).
///
/// # Errors
/// A value serde cannot encode as JSON.
pub fn sorted_json<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut text = serde_json::to_string_pretty(&serde_json::to_value(value)?)?;
    text.push('\n');
    Ok(text)
}

/// The predictions of `app` as text, or as JSON (one object for one prediction, else an
/// array).
///
/// # Errors
/// [`sorted_json`]'s.
pub fn predictions_document(
    app: &str,
    preds: &[Prediction],
    json: bool,
) -> serde_json::Result<String> {
    match (json, preds) {
        (false, _) => Ok(preds.iter().map(|p| prediction_text(app, p)).collect()),
        (true, [one]) => sorted_json(one),
        (true, _) => sorted_json(preds),
    }
}

/// A test report as text ([`report_text`]) or JSON.
///
/// # Errors
/// [`sorted_json`]'s.
pub fn report_document(r: &Report, json: bool) -> serde_json::Result<String> {
    match json {
        true => sorted_json(r),
        false => Ok(report_text(r)),
    }
}

/// A fitted model as JSON, or as text ([`model_text`]) saying the file it was `written`
/// to.
///
/// # Errors
/// [`sorted_json`]'s.
pub fn fit_document(m: &Model, written: Option<&std::path::Path>) -> serde_json::Result<String> {
    match written {
        Some(path) => Ok(format!(
            "{}model written to {}\n",
            model_text(m),
            path.display()
        )),
        None => sorted_json(m),
    }
}
