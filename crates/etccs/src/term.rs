//! Hash-consed ETCCS terms and the eager semantics of spec §4.2
//! (next-action intervals, earliest actions Δ, `Delay`, `Action`).

use crate::grow::room;
use crate::id_table::IdTable;
use crate::linear::{LinExpr, Param};
use crate::time::Tm;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
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
/// A hash set with [`FxHasher`].
pub(crate) type FxHashSet<K> = std::collections::HashSet<K, BuildHasherDefault<FxHasher>>;

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

    pub(crate) fn relabel(self, map: &[(Name, Name)]) -> Act {
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
    Prefix(Act, Tm, TermId),
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
    Restrict(TermId, Arc<[Name]>),
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
#[derive(Clone, Debug)]
struct Summary {
    /// Earliest start of a τ (explicit, or a synchronisation).
    tau: Option<Tm>,
    /// Earliest lower bound of each visible action (intervals are `[v, ∞]`):
    /// the range `vis..vis + nvis` of `Arena::vis_pool`, sorted by action.
    vis: u32,
    nvis: u32,
    /// [`act_bit`]s of the visible actions and of their complements: two
    /// operands can synchronise only if `coacts` of one meets `acts` of the other.
    acts: u64,
    coacts: u64,
    /// Whether every delay leaves the term unchanged: all its active
    /// prefixes (not under another prefix) have bound 0 and no constant is
    /// active (delay unfolds those). Set by [`Arena::ensure_summary`].
    fixed: bool,
}

/// The parts of a term's [`Summary`] that [`crate::space`] reads.
pub(crate) struct ComponentSummary {
    /// Earliest start of a τ.
    pub(crate) tau: Option<Tm>,
    /// The visible list, for [`Arena::vis_range`].
    pub(crate) vis: (u32, u32),
    /// Fingerprints of the visible actions and of their complements.
    pub(crate) acts: u64,
    pub(crate) coacts: u64,
    /// Whether every delay leaves the term unchanged.
    pub(crate) fixed: bool,
}

const EMPTY_SUMMARY: Summary = Summary {
    tau: None,
    vis: 0,
    nvis: 0,
    acts: 0,
    coacts: 0,
    fixed: false,
};

/// A one-bit fingerprint of an action.
pub(crate) fn act_bit(a: Act) -> u64 {
    1 << (act_code(a).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
}

/// A second one-bit fingerprint of an action, independent of [`act_bit`].
pub(crate) fn act_bit2(a: Act) -> u64 {
    1 << (act_code(a).wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 58)
}

/// The `acts` / `coacts` fingerprints of a visible list.
fn masks(items: &[(Act, Tm)]) -> (u64, u64) {
    items.iter().fold((0, 0), |(m, c), (a, _)| {
        (m | act_bit(*a), c | a.complement().map_or(0, act_bit))
    })
}

/// `act_bit` and `act_bit2` fingerprints of the actions `acts` and of
/// their complements: `[acts, coacts, acts2, coacts2]`. Two operands can
/// synchronise only if `coacts` of one meets `acts` of the other in both.
pub(crate) fn move_fingerprints(acts: impl Iterator<Item = Act>) -> [u64; 4] {
    acts.fold([0; 4], |[m, c, m2, c2], a| {
        [
            m | act_bit(a),
            c | a.complement().map_or(0, act_bit),
            m2 | act_bit2(a),
            c2 | a.complement().map_or(0, act_bit2),
        ]
    })
}

/// A move of a composition, without its target: the action and the one
/// (interleaving) or two (synchronisation, action τ) operands it replaces,
/// by position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ParMove {
    pub(crate) act: Act,
    pub(crate) repl: Repl,
}

/// The one or two operands a move of a composition replaces, as
/// (position, new operand) by increasing position (16 bytes: a second
/// position of `u32::MAX` marks a move of one operand).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Repl([(u32, TermId); 2]);

impl ParMove {
    fn one(act: Act, i: usize, p: TermId) -> Self {
        ParMove {
            act,
            repl: Repl([(i as u32, p), (u32::MAX, p)]),
        }
    }

    fn two(i: usize, p: TermId, j: usize, q: TermId) -> Self {
        ParMove {
            act: Act::Tau,
            repl: Repl([(i as u32, p), (j as u32, q)]),
        }
    }
}

impl Repl {
    /// The replaced operands, by increasing position.
    fn replaced(&self) -> &[(u32, TermId)] {
        if self.0[1].0 == u32::MAX {
            &self.0[..1]
        } else {
            &self.0
        }
    }
}

/// A set of names as a bit set, for fast restriction tests.
#[derive(Clone, Debug)]
pub(crate) struct NameSet {
    bits: Vec<u64>,
}

impl NameSet {
    /// The set of the names `l`.
    pub(crate) fn new(l: &[Name]) -> Self {
        let mut bits = Vec::new();
        for n in l {
            let w = n.0 as usize / 64;
            if bits.len() <= w {
                bits.resize(w + 1, 0u64);
            }
            bits[w] |= 1 << (n.0 % 64);
        }
        NameSet { bits }
    }

    /// Whether `a` passes a restriction to this set (τ always does).
    #[inline]
    pub(crate) fn passes(&self, a: Act) -> bool {
        a.name().is_none_or(|n| {
            self.bits
                .get(n.0 as usize / 64)
                .is_none_or(|w| w & (1 << (n.0 % 64)) == 0)
        })
    }
}

/// Which moves of a composition [`Arena::par_moves_into`] lets through
/// (synchronisations always pass).
enum Filter<'a> {
    /// Every move.
    All,
    /// Moves outside a restriction set (looked up with [`Arena::mark`]).
    Names(&'a Arc<[Name]>),
}

/// No cached moves (see `Arena::move_idx`).
const NO_MOVES: u32 = u32::MAX;

/// The memoised immediate moves of one term.
#[derive(Clone, Copy, Debug)]
struct MovesMemo {
    /// A range of `Arena::move_pool`.
    start: u32,
    len: u32,
    /// Their [`move_fingerprints`].
    fps: [u64; 4],
}

/// How many recent restriction sets [`Arena::mark`] keeps.
const MARK_SETS: usize = 4;

/// Up to this many operands, synchronisations are found pairwise.
const SYNC_PAIRWISE_MAX: usize = 12;

/// Lowers `a` to `b` (`None` is above every time).
pub(crate) fn min_tm(a: &mut Option<Tm>, b: &Tm) {
    match a {
        Some(x) if *x <= *b => {}
        _ => *a = Some(b.clone()),
    }
}

/// Lowers `tau` to `max(v, w)` for every name `a` with bound `v` in `names`
/// and `w` for `a'` in `conames` (both sorted by name, one entry per action).
pub(crate) fn merge_sync(names: &[(Act, Tm)], conames: &[(Act, Tm)], tau: &mut Option<Tm>) {
    let (mut x, mut y) = (0, 0);
    while x < names.len() && y < conames.len() {
        let (n, m) = (names[x].0.name(), conames[y].0.name());
        match n.cmp(&m) {
            std::cmp::Ordering::Less => x += 1,
            std::cmp::Ordering::Greater => y += 1,
            std::cmp::Ordering::Equal => {
                let (v, w) = (&names[x].1, &conames[y].1);
                min_tm(tau, if v >= w { v } else { w });
                x += 1;
                y += 1;
            }
        }
    }
}

/// Sorts a visible list by action, keeping the least bound of each action.
fn sort_min(items: &mut Vec<(Act, Tm)>) {
    items.sort_unstable_by(|x, y| x.0.cmp(&y.0).then_with(|| x.1.cmp(&y.1)));
    items.dedup_by(|later, first| later.0 == first.0);
}

/// A dense code of an action, for hashing.
fn act_code(a: Act) -> u64 {
    match a {
        Act::Tau => 0,
        Act::Name(n) => (u64::from(n.0) << 2) | 1,
        Act::CoName(n) => (u64::from(n.0) << 2) | 2,
    }
}

fn hash_tm(h: &mut FxHasher, v: &Tm) {
    match v {
        Tm::Small(n, d) => {
            h.add(*n as u64);
            h.add(*d as u64);
        }
        Tm::Big(r) => r.hash(h),
    }
}

/// The 32-bit intern hash (the well-mixed high half of the Fx state).
fn finish(h: FxHasher) -> u32 {
    (h.0 >> 32) as u32
}

/// The multiplier of the position-dependent list hash (odd).
const SEQ_K: u64 = 0x9E37_79B9_7F4A_7C15;

/// The contribution of the id `x` (of a term, or of a record in
/// [`crate::space`]) to a list hash before its position weight.
#[inline]
pub(crate) fn mix_id(x: u32) -> u64 {
    (u64::from(x) + 1).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

/// The position weights `K^(i+1)` of the list hash, grown on demand: the
/// unmixed accumulator `Σ mix(x_i)·K^(i+1) mod 2^64` of a list and its O(1)
/// update when one id changes, for the arena's operand lists and the
/// space's component vectors alike.
#[derive(Clone, Debug, Default)]
pub(crate) struct Weights(Vec<u64>);

impl Weights {
    /// Grows the weights to cover lists of length `n`.
    pub(crate) fn cover(&mut self, n: usize) {
        while self.0.len() < n {
            let w = self.0.last().copied().unwrap_or(1).wrapping_mul(SEQ_K);
            self.0.push(w);
        }
    }

    /// The accumulator of the ids `xs`.
    pub(crate) fn acc(&mut self, xs: impl ExactSizeIterator<Item = u32>) -> u64 {
        self.cover(xs.len());
        xs.zip(&self.0).fold(0u64, |acc, (x, &w)| {
            acc.wrapping_add(mix_id(x).wrapping_mul(w))
        })
    }

    /// The term of id `x` at position `i` (covered) in an accumulator.
    #[inline]
    pub(crate) fn term(&self, i: usize, x: u32) -> u64 {
        mix_id(x).wrapping_mul(self.0[i])
    }

    /// `acc` with the id at position `i` (covered) changed from `old` to `new`.
    #[inline]
    pub(crate) fn swap(&self, acc: u64, i: usize, old: u32, new: u32) -> u64 {
        acc.wrapping_add(
            mix_id(new)
                .wrapping_sub(mix_id(old))
                .wrapping_mul(self.0[i]),
        )
    }
}

/// Whether `zs` is `xs` with the entries at the (increasing) positions of
/// `repl` replaced, compared in place.
pub(crate) fn same_but<T: PartialEq + Copy>(
    zs: &[T],
    xs: &[T],
    repl: impl IntoIterator<Item = (usize, T)>,
) -> bool {
    if zs.len() != xs.len() {
        return false;
    }
    // Element by element: the lists are short, and a slice comparison
    // calls `memcmp` for each run between replacements.
    let same = |a: &[T], b: &[T]| a.iter().zip(b).all(|(x, y)| x == y);
    let mut from = 0;
    repl.into_iter().all(|(i, p)| {
        let ok = same(&zs[from..i], &xs[from..i]) && zs[i] == p;
        from = i + 1;
        ok
    }) && same(&zs[from..], &xs[from..])
}

/// The intern hash of a list of `len` operands with accumulator `acc`.
#[inline]
pub(crate) fn seq_finish(tag: u64, len: usize, acc: u64) -> u32 {
    let mut z = acc ^ (tag << 59) ^ (len as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
    z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    z = (z ^ (z >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    z ^= z >> 33;
    (z >> 32) as u32
}

fn hash_seq(w: &mut Weights, tag: u64, xs: &[TermId]) -> u32 {
    seq_finish(tag, xs.len(), w.acc(xs.iter().map(|x| x.0)))
}

fn hash_prefix(a: Act, v: &Tm, c: TermId) -> u32 {
    let mut h = FxHasher(2);
    h.add(act_code(a));
    hash_tm(&mut h, v);
    h.add(u64::from(c.0));
    finish(h)
}

fn hash_restrict(x: TermId, l: &[Name]) -> u32 {
    let mut h = FxHasher(6);
    // Restriction sets are long and rarely differ for one operand: hash
    // their size and ends only (equality still compares them in full).
    h.add(u64::from(x.0));
    h.add(l.len() as u64);
    if let (Some(a), Some(b)) = (l.first(), l.last()) {
        h.add((u64::from(a.0) << 32) | u64::from(b.0));
    }
    finish(h)
}

/// The intern-table hash of a term; the specialised lookups
/// ([`hash_seq`], [`hash_prefix`], [`hash_restrict`]) agree with it.
fn hash_term(w: &mut Weights, t: &Term) -> u32 {
    match t {
        Term::Sum(xs) => hash_seq(w, 4, xs),
        Term::Par(xs) => hash_seq(w, 5, xs),
        Term::Prefix(a, v, c) => hash_prefix(*a, v, *c),
        Term::Restrict(x, l) => hash_restrict(*x, l),
        _ => {
            let mut h = FxHasher(9);
            t.hash(&mut h);
            finish(h)
        }
    }
}

/// A hash-consing arena of ETCCS terms plus the table of agent constants.
///
/// Smart constructors keep terms in the normal form of spec §8.1 item 8:
/// `+` and `|` are flattened n-ary nodes, `nil` is dropped from both, a
/// single remaining operand replaces the node, and restriction or
/// relabelling of `nil` is `nil`. Structural identity (equal [`TermId`]s)
/// is the state identity used by the analysis.
#[derive(Clone, Default, Debug)]
pub struct Arena {
    terms: Vec<Term>,
    depths: Vec<u32>,
    /// Per term: neither `nil` nor a composition (see [`Arena::is_par_operand`]).
    plain: Vec<bool>,
    /// The intern table: ids of `terms` with their [`hash_term`].
    index: IdTable,
    names: Vec<String>,
    name_index: HashMap<String, Name>,
    consts: Vec<(String, Option<TermId>)>,
    /// Memoised 𝒮(P) summaries (cleared by `define`): the position in
    /// `sums` of each term's summary, by term id (`u32::MAX`: none yet).
    summary_idx: Vec<u32>,
    sums: Vec<Summary>,
    /// The visible-action lists of the summaries.
    vis_pool: Vec<(Act, Tm)>,
    /// Memoised immediate moves (cleared by `define`): by term id, an index
    /// of `move_memos` or [`NO_MOVES`]. Few terms have memoised moves (the
    /// exploration keeps the moves of its components itself), so the
    /// memos are kept apart from the per-term index.
    move_idx: Vec<u32>,
    move_memos: Vec<MovesMemo>,
    move_pool: Vec<(Act, TermId)>,
    /// Memoised `Delay(P, u)` results (cleared by `define`).
    delay_cache: FxHashMap<(TermId, Tm), TermId>,
    /// Scratch buffer of [`Arena::par_ref`].
    flat: Vec<TermId>,
    /// Reusable buffers of [`Arena::par_moves_into`] (a stack: it recurses).
    move_bufs: Vec<Vec<(Act, TermId)>>,
    id_bufs: Vec<Vec<TermId>>,
    mask_bufs: Vec<Vec<[u64; 4]>>,
    /// Position weights of the operand-list hash.
    weights: Weights,
    par_move_bufs: Vec<Vec<ParMove>>,
    src_bufs: Vec<Vec<(u32, u32, bool)>>,
    /// Reusable buffers of [`Arena::combine`] and [`Arena::sync_tau_sorted`].
    vis_buf: Vec<(Act, Tm)>,
    sync_buf: Vec<(Act, Tm, u32)>,
    /// Recent restrictions with a bit set of their names (see [`Arena::mark`]).
    marks: Vec<(Arc<[Name]>, NameSet)>,
    mark_next: usize,
    /// Interned symbolic bounds of [`Term::SymPrefix`].
    syms: Vec<LinExpr>,
    sym_index: HashMap<LinExpr, SymId>,
    /// Names of the symbolic parameters, indexed by [`Param`].
    params: Vec<String>,
    /// Whether the `Terminated` placeholder has been interned.
    any_terminated: bool,
}

impl Arena {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    fn intern(&mut self, t: Term) -> TermId {
        let h = hash_term(&mut self.weights, &t);
        if let Some(id) = self.lookup(h, |x| *x == t) {
            return id;
        }
        self.insert_new(h, t)
    }

    /// The interned term with hash `h` satisfying `eq`.
    #[inline]
    fn lookup(&self, h: u32, eq: impl Fn(&Term) -> bool) -> Option<TermId> {
        let terms = &self.terms;
        self.index.find(h, |id| eq(&terms[id as usize])).map(TermId)
    }

    /// Adds a term known to be absent, with its hash `h`.
    fn insert_new(&mut self, h: u32, t: Term) -> TermId {
        let id = TermId(crate::id_table::id(self.terms.len()).expect("fewer than 2^32 - 1 terms"));
        let child = |x: &TermId| self.depths[x.0 as usize];
        let d = match &t {
            Term::Nil | Term::Terminated | Term::Const(_) => 0,
            Term::Prefix(_, _, c)
            | Term::SymPrefix(_, _, c)
            | Term::Restrict(c, _)
            | Term::Relabel(c, _) => child(c),
            Term::Sum(xs) | Term::Par(xs) => xs.iter().map(child).max().unwrap_or(0),
        };
        room(&mut self.depths, 1);
        room(&mut self.plain, 1);
        room(&mut self.terms, 1);
        self.any_terminated |= matches!(t, Term::Terminated);
        self.depths.push(d.saturating_add(1));
        self.plain.push(!matches!(t, Term::Nil | Term::Par(_)));
        self.terms.push(t);
        self.index.insert(h, id.0);
        id
    }

    /// Interns `Par(xs)` (or `Sum(xs)`) for an already normal operand list,
    /// allocating only when the term is new.
    fn intern_seq(&mut self, par: bool, xs: &[TermId]) -> TermId {
        let h = hash_seq(&mut self.weights, if par { 5 } else { 4 }, xs);
        let found = self.lookup(h, |x| match x {
            Term::Par(ys) => par && ys[..] == *xs,
            Term::Sum(ys) => !par && ys[..] == *xs,
            _ => false,
        });
        if let Some(id) = found {
            return id;
        }
        let t = if par {
            Term::Par(xs.to_vec())
        } else {
            Term::Sum(xs.to_vec())
        };
        self.insert_new(h, t)
    }

    /// `α@v.P` for a non-negative compact bound.
    fn prefix_tm(&mut self, a: Act, v: &Tm, c: TermId) -> TermId {
        let h = hash_prefix(a, v, c);
        let found = self.lookup(h, |x| match x {
            Term::Prefix(b, w, d) => *b == a && *d == c && w == v,
            _ => false,
        });
        if let Some(id) = found {
            return id;
        }
        self.insert_new(h, Term::Prefix(a, v.clone(), c))
    }

    /// `P\L` for a sorted, deduplicated, non-empty `L` (shared, not copied,
    /// by a new term): for restriction sets taken from existing terms.
    pub(crate) fn restrict_ref(&mut self, t: TermId, l: &Arc<[Name]>) -> TermId {
        if matches!(self.get(t), Term::Nil | Term::Terminated) {
            return t;
        }
        let h = hash_restrict(t, l);
        let found = self.lookup(h, |x| match x {
            Term::Restrict(x, m) => *x == t && (Arc::ptr_eq(m, l) || m[..] == l[..]),
            _ => false,
        });
        if let Some(id) = found {
            return id;
        }
        self.insert_new(h, Term::Restrict(t, Arc::clone(l)))
    }

    /// [`Arena::par`] of `ys`, a normal operand list (no `nil`, no `Par`, at
    /// least two operands) except possibly for the operands `new`: the
    /// list is interned directly unless one of those needs normalising.
    fn par_replaced(&mut self, ys: &[TermId], new: &[TermId]) -> TermId {
        if new
            .iter()
            .any(|p| matches!(self.get(*p), Term::Nil | Term::Par(_)))
        {
            return self.par_ref(ys);
        }
        debug_assert!(ys.len() >= 2);
        debug_assert!(ys
            .iter()
            .all(|y| !matches!(self.get(*y), Term::Nil | Term::Par(_))));
        self.intern_seq(true, ys)
    }

    /// [`Arena::par`] of a borrowed operand list.
    fn par_ref(&mut self, parts: &[TermId]) -> TermId {
        let mut flat = std::mem::take(&mut self.flat);
        flat.clear();
        for &p in parts {
            match self.get(p) {
                Term::Nil => {}
                Term::Par(xs) => flat.extend_from_slice(xs),
                _ => flat.push(p),
            }
        }
        let r = match flat.len() {
            0 => self.nil(),
            1 => flat[0],
            _ => self.intern_seq(true, &flat),
        };
        self.flat = flat;
        r
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
        self.prefix_tm(act, &Tm::from_big(&bound), cont)
    }

    /// `α@e.P` with a linear bound over parameters. A bound without
    /// parameters gives an ordinary [`Term::Prefix`].
    pub fn sym_prefix(&mut self, act: Act, bound: LinExpr, cont: TermId) -> TermId {
        if bound.is_constant() {
            let b = bound.constant_part();
            let b = if b.is_negative() { Tm::ZERO } else { b.clone() };
            return self.prefix_tm(act, &b, cont);
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
        // Every symbolic prefix has its bound in `syms`: without any, no
        // walk is needed (a concrete model's check costs nothing).
        !self.syms.is_empty() && self.reaches(t, |x| matches!(x, Term::SymPrefix(..)))
    }

    /// Whether some node satisfying `hit` is reachable from `t`.
    fn reaches(&self, t: TermId, hit: impl Fn(&Term) -> bool) -> bool {
        let mut seen = FxHashSet::default();
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
            _ => self.intern_seq(false, &flat),
        }
    }

    /// n-ary parallel composition, flattened, with `nil` components removed.
    pub fn par(&mut self, parts: Vec<TermId>) -> TermId {
        self.par_ref(&parts)
    }

    /// `P\L`. Restricting `nil` or `Terminated` (which have no actions) is the identity.
    pub fn restrict(&mut self, t: TermId, mut names: Vec<Name>) -> TermId {
        names.sort();
        names.dedup();
        if names.is_empty() {
            return t;
        }
        self.restrict_ref(t, &names.into())
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
        self.summary_idx.clear();
        self.sums.clear();
        self.vis_pool.clear();
        self.move_idx.clear();
        self.move_memos.clear();
        self.move_pool.clear();
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
        // Without the placeholder in the arena, no walk is needed.
        self.any_terminated && self.reaches(t, |x| matches!(x, Term::Terminated))
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

    /// Whether `t` still has an action to do: a prefix reachable without passing a prefix.
    /// A state with no transitions whose components have one is stuck, not finished.
    pub fn has_pending_prefix(&self, t: TermId) -> bool {
        match self.get(t) {
            Term::Prefix(..) | Term::SymPrefix(..) => true,
            Term::Nil | Term::Terminated => false,
            Term::Sum(xs) | Term::Par(xs) => xs.iter().any(|x| self.has_pending_prefix(*x)),
            Term::Restrict(x, _) | Term::Relabel(x, _) => self.has_pending_prefix(*x),
            Term::Const(c) => self
                .const_body(*c)
                .is_some_and(|b| self.has_pending_prefix(b)),
        }
    }

    /// Summary of 𝒮(P) (Defs 5.2.2–5.2.3): the earliest start of τ and of
    /// every visible action. Visible intervals are always `[v, ∞]`, so a
    /// synchronisation of `a`/`a'` starts at `max` of the partners' earliest
    /// bounds; pairs range only over actions actually present (the 𝒜 trick).
    /// Memoised in `sums` (indexed through `summary_idx`).
    fn ensure_summary(&mut self, t: TermId) {
        let i = t.0 as usize;
        if self.summary(t).is_some() {
            return;
        }
        let mut s = self.compute_summary(t);
        s.fixed = self.is_fixed(t);
        if self.summary_idx.len() <= i {
            self.summary_idx.resize(i + 1, u32::MAX);
        }
        self.summary_idx[i] = u32::try_from(self.sums.len()).expect("fewer than 2^32 summaries");
        self.sums.push(s);
    }

    /// The memoised summary of `t`, if computed.
    fn summary(&self, t: TermId) -> Option<&Summary> {
        match self.summary_idx.get(t.0 as usize) {
            Some(&k) if k != u32::MAX => Some(&self.sums[k as usize]),
            _ => None,
        }
    }

    /// Whether `Delay(t, u) = t` for every `u`, judged from the operands'
    /// memoised summaries (`false` when unknown).
    fn is_fixed(&self, t: TermId) -> bool {
        let f = |x: &TermId| self.summary(*x).is_some_and(|s| s.fixed);
        match self.get(t) {
            Term::Nil | Term::Terminated | Term::SymPrefix(..) => true,
            Term::Prefix(_, v, _) => v.is_zero(),
            Term::Sum(xs) | Term::Par(xs) => xs.iter().all(f),
            Term::Restrict(x, _) | Term::Relabel(x, _) => match self.get(*x) {
                Term::Par(ys) => ys.iter().all(f),
                _ => f(x),
            },
            Term::Const(_) => false,
        }
    }

    /// The memoised summary of `t` (after [`Arena::ensure_summary`]).
    fn summary_of(&self, t: TermId) -> &Summary {
        self.summary(t).expect("summary computed")
    }

    /// The summary of `t` as the component explorer ([`crate::space`]) needs it.
    pub(crate) fn component_summary(&mut self, t: TermId) -> ComponentSummary {
        self.ensure_summary(t);
        let s = self.summary_of(t);
        ComponentSummary {
            tau: s.tau.clone(),
            vis: (s.vis, s.nvis),
            acts: s.acts,
            coacts: s.coacts,
            fixed: s.fixed,
        }
    }

    /// A visible list of a [`ComponentSummary`].
    pub(crate) fn vis_range(&self, (start, len): (u32, u32)) -> &[(Act, Tm)] {
        &self.vis_pool[start as usize..(start + len) as usize]
    }

    fn vis_of(&self, s: &Summary) -> &[(Act, Tm)] {
        &self.vis_pool[s.vis as usize..(s.vis + s.nvis) as usize]
    }

    /// A summary with this τ start and sorted, deduplicated visible list
    /// (pooled, with its fingerprints).
    fn summary_with(&mut self, tau: Option<Tm>, items: &[(Act, Tm)]) -> Summary {
        let (acts, coacts) = masks(items);
        let (vis, nvis) = self.push_vis(items);
        Summary {
            tau,
            vis,
            nvis,
            acts,
            coacts,
            fixed: false,
        }
    }

    /// Stores a visible list in the pool (an empty one needs no space).
    fn push_vis(&mut self, items: &[(Act, Tm)]) -> (u32, u32) {
        if items.is_empty() {
            return (0, 0);
        }
        let k = u32::try_from(self.vis_pool.len()).expect("summary pool below 2^32");
        self.vis_pool.extend_from_slice(items);
        (k, items.len() as u32)
    }

    /// The operands of the `Par` (or `Sum`) node `p`, in a buffer from `id_bufs`
    /// (to be given back there).
    fn operands(&mut self, p: TermId) -> Vec<TermId> {
        let mut v = self.id_bufs.pop().unwrap_or_default();
        v.clear();
        if let Term::Par(xs) | Term::Sum(xs) = self.get(p) {
            v.extend_from_slice(xs);
        }
        v
    }

    /// The `Par` node behind `x`, looking through constants.
    fn par_node(&self, mut x: TermId) -> Option<TermId> {
        loop {
            match self.get(x) {
                Term::Par(_) => return Some(x),
                Term::Const(c) => x = self.const_body(*c)?,
                _ => return None,
            }
        }
    }

    fn compute_summary(&mut self, t: TermId) -> Summary {
        match self.get(t) {
            Term::Nil | Term::Terminated | Term::SymPrefix(..) => EMPTY_SUMMARY,
            Term::Prefix(a, v, _) => {
                let (a, v) = (*a, v.clone());
                if a == Act::Tau {
                    Summary {
                        tau: Some(v),
                        ..EMPTY_SUMMARY
                    }
                } else {
                    self.summary_with(None, &[(a, v)])
                }
            }
            Term::Sum(_) | Term::Par(_) => {
                let par = matches!(self.get(t), Term::Par(_));
                let xs = self.operands(t);
                let s = self.combine(&xs, par, None);
                self.id_bufs.push(xs);
                s
            }
            Term::Restrict(x, l) => {
                let (x, l) = (*x, l.clone());
                if let Some(p) = self.par_node(x) {
                    // Summarise the composition filtered at once: its own
                    // unrestricted summary is seldom needed again.
                    let xs = self.operands(p);
                    let s = self.combine(&xs, true, Some(&l));
                    self.id_bufs.push(xs);
                    return s;
                }
                self.ensure_summary(x);
                let s = self.summary_of(x).clone();
                let vis = self.vis_of(&s);
                let ok = |a: &Act| a.name().is_none_or(|n| l.binary_search(&n).is_err());
                if vis.iter().all(|(a, _)| ok(a)) {
                    return s;
                }
                let items: Vec<(Act, Tm)> = vis.iter().filter(|(a, _)| ok(a)).cloned().collect();
                self.summary_with(s.tau, &items)
            }
            Term::Relabel(x, f) => {
                let (x, f) = (*x, f.clone());
                self.ensure_summary(x);
                let s = self.summary_of(x).clone();
                let mut items: Vec<(Act, Tm)> = self
                    .vis_of(&s)
                    .iter()
                    .map(|(a, v)| (a.relabel(&f), v.clone()))
                    .collect();
                sort_min(&mut items);
                self.summary_with(s.tau, &items)
            }
            Term::Const(c) => match self.const_body(*c) {
                Some(b) => {
                    self.ensure_summary(b);
                    self.summary_of(b).clone()
                }
                None => EMPTY_SUMMARY,
            },
        }
    }

    /// Lowers `tau` to the earliest synchronisation between two of the
    /// (summarised) operands `xs`.
    pub(crate) fn sync_tau(&mut self, xs: &[TermId], tau: &mut Option<Tm>) {
        if xs.len() > SYNC_PAIRWISE_MAX {
            self.sync_tau_sorted(xs, tau);
        } else {
            self.sync_tau_pairwise(xs, tau);
        }
    }

    /// [`Arena::sync_tau`] pair by pair (few operands).
    fn sync_tau_pairwise(&self, xs: &[TermId], tau: &mut Option<Tm>) {
        if xs.len() > SYNC_PAIRWISE_MAX {
            // Not reached from `sync_tau`; kept general for the tests.
            for (k, &x) in xs.iter().enumerate() {
                for &y in &xs[k + 1..] {
                    self.sync_tau_pairwise(&[x, y], tau);
                }
            }
            return;
        }
        // The operands' summaries and fingerprints, gathered once.
        let mut sums = [(&EMPTY_SUMMARY, 0u64); SYNC_PAIRWISE_MAX];
        for (k, &x) in xs.iter().enumerate() {
            let s = self.summary_of(x);
            sums[k] = (s, s.acts);
        }
        let sums = &sums[..xs.len()];
        for (i, &(si, _)) in sums.iter().enumerate() {
            if si.coacts == 0 {
                continue;
            }
            for &(sj, acts_j) in &sums[i + 1..] {
                if si.coacts & acts_j == 0 {
                    continue;
                }
                // Both lists are sorted: names (by name) before co-names
                // (by name), so each polarity pairs up in one merge.
                let (vi, vj) = (self.vis_of(si), self.vis_of(sj));
                let ci = vi.partition_point(|(a, _)| matches!(a, Act::Name(_)));
                let cj = vj.partition_point(|(a, _)| matches!(a, Act::Name(_)));
                merge_sync(&vi[..ci], &vj[cj..], tau);
                merge_sync(&vj[..cj], &vi[ci..], tau);
            }
        }
    }

    /// [`Arena::sync_tau`] for many operands, in `O(N log N)` for `N`
    /// visible entries: the earliest synchronisation on `a` is
    /// `min` over operands `i ≠ j` of `max(v_i(a), v_j(a'))`, which only
    /// needs the two least bounds of `a` and of `a'`.
    fn sync_tau_sorted(&mut self, xs: &[TermId], tau: &mut Option<Tm>) {
        let mut all = std::mem::take(&mut self.sync_buf);
        all.clear();
        for (i, &x) in xs.iter().enumerate() {
            let s = self.summary_of(x);
            all.extend(
                self.vis_of(s)
                    .iter()
                    .map(|(a, v)| (*a, v.clone(), i as u32)),
            );
        }
        all.sort_unstable_by(|x, y| x.0.cmp(&y.0).then_with(|| x.1.cmp(&y.1)));
        let mut k = 0;
        while k < all.len() {
            let a = all[k].0;
            let end = k + all[k..].iter().take_while(|e| e.0 == a).count();
            // Each pair once: from the name's side.
            if let Act::Name(n) = a {
                let co = Act::CoName(n);
                let c = all.partition_point(|e| e.0 < co);
                let cend = c + all[c..].iter().take_while(|e| e.0 == co).count();
                if c < cend {
                    let (x1, y1) = (&all[k], &all[c]);
                    let max = |p: &Tm, q: &Tm| if p >= q { p.clone() } else { q.clone() };
                    if x1.2 != y1.2 {
                        min_tm(tau, &max(&x1.1, &y1.1));
                    } else {
                        // The least bounds share an operand: pair each with the
                        // other side's runner-up (bounds of one action are per
                        // operand, so the runner-up is another operand).
                        if let Some(y2) = all[c..cend].get(1) {
                            min_tm(tau, &max(&x1.1, &y2.1));
                        }
                        if let Some(x2) = all[k..end].get(1) {
                            min_tm(tau, &max(&x2.1, &y1.1));
                        }
                    }
                }
            }
            k = end;
        }
        self.sync_buf = all;
    }

    /// The bit set of the names of the restriction `l` (for
    /// [`NameSet::passes`]): an index into `marks`, valid until the next
    /// call (a few recent sets are kept; most calls repeat one of them).
    fn mark(&mut self, l: &Arc<[Name]>) -> usize {
        if let Some(k) = self
            .marks
            .iter()
            .position(|(m, _)| Arc::ptr_eq(m, l) || m[..] == l[..])
        {
            return k;
        }
        let set = (Arc::clone(l), NameSet::new(l));
        if self.marks.len() < MARK_SETS {
            self.marks.push(set);
            self.marks.len() - 1
        } else {
            let k = self.mark_next;
            self.mark_next = (k + 1) % MARK_SETS;
            self.marks[k] = set;
            k
        }
    }

    /// The summary of `Sum(xs)` or `Par(xs)` (with synchronisations),
    /// restricted to the names outside `filter` if given.
    fn combine(&mut self, xs: &[TermId], par: bool, filter: Option<&Arc<[Name]>>) -> Summary {
        for &x in xs {
            self.ensure_summary(x);
        }
        let mut tau: Option<Tm> = None;
        let mut items = std::mem::take(&mut self.vis_buf);
        items.clear();
        // The restriction is applied as the lists are collected: most
        // visible actions of a restricted composition are restricted.
        let mark = filter.map(|l| self.mark(l));
        let set = mark.map(|m| &self.marks[m].1);
        let mut single: Option<&Summary> = None;
        let mut nonempty = 0;
        for &x in xs {
            let s = self.summary_of(x);
            if let Some(t) = &s.tau {
                min_tm(&mut tau, t);
            }
            if s.nvis > 0 {
                nonempty += 1;
                single = Some(s);
                let vis = self.vis_of(s);
                match set {
                    Some(set) => items.extend(vis.iter().filter(|(a, _)| set.passes(*a)).cloned()),
                    None => items.extend_from_slice(vis),
                }
            }
        }
        let single = single.cloned();
        if par {
            self.sync_tau(xs, &mut tau);
        }
        let summary = match single {
            // One operand's list, unfiltered: share it.
            Some(one) if nonempty == 1 && items.len() == one.nvis as usize => Summary {
                tau,
                fixed: false,
                ..one
            },
            _ => {
                sort_min(&mut items);
                self.summary_with(tau, &items)
            }
        };
        self.vis_buf = items;
        summary
    }

    /// The earliest time at which `t` can act, compactly.
    fn earliest_tm(&mut self, t: TermId) -> Option<Tm> {
        self.ensure_summary(t);
        let s = self.summary_of(t);
        let mut u = s.tau.clone();
        for (_, v) in self.vis_of(s) {
            min_tm(&mut u, v);
        }
        u
    }

    /// The earliest time `u` at which `t` can act (the common time of Δ(P)),
    /// or `None` if `t` has no transitions.
    pub fn earliest(&mut self, t: TermId) -> Option<Time> {
        self.earliest_tm(t).map(|u| u.to_big())
    }

    /// `Delay(P, u)` (Def 5.2.5): lower bounds decrease by `u` (monus),
    /// distributing over `+`, `|`, `\L`, `[f]` and unfolding constants.
    pub fn delay(&mut self, t: TermId, u: &Time) -> TermId {
        self.delay_tm(t, &Tm::from_big(u))
    }

    pub(crate) fn delay_tm(&mut self, t: TermId, u: &Tm) -> TermId {
        if u.is_zero() {
            return t;
        }
        if self.summary(t).is_some_and(|s| s.fixed) {
            return t;
        }
        match self.get(t) {
            Term::Nil | Term::Terminated | Term::SymPrefix(..) | Term::Prefix(..) => {
                return self.delay_uncached(t, u)
            }
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

    fn delay_uncached(&mut self, t: TermId, u: &Tm) -> TermId {
        match self.get(t) {
            Term::Nil | Term::Terminated | Term::SymPrefix(..) => t,
            Term::Prefix(a, v, c) => {
                if v.is_zero() {
                    return t;
                }
                let (a, c, nv) = (*a, *c, v.monus(u));
                self.prefix_tm(a, &nv, c)
            }
            Term::Sum(_) | Term::Par(_) => {
                let is_par = matches!(self.get(t), Term::Par(_));
                let xs = self.operands(t);
                let mut ys = self.id_bufs.pop().unwrap_or_default();
                ys.clear();
                for &x in &xs {
                    let y = self.delay_tm(x, u);
                    ys.push(y);
                }
                let r = if ys == xs {
                    // Already normal: the same term.
                    t
                } else if is_par {
                    self.par_ref(&ys)
                } else {
                    self.sum(ys.clone())
                };
                self.id_bufs.push(xs);
                self.id_bufs.push(ys);
                r
            }
            Term::Restrict(x, _) => {
                let x = *x;
                let y = self.delay_tm(x, u);
                if y == x {
                    return t;
                }
                let Term::Restrict(_, l) = self.get(t) else {
                    unreachable!()
                };
                let l = l.clone();
                self.restrict_ref(y, &l)
            }
            Term::Relabel(x, f) => {
                let (x, f) = (*x, f.clone());
                let y = self.delay_tm(x, u);
                if y == x {
                    return t;
                }
                self.relabel(y, f)
            }
            Term::Const(c) => match self.const_body(*c) {
                Some(b) => self.delay_tm(b, u),
                None => self.nil(),
            },
        }
    }

    /// Appends all immediate moves of `t` (`Action(P, α)` over every α, as
    /// one multiset) to `out`: prefixes with lower bound 0, interleaving in
    /// `|`, synchronisation of `a` with `a'` giving τ, filtering by `\L`,
    /// mapping by `[f]`. Memoised except for prefixes and compositions.
    pub(crate) fn moves_into(&mut self, t: TermId, out: &mut Vec<(Act, TermId)>) {
        let i = t.0 as usize;
        match self.get(t) {
            Term::Prefix(a, v, c) => {
                if v.is_zero() {
                    out.push((*a, *c));
                }
                return;
            }
            // Parallel compositions are mostly whole states, each explored
            // once: caching them would only cost memory.
            Term::Par(_) => return self.moves_uncached_into(t, out),
            _ => {}
        }
        if let Some(m) = self.memo_of(i) {
            let (s, n) = (m.start as usize, m.len as usize);
            out.extend_from_slice(&self.move_pool[s..s + n]);
            return;
        }
        let from = out.len();
        self.moves_uncached_into(t, out);
        self.memo_moves(i, &out[from..]);
    }

    /// The memoised moves of the term with index `i`, if any.
    #[inline]
    fn memo_of(&self, i: usize) -> Option<MovesMemo> {
        match self.move_idx.get(i) {
            Some(&k) if k != NO_MOVES => Some(self.move_memos[k as usize]),
            _ => None,
        }
    }

    /// Memoises `moves` as the moves of the term with index `i`, with their
    /// fingerprints.
    fn memo_moves(&mut self, i: usize, moves: &[(Act, TermId)]) -> MovesMemo {
        let start = u32::try_from(self.move_pool.len()).expect("move pool below 2^32");
        self.move_pool.extend_from_slice(moves);
        if self.move_idx.len() <= i {
            let extra = i + 1 - self.move_idx.len();
            room(&mut self.move_idx, extra);
            self.move_idx.resize(i + 1, NO_MOVES);
        }
        let m = MovesMemo {
            start,
            len: moves.len() as u32,
            fps: move_fingerprints(moves.iter().map(|m| m.0)),
        };
        self.move_idx[i] = u32::try_from(self.move_memos.len()).expect("fewer than 2^32 memos");
        self.move_memos.push(m);
        m
    }

    /// The memoised moves of `t` in `move_pool`, with their fingerprints,
    /// computed if needed; `None` for compositions, whose moves are not
    /// memoised. Prefixes are memoised here (not by [`Arena::moves_into`]):
    /// as operands of the compositions whose moves [`Arena::par_move_list`]
    /// lists, their fingerprints are looked up rather than recomputed.
    fn cached_moves(&mut self, t: TermId) -> Option<MovesMemo> {
        let i = t.0 as usize;
        if let Some(m) = self.memo_of(i) {
            return Some(m);
        }
        if matches!(self.get(t), Term::Par(_)) {
            return None;
        }
        let mut buf = self.move_bufs.pop().unwrap_or_default();
        buf.clear();
        self.moves_uncached_into(t, &mut buf);
        let r = self.memo_moves(i, &buf);
        self.move_bufs.push(buf);
        Some(r)
    }

    fn moves_uncached_into(&mut self, t: TermId, out: &mut Vec<(Act, TermId)>) {
        match self.get(t) {
            Term::Nil | Term::Terminated | Term::SymPrefix(..) => {}
            Term::Prefix(a, v, c) => {
                if v.is_zero() {
                    out.push((*a, *c));
                }
            }
            Term::Sum(_) => {
                let xs = self.operands(t);
                for &x in &xs {
                    self.moves_into(x, out);
                }
                self.id_bufs.push(xs);
            }
            Term::Par(_) => {
                let xs = self.operands(t);
                self.par_moves_into(&xs, Filter::All, out);
                self.id_bufs.push(xs);
            }
            Term::Restrict(x, l) => {
                let (x, l) = (*x, Arc::clone(l));
                let from = out.len();
                if let Some(p) = self.par_node(x) {
                    // Only the moves the restriction lets through are built.
                    let xs = self.operands(p);
                    self.par_moves_into(&xs, Filter::Names(&l), out);
                    self.id_bufs.push(xs);
                } else {
                    let mut inner = Vec::new();
                    self.moves_into(x, &mut inner);
                    out.extend(
                        inner
                            .into_iter()
                            .filter(|(a, _)| a.name().is_none_or(|n| l.binary_search(&n).is_err())),
                    );
                }
                for m in &mut out[from..] {
                    m.1 = self.restrict_ref(m.1, &l);
                }
            }
            Term::Relabel(x, f) => {
                let (x, f) = (*x, f.clone());
                let mut inner = Vec::new();
                self.moves_into(x, &mut inner);
                for (a, p) in inner {
                    let q = self.relabel(p, f.clone());
                    out.push((a.relabel(&f), q));
                }
            }
            Term::Const(c) => {
                if let Some(b) = self.const_body(*c) {
                    self.moves_into(b, out);
                }
            }
        }
    }

    /// The moves of `Par(xs)` for a normal operand list `xs` (no `nil`, no
    /// `Par`, at least two operands): interleavings (only of actions outside
    /// `filter`, if given), then synchronisations, in the order of the
    /// multiset of Def 5.2.7.
    fn par_moves_into(&mut self, xs: &[TermId], filter: Filter<'_>, out: &mut Vec<(Act, TermId)>) {
        let mut list = self.par_move_bufs.pop().unwrap_or_default();
        list.clear();
        self.par_move_list(xs, filter, &mut list);
        if !list.is_empty() {
            let mut ys = self.id_bufs.pop().unwrap_or_default();
            let acc = self.weights.acc(xs.iter().map(|x| x.0));
            for m in &list {
                let r = self.par_successor(xs, acc, m.repl.replaced(), &mut ys);
                out.push((m.act, r));
            }
            self.id_bufs.push(ys);
        }
        self.par_move_bufs.push(list);
    }

    /// The moves of `Par(xs)` as [`Arena::par_moves_into`] lists them, each
    /// as the operands it replaces (its target is not built).
    fn par_move_list(&mut self, xs: &[TermId], filter: Filter<'_>, out: &mut Vec<ParMove>) {
        // Moves of operands that are not memoised (prefixes, compositions).
        let mut all = self.move_bufs.pop().unwrap_or_default();
        all.clear();
        // Each operand's moves: a range of `move_pool` (`true`) or of `all`.
        let mut src = self.src_bufs.pop().unwrap_or_default();
        src.clear();
        // `act_bit` and `act_bit2` fingerprints of each operand's actions
        // and co-actions.
        let mut fps = self.mask_bufs.pop().unwrap_or_default();
        fps.clear();
        for &x in xs {
            let r = match self.cached_moves(x) {
                Some(m) => {
                    fps.push(m.fps);
                    (m.start, m.start + m.len, true)
                }
                None => {
                    let from = all.len() as u32;
                    self.moves_into(x, &mut all);
                    let ms = &all[from as usize..];
                    fps.push(move_fingerprints(ms.iter().map(|m| m.0)));
                    (from, all.len() as u32, false)
                }
            };
            src.push(r);
        }
        // The `k`-th move of the pooled or local list.
        macro_rules! mv {
            ($pool:expr, $k:expr) => {
                if $pool {
                    self.move_pool[$k as usize]
                } else {
                    all[$k as usize]
                }
            };
        }
        // Nothing below marks another list: the mark set stays valid.
        let m = match filter {
            Filter::Names(l) => Some(self.mark(l)),
            _ => None,
        };
        let set = m.map(|m| &self.marks[m].1);
        for (i, &(s0, e0, pool)) in src.iter().enumerate() {
            for k in s0..e0 {
                let (a, p) = mv!(pool, k);
                if set.is_none_or(|set| set.passes(a)) {
                    out.push(ParMove::one(a, i, p));
                }
            }
        }
        // Only operands whose co-actions meet some operand's actions start
        // a pair.
        let (any0, any2) = fps.iter().fold((0, 0), |(a, b), f| (a | f[0], b | f[2]));
        for i in 0..xs.len() {
            let (si, ei, pi) = src[i];
            if si == ei || fps[i][1] & any0 == 0 || fps[i][3] & any2 == 0 {
                continue;
            }
            for j in (i + 1)..xs.len() {
                if fps[i][1] & fps[j][0] == 0 || fps[i][3] & fps[j][2] == 0 {
                    continue;
                }
                let (sj, ej, pj) = src[j];
                for ki in si..ei {
                    let (a, p) = mv!(pi, ki);
                    let Some(co) = a.complement() else { continue };
                    if fps[j][0] & act_bit(co) == 0 || fps[j][2] & act_bit2(co) == 0 {
                        continue;
                    }
                    for kj in sj..ej {
                        let (b, q) = mv!(pj, kj);
                        if b == co {
                            out.push(ParMove::two(i, p, j, q));
                        }
                    }
                }
            }
        }
        self.move_bufs.push(all);
        self.mask_bufs.push(fps);
        self.src_bufs.push(src);
    }

    /// The moves of a component `t = P\L` with `P` a composition (through
    /// constants), listed without building their targets (see
    /// [`Arena::restricted_target`]); `false` (nothing listed) for any other `t`.
    pub(crate) fn restricted_move_list(&mut self, t: TermId, out: &mut Vec<ParMove>) -> bool {
        let Term::Restrict(x, l) = self.get(t) else {
            return false;
        };
        let l = Arc::clone(l);
        let Some(p) = self.par_node(*x) else {
            return false;
        };
        let xs = self.operands(p);
        self.par_move_list(&xs, Filter::Names(&l), out);
        self.id_bufs.push(xs);
        true
    }

    /// The target of a move listed by [`Arena::restricted_move_list`] for `t`.
    pub(crate) fn restricted_target(&mut self, t: TermId, m: &Repl) -> TermId {
        let Term::Restrict(x, l) = self.get(t) else {
            unreachable!("a listed restriction")
        };
        let l = Arc::clone(l);
        let p = self.par_node(*x).expect("a listed composition");
        let xs = self.operands(p);
        let mut ys = self.id_bufs.pop().unwrap_or_default();
        let acc = self.weights.acc(xs.iter().map(|x| x.0));
        let r = self.par_successor(&xs, acc, m.replaced(), &mut ys);
        let r = self.restrict_ref(r, &l);
        self.id_bufs.push(xs);
        self.id_bufs.push(ys);
        r
    }

    /// The composition `xs` with the operands at the (increasing) positions
    /// of `repl` replaced. When the new operands keep the composition flat,
    /// its hash follows in O(1) from the parent's accumulator `acc` (with
    /// `weights` covering `xs`) and an existing term is found without
    /// building the list, which is allocated only when new; otherwise the
    /// list is built in `ys`.
    fn par_successor(
        &mut self,
        xs: &[TermId],
        acc: u64,
        repl: &[(u32, TermId)],
        ys: &mut Vec<TermId>,
    ) -> TermId {
        debug_assert!(repl.len() <= 2 && repl.windows(2).all(|w| w[0].0 < w[1].0));
        if repl.iter().all(|&(_, p)| self.is_par_operand(p)) {
            let acc = repl.iter().fold(acc, |h, &(i, p)| {
                self.weights.swap(h, i as usize, xs[i as usize].0, p.0)
            });
            let h = seq_finish(5, xs.len(), acc);
            let repl = repl.iter().map(|&(i, p)| (i as usize, p));
            let found = self.lookup(h, |t| match t {
                Term::Par(zs) => same_but(zs, xs, repl.clone()),
                _ => false,
            });
            if let Some(r) = found {
                return r;
            }
            let mut v = xs.to_vec();
            for (i, p) in repl {
                v[i] = p;
            }
            debug_assert_eq!(h, hash_seq(&mut self.weights, 5, &v));
            return self.insert_new(h, Term::Par(v));
        }
        ys.clear();
        ys.extend_from_slice(xs);
        let mut new = [TermId(0); 2];
        for (k, &(i, p)) in repl.iter().enumerate() {
            ys[i as usize] = p;
            new[k] = p;
        }
        self.par_replaced(ys, &new[..repl.len()])
    }

    /// Whether `p` can replace an operand of a normal `Par` list as is
    /// (neither `nil` nor a composition, which need flattening).
    #[inline]
    pub(crate) fn is_par_operand(&self, p: TermId) -> bool {
        self.plain[p.0 as usize]
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
                    Term::Prefix(_, v, _) => out.push_str(&v.to_big().to_string()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_synchronisation_agrees_with_pairwise() {
        let mut ar = Arena::new();
        let names: Vec<Name> = ["a", "b", "c"].iter().map(|s| ar.name(s)).collect();
        let nil = ar.nil();
        let mut rng = stats::rng::seeded(12_345);
        let mut rnd = move |m: u64| stats::rng::Draw::below(&mut rng, m);
        for _ in 0..500 {
            let n = 1 + rnd(24) as usize;
            let mut xs = Vec::new();
            for _ in 0..n {
                let mut parts = Vec::new();
                for _ in 0..1 + rnd(3) {
                    let nm = names[rnd(3) as usize];
                    let act = match rnd(3) {
                        0 => Act::Tau,
                        1 => Act::Name(nm),
                        _ => Act::CoName(nm),
                    };
                    let v = Time::new(rnd(7).into(), (1 + rnd(2)).into());
                    parts.push(ar.prefix(act, v, nil));
                }
                xs.push(ar.sum(parts));
            }
            for &x in &xs {
                ar.ensure_summary(x);
            }
            let (mut a, mut b) = (None, None);
            ar.sync_tau_sorted(&xs, &mut a);
            ar.sync_tau_pairwise(&xs, &mut b);
            assert_eq!(a, b);
        }
    }
}
