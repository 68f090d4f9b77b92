//! What a user gives beside a model: the parameter that groups samples into fits (the
//! processor count, `by`) and coefficient values that stand over a fit. Both are checked
//! against the model, with the closest name when one is misspelt.

use crate::lang::Model;

/// A given value the model does not accept.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GivenError {
    /// The grouping parameter is a derived one.
    #[error("`{name}` is derived from other parameters; group by a given one (its given parameters: {given}), or by none")]
    DerivedGroup {
        /// The name.
        name: String,
        /// The model's given parameters, listed.
        given: String,
    },
    /// The grouping parameter is not a parameter of the model.
    #[error("the model has no parameter `{name}` (its parameters: {given}; `none` fits all samples together){hint}")]
    NoGroup {
        /// The name.
        name: String,
        /// The model's given parameters, listed.
        given: String,
        /// `; did you mean …?`, or nothing.
        hint: String,
    },
    /// A coefficient the model does not declare.
    #[error("the model has no coefficient `{name}`{hint}")]
    NoCoeff {
        /// The name.
        name: String,
        /// `; did you mean …?`, or the model's coefficients.
        hint: String,
    },
    /// A coefficient given twice.
    #[error("given twice; give each coefficient once")]
    Twice {
        /// The name.
        name: String,
    },
}

impl GivenError {
    /// The name the error is about.
    pub fn name(&self) -> &str {
        match self {
            GivenError::DerivedGroup { name, .. }
            | GivenError::NoGroup { name, .. }
            | GivenError::NoCoeff { name, .. }
            | GivenError::Twice { name } => name,
        }
    }
}

/// A value given by name, `NAME=VALUE` (a coefficient's, or a point's parameter): the
/// name trimmed, the value a finite number.
///
/// ```
/// assert_eq!(semi::user_values::parse_named(" c = 0.5"), Ok(("c".to_string(), 0.5)));
/// assert!(semi::user_values::parse_named("c=inf").is_err());
/// assert!(semi::user_values::parse_named("c").is_err());
/// ```
///
/// # Errors
/// A message: no `=`, or a value that is not a finite number.
pub fn parse_named(s: &str) -> Result<(String, f64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=VALUE"))?;
    let v: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("`{value}` is not a number"))?;
    if !v.is_finite() {
        return Err(format!("`{value}` is not a finite number"));
    }
    Ok((name.trim().to_string(), v))
}

/// `by` groups samples: a given parameter of the model, or `none` (all samples together).
///
/// # Errors
/// [`GivenError::DerivedGroup`] or [`GivenError::NoGroup`].
pub fn check_group(m: &Model, by: &str) -> Result<(), GivenError> {
    let given = crate::lang::given_params(m);
    if by == "none" || given.iter().any(|n| n == by) {
        return Ok(());
    }
    let listed = given.join(", ");
    if m.params.iter().any(|p| p.name.name == by) {
        return Err(GivenError::DerivedGroup {
            name: by.to_string(),
            given: listed,
        });
    }
    let hint = diag::did_you_mean(&diag::suggest(by, given.iter().map(String::as_str)))
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    Err(GivenError::NoGroup {
        name: by.to_string(),
        given: listed,
        hint,
    })
}

/// Sets each of `given` (name, value) over `coeffs` (a fit's, or none), adding the ones
/// `coeffs` lacks.
///
/// # Errors
/// [`GivenError::Twice`] or [`GivenError::NoCoeff`], at the first such value.
pub fn set_coefficients(
    m: &Model,
    given: &[(String, f64)],
    coeffs: &mut Vec<(String, f64)>,
) -> Result<(), GivenError> {
    for (i, (k, v)) in given.iter().enumerate() {
        if given[..i].iter().any(|(e, _)| e == k) {
            return Err(GivenError::Twice { name: k.clone() });
        }
        if !m.coeffs.iter().any(|c| c.name == *k) {
            let names: Vec<&str> = m.coeffs.iter().map(|c| c.name.as_str()).collect();
            let hint = match diag::did_you_mean(&diag::suggest(k, names.iter().copied())) {
                Some(h) => format!("; {h}"),
                None if names.is_empty() => " (it declares none)".to_string(),
                None => format!(" (its coefficients: {})", names.join(", ")),
            };
            return Err(GivenError::NoCoeff {
                name: k.clone(),
                hint,
            });
        }
        match coeffs.iter_mut().find(|(n, _)| n == k) {
            Some(c) => c.1 = *v,
            None => coeffs.push((k.clone(), *v)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Model {
        crate::lang::parse(
            "g.tg",
            "param N;\nparam P;\nparam B = N / P;\ncoeff c_unit, c_pivot;\nthread t { compute w = c_unit * B + c_pivot; }",
        )
        .unwrap()
    }

    #[test]
    fn a_group_is_a_given_parameter_or_none() {
        let m = model();
        assert_eq!(check_group(&m, "P"), Ok(()));
        assert_eq!(check_group(&m, "none"), Ok(()));
        let e = check_group(&m, "p").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the model has no parameter `p` (its parameters: N, P; `none` fits all samples together); did you mean `P`?"
        );
        assert!(matches!(
            check_group(&m, "B"),
            Err(GivenError::DerivedGroup { .. })
        ));
    }

    #[test]
    fn given_coefficients_stand_over_a_fit() {
        let m = model();
        let mut c = vec![("c_unit".to_string(), 1.0)];
        set_coefficients(
            &m,
            &[("c_unit".into(), 2.0), ("c_pivot".into(), 3.0)],
            &mut c,
        )
        .unwrap();
        assert_eq!(
            c,
            [("c_unit".to_string(), 2.0), ("c_pivot".to_string(), 3.0)]
        );
        let twice = [("c_unit".to_string(), 1.0), ("c_unit".to_string(), 2.0)];
        let e = set_coefficients(&m, &twice, &mut c).unwrap_err();
        assert_eq!(
            (e.name(), e.to_string().as_str()),
            ("c_unit", "given twice; give each coefficient once")
        );
        let e = set_coefficients(&m, &[("c_unt".into(), 1.0)], &mut c).unwrap_err();
        assert!(e.to_string().ends_with("did you mean `c_unit`?"), "{e}");
        let e = set_coefficients(&m, &[("zz".into(), 1.0)], &mut c).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("(its coefficients: c_unit, c_pivot)"),
            "{e}"
        );
    }
}
