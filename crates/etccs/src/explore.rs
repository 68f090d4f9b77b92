//! Concrete execution-time analysis (spec §4.4, §5.1): state-space
//! exploration, EXEC, PEXEC, min/max with witness runs, and the
//! termination / deadlock / non-termination outcome.

use crate::error::Error;
use crate::parse::Model;
use crate::term::{Act, Arena, TermId, Time};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, BTreeSet};

/// Analysis options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Abort with [`Error::Limit`] when more states than this are reached.
    pub max_states: usize,
    /// Abort with [`Error::TooDeep`] when a state is nested deeper than this.
    pub max_depth: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_states: 10_000_000,
            max_depth: 2_000,
        }
    }
}

/// One step of a run: an action and its delay since the previous step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The action in thesis syntax (`a`, `a'`, `tau`).
    pub action: String,
    /// Delay since the previous step.
    pub delay: Time,
}

/// A run from the start state with its total time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Sum of the delays.
    pub time: Time,
    /// The steps in order.
    pub steps: Vec<Step>,
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

struct Edge {
    act: Act,
    delay: Time,
    to: usize,
}

/// Analyses the agent `name` of `model` (see [`analyse_term`]).
pub fn analyse(model: &mut Model, name: &str, opts: &Options) -> Result<Analysis, Error> {
    let t = model
        .agent(name)
        .ok_or_else(|| Error::UnknownAgent(name.to_string()))?;
    analyse_term(&mut model.arena, t, name, opts)
}

/// Analyses every agent named by an `analyse` directive, in order.
pub fn analyse_all(model: &mut Model, opts: &Options) -> Result<Vec<Analysis>, Error> {
    let names = model.analyses.clone();
    names.iter().map(|n| analyse(model, n, opts)).collect()
}

fn run_of(arena: &Arena, edges: &[Vec<Edge>], path: &[(usize, usize)]) -> Run {
    let mut time = Time::zero();
    let steps = path
        .iter()
        .map(|&(s, e)| {
            let ed = &edges[s][e];
            time += &ed.delay;
            Step {
                action: arena.act_str(ed.act),
                delay: ed.delay.clone(),
            }
        })
        .collect();
    Run { time, steps }
}

/// Explores the eager transition system from `start` and computes EXEC,
/// PEXEC, min/max witnesses and the outcome. `arena` must have passed
/// [`Arena::check_guarded`] (as every parsed [`Model`] has).
/// Runs on a helper thread with a large stack, so that the depth limit
/// [`Options::max_depth`], not the caller's stack, bounds the recursion.
pub fn analyse_term(
    arena: &mut Arena,
    start: TermId,
    name: &str,
    opts: &Options,
) -> Result<Analysis, Error> {
    if arena.mentions_symbolic(start) {
        return Err(Error::Symbolic {
            agent: name.to_string(),
            params: arena.param_names().join(", "),
        });
    }
    let res = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(ANALYSIS_STACK_BYTES)
            .spawn_scoped(s, || analyse_inner(arena, start, name, opts))
            .map(|h| h.join())
    });
    match res {
        Ok(Ok(r)) => r,
        Ok(Err(p)) => std::panic::resume_unwind(p),
        // Could not spawn a thread: run on the current stack.
        Err(_) => analyse_inner(arena, start, name, opts),
    }
}

const ANALYSIS_STACK_BYTES: usize = 512 << 20;

fn analyse_inner(
    arena: &mut Arena,
    start: TermId,
    name: &str,
    opts: &Options,
) -> Result<Analysis, Error> {
    // 1. Breadth-first exploration with structural state sharing.
    let mut ids = vec![start];
    // State number of each term id (`u32::MAX`: not a state yet), dense by id.
    let mut index: Vec<u32> = vec![u32::MAX; arena.len().max(Arena::index_of(start) + 1)];
    index[Arena::index_of(start)] = 0;
    let mut edges: Vec<Vec<Edge>> = Vec::new();
    let mut parent: Vec<Option<(usize, usize)>> = vec![None];
    let mut visible: BTreeSet<String> = BTreeSet::new();
    let mut i = 0;
    while i < ids.len() {
        let trs = arena.transitions(ids[i]);
        let mut out = Vec::with_capacity(trs.len());
        for (k, tr) in trs.into_iter().enumerate() {
            let ti = Arena::index_of(tr.target);
            if index.len() <= ti {
                index.resize(arena.len().max(ti + 1), u32::MAX);
            }
            let to = match index[ti] {
                j if j != u32::MAX => j as usize,
                _ => {
                    if ids.len() >= opts.max_states {
                        return Err(Error::Limit {
                            agent: name.to_string(),
                            max_states: opts.max_states,
                        });
                    }
                    if arena.depth(tr.target) > opts.max_depth {
                        return Err(Error::TooDeep {
                            agent: name.to_string(),
                            max_depth: opts.max_depth,
                        });
                    }
                    ids.push(tr.target);
                    parent.push(Some((i, k)));
                    index[ti] = (ids.len() - 1) as u32;
                    ids.len() - 1
                }
            };
            if let Some(nm) = tr.act.name() {
                visible.insert(arena.name_str(nm).to_string());
            }
            out.push(Edge {
                act: tr.act,
                delay: tr.delay,
                to,
            });
        }
        edges.push(out);
        i += 1;
    }
    let n = ids.len();
    let path_to = |mut s: usize| {
        let mut p = Vec::new();
        while let Some((q, e)) = parent[s] {
            p.push((q, e));
            s = q;
        }
        p.reverse();
        p
    };
    let warnings = visible
        .iter()
        .map(|a| {
            format!(
                "visible action `{a}` is not restricted at the top level: eagerness fires it at its lower bound; restrict it (e.g. `\\{{{a}}}`) to model a closed system"
            )
        })
        .collect();

    // 2. Cycle detection (iterative DFS) and post-order.
    let mut colour = vec![0u8; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    colour[0] = 1;
    while let Some(&(v, k)) = stack.last() {
        if k < edges[v].len() {
            stack.last_mut().expect("nonempty").1 += 1;
            let w = edges[v][k].to;
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
                            prefix: run_of(arena, &edges, &path_to(w)),
                            cycle: run_of(arena, &edges, &cyc),
                        },
                        warnings,
                    });
                }
                _ => {}
            }
        } else {
            colour[v] = 2;
            post.push(v);
            stack.pop();
        }
    }

    // 3. Memoised EXEC / PEXEC / min / max over the DAG in post-order.
    let mut exec: Vec<BTreeMap<Time, BigUint>> = vec![BTreeMap::new(); n];
    let mut pexec: Vec<BTreeMap<Time, BigRational>> = vec![BTreeMap::new(); n];
    let mut best: Vec<(Time, usize, Time, usize)> = vec![(Time::zero(), 0, Time::zero(), 0); n];
    // Remaining unprocessed in-edges per state: a state's EXEC/PEXEC maps
    // are freed once every predecessor has consumed them.
    let mut pending = vec![0usize; n];
    for out in &edges {
        for e in out {
            pending[e.to] += 1;
        }
    }
    for &v in &post {
        if edges[v].is_empty() {
            exec[v].insert(Time::zero(), BigUint::one());
            pexec[v].insert(Time::zero(), BigRational::one());
            continue;
        }
        let mut ex = BTreeMap::new();
        let mut px: BTreeMap<Time, (BigInt, BigInt)> = BTreeMap::new();
        let mut b: Option<(Time, usize, Time, usize)> = None;
        for (k, e) in edges[v].iter().enumerate() {
            for (t, m) in &exec[e.to] {
                *ex.entry(add_time(t, &e.delay))
                    .or_insert_with(BigUint::zero) += m;
            }
            // Summed unreduced and scaled by `share` once below:
            // Σ share·p = share·Σ p exactly, with one gcd per entry.
            for (t, p) in &pexec[e.to] {
                match px.entry(add_time(t, &e.delay)) {
                    std::collections::btree_map::Entry::Vacant(slot) => {
                        slot.insert((p.numer().clone(), p.denom().clone()));
                    }
                    std::collections::btree_map::Entry::Occupied(mut slot) => {
                        let (n, d) = slot.get_mut();
                        if d == p.denom() {
                            *n += p.numer();
                        } else {
                            *n *= p.denom();
                            *n += p.numer() * &*d;
                            *d *= p.denom();
                        }
                    }
                }
            }
            let lo = add_time(&best[e.to].0, &e.delay);
            let hi = add_time(&best[e.to].2, &e.delay);
            b = Some(match b {
                None => (lo, k, hi, k),
                Some((l0, k0, h0, j0)) => {
                    let (l, lk) = if lo < l0 { (lo, k) } else { (l0, k0) };
                    let (h, hk) = if hi > h0 { (hi, k) } else { (h0, j0) };
                    (l, lk, h, hk)
                }
            });
        }
        let deg = BigInt::from(edges[v].len());
        let px: BTreeMap<Time, BigRational> = px
            .into_iter()
            .map(|(t, (n, d))| (t, BigRational::new(n, d * &deg)))
            .collect();
        exec[v] = ex;
        pexec[v] = px;
        best[v] = b.expect("has edges");
        for e in &edges[v] {
            pending[e.to] -= 1;
            if pending[e.to] == 0 && e.to != 0 {
                exec[e.to] = BTreeMap::new();
                pexec[e.to] = BTreeMap::new();
            }
        }
    }
    let follow = |use_max: bool| {
        let mut p = Vec::new();
        let mut s = 0;
        while !edges[s].is_empty() {
            let k = if use_max { best[s].3 } else { best[s].1 };
            p.push((s, k));
            s = edges[s][k].to;
        }
        p
    };
    let min = run_of(arena, &edges, &follow(false));
    let max = run_of(arena, &edges, &follow(true));

    // 4. Deadlock check via the Terminated placeholder (BFS order: fewest steps).
    let mut outcome = Outcome::Terminated;
    if arena.mentions_terminated(start) {
        if let Some(s) =
            (0..n).find(|&s| edges[s].is_empty() && !arena.has_active_terminated(ids[s]))
        {
            outcome = Outcome::Deadlock {
                run: run_of(arena, &edges, &path_to(s)),
                state: arena.display(ids[s]),
            };
        }
    }

    Ok(Analysis {
        name: name.to_string(),
        states: n,
        exec: std::mem::take(&mut exec[0]),
        pexec: std::mem::take(&mut pexec[0]),
        min: Some(min),
        max: Some(max),
        outcome,
        warnings,
    })
}

/// `t + d` with a fast path for a zero delay and for integer times (the
/// common case), which needs no gcd normalisation. Same value as `t + d`.
fn add_time(t: &Time, d: &Time) -> Time {
    if d.is_zero() {
        t.clone()
    } else if t.is_zero() {
        d.clone()
    } else if t.denom().is_one() && d.denom().is_one() {
        Time::from_integer(t.numer() + d.numer())
    } else {
        t + d
    }
}
