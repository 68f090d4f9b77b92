//! A model evaluated over a parameter space ([`sweep::Space`]): the bound compiled once
//! and evaluated at each point in nanoseconds, the simulator run per point, and the checks
//! that make both engines accept and reject the same points.
//!
//! ```
//! use pamela::evaluate::{check_space, BoundPoints};
//! use pamela::parse;
//!
//! // N requests of `tau` each at one server: T^l = N·tau (the server's contention).
//! let model = parse(
//!     "m.pam",
//!     "param N: int >= 1; param tau >= 0; resource s; main = par i in 1..=N use(s, tau);",
//! )?;
//! let root = pamela::check::root(&model, None)?;
//! let bindings = vec![
//!     expr::grid::parse_binding("N=8").unwrap(),
//!     expr::grid::parse_binding("tau=0.5..2:0.5").unwrap(),
//! ];
//! let space = sweep::Space::new(bindings, 1000).unwrap();
//! check_space(&model, &space)?;
//! let bound = BoundPoints::compile(&model, root, &space)?;
//! let mut vals = [0.0; 2];
//! space.fill_f64(3, &mut vals); // the fourth point: N = 8, tau = 2
//! assert_eq!(bound.eval(&vals).unwrap()[0], 16.0);
//! # Ok::<(), Box<pamela::ModelError>>(())
//! ```

use expr::compile::Compiled;
use expr::{Expr, Name, Rational};
use sweep::Space;

use crate::diag::{ErrorKind, ModelError};
use crate::model::Model;

type Result<T> = std::result::Result<T, Box<ModelError>>;

/// Spaces up to this many points have every point checked against the declarations
/// ([`check_space`]); larger ones have each parameter's representative values checked.
pub const FULL_CHECK_POINTS: u64 = 10_000;

/// The bound `T^l`, its parts `phi` and `omega`, and the model's validity, compiled over
/// the axes of a space.
#[derive(Debug)]
pub struct BoundPoints {
    tl: Compiled,
    phi: Compiled,
    omega: Compiled,
    /// Positive where the model is invalid (see `BoundReport::invalid`).
    invalid: Compiled,
}

/// Why the bound is undefined at a point (the simulator rejects the same point).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undefined(pub String);

impl std::fmt::Display for Undefined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl BoundPoints {
    /// Compiles the bound of `root` with `space`'s single-valued axes substituted and its
    /// axes, in order, as the compiled functions' arguments.
    ///
    /// # Errors
    /// When the bound cannot be computed, or depends on a parameter the space does not
    /// bind (the error names it in `missing`).
    pub fn compile(model: &Model, root: usize, space: &Space) -> Result<BoundPoints> {
        let binding = model.bind_partial(&space.fixed())?;
        let report = crate::bound::bound(model, root)?.substitute(model, &binding);
        let slots: Vec<Name> = space.axes().iter().map(|a| a.name().clone()).collect();
        let compile = |what: &str, e: &Expr| {
            Compiled::new(&model.inline_derived(e), &slots).map_err(|err| {
                Box::new(
                    ModelError::new(
                        ErrorKind::Binding,
                        format!("cannot evaluate {what} over the sweep: {err}"),
                    )
                    .with_help("every parameter needs a value or a range"),
                )
            })
        };
        Ok(BoundPoints {
            tl: compile("T^l", &report.tl)?,
            phi: compile("phi", &report.phi)?,
            omega: compile("omega", &report.omega)?,
            invalid: compile("the model's validity", &report.invalid)?,
        })
    }

    /// `[T^l, phi, omega]` at `vals` (one value per axis of the space), or why the model is
    /// undefined there.
    ///
    /// # Errors
    /// [`Undefined`] at a point where a time is negative, a family index is out of range,
    /// or an expression cannot be evaluated (a division by zero).
    pub fn eval(&self, vals: &[f64]) -> std::result::Result<[f64; 3], Undefined> {
        let ev = |c: &Compiled| c.eval(vals).map_err(|e| Undefined(e.to_string()));
        if ev(&self.invalid)? > 0.0 {
            return Err(Undefined(
                "a `use` or `delay` time is negative, or a family index is out of range or \
                 not an integer"
                    .to_string(),
            ));
        }
        Ok([ev(&self.tl)?, ev(&self.phi)?, ev(&self.omega)?])
    }
}

/// Checks `space` against the model: no unknown or derived names, every parameter that is
/// not derived bound, values in their declared ranges (every point of a space of at most
/// [`FULL_CHECK_POINTS`], each axis's representative values on their own for a larger one).
///
/// # Errors
/// The first violation; a point's error names the point (`at N=4, P=0: …`), a missing
/// binding lists the names in `missing`.
pub fn check_space(model: &Model, space: &Space) -> Result<()> {
    let fixed = space.fixed();
    model.bind_partial(&fixed)?;
    for (_, a) in space.swept() {
        for v in a.representatives() {
            let mut given = fixed.clone();
            given.push((a.name().clone(), v));
            model.bind_partial(&given)?;
        }
    }
    // `bind` reports missing parameters before it checks values against bounds.
    if let Err(e) = model.bind(&space.exact(0)) {
        if !e.missing.is_empty() {
            return Err(e);
        }
    }
    if space.len() <= FULL_CHECK_POINTS {
        for p in 0..space.len() {
            model.bind(&space.exact(p)).map_err(|e| at(space, p, e))?;
        }
    }
    Ok(())
}

/// Simulates `root` at point `p` of `space` and returns the simulated time.
///
/// # Errors
/// The point's binding or simulation error, naming the point.
pub fn simulate_point(
    model: &Model,
    root: usize,
    space: &Space,
    p: u64,
    opts: &crate::sim::SimOptions,
) -> Result<f64> {
    let values: Vec<(Name, Rational)> = space.exact(p);
    let binding = model.bind(&values).map_err(|e| at(space, p, e))?;
    crate::sim::simulate(model, root, &binding, opts)
        .map(|r| r.time)
        .map_err(|e| at(space, p, e))
}

/// `e` with the point it happened at in front of its message.
fn at(space: &Space, p: u64, mut e: Box<ModelError>) -> Box<ModelError> {
    e.message = format!("at {}: {}", space.describe_point(p), e.message);
    e
}

/// Which engines a sweep runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engines {
    /// The bound T^l with φ and ω, compiled once.
    pub bound: bool,
    /// The simulator, one run per point.
    pub sim: bool,
}

impl Engines {
    /// The columns of a sweep's results, in order: `bound`, `phi`, `omega` (with the bound),
    /// then `sim` (with the simulator).
    pub fn columns(self) -> Vec<String> {
        let mut c: Vec<String> = Vec::new();
        if self.bound {
            c.extend(["bound", "phi", "omega"].map(String::from));
        }
        if self.sim {
            c.push("sim".to_string());
        }
        c
    }

    /// The lines of a sweep's plot: with several groups only T^l and T are drawn, to keep it
    /// readable; the bound's parts first, so the T^l and T lines are drawn on top.
    pub fn lines(self) -> sweep::LinesConfig {
        let mut series = Vec::new();
        if self.bound {
            series.push(sweep::LineSpec::new(1, "phi critical path").single_group_only());
            series.push(sweep::LineSpec::new(2, "omega contention").single_group_only());
            series.push(sweep::LineSpec::new(0, "T^l bound"));
        }
        if self.sim {
            let col = if self.bound { 3 } else { 0 };
            series.push(sweep::LineSpec::new(col, "T simulated"));
        }
        sweep::LinesConfig {
            series,
            ..sweep::LinesConfig::default()
        }
    }
}

/// Why a point of a sweep failed.
#[derive(Debug)]
pub enum PointError {
    /// The bound is undefined there.
    Bound(Undefined),
    /// The binding or the simulation failed there (the error names the point).
    Sim(Box<ModelError>),
}

/// The point function of a PAMELA sweep: the engines of [`Engines`] at one point of a space,
/// writing the columns of [`Engines::columns`].
#[derive(Debug)]
pub struct SweepPoints<'m> {
    model: &'m Model,
    root: usize,
    bound: Option<BoundPoints>,
    sim: Option<crate::sim::SimOptions>,
}

impl<'m> SweepPoints<'m> {
    /// Checks `space` against the model ([`check_space`]) and compiles the bound if it is
    /// among the engines; `sim` is the simulator's options, `None` without the simulator.
    ///
    /// # Errors
    /// As [`check_space`] and [`BoundPoints::compile`].
    pub fn new(
        model: &'m Model,
        root: usize,
        space: &Space,
        bound: bool,
        sim: Option<crate::sim::SimOptions>,
    ) -> Result<SweepPoints<'m>> {
        check_space(model, space)?;
        let bound = match bound {
            true => Some(BoundPoints::compile(model, root, space)?),
            false => None,
        };
        Ok(SweepPoints {
            model,
            root,
            bound,
            sim,
        })
    }

    /// Evaluates point `k` of `space` (values `vals`) into `out`.
    ///
    /// # Errors
    /// The simulator's error, or why the bound is undefined there.
    pub fn eval(
        &self,
        space: &Space,
        k: u64,
        vals: &[f64],
        out: &mut [f64],
    ) -> std::result::Result<(), PointError> {
        if let Some(opts) = &self.sim {
            let t =
                simulate_point(self.model, self.root, space, k, opts).map_err(PointError::Sim)?;
            out[out.len() - 1] = t;
        }
        if let Some(b) = &self.bound {
            out[..3].copy_from_slice(&b.eval(vals).map_err(PointError::Bound)?);
        }
        Ok(())
    }
}
