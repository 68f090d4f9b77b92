//! Concrete execution-time analysis (spec §4.4, §5.1): state-space
//! exploration, EXEC, PEXEC, min/max with witness runs, and the
//! termination / deadlock / non-termination outcome.

use crate::error::Error;
use crate::grow::room;
use crate::parse::Model;
use crate::space::{Limit, Space};
use crate::term::{Act, Arena, FxHashMap, Name, Term, TermId, Time};
use crate::time::Tm;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use sweep::{Meter, EVERY};

/// Analysis options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Abort with [`Error::Limit`] when more states than this are reached.
    pub max_states: usize,
    /// Abort with [`Error::TooDeep`] when a state is nested deeper than this.
    pub max_depth: usize,
    /// Progress counters to update while the analysis runs, for a display
    /// on another thread.
    pub meter: Option<Arc<Meter>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_states: 10_000_000,
            max_depth: 2_000,
            meter: None,
        }
    }
}

/// One step of a run: an action, its delay since the previous step, and
/// the components that made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The action in thesis syntax (`a`, `a'`, `tau`).
    pub action: String,
    /// Delay since the previous step.
    pub delay: Time,
    /// The components that acted: one for its own action, two for a
    /// synchronisation (a `tau` of the run).
    pub parties: Vec<Party>,
}

/// What one component did in a step of a [`Run`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Party {
    /// The component: an index of [`Run::lanes`].
    pub lane: usize,
    /// Its own action (`get`, `get'`, `tau`): each side of a
    /// synchronisation has its own.
    pub action: String,
    /// When (since the start of the run) the component last acted before,
    /// or came into being (the start, or a split of a composition).
    pub since: Time,
    /// When it could have taken this action on its own: `since` plus the
    /// least bound of the action then. The step came later when the
    /// component waited for its partner (contention).
    pub ready: Time,
}

impl Party {
    /// How long the component waited for its partner before the step at
    /// time `at` (zero when it acted as soon as it was ready).
    pub fn waited(&self, at: &Time) -> Time {
        if self.ready < *at {
            at - &self.ready
        } else {
            Time::zero()
        }
    }
}

/// A run from its first state with its total time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Sum of the delays.
    pub time: Time,
    /// The steps in order.
    pub steps: Vec<Step>,
    /// The components of the run, named by their term in the first state
    /// (`c0`, `c1`, … for long terms); a component that splits into a
    /// composition gives its parts lanes of their own (`name.1`, …).
    pub lanes: Vec<String>,
}

impl Run {
    /// The steps with the time (since the start of the run) at which each
    /// happened.
    pub fn timed_steps(&self) -> impl Iterator<Item = (Time, &Step)> + '_ {
        let mut now = Time::zero();
        self.steps.iter().map(move |st| {
            now += &st.delay;
            (now.clone(), st)
        })
    }
}

/// How the agent's executions end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every maximal run ends in a state without transitions that counts as
    /// successful termination (or the model does not use `Terminated`, in
    /// which case deadlock cannot be told apart and is not checked).
    Terminated,
    /// The model uses `Terminated`, and some run reaches a state without
    /// transitions in which `Terminated` is not active (with
    /// `Terminated := μX.τ₁.X` that state would not be live).
    Deadlock {
        /// A run into the first such state found (fewest steps).
        run: Run,
        /// The stuck state, in extended syntax.
        state: String,
    },
    /// The state graph has a cycle reachable from the start: some run never
    /// terminates, so EXEC is undefined (spec §8.1 item 4).
    NonTerminating {
        /// A run from the start to the first state of the cycle.
        prefix: Run,
        /// The steps of the cycle, back to its first state.
        cycle: Run,
    },
}

impl Outcome {
    /// `"terminated"`, `"deadlock"` or `"non-terminating"`.
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Terminated => "terminated",
            Outcome::Deadlock { .. } => "deadlock",
            Outcome::NonTerminating { .. } => "non-terminating",
        }
    }
}

/// Result of the concrete analysis of one agent.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The agent name.
    pub name: String,
    /// Number of distinct (structurally different) states reached.
    pub states: usize,
    /// EXEC: distinct execution times with the number of maximal paths
    /// taking that time (a multiset). Empty if non-terminating.
    pub exec: BTreeMap<Time, BigUint>,
    /// PEXEC: distinct execution times with exact probabilities (each
    /// transition of a state equally likely). Empty if non-terminating.
    pub pexec: BTreeMap<Time, BigRational>,
    /// A fastest run (`None` if non-terminating).
    pub min: Option<Run>,
    /// A slowest run (`None` if non-terminating).
    pub max: Option<Run>,
    /// Termination, deadlock or non-termination.
    pub outcome: Outcome,
    /// Warnings, e.g. unrestricted visible actions that eagerness fires.
    pub warnings: Vec<String>,
}

impl Analysis {
    /// Total number of maximal paths (the size of the EXEC multiset).
    pub fn paths(&self) -> BigUint {
        self.exec.values().sum()
    }

    /// The mean execution time: the expectation of PEXEC (each transition of
    /// a state equally likely), exact; `None` if non-terminating.
    pub fn mean(&self) -> Option<Time> {
        if self.pexec.is_empty() {
            return None;
        }
        Some(self.pexec.iter().map(|(t, p)| t * p).sum())
    }

    /// EXEC expanded to a sorted list, one time per path, capped at `limit` entries.
    pub fn exec_list(&self, limit: usize) -> Vec<Time> {
        let mut out = Vec::new();
        for (t, n) in &self.exec {
            let mut k = n.clone();
            while !k.is_zero() {
                if out.len() >= limit {
                    return out;
                }
                out.push(t.clone());
                k -= 1u32;
            }
        }
        out
    }
}

/// Analyses the agent `name` of `model` (see [`analyse_term`]).
pub fn analyse(model: &mut Model, name: &str, opts: &Options) -> Result<Analysis, Error> {
    let t = agent_term(model, name)?;
    analyse_term(&mut model.arena, t, name, opts)
}

/// The term of the agent `name` of `model`.
fn agent_term(model: &mut Model, name: &str) -> Result<TermId, Error> {
    model
        .agent(name)
        .ok_or_else(|| Error::UnknownAgent(name.to_string()))
}

/// Analyses every agent named by an `analyse` directive, in order.
pub fn analyse_all(model: &mut Model, opts: &Options) -> Result<Vec<Analysis>, Error> {
    let names = model.analyses.clone();
    names.iter().map(|n| analyse(model, n, opts)).collect()
}

/// Explores the eager transition system from `start` and computes EXEC,
/// PEXEC, min/max witnesses and the outcome. `arena` must have passed
/// [`Arena::check_guarded`] (as every parsed [`Model`] has).
/// Runs on a thread with a large stack, so that the depth limit
/// [`Options::max_depth`], not the caller's stack, bounds the recursion.
pub fn analyse_term(
    arena: &mut Arena,
    start: TermId,
    name: &str,
    opts: &Options,
) -> Result<Analysis, Error> {
    concrete_only(arena, start, name)?;
    sweep::deep_stack::run(|| analyse_inner(arena, start, name, opts))
}

/// The size of the state graph of the agent `name` of `model`: the
/// exploration of [`analyse`] without the analysis of the graph (no
/// EXEC/PEXEC fold, cycle check or witnesses). Cheap sizing of a model
/// before a full analysis, and the measure of exploration speed.
pub fn state_space(model: &mut Model, name: &str, opts: &Options) -> Result<StateSpace, Error> {
    let start = agent_term(model, name)?;
    let arena = &mut model.arena;
    concrete_only(arena, start, name)?;
    sweep::deep_stack::run(|| {
        let e = explore(arena, start, name, opts)?;
        Ok(StateSpace {
            states: e.space.len(),
            transitions: e.graph.to.len(),
        })
    })
}

/// The size of an explored state graph (see [`state_space`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateSpace {
    /// Distinct states reached.
    pub states: usize,
    /// Transitions between them (with multiplicity, Def 5.2.7).
    pub transitions: usize,
}

/// Rejects agents with free time variables (the parametric analysis's job).
fn concrete_only(arena: &Arena, start: TermId, name: &str) -> Result<(), Error> {
    if arena.mentions_symbolic(start) {
        return Err(Error::Symbolic {
            agent: name.to_string(),
            params: arena.param_names().join(", "),
        });
    }
    Ok(())
}

/// The explored state graph: per state the common delay of its
/// transitions; edges in compressed rows (`start[s]..start[s + 1]`). The
/// edges' actions are not kept: a witness run finds them again when it
/// explains its steps ([`Space::explain`]), and the analysis needs only
/// which names some edge carries.
struct Graph {
    /// Per state, the id of its delay in `delays` (distinct values: a few,
    /// and 0, id 0, for most states).
    delay: Vec<u32>,
    delays: Interned,
    start: Vec<u32>,
    to: Vec<u32>,
    /// Whether each name (by index) is the action of some edge.
    visible: Vec<bool>,
}

impl Graph {
    /// The common delay of the transitions of `s`.
    fn delay(&self, s: usize) -> &Tm {
        self.delays.get(self.delay[s])
    }

    /// The breadth-first tree of the exploration: for each state, the
    /// state and edge (its position among that state's edges) that first
    /// reached it (`u32::MAX` for the start). States are numbered in the
    /// order of their first edge, so this is the edge that created them.
    fn parents(&self) -> Vec<(u32, u32)> {
        let n = self.start.len() - 1;
        let mut parent = vec![(u32::MAX, 0); n];
        for s in 0..n {
            for (k, e) in self.edges(s).enumerate() {
                let t = self.to[e] as usize;
                if t != 0 && parent[t].0 == u32::MAX {
                    parent[t] = (s as u32, k as u32);
                }
            }
        }
        parent
    }

    /// Notes that an edge carries action `a`.
    fn note_action(&mut self, a: Act) {
        if let Some(nm) = a.name() {
            let x = nm.0 as usize;
            if self.visible.len() <= x {
                self.visible.resize(x + 1, false);
            }
            self.visible[x] = true;
        }
    }

    fn edges(&self, s: usize) -> std::ops::Range<usize> {
        self.start[s] as usize..self.start[s + 1] as usize
    }

    fn degree(&self, s: usize) -> usize {
        (self.start[s + 1] - self.start[s]) as usize
    }

    /// Target of the `k`-th edge of `s`.
    fn target(&self, s: usize, k: usize) -> usize {
        self.to[self.start[s] as usize + k] as usize
    }
}

/// The run along `path` (edges `(state, k)`, the `k`-th edge of `state`),
/// with who acted in each step, found by stepping its states again.
fn run_of(arena: &mut Arena, g: &Graph, space: &mut Space, path: &[(usize, usize)]) -> Run {
    let mut time = Tm::ZERO;
    let mut lanes = Lanes::start(arena, space, path.first().map_or(0, |p| p.0));
    let mut steps = Vec::with_capacity(path.len());
    for &(s, e) in path {
        time = time.add(g.delay(s));
        let why = space.explain(arena, s);
        if let Some(spans) = &why.spans {
            lanes.split(spans, &why.components, &time);
        }
        let acted = why.moves[e];
        let parties = acted
            .parts()
            .iter()
            .map(|&(pos, act, _)| {
                let lane = lanes.at[pos as usize];
                let (since, term) = &lanes.last[lane];
                // Not after the step (the least bound is a lower bound).
                let ready = least_bound(arena, *term, act)
                    .map_or(time.clone(), |b| since.add(&b).min(time.clone()));
                Party {
                    lane,
                    action: arena.act_str(act),
                    since: since.to_big(),
                    ready: ready.to_big(),
                }
            })
            .collect();
        let next = space.components(g.target(s, e));
        lanes.acted(acted.parts(), &next, &time);
        steps.push(Step {
            action: arena.act_str(acted.act()),
            delay: g.delay(s).to_big(),
            parties,
        });
    }
    Run {
        time: time.to_big(),
        steps,
        lanes: lanes.names,
    }
}

/// The least bound of action `a` in component `t` (its earliest τ for `tau`).
fn least_bound(arena: &mut Arena, t: TermId, a: Act) -> Option<Tm> {
    let info = arena.component_summary(t);
    if a == Act::Tau {
        return info.tau;
    }
    let vis = arena.vis_range(info.vis);
    vis.iter().find(|(b, _)| *b == a).map(|(_, v)| v.clone())
}

/// The components along a run: their names, the lane of each position of
/// the current state's vector, and each lane's last action (time and the
/// component term right after it).
struct Lanes {
    names: Vec<String>,
    at: Vec<usize>,
    last: Vec<(Tm, TermId)>,
}

/// Longer component terms are named by position.
const LANE_NAME_MAX: usize = 24;

impl Lanes {
    /// One lane per component of state `s`.
    fn start(arena: &Arena, space: &Space, s: usize) -> Self {
        let comps = space.components(s);
        let mut names: Vec<String> = comps
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let d = arena.display(t);
                if d.chars().count() <= LANE_NAME_MAX {
                    d
                } else {
                    format!("c{i}")
                }
            })
            .collect();
        let mut seen = std::collections::HashSet::new();
        if !names.iter().all(|n| seen.insert(n.clone())) {
            for (i, n) in names.iter_mut().enumerate() {
                *n = format!("{n}#{i}");
            }
        }
        Lanes {
            at: (0..comps.len()).collect(),
            last: comps.iter().map(|&t| (Tm::ZERO, t)).collect(),
            names,
        }
    }

    /// Position `pos` became `n` components with the terms `comps` at time
    /// `now`: one lane ends (`n = 0`), keeps going, or gains new lanes for
    /// the parts after the first. Returns the lanes of the new positions.
    fn replace(&mut self, pos: usize, comps: &[TermId], now: &Tm) -> Vec<usize> {
        let lane = self.at[pos];
        let mut new = Vec::with_capacity(comps.len());
        for (k, &t) in comps.iter().enumerate() {
            let l = if k == 0 {
                lane
            } else {
                self.names.push(format!("{}.{k}", self.names[lane]));
                self.last.push((now.clone(), t));
                self.names.len() - 1
            };
            new.push(l);
        }
        self.at.splice(pos..=pos, new.iter().copied());
        new
    }

    /// A delay turned each component `i` into `spans[i]` components (the
    /// vector `comps`, delayed to `now`). Every part of a component that
    /// split comes into being at `now` with its delayed term (the first
    /// part keeps the lane): its bounds count from `now`, not from the
    /// composite's last action.
    fn split(&mut self, spans: &[u32], comps: &[TermId], now: &Tm) {
        if spans.iter().all(|&m| m == 1) {
            return;
        }
        // From the back, so earlier positions stay put.
        let mut end = comps.len();
        for (i, &m) in spans.iter().enumerate().rev() {
            let start = end - m as usize;
            if m != 1 {
                let lanes = self.replace(i, &comps[start..end], now);
                for (l, &t) in lanes.into_iter().zip(&comps[start..end]) {
                    self.last[l] = (now.clone(), t);
                }
            }
            end = start;
        }
    }

    /// The components at `parts` acted at `now`; `next` is the vector after.
    fn acted(&mut self, parts: &[(u32, Act, u32)], next: &[TermId], now: &Tm) {
        // Positions in `next`: earlier parts shift later ones by their
        // number of new components minus one.
        let mut shift = 0isize;
        let mut placed = Vec::with_capacity(parts.len());
        for &(pos, _, m) in parts {
            let pos = pos as usize;
            placed.push((pos, (pos as isize + shift) as usize, m as usize));
            shift += m as isize - 1;
        }
        // From the back, so that the earlier old positions stay put.
        for &(old, new, m) in placed.iter().rev() {
            let lanes = self.replace(old, &next[new..new + m], now);
            for (k, l) in lanes.into_iter().enumerate() {
                self.last[l] = (now.clone(), next[new + k]);
            }
        }
        debug_assert_eq!(self.at.len(), next.len());
    }
}

/// Times stored once each, named by dense ids (in the order first seen).
#[derive(Default)]
struct Interned {
    values: Vec<Tm>,
    ids: FxHashMap<Tm, u32>,
}

impl Interned {
    /// The id of `t`, added if new.
    fn id(&mut self, t: &Tm) -> u32 {
        if let Some(&k) = self.ids.get(t) {
            return k;
        }
        let k = u32::try_from(self.values.len()).expect("fewer than 2^32 distinct times");
        self.values.push(t.clone());
        self.ids.insert(t.clone(), k);
        k
    }

    /// The value of id `k`.
    fn get(&self, k: u32) -> &Tm {
        &self.values[k as usize]
    }
}

/// A path count: machine-sized while it fits, exact beyond.
#[derive(Clone, Debug)]
enum Count {
    Small(u128),
    Big(Box<BigUint>),
}

impl Count {
    fn add_assign(&mut self, o: &Count) {
        if let (Count::Small(a), Count::Small(b)) = (&*self, o) {
            if let Some(s) = a.checked_add(*b) {
                *self = Count::Small(s);
                return;
            }
        }
        *self = Count::Big(Box::new(self.to_big() + o.to_big()));
    }

    fn to_big(&self) -> BigUint {
        match self {
            Count::Small(a) => BigUint::from(*a),
            Count::Big(b) => BigUint::clone(b),
        }
    }
}

/// An exact probability: a fraction of `u64`s while it fits (reduced once a
/// state's list is complete, see [`Prob::div`]), exact beyond.
#[derive(Clone, Debug)]
enum Prob {
    Small(u64, u64),
    Big(Box<BigRational>),
}

impl Prob {
    /// `n / d` reduced.
    fn from_u128(n: u128, d: u128) -> Prob {
        let g = n.gcd(&d);
        let (n, d) = if g > 1 { (n / g, d / g) } else { (n, d) };
        match (u64::try_from(n), u64::try_from(d)) {
            (Ok(n), Ok(d)) => Prob::Small(n, d),
            _ => Prob::Big(Box::new(BigRational::new(BigInt::from(n), BigInt::from(d)))),
        }
    }

    /// The exact value (of a reduced fraction).
    fn to_big(&self) -> BigRational {
        match self {
            Prob::Small(n, d) => BigRational::new(BigInt::from(*n), BigInt::from(*d)),
            Prob::Big(r) => BigRational::clone(r),
        }
    }

    /// Adds `o`; equal denominators add without reducing.
    fn add_assign(&mut self, o: &Prob) {
        if let (Prob::Small(a, b), Prob::Small(c, d)) = (&*self, o) {
            if b == d {
                if let Some(s) = a.checked_add(*c) {
                    *self = Prob::Small(s, *b);
                    return;
                }
            }
            let (a, b, c, d) = (
                u128::from(*a),
                u128::from(*b),
                u128::from(*c),
                u128::from(*d),
            );
            if let Some(n) = (a * d).checked_add(c * b) {
                *self = Prob::from_u128(n, b * d);
                return;
            }
        }
        *self = Prob::Big(Box::new(self.to_big() + o.to_big()));
    }

    /// `self / k` for `k > 0`, reduced.
    fn div(&self, k: usize) -> Prob {
        match self {
            Prob::Small(n, d) => Prob::from_u128(u128::from(*n), u128::from(*d) * k as u128),
            Prob::Big(r) => Prob::Big(Box::new(&**r / BigInt::from(k))),
        }
    }
}

/// A total time with its EXEC path count and (unscaled) PEXEC probability.
type Entry = (Tm, Count, Prob);

/// Multiplies the counts and probabilities of `entries` by `m` (the number of parallel
/// edges they were reached through).
fn scale(entries: &mut [Entry], m: u64) {
    if m <= 1 {
        return;
    }
    for e in entries {
        e.1 = match &e.1 {
            Count::Small(a) => match a.checked_mul(u128::from(m)) {
                Some(x) => Count::Small(x),
                None => Count::Big(Box::new(BigUint::from(*a) * m)),
            },
            Count::Big(b) => Count::Big(Box::new(&**b * m)),
        };
        e.2 = match &e.2 {
            Prob::Small(n, d) => Prob::from_u128(u128::from(*n) * u128::from(m), u128::from(*d)),
            Prob::Big(r) => Prob::Big(Box::new(&**r * BigInt::from(m))),
        };
    }
}

/// Sums the entries of equal time of a list sorted by time, in place.
fn merge_sorted(v: &mut Vec<Entry>) {
    if v.is_empty() {
        return;
    }
    let mut w = 0;
    for r in 1..v.len() {
        if v[r].0 == v[w].0 {
            let (head, tail) = v.split_at_mut(r);
            head[w].1.add_assign(&tail[0].1);
            head[w].2.add_assign(&tail[0].2);
        } else {
            w += 1;
            v.swap(w, r);
        }
    }
    v.truncate(w + 1);
}

/// The explored state graph of an agent, with what the analysis of the
/// graph needs from the exploration.
struct Explored {
    space: Space,
    graph: Graph,
    /// The top-level restriction kept aside (see [`Space`]).
    wrap: Option<std::sync::Arc<[Name]>>,
}

/// How many states ahead of the one being stepped the exploration starts
/// loading the component entries ([`Space::prefetch`]): far enough for the
/// loads to land, near enough for them to stay in cache.
const PREFETCH_AHEAD: usize = 2;

/// Step 1 of the analysis: breadth-first exploration of the state graph.
fn explore(
    arena: &mut Arena,
    start: TermId,
    name: &str,
    opts: &Options,
) -> Result<Explored, Error> {
    // 1. Breadth-first exploration with structural state sharing. A
    // top-level restriction `P\L` (possibly behind agent constants) is kept
    // aside: every state but the start is then some `P'\L` and is
    // represented by `P'`, so the states' restrictions are never interned
    // (`restrict` maps distinct `P'` to distinct states). The start keeps
    // its own identity: a constant is a different state from its body.
    let mut body = start;
    while let Term::Const(c) = arena.get(body) {
        match arena.const_body(*c) {
            Some(b) => body = b,
            None => break,
        }
    }
    let (root, wrap) = match arena.get(body) {
        Term::Restrict(x, l) => (*x, Some(l.clone())),
        _ => (start, None),
    };
    // Whether state 0 is found again when reached as `root`.
    let start_shared = wrap.is_none() || body == start;
    let mut space = Space::new(
        arena,
        root,
        wrap.as_deref(),
        start_shared,
        opts.max_states,
        opts.max_depth,
    );
    let mut g = Graph {
        delay: Vec::new(),
        delays: Interned::default(),
        start: vec![0],
        to: Vec::new(),
        visible: Vec::new(),
    };
    let no_delay = g.delays.id(&Tm::ZERO);
    let mut buf: Vec<(Act, u32)> = Vec::new();
    let meter = opts.meter.as_deref();
    if let Some(m) = meter {
        m.start();
    }
    let mut i = 0;
    while i < space.len() {
        if i.is_multiple_of(EVERY) {
            if let Some(m) = meter {
                m.set_count(space.len() as u64);
            }
        }
        buf.clear();
        space.prefetch(i + PREFETCH_AHEAD);
        let u = space.step(arena, i, &mut buf).map_err(|l| match l {
            Limit::States => Error::Limit {
                agent: name.to_string(),
                reached: sweep::Reached::new(sweep::Limit::States, opts.max_states as u64),
            },
            Limit::Depth => Error::TooDeep {
                agent: name.to_string(),
                reached: sweep::Reached::new(sweep::Limit::Depth, opts.max_depth as u64),
            },
        })?;
        let d = match u {
            Some(u) if !u.is_zero() => g.delays.id(&u),
            _ => no_delay,
        };
        room(&mut g.delay, 1);
        room(&mut g.start, 1);
        room(&mut g.to, buf.len());
        g.delay.push(d);
        for &(act, to) in &buf {
            g.to.push(to);
            g.note_action(act);
        }
        g.start
            .push(u32::try_from(g.to.len()).expect("fewer than 2^32 transitions"));
        i += 1;
    }
    if let Some(m) = meter {
        m.set_count(space.len() as u64);
        m.set_analysing();
    }
    Ok(Explored {
        space,
        graph: g,
        wrap,
    })
}

fn analyse_inner(
    arena: &mut Arena,
    start: TermId,
    name: &str,
    opts: &Options,
) -> Result<Analysis, Error> {
    let Explored {
        mut space,
        graph: mut g,
        wrap,
    } = explore(arena, start, name, opts)?;
    let parent = g.parents();
    let visible = std::mem::take(&mut g.visible);
    let n = space.len();
    let path_to = |mut s: usize| {
        let mut p = Vec::new();
        while parent[s].0 != u32::MAX {
            let (q, e) = parent[s];
            p.push((q as usize, e as usize));
            s = q as usize;
        }
        p.reverse();
        p
    };
    let visible: BTreeSet<String> = visible
        .iter()
        .enumerate()
        .filter(|(_, v)| **v)
        .map(|(x, _)| arena.name_str(Name(x as u32)).to_string())
        .collect();
    let mut warnings = visible
        .iter()
        .map(|a| crate::error::eagerness_warning(a))
        .collect();

    // 2. Cycle detection (iterative DFS) and post-order.
    let mut colour = vec![0u8; n];
    let mut post: Vec<u32> = Vec::with_capacity(n);
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    colour[0] = 1;
    while let Some(&(v, k)) = stack.last() {
        if k < g.degree(v) {
            stack.last_mut().expect("nonempty").1 += 1;
            let w = g.target(v, k);
            match colour[w] {
                0 => {
                    colour[w] = 1;
                    stack.push((w, 0));
                }
                1 => {
                    let from = stack.iter().position(|&(s, _)| s == w).expect("on stack");
                    let cyc: Vec<(usize, usize)> =
                        stack[from..].iter().map(|&(s, e)| (s, e - 1)).collect();
                    return Ok(Analysis {
                        name: name.to_string(),
                        states: n,
                        exec: BTreeMap::new(),
                        pexec: BTreeMap::new(),
                        min: None,
                        max: None,
                        outcome: Outcome::NonTerminating {
                            prefix: run_of(arena, &g, &mut space, &path_to(w)),
                            cycle: run_of(arena, &g, &mut space, &cyc),
                        },
                        warnings,
                    });
                }
                _ => {}
            }
        } else {
            colour[v] = 2;
            post.push(v as u32);
            stack.pop();
        }
    }
    drop(colour);
    drop(stack);

    // 3. Memoised EXEC / PEXEC / min / max over the DAG in post-order. All
    // transitions of a state share its delay, so a state's lists are the
    // merged lists of its successors shifted once by that delay.
    // Per state: each total time with its EXEC path count and PEXEC probability.
    let mut lists: Vec<Vec<Entry>> = vec![Vec::new(); n];
    // Least and greatest total time (ids of `times`: a state costs 16 bytes
    // here, and the distinct totals are few) with the first edge achieving
    // each.
    let mut times = Interned::default();
    let zero = times.id(&Tm::ZERO);
    let mut best: Vec<[u32; 4]> = vec![[zero, 0, zero, 0]; n];
    // Remaining unprocessed in-edges per state: the last predecessor to
    // consume a state's list takes it instead of copying it.
    let mut pending = vec![0u32; n];
    for &t in &g.to {
        pending[t as usize] += 1;
    }
    for &v in &post {
        let v = v as usize;
        let deg = g.degree(v);
        if deg == 0 {
            lists[v] = vec![(Tm::ZERO, Count::Small(1), Prob::Small(1, 1))];
            continue;
        }
        let d = g.delay(v);
        let mut acc: Vec<Entry> = Vec::new();
        let (mut lk, mut hk) = (0, 0);
        // Parallel edges to one successor (k equal components that each end) are one
        // copy of its list with counts and probabilities times k, not k copies.
        let (mut group, mut mult, mut prev) = (0, 0u64, usize::MAX);
        for (k, e) in g.edges(v).enumerate() {
            let to = g.to[e] as usize;
            pending[to] -= 1;
            if to == prev {
                mult += 1;
                if pending[to] == 0 && to != 0 {
                    lists[to] = Vec::new();
                }
            } else {
                scale(&mut acc[group..], mult);
                (group, mult, prev) = (acc.len(), 1, to);
                if pending[to] == 0 && to != 0 && acc.is_empty() {
                    acc = std::mem::take(&mut lists[to]);
                } else if pending[to] == 0 && to != 0 {
                    acc.append(&mut std::mem::take(&mut lists[to]));
                } else {
                    acc.extend_from_slice(&lists[to]);
                }
            }
            if k > 0 {
                let b = best[to];
                let (lo, hi) = (best[g.target(v, lk)][0], best[g.target(v, hk)][2]);
                if times.get(b[0]) < times.get(lo) {
                    lk = k;
                }
                if times.get(b[2]) > times.get(hi) {
                    hk = k;
                }
            }
        }
        scale(&mut acc[group..], mult);
        let (lo, hi) = (best[g.target(v, lk)][0], best[g.target(v, hk)][2]);
        best[v] = if d.is_zero() {
            [lo, lk as u32, hi, hk as u32]
        } else {
            let lo = times.get(lo).add(d);
            let hi = times.get(hi).add(d);
            [times.id(&lo), lk as u32, times.id(&hi), hk as u32]
        };
        if deg > 1 {
            acc.sort_unstable_by(|x, y| x.0.cmp(&y.0));
            merge_sorted(&mut acc);
            if acc.capacity() > 2 * acc.len() {
                acc.shrink_to_fit();
            }
            for e in &mut acc {
                e.2 = e.2.div(deg);
            }
        }
        if !d.is_zero() {
            for e in &mut acc {
                e.0 = e.0.add(d);
            }
        }
        lists[v] = acc;
    }
    let follow = |use_max: bool| {
        let mut p = Vec::new();
        let mut s = 0;
        while g.degree(s) > 0 {
            let k = if use_max { best[s][3] } else { best[s][1] } as usize;
            p.push((s, k));
            s = g.target(s, k);
        }
        p
    };
    let min = run_of(arena, &g, &mut space, &follow(false));
    let max = run_of(arena, &g, &mut space, &follow(true));

    // 4. Deadlock check via the Terminated placeholder (BFS order: fewest steps).
    let mut outcome = Outcome::Terminated;
    if arena.mentions_terminated(start) {
        let active = |arena: &Arena, s: usize| {
            space
                .components(s)
                .iter()
                .any(|&x| arena.has_active_terminated(x))
        };
        if let Some(s) = (0..n).find(|&s| g.degree(s) == 0 && !active(arena, s)) {
            let state = match wrap {
                _ if s == 0 => start,
                Some(l) => {
                    let p = space.term(arena, s);
                    arena.restrict(p, l.to_vec())
                }
                None => space.term(arena, s),
            };
            outcome = Outcome::Deadlock {
                run: run_of(arena, &g, &mut space, &path_to(s)),
                state: arena.display(state),
            };
        }
    } else if g.degree(0) == 0
        && space
            .components(0)
            .iter()
            .any(|&x| arena.has_pending_prefix(x))
    {
        // Without `Terminated` a stuck state cannot be told from a finished one (servers
        // waiting for the next request are the normal end of many models); but a model in
        // which nothing at all can happen is almost surely a mistake.
        warnings.push(format!(
            "no action of `{}` can happen: it has actions, but none can fire (restricted \
             without a partner?), so the run ends at time 0; end components with \
             `Terminated` to have such states reported as deadlocks",
            arena.display(start)
        ));
    }

    Ok(Analysis {
        name: name.to_string(),
        states: n,
        exec: lists[0]
            .iter()
            .map(|(t, c, _)| (t.to_big(), c.to_big()))
            .collect(),
        pexec: lists[0]
            .iter()
            .map(|(t, _, p)| (t.to_big(), p.to_big()))
            .collect(),
        min: Some(min),
        max: Some(max),
        outcome,
        warnings,
    })
}
