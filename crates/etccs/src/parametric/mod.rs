//! Parametric execution-time analysis (MacDonald Chapter 7, spec §5.2–§5.4):
//! prefix times may be linear expressions over symbolic parameters
//! (`param t1, t2;`, implicitly `>= 0`), and the result is a set of
//! disjoint regions of parameter space, each with its execution-time
//! expressions and exact probabilities.
//!
//! The semantics runs on (state, region) pairs; comparisons the region
//! does not decide split it three ways (`<`, `=`, `>`), and infeasible
//! parts are pruned by an exact solver for linear constraints with strict
//! inequalities and disequations. Cells with equal results are united, and
//! (beyond the thesis) regions whose results combine exactly into `max`
//! or `min` expressions are merged.
//!
//! ```
//! use etccs::{parse, parametric::{analyse_parametric, Options}};
//!
//! let src = "define P6 = ((a,t1).nil | (a',t2).nil)\\{a}\nanalyse P6";
//! let mut model = parse("p6.etccs", src)?;
//! let r = analyse_parametric(&mut model, "P6", &Options::default())?;
//! assert_eq!(r.regions.len(), 1); // one region: the whole space
//! assert!(r.regions[0].constraints.is_empty());
//! assert_eq!(r.regions[0].results[0].expr.render(&r.params), "max(t1, t2)");
//! # Ok::<(), etccs::Error>(())
//! ```

mod constraint;
mod explore;
mod regions;
mod semantics;
mod solver;
#[cfg(test)]
mod tests;

pub use constraint::{Conj, Constraint, Normal, Rel};
pub use regions::PExpr;

use crate::error::Error;
use crate::linear::Coef;
use crate::parse::Model;
use crate::term::{Arena, FxHashSet, Term, TermId, Time};
use explore::{Explorer, Limits};
use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::BTreeMap;

/// Options of the parametric analysis.
#[derive(Clone, Debug)]
pub struct Options {
    /// Abort with [`Error::Limit`] beyond this many (state, region) pairs.
    pub max_states: usize,
    /// Abort with [`Error::TooDeep`] on paths longer than this.
    pub max_depth: usize,
    /// Merge regions into `max`/`min` expressions (on by default).
    pub merge: bool,
    /// Progress counters to update while the analysis runs (states are
    /// (state, region) pairs), for a display on another thread.
    pub meter: Option<std::sync::Arc<crate::Meter>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_states: 1_000_000,
            max_depth: 10_000,
            merge: true,
            meter: None,
        }
    }
}

/// One result of a region: an execution-time expression, its probability
/// and the number of maximal paths taking it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The execution time.
    pub expr: PExpr,
    /// Its probability (each transition enabled on the region equally likely).
    pub prob: BigRational,
    /// Number of maximal paths with this time (the EXEC multiplicity), if
    /// it is the same on the whole region (interleavings of simultaneous
    /// actions make it vary on boundaries).
    pub paths: Option<BigUint>,
}

/// A conjunctive region with its results.
#[derive(Clone, Debug)]
pub struct Region {
    /// Normalised linear constraints, all of which hold (empty: everywhere).
    pub constraints: Vec<Constraint>,
    /// Execution times with probabilities.
    pub results: Vec<Entry>,
}

/// The parametric analysis of one agent.
#[derive(Clone, Debug)]
pub struct ParamAnalysis {
    /// The agent name.
    pub name: String,
    /// Parameter names, indexed like the valuations of [`ParamAnalysis::at`].
    pub params: Vec<String>,
    /// The parameters the agent's times depend on.
    pub free: Vec<String>,
    /// The part of parameter space analysed: where the `assume`
    /// declarations hold and every symbolic prefix time of the model is
    /// `>= 0` (besides every parameter being `>= 0`). Empty: the whole space.
    pub domain: Vec<Constraint>,
    /// Number of (state, region) pairs explored.
    pub states: usize,
    /// Number of satisfiability problems solved.
    pub solver_calls: u64,
    /// Disjoint regions covering the domain, with results.
    /// A region that is a union of conjunctions is listed once per
    /// conjunction, with the same results.
    pub regions: Vec<Region>,
    /// Unrestricted visible actions that eagerness fires.
    pub warnings: Vec<String>,
    /// If the model uses `Terminated`: a region and stuck state where some
    /// run deadlocks.
    pub deadlock: Option<(Vec<Constraint>, String)>,
    /// Where some run deadlocks: the union of these conjunctions (within
    /// the domain); empty when no run does. Each piece is free of redundant
    /// constraints; the union is also simplified (pieces inside others
    /// dropped, neighbours joined) when there are at most
    /// [`DEADLOCK_SIMPLIFY_MAX`] pieces.
    pub deadlock_regions: Vec<Vec<Constraint>>,
}

/// A valuation as coefficients.
fn coefs(values: &[Time]) -> Vec<Coef> {
    values.iter().map(Coef::from_big).collect()
}

/// The most deadlock regions whose union is simplified (see
/// [`ParamAnalysis::deadlock_regions`]).
pub const DEADLOCK_SIMPLIFY_MAX: usize = 64;

impl ParamAnalysis {
    /// The execution-time distribution at a valuation (values in the order
    /// of [`ParamAnalysis::params`]), with equal times combined as PEXEC
    /// does; `None` outside the domain (a negative value or prefix time).
    pub fn at(&self, values: &[Time]) -> Option<BTreeMap<Time, BigRational>> {
        let values = coefs(values);
        let r = self.region_in(&values)?;
        let mut out = BTreeMap::new();
        for e in &r.results {
            *out.entry(e.expr.eval(&values).to_big())
                .or_insert_with(BigRational::zero) += &e.prob;
        }
        Some(out)
    }

    /// The region containing a valuation; `None` outside the domain.
    pub fn region_at(&self, values: &[Time]) -> Option<&Region> {
        self.region_in(&coefs(values))
    }

    /// Whether some run deadlocks at a valuation (a model without
    /// `Terminated` never does); `false` outside the domain.
    pub fn deadlocks_at(&self, values: &[Time]) -> bool {
        let values = coefs(values);
        self.region_in(&values).is_some()
            && self
                .deadlock_regions
                .iter()
                .any(|r| r.iter().all(|c| c.holds(&values)))
    }

    /// [`ParamAnalysis::region_at`] with the values as coefficients.
    fn region_in(&self, values: &[Coef]) -> Option<&Region> {
        if values.iter().any(Coef::is_negative) || !self.domain.iter().all(|c| c.holds(values)) {
            return None;
        }
        self.regions
            .iter()
            .find(|r| r.constraints.iter().all(|c| c.holds(values)))
    }

    /// A region's results on one line: `max(t1, t2)`, or with probabilities
    /// `t1 (1/2), t1 + t2 (1/2)`.
    pub fn results_text(&self, r: &Region) -> String {
        let one = r.results.len() == 1;
        r.results
            .iter()
            .map(|e| {
                let x = e.expr.render(&self.params);
                if one {
                    x
                } else {
                    format!("{x} ({})", e.prob)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Renders a region's constraints: `t1 - t2 > 0 & t1 >= 1`, or `true`.
    pub fn render_region(&self, r: &Region) -> String {
        self.render_constraints(&r.constraints)
    }

    /// Renders constraints on the parameters (e.g. the domain): `t1 <= 2*t2`,
    /// or `true`.
    pub fn render_constraints(&self, cs: &[Constraint]) -> String {
        constraint::render_constraints(cs, &self.params)
    }
}

/// Runs the parametric analysis of agent `name` of `model`.
pub fn analyse_parametric(
    model: &mut Model,
    name: &str,
    opts: &Options,
) -> Result<ParamAnalysis, Error> {
    let t = model
        .agent(name)
        .ok_or_else(|| Error::UnknownAgent(name.to_string()))?;
    analyse_parametric_term(&mut model.arena, t, name, &model.assumptions, opts)
}

/// Runs the parametric analysis from the term `start` on the valuations
/// satisfying `assumptions` (on a thread with a large stack, so the
/// depth limit, not the stack, bounds recursion).
pub fn analyse_parametric_term(
    arena: &mut Arena,
    start: TermId,
    name: &str,
    assumptions: &[Constraint],
    opts: &Options,
) -> Result<ParamAnalysis, Error> {
    sweep::deep_stack::run(|| run(arena, start, name, assumptions, opts))
}

/// The symbolic prefix times written in the model (reachable from `start`).
fn written_bounds(arena: &Arena, start: TermId) -> Vec<crate::linear::LinExpr> {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![start];
    let mut out = Vec::new();
    while let Some(t) = todo.pop() {
        if !seen.insert(t) {
            continue;
        }
        match arena.get(t) {
            Term::Nil | Term::Terminated => {}
            Term::Prefix(_, _, c) => todo.push(*c),
            Term::SymPrefix(_, b, c) => {
                let e = arena.sym_bound(*b);
                if !out.contains(e) {
                    out.push(e.clone());
                }
                todo.push(*c);
            }
            Term::Sum(xs) | Term::Par(xs) => todo.extend(xs.iter().copied()),
            Term::Restrict(x, _) | Term::Relabel(x, _) => todo.push(*x),
            Term::Const(c) => todo.extend(arena.const_body(*c)),
        }
    }
    out
}

fn run(
    arena: &mut Arena,
    start: TermId,
    name: &str,
    assumptions: &[Constraint],
    opts: &Options,
) -> Result<ParamAnalysis, Error> {
    let params = arena.param_names().to_vec();
    let limits = Limits {
        max_states: opts.max_states,
        max_depth: opts.max_depth,
        meter: opts.meter.clone(),
    };
    if let Some(m) = &opts.meter {
        m.start();
    }
    // Prefix times must not be negative: the analysis covers the valuations
    // where every symbolic bound written in the model is >= 0, and where
    // the model's `assume` declarations hold.
    let mut domain = Conj::top();
    for k in assumptions {
        if let Some(d) = domain.and(Normal::Proper(k.clone())) {
            domain = d;
        }
    }
    let written = written_bounds(arena, start);
    let free = params
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let p = crate::linear::Param(*i as u32);
            written.iter().any(|e| !e.coef(p).is_zero())
        })
        .map(|(_, n)| n.clone())
        .collect();
    for e in written {
        if let Some(d) = domain.and(Constraint::normal(e, Rel::Ge)) {
            domain = d;
        }
    }
    let mut ex = Explorer::new(arena, name, start, limits);
    let hard = || Error::SolverLimit {
        agent: name.to_string(),
    };
    if !ex.solver.sat(&domain).map_err(|_| hard())? {
        return Err(Error::EmptyDomain {
            agent: name.to_string(),
            domain: constraint::render_constraints(&domain.0, &params),
        });
    }
    let domain = regions::simplify_union(&mut ex.solver, vec![domain], &Conj::top())
        .map_err(|_| hard())?
        .pop()
        .unwrap_or_default();
    let cells = ex.solve(start, &domain)?;
    if let Some(m) = &opts.meter {
        m.set_count(ex.states() as u64);
        m.set_analysing();
    }
    let merged = regions::merge(&mut ex.solver, &cells, &domain, opts.merge).map_err(|_| hard())?;
    let mut out = Vec::new();
    for m in merged {
        for p in m.pieces {
            out.push(Region {
                constraints: p.0,
                results: m
                    .results
                    .iter()
                    .map(|(e, (prob, paths))| Entry {
                        expr: e.clone(),
                        prob: prob.to_big(),
                        paths: paths.clone(),
                    })
                    .collect(),
            });
        }
    }
    let warnings = ex
        .visible
        .iter()
        .map(|a| crate::error::eagerness_warning(a))
        .collect();
    // Where some run deadlocks: the regions of the stuck pairs, each once
    // (the first is where the reported stuck state was reached), tidied.
    let mut seen = FxHashSet::default();
    let pieces = std::mem::take(&mut ex.deadlock_regions)
        .into_iter()
        .filter(|r| seen.insert(*r))
        .map(|r| ex.region(r).clone())
        .collect();
    let pieces = regions::tidy_pieces(&mut ex.solver, pieces, &domain).map_err(|_| hard())?;
    let deadlock = match (ex.deadlock, pieces.first()) {
        (Some(t), Some(first)) => Some((first.0.clone(), ex.arena().display(t))),
        _ => None,
    };
    // Joining compares the pieces pairwise: beyond a few dozen it costs
    // more than the analysis, and the tidied pieces are reported.
    let pieces = if pieces.len() <= DEADLOCK_SIMPLIFY_MAX {
        regions::join_pieces(&mut ex.solver, pieces, &domain).map_err(|_| hard())?
    } else {
        pieces
    };
    let deadlock_regions = pieces.into_iter().map(|c| c.0).collect();
    Ok(ParamAnalysis {
        name: name.to_string(),
        domain: domain.0,
        params,
        free,
        states: ex.states(),
        solver_calls: ex.solver.solved,
        regions: out,
        warnings,
        deadlock,
        deadlock_regions,
    })
}
