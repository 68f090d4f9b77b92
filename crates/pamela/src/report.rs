//! The reports of the two engines as the `vates pamela` commands print them: the bound
//! (symbolic and evaluated T^l, φ, ω, θ and the binding term) as text, JSON or LaTeX, and a
//! simulation (T, events, utilisation per resource) as text or JSON.
//!
//! ```
//! use pamela::report::{analyse_bound, bound_text};
//! let model = pamela::parse(
//!     "m.pam",
//!     "param N: int >= 1; param tau >= 0; resource s; main = par i in 1..=N use(s, tau);",
//! )?;
//! let root = pamela::check::root(&model, None)?;
//! let int = |v: i64| expr::Rational::from_integer(v.into());
//! let given = vec![("N".into(), int(8)), ("tau".into(), int(2))];
//! let a = analyse_bound(&model, root, given)?;
//! assert_eq!(a.values.as_ref().unwrap().tl, 16.0);
//! assert!(bound_text(&model, root, &a).contains("T^l      = 16"));
//! # Ok::<(), Box<pamela::ModelError>>(())
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use expr::print::{to_latex, ExprJson};
use expr::simplify::factor_for_display;
use expr::{Expr, Name, Rational};
use sweep::describe_values;
use trace::text::{fixed, num, Align, TextTable};

use crate::bound::{BoundReport, Evaluated};
use crate::diag::ModelError;
use crate::model::{Binding, Model, ProcId};
use crate::sim::{Arbitration, SimOptions, SimResult};

type Result<T> = std::result::Result<T, Box<ModelError>>;

/// How many members of a family the text report lists.
const BUSIEST_SHOWN: usize = 3;

/// The line of every text report that says what unit its times are in: a model's times are
/// in whatever unit its durations were written in.
pub const TIME_UNIT_LINE: &str =
    "  times in the model's time unit (the unit of its delay and use durations)";

/// Everything `bound` reports, computed once for any output format.
pub struct BoundAnalysis {
    /// The report as shown: symbolic, or substituted with a partial binding.
    pub shown: BoundReport,
    /// Whether the symbolic T^l is in closed form.
    pub closed_form: bool,
    /// Whether the model has `prob(p)` conditions (T^l then bounds the expected time).
    pub stochastic: bool,
    /// The given values.
    pub given: Vec<(Name, Rational)>,
    /// Parameters still symbolic.
    pub missing: Vec<Name>,
    /// The numbers, when every parameter is bound.
    pub values: Option<Evaluated>,
}

/// The bound of `root` with the `given` values: symbolic where parameters are missing,
/// with numbers when every parameter is bound.
///
/// # Errors
/// A binding error (checked before the analysis), or the bound's own error.
pub fn analyse_bound(
    model: &Model,
    root: ProcId,
    given: Vec<(Name, Rational)>,
) -> Result<BoundAnalysis> {
    let missing = model.unbound(&given);
    // Check the values before the (possibly long) analysis.
    let binding = if missing.is_empty() {
        model.bind(&given)?
    } else {
        model.bind_partial(&given)?
    };
    let report = crate::bound::bound(model, root)?;
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
    Ok(BoundAnalysis {
        shown,
        closed_form,
        stochastic: model.is_stochastic(),
        given,
        missing,
        values,
    })
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

/// The bound's report as text for people.
pub fn bound_text(model: &Model, root: ProcId, a: &BoundAnalysis) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PAMELA lower bound: {}, root `{}`",
        model.source.name, model.processes[root].name
    );
    let _ = writeln!(
        s,
        "  phi: critical path (mutual exclusion ignored); omega: contention bound \
         (synchronisation ignored)"
    );
    let _ = writeln!(s, "{TIME_UNIT_LINE}");
    let _ = writeln!(s);
    let heading = if a.given.is_empty() {
        "symbolic".to_string()
    } else if a.missing.is_empty() {
        "symbolic (values below)".to_string()
    } else {
        let still: Vec<&str> = a.missing.iter().map(|n| &**n).collect();
        format!(
            "with {} (still symbolic: {})",
            describe_values(&a.given),
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
    push_aligned(&mut s, &rows);
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
            let _ = writeln!(s, "with {}", describe_values(&a.given));
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
        let w = push_aligned(&mut s, &rows);
        let _ = writeln!(s, "  {:<w$}   {}", "", theta_reading(v.theta));
        let _ = writeln!(s, "  {:<w$} : {}", "binds", v.binds);
    }
    s
}

/// Writes `label = value` lines with the labels padded to one width; returns the width.
fn push_aligned(s: &mut String, rows: &[(String, String)]) -> usize {
    let w = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    for (l, e) in rows {
        let _ = writeln!(s, "  {l:<w$} = {e}");
    }
    w
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

/// The bound's report as JSON (schema in `docs/cli.md`).
pub fn bound_json(a: &BoundAnalysis) -> serde_json::Value {
    let v = a.values.as_ref();
    let j = |e: &Expr, x: Option<f64>| ExprJson::new(&factor_for_display(e), x);
    let doc = BoundJson {
        binding: v.map(|v| v.binds.to_string()),
        closed_form: a.closed_form,
        omega: j(&a.shown.omega, v.map(|v| v.omega)),
        phi: j(&a.shown.phi, v.map(|v| v.phi)),
        resources: a
            .shown
            .resources
            .iter()
            .map(|r| (r.name.as_str(), j(&r.omega, omega_of(v, &r.name))))
            .collect(),
        stochastic: a.stochastic,
        theta: v.map(|v| v.theta.is_finite().then_some(v.theta)),
        tl: j(&a.shown.tl, v.map(|v| v.tl)),
    };
    serde_json::to_value(doc).expect("a bound report serialises")
}

/// The document [`bound_json`] prints; its keys in alphabetical order, as they print.
#[derive(serde::Serialize)]
struct BoundJson<'a> {
    /// Which term binds; only when every parameter is bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    binding: Option<String>,
    closed_form: bool,
    omega: ExprJson,
    phi: ExprJson,
    /// ω_r by resource name.
    resources: BTreeMap<&'a str, ExprJson>,
    stochastic: bool,
    /// θ, `null` when not finite; only when every parameter is bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    theta: Option<Option<f64>>,
    tl: ExprJson,
}

/// The value of ω of resource `name`, when the bound was evaluated.
fn omega_of(v: Option<&Evaluated>, name: &str) -> Option<f64> {
    v.and_then(|v| v.resources.iter().find(|(n, _)| n == name).map(|(_, w)| *w))
}

/// `T^l = …` lines in LaTeX (with `= value` when every parameter is bound).
pub fn bound_latex(a: &BoundAnalysis) -> String {
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
        let lhs = format!(
            "\\omega_{{\\mathrm{{{}}}}}",
            expr::print::escape_latex(&r.name, expr::print::LatexMode::Math)
        );
        line(&lhs, &r.omega, omega_of(v, &r.name));
    }
    if let Some(v) = v {
        if v.theta.is_finite() {
            let _ = writeln!(s, "\\theta = \\ln(\\omega/\\phi) = {}", theta_text(v.theta));
        }
    }
    s
}

/// A simulation's report as text for people: `given` is how the run was set up.
pub fn sim_text(
    model: &Model,
    root: ProcId,
    binding: &Binding,
    opts: &SimOptions,
    r: &SimResult,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PAMELA simulation: {}, root `{}`",
        model.source.name, model.processes[root].name
    );
    let given: Vec<(expr::Name, expr::Rational)> = binding
        .values
        .iter()
        .filter(|(n, _)| model.param(n).is_some_and(|p| p.definition.is_none()))
        .map(|(n, v)| (n.clone(), v.clone()))
        .collect();
    if !given.is_empty() {
        let _ = writeln!(s, "  with {}", describe_values(&given));
    }
    let arb = match opts.arbitration {
        Arbitration::Fcfs => "fcfs",
        Arbitration::Random => "random",
    };
    let _ = writeln!(s, "  arbitration {arb}, seed {}", opts.seed);
    let _ = writeln!(s, "{TIME_UNIT_LINE}");
    let _ = writeln!(s);
    let _ = writeln!(s, "  T            = {}", num(r.time));
    let _ = writeln!(s, "  events       = {}", r.events);
    let _ = writeln!(
        s,
        "  peak active  = {} process{}",
        r.peak_active,
        if r.peak_active == 1 { "" } else { "es" }
    );
    if !r.resources.is_empty() {
        let _ = writeln!(s);
        let families = r.resources.iter().any(|u| !u.members.is_empty());
        let mut cols = vec![
            ("resource".to_string(), Align::Left),
            ("utilisation".to_string(), Align::Right),
            ("busy".to_string(), Align::Right),
            ("served".to_string(), Align::Right),
        ];
        if families {
            cols.push(("busiest members".to_string(), Align::Left));
        }
        let mut t = TextTable::new(cols);
        for u in &r.resources {
            let util = if u.utilization > 0.0 || u.busy == 0.0 {
                fixed(u.utilization, 3)
            } else {
                "(infinite)".to_string()
            };
            let mut row = vec![u.name.clone(), util, num(u.busy), u.served.to_string()];
            if families {
                row.push(busiest(&u.members));
            }
            t.push(row);
        }
        s.push_str(&t.render("  "));
    }
    s
}

/// `cpu[3] 0.998, cpu[1] 0.990, …` for a family (`… (3 of 8 members shown)` when it has more
/// than [`BUSIEST_SHOWN`]); empty for a plain resource.
fn busiest(members: &[crate::sim::MemberUsage]) -> String {
    let mut m: Vec<&crate::sim::MemberUsage> = members.iter().collect();
    m.sort_by(|a, b| b.busy.total_cmp(&a.busy));
    let mut parts: Vec<String> = m
        .iter()
        .take(BUSIEST_SHOWN)
        .map(|u| format!("{} {}", u.name, fixed(u.utilization, 3)))
        .collect();
    if m.len() > BUSIEST_SHOWN {
        parts.push(format!("… ({BUSIEST_SHOWN} of {} members shown)", m.len()));
    }
    parts.join(", ")
}

/// A simulation's report as JSON (schema in `docs/cli.md`).
pub fn sim_json(r: &SimResult) -> serde_json::Value {
    let doc = SimJson {
        events: r.events,
        peak_active: r.peak_active,
        resources: r
            .resources
            .iter()
            .map(|u| ResourceJson {
                busy: u.busy,
                members: u
                    .members
                    .iter()
                    .map(|m| MemberJson {
                        busy: m.busy,
                        name: &m.name,
                        served: m.served,
                        utilization: m.utilization,
                    })
                    .collect(),
                name: &u.name,
                served: u.served,
                utilization: u.utilization,
            })
            .collect(),
        time: r.time,
        utilization: r
            .resources
            .iter()
            .map(|u| (u.name.as_str(), u.utilization))
            .collect(),
    };
    serde_json::to_value(doc).expect("a simulation report serialises")
}

/// The document [`sim_json`] prints; its keys in alphabetical order, as they print.
#[derive(serde::Serialize)]
struct SimJson<'a> {
    events: u64,
    peak_active: usize,
    resources: Vec<ResourceJson<'a>>,
    time: f64,
    /// Utilisation by resource name.
    utilization: BTreeMap<&'a str, f64>,
}

/// One resource of a [`SimJson`].
#[derive(serde::Serialize)]
struct ResourceJson<'a> {
    busy: f64,
    members: Vec<MemberJson<'a>>,
    name: &'a str,
    served: u64,
    utilization: f64,
}

/// One member of a family in a [`ResourceJson`].
#[derive(serde::Serialize)]
struct MemberJson<'a> {
    busy: f64,
    name: &'a str,
    served: u64,
    utilization: f64,
}

/// The text report of a sweep over `space`: a heading with the swept and fixed parameters,
/// then the `sample` of rows (columns of [`crate::evaluate::Engines::columns`]) as a table
/// with T^l/T when both engines ran.
pub fn sweep_text(
    model: &Model,
    root: ProcId,
    space: &sweep::Space,
    sample: &sweep::Sample,
    engines: crate::evaluate::Engines,
) -> String {
    use sweep::TextColumn;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PAMELA sweep: {}, root `{}`, {} point{}",
        model.source.name,
        model.processes[root].name,
        space.len(),
        if space.len() == 1 { "" } else { "s" }
    );
    let swept: Vec<String> = space.swept().map(|(_, a)| a.describe()).collect();
    let fixed: Vec<String> = space
        .axes()
        .iter()
        .filter(|a| !a.is_swept())
        .map(|a| a.describe())
        .collect();
    if !swept.is_empty() {
        let _ = writeln!(s, "  swept: {}", swept.join(", "));
    }
    if !fixed.is_empty() {
        let _ = writeln!(s, "  fixed: {}", fixed.join(", "));
    }
    let _ = writeln!(s, "{TIME_UNIT_LINE}");
    let _ = writeln!(s);
    let mut cols = TextColumn::swept(space);
    if engines.bound {
        for (k, c) in ["T^l", "phi", "omega"].into_iter().enumerate() {
            cols.push(TextColumn::num(c, k));
        }
    }
    let sim = if engines.bound { 3 } else { 0 };
    if engines.sim {
        cols.push(TextColumn::num("T (sim)", sim));
    }
    if engines.bound && engines.sim {
        cols.push(TextColumn::new("T^l/T", move |r: &sweep::Row| {
            let v = &r.values;
            if v[sim] > 0.0 {
                format!("{:.3}", v[0] / v[sim])
            } else {
                "-".to_string()
            }
        }));
    }
    s.push_str(&sample.table(&cols).render("  "));
    s
}

/// The JSON document of a sweep: the parameters (the axes, in order), the engines (as the
/// user listed them) and one object per point with its parameter values and its columns'
/// values ([`crate::evaluate::Engines::columns`]), in point order. Numbers without a
/// fraction are integers, values not computed are `null`.
///
/// ```
/// use expr::{Name, Rational};
/// use pamela::report::SweepJson;
/// let int = |v: i64| Rational::from_integer(v.into());
/// let space = sweep::Space::new(
///     vec![(Name::from("N"), expr::grid::Values::List(vec![int(1), int(2)]))],
///     10,
/// )
/// .unwrap();
/// let rows = [
///     sweep::Row { point: 0, params: vec![1.0], values: vec![2.0, f64::NAN] },
///     sweep::Row { point: 1, params: vec![2.0], values: vec![2.5, 4.0] },
/// ];
/// let cols = ["bound".to_string(), "sim".to_string()];
/// let doc = SweepJson::new(&space, vec!["bound", "sim"], &cols, &rows);
/// assert_eq!(
///     serde_json::to_string(&doc).unwrap(),
///     r#"{"parameters":["N"],"engines":["bound","sim"],"points":[{"N":1,"bound":2,"sim":null},{"N":2,"bound":2.5,"sim":4}]}"#
/// );
/// ```
#[derive(serde::Serialize, Debug)]
pub struct SweepJson<'a> {
    /// The parameters' names, one per axis of the space.
    pub parameters: Vec<&'a str>,
    /// The engines that ran.
    pub engines: Vec<&'a str>,
    /// The points.
    pub points: Vec<SweepJsonPoint<'a>>,
}

impl<'a> SweepJson<'a> {
    /// The document of `rows` (a sweep over `space` with `columns`, in point order) from
    /// `engines`.
    pub fn new(
        space: &'a sweep::Space,
        engines: Vec<&'a str>,
        columns: &'a [String],
        rows: &'a [sweep::Row],
    ) -> SweepJson<'a> {
        let parameters: Vec<&str> = space.axes().iter().map(|a| &**a.name()).collect();
        let points = rows
            .iter()
            .map(|row| SweepJsonPoint {
                space,
                columns,
                row,
            })
            .collect();
        SweepJson {
            parameters,
            engines,
            points,
        }
    }
}

/// One point of a [`SweepJson`]: an object of its parameters' and columns' values, in that
/// order.
#[derive(Debug)]
pub struct SweepJsonPoint<'a> {
    space: &'a sweep::Space,
    columns: &'a [String],
    row: &'a sweep::Row,
}

impl serde::Serialize for SweepJsonPoint<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let axes = self.space.axes();
        let keys = axes
            .iter()
            .map(|a| &**a.name())
            .chain(self.columns.iter().map(String::as_str));
        let values = self.row.params.iter().chain(&self.row.values);
        let mut m = s.serialize_map(Some(axes.len() + self.columns.len()))?;
        for (k, &v) in keys.zip(values) {
            if !v.is_finite() {
                m.serialize_entry(k, &())?;
            } else if v.fract() == 0.0 && v.abs() < 9e15 {
                m.serialize_entry(k, &(v as i64))?;
            } else {
                m.serialize_entry(k, &v)?;
            }
        }
        m.end()
    }
}
