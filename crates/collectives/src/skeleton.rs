//! SPMD programs as the thesis predicts them (section 3.5): a skeleton of collective
//! operations with their message sizes and computation phases, repeated by loops, whose
//! time is the sum of its steps', predicted numerically (interpolating the measurements,
//! [`crate::interp`]) or symbolically (summing the fitted models into one formula).
//!
//! ```text
//! # 1-D geometric decomposition of an n × 1024 grid (thesis §3.5, Tables 3-16..3-20)
//! param n = 1024
//! param i = 1
//! scatter 1024*n/p          # integers per process
//! loop i
//!   send-receive 1024       # the two halo exchanges
//!   send-receive 1024
//! end
//! gather 1024*n/p
//! ```
//!
//! A line is `param NAME = EXPR`, `OPERATION SIZE` (any operation of the measurements,
//! the size an expression in `p` and the parameters; none for a barrier), `compute TIME`
//! (a computation phase, in the measurements' time unit), `loop COUNT` … `end`, a comment
//! (`#`) or blank.

use std::ops::Range;

use expr::{Expr, Name};
use serde::Serialize;

/// The deepest loop nesting a skeleton may have.
pub const MAX_DEPTH: usize = 64;
/// The longest skeleton text read, in bytes.
pub const MAX_BYTES: usize = 1 << 20;
/// The advice for a skeleton over [`MAX_BYTES`] (appended to the message).
pub const TOO_LARGE: &str = "; a skeleton is a few lines per phase of the program";

/// A step of a skeleton.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// A collective operation with its message size (`None`: no data).
    Collective {
        /// The operation, as [`crate::table::op_name`] spells it.
        op: String,
        /// The size, an expression in `p` and the parameters.
        size: Option<Expr>,
        /// Where in the text.
        span: Range<usize>,
    },
    /// A computation phase: its time in the measurements' unit.
    Compute {
        /// The time, an expression in `p` and the parameters.
        time: Expr,
    },
    /// A loop: its body `count` times.
    Loop {
        /// The count, an expression.
        count: Expr,
        /// The steps repeated.
        body: Vec<Step>,
    },
}

/// A parsed skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    /// The parameters with their default values, in order (each may use the earlier ones).
    pub params: Vec<(Name, Expr)>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// What is wrong with a skeleton.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SkeletonErrorKind {
    /// A line that is none of the forms.
    Syntax,
    /// An expression that does not parse.
    Expression,
    /// A `loop` without its `end`, or an `end` without a `loop`.
    Unbalanced,
    /// Loops nested deeper than [`MAX_DEPTH`], or a text over [`MAX_BYTES`].
    Limit,
    /// An operation the measurements or models do not have, or a name no parameter binds.
    Unknown,
    /// An evaluation that fails: a negative size or count, a division by zero.
    Value,
}

/// An error in a skeleton or its evaluation, located in its text when it can be
/// ([`diag::Located`]).
pub type SkeletonError = diag::Located<SkeletonErrorKind>;

impl diag::ErrorKind for SkeletonErrorKind {
    fn label(self) -> &'static str {
        match self {
            SkeletonErrorKind::Syntax | SkeletonErrorKind::Expression => "here",
            SkeletonErrorKind::Unbalanced => "unmatched",
            SkeletonErrorKind::Limit => "limit reached here",
            SkeletonErrorKind::Unknown => "unknown",
            SkeletonErrorKind::Value => "this value",
        }
    }
}

/// An error at `range` of the skeleton with a hint.
fn error_at(
    kind: SkeletonErrorKind,
    src: (&str, &str),
    range: Range<usize>,
    message: impl Into<String>,
    help: impl Into<String>,
) -> SkeletonError {
    SkeletonError::at(kind, src, range, message).help(help)
}

/// An error about no place in the text, with a hint.
fn error(
    kind: SkeletonErrorKind,
    message: impl Into<String>,
    help: impl Into<String>,
) -> SkeletonError {
    SkeletonError::new(kind, message).help(help)
}

/// Parses an expression at `at` of the text.
fn expression(src: (&str, &str), at: usize, text: &str) -> Result<Expr, SkeletonError> {
    expr::parse(text).map_err(|e| {
        error_at(
            SkeletonErrorKind::Expression,
            src,
            at + e.start..at + e.end.max(e.start + 1).min(text.len()),
            e.message,
            "sizes, counts and times are arithmetic in p and the parameters: 1024*n/p, log2(p)",
        )
    })
}

/// Reads a skeleton (`name` for messages).
///
/// # Errors
/// A located [`SkeletonError`].
pub fn parse(name: &str, text: &str) -> Result<Skeleton, SkeletonError> {
    let src = (name, text);
    if text.len() > MAX_BYTES {
        return Err(error(
            SkeletonErrorKind::Limit,
            format!(
                "{name}: the skeleton has {} bytes, over {MAX_BYTES}",
                text.len()
            ),
            "a skeleton is a few lines per phase of the program",
        ));
    }
    let mut params = Vec::new();
    // The open loops: their count (with where the loop starts) and the steps gathered so
    // far; the outermost is the skeleton itself.
    type Open = (Option<(Expr, usize)>, Vec<Step>);
    let mut stack: Vec<Open> = vec![(None, Vec::new())];
    for (at, line) in fit::read::lines(text) {
        let body = line.split('#').next().unwrap_or("");
        let trimmed = body.trim();
        if trimmed.is_empty() {
            continue;
        }
        let start = at + (body.len() - body.trim_start().len());
        let here = start..start + trimmed.len();
        let (word, rest) = trimmed
            .split_once(char::is_whitespace)
            .map_or((trimmed, ""), |(w, r)| (w, r.trim()));
        let rest_at = start + trimmed.len() - rest.len();
        match word {
            "param" => {
                let Some((n, e)) = rest.split_once('=') else {
                    return Err(error_at(
                        SkeletonErrorKind::Syntax,
                        src,
                        here,
                        "a parameter needs a value",
                        "write `param n = 1024`",
                    ));
                };
                let n = n.trim();
                if n.is_empty() || !n.chars().all(|c| c.is_alphanumeric() || c == '_') || n == "p" {
                    return Err(error_at(
                        SkeletonErrorKind::Syntax,
                        src,
                        here,
                        format!("`{}` is not a parameter name", diag::short(n)),
                        "a name is letters, digits and _; p is the process count, not a parameter",
                    ));
                }
                let e_at = rest_at + rest.len() - e.len();
                params.push((Name::from(n), expression(src, e_at, e.trim_end())?));
            }
            "loop" => {
                if stack.len() > MAX_DEPTH {
                    return Err(error_at(
                        SkeletonErrorKind::Limit,
                        src,
                        here,
                        format!("loops nested deeper than {MAX_DEPTH}"),
                        "multiply the counts of nested loops into one",
                    ));
                }
                let count = expression(src, rest_at, rest)?;
                stack.push((Some((count, start)), Vec::new()));
            }
            "end" => {
                if stack.len() == 1 {
                    return Err(error_at(
                        SkeletonErrorKind::Unbalanced,
                        src,
                        here,
                        "`end` without a `loop`",
                        "each `loop COUNT` is closed by one `end`",
                    ));
                }
                let (count, body) = stack.pop().expect("an open loop");
                let (count, _) = count.expect("a loop has a count");
                stack
                    .last_mut()
                    .expect("the skeleton")
                    .1
                    .push(Step::Loop { count, body });
            }
            "compute" => {
                let time = expression(src, rest_at, rest)?;
                stack
                    .last_mut()
                    .expect("open")
                    .1
                    .push(Step::Compute { time });
            }
            op => {
                let size = if rest.is_empty() {
                    None
                } else {
                    Some(expression(src, rest_at, rest)?)
                };
                stack.last_mut().expect("open").1.push(Step::Collective {
                    op: crate::table::op_name(op),
                    size,
                    span: start..start + op.len(),
                });
            }
        }
    }
    if stack.len() > 1 {
        let (count, _) = stack.pop().expect("an open loop");
        let (_, at) = count.expect("a loop has a count");
        return Err(error_at(
            SkeletonErrorKind::Unbalanced,
            src,
            at..at + 4,
            "this `loop` has no `end`",
            "close each loop with a line `end`",
        ));
    }
    let steps = stack.pop().expect("the skeleton").1;
    Ok(Skeleton { params, steps })
}

/// Checks what does not depend on the point: every operation is one `ops` has (the
/// measured ones), every name in a size, count or time is `p` or a parameter (each
/// parameter's value may use `p` and the parameters before it). `src` is the skeleton's
/// name and text, for the location.
///
/// # Errors
/// A located [`SkeletonError`] of kind `Unknown`.
pub fn check(s: &Skeleton, src: (&str, &str), ops: &[String]) -> Result<(), SkeletonError> {
    let mut known: Vec<&str> = vec!["p"];
    for (n, e) in &s.params {
        if let Some(v) = e.free_vars().iter().find(|v| !known.contains(&&***v)) {
            return Err(error(
                SkeletonErrorKind::Unknown,
                format!("parameter {n} = {e} uses `{v}`, which no earlier `param` binds"),
                "a parameter's value may use p and the parameters above it",
            ));
        }
        known.push(n);
    }
    walk_check(&s.steps, &known, src, ops)
}

fn walk_check(
    steps: &[Step],
    known: &[&str],
    src: (&str, &str),
    ops: &[String],
) -> Result<(), SkeletonError> {
    for st in steps {
        let (exprs, span): (Vec<&Expr>, Option<&Range<usize>>) = match st {
            Step::Collective { op, size, span } => {
                if !ops.iter().any(|o| o == op) {
                    let hint =
                        diag::did_you_mean(&diag::suggest(op, ops.iter().map(String::as_str)))
                            .map(|d| format!(" ({d})"))
                            .unwrap_or_default();
                    return Err(error_at(
                        SkeletonErrorKind::Unknown,
                        src,
                        span.clone(),
                        format!("the measurements have no `{op}`"),
                        format!(
                            "the tables hold {}; measure {op}, or use one of those{hint}",
                            ops.join(", ")
                        ),
                    ));
                }
                (size.iter().collect(), Some(span))
            }
            Step::Compute { time } => (vec![time], None),
            Step::Loop { count, body } => {
                walk_check(body, known, src, ops)?;
                (vec![count], None)
            }
        };
        for e in exprs {
            if let Some(v) = e.free_vars().iter().find(|v| !known.contains(&&***v)) {
                let message = format!("`{v}` is not a parameter of the skeleton");
                let help = "bind it with a line `param NAME = VALUE` (p is the process count)";
                return Err(match span {
                    Some(r) => error_at(SkeletonErrorKind::Unknown, src, r.clone(), message, help),
                    None => error(SkeletonErrorKind::Unknown, message, help),
                });
            }
        }
    }
    Ok(())
}

pub use crate::interp::Costs;

/// The skeleton's parameters at `p` with `overrides` (by name) replacing defaults.
pub(crate) fn bindings_at(
    s: &Skeleton,
    p: f64,
    overrides: &[(String, f64)],
) -> Result<Vec<(Name, f64)>, SkeletonError> {
    let mut env: Vec<(Name, f64)> = vec![(Name::from("p"), p)];
    for (n, e) in &s.params {
        let v = match overrides.iter().find(|(o, _)| o == &**n) {
            Some(&(_, v)) => v,
            None => value_at(e, &env, &format!("parameter {n}"))?,
        };
        env.insert(0, (n.clone(), v));
    }
    if let Some((o, _)) = overrides
        .iter()
        .find(|(o, _)| !s.params.iter().any(|(n, _)| &**n == o))
    {
        return Err(error(
            SkeletonErrorKind::Unknown,
            format!("the skeleton has no parameter `{o}`"),
            format!(
                "its parameters are {}",
                s.params
                    .iter()
                    .map(|(n, _)| &**n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(env)
}

/// The value of `e` under `env` (first binding of a name wins), finite and not negative.
pub(crate) fn value_at(e: &Expr, env: &[(Name, f64)], what: &str) -> Result<f64, SkeletonError> {
    // The first binding of a name wins: insert the last first.
    let map: std::collections::BTreeMap<Name, f64> = env.iter().rev().cloned().collect();
    let v = expr::eval::eval_f64(e, &map, &expr::eval::EvalLimits::default()).map_err(|err| {
        error(
            SkeletonErrorKind::Value,
            format!("{what} = {e}: {err}"),
            "bind every name with `param` (p is the process count)",
        )
    })?;
    if !v.is_finite() || v < 0.0 {
        return Err(error(
            SkeletonErrorKind::Value,
            if e.free_vars().is_empty() {
                format!("{what} is {v}")
            } else {
                format!("{what} = {e} is {v} here")
            },
            "sizes, counts and times are finite and not negative",
        ));
    }
    Ok(v)
}

/// The skeleton's time on `p` processes, its collectives costed by `costs`, with the
/// parameters `overrides`.
///
/// # Errors
/// A [`SkeletonError`]: an unbound name, a negative value, an operation `costs` cannot
/// price (its reason).
pub fn time(
    s: &Skeleton,
    costs: &dyn Costs,
    p: f64,
    overrides: &[(String, f64)],
) -> Result<f64, SkeletonError> {
    let env = bindings_at(s, p, overrides)?;
    let t = steps_time(&s.steps, costs, p, &env)?;
    if !t.is_finite() {
        return Err(error(
            SkeletonErrorKind::Value,
            format!("the time at p = {p} overflows ({t})"),
            "smaller counts or sizes: the time must be a finite number",
        ));
    }
    Ok(t)
}

fn steps_time(
    steps: &[Step],
    costs: &dyn Costs,
    p: f64,
    env: &[(Name, f64)],
) -> Result<f64, SkeletonError> {
    let mut total = 0.0;
    for st in steps {
        total += match st {
            Step::Collective { op, size, .. } => {
                let d = match size {
                    Some(e) => value_at(e, env, &format!("the size of {op}"))?,
                    None => 0.0,
                };
                costs.time(op, p, d).map_err(|why| {
                    error(
                        SkeletonErrorKind::Unknown,
                        format!("{op} at p = {p}, d = {d}: {why}"),
                        "measure or model every operation the skeleton uses, at its process counts",
                    )
                })?
            }
            Step::Compute { time } => value_at(time, env, "a compute time")?,
            Step::Loop { count, body } => {
                value_at(count, env, "a loop count")? * steps_time(body, costs, p, env)?
            }
        };
    }
    Ok(total)
}

/// The skeleton's time as one formula in `p` and its parameters: each collective's model
/// (`models(op)`, an expression in `p` and `d`) with `d` replaced by its size, summed,
/// loops as products, simplified.
///
/// # Errors
/// A [`SkeletonError`] of kind `Unknown` for an operation without a model.
pub fn formula(s: &Skeleton, models: &dyn Fn(&str) -> Option<Expr>) -> Result<Expr, SkeletonError> {
    fn sum(steps: &[Step], models: &dyn Fn(&str) -> Option<Expr>) -> Result<Expr, SkeletonError> {
        let mut terms = Vec::new();
        for st in steps {
            terms.push(match st {
                Step::Collective { op, size, .. } => {
                    let m = models(op).ok_or_else(|| {
                        error(
                            SkeletonErrorKind::Unknown,
                            format!("no model of {op}"),
                            "fit a model of every operation the skeleton uses",
                        )
                    })?;
                    let d = size.clone().unwrap_or_else(Expr::zero);
                    m.substitute("d", &d)
                }
                Step::Compute { time } => time.clone(),
                Step::Loop { count, body } => Expr::Mul(vec![count.clone(), sum(body, models)?]),
            });
        }
        Ok(Expr::Add(terms))
    }
    let total = sum(&s.steps, models)?;
    // p counts processes: a whole number, at least 1.
    let assume = expr::Assumptions::new().int_at_least("p", 1);
    Ok(expr::simplify::simplify(&total, &assume))
}

/// A skeleton's predicted time at one point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    /// Processes.
    pub p: f64,
    /// The parameters given for this point (the others keep their defaults).
    pub params: Vec<(String, f64)>,
    /// The numerical prediction (the measurements interpolated), if there is one.
    pub numerical: Option<f64>,
    /// The symbolic prediction (the models summed), if there is one.
    pub symbolic: Option<f64>,
    /// Why a prediction is missing.
    pub notes: Vec<String>,
    /// Whether a collective of the skeleton falls outside the process counts or sizes
    /// measured for it here: the prediction extrapolates the measurements.
    pub extrapolated: bool,
    /// The lowered model's analyses ([`crate::lower`]), when asked for: one per network.
    pub lowered: Vec<Lowered>,
}

/// The Eager Timed CCS analysis of a skeleton lowered at one point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lowered {
    /// `bus` or `perfect`.
    pub network: &'static str,
    /// The slowest execution time, if the analysis finished.
    pub time: Option<f64>,
    /// The states explored.
    pub states: usize,
    /// Why there is no time (a limit reached, a model too large to lower).
    pub note: Option<String>,
}

impl Skeleton {
    /// The points of `bindings` for this skeleton: `p` and values of its parameters
    /// ([`crate::points::skeleton_points`]).
    ///
    /// # Errors
    /// A [`crate::points::PointsError`].
    pub fn points(
        &self,
        bindings: &[(Name, expr::grid::Values)],
    ) -> Result<Vec<crate::points::SkeletonPoint>, crate::points::PointsError> {
        let params: Vec<&str> = self.params.iter().map(|(n, _)| &**n).collect();
        crate::points::skeleton_points(bindings, &params)
    }

    /// [`check`] against the operations `table` measures.
    ///
    /// # Errors
    /// A located [`SkeletonError`].
    pub fn check_with(&self, src: (&str, &str), table: &crate::Table) -> Result<(), SkeletonError> {
        let ops: Vec<String> = table.groups().into_iter().map(|g| g.op).collect();
        check(self, src, &ops)
    }
}

/// The skeleton's predictions from one table of measurements.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Predicted {
    /// The symbolic time as one formula in `p` and the parameters (`None` when an
    /// operation has no single-regime model; the reason is in `formula_note`).
    pub formula: Option<String>,
    /// Why there is no formula.
    pub formula_note: Option<String>,
    /// The time unit (the measurements').
    pub time_unit: String,
    /// How far the symbolic models are from the measurements: per operation the model's
    /// name and its average prediction difference (%) on cells left out one at a time.
    pub model_differences: Vec<(String, String, Option<f64>)>,
    /// One entry per point.
    pub points: Vec<Point>,
}

/// Costs that remember whether any collective was asked for outside its measured range.
struct Watched<'a> {
    inner: &'a dyn Costs,
    groups: &'a [crate::table::Group],
    outside: std::cell::Cell<bool>,
}

impl Costs for Watched<'_> {
    fn time(&self, op: &str, p: f64, d: f64) -> Result<f64, String> {
        if let Some(g) = self
            .groups
            .iter()
            .filter(|g| g.op == op)
            .min_by_key(|g| g.shared)
        {
            let ps = g.cells.iter().map(|c| f64::from(c.p));
            let ds: Vec<f64> = g.cells.iter().filter_map(|c| c.d).collect();
            let inside_p =
                ps.clone().fold(f64::INFINITY, f64::min) <= p && p <= ps.fold(0.0, f64::max);
            let inside_d = ds.is_empty()
                || (ds.iter().copied().fold(f64::INFINITY, f64::min) <= d
                    && d <= ds.iter().copied().fold(0.0, f64::max));
            if !(inside_p && inside_d) {
                self.outside.set(true);
            }
        }
        self.inner.time(op, p, d)
    }
}

/// Predicts `s` at each `(p, params)` of `points` from `table`: numerically (each cell's
/// `opts.statistic`, interpolated) and symbolically (the models `opts` fits, one regime
/// each so that they sum into one formula). A point where the measurements have no row of
/// `p` gets no numerical prediction and a note saying so.
///
/// # Errors
/// A [`SkeletonError`]: the tables hold one operation on several platforms (kind
/// `Unknown`); at some point a size, count or time is negative or the time overflows (kind
/// `Value`).
pub fn predict(
    s: &Skeleton,
    table: &crate::Table,
    opts: &crate::Options,
    points: &[(f64, Vec<(String, f64)>)],
) -> Result<Predicted, SkeletonError> {
    let groups = table.groups();
    for g in groups.iter().filter(|g| !g.shared) {
        if let Some(other) = groups
            .iter()
            .find(|h| !h.shared && h.op == g.op && h.platform != g.platform)
        {
            return Err(error(
                SkeletonErrorKind::Unknown,
                format!(
                    "the tables hold {} on two platforms, `{}` and `{}`",
                    g.op, g.platform, other.platform
                ),
                "give the tables of one platform: a program runs on one machine",
            ));
        }
    }
    let opts = crate::Options {
        max_regimes: 1,
        ..opts.clone()
    };
    let models = crate::fit_table(table, &opts);
    let modelled = crate::interp::Modelled { models: &models };
    fn used(steps: &[Step], out: &mut Vec<String>) {
        for st in steps {
            match st {
                Step::Collective { op, .. } if !out.contains(op) => out.push(op.clone()),
                Step::Loop { body, .. } => used(body, out),
                _ => {}
            }
        }
    }
    let mut ops = Vec::new();
    used(&s.steps, &mut ops);
    let model_differences = models
        .iter()
        .filter(|m| !m.group.shared && ops.contains(&m.group.op))
        .filter_map(|m| {
            let best = m.best()?;
            Some((
                m.group.op.clone(),
                best.name(),
                best.cross_validated.map(|d| d.mean),
            ))
        })
        .collect();
    let numerical = crate::interp::Interpolated::new(groups.clone(), opts.statistic);
    let (formula, formula_note) = match formula(s, &|op| modelled.expr(op)) {
        Ok(f) => (Some(f.to_string()), None),
        Err(e) => (None, Some(e.message)),
    };
    let mut out = Vec::with_capacity(points.len());
    for (p, params) in points {
        let mut notes = Vec::new();
        let mut get = |costs: &dyn Costs, what: &str| match time(s, costs, *p, params) {
            Ok(t) => Ok(Some(t)),
            // What the measurements lack at this point is a note; a bad value is an error.
            Err(e) if e.kind == SkeletonErrorKind::Unknown => {
                notes.push(format!("{what}: {}", e.message));
                Ok(None)
            }
            Err(e) => Err(e),
        };
        let numerical = get(&numerical, "numerical")?;
        let watched = Watched {
            inner: &modelled,
            groups: &groups,
            outside: std::cell::Cell::new(false),
        };
        let symbolic = get(&watched, "symbolic")?;
        let extrapolated = watched.outside.get();
        out.push(Point {
            p: *p,
            params: params.clone(),
            numerical,
            symbolic,
            notes,
            extrapolated,
            lowered: Vec::new(),
        });
    }
    Ok(Predicted {
        formula,
        formula_note,
        time_unit: table.time_unit.clone(),
        model_differences,
        points: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Linear;
    impl Costs for Linear {
        fn time(&self, op: &str, p: f64, d: f64) -> Result<f64, String> {
            match op {
                "scatter" | "gather" => Ok(10.0 + p + 0.5 * d),
                "send-receive" => Ok(2.0 + d),
                _ => Err("not measured".into()),
            }
        }
    }

    const GEO: &str = "param n = 8\nparam i = 2\nscatter 4*n/p\nloop i\n  send-receive 4\n  send-receive 4  # halo\nend\ngather 4*n/p\ncompute n/p\n";

    #[test]
    fn sums_steps_and_loops() {
        let s = parse("geo", GEO).unwrap();
        // p = 2: scatter 10+2+8 = 20, 2×2×(2+4) = 24, gather 20, compute 4.
        assert_eq!(time(&s, &Linear, 2.0, &[]).unwrap(), 68.0);
        assert_eq!(time(&s, &Linear, 2.0, &[("i".into(), 0.0)]).unwrap(), 44.0);
        let e = time(&s, &Linear, 2.0, &[("x".into(), 0.0)]).unwrap_err();
        assert!(e.message.contains("no parameter `x`"), "{}", e.message);
        let f = formula(&s, &|op| match op {
            "scatter" | "gather" => Some(expr::parse("10 + p + d/2").unwrap()),
            "send-receive" => Some(expr::parse("2 + d").unwrap()),
            _ => None,
        })
        .unwrap();
        let env: std::collections::BTreeMap<Name, f64> =
            [("p".into(), 2.0), ("n".into(), 8.0), ("i".into(), 2.0)]
                .into_iter()
                .collect();
        let v = expr::eval::eval_f64(&f, &env, &expr::eval::EvalLimits::default()).unwrap();
        assert!((v - 68.0).abs() < 1e-9, "{f} = {v}");
    }

    #[test]
    fn errors_are_located() {
        for (text, want) in [
            ("loop 3\nbarrier\n", "this `loop` has no `end`"),
            ("end\n", "`end` without a `loop`"),
            ("param = 3\n", "is not a parameter name"),
            ("scatter 4*(n\n", "geo:1:"),
            ("param p = 3\n", "is not a parameter name"),
        ] {
            let e = parse("geo", text).unwrap_err();
            assert!(e.message.contains(want), "{text:?}: {}", e.message);
        }
        let deep = "loop 2\n".repeat(MAX_DEPTH + 2);
        assert_eq!(
            parse("geo", &deep).unwrap_err().kind,
            SkeletonErrorKind::Limit
        );
        let s = parse("geo", "alltoall 4\n").unwrap();
        assert!(time(&s, &Linear, 2.0, &[])
            .unwrap_err()
            .message
            .contains("not measured"));
        let s = parse("geo", "scatter 4 - 2*p\n").unwrap();
        assert_eq!(
            time(&s, &Linear, 4.0, &[]).unwrap_err().kind,
            SkeletonErrorKind::Value
        );
    }
}
