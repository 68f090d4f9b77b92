//! Parameter binding: checks user-given values against a model's declarations and
//! computes the derived parameters.
//!
//! ```
//! use expr::{Name, Rational};
//! let m = pamela::parse(
//!     "adi.pam",
//!     "param N: int >= 1; param P: int >= 1; param B: int = N / P; main = skip;",
//! )
//! .unwrap();
//! let int = |v: i64| Rational::from_integer(v.into());
//! let b = m.bind(&[(Name::from("N"), int(16)), (Name::from("P"), int(4))]).unwrap();
//! assert_eq!(b.get("B"), Some(&int(4)));
//! // 16 / 5 is not an integer, but B is declared `int`.
//! let e = m.bind(&[(Name::from("N"), int(16)), (Name::from("P"), int(5))]).unwrap_err();
//! assert_eq!(e.kind, pamela::ErrorKind::Binding);
//! ```

use std::collections::{BTreeMap, HashMap};

use expr::number::format_rational;
use expr::{Expr, Name, Rational};

use crate::check::{eval_exact, param_order, show, suggest};
use crate::diag::{ErrorKind, ModelError};
use crate::model::{Binding, Model, Param};

type Result<T> = std::result::Result<T, Box<ModelError>>;

impl Model {
    /// Binds every parameter: `given` must hold a value for each parameter that is not
    /// derived; derived parameters are computed from their definitions (in dependency
    /// order, exactly).
    ///
    /// # Errors
    /// [`ErrorKind::Binding`] for an unknown name (the hint lists the parameters), a value
    /// given twice or given for a derived parameter, a missing value, a non-integer value
    /// for an `int` parameter (given or derived), or a value outside its declared bounds
    /// (which may be expressions of other parameters); [`ErrorKind::Evaluation`] when a
    /// derived parameter cannot be computed (division by zero).
    pub fn bind(&self, given: &[(Name, Rational)]) -> Result<Binding> {
        bind_impl(self, given, true)
    }

    /// Like [`Model::bind`], but parameters may be left unbound: only the given values are
    /// checked, derived parameters are computed where all their inputs are known, and
    /// bounds are checked where they can be evaluated.
    ///
    /// # Errors
    /// As [`Model::bind`], except that nothing is reported missing.
    pub fn bind_partial(&self, given: &[(Name, Rational)]) -> Result<Binding> {
        bind_impl(self, given, false)
    }

    /// The parameters that need a value (declared, not derived) and are not in `given`.
    pub fn unbound(&self, given: &[(Name, Rational)]) -> Vec<Name> {
        self.params
            .iter()
            .filter(|p| p.definition.is_none() && !given.iter().any(|(n, _)| *n == p.name))
            .map(|p| p.name.clone())
            .collect()
    }
}

fn bind_impl(model: &Model, given: &[(Name, Rational)], complete: bool) -> Result<Binding> {
    let mut values: BTreeMap<Name, Rational> = BTreeMap::new();
    let by_name: HashMap<&str, &Param> = model.params.iter().map(|p| (&*p.name, p)).collect();
    for (name, v) in given {
        let Some(&p) = by_name.get(&**name) else {
            return Err(unknown(model, name));
        };
        if let Some(def) = &p.definition {
            let inputs = leaves(model, p);
            let instead = if inputs.is_empty() {
                "it is a constant".to_string()
            } else {
                format!("bind {} instead", ::diag::and_list(&inputs))
            };
            return Err(Box::new(err(
                model,
                p,
                format!("{name} is derived ({name} = {}); {instead}", show(def)),
                "derived here",
            )
            .with_help(
                "a derived parameter is always computed from its definition and cannot be bound",
            )));
        }
        if let Some(prev) = values.get(name) {
            return Err(Box::new(
                ModelError::new(
                    ErrorKind::Binding,
                    format!(
                        "`{name}` is given twice ({} and {})",
                        format_rational(prev),
                        format_rational(v)
                    ),
                )
                .with_help(format!("give `{name}` one value")),
            ));
        }
        if p.integer && !v.is_integer() {
            return Err(Box::new(
                err(
                    model,
                    p,
                    format!(
                        "{name} = {} is not an integer, but `{name}` is declared `int`",
                        format_rational(v)
                    ),
                    "declared `int` here",
                )
                .with_help(format!("give `{name}` a whole number")),
            ));
        }
        values.insert(name.clone(), v.clone());
    }
    if complete {
        let missing: Vec<&str> = model
            .params
            .iter()
            .filter(|p| p.definition.is_none() && !values.contains_key(&p.name))
            .map(|p| &*p.name)
            .collect();
        if !missing.is_empty() {
            let what = if missing.len() == 1 {
                format!("missing a value for parameter {}", missing[0])
            } else {
                format!("missing values for parameters {}", missing.join(", "))
            };
            return Err(Box::new(
                ModelError::new(ErrorKind::Binding, what)
                    .with_help("every parameter that is not derived needs a value")
                    .with_missing(missing.iter().copied()),
            ));
        }
    }
    // Bounds of the given values first (so `P = 0` is reported as out of range rather
    // than as a division by zero in a definition), then the derived values.
    check_bounds(model, &values, false)?;
    let order = param_order(&model.params).map_err(|cycle| {
        let names: Vec<&str> = cycle.iter().map(|&i| &*model.params[i].name).collect();
        Box::new(ModelError::new(
            ErrorKind::Recursion,
            format!(
                "derived parameters depend on themselves: {}",
                names.join(" -> ")
            ),
        ))
    })?;
    for i in order {
        let p = &model.params[i];
        let Some(def) = &p.definition else {
            continue;
        };
        let known = |n: &str| values.get(n).cloned();
        match eval_exact(def, &known) {
            Ok(Some(v)) => {
                if p.integer && !v.is_integer() {
                    let msg = format!(
                        "{} = {} = {} is not an integer{}; {}",
                        p.name,
                        show(def),
                        v,
                        inputs_of(def, &values),
                        assumption(def)
                    );
                    return Err(Box::new(
                        err(model, p, msg, "declared `int` here").with_help(
                            "choose values for which the derived parameter is a whole number",
                        ),
                    ));
                }
                values.insert(p.name.clone(), v);
            }
            Ok(None) => {}
            Err(e) => {
                let msg = format!(
                    "cannot compute {} = {}: {}{}",
                    p.name,
                    show(def),
                    e.describe(),
                    inputs_of(def, &values)
                );
                let mut e = err(model, p, msg, "defined here")
                    .with_help("choose values for which the definition can be computed");
                e.kind = ErrorKind::Evaluation;
                return Err(Box::new(e));
            }
        }
    }
    check_bounds(model, &values, true)?;
    Ok(Binding { values })
}

/// Checks every bound value against its declared bounds that can be evaluated. With
/// `derived` false only non-derived parameters are checked.
fn check_bounds(model: &Model, values: &BTreeMap<Name, Rational>, derived: bool) -> Result<()> {
    let known = |n: &str| values.get(n).cloned();
    for p in &model.params {
        if p.definition.is_some() && !derived {
            continue;
        }
        let Some(v) = values.get(&p.name) else {
            continue;
        };
        for (bound, lower) in [(&p.lower, true), (&p.upper, false)] {
            let Some(b) = bound else { continue };
            let Ok(Some(bv)) = eval_exact(b, &known) else {
                continue;
            };
            let bad = if lower { *v < bv } else { *v > bv };
            if bad {
                let bound_text = if matches!(b, Expr::Num(_)) {
                    format_rational(&bv)
                } else {
                    format!("{} = {}", show(b), format_rational(&bv))
                };
                let msg = format!(
                    "{} = {} is {} its {} bound {bound_text}",
                    p.name,
                    format_rational(v),
                    if lower { "below" } else { "above" },
                    if lower { "lower" } else { "upper" },
                );
                let decl = model
                    .source
                    .text
                    .get(p.span.offset()..p.span.offset() + p.span.len())
                    .unwrap_or("");
                let help = if p.definition.is_some() {
                    format!(
                        "`{}` is derived; choose inputs that keep it in range (declared as `{decl}`)",
                        p.name
                    )
                } else {
                    format!("give `{}` a value in its declared range: `{decl}`", p.name)
                };
                return Err(Box::new(
                    err(model, p, msg, "bounds declared here").with_help(help),
                ));
            }
        }
    }
    Ok(())
}

/// An error about `p`, pointing at its declaration.
fn err(model: &Model, p: &Param, message: String, label: &str) -> ModelError {
    ModelError::new(ErrorKind::Binding, message).at(&model.source, p.span, label)
}

/// Checks that `name` is a parameter of `model` (given or derived).
///
/// # Errors
/// [`ErrorKind::UnknownParameter`], with the closest name and the model's parameters.
pub fn check_name(model: &Model, name: &str) -> Result<()> {
    if model.params.iter().any(|p| *p.name == *name) {
        return Ok(());
    }
    let mut e = unknown(model, name);
    e.kind = ErrorKind::UnknownParameter;
    e.message = format!("the model has no parameter `{name}`");
    Err(e)
}

fn unknown(model: &Model, name: &str) -> Box<ModelError> {
    let bindable: Vec<&str> = model
        .params
        .iter()
        .filter(|p| p.definition.is_none())
        .map(|p| &*p.name)
        .collect();
    let derived: Vec<&str> = model
        .params
        .iter()
        .filter(|p| p.definition.is_some())
        .map(|p| &*p.name)
        .collect();
    let mut help = if model.params.is_empty() {
        "the model has no parameters".to_string()
    } else {
        let mut h = format!("its parameters: {}", bindable.join(", "));
        if !derived.is_empty() {
            h.push_str(&format!(" (derived: {})", derived.join(", ")));
        }
        h
    };
    if let Some(s) = suggest(name, model.params.iter().map(|p| &*p.name)) {
        help = format!("did you mean `{s}`? {help}");
    }
    Box::new(
        ModelError::new(ErrorKind::Binding, format!("unknown parameter `{name}`")).with_help(help),
    )
}

/// The non-derived parameters a derived parameter ultimately depends on, in declaration
/// order.
fn leaves(model: &Model, p: &Param) -> Vec<String> {
    let mut seen: Vec<Name> = Vec::new();
    let mut todo: Vec<Name> = p.definition.iter().flat_map(|d| d.free_vars()).collect();
    let mut out = Vec::new();
    while let Some(n) = todo.pop() {
        if seen.contains(&n) {
            continue;
        }
        seen.push(n.clone());
        match model.param(&n) {
            Some(q) => match &q.definition {
                Some(d) => todo.extend(d.free_vars()),
                None => out.push(n),
            },
            None => out.push(n),
        }
    }
    let pos = |n: &Name| model.params.iter().position(|q| q.name == *n);
    out.sort_by_key(pos);
    out.iter().map(|n| n.to_string()).collect()
}

/// ` (N = 5, P = 2)`: the values of the variables of `def`.
fn inputs_of(def: &Expr, values: &BTreeMap<Name, Rational>) -> String {
    let parts: Vec<String> = def
        .free_vars()
        .iter()
        .filter_map(|v| {
            values
                .get(v)
                .map(|x| format!("{v} = {}", format_rational(x)))
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// What a definition assumes to be integral: "the model assumes P divides N" for `N/P`.
fn assumption(def: &Expr) -> String {
    if let Expr::Mul(f) = def {
        if let [a, Expr::Pow(b, -1)] = f.as_slice() {
            return format!("the model assumes {} divides {}", show(b), show(a));
        }
    }
    "the model assumes it is a whole number".to_string()
}
