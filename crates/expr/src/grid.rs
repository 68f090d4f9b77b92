//! Parameter bindings and sweeps, as every engine's command line takes them (`-D N=1000`,
//! `-D P=1..64`, `-D P=1,2,4,8`, `-D tau=0.5..2:0.25`).
//!
//! Binding syntax, accepted by [`parse_binding`]:
//!
//! | text | meaning |
//! |---|---|
//! | `N=1000` | one value (any notation of [`crate::number::parse_rational`]) |
//! | `P=1,2,4,8` | a list, in the order given |
//! | `P=1..64` or `P=1..=64` | the inclusive range 1, 2, …, 64 (both spellings mean the same) |
//! | `tau=0.5..2:0.25` | the inclusive range 0.5, 0.75, …, 2 with step 0.25 |
//!
//! A range includes `hi` only when `lo + k*step` hits it exactly (`1..10:4` is 1, 5, 9).
//! A [`Grid`] is the cartesian product of several bindings, in row-major order (the last
//! name varies fastest).
//!
//! ```
//! use expr::grid::{parse_binding, Grid};
//! let g = Grid::parse(&["N=1000", "P=1..4:2", "tau=0.5,1"]).unwrap();
//! assert_eq!(g.len(), 4);
//! let pts: Vec<Vec<f64>> = g.points_f64().collect();
//! assert_eq!(pts[1], vec![1000.0, 1.0, 1.0]);
//! assert_eq!(pts[2], vec![1000.0, 3.0, 0.5]);
//! ```

use crate::node::{Name, Rational};
use crate::number::{format_rational, parse_rational, to_f64, NumberError};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use thiserror::Error;

/// The default limit on the number of points of a [`Grid`] ([`Grid::new`]).
pub const DEFAULT_MAX_POINTS: u64 = 100_000_000;

const FORMS: &str = "expected NAME=VALUE, NAME=LO..HI, NAME=LO..HI:STEP or NAME=V1,V2,…";

/// Why a binding or grid is invalid. Messages quote the offending text and say what is
/// expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GridError {
    /// The text is not of any binding form.
    #[error("`{input}`: {FORMS}")]
    Syntax {
        /// The binding text.
        input: String,
    },
    /// The name is empty or not an identifier.
    #[error(
        "`{input}`: `{name}` is not a parameter name (letters, digits and `_`, not starting \
         with a digit); {FORMS}"
    )]
    BadName {
        /// The binding text.
        input: String,
        /// The name part.
        name: String,
    },
    /// A value is not a number.
    #[error("`{input}`: {source}")]
    BadNumber {
        /// The binding text.
        input: String,
        /// The number error.
        source: NumberError,
    },
    /// A range step that is zero or negative.
    #[error("`{input}`: the step must be positive, e.g. NAME=1..64:4")]
    BadStep {
        /// The binding text.
        input: String,
    },
    /// A range whose upper bound is below its lower bound.
    #[error("`{input}`: the range is empty ({hi} < {lo}); write NAME=LO..HI with LO <= HI")]
    EmptyRange {
        /// The binding text.
        input: String,
        /// The lower bound.
        lo: String,
        /// The upper bound.
        hi: String,
    },
    /// The same name is bound twice.
    #[error("`{name}` is bound more than once; give each parameter one binding")]
    DuplicateName {
        /// The name.
        name: Name,
    },
    /// The grid has more points than allowed.
    #[error(
        "the sweep has {points} points, more than the limit of {limit}; use fewer values or \
         coarser steps"
    )]
    TooManyPoints {
        /// The number of points (exact).
        points: String,
        /// The limit.
        limit: u64,
    },
}

/// The values of one binding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Values {
    /// One value.
    Single(Rational),
    /// Values in the order given (non-empty).
    List(Vec<Rational>),
    /// `lo, lo + step, …` up to and including `hi` when hit exactly; `step > 0`, `lo <= hi`.
    Range {
        /// First value.
        lo: Rational,
        /// Upper bound (inclusive).
        hi: Rational,
        /// Positive step.
        step: Rational,
    },
}

impl Values {
    /// The number of values (exact; ranges may be astronomically long).
    pub fn count(&self) -> BigInt {
        match self {
            Values::Single(_) => BigInt::one(),
            Values::List(v) => BigInt::from(v.len()),
            Values::Range { lo, hi, step } => {
                if hi < lo || !step.is_positive() {
                    BigInt::zero()
                } else {
                    ((hi - lo) / step).floor().to_integer() + 1u32
                }
            }
        }
    }

    /// The `k`-th value (`k < count()`).
    pub fn get(&self, k: u64) -> Option<Rational> {
        if BigInt::from(k) >= self.count() {
            return None;
        }
        Some(match self {
            Values::Single(v) => v.clone(),
            Values::List(v) => v[k as usize].clone(),
            Values::Range { lo, step, .. } => lo + step * Rational::from_integer(k.into()),
        })
    }

    /// Whether this is more than one value.
    pub fn is_sweep(&self) -> bool {
        self.count() > BigInt::one()
    }
}

fn valid_name(n: &str) -> bool {
    let mut chars = n.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// Parses one binding (see the [module docs](self) for the forms).
///
/// # Errors
/// A [`GridError`] quoting `s` for bad syntax, names or numbers, non-positive steps and
/// empty ranges.
pub fn parse_binding(s: &str) -> Result<(Name, Values), GridError> {
    let syntax = || GridError::Syntax {
        input: s.to_string(),
    };
    let (name, rhs) = s.split_once('=').ok_or_else(syntax)?;
    let name = name.trim();
    if !valid_name(name) {
        return Err(GridError::BadName {
            input: s.to_string(),
            name: name.to_string(),
        });
    }
    let rhs = rhs.trim();
    if rhs.is_empty() {
        return Err(syntax());
    }
    let num = |t: &str| {
        parse_rational(t).map_err(|source| GridError::BadNumber {
            input: s.to_string(),
            source,
        })
    };
    let values = if rhs.contains(',') {
        let items = rhs
            .split(',')
            .map(|t| {
                if t.trim().is_empty() {
                    Err(syntax())
                } else {
                    num(t)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Values::List(items)
    } else if let Some((lo, rest)) = rhs.split_once("..") {
        let rest = rest.strip_prefix('=').unwrap_or(rest);
        let (hi, step) = match rest.split_once(':') {
            Some((h, st)) => (h, Some(st)),
            None => (rest, None),
        };
        if lo.trim().is_empty() || hi.trim().is_empty() {
            return Err(syntax());
        }
        let lo = num(lo)?;
        let hi = num(hi)?;
        let step = match step {
            Some(st) => num(st)?,
            None => Rational::one(),
        };
        if !step.is_positive() {
            return Err(GridError::BadStep {
                input: s.to_string(),
            });
        }
        if hi < lo {
            return Err(GridError::EmptyRange {
                input: s.to_string(),
                lo: format_rational(&lo),
                hi: format_rational(&hi),
            });
        }
        Values::Range { lo, hi, step }
    } else {
        Values::Single(num(rhs)?)
    };
    Ok((Name::from(name), values))
}

/// The cartesian product of bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    names: Vec<Name>,
    values: Vec<Values>,
    counts: Vec<u64>,
    len: u64,
}

impl Grid {
    /// A grid of at most [`DEFAULT_MAX_POINTS`] points.
    ///
    /// # Errors
    /// [`GridError::DuplicateName`], [`GridError::BadName`] for an invalid name,
    /// [`GridError::TooManyPoints`].
    pub fn new(bindings: Vec<(Name, Values)>) -> Result<Grid, GridError> {
        Grid::with_limit(bindings, DEFAULT_MAX_POINTS)
    }

    /// A grid of at most `max_points` points.
    pub fn with_limit(bindings: Vec<(Name, Values)>, max_points: u64) -> Result<Grid, GridError> {
        let mut names: Vec<Name> = Vec::with_capacity(bindings.len());
        let mut values = Vec::with_capacity(bindings.len());
        let mut product = BigInt::one();
        let mut counts = Vec::with_capacity(bindings.len());
        for (n, v) in bindings {
            if !valid_name(&n) {
                return Err(GridError::BadName {
                    input: format!("{n}=…"),
                    name: n.to_string(),
                });
            }
            if names.contains(&n) {
                return Err(GridError::DuplicateName { name: n });
            }
            let c = v.count();
            product *= &c;
            counts.push(c.to_u64().unwrap_or(u64::MAX));
            names.push(n);
            values.push(v);
        }
        let len = match product.to_u64() {
            Some(l) if l <= max_points => l,
            _ => {
                return Err(GridError::TooManyPoints {
                    points: product.to_string(),
                    limit: max_points,
                })
            }
        };
        Ok(Grid {
            names,
            values,
            counts,
            len,
        })
    }

    /// Parses each binding with [`parse_binding`] and builds a grid of at most
    /// [`DEFAULT_MAX_POINTS`] points.
    pub fn parse<S: AsRef<str>>(bindings: &[S]) -> Result<Grid, GridError> {
        let parsed = bindings
            .iter()
            .map(|s| parse_binding(s.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        Grid::new(parsed)
    }

    /// The bound names, in binding order.
    pub fn names(&self) -> &[Name] {
        &self.names
    }

    /// The values of each name, in binding order.
    pub fn values(&self) -> &[Values] {
        &self.values
    }

    /// The number of points (the product of the value counts; 1 for no bindings).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the grid has no points (never: every binding has at least one value).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The names bound to more than one value (the swept axes).
    pub fn swept(&self) -> Vec<Name> {
        self.names
            .iter()
            .zip(&self.counts)
            .filter(|(_, c)| **c > 1)
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// The points in row-major order (last name fastest), each as `(name, value)` pairs in
    /// binding order.
    pub fn iter(&self) -> GridIter<'_> {
        GridIter {
            grid: self,
            index: vec![0; self.names.len()],
            remaining: self.len,
        }
    }

    /// The points as `f64` values in [`Grid::names`] order (ready for
    /// [`crate::compile::Compiled::eval`] with `slots = grid.names()`).
    pub fn points_f64(&self) -> impl Iterator<Item = Vec<f64>> + '_ {
        self.iter()
            .map(|p| p.iter().map(|(_, v)| to_f64(v)).collect())
    }
}

impl<'a> IntoIterator for &'a Grid {
    type Item = Vec<(Name, Rational)>;
    type IntoIter = GridIter<'a>;
    fn into_iter(self) -> GridIter<'a> {
        self.iter()
    }
}

/// Iterator over the points of a [`Grid`].
#[derive(Clone, Debug)]
pub struct GridIter<'a> {
    grid: &'a Grid,
    index: Vec<u64>,
    remaining: u64,
}

impl Iterator for GridIter<'_> {
    type Item = Vec<(Name, Rational)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let g = self.grid;
        let point = g
            .names
            .iter()
            .zip(&g.values)
            .zip(&self.index)
            .map(|((n, v), &k)| (n.clone(), v.get(k).unwrap_or_else(Rational::zero)))
            .collect();
        // Advance the odometer, last axis fastest.
        for axis in (0..self.index.len()).rev() {
            self.index[axis] += 1;
            if self.index[axis] < g.counts[axis] {
                break;
            }
            self.index[axis] = 0;
        }
        Some(point)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

impl ExactSizeIterator for GridIter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::q;

    #[test]
    fn binding_forms() {
        assert_eq!(
            parse_binding("N=1000").unwrap(),
            ("N".into(), Values::Single(q(1000, 1)))
        );
        let (_, v) = parse_binding("P=1..64").unwrap();
        assert_eq!(v, parse_binding("P=1..=64").unwrap().1);
        assert_eq!(v.count(), BigInt::from(64));
        assert_eq!(v.get(63), Some(q(64, 1)));
        let (_, v) = parse_binding("P=1..64:4").unwrap();
        assert_eq!(v.count(), BigInt::from(16));
        assert_eq!(v.get(15), Some(q(61, 1)));
        let (_, v) = parse_binding(" tau = 0.5..2:0.25 ").unwrap();
        assert_eq!(v.count(), BigInt::from(7));
        assert_eq!(v.get(6), Some(q(2, 1)));
        let (_, v) = parse_binding("P=1,2,4,8").unwrap();
        assert_eq!(v, Values::List(vec![q(1, 1), q(2, 1), q(4, 1), q(8, 1)]));
        let (_, v) = parse_binding("x=-5..-1").unwrap();
        assert_eq!(v.count(), BigInt::from(5));
        let (_, v) = parse_binding("p=1/3").unwrap();
        assert_eq!(v, Values::Single(q(1, 3)));
        assert!(!parse_binding("x=3..3").unwrap().1.is_sweep());
    }

    #[test]
    fn binding_errors_quote_the_input_and_give_the_fix() {
        let e = parse_binding("N1000").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`N1000`: expected NAME=VALUE, NAME=LO..HI, NAME=LO..HI:STEP or NAME=V1,V2,…"
        );
        for (input, kind) in [
            ("=5", "name"),
            ("1x=5", "name"),
            ("N=", "syntax"),
            ("N=1,,2", "syntax"),
            ("N=..5", "syntax"),
            ("N=abc", "number"),
            ("P=1..8:0", "step"),
            ("P=1..8:-1", "step"),
            ("P=8..1", "empty"),
            ("P=1e5000..2", "number"),
        ] {
            assert_eq!(binding_error_kind(input), kind, "`{input}`");
        }
        let e = parse_binding("N=abc").unwrap_err();
        assert!(
            e.to_string().starts_with("`N=abc`: `abc` is not a number"),
            "{e}"
        );
        let e = parse_binding("P=8..1").unwrap_err();
        assert!(e.to_string().contains("`P=8..1`"));
    }

    /// The kind of error `parse_binding(input)` fails with.
    fn binding_error_kind(input: &str) -> &'static str {
        match parse_binding(input).unwrap_err() {
            GridError::Syntax { .. } => "syntax",
            GridError::BadName { .. } => "name",
            GridError::BadNumber { .. } => "number",
            GridError::BadStep { .. } => "step",
            GridError::EmptyRange { .. } => "empty",
            GridError::DuplicateName { .. } | GridError::TooManyPoints { .. } => "grid",
        }
    }

    #[test]
    fn grid_order_and_limits() {
        let g = Grid::parse(&["a=1,2", "b=10..30:10"]).unwrap();
        assert_eq!(g.len(), 6);
        let pts: Vec<Vec<f64>> = g.points_f64().collect();
        assert_eq!(
            pts,
            vec![
                vec![1.0, 10.0],
                vec![1.0, 20.0],
                vec![1.0, 30.0],
                vec![2.0, 10.0],
                vec![2.0, 20.0],
                vec![2.0, 30.0]
            ]
        );
        assert_eq!(g.iter().len(), 6);
        assert_eq!(g.swept(), vec![Name::from("a"), Name::from("b")]);
        let first = g.iter().next().unwrap();
        assert_eq!(first, vec![("a".into(), q(1, 1)), ("b".into(), q(10, 1))]);

        let empty = Grid::new(vec![]).unwrap();
        assert_eq!(empty.len(), 1);
        assert_eq!(empty.iter().collect::<Vec<_>>(), vec![Vec::new()]);

        assert!(matches!(
            Grid::parse(&["a=1", "a=2"]),
            Err(GridError::DuplicateName { .. })
        ));
        let e = Grid::parse(&["a=1..1e18", "b=1..1e18"]).unwrap_err();
        assert!(matches!(e, GridError::TooManyPoints { .. }));
        assert!(e
            .to_string()
            .contains("1000000000000000000000000000000000000"));
        let b = vec![parse_binding("a=1..11").unwrap()];
        assert!(Grid::with_limit(b.clone(), 10).is_err());
        assert!(Grid::with_limit(b, 11).is_ok());
    }
}
