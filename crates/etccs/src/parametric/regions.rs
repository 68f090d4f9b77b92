//! From the cells of the exploration to the reported regions: cells with the
//! same distribution are united, unions of conjunctions are simplified
//! (`e > 0` or `e = 0` is `e >= 0`), and, beyond the thesis, regions whose
//! results combine into one expression with `max` or `min` are merged (so
//! `t1` on `t1 > t2` and `t2` elsewhere becomes `max(t1, t2)` everywhere).

use super::constraint::{Conj, Constraint, Normal, Rel};
use super::explore::{Cell, Weight};
use super::solver::{Solver, TooHard};
use crate::linear::{Coef, LinExpr};
use crate::term::FxHashMap;
use crate::time::Tm;
use num_bigint::BigUint;

/// An execution-time expression of a reported region: linear, or the
/// maximum or minimum of linear expressions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PExpr {
    /// A linear expression.
    Lin(LinExpr),
    /// The maximum of at least two linear expressions.
    Max(Vec<LinExpr>),
    /// The minimum of at least two linear expressions.
    Min(Vec<LinExpr>),
}

impl PExpr {
    /// The value at a valuation.
    pub fn eval(&self, values: &[Coef]) -> Coef {
        match self {
            PExpr::Lin(e) => e.eval(values),
            PExpr::Max(es) => es.iter().map(|e| e.eval(values)).max().expect("non-empty"),
            PExpr::Min(es) => es.iter().map(|e| e.eval(values)).min().expect("non-empty"),
        }
    }

    /// `t1 + t2`, `max(t1, t2)`, `min(t1, 2*t2 + 1)`.
    pub fn render(&self, names: &[String]) -> String {
        let list = |es: &[LinExpr]| {
            es.iter()
                .map(|e| e.render(names))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            PExpr::Lin(e) => e.render(names),
            PExpr::Max(es) => format!("max({})", list(es)),
            PExpr::Min(es) => format!("min({})", list(es)),
        }
    }
}

/// The weight of a result in a reported region: its probability, and its
/// number of paths if that is the same on the whole region.
pub type Shared = (Tm, Option<BigUint>);

/// Regions being merged: conjunctive pieces, each with its own linear
/// expression per result position, and the merged expressions.
struct Group {
    pieces: Vec<(Conj, Vec<LinExpr>)>,
    weights: Vec<Shared>,
    exprs: Vec<PExpr>,
}

/// A reported region: a union of conjunctions with its results.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The region as a union (DNF) of conjunctions.
    pub pieces: Vec<Conj>,
    /// Expressions with their probabilities and path counts.
    pub results: Vec<(PExpr, Shared)>,
}

/// Orders the entries of a distribution by value on `region` where the
/// region decides it (selection of a provably smallest entry), else keeps
/// the syntactic order.
fn ordered(
    solver: &mut Solver,
    region: &Conj,
    mut entries: Vec<(LinExpr, Weight)>,
) -> Result<Vec<(LinExpr, Weight)>, TooHard> {
    let mut out = Vec::with_capacity(entries.len());
    while !entries.is_empty() {
        let mut pick = 0;
        'cand: for i in 0..entries.len() {
            for j in 0..entries.len() {
                if i != j && !le(solver, region, &entries[i].0, &entries[j].0)? {
                    continue 'cand;
                }
            }
            pick = i;
            break;
        }
        out.push(entries.remove(pick));
    }
    Ok(out)
}

/// Whether `a <= b` everywhere on `region`.
fn le(solver: &mut Solver, region: &Conj, a: &LinExpr, b: &LinExpr) -> Result<bool, TooHard> {
    match Constraint::cmp(b, Rel::Ge, a) {
        Normal::True => Ok(true),
        Normal::False => Ok(false),
        Normal::Proper(k) => solver.implies(region, &k),
    }
}

/// Combines path counts: kept where equal, unknown where they differ.
fn same_paths(a: &Option<BigUint>, b: &Option<BigUint>) -> Option<BigUint> {
    match (a, b) {
        (Some(x), Some(y)) if x == y => Some(x.clone()),
        _ => None,
    }
}

/// Groups cells with equal distributions, merges groups into max/min
/// expressions where that is exact (if `max_min`; path counts may then
/// differ, being an artefact of interleaving), and simplifies each union
/// of pieces.
pub fn merge(
    solver: &mut Solver,
    cells: &[Cell],
    domain: &Conj,
    max_min: bool,
) -> Result<Vec<Merged>, TooHard> {
    let mut groups: Vec<Group> = Vec::new();
    for c in cells {
        let entries: Vec<(LinExpr, Weight)> =
            c.dist.iter().map(|(e, w)| (e.clone(), w.clone())).collect();
        let found = groups.iter_mut().find(|g| {
            g.exprs.len() == entries.len()
                && entries.iter().all(|(e, w)| {
                    g.exprs.iter().zip(&g.weights).any(|(x, v)| {
                        // Unmerged reports keep regions with different
                        // path counts apart, as the thesis printed them.
                        *x == PExpr::Lin(e.clone())
                            && v.0 == w.0
                            && (max_min || v.1.as_ref() == Some(&w.1))
                    })
                })
        });
        if let Some(g) = found {
            let mut exprs = Vec::with_capacity(g.exprs.len());
            for (x, v) in g.exprs.iter().zip(g.weights.iter_mut()) {
                let PExpr::Lin(e) = x else {
                    unreachable!("unmerged groups are linear")
                };
                let w = &c.dist[e];
                v.1 = same_paths(&v.1, &Some(w.1.clone()));
                exprs.push(e.clone());
            }
            g.pieces.push((c.region.clone(), exprs));
            continue;
        }
        let entries = ordered(solver, &c.region, entries)?;
        groups.push(Group {
            pieces: vec![(
                c.region.clone(),
                entries.iter().map(|(e, _)| e.clone()).collect(),
            )],
            weights: entries
                .iter()
                .map(|(_, w)| (w.0.clone(), Some(w.1.clone())))
                .collect(),
            exprs: entries.into_iter().map(|(e, _)| PExpr::Lin(e)).collect(),
        });
    }
    // Greedy pairwise max/min merging until nothing merges. Each group has a stamp, renewed
    // when it changes; a pair that failed is not tried again until one of them changes
    // (try_merge depends on the two groups only).
    let mut stamps: Vec<u32> = (0..groups.len() as u32).collect();
    let mut next_stamp = groups.len() as u32;
    let mut failed: FxHashMap<(u32, u32), ()> = FxHashMap::default();
    let mut merged = max_min;
    while merged {
        merged = false;
        'pairs: for i in 0..groups.len() {
            for j in (i + 1)..groups.len() {
                if failed.contains_key(&(stamps[i], stamps[j])) {
                    continue;
                }
                if let Some(m) = try_merge(solver, &groups[i], &groups[j])? {
                    groups[i] = m;
                    groups.remove(j);
                    stamps.remove(j);
                    stamps[i] = next_stamp;
                    next_stamp += 1;
                    merged = true;
                    break 'pairs;
                }
                failed.insert((stamps[i], stamps[j]), ());
            }
        }
    }
    let mut out = Vec::with_capacity(groups.len());
    for g in groups {
        let pieces = simplify_union(
            solver,
            g.pieces.into_iter().map(|(c, _)| c).collect(),
            domain,
        )?;
        out.push(Merged {
            pieces,
            results: g.exprs.into_iter().zip(g.weights).collect(),
        });
    }
    Ok(out)
}

/// Whether `op(set)` equals `e` everywhere on `region` (`op` = max if
/// `is_max`, else min): every member is on the right side of `e`, and one
/// member reaches it.
fn extreme_is(
    solver: &mut Solver,
    region: &Conj,
    set: &[LinExpr],
    e: &LinExpr,
    is_max: bool,
) -> Result<bool, TooHard> {
    let mut reached = false;
    for s in set {
        let (lo, hi) = if is_max { (s, e) } else { (e, s) };
        if !le(solver, region, lo, hi)? {
            return Ok(false);
        }
        if !reached && le(solver, region, hi, lo)? {
            reached = true;
        }
    }
    Ok(reached)
}

/// Merges two groups position by position if every position's expressions
/// combine into one linear, `max` or `min` expression that is exact on
/// every piece. The candidates come from the full-dimensional pieces (those
/// without an equality), whose expressions are not rewritten by one.
fn try_merge(solver: &mut Solver, g: &Group, h: &Group) -> Result<Option<Group>, TooHard> {
    if g.weights.len() != h.weights.len()
        || g.weights.iter().zip(&h.weights).any(|(a, b)| a.0 != b.0)
    {
        return Ok(None);
    }
    let pieces: Vec<(Conj, Vec<LinExpr>)> = g.pieces.iter().chain(&h.pieces).cloned().collect();
    let open: Vec<&(Conj, Vec<LinExpr>)> = pieces
        .iter()
        .filter(|(c, _)| c.0.iter().all(|k| k.rel != Rel::Eq))
        .collect();
    let sources = if open.is_empty() {
        pieces.iter().collect()
    } else {
        open
    };
    let mut exprs = Vec::with_capacity(g.weights.len());
    for k in 0..g.weights.len() {
        let mut set: Vec<LinExpr> = Vec::new();
        for (_, es) in &sources {
            if !set.contains(&es[k]) {
                set.push(es[k].clone());
            }
        }
        set.sort();
        let mut found = None;
        for is_max in [true, false] {
            let mut ok = true;
            for (region, es) in &pieces {
                if !extreme_is(solver, region, &set, &es[k], is_max)? {
                    ok = false;
                    break;
                }
            }
            if ok {
                found = Some(match (set.len(), is_max) {
                    (1, _) => PExpr::Lin(set[0].clone()),
                    (_, true) => PExpr::Max(set.clone()),
                    (_, false) => PExpr::Min(set.clone()),
                });
                break;
            }
        }
        match found {
            Some(e) => exprs.push(e),
            None => return Ok(None),
        }
    }
    let weights = g
        .weights
        .iter()
        .zip(&h.weights)
        .map(|(a, b)| (a.0.clone(), same_paths(&a.1, &b.1)))
        .collect();
    Ok(Some(Group {
        pieces,
        weights,
        exprs,
    }))
}

/// The sign classes (`<`, `=`, `>` of `e`) a constraint on `e` or `-e` allows.
fn classes(k: &Constraint, e: &LinExpr) -> Option<[bool; 3]> {
    let flip = if k.expr == *e {
        false
    } else if k.expr == e.scale(&Coef::int(-1)) {
        true
    } else {
        return None;
    };
    let [lt, eq, gt] = match k.rel {
        Rel::Gt => [false, false, true],
        Rel::Ge => [false, true, true],
        Rel::Eq => [false, true, false],
        Rel::Ne => [true, false, true],
    };
    Some(if flip { [gt, eq, lt] } else { [lt, eq, gt] })
}

/// The constraint on `e` allowing exactly these sign classes (`None` = ⊤).
fn from_classes(c: [bool; 3], e: &LinExpr) -> Option<Option<Constraint>> {
    let minus = e.scale(&Coef::int(-1));
    let k = |x: &LinExpr, rel| match Constraint::normal(x.clone(), rel) {
        Normal::Proper(k) => Some(k),
        _ => None,
    };
    Some(match c {
        [true, true, true] => None,
        [false, true, true] => k(e, Rel::Ge),
        [true, true, false] => k(&minus, Rel::Ge),
        [true, false, true] => k(e, Rel::Ne),
        [false, false, true] => k(e, Rel::Gt),
        [true, false, false] => k(&minus, Rel::Gt),
        [false, true, false] => k(e, Rel::Eq),
        [false, false, false] => return None,
    })
}

/// `K ∧ a` ∪ `K ∧ b` as one conjunction, when `a` and `b` constrain the
/// same expression.
fn join(a: &Conj, b: &Conj) -> Option<Conj> {
    let only_a: Vec<&Constraint> = a.0.iter().filter(|k| !b.0.contains(k)).collect();
    let only_b: Vec<&Constraint> = b.0.iter().filter(|k| !a.0.contains(k)).collect();
    let (&[x], &[y]) = (only_a.as_slice(), only_b.as_slice()) else {
        return None;
    };
    let ca = classes(x, &x.expr)?;
    let cb = classes(y, &x.expr)?;
    let joined = from_classes([ca[0] || cb[0], ca[1] || cb[1], ca[2] || cb[2]], &x.expr)?;
    let mut rest: Vec<Constraint> = a.0.iter().filter(|k| *k != x).cloned().collect();
    if let Some(k) = joined {
        if let Err(i) = rest.binary_search(&k) {
            rest.insert(i, k);
        }
    }
    Some(Conj(rest))
}

/// Drops constraints implied by the others and the background.
fn without_redundant(solver: &mut Solver, c: &Conj, background: &Conj) -> Result<Conj, TooHard> {
    let mut keep = c.0.clone();
    let mut i = 0;
    while i < keep.len() {
        let mut rest = keep.clone();
        let k = rest.remove(i);
        if solver.implies(&Conj(rest.clone()).and_all(background), &k)? {
            keep = rest;
        } else {
            i += 1;
        }
    }
    Ok(Conj(keep))
}

/// Whether `region` lies inside the union of `pieces`: `region ∧ ¬p₁ ∧ … ∧ ¬pₙ`
/// is unsatisfiable, with each `¬pᵢ` a disjunction of negated constraints,
/// explored depth first with pruning. Gives up (answers `false`) beyond
/// [`MAX_COVER_STEPS`] satisfiability checks.
pub(super) fn covered(
    solver: &mut Solver,
    region: &Conj,
    pieces: &[&Conj],
) -> Result<bool, TooHard> {
    let mut budget = MAX_COVER_STEPS;
    covered_within(solver, region, pieces, &mut budget)
}

/// Satisfiability checks one coverage test may use.
pub const MAX_COVER_STEPS: usize = 4_096;

fn covered_within(
    solver: &mut Solver,
    region: &Conj,
    pieces: &[&Conj],
    budget: &mut usize,
) -> Result<bool, TooHard> {
    if *budget == 0 {
        return Ok(false);
    }
    *budget -= 1;
    if !solver.sat(region)? {
        return Ok(true);
    }
    let mut rest = pieces;
    while let Some((first, tail)) = rest.split_first() {
        rest = tail;
        // A piece that misses the region cannot help to cover it: skipped, instead of
        // splitting the region by each of its constraints only to find the same parts
        // outside it.
        if *budget == 0 {
            return Ok(false);
        }
        *budget -= 1;
        if !solver.sat(&region.and_all(first))? {
            continue;
        }
        for k in &first.0 {
            let Some(outside) = region.and(Normal::Proper(k.negate())) else {
                continue;
            };
            if !covered_within(solver, &outside, rest, budget)? {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    Ok(false)
}

/// The first, linear part of [`simplify_union`]: each piece without the
/// constraints that the rest of it and `background` imply, repeated
/// pieces once.
pub fn tidy_pieces(
    solver: &mut Solver,
    pieces: Vec<Conj>,
    background: &Conj,
) -> Result<Vec<Conj>, TooHard> {
    let mut ps = Vec::with_capacity(pieces.len());
    for p in &pieces {
        let p = without_redundant(solver, p, background)?;
        if !ps.contains(&p) {
            ps.push(p);
        }
    }
    Ok(ps)
}

/// Simplifies a union of conjunctions within `background` (constraints
/// it implies are dropped): pieces contained in another are dropped, pairs
/// differing in one constraint on the same expression are joined, and a
/// constraint is dropped from a piece when the part it cuts off is covered
/// by the other pieces, until nothing changes.
pub fn simplify_union(
    solver: &mut Solver,
    pieces: Vec<Conj>,
    background: &Conj,
) -> Result<Vec<Conj>, TooHard> {
    let ps = tidy_pieces(solver, pieces, background)?;
    join_pieces(solver, ps, background)
}

/// [`simplify_union`] of pieces that [`tidy_pieces`] has already tidied.
pub fn join_pieces(
    solver: &mut Solver,
    mut ps: Vec<Conj>,
    background: &Conj,
) -> Result<Vec<Conj>, TooHard> {
    'again: loop {
        for i in 0..ps.len() {
            for j in 0..ps.len() {
                if i == j {
                    continue;
                }
                // ps[i] ⊆ ps[j]: every constraint of ps[j] holds on ps[i].
                let mut inside = true;
                let within = ps[i].and_all(background);
                for k in &ps[j].0 {
                    if !solver.implies(&within, k)? {
                        inside = false;
                        break;
                    }
                }
                if inside {
                    ps.remove(i);
                    continue 'again;
                }
                if let Some(u) = join(&ps[i], &ps[j]) {
                    let u = without_redundant(solver, &u, background)?;
                    let (hi, lo) = (i.max(j), i.min(j));
                    ps.remove(hi);
                    ps[lo] = u;
                    continue 'again;
                }
            }
        }
        if ps.len() > 1 {
            for i in 0..ps.len() {
                for k in 0..ps[i].0.len() {
                    let mut grown = ps[i].clone();
                    let cut = grown.0.remove(k);
                    let Some(cut_off) = grown.and(Normal::Proper(cut.negate())) else {
                        continue;
                    };
                    let cut_off = cut_off.and_all(background);
                    let others: Vec<&Conj> =
                        (0..ps.len()).filter(|&j| j != i).map(|j| &ps[j]).collect();
                    if covered(solver, &cut_off, &others)? {
                        ps[i] = grown;
                        continue 'again;
                    }
                }
            }
        }
        break;
    }
    ps.sort();
    Ok(ps)
}
