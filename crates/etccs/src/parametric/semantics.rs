//! The eager semantics on a region of parameter space (spec §5.2: the
//! parametric I, Δ, Delay and Action).
//!
//! Instead of carrying a condition per interval as the thesis does, every
//! comparison of two time expressions asks the solver whether the current
//! region decides it. When it does not, evaluation stops with
//! [`Stop::Split`] naming the constraint that holds on part of the region;
//! the explorer splits the region into the parts where it holds and where
//! it does not, and evaluates again on each part. On a region where every
//! comparison is decided, the result is exactly the concrete semantics of
//! every valuation in the region, which is what makes concrete and
//! parametric answers agree.
//!
//! The same state meets many regions. What the semantics computes depends
//! only on the term and on the answers to the comparisons it asked, so
//! [`Memo`] keeps each value at the end of its path of answers, shared by
//! all regions: on another region the path is followed by deciding each
//! comparison there, and the work in between is not repeated.

use super::constraint::{Conj, Constraint, Normal, Rel};
use super::solver::{Solver, TooHard};
use crate::linear::LinExpr;
use crate::term::{Act, Arena, FxHashMap, Term, TermId};

/// Why evaluation on a region stopped.
#[derive(Debug)]
pub enum Stop {
    /// This constraint holds on part of the region only.
    Split(Constraint),
    /// The constraint solver gave up.
    Hard(TooHard),
}

impl From<TooHard> for Stop {
    fn from(e: TooHard) -> Self {
        Stop::Hard(e)
    }
}

/// Earliest start of τ and of each visible action (a summary of 𝒮(P)).
#[derive(Clone, Default)]
struct Summary {
    tau: Option<LinExpr>,
    vis: Vec<(Act, LinExpr)>,
}

/// One transition `P =(α,u)⇒ P'` valid on the whole region.
#[derive(Clone)]
pub struct PTransition {
    /// The action.
    pub act: Act,
    /// The delay `u` since the previous transition.
    pub delay: LinExpr,
    /// The successor.
    pub target: TermId,
}

/// The semantics evaluated on one region.
pub struct Sem<'a> {
    /// Terms (successors are interned here).
    pub arena: &'a mut Arena,
    /// Decides comparisons on the region.
    ask: Ask<'a>,
    /// Values found on any region so far.
    memo: &'a mut Memo,
}

/// What decides comparisons on one region, and the answers given so far in this evaluation.
struct Ask<'a> {
    solver: &'a mut Solver,
    /// The region; must be satisfiable.
    region: &'a Conj,
    /// The comparisons decided on the region so far (by any state's semantics on it).
    known: &'a mut Known,
    /// The comparisons met on any region, numbered.
    constraints: &'a mut Constraints,
    /// The comparisons this evaluation asked, in order, with their answers.
    log: Vec<(u32, bool)>,
}

/// The comparisons decided on one region (by number in [`Constraints`]).
#[derive(Default)]
pub struct Known {
    decided: FxHashMap<u32, bool>,
}

/// Comparisons numbered on first sight.
#[derive(Default)]
pub struct Constraints {
    ids: FxHashMap<Constraint, u32>,
    list: Vec<Constraint>,
}

impl Constraints {
    fn id(&mut self, k: Constraint) -> u32 {
        if let Some(&i) = self.ids.get(&k) {
            return i;
        }
        let i = u32::try_from(self.list.len()).expect("fewer than 2^32 comparisons");
        self.list.push(k.clone());
        self.ids.insert(k, i);
        i
    }
}

/// Values the semantics computed, kept across regions. A value depends only on its key
/// and on the answers to the comparisons its computation asked, which it asks in an order
/// fixed by the earlier answers; so each key has a decision tree over those comparisons,
/// with the values at its leaves. On another region, following the tree (deciding each
/// comparison there) reaches the value without recomputing it, or stops where the
/// computation would have stopped: at a comparison the region does not decide, or at an
/// answer not seen before. The transitions of a state are kept whole, and the summaries,
/// moves and delayed forms of the terms inside compositions (components recur across
/// states; a state's own composition is covered by its transitions).
#[derive(Default)]
pub struct Memo {
    transitions: FxHashMap<TermId, Node<Vec<PTransition>>>,
    summaries: FxHashMap<TermId, Node<Summary>>,
    moves: FxHashMap<TermId, Node<Vec<(Act, TermId)>>>,
    delays: FxHashMap<(TermId, LinExpr), Node<TermId>>,
}

/// A decision tree: a value, or a comparison (by number) with the subtrees for `false`
/// and `true` (`None`: not met yet).
enum Node<V> {
    Leaf(V),
    Ask(u32, [Option<Box<Node<V>>>; 2]),
}

impl<V> Node<V> {
    /// The chain of `path` ending in `v`.
    fn chain(path: &[(u32, bool)], v: V) -> Node<V> {
        match path.split_first() {
            None => Node::Leaf(v),
            Some((&(k, a), rest)) => {
                let mut kids = [None, None];
                kids[usize::from(a)] = Some(Box::new(Node::chain(rest, v)));
                Node::Ask(k, kids)
            }
        }
    }

    /// Adds `v` at the end of `path`, which follows the tree as far as it goes.
    fn graft(&mut self, path: &[(u32, bool)], v: V) {
        match (self, path.split_first()) {
            (Node::Ask(k, kids), Some((&(j, a), rest))) => {
                debug_assert_eq!(*k, j, "a computation asks in a fixed order");
                match &mut kids[usize::from(a)] {
                    Some(n) => n.graft(rest, v),
                    slot @ None => *slot = Some(Box::new(Node::chain(rest, v))),
                }
            }
            (node, _) => {
                debug_assert!(false, "a computation asks in a fixed order");
                *node = Node::chain(path, v);
            }
        }
    }
}

impl Ask<'_> {
    /// Whether comparison `k` holds on the whole region (logged); [`Stop::Split`] if it
    /// holds on part of it only.
    fn decide(&mut self, k: u32) -> Result<bool, Stop> {
        let v = match self.known.decided.get(&k) {
            Some(&v) => v,
            None => {
                let c = &self.constraints.list[k as usize];
                let v = if self.solver.implies(self.region, c)? {
                    true
                } else if self.solver.implies(self.region, &c.negate())? {
                    false
                } else {
                    return Err(Stop::Split(c.clone()));
                };
                self.known.decided.insert(k, v);
                v
            }
        };
        self.log.push((k, v));
        Ok(v)
    }
}

impl<'a> Sem<'a> {
    /// The semantics on `region`, with what is already known on it and on other regions.
    pub fn new(
        arena: &'a mut Arena,
        solver: &'a mut Solver,
        region: &'a Conj,
        known: &'a mut Known,
        constraints: &'a mut Constraints,
        memo: &'a mut Memo,
    ) -> Self {
        Sem {
            arena,
            ask: Ask {
                solver,
                region,
                known,
                constraints,
                log: Vec::new(),
            },
            memo,
        }
    }

    /// Whether `a ⋈ b` holds on the whole region; [`Stop::Split`] if it
    /// holds on part of it only.
    fn holds(&mut self, a: &LinExpr, rel: Rel, b: &LinExpr) -> Result<bool, Stop> {
        let k = match Constraint::cmp(a, rel, b) {
            Normal::True => return Ok(true),
            Normal::False => return Ok(false),
            Normal::Proper(k) => k,
        };
        let k = self.ask.constraints.id(k);
        self.ask.decide(k)
    }

    /// The lower bound of a prefix node (a symbolic bound below 0 means 0).
    fn bound(&mut self, t: TermId) -> Result<Option<(Act, LinExpr, TermId)>, Stop> {
        Ok(match self.arena.get(t) {
            Term::Prefix(a, v, c) => Some((*a, LinExpr::constant(v.clone()), *c)),
            &Term::SymPrefix(a, s, c) => {
                let e = self.arena.sym_bound(s).clone();
                let e = if self.holds(&e, Rel::Ge, &LinExpr::zero())? {
                    e
                } else {
                    LinExpr::zero()
                };
                Some((a, e, c))
            }
            _ => None,
        })
    }

    fn min_into(&mut self, slot: &mut Option<LinExpr>, v: LinExpr) -> Result<(), Stop> {
        let replace = match slot {
            None => true,
            Some(cur) => self.holds(cur, Rel::Gt, &v)?,
        };
        if replace {
            *slot = Some(v);
        }
        Ok(())
    }

    fn vis_into(&mut self, s: &mut Summary, a: Act, v: LinExpr) -> Result<(), Stop> {
        match s.vis.iter().position(|(b, _)| *b == a) {
            Some(i) => {
                let mut slot = Some(s.vis[i].1.clone());
                self.min_into(&mut slot, v)?;
                s.vis[i].1 = slot.expect("set");
            }
            None => s.vis.push((a, v)),
        }
        Ok(())
    }

    fn merge(&mut self, s: &mut Summary, o: Summary) -> Result<(), Stop> {
        if let Some(t) = o.tau {
            self.min_into(&mut s.tau, t)?;
        }
        for (a, v) in o.vis {
            self.vis_into(s, a, v)?;
        }
        Ok(())
    }

    /// 𝒮(P) summarised: a synchronisation starts at the later of the two
    /// partners' bounds (Def 7.1.10's case split, decided by the region).
    fn summary(&mut self, t: TermId, inside: bool) -> Result<Summary, Stop> {
        self.kept(
            t,
            inside,
            |m| &mut m.summaries,
            |sem| sem.summary_uncached(t, inside),
        )
    }

    /// `compute()` for `key`, looked up in and added to the decision trees `of` of [`Memo`]
    /// when `inside` (a component or part of one; a state's own composition is covered by
    /// its transitions).
    fn kept<K: std::hash::Hash + Eq, V: Clone>(
        &mut self,
        key: K,
        inside: bool,
        of: fn(&mut Memo) -> &mut FxHashMap<K, Node<V>>,
        compute: impl FnOnce(&mut Self) -> Result<V, Stop>,
    ) -> Result<V, Stop> {
        if !inside {
            return compute(self);
        }
        let start = self.ask.log.len();
        if let Some(mut node) = of(self.memo).get(&key) {
            loop {
                match node {
                    Node::Leaf(v) => return Ok(v.clone()),
                    Node::Ask(k, kids) => match &kids[usize::from(self.ask.decide(*k)?)] {
                        Some(n) => node = n,
                        None => break,
                    },
                }
            }
            // An answer not seen before: compute, asking the same comparisons again.
            self.ask.log.truncate(start);
        }
        let v = compute(self)?;
        let path = &self.ask.log[start..];
        match of(self.memo).entry(key) {
            std::collections::hash_map::Entry::Occupied(mut e) => {
                e.get_mut().graft(path, v.clone())
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(Node::chain(path, v.clone()));
            }
        }
        Ok(v)
    }

    /// [`Sem::summary`] computed; `inside`: `t` lies inside an operand of a composition
    /// (a component, or part of one), so that its parts are worth keeping.
    fn summary_uncached(&mut self, t: TermId, inside: bool) -> Result<Summary, Stop> {
        let node = self.arena.get(t).clone();
        Ok(match node {
            Term::Nil | Term::Terminated => Summary::default(),
            Term::Prefix(..) | Term::SymPrefix(..) => {
                let (a, v, _) = self.bound(t)?.expect("prefix");
                let mut s = Summary::default();
                match a {
                    Act::Tau => s.tau = Some(v),
                    _ => s.vis.push((a, v)),
                }
                s
            }
            Term::Sum(xs) => {
                let mut s = Summary::default();
                for x in xs {
                    let sx = self.summary(x, inside)?;
                    self.merge(&mut s, sx)?;
                }
                s
            }
            Term::Par(xs) => {
                let mut parts = Vec::with_capacity(xs.len());
                for x in &xs {
                    parts.push(self.summary(*x, true)?);
                }
                let mut s = Summary::default();
                for i in 0..parts.len() {
                    for j in (i + 1)..parts.len() {
                        for (a, v) in &parts[i].vis {
                            let co = a.complement().expect("visible");
                            if let Some((_, w)) = parts[j].vis.iter().find(|(b, _)| *b == co) {
                                let u = if self.holds(w, Rel::Gt, v)? {
                                    w.clone()
                                } else {
                                    v.clone()
                                };
                                self.min_into(&mut s.tau, u)?;
                            }
                        }
                    }
                }
                for p in parts {
                    self.merge(&mut s, p)?;
                }
                s
            }
            Term::Restrict(x, l) => {
                let mut s = self.summary(x, inside)?;
                s.vis
                    .retain(|(a, _)| a.name().is_none_or(|n| l.binary_search(&n).is_err()));
                s
            }
            Term::Relabel(x, f) => {
                let inner = self.summary(x, inside)?;
                let mut s = Summary {
                    tau: inner.tau,
                    vis: Vec::new(),
                };
                for (a, v) in inner.vis {
                    self.vis_into(&mut s, a.relabel(&f), v)?;
                }
                s
            }
            Term::Const(c) => match self.arena.const_body(c) {
                Some(b) => self.summary(b, inside)?,
                None => Summary::default(),
            },
        })
    }

    /// The earliest time at which `t` can act (Δ), if any.
    fn earliest(&mut self, t: TermId) -> Result<Option<LinExpr>, Stop> {
        let s = self.summary(t, false)?;
        let mut u = s.tau;
        for (_, v) in s.vis {
            self.min_into(&mut u, v)?;
        }
        Ok(u)
    }

    /// `Delay(P, u)` (Def 7.1.14): bounds above `u` drop by `u`, the others
    /// become 0 (the monus, split by the region).
    fn delay(&mut self, t: TermId, u: &LinExpr, inside: bool) -> Result<TermId, Stop> {
        self.kept(
            (t, u.clone()),
            inside,
            |m| &mut m.delays,
            |sem| sem.delay_uncached(t, u, inside),
        )
    }

    /// [`Sem::delay`] computed (`inside` as for [`Sem::summary_uncached`]).
    fn delay_uncached(&mut self, t: TermId, u: &LinExpr, inside: bool) -> Result<TermId, Stop> {
        let node = self.arena.get(t).clone();
        Ok(match node {
            Term::Nil | Term::Terminated => t,
            Term::Prefix(..) | Term::SymPrefix(..) => {
                let (a, v, c) = self.bound(t)?.expect("prefix");
                if self.holds(&v, Rel::Gt, u)? {
                    self.arena.sym_prefix(a, v.sub(u), c)
                } else {
                    self.arena.sym_prefix(a, LinExpr::zero(), c)
                }
            }
            Term::Sum(xs) | Term::Par(xs) => {
                let par = matches!(self.arena.get(t), Term::Par(_));
                let mut ys = Vec::with_capacity(xs.len());
                for x in &xs {
                    ys.push(self.delay(*x, u, inside || par)?);
                }
                if par {
                    self.arena.par(ys)
                } else {
                    self.arena.sum(ys)
                }
            }
            Term::Restrict(x, l) => {
                let y = self.delay(x, u, inside)?;
                self.arena.restrict_ref(y, &l)
            }
            Term::Relabel(x, f) => {
                let y = self.delay(x, u, inside)?;
                self.arena.relabel(y, f)
            }
            Term::Const(c) => match self.arena.const_body(c) {
                Some(b) => self.delay(b, u, inside)?,
                None => self.arena.nil(),
            },
        })
    }

    /// `Action(P, α)` over every α at once: the moves of prefixes whose
    /// bound is 0 on the region (Def 7.1.15).
    fn moves(&mut self, t: TermId, inside: bool) -> Result<Vec<(Act, TermId)>, Stop> {
        self.kept(
            t,
            inside,
            |m| &mut m.moves,
            |sem| sem.moves_uncached(t, inside),
        )
    }

    /// [`Sem::moves`] computed (`inside` as for [`Sem::summary_uncached`]).
    fn moves_uncached(&mut self, t: TermId, inside: bool) -> Result<Vec<(Act, TermId)>, Stop> {
        let node = self.arena.get(t).clone();
        Ok(match node {
            Term::Nil | Term::Terminated => Vec::new(),
            Term::Prefix(..) | Term::SymPrefix(..) => {
                let (a, v, c) = self.bound(t)?.expect("prefix");
                if self.holds(&v, Rel::Eq, &LinExpr::zero())? {
                    vec![(a, c)]
                } else {
                    Vec::new()
                }
            }
            Term::Sum(xs) => {
                let mut out = Vec::new();
                for x in xs {
                    out.extend(self.moves(x, inside)?);
                }
                out
            }
            Term::Par(xs) => {
                let mut per = Vec::with_capacity(xs.len());
                for x in &xs {
                    per.push(self.moves(*x, true)?);
                }
                let mut out = Vec::new();
                for (i, mi) in per.iter().enumerate() {
                    for (a, p) in mi {
                        let mut ys = xs.clone();
                        ys[i] = *p;
                        out.push((*a, self.arena.par(ys)));
                    }
                }
                for i in 0..per.len() {
                    for j in (i + 1)..per.len() {
                        for (a, p) in &per[i] {
                            let Some(co) = a.complement() else { continue };
                            for (b, q) in &per[j] {
                                if *b == co {
                                    let mut ys = xs.clone();
                                    ys[i] = *p;
                                    ys[j] = *q;
                                    out.push((Act::Tau, self.arena.par(ys)));
                                }
                            }
                        }
                    }
                }
                out
            }
            Term::Restrict(x, l) => {
                let inner = self.moves(x, inside)?;
                inner
                    .into_iter()
                    .filter(|(a, _)| a.name().is_none_or(|n| l.binary_search(&n).is_err()))
                    .map(|(a, p)| (a, self.arena.restrict_ref(p, &l)))
                    .collect()
            }
            Term::Relabel(x, f) => {
                let inner = self.moves(x, inside)?;
                inner
                    .into_iter()
                    .map(|(a, p)| (a.relabel(&f), self.arena.relabel(p, f.clone())))
                    .collect()
            }
            Term::Const(c) => match self.arena.const_body(c) {
                Some(b) => self.moves(b, inside)?,
                None => Vec::new(),
            },
        })
    }

    /// The transition multiset of `t` on the region (Def 7.1.16): every
    /// `P' ∈ Action(Delay(P, u), α)` for the earliest time `u`.
    pub fn transitions(&mut self, t: TermId) -> Result<Vec<PTransition>, Stop> {
        self.ask.log.clear();
        self.kept(
            t,
            true,
            |m| &mut m.transitions,
            |sem| sem.transitions_uncached(t),
        )
    }

    /// [`Sem::transitions`] computed.
    fn transitions_uncached(&mut self, t: TermId) -> Result<Vec<PTransition>, Stop> {
        let Some(u) = self.earliest(t)? else {
            return Ok(Vec::new());
        };
        let d = self.delay(t, &u, false)?;
        Ok(self
            .moves(d, false)?
            .into_iter()
            .map(|(act, target)| PTransition {
                act,
                delay: u.clone(),
                target,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::Node;

    /// The value at the end of the path that `answer` picks, if the tree has it.
    fn find<V: Copy>(n: &Node<V>, answer: impl Fn(u32) -> bool) -> Option<V> {
        match n {
            Node::Leaf(v) => Some(*v),
            Node::Ask(k, kids) => find(kids[usize::from(answer(*k))].as_deref()?, answer),
        }
    }

    #[test]
    fn decision_trees_keep_each_value_at_the_end_of_its_answers() {
        // Comparison 1 first; if it holds, comparison 2 decides; if not, 3.
        let mut t = Node::chain(&[(1, true), (2, false)], 'a');
        t.graft(&[(1, true), (2, true)], 'b');
        t.graft(&[(1, false), (3, true)], 'c');
        let with = |yes: &'static [u32]| move |k: u32| yes.contains(&k);
        assert_eq!(find(&t, with(&[1])), Some('a'));
        assert_eq!(find(&t, with(&[1, 2])), Some('b'));
        assert_eq!(find(&t, with(&[3])), Some('c'));
        // An answer not seen before: no value yet.
        assert_eq!(find(&t, with(&[])), None);
        // A computation that asks nothing is a leaf.
        assert_eq!(find(&Node::chain(&[], 'z'), with(&[])), Some('z'));
    }
}
