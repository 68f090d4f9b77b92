//! Parameter spaces with random access: point `k` of a grid is decoded from `k` alone, so
//! any chunk of a grid of 10^8 points can be evaluated without visiting the ones before it.

use expr::grid::{Grid, GridError, Values};
use expr::number::{format_rational, to_f64};
use expr::{Name, Rational};
use thiserror::Error;

use crate::{Limit, Reached};

/// Fractional ranges up to this many values keep an exact table of their `f64` values.
const AXIS_TABLE: u64 = 1 << 20;

/// Why a parameter space cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpaceError {
    /// A name is invalid or bound twice.
    #[error("{0}")]
    Grid(GridError),
    /// The grid has more points than the limit.
    #[error("the sweep has {points} points, more than {reached}")]
    TooManyPoints {
        /// The number of points (exact; it may not fit in 64 bits).
        points: String,
        /// The point limit.
        reached: Reached,
    },
}

/// One axis of a [`Space`]: a parameter and its values, each reachable by its index.
#[derive(Clone, Debug)]
pub struct Axis {
    name: Name,
    values: Values,
    len: u64,
    /// `f64` value of every index (each converted exactly once), for lists and fractional
    /// ranges of moderate length.
    table: Option<Vec<f64>>,
    /// For other ranges: the first value and the step as `f64`; value `k` is `lo + k*step`,
    /// exact for integer ranges.
    lo: f64,
    step: f64,
}

impl Axis {
    /// The axis of `name` over `values`.
    pub fn new(name: Name, values: Values) -> Axis {
        let len = values
            .count()
            .to_string()
            .parse::<u64>()
            .unwrap_or(u64::MAX);
        let (table, lo, step) = match &values {
            Values::Single(v) => (Some(vec![to_f64(v)]), f64::NAN, f64::NAN),
            Values::List(vs) => (Some(vs.iter().map(to_f64).collect()), f64::NAN, f64::NAN),
            Values::Range { lo, step, .. } => {
                let (lo_f, step_f) = (to_f64(lo), to_f64(step));
                let top = lo_f.abs() + step_f.abs() * len as f64;
                if lo.is_integer() && step.is_integer() && top < 2f64.powi(53) {
                    // Integer arithmetic in f64 is exact here.
                    (None, lo_f, step_f)
                } else if len <= AXIS_TABLE {
                    // An exact running sum, converted once per value.
                    let mut v = lo.clone();
                    let mut t = Vec::with_capacity(len as usize);
                    for _ in 0..len {
                        t.push(to_f64(&v));
                        v += step;
                    }
                    (Some(t), lo_f, step_f)
                } else {
                    // Very long fractional ranges: f64 arithmetic (within a few ulps).
                    (None, lo_f, step_f)
                }
            }
        };
        Axis {
            name,
            values,
            len,
            table,
            lo,
            step,
        }
    }

    /// The parameter's name.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// The values as given.
    pub fn values(&self) -> &Values {
        &self.values
    }

    /// The number of values.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the axis has no values (never true of an axis built from a binding).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the axis has more than one value.
    pub fn is_swept(&self) -> bool {
        self.len > 1
    }

    /// Value `k` as `f64`.
    pub fn f64_at(&self, k: u64) -> f64 {
        match &self.table {
            Some(t) => t[k as usize],
            None => self.lo + k as f64 * self.step,
        }
    }

    /// Value `k`, exactly.
    pub fn exact_at(&self, k: u64) -> Rational {
        self.values.get(k).unwrap_or_default()
    }

    /// The values that stand for the axis when a grid is too large to check point by
    /// point: a list's values, a range's two ends and its second value.
    pub fn representatives(&self) -> Vec<Rational> {
        match &self.values {
            Values::Single(v) => vec![v.clone()],
            Values::List(vs) => vs.clone(),
            Values::Range { lo, step, .. } => {
                let mut v = vec![lo.clone()];
                if self.len > 1 {
                    v.push(self.exact_at(self.len - 1));
                    v.push(lo + step);
                }
                v
            }
        }
    }

    /// `P=1..64`, `P=1..64:4`, `P=1,2,4` or `N=10`, for headings.
    pub fn describe(&self) -> String {
        let f = format_rational;
        match &self.values {
            Values::Single(v) => format!("{}={}", self.name, f(v)),
            Values::List(vs) => format!(
                "{}={}",
                self.name,
                vs.iter().map(f).collect::<Vec<_>>().join(",")
            ),
            Values::Range { lo, step, .. } => {
                let last = self.exact_at(self.len.saturating_sub(1));
                if step == &Rational::from_integer(1.into()) {
                    format!("{}={}..{}", self.name, f(lo), f(&last))
                } else {
                    format!("{}={}..{}:{}", self.name, f(lo), f(&last), f(step))
                }
            }
        }
    }
}

/// The cartesian product of axes, in row-major order (the last axis varies fastest), with
/// random access to every point.
#[derive(Clone, Debug)]
pub struct Space {
    axes: Vec<Axis>,
    strides: Vec<u64>,
    len: u64,
}

impl Space {
    /// The space of `bindings`, refused when it has more than `max_points` points.
    ///
    /// # Errors
    /// [`SpaceError::Grid`] for an invalid or repeated name, [`SpaceError::TooManyPoints`].
    pub fn new(bindings: Vec<(Name, Values)>, max_points: u64) -> Result<Space, SpaceError> {
        let grid = Grid::with_limit(bindings, max_points).map_err(|e| match e {
            GridError::TooManyPoints { points, limit } => SpaceError::TooManyPoints {
                points,
                reached: Reached::new(Limit::Points, limit),
            },
            other => SpaceError::Grid(other),
        })?;
        let axes: Vec<Axis> = grid
            .names()
            .iter()
            .zip(grid.values())
            .map(|(n, v)| Axis::new(n.clone(), v.clone()))
            .collect();
        Ok(Space::of_axes(axes, grid.len()))
    }

    fn of_axes(axes: Vec<Axis>, len: u64) -> Space {
        let mut strides = vec![1u64; axes.len()];
        for i in (0..axes.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1].saturating_mul(axes[i + 1].len);
        }
        Space { axes, strides, len }
    }

    /// The axes, in binding order.
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// The number of points.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the space has no points.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The axes with more than one value, with their positions.
    pub fn swept(&self) -> impl Iterator<Item = (usize, &Axis)> {
        self.axes.iter().enumerate().filter(|(_, a)| a.is_swept())
    }

    /// The names and values of the axes with one value.
    pub fn fixed(&self) -> Vec<(Name, Rational)> {
        self.axes
            .iter()
            .filter(|a| !a.is_swept())
            .map(|a| (a.name.clone(), a.exact_at(0)))
            .collect()
    }

    /// The index of `point`'s value on `axis`.
    pub fn index(&self, point: u64, axis: usize) -> u64 {
        (point / self.strides[axis]) % self.axes[axis].len
    }

    /// Writes `point`'s values as `f64`, one per axis, into `out`.
    pub fn fill_f64(&self, point: u64, out: &mut [f64]) {
        for (a, o) in out.iter_mut().enumerate() {
            *o = self.axes[a].f64_at(self.index(point, a));
        }
    }

    /// `point`'s values, exactly, with their names.
    pub fn exact(&self, point: u64) -> Vec<(Name, Rational)> {
        self.axes
            .iter()
            .enumerate()
            .map(|(a, ax)| (ax.name.clone(), ax.exact_at(self.index(point, a))))
            .collect()
    }

    /// `N=10, P=4`: `point`'s values, for messages.
    pub fn describe_point(&self, point: u64) -> String {
        describe_values(&self.exact(point))
    }
}

/// `N=10, P=4` for messages and headings.
pub fn describe_values(values: &[(Name, Rational)]) -> String {
    values
        .iter()
        .map(|(n, v)| format!("{n}={}", format_rational(v)))
        .collect::<Vec<_>>()
        .join(", ")
}
