//! The bindings a user gives a parameter space (`-D n=1..10:2`): each parameter's name, its
//! value, list or range, and the text as typed, for messages.

use expr::grid::{parse_binding, GridError, Values};
use expr::{Name, Rational};

/// One `NAME=VALUE`, `NAME=LIST` or `NAME=RANGE` as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The parameter name.
    pub name: Name,
    /// Its value or values.
    pub values: Values,
    /// The text as typed, for messages.
    pub text: String,
}

/// Why bindings do not give one value per parameter ([`Binding::singles`]): the binding at
/// fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotSingle<'a> {
    /// It gives several values (a range, or a list of more than one).
    Several(&'a Binding),
    /// Its parameter is bound before it.
    Twice(&'a Binding),
}

impl Binding {
    /// Reads a binding ([`expr::grid::parse_binding`]), keeping its text.
    ///
    /// ```
    /// let b = sweep::Binding::parse("n=1,2").unwrap();
    /// assert_eq!((&*b.name, b.text.as_str()), ("n", "n=1,2"));
    /// ```
    ///
    /// # Errors
    /// The [`GridError`] of bad syntax, names or numbers.
    pub fn parse(s: &str) -> Result<Binding, GridError> {
        let (name, values) = parse_binding(s)?;
        Ok(Binding {
            name,
            values,
            text: s.to_string(),
        })
    }

    /// The names and values of `bindings`, for a [`crate::Space`] or a grid.
    pub fn pairs(bindings: &[Binding]) -> Vec<(Name, Values)> {
        bindings
            .iter()
            .map(|b| (b.name.clone(), b.values.clone()))
            .collect()
    }

    /// The value of each binding, for a run at one point: a list of one value is that
    /// value.
    ///
    /// # Errors
    /// The first binding, in order, that gives several values or binds a name bound before.
    pub fn singles(bindings: &[Binding]) -> Result<Vec<(Name, Rational)>, NotSingle<'_>> {
        let mut out: Vec<(Name, Rational)> = Vec::with_capacity(bindings.len());
        for b in bindings {
            let v = match &b.values {
                Values::Single(v) => v.clone(),
                Values::List(vs) if vs.len() == 1 => vs[0].clone(),
                _ => return Err(NotSingle::Several(b)),
            };
            if out.iter().any(|(n, _)| *n == b.name) {
                return Err(NotSingle::Twice(b));
            }
            out.push((b.name.clone(), v));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(texts: &[&str]) -> Vec<Binding> {
        texts.iter().map(|t| Binding::parse(t).unwrap()).collect()
    }

    #[test]
    fn one_value_each_or_the_binding_at_fault() {
        let mut one = parsed(&["n=3"]);
        one.push(Binding {
            name: "p".into(),
            values: Values::List(vec![Rational::from_integer(4.into())]),
            text: "p=[4]".into(),
        });
        let singles = Binding::singles(&one).unwrap();
        assert_eq!(singles.len(), 2);
        assert_eq!(singles[1].1, Rational::from_integer(4.into()));
        assert_eq!(Binding::pairs(&one)[0].0, one[0].name);
        let several = parsed(&["n=3", "p=1..4"]);
        assert_eq!(
            Binding::singles(&several),
            Err(NotSingle::Several(&several[1]))
        );
        let twice = parsed(&["n=3", "n=4", "p=1,2"]);
        assert_eq!(Binding::singles(&twice), Err(NotSingle::Twice(&twice[1])));
        assert!(Binding::parse("n").is_err());
    }
}
