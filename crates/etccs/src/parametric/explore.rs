//! Exploration of (state, region) pairs and the per-region execution-time
//! distributions (spec §5.2, Section 7.2: parametric EXEC, FAIREXEC and
//! PEXEC).
//!
//! `solve(P, R)` returns a partition of the region `R` into cells, each with
//! the distribution of execution times from `P` (expression → probability
//! and number of paths). Where the semantics needs a comparison the region
//! does not decide, the region is split three ways and each part solved.
//! Otherwise every transition of `P` is equally likely on the whole region
//! (Def 5.3 FAIREXEC, per region), and the cells of the successors are
//! intersected (their common refinement), pruning empty intersections.

use super::constraint::{render_constraints, Conj, Constraint, Normal, Rel};
use super::semantics::{Constraints, Known, Memo, Sem, Stop};
use super::solver::Solver;
use crate::error::Error;
use crate::linear::LinExpr;
use crate::term::{Arena, TermId};
use crate::term::{FxHashMap, FxHashSet};
use crate::time::Tm;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// Probability and number of paths of one execution-time expression.
pub type Weight = (Tm, BigUint);

/// Execution-time expressions with their weights.
pub type Dist = BTreeMap<LinExpr, Weight>;

/// A part of parameter space with its distribution of execution times.
#[derive(Clone, Debug)]
pub struct Cell {
    /// The part (a conjunction of constraints).
    pub region: Conj,
    /// Execution times on it, with probabilities and path counts.
    pub dist: Dist,
}

/// A [`Cell`] as the exploration keeps it: its region by number, and its distribution as a
/// list sorted by expression, sized to its entries (most have one or two; a map's node would
/// hold room for eleven).
#[derive(Clone, Debug)]
struct Part {
    region: RegionId,
    dist: Box<[(LinExpr, Weight)]>,
}

/// Limits of one parametric exploration.
pub struct Limits {
    /// Maximum number of (state, region) pairs.
    pub max_states: usize,
    /// Maximum length of a path (recursion depth).
    pub max_depth: usize,
    /// Progress counters to update now and then.
    pub meter: Option<std::sync::Arc<crate::Meter>>,
}

/// A region's number in [`Explorer::regions`].
type RegionId = u32;

/// The exploration of one agent.
pub struct Explorer<'a> {
    arena: &'a mut Arena,
    /// The constraint solver (shared by all regions).
    pub solver: Solver,
    /// The regions met so far, numbered: the memo and the decisions refer to them by number,
    /// so that a (state, region) key is hashed and stored in 8 bytes.
    regions: Vec<Conj>,
    region_ids: FxHashMap<Conj, RegionId>,
    /// Per region, the comparisons the semantics decided on it: shared by all the states
    /// solved on that region.
    known: Vec<Known>,
    /// The comparisons met on any region, numbered.
    constraints: Constraints,
    /// What the semantics computed on any region, by the answers it depended on.
    sem_memo: Memo,
    /// Intersections of pairs of regions found so far (`None`: empty).
    meets: FxHashMap<(RegionId, RegionId), Option<RegionId>>,
    memo: FxHashMap<(TermId, RegionId), Rc<Vec<Part>>>,
    on_path: FxHashSet<(TermId, RegionId)>,
    limits: Limits,
    agent: String,
    depth: usize,
    /// Names of visible actions that fired (unrestricted at the top level).
    pub visible: BTreeSet<String>,
    /// The first terminal state found without an active `Terminated` (if
    /// the model uses it); it was reached on `deadlock_regions[0]`.
    pub deadlock: Option<TermId>,
    /// The region (id) of every (state, region) pair that is such a state,
    /// in the order found: their union is where some run deadlocks.
    pub deadlock_regions: Vec<RegionId>,
    check_deadlock: bool,
}

impl<'a> Explorer<'a> {
    /// The region with id `r`.
    pub fn region(&self, r: RegionId) -> &Conj {
        &self.regions[r as usize]
    }

    /// An explorer for agent `agent` of `arena`.
    pub fn new(arena: &'a mut Arena, agent: &str, start: TermId, limits: Limits) -> Self {
        let n = arena.param_names().len();
        let check_deadlock = arena.mentions_terminated(start);
        Explorer {
            arena,
            solver: Solver::new(n),
            regions: Vec::new(),
            region_ids: FxHashMap::default(),
            known: Vec::new(),
            constraints: Constraints::default(),
            sem_memo: Memo::default(),
            meets: FxHashMap::default(),
            memo: FxHashMap::default(),
            on_path: FxHashSet::default(),
            limits,
            agent: agent.to_string(),
            depth: 0,
            visible: BTreeSet::new(),
            deadlock: None,
            deadlock_regions: Vec::new(),
            check_deadlock,
        }
    }

    /// Number of (state, region) pairs solved so far.
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The arena (for rendering states).
    pub fn arena(&self) -> &Arena {
        self.arena
    }

    fn hard(&self) -> Error {
        Error::SolverLimit {
            agent: self.agent.clone(),
        }
    }

    /// The number of `region`, given on first sight.
    fn region_id(&mut self, region: &Conj) -> RegionId {
        if let Some(&r) = self.region_ids.get(region) {
            return r;
        }
        let r = RegionId::try_from(self.regions.len()).expect("fewer than 2^32 regions");
        self.regions.push(region.clone());
        self.known.push(Known::default());
        self.region_ids.insert(region.clone(), r);
        r
    }

    /// The cells of `region` with the execution times of `t`.
    pub fn solve(&mut self, t: TermId, region: &Conj) -> Result<Vec<Cell>, Error> {
        let r = self.region_id(region);
        let parts = self.solve_in(t, r)?;
        Ok(parts
            .iter()
            .map(|p| Cell {
                region: self.regions[p.region as usize].clone(),
                dist: p.dist.iter().cloned().collect(),
            })
            .collect())
    }

    /// The intersection of two regions (`None`: empty), found once per pair.
    fn meet(&mut self, a: RegionId, b: RegionId) -> Result<Option<RegionId>, Error> {
        let key = (a.min(b), a.max(b));
        if let Some(&m) = self.meets.get(&key) {
            return Ok(m);
        }
        let (ca, cb) = (&self.regions[a as usize], &self.regions[b as usize]);
        let meet = ca.and_all(cb);
        let m = if meet == *ca {
            Some(a)
        } else if meet == *cb {
            Some(b)
        } else if self.sat(&meet)? {
            Some(self.region_id(&meet))
        } else {
            None
        };
        self.meets.insert(key, m);
        Ok(m)
    }

    /// [`Explorer::solve`] on the region numbered `r`.
    fn solve_in(&mut self, t: TermId, r: RegionId) -> Result<Rc<Vec<Part>>, Error> {
        let key = (t, r);
        if let Some(c) = self.memo.get(&key) {
            return Ok(Rc::clone(c));
        }
        if self.on_path.contains(&key) {
            return Err(Error::ParametricCycle {
                agent: self.agent.clone(),
                region: render_constraints(&self.regions[r as usize].0, self.arena.param_names()),
                state: self.arena.display(t),
            });
        }
        if self.memo.len() >= self.limits.max_states {
            return Err(Error::Limit {
                agent: self.agent.clone(),
                reached: sweep::Reached::new(sweep::Limit::States, self.limits.max_states as u64),
            });
        }
        if self.depth >= self.limits.max_depth {
            return Err(Error::TooDeep {
                agent: self.agent.clone(),
                reached: sweep::Reached::new(sweep::Limit::Depth, self.limits.max_depth as u64),
            });
        }
        self.on_path.insert(key);
        self.depth += 1;
        let c = self.solve_uncached(t, r);
        self.depth -= 1;
        self.on_path.remove(&key);
        let c = Rc::new(c?);
        self.memo.insert(key, Rc::clone(&c));
        if self.memo.len().is_multiple_of(sweep::EVERY) {
            if let Some(m) = &self.limits.meter {
                m.set_count(self.memo.len() as u64);
            }
        }
        Ok(c)
    }

    fn solve_uncached(&mut self, t: TermId, r: RegionId) -> Result<Vec<Part>, Error> {
        let trs = {
            let (region, known) = (&self.regions[r as usize], &mut self.known[r as usize]);
            let mut sem = Sem::new(
                self.arena,
                &mut self.solver,
                region,
                known,
                &mut self.constraints,
                &mut self.sem_memo,
            );
            sem.transitions(t)
        };
        let trs = match trs {
            Ok(trs) => trs,
            Err(Stop::Hard(_)) => return Err(self.hard()),
            Err(Stop::Split(k)) => {
                let mut parts = Vec::new();
                for half in [k.negate(), k] {
                    let Some(half) = self.regions[r as usize].and(Normal::Proper(half)) else {
                        continue;
                    };
                    if self.sat(&half)? {
                        let half = self.tighten(half)?;
                        let h = self.region_id(&half);
                        parts.extend(self.solve_in(t, h)?.iter().cloned());
                    }
                }
                return Ok(parts);
            }
        };
        if trs.is_empty() {
            if self.check_deadlock && !self.arena.has_active_terminated(t) {
                self.deadlock.get_or_insert(t);
                self.deadlock_regions.push(r);
            }
            let dist = [(LinExpr::zero(), (Tm::ONE, BigUint::one()))];
            return Ok(vec![Part {
                region: r,
                dist: Box::new(dist),
            }]);
        }
        let share = Tm::ratio(
            1,
            i64::try_from(trs.len()).expect("fewer than 2^63 transitions"),
        );
        let mut parts = vec![Part {
            region: r,
            dist: Box::new([]),
        }];
        for tr in &trs {
            if let Some(n) = tr.act.name() {
                self.visible.insert(self.arena.name_str(n).to_string());
            }
            let sub = self.solve_in(tr.target, r)?;
            let mut next = Vec::with_capacity(parts.len());
            for c in &parts {
                for s in sub.iter() {
                    // Both lie in region `r`: where one of them is all of it, the other is
                    // their intersection (the common case: no split on the way).
                    let meet = if s.region == r || s.region == c.region {
                        c.region
                    } else if c.region == r {
                        s.region
                    } else {
                        match self.meet(c.region, s.region)? {
                            Some(m) => m,
                            None => continue,
                        }
                    };
                    // Entries equal on the refined part merge (the part may add
                    // equalities); the first part's entries are already in canonical
                    // form when it is not refined.
                    let on = &self.regions[meet as usize];
                    let mut dist = Dist::new();
                    let entries = c.dist.iter().map(|(e, w)| {
                        let e = if meet == c.region {
                            e.clone()
                        } else {
                            on.canonical(e)
                        };
                        (e, w.clone())
                    });
                    let shifted = s.dist.iter().map(|(e, (p, n))| {
                        (on.canonical(&tr.delay.add(e)), (p.mul(&share), n.clone()))
                    });
                    for (key, (p, n)) in entries.chain(shifted) {
                        let slot = dist
                            .entry(key)
                            .or_insert_with(|| (Tm::ZERO, BigUint::zero()));
                        slot.0 = slot.0.add(&p);
                        slot.1 += n;
                    }
                    next.push(Part {
                        region: meet,
                        dist: dist.into_iter().collect(),
                    });
                }
            }
            parts = next;
        }
        Ok(parts)
    }

    /// Makes implied equalities explicit (a `>=` whose strict form is
    /// infeasible, a parameter forced to 0), so that expressions equal on
    /// the region are rewritten alike.
    fn tighten(&mut self, c: Conj) -> Result<Conj, Error> {
        let mut out = Conj::top();
        let mut changed = false;
        for k in &c.0 {
            let strict = Constraint::normal(k.expr.clone(), Rel::Gt);
            if k.rel == Rel::Ge && !self.sat_with(&c, strict)? {
                out = out
                    .and(Constraint::normal(k.expr.clone(), Rel::Eq))
                    .expect("proper");
                changed = true;
            } else {
                out = out.and(Normal::Proper(k.clone())).expect("proper");
            }
        }
        for i in 0..self.arena.param_names().len() {
            let x = LinExpr::var(crate::linear::Param(i as u32));
            if !self.sat_with(&out, Constraint::normal(x.clone(), Rel::Gt))? {
                if let Some(o) = out.and(Constraint::normal(x, Rel::Eq)) {
                    out = o;
                    changed = true;
                }
            }
        }
        Ok(if changed { out } else { c })
    }

    fn sat_with(&mut self, c: &Conj, k: Normal) -> Result<bool, Error> {
        self.solver.sat_with(c, k).map_err(|_| self.hard())
    }

    fn sat(&mut self, c: &Conj) -> Result<bool, Error> {
        self.solver.sat(c).map_err(|_| self.hard())
    }
}
