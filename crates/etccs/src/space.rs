//! The explored state space. A state is kept as its *component vector*: the
//! operand list of its top-level parallel composition, flattened as
//! [`Arena::par`] builds it (`nil` dropped, nested compositions spliced; a
//! state that is not a composition has one component, `nil` none). Equal
//! vectors are equal states, so the vectors are hash-consed here, stored
//! contiguously, instead of being interned as arena terms: a state costs its
//! components and a table slot, and a successor, which differs from its
//! state in one or two components, is hashed in O(1) from the state's hash.
//!
//! Each distinct component term gets a record, and vectors hold record
//! numbers; what every step reads of a record (where its moves are, and
//! their synchronisation fingerprints, built once from the arena's
//! memoised moves) is a small [`Hot`] entry apart from the rest, so a step
//! reads one small entry per component, scans the moves' actions, and
//! reads a move's target (its record, once built) only when it fires. A component's timing
//! (earliest start, visible bounds, from the arena's summaries) is built
//! only when a state without immediate moves holds it.
//! A top-level restriction `P\L` of the explored agent is applied here (the
//! *wrap*): every state but the start is some `P'\L`, represented by `P'`.

use crate::grow::room;
use crate::id_table::IdTable;
use crate::term::{
    act_bit, act_bit2, merge_sync, min_tm, move_fingerprints, same_but, seq_finish, Act, Arena,
    Name, NameSet, ParMove, Repl, Term, TermId, Transition, Weights,
};
use crate::time::Tm;

/// The bound of [`Space`] that a step reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Limit {
    /// A new state beyond the state limit.
    States,
    /// A new state nested deeper than the depth limit.
    Depth,
}

/// The components that made one transition: one (its own action) or two
/// (a synchronisation), each as its position in the vector that acted,
/// its action, and the number of components its target flattens into (0
/// for `nil`, more for a composition).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Acted {
    slots: [(u32, Act, u32); 2],
    len: usize,
}

impl Acted {
    /// The acting components, by increasing position.
    pub(crate) fn parts(&self) -> &[(u32, Act, u32)] {
        &self.slots[..self.len]
    }

    /// The action of the transition: the component's own, or τ for a
    /// synchronisation.
    pub(crate) fn act(&self) -> Act {
        match self.parts() {
            [(_, a, _)] => *a,
            _ => Act::Tau,
        }
    }
}

/// How the transitions of a state came about (see [`Space::explain`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Explained {
    /// For a state that first lets time pass: per component, the number
    /// of components its delayed term flattens into (`None`: no delay).
    pub(crate) spans: Option<Vec<u32>>,
    /// The component terms that acted (after the delay, if any).
    pub(crate) components: Vec<TermId>,
    /// Per transition, in the order of [`Space::step`], who acted.
    pub(crate) moves: Vec<Acted>,
}

/// What a step needs of one component term besides its moves.
#[derive(Clone, Debug)]
struct Rec {
    term: TermId,
    /// Its timing summary: an index of [`Space::timings`] (`NONE`: not
    /// computed yet; only states without immediate moves need it).
    timing: u32,
    /// Its nesting depth, and whether it is `Terminated` (which a wrap
    /// does not enclose).
    depth: u32,
    terminated: bool,
}

/// The moves of one component term, which every step reads: kept apart
/// from [`Rec`] and small, so that the records of a state's components
/// stay in cache.
#[derive(Clone, Copy, Debug)]
struct Hot {
    /// Its immediate moves: a range of [`Space::acts`] and
    /// [`Space::targets`] (`start == NONE`: not computed yet).
    start: u32,
    /// The number of moves, with [`PASSES`] set when one of them passes
    /// the wrap on its own.
    len: u32,
    /// The moves' [`move_fingerprints`] (actions, co-actions, and the
    /// same with the second bit): two components can synchronise only if
    /// the co-actions of one meet the actions of the other in both.
    fps: [u64; 4],
}

/// The flag of [`Hot::len`]: a move passes the wrap on its own.
const PASSES: u32 = 1 << 31;

impl Hot {
    /// The range of the moves in [`Space::acts`].
    #[inline]
    fn range(&self) -> std::ops::Range<usize> {
        let s = self.start as usize;
        s..s + (self.len & !PASSES) as usize
    }
}

/// A move of the state being stepped whose successor is still to be found:
/// the components it replaces (positions and targets) and, when all are
/// components, the successor's hash.
#[derive(Clone, Copy, Debug)]
struct Pending {
    act: Act,
    repl: [(u32, Target); 2],
    len: u8,
    hash: Option<u32>,
}

/// A component with moves in a state: its position, record and [`Hot`].
#[derive(Clone, Copy, Debug)]
struct Live {
    pos: u32,
    rec: u32,
    hot: Hot,
}

/// When a component can act: what finding the delay of a state without
/// immediate moves needs of it.
#[derive(Clone, Debug)]
struct Timing {
    /// Earliest start of its τ (own or internal synchronisation) or of a
    /// visible action the wrap lets through.
    own: Option<Tm>,
    /// Earliest bound of any visible action: no synchronisation with another
    /// component starts before it.
    vis_min: Option<Tm>,
    /// Its visible list (least bound per action, names before co-names), a
    /// range of the arena's summary pool; `split`: the first co-name.
    vis: (u32, u32),
    split: u32,
    /// `act_bit` fingerprints of its visible actions and their complements.
    acts: u64,
    coacts: u64,
    /// Whether every delay leaves it unchanged.
    fixed: bool,
}

/// The target of a component's move.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// A component: its record.
    Comp(u32),
    /// A term that is not a component (`nil`, a composition) or not yet
    /// looked at.
    Term(TermId),
    /// A move listed by the arena (an index of [`Space::listed`]), built
    /// when it first fires: most moves of a component never fire (their
    /// partner is never ready).
    Listed(u32),
}

/// Hash-consed component vectors with their component records.
pub(crate) struct Space {
    /// The top-level restriction.
    wrap: Option<NameSet>,
    /// Record of each component term, by term index (`u32::MAX`: none yet).
    rec_idx: Vec<u32>,
    recs: Vec<Rec>,
    hot: Vec<Hot>,
    timings: Vec<Timing>,
    /// The components' immediate moves: their actions and (apart, as a
    /// step scans the actions and reads a target only when it fires)
    /// their targets.
    acts: Vec<Act>,
    targets: Vec<Target>,
    /// Moves of restricted compositions, with targets still to build.
    listed: Vec<Repl>,
    /// The vectors of record numbers, back to back: state `s` is
    /// `pool[off[s]..off[s + 1]]`.
    pool: Vec<u32>,
    off: Vec<u32>,
    /// State numbers with the hash of their vector.
    table: IdTable,
    /// Position weights of the vector hash.
    pw: Weights,
    max_states: usize,
    max_depth: usize,
    /// The greatest depth of a component so far.
    max_rec_depth: u32,
    /// Scratch buffers of [`Space::step`].
    xs: Vec<u32>,
    ys: Vec<u32>,
    terms: Vec<TermId>,
    par_moves: Vec<ParMove>,
    built: Vec<(Act, TermId)>,
    /// The components with moves.
    live: Vec<Live>,
    /// The moves of the state being stepped, before their successors are
    /// looked up (see [`Space::pend`]).
    pending: Vec<Pending>,
}

/// The tag of the vector hash.
const TAG: u64 = 5;
/// Up to this many components, synchronisations are found pairwise.
const PAIRWISE_MAX: usize = 12;
/// No record / moves not computed.
const NONE: u32 = u32::MAX;

impl Space {
    /// The space of the agent `root\wrap` (`root` itself without a wrap),
    /// with `root` as state 0. Unless `shared_start`, state 0 is not found
    /// again when `root` is reached (a constant is a different state from
    /// its body).
    pub(crate) fn new(
        arena: &mut Arena,
        root: TermId,
        wrap: Option<&[Name]>,
        shared_start: bool,
        max_states: usize,
        max_depth: usize,
    ) -> Self {
        let mut sp = Space {
            wrap: wrap.map(NameSet::new),
            rec_idx: Vec::new(),
            recs: Vec::new(),
            hot: Vec::new(),
            timings: Vec::new(),
            acts: Vec::new(),
            targets: Vec::new(),
            listed: Vec::new(),
            pool: Vec::new(),
            off: vec![0],
            table: IdTable::default(),
            pw: Weights::default(),
            max_states,
            max_depth,
            max_rec_depth: 0,
            xs: Vec::new(),
            ys: Vec::new(),
            terms: Vec::new(),
            par_moves: Vec::new(),
            built: Vec::new(),
            live: Vec::new(),
            pending: Vec::new(),
        };
        let mut xs = Vec::new();
        sp.push_flat(arena, root, &mut xs);
        sp.pool.extend_from_slice(&xs);
        sp.off.push(sp.pool.len() as u32);
        if shared_start {
            let h = sp.hash_vec(&xs);
            sp.table.insert(h, 0);
        }
        sp
    }

    /// Starts loading what stepping state `s` reads first.
    #[inline]
    pub(crate) fn prefetch(&self, s: usize) {
        if s + 1 >= self.off.len() {
            return;
        }
        let (a, b) = (self.off[s] as usize, self.off[s + 1] as usize);
        for &r in &self.pool[a..b] {
            prefetch_index::prefetch_index(&self.hot, r as usize);
        }
    }

    /// Number of states found so far.
    pub(crate) fn len(&self) -> usize {
        self.off.len() - 1
    }

    /// The component terms of state `s`.
    pub(crate) fn components(&self, s: usize) -> Vec<TermId> {
        self.pool[self.off[s] as usize..self.off[s + 1] as usize]
            .iter()
            .map(|&r| self.recs[r as usize].term)
            .collect()
    }

    /// State `s` as an arena term (the `P'` of `P'\L` under a wrap).
    pub(crate) fn term(&self, arena: &mut Arena, s: usize) -> TermId {
        arena.par(self.components(s))
    }

    /// The transitions of state `s` (Def 5.2.7): appends `(action,
    /// successor state)` in the order of the multiset of
    /// [`Arena::transitions`] and returns their common delay, or `None`
    /// (appending nothing) if `s` has none. New successors get the next
    /// state numbers in the order of their first edge.
    ///
    /// The immediate moves come first: a state with any has delay 0 and
    /// they are its transitions (an action that can start at 0 is a move
    /// at 0, and the other way round). Only a state without them needs the
    /// components' timings, to find its delay.
    pub(crate) fn step(
        &mut self,
        arena: &mut Arena,
        s: usize,
        out: &mut Vec<(Act, u32)>,
    ) -> Result<Option<Tm>, Limit> {
        let mut xs = std::mem::take(&mut self.xs);
        xs.clear();
        xs.extend_from_slice(&self.pool[self.off[s] as usize..self.off[s + 1] as usize]);
        let res = self.step_with::<false>(arena, &mut xs, out, &mut Explained::default());
        self.xs = xs;
        res
    }

    /// How the transitions of the explored state `s` came about: who acted
    /// in each (in the order of [`Space::step`]) and how a delay split the
    /// components. For witness runs: it steps `s` again, which finds only
    /// known successors.
    pub(crate) fn explain(&mut self, arena: &mut Arena, s: usize) -> Explained {
        let mut xs = self.pool[self.off[s] as usize..self.off[s + 1] as usize].to_vec();
        let mut why = Explained::default();
        let mut out = Vec::new();
        // An explored state's successors are all known: no limit is hit.
        let _ = self.step_with::<true>(arena, &mut xs, &mut out, &mut why);
        why.components = xs.iter().map(|&r| self.recs[r as usize].term).collect();
        debug_assert_eq!(why.moves.len(), out.len());
        debug_assert!(why.moves.iter().zip(&out).all(|(m, &(a, _))| m.act() == a));
        why
    }

    /// [`Space::step`] on the records `xs` (left as the vector that acted),
    /// recording in `why` who acted when `EXPLAIN`.
    fn step_with<const EXPLAIN: bool>(
        &mut self,
        arena: &mut Arena,
        xs: &mut Vec<u32>,
        out: &mut Vec<(Act, u32)>,
        why: &mut Explained,
    ) -> Result<Option<Tm>, Limit> {
        let from = out.len();
        let mut res = self
            .moves_into::<EXPLAIN>(arena, xs, out, why)
            .map(|()| Some(Tm::ZERO));
        if res.is_ok() && out.len() == from {
            res = match self.earliest(arena, xs) {
                None => Ok(None),
                Some(u) => {
                    debug_assert!(!u.is_zero(), "an action at 0 is an immediate move");
                    let spans = EXPLAIN.then(Vec::new);
                    why.spans = self.delay(arena, xs, &u, spans);
                    self.moves_into::<EXPLAIN>(arena, xs, out, why)
                        .map(|()| Some(u))
                }
            };
        }
        res
    }

    /// The timing of record `r`, computed on first use.
    fn timing(&mut self, arena: &mut Arena, r: u32) -> &Timing {
        let k = self.recs[r as usize].timing;
        if k != NONE {
            return &self.timings[k as usize];
        }
        let info = arena.component_summary(self.recs[r as usize].term);
        let vis = arena.vis_range(info.vis);
        let mut own = info.tau.clone();
        let mut vis_min = None;
        for (a, v) in vis {
            min_tm(&mut vis_min, v);
            if self.wrap_passes(*a) {
                min_tm(&mut own, v);
            }
        }
        let split = vis.partition_point(|(a, _)| matches!(a, Act::Name(_))) as u32;
        let k = u32::try_from(self.timings.len()).expect("fewer than 2^32 components");
        room(&mut self.timings, 1);
        self.timings.push(Timing {
            own,
            vis_min,
            vis: info.vis,
            split,
            acts: info.acts,
            coacts: info.coacts,
            fixed: info.fixed,
        });
        self.recs[r as usize].timing = k;
        &self.timings[k as usize]
    }

    /// The earliest time at which the composition of the records `xs`
    /// (under the wrap) can act.
    fn earliest(&mut self, arena: &mut Arena, xs: &[u32]) -> Option<Tm> {
        for &r in xs {
            self.timing(arena, r);
        }
        let t = |r: u32| &self.timings[self.recs[r as usize].timing as usize];
        let mut u = None;
        for &r in xs {
            if let Some(v) = &t(r).own {
                min_tm(&mut u, v);
            }
        }
        if xs.len() > PAIRWISE_MAX {
            let mut terms = std::mem::take(&mut self.terms);
            terms.clear();
            terms.extend(xs.iter().map(|&r| self.recs[r as usize].term));
            arena.sync_tau(&terms, &mut u);
            self.terms = terms;
            return u;
        }
        for (k, &i) in xs.iter().enumerate() {
            let a = t(i);
            let Some(amin) = &a.vis_min else { continue };
            for &j in &xs[k + 1..] {
                let b = t(j);
                if a.coacts & b.acts == 0 {
                    continue;
                }
                let Some(bmin) = &b.vis_min else { continue };
                // No synchronisation of the pair starts before both can act.
                if u.as_ref().is_some_and(|u| amin.max(bmin) >= u) {
                    continue;
                }
                let (va, vb) = (arena.vis_range(a.vis), arena.vis_range(b.vis));
                let (sa, sb) = (a.split as usize, b.split as usize);
                merge_sync(&va[..sa], &vb[sb..], &mut u);
                merge_sync(&vb[..sb], &va[sa..], &mut u);
            }
        }
        u
    }

    /// Replaces the records `xs` by those of their terms delayed by `u`
    /// (flattened); with `spans`, also returns how many records each
    /// became.
    fn delay(
        &mut self,
        arena: &mut Arena,
        xs: &mut Vec<u32>,
        u: &Tm,
        mut spans: Option<Vec<u32>>,
    ) -> Option<Vec<u32>> {
        let mut ys = std::mem::take(&mut self.ys);
        ys.clear();
        for &r in xs.iter() {
            let before = ys.len();
            // The timings are known: `earliest` computed them.
            let rec = &self.recs[r as usize];
            if self.timings[rec.timing as usize].fixed {
                ys.push(r);
            } else {
                let y = arena.delay_tm(rec.term, u);
                self.push_flat(arena, y, &mut ys);
            }
            if let Some(sp) = &mut spans {
                sp.push((ys.len() - before) as u32);
            }
        }
        std::mem::swap(xs, &mut ys);
        self.ys = ys;
        spans
    }

    /// Appends the records of the components of `t` (none for `nil`, the
    /// operands of a composition, else `t` itself) to `out`.
    fn push_flat(&mut self, arena: &mut Arena, t: TermId, out: &mut Vec<u32>) {
        match arena.get(t) {
            Term::Nil => {}
            Term::Par(zs) => {
                let mut terms = std::mem::take(&mut self.terms);
                terms.clear();
                terms.extend_from_slice(zs);
                for &z in &terms {
                    out.push(self.rec(arena, z));
                }
                self.terms = terms;
            }
            _ => out.push(self.rec(arena, t)),
        }
    }

    /// The moves of the composition of the records `xs` under the wrap:
    /// each component's own moves that pass, in component order, then the
    /// synchronisations of pairs `i < j`.
    /// With `EXPLAIN`, also records who acted in each move in `why`.
    fn moves_into<const EXPLAIN: bool>(
        &mut self,
        arena: &mut Arena,
        xs: &[u32],
        out: &mut Vec<(Act, u32)>,
        why: &mut Explained,
    ) -> Result<(), Limit> {
        let mut live = std::mem::take(&mut self.live);
        let res = self.moves_with::<EXPLAIN>(arena, xs, &mut live, out, why);
        self.live = live;
        res
    }

    /// [`Space::moves_into`] with its scratch list of the components with
    /// moves.
    fn moves_with<const EXPLAIN: bool>(
        &mut self,
        arena: &mut Arena,
        xs: &[u32],
        live: &mut Vec<Live>,
        out: &mut Vec<(Act, u32)>,
        why: &mut Explained,
    ) -> Result<(), Limit> {
        // One pass over the components: their moves (listed on first
        // use), the hash accumulator, and the components with moves.
        live.clear();
        let (mut any0, mut any2) = (0, 0);
        let mut own = 0;
        self.pw.cover(xs.len());
        let mut acc = 0u64;
        for (i, &r) in xs.iter().enumerate() {
            let mut hot = self.hot[r as usize];
            if hot.start == NONE {
                hot = self.list_moves(arena, r);
            }
            acc = acc.wrapping_add(self.pw.term(i, r));
            if hot.len != 0 {
                live.push(Live {
                    pos: i as u32,
                    rec: r,
                    hot,
                });
                any0 |= hot.fps[0];
                any2 |= hot.fps[2];
                own |= hot.len;
            }
        }
        if own & PASSES != 0 {
            for l in live.iter() {
                if l.hot.len & PASSES == 0 {
                    continue;
                }
                for k in l.hot.range() {
                    let a = self.acts[k];
                    if !self.wrap_passes(a) {
                        continue;
                    }
                    let p = self.target(arena, l.rec, k);
                    self.pend(xs, acc, a, &[(l.pos, p)]);
                    if EXPLAIN {
                        let part = (l.pos, a, self.flat_len(arena, p));
                        why.moves.push(Acted {
                            slots: [part, part],
                            len: 1,
                        });
                    }
                }
            }
        }
        // Synchronisations: only components whose co-actions meet some
        // component's actions start a pair.
        for (k, li) in live.iter().enumerate() {
            let fi = &li.hot.fps;
            if fi[1] & any0 == 0 || fi[3] & any2 == 0 {
                continue;
            }
            for lj in &live[k + 1..] {
                let fj = &lj.hot.fps;
                if fi[1] & fj[0] == 0 || fi[3] & fj[2] == 0 {
                    continue;
                }
                for ki in li.hot.range() {
                    let Some(co) = self.acts[ki].complement() else {
                        continue;
                    };
                    if fj[0] & act_bit(co) == 0 || fj[2] & act_bit2(co) == 0 {
                        continue;
                    }
                    for kj in lj.hot.range() {
                        if self.acts[kj] != co {
                            continue;
                        }
                        let p = self.target(arena, li.rec, ki);
                        let q = self.target(arena, lj.rec, kj);
                        self.pend(xs, acc, Act::Tau, &[(li.pos, p), (lj.pos, q)]);
                        if EXPLAIN {
                            let (a, b) = (self.acts[ki], co);
                            why.moves.push(Acted {
                                slots: [
                                    (li.pos, a, self.flat_len(arena, p)),
                                    (lj.pos, b, self.flat_len(arena, q)),
                                ],
                                len: 2,
                            });
                        }
                    }
                }
            }
        }
        self.resolve(arena, xs, out)
    }

    /// Notes a move of the vector `xs` (with hash accumulator `acc`) whose
    /// successor replaces the components at the positions of `repl`, and
    /// starts loading the table slot of that successor when its hash is
    /// known.
    #[inline]
    fn pend(&mut self, xs: &[u32], acc: u64, act: Act, repl: &[(u32, Target)]) {
        let mut hash = Some(acc);
        for &(i, t) in repl {
            hash = match (hash, t) {
                (Some(h), Target::Comp(r)) => Some(self.pw.swap(h, i as usize, xs[i as usize], r)),
                _ => None,
            };
        }
        let h = hash.map(|acc| seq_finish(TAG, xs.len(), acc));
        if let Some(h) = h {
            self.table.prefetch(h);
        }
        let mut slots = [(0, Target::Comp(0)); 2];
        for (slot, &m) in slots.iter_mut().zip(repl) {
            *slot = m;
        }
        self.pending.push(Pending {
            act,
            repl: slots,
            len: repl.len() as u8,
            hash: h,
        });
    }

    /// Finds or adds the successors of the moves noted by [`Space::pend`],
    /// in order, and appends them to `out`.
    fn resolve(
        &mut self,
        arena: &mut Arena,
        xs: &[u32],
        out: &mut Vec<(Act, u32)>,
    ) -> Result<(), Limit> {
        let mut res = Ok(());
        for k in 0..self.pending.len() {
            let m = self.pending[k];
            if k > 0 && self.same_removal(arena, xs, &self.pending[k - 1], &m) {
                // The same successor as the move before: no rebuild, no lookup.
                let s = out.last().expect("the move before was resolved").1;
                out.push((m.act, s));
                continue;
            }
            match self.successor(arena, xs, m.hash, &m.repl[..m.len as usize]) {
                Ok(s) => out.push((m.act, s)),
                Err(l) => {
                    res = Err(l);
                    break;
                }
            }
        }
        self.pending.clear();
        res
    }

    /// Whether moves `a` and then `b` of `xs` both remove one component (their targets are
    /// `nil`) from a run of equal components: their successors are the same vector. With
    /// `k` equal components (`par i in 1..p : W`) this makes a step O(k) instead of O(k²)
    /// (each removal would rebuild and compare a vector of length k).
    #[inline]
    fn same_removal(&self, arena: &Arena, xs: &[u32], a: &Pending, b: &Pending) -> bool {
        if a.len != 1 || b.len != 1 {
            return false;
        }
        let ((i, ta), (j, tb)) = (a.repl[0], b.repl[0]);
        let nil = |t: Target| matches!(t, Target::Term(p) if matches!(arena.get(p), Term::Nil));
        let (i, j) = (i as usize, j as usize);
        i < j && nil(ta) && nil(tb) && xs[i..=j].iter().all(|&x| x == xs[i])
    }

    /// The number of components a move's (built) target flattens into.
    fn flat_len(&self, arena: &Arena, t: Target) -> u32 {
        match t {
            Target::Comp(_) => 1,
            Target::Term(p) => match arena.get(p) {
                Term::Nil => 0,
                Term::Par(zs) => zs.len() as u32,
                _ => 1,
            },
            Target::Listed(_) => unreachable!("targets are built before use"),
        }
    }

    /// Whether action `a` passes the wrap.
    #[inline]
    fn wrap_passes(&self, a: Act) -> bool {
        self.wrap.as_ref().is_none_or(|w| w.passes(a))
    }

    /// The hash of the vector `xs`.
    fn hash_vec(&mut self, xs: &[u32]) -> u32 {
        let acc = self.pw.acc(xs.iter().copied());
        seq_finish(TAG, xs.len(), acc)
    }

    /// The state of `xs` with the components at the (increasing) positions
    /// of `repl` replaced, found or added. When the replacements are
    /// components, `hash` is the successor's hash (found in O(1) from that
    /// of `xs` by [`Space::pend`]), and the vector is compared in place.
    #[inline]
    fn successor(
        &mut self,
        arena: &mut Arena,
        xs: &[u32],
        hash: Option<u32>,
        repl: &[(u32, Target)],
    ) -> Result<u32, Limit> {
        let Some(h) = hash else {
            return self.successor_flat(arena, xs, repl);
        };
        let comp = |&(i, t): &(u32, Target)| match t {
            Target::Comp(r) => (i as usize, r),
            _ => unreachable!("a hashed successor replaces components"),
        };
        let mut comps = [(0usize, 0u32); 2];
        for (k, m) in repl.iter().enumerate() {
            comps[k] = comp(m);
        }
        let comps = &comps[..repl.len()];
        if let Some(s) = self.find(h, |zs| same_but(zs, xs, comps.iter().copied())) {
            return Ok(s);
        }
        let start = self.pool.len();
        room(&mut self.pool, xs.len());
        self.pool.extend_from_slice(xs);
        for &(i, r) in comps {
            self.pool[start + i] = r;
        }
        self.add(start, h)
    }

    /// [`Space::successor`] when a replacement is not a component: the
    /// vector is rebuilt with the replacements flattened.
    #[cold]
    #[inline(never)]
    fn successor_flat(
        &mut self,
        arena: &mut Arena,
        xs: &[u32],
        repl: &[(u32, Target)],
    ) -> Result<u32, Limit> {
        let mut ys = std::mem::take(&mut self.ys);
        ys.clear();
        let mut from = 0;
        for &(i, t) in repl {
            let i = i as usize;
            ys.extend_from_slice(&xs[from..i]);
            match t {
                Target::Comp(r) => ys.push(r),
                Target::Term(p) => self.push_flat(arena, p, &mut ys),
                Target::Listed(_) => unreachable!("targets are built before use"),
            }
            from = i + 1;
        }
        ys.extend_from_slice(&xs[from..]);
        let h = self.hash_vec(&ys);
        let res = match self.find(h, |zs| zs == &ys[..]) {
            Some(s) => Ok(s),
            None => {
                let start = self.pool.len();
                room(&mut self.pool, ys.len());
                self.pool.extend_from_slice(&ys);
                self.add(start, h)
            }
        };
        self.ys = ys;
        res
    }

    /// The state whose vector has hash `h` and satisfies `same`, if any.
    fn find(&self, h: u32, same: impl Fn(&[u32]) -> bool) -> Option<u32> {
        let (pool, off) = (&self.pool, &self.off);
        self.table.find(h, |s| {
            same(&pool[off[s as usize] as usize..off[s as usize + 1] as usize])
        })
    }

    /// Makes the vector `pool[start..]` (with hash `h`) a new state, unless
    /// it exceeds a limit (then it is dropped).
    fn add(&mut self, start: usize, h: u32) -> Result<u32, Limit> {
        let zs = &self.pool[start..];
        // A vector is at most two levels deeper than its deepest component.
        let depth = match zs {
            _ if self.max_rec_depth as usize + 2 <= self.max_depth => 0,
            [] => 1,
            [x] => {
                let r = &self.recs[*x as usize];
                r.depth as usize + usize::from(self.wrap.is_some() && !r.terminated)
            }
            _ => {
                let d = zs.iter().map(|&x| self.recs[x as usize].depth).max();
                d.unwrap_or(0) as usize + 1 + usize::from(self.wrap.is_some())
            }
        };
        let limit = if self.len() >= self.max_states {
            Some(Limit::States)
        } else if depth > self.max_depth {
            Some(Limit::Depth)
        } else {
            None
        };
        if let Some(l) = limit {
            self.pool.truncate(start);
            return Err(l);
        }
        let s = crate::id_table::id(self.len()).expect("fewer than 2^32 - 1 states");
        room(&mut self.off, 1);
        self.off
            .push(u32::try_from(self.pool.len()).expect("component pool below 2^32"));
        self.table.insert(h, s);
        Ok(s)
    }

    /// The record of component `x`, built on first use.
    fn rec(&mut self, arena: &mut Arena, x: TermId) -> u32 {
        let i = Arena::index_of(x);
        if let Some(&r) = self.rec_idx.get(i) {
            if r != NONE {
                return r;
            }
        }
        let r = u32::try_from(self.recs.len()).expect("fewer than 2^32 components");
        let depth = u32::try_from(arena.depth(x)).unwrap_or(u32::MAX);
        self.max_rec_depth = self.max_rec_depth.max(depth);
        room(&mut self.recs, 1);
        room(&mut self.hot, 1);
        self.recs.push(Rec {
            term: x,
            timing: NONE,
            depth,
            terminated: *arena.get(x) == Term::Terminated,
        });
        self.hot.push(Hot {
            start: NONE,
            len: 0,
            fps: [0; 4],
        });
        if self.rec_idx.len() <= i {
            let n = arena.len().max(i + 1);
            let extra = n - self.rec_idx.len();
            room(&mut self.rec_idx, extra);
            self.rec_idx.resize(n, NONE);
        }
        self.rec_idx[i] = r;
        r
    }

    /// Lists the moves of record `r` (not listed yet) and returns their
    /// [`Hot`].
    #[cold]
    #[inline(never)]
    fn list_moves(&mut self, arena: &mut Arena, r: u32) -> Hot {
        let term = self.recs[r as usize].term;
        let from = self.acts.len();
        let mut listed = std::mem::take(&mut self.par_moves);
        listed.clear();
        if arena.restricted_move_list(term, &mut listed) {
            room(&mut self.listed, listed.len());
            room(&mut self.acts, listed.len());
            room(&mut self.targets, listed.len());
            for m in &listed {
                let k = u32::try_from(self.listed.len()).expect("move list below 2^32");
                self.listed.push(m.repl);
                self.acts.push(m.act);
                self.targets.push(Target::Listed(k));
            }
        } else {
            let mut built = std::mem::take(&mut self.built);
            built.clear();
            arena.moves_into(term, &mut built);
            room(&mut self.acts, built.len());
            room(&mut self.targets, built.len());
            self.acts.extend(built.iter().map(|m| m.0));
            self.targets.extend(built.iter().map(|m| Target::Term(m.1)));
            self.built = built;
        }
        self.par_moves = listed;
        let acts = &self.acts[from..];
        let fps = move_fingerprints(acts.iter().copied());
        let passes = acts.iter().any(|a| self.wrap_passes(*a));
        let len = u32::try_from(acts.len())
            .ok()
            .filter(|n| n & PASSES == 0)
            .expect("fewer than 2^31 moves of one component");
        let hot = Hot {
            start: u32::try_from(from).expect("move pool below 2^32"),
            len: len | if passes { PASSES } else { 0 },
            fps,
        };
        self.hot[r as usize] = hot;
        hot
    }

    /// The target of move `k` of record `r`: built and, if a component,
    /// given its record on first use.
    #[inline]
    fn target(&mut self, arena: &mut Arena, r: u32, k: usize) -> Target {
        match self.targets[k] {
            Target::Comp(c) => Target::Comp(c),
            _ => self.build_target(arena, r, k),
        }
    }

    /// [`Space::target`] for a target not built yet.
    #[cold]
    #[inline(never)]
    fn build_target(&mut self, arena: &mut Arena, r: u32, k: usize) -> Target {
        let t = match self.targets[k] {
            Target::Comp(c) => return Target::Comp(c),
            Target::Term(p) => p,
            Target::Listed(m) => {
                let term = self.recs[r as usize].term;
                arena.restricted_target(term, &self.listed[m as usize])
            }
        };
        let target = if arena.is_par_operand(t) {
            Target::Comp(self.rec(arena, t))
        } else {
            Target::Term(t)
        };
        self.targets[k] = target;
        target
    }
}

/// The one-step view of a term that the analysis explores, on the component explorer.
impl Arena {
    /// The multiset of transitions of `t` (Def 5.2.7): for the earliest time
    /// `u` (Δ), every `P' ∈ Action(Delay(P, u), α)`. Every move of
    /// `Delay(P, u)` has its action in Δ(P), because `u` is minimal over 𝒮(P).
    /// One step of the analysis's state space.
    /// Requires [`Arena::check_guarded`] to have passed.
    pub fn transitions(&mut self, t: TermId) -> Vec<Transition> {
        let (root, wrap) = match self.get(t) {
            Term::Restrict(x, l) => (*x, Some(l.clone())),
            _ => (t, None),
        };
        let mut space = Space::new(self, root, wrap.as_deref(), false, usize::MAX, usize::MAX);
        let mut out = Vec::new();
        let u = space.step(self, 0, &mut out).expect("no limits");
        let Some(u) = u else {
            return Vec::new();
        };
        let delay = u.to_big();
        out.into_iter()
            .map(|(act, s)| {
                let p = space.term(self, s as usize);
                let target = match &wrap {
                    Some(l) => self.restrict_ref(p, l),
                    None => p,
                };
                Transition {
                    act,
                    delay: delay.clone(),
                    target,
                }
            })
            .collect()
    }
}
