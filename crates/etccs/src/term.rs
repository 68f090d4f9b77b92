//! Hash-consed ETCCS terms and the eager semantics of spec §4.2
//! (next-action intervals, earliest actions Δ, `Delay`, `Action`).

use crate::linear::{LinExpr, Param};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// Exact time values (non-negative rationals).
pub type Time = BigRational;

/// A fast non-cryptographic hasher (the Fx hash of rustc) for the intern
/// and memo tables, which hash only our own small ids and times.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FxHasher`].
pub(crate) type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// A shared, memoised list of immediate moves.
type Moves = Arc<[(Act, TermId)]>;

/// An interned channel name (without polarity).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Name(pub u32);

/// An action: a name `a`, its co-name `a'`, or the silent action `tau`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Act {
    /// The silent (internal) action τ.
    Tau,
    /// A name `a`.
    Name(Name),
    /// A co-name `a'` (ā), complementary to `a`.
    CoName(Name),
}

impl Act {
    /// The complementary action (`a` ↔ `a'`); `None` for τ.
    pub fn complement(self) -> Option<Act> {
        match self {
            Act::Tau => None,
            Act::Name(n) => Some(Act::CoName(n)),
            Act::CoName(n) => Some(Act::Name(n)),
        }
    }

    /// The underlying name of a visible action; `None` for τ.
    pub fn name(self) -> Option<Name> {
        match self {
            Act::Tau => None,
            Act::Name(n) | Act::CoName(n) => Some(n),
        }
    }

    fn relabel(self, map: &[(Name, Name)]) -> Act {
        let f = |n: Name| {
            map.iter()
                .find(|(old, _)| *old == n)
                .map_or(n, |(_, new)| *new)
        };
        match self {
            Act::Tau => Act::Tau,
            Act::Name(n) => Act::Name(f(n)),
            Act::CoName(n) => Act::CoName(f(n)),
        }
    }
}

/// Identifier of an interned term. Equal ids ⇔ structurally equal terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TermId(u32);

/// Identifier of an interned symbolic bound (see [`Arena::sym_bound`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct SymId(u32);

/// Identifier of a named agent constant (introduced by `define`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ConstId(u32);

/// One node of an ETCCS term, in normal form (see [`Arena`]).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Term {
    /// `nil`: no actions.
    Nil,
    /// The `Terminated` placeholder: behaves as `nil` for timing, but marks
    /// successful termination for the deadlock check (spec §4.4, §8.1 item 3).
    Terminated,
    /// `α@v.P`: action α enabled from (relative) time `v` on, then `P`.
    Prefix(Act, Time, TermId),
    /// `α@e.P` with a symbolic lower bound `e` (a linear expression over
    /// `param`s, see [`Arena::sym_bound`]). Only the parametric analysis
    /// ([`crate::parametric`]) interprets it; the concrete semantics treats
    /// it as inert, and [`crate::analyse`] refuses agents that contain it.
    SymPrefix(Act, SymId, TermId),
    /// n-ary choice (flattened, at least two summands, no `nil` summands).
    Sum(Vec<TermId>),
    /// n-ary parallel composition (flattened, at least two components, no `nil`).
    Par(Vec<TermId>),
    /// `P\L`: restriction of the sorted, deduplicated set of names `L`.
    Restrict(TermId, Vec<Name>),
    /// `P[f]`: relabelling, a sorted list of `(old, new)` name pairs.
    Relabel(TermId, Vec<(Name, Name)>),
    /// A named agent constant (recursion goes through these).
    Const(ConstId),
}

/// One transition `P =(α,u)⇒ P'` of the eager transition system (Def 5.2.7).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Transition {
    /// The action α.
    pub act: Act,
    /// The delay `u` since the previous transition.
    pub delay: Time,
    /// The successor state `P'`.
    pub target: TermId,
}

/// Earliest start of each action ignoring pre-emption (a summary of 𝒮(P)).
#[derive(Clone, Default, Debug)]
struct Summary {
    /// Earliest start of a τ (explicit, or a synchronisation).
    tau: Option<Time>,
    /// Earliest lower bound of each visible action (intervals are `[v, ∞]`).
    vis: BTreeMap<Act, Time>,
}

fn min_opt(a: Option<Time>, b: &Time) -> Option<Time> {
    match a {
        Some(x) if x <= *b => Some(x),
        _ => Some(b.clone()),
    }
}

/// A hash-consing arena of ETCCS terms plus the table of agent constants.
///
/// Smart constructors keep terms in the normal form of spec §8.1 item 8:
/// `+` and `|` are flattened n-ary nodes, `nil` is dropped from both, a
/// single remaining operand replaces the node, and restriction or
/// relabelling of `nil` is `nil`. Structural identity (equal [`TermId`]s)
/// is the state identity used by the analysis.
#[derive(Default, Debug)]
pub struct Arena {
    terms: Vec<Term>,
    depths: Vec<u32>,
    index: FxHashMap<Term, TermId>,
    names: Vec<String>,
    name_index: HashMap<String, Name>,
    consts: Vec<(String, Option<TermId>)>,
    /// Memoised 𝒮(P) summaries, indexed by term id (cleared by `define`).
    summaries: Vec<Option<Arc<Summary>>>,
    /// Memoised earliest times, indexed by term id (cleared by `define`).
    earliests: Vec<Option<Option<Time>>>,
    /// Memoised immediate moves, indexed by term id (cleared by `define`).
    move_cache: Vec<Option<Moves>>,
    /// Memoised `Delay(P, u)` results (cleared by `define`).
    delay_cache: FxHashMap<(TermId, Time), TermId>,
    /// Interned symbolic bounds of [`Term::SymPrefix`].
    syms: Vec<LinExpr>,
    sym_index: HashMap<LinExpr, SymId>,
    /// Names of the symbolic parameters, indexed by [`Param`].
    params: Vec<String>,
}

impl Arena {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    fn intern(&mut self, t: Term) -> TermId {
        if let Some(id) = self.index.get(&t) {
            return *id;
        }
        let id = TermId(self.terms.len() as u32);
        let child = |x: &TermId| self.depths[x.0 as usize];
        let d = match &t {
            Term::Nil | Term::Terminated | Term::Const(_) => 0,
            Term::Prefix(_, _, c)
            | Term::SymPrefix(_, _, c)
            | Term::Restrict(c, _)
            | Term::Relabel(c, _) => child(c),
            Term::Sum(xs) | Term::Par(xs) => xs.iter().map(child).max().unwrap_or(0),
        };
        self.depths.push(d.saturating_add(1));
        self.terms.push(t.clone());
        self.index.insert(t, id);
        id
    }

    /// The node behind a term id.
    pub fn get(&self, t: TermId) -> &Term {
        &self.terms[t.0 as usize]
    }

    /// Nesting depth of a term (leaves and constants have depth 1; constant
    /// bodies are not counted).
    pub fn depth(&self, t: TermId) -> usize {
        self.depths[t.0 as usize] as usize
    }

    /// The dense index of a term id (`0..len()`), for side tables.
    pub fn index_of(t: TermId) -> usize {
        t.0 as usize
    }

    /// Number of distinct terms interned so far.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether no term has been interned yet.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Interns a channel name.
    pub fn name(&mut self, s: &str) -> Name {
        if let Some(n) = self.name_index.get(s) {
            return *n;
        }
        let n = Name(self.names.len() as u32);
        self.names.push(s.to_string());
        self.name_index.insert(s.to_string(), n);
        n
    }

    /// The text of an interned name.
    pub fn name_str(&self, n: Name) -> &str {
        &self.names[n.0 as usize]
    }

    /// Renders an action in thesis syntax: `a`, `a'` or `tau`.
    pub fn act_str(&self, a: Act) -> String {
        match a {
            Act::Tau => "tau".to_string(),
            Act::Name(n) => self.name_str(n).to_string(),
            Act::CoName(n) => format!("{}'", self.name_str(n)),
        }
    }

    /// `nil`.
    pub fn nil(&mut self) -> TermId {
        self.intern(Term::Nil)
    }

    /// The `Terminated` placeholder.
    pub fn terminated(&mut self) -> TermId {
        self.intern(Term::Terminated)
    }

    /// `α@v.P`. Negative bounds are clamped to 0.
    pub fn prefix(&mut self, act: Act, bound: Time, cont: TermId) -> TermId {
        let bound = if bound.is_negative() {
            Time::zero()
        } else {
            bound
        };
        self.intern(Term::Prefix(act, bound, cont))
    }

    /// `α@e.P` with a linear bound over parameters. A bound without
    /// parameters gives an ordinary [`Term::Prefix`].
    pub fn sym_prefix(&mut self, act: Act, bound: LinExpr, cont: TermId) -> TermId {
        if bound.is_constant() {
            return self.prefix(act, bound.constant_part().clone(), cont);
        }
        let id = match self.sym_index.get(&bound) {
            Some(id) => *id,
            None => {
                let id = SymId(self.syms.len() as u32);
                self.syms.push(bound.clone());
                self.sym_index.insert(bound, id);
                id
            }
        };
        self.intern(Term::SymPrefix(act, id, cont))
    }

    /// The linear bound behind a [`SymId`].
    pub fn sym_bound(&self, id: SymId) -> &LinExpr {
        &self.syms[id.0 as usize]
    }

    /// Declares a symbolic parameter (or looks it up) by name.
    pub fn param(&mut self, name: &str) -> Param {
        if let Some(i) = self.params.iter().position(|p| p == name) {
            return Param(i as u32);
        }
        self.params.push(name.to_string());
        Param((self.params.len() - 1) as u32)
    }

    /// Names of the symbolic parameters, indexed by [`Param`].
    pub fn param_names(&self) -> &[String] {
        &self.params
    }

    /// Whether a symbolic bound is reachable from `t` (through continuations
    /// and constant bodies): such an agent needs the parametric analysis.
    pub fn mentions_symbolic(&self, t: TermId) -> bool {
        self.reaches(t, |x| matches!(x, Term::SymPrefix(..)))
    }

    /// Whether some node satisfying `hit` is reachable from `t`.
    fn reaches(&self, t: TermId, hit: impl Fn(&Term) -> bool) -> bool {
        let mut seen = HashSet::new();
        let mut todo = vec![t];
        while let Some(x) = todo.pop() {
            if !seen.insert(x) {
                continue;
            }
            let node = self.get(x);
            if hit(node) {
                return true;
            }
            match node {
                Term::Nil | Term::Terminated => {}
                Term::Prefix(_, _, c) | Term::SymPrefix(_, _, c) => todo.push(*c),
                Term::Sum(xs) | Term::Par(xs) => todo.extend(xs.iter().copied()),
                Term::Restrict(y, _) | Term::Relabel(y, _) => todo.push(*y),
                Term::Const(c) => todo.extend(self.const_body(*c)),
            }
        }
        false
    }

    /// n-ary choice, flattened, with `nil` summands removed.
    pub fn sum(&mut self, parts: Vec<TermId>) -> TermId {
        let mut flat = Vec::with_capacity(parts.len());
        for p in parts {
            match self.get(p) {
                Term::Nil => {}
                Term::Sum(xs) => flat.extend(xs.iter().copied()),
                _ => flat.push(p),
            }
        }
        match flat.len() {
            0 => self.nil(),
            1 => flat[0],
            _ => self.intern(Term::Sum(flat)),
        }
    }

    /// n-ary parallel composition, flattened, with `nil` components removed.
    pub fn par(&mut self, parts: Vec<TermId>) -> TermId {
        let mut flat = Vec::with_capacity(parts.len());
        for p in parts {
            match self.get(p) {
                Term::Nil => {}
                Term::Par(xs) => flat.extend(xs.iter().copied()),
                _ => flat.push(p),
            }
        }
        match flat.len() {
            0 => self.nil(),
            1 => flat[0],
            _ => self.intern(Term::Par(flat)),
        }
    }

    /// `P\L`. Restricting `nil` or `Terminated` (which have no actions) is the identity.
    pub fn restrict(&mut self, t: TermId, mut names: Vec<Name>) -> TermId {
        names.sort();
        names.dedup();
        if names.is_empty() || matches!(self.get(t), Term::Nil | Term::Terminated) {
            return t;
        }
        self.intern(Term::Restrict(t, names))
    }

    /// `P[f]` with `f` given as `(old, new)` pairs; identity pairs are dropped.
    pub fn relabel(&mut self, t: TermId, mut map: Vec<(Name, Name)>) -> TermId {
        map.retain(|(o, n)| o != n);
        map.sort();
        map.dedup_by(|a, b| a.0 == b.0);
        if map.is_empty() || matches!(self.get(t), Term::Nil | Term::Terminated) {
            return t;
        }
        self.intern(Term::Relabel(t, map))
    }

    /// Declares (or looks up) an agent constant by name; its body is set by [`Arena::define`].
    pub fn constant(&mut self, name: &str) -> ConstId {
        if let Some(i) = self.consts.iter().position(|(n, _)| n == name) {
            return ConstId(i as u32);
        }
        self.consts.push((name.to_string(), None));
        ConstId((self.consts.len() - 1) as u32)
    }

    /// The term referring to an agent constant.
    pub fn const_term(&mut self, c: ConstId) -> TermId {
        self.intern(Term::Const(c))
    }

    /// Sets the body of an agent constant.
    pub fn define(&mut self, c: ConstId, body: TermId) {
        self.consts[c.0 as usize].1 = Some(body);
        self.summaries.clear();
        self.earliests.clear();
        self.move_cache.clear();
        self.delay_cache.clear();
    }

    /// The name of an agent constant.
    pub fn const_name(&self, c: ConstId) -> &str {
        &self.consts[c.0 as usize].0
    }

    /// The body of an agent constant (`None` if not yet defined).
    pub fn const_body(&self, c: ConstId) -> Option<TermId> {
        self.consts[c.0 as usize].1
    }

    /// Looks up an agent constant by name.
    pub fn find_const(&self, name: &str) -> Option<ConstId> {
        self.consts
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| ConstId(i as u32))
    }

    /// Constants occurring in `t` not under a prefix (unguarded occurrences).
    fn unguarded_consts(&self, t: TermId, out: &mut Vec<ConstId>) {
        match self.get(t) {
            Term::Nil | Term::Terminated | Term::Prefix(..) | Term::SymPrefix(..) => {}
            Term::Sum(xs) | Term::Par(xs) => {
                for x in xs {
                    self.unguarded_consts(*x, out);
                }
            }
            Term::Restrict(x, _) | Term::Relabel(x, _) => self.unguarded_consts(*x, out),
            Term::Const(c) => out.push(*c),
        }
    }

    /// Checks weak guardedness: no constant can reach itself without passing
    /// a prefix. Returns the first offending constant. All semantic functions
    /// assume this check has passed (otherwise unfolding would not terminate).
    pub fn check_guarded(&self) -> Result<(), ConstId> {
        let n = self.consts.len();
        let mut succ = vec![Vec::new(); n];
        for (i, (_, body)) in self.consts.iter().enumerate() {
            if let Some(b) = body {
                self.unguarded_consts(*b, &mut succ[i]);
            }
        }
        // Iterative three-colour DFS.
        let mut colour = vec![0u8; n];
        for root in 0..n {
            if colour[root] != 0 {
                continue;
            }
            let mut stack = vec![(root, 0usize)];
            colour[root] = 1;
            while let Some((v, i)) = stack.pop() {
                if i < succ[v].len() {
                    stack.push((v, i + 1));
                    let w = succ[v][i].0 as usize;
                    match colour[w] {
                        0 => {
                            colour[w] = 1;
                            stack.push((w, 0));
                        }
                        1 => return Err(ConstId(w as u32)),
                        _ => {}
                    }
                } else {
                    colour[v] = 2;
                }
            }
        }
        Ok(())
    }

    /// Whether the `Terminated` placeholder occurs anywhere reachable from `t`
    /// (through continuations and constant bodies).
    pub fn mentions_terminated(&self, t: TermId) -> bool {
        self.reaches(t, |x| matches!(x, Term::Terminated))
    }

    /// Whether `Terminated` is *active* in `t`: reachable without passing a
    /// prefix. With `Terminated := μX.τ₁.X` such a state would still be live.
    pub fn has_active_terminated(&self, t: TermId) -> bool {
        match self.get(t) {
            Term::Terminated => true,
            Term::Nil | Term::Prefix(..) | Term::SymPrefix(..) => false,
            Term::Sum(xs) | Term::Par(xs) => xs.iter().any(|x| self.has_active_terminated(*x)),
            Term::Restrict(x, _) | Term::Relabel(x, _) => self.has_active_terminated(*x),
            Term::Const(c) => self
                .const_body(*c)
                .is_some_and(|b| self.has_active_terminated(b)),
        }
    }

    /// Summary of 𝒮(P) (Defs 5.2.2–5.2.3): the earliest start of τ and of
    /// every visible action. Visible intervals are always `[v, ∞]`, so a
    /// synchronisation of `a`/`a'` starts at `max` of the partners' earliest
    /// bounds; pairs range only over actions actually present (the 𝒜 trick).
    fn summary(&mut self, t: TermId) -> Arc<Summary> {
        if let Some(Some(s)) = self.summaries.get(t.0 as usize) {
            return s.clone();
        }
        let s = match self.get(t).clone() {
            Term::Nil | Term::Terminated | Term::SymPrefix(..) => Summary::default(),
            Term::Prefix(a, v, _) => {
                let mut s = Summary::default();
                match a {
                    Act::Tau => s.tau = Some(v),
                    _ => {
                        s.vis.insert(a, v);
                    }
                }
                s
            }
            Term::Sum(xs) => {
                let mut s = Summary::default();
                for x in xs {
                    let sx = self.summary(x);
                    merge_into(&mut s, &sx);
                }
                s
            }
            Term::Par(xs) => {
                let parts: Vec<Arc<Summary>> = xs.iter().map(|x| self.summary(*x)).collect();
                let mut s = Summary::default();
                for i in 0..parts.len() {
                    for j in (i + 1)..parts.len() {
                        for (a, v) in &parts[i].vis {
                            let co = a.complement().expect("visible");
                            if let Some(w) = parts[j].vis.get(&co) {
                                let u = if v >= w { v } else { w };
                                s.tau = min_opt(s.tau.take(), u);
                            }
                        }
                    }
                }
                for p in &parts {
                    merge_into(&mut s, p);
                }
                s
            }
            Term::Restrict(x, l) => {
                let mut s = Summary::clone(&self.summary(x));
                s.vis
                    .retain(|a, _| a.name().is_none_or(|n| l.binary_search(&n).is_err()));
                s
            }
            Term::Relabel(x, f) => {
                let inner = self.summary(x);
                let mut s = Summary {
                    tau: inner.tau.clone(),
                    vis: BTreeMap::new(),
                };
                for (a, v) in &inner.vis {
                    let b = a.relabel(&f);
                    let cur = s.vis.remove(&b);
                    s.vis.insert(b, min_opt(cur, v).expect("some"));
                }
                s
            }
            Term::Const(c) => match self.const_body(c) {
                Some(b) => Summary::clone(&self.summary(b)),
                None => Summary::default(),
            },
        };
        let s = Arc::new(s);
        let i = t.0 as usize;
        if self.summaries.len() <= i {
            self.summaries.resize(i + 1, None);
        }
        self.summaries[i] = Some(s.clone());
        s
    }

    /// The earliest time `u` at which `t` can act (the common time of Δ(P)),
    /// or `None` if `t` has no transitions.
    pub fn earliest(&mut self, t: TermId) -> Option<Time> {
        let i = t.0 as usize;
        if let Some(Some(u)) = self.earliests.get(i) {
            return u.clone();
        }
        let s = self.summary(t);
        let mut u = s.tau.clone();
        for v in s.vis.values() {
            u = min_opt(u, v);
        }
        if self.earliests.len() <= i {
            self.earliests.resize(i + 1, None);
        }
        self.earliests[i] = Some(u.clone());
        u
    }

    /// `Delay(P, u)` (Def 5.2.5): lower bounds decrease by `u` (monus),
    /// distributing over `+`, `|`, `\L`, `[f]` and unfolding constants.
    pub fn delay(&mut self, t: TermId, u: &Time) -> TermId {
        if u.is_zero() {
            return t;
        }
        match self.get(t) {
            Term::Nil | Term::Terminated | Term::SymPrefix(..) => return t,
            Term::Prefix(..) => return self.delay_uncached(t, u),
            _ => {}
        }
        let key = (t, u.clone());
        if let Some(&r) = self.delay_cache.get(&key) {
            return r;
        }
        let r = self.delay_uncached(t, u);
        self.delay_cache.insert(key, r);
        r
    }

    fn delay_uncached(&mut self, t: TermId, u: &Time) -> TermId {
        match self.get(t).clone() {
            Term::Nil | Term::Terminated | Term::SymPrefix(..) => t,
            Term::Prefix(a, v, c) => {
                let nv = if v > *u { v - u } else { Time::zero() };
                self.prefix(a, nv, c)
            }
            Term::Sum(xs) => {
                let ys = xs.iter().map(|x| self.delay(*x, u)).collect();
                self.sum(ys)
            }
            Term::Par(xs) => {
                let ys = xs.iter().map(|x| self.delay(*x, u)).collect();
                self.par(ys)
            }
            Term::Restrict(x, l) => {
                let y = self.delay(x, u);
                self.restrict(y, l)
            }
            Term::Relabel(x, f) => {
                let y = self.delay(x, u);
                self.relabel(y, f)
            }
            Term::Const(c) => match self.const_body(c) {
                Some(b) => self.delay(b, u),
                None => self.nil(),
            },
        }
    }

    /// All immediate moves (`Action(P, α)` over every α, as one multiset):
    /// prefixes with lower bound 0, interleaving in `|`, synchronisation of
    /// `a` with `a'` giving τ, filtering by `\L`, mapping by `[f]`.
    fn moves(&mut self, t: TermId) -> Moves {
        if let Some(Some(m)) = self.move_cache.get(t.0 as usize) {
            return m.clone();
        }
        if matches!(self.get(t), Term::Par(_)) {
            // Parallel compositions are mostly whole states, each explored
            // once: caching them would only cost memory.
            return self.moves_uncached(t).into();
        }
        let m: Moves = self.moves_uncached(t).into();
        let i = t.0 as usize;
        if self.move_cache.len() <= i {
            self.move_cache.resize(i + 1, None);
        }
        self.move_cache[i] = Some(m.clone());
        m
    }

    fn moves_uncached(&mut self, t: TermId) -> Vec<(Act, TermId)> {
        match self.get(t).clone() {
            Term::Nil | Term::Terminated | Term::SymPrefix(..) => Vec::new(),
            Term::Prefix(a, v, c) => {
                if v.is_zero() {
                    vec![(a, c)]
                } else {
                    Vec::new()
                }
            }
            Term::Sum(xs) => {
                let mut out = Vec::new();
                for x in xs {
                    out.extend(self.moves(x).iter().copied());
                }
                out
            }
            Term::Par(xs) => {
                let per: Vec<Moves> = xs.iter().map(|x| self.moves(*x)).collect();
                let mut out = Vec::new();
                for (i, mi) in per.iter().enumerate() {
                    for (a, p) in mi.iter() {
                        let mut ys = xs.clone();
                        ys[i] = *p;
                        out.push((*a, self.par(ys)));
                    }
                }
                for i in 0..per.len() {
                    for j in (i + 1)..per.len() {
                        for (a, p) in per[i].iter() {
                            let Some(co) = a.complement() else { continue };
                            for (b, q) in per[j].iter() {
                                if *b == co {
                                    let mut ys = xs.clone();
                                    ys[i] = *p;
                                    ys[j] = *q;
                                    out.push((Act::Tau, self.par(ys)));
                                }
                            }
                        }
                    }
                }
                out
            }
            Term::Restrict(x, l) => {
                let inner = self.moves(x);
                inner
                    .iter()
                    .filter(|(a, _)| a.name().is_none_or(|n| l.binary_search(&n).is_err()))
                    .map(|&(a, p)| (a, self.restrict(p, l.clone())))
                    .collect()
            }
            Term::Relabel(x, f) => {
                let inner = self.moves(x);
                inner
                    .iter()
                    .map(|&(a, p)| (a.relabel(&f), self.relabel(p, f.clone())))
                    .collect()
            }
            Term::Const(c) => match self.const_body(c) {
                Some(b) => self.moves(b).to_vec(),
                None => Vec::new(),
            },
        }
    }

    /// The multiset of transitions of `t` (Def 5.2.7): for the earliest time
    /// `u` (Δ), every `P' ∈ Action(Delay(P, u), α)`. Every move of
    /// `Delay(P, u)` has its action in Δ(P), because `u` is minimal over 𝒮(P).
    /// Requires [`Arena::check_guarded`] to have passed.
    pub fn transitions(&mut self, t: TermId) -> Vec<Transition> {
        let Some(u) = self.earliest(t) else {
            return Vec::new();
        };
        let d = self.delay(t, &u);
        // The state itself is explored once: skip the move cache at the top.
        self.moves_uncached(d)
            .into_iter()
            .map(|(act, target)| Transition {
                act,
                delay: u.clone(),
                target,
            })
            .collect()
    }

    /// Renders a term in the extended syntax (`a@3.P`, `'a@4.P`, `tau@3.P`).
    pub fn display(&self, t: TermId) -> String {
        let mut s = String::new();
        self.write_term(t, &mut s, 0);
        s
    }

    fn write_term(&self, t: TermId, out: &mut String, ctx: u8) {
        // ctx: 0 = top/sum operand, 1 = par operand, 2 = postfix/prefix operand.
        match self.get(t) {
            Term::Nil => out.push_str("nil"),
            Term::Terminated => out.push_str("Terminated"),
            Term::Const(c) => out.push_str(self.const_name(*c)),
            Term::Prefix(a, _, c) | Term::SymPrefix(a, _, c) => {
                match a {
                    Act::Tau => out.push_str("tau"),
                    Act::Name(n) => out.push_str(self.name_str(*n)),
                    Act::CoName(n) => {
                        out.push('\'');
                        out.push_str(self.name_str(*n));
                    }
                }
                out.push('@');
                match self.get(t) {
                    Term::Prefix(_, v, _) => out.push_str(&v.to_string()),
                    Term::SymPrefix(_, b, _) => {
                        let e = self.sym_bound(*b);
                        let text = e.render(&self.params);
                        if e.terms().len() == 1
                            && e.constant_part().is_zero()
                            && !text.contains('*')
                        {
                            out.push_str(&text);
                        } else {
                            out.push('(');
                            out.push_str(&text);
                            out.push(')');
                        }
                    }
                    _ => {}
                }
                out.push('.');
                self.write_term(*c, out, 2);
            }
            Term::Sum(xs) | Term::Par(xs) => {
                let is_sum = matches!(self.get(t), Term::Sum(_));
                let need = if is_sum { ctx > 0 } else { ctx > 1 };
                if need {
                    out.push('(');
                }
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(if is_sum { " + " } else { " | " });
                    }
                    self.write_term(*x, out, if is_sum { 1 } else { 2 });
                }
                if need {
                    out.push(')');
                }
            }
            Term::Restrict(x, l) => {
                self.write_term(*x, out, 2);
                let names: Vec<&str> = l.iter().map(|n| self.name_str(*n)).collect();
                out.push_str(&format!("\\{{{}}}", names.join(",")));
            }
            Term::Relabel(x, f) => {
                self.write_term(*x, out, 2);
                let pairs: Vec<String> = f
                    .iter()
                    .map(|(o, n)| format!("{}/{}", self.name_str(*n), self.name_str(*o)))
                    .collect();
                out.push_str(&format!("[{}]", pairs.join(",")));
            }
        }
    }
}

fn merge_into(s: &mut Summary, other: &Summary) {
    if let Some(t) = &other.tau {
        s.tau = min_opt(s.tau.take(), t);
    }
    for (a, v) in &other.vis {
        let cur = s.vis.remove(a);
        s.vis.insert(*a, min_opt(cur, v).expect("some"));
    }
}
