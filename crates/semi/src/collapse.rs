//! Eq. 2.5: a cluster of k threads (the instances of a class thread) that communicates with
//! no thread outside it is approximated by one **representative thread** Γ, the one with
//! the most work:
//!
//! ```text
//! tt(Γ̂, χ, k) ≈ Σ_{s ∈ Sᵖ(Γ)} tt(s) + k · Σ_{s ∈ Sˢ(Γ)} tt(s) + Σ_{e ∈ E(Γ)} tt(e, χ, k)
//! ```
//!
//! Sᵖ are Γ's segments that run concurrently with the other instances, Sˢ those that cannot
//! (inside a critical section: all k instances pass through it one after another, so it
//! counts k times), E its events, costed for k threads (a barrier of the cluster costs as a
//! k-way barrier). The collapsed graph keeps Γ in place of the k instances and marks it
//! [`Thread::stands_for`] k: Algorithm G then traverses one thread where it traversed k,
//! the paper's reason for the collapse.
//!
//! Where it applies: the instances have the same events in the same order (segment times
//! may differ), no messages, forks or joins of their own, locks no thread outside the
//! cluster takes and barriers that all of them pass together; a thread outside forks or
//! joins the whole cluster or none of it. For
//! identical instances without critical sections the collapse is exact (G gives the same
//! time); with critical sections it charges one lock acquisition where G charges k (eq. 2.5
//! sums Γ's events once); with unequal instances it takes the slowest's work for all, and
//! overestimates where the critical sections overlap the imbalance (spec §6.4: 9.6 against
//! G's 7.8).

use std::ops::Range;

use crate::graph::{Graph, Op, Thread, ThreadId};

/// What the collapse did with one cluster.
#[derive(Clone, Debug, PartialEq)]
pub enum Collapsed {
    /// The cluster's instances became one representative.
    Done {
        /// The class thread.
        cluster: String,
        /// Its instances, k.
        threads: usize,
        /// The representative's name (the most work; the first of equals).
        representative: String,
        /// Whether every instance had the same segment times as the representative (then
        /// the collapse is exact but for lock costs).
        identical: bool,
        /// Whether the representative has critical sections (Sˢ, counted k times).
        critical: bool,
    },
    /// The cluster was left as it is.
    Kept {
        /// The class thread.
        cluster: String,
        /// Why eq. 2.5 does not apply.
        why: Why,
    },
}

/// Why a cluster is not collapsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// It has a single instance: nothing to collapse.
    OneThread,
    /// An instance sends or receives messages (explicit communication).
    Messages,
    /// An instance forks or joins threads.
    Forks,
    /// A thread outside the cluster takes one of its locks.
    SharedLock(String),
    /// A thread outside forks or joins only some of its instances.
    PartlyForked(String),
    /// The instances do not have the same events (different loop counts, barriers, locks).
    Different,
    /// A barrier the instances meet at opens for fewer threads than the cluster has: they
    /// pass it in several groups, which one thread cannot stand for.
    SmallBarrier(String),
}

impl std::fmt::Display for Collapsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Collapsed::Done {
                cluster,
                threads,
                representative,
                identical,
                critical,
            } => {
                write!(
                    f,
                    "cluster `{cluster}`: {threads} threads collapsed to `{representative}` (eq. 2.5)"
                )?;
                if !identical {
                    write!(f, "; its instances differ in work, so the slowest stands for all: an overestimate where their critical sections or barriers overlap the imbalance")?;
                }
                if *critical {
                    write!(f, "; its critical sections count {threads} times but their lock costs once, as eq. 2.5 sums the representative's events")?;
                }
                Ok(())
            }
            Collapsed::Kept { cluster, why } => {
                write!(f, "cluster `{cluster}` not collapsed: ")?;
                match why {
                    Why::OneThread => write!(f, "it has one thread"),
                    Why::Messages => write!(
                        f,
                        "its threads send or receive messages (eq. 2.5 is for a cluster without explicit communication)"
                    ),
                    Why::Forks => write!(f, "its threads fork or join threads"),
                    Why::SharedLock(l) => write!(
                        f,
                        "lock `{l}` is also taken by a thread outside it (explicit communication)"
                    ),
                    Why::PartlyForked(t) => {
                        write!(f, "`{t}` forks or joins only some of its threads")
                    }
                    Why::Different => write!(
                        f,
                        "its threads do not have the same events (loop counts, barriers or locks differ)"
                    ),
                    Why::SmallBarrier(b) => write!(
                        f,
                        "barrier `{b}` opens for fewer threads than the cluster has, so they pass it in groups"
                    ),
                }
            }
        }
    }
}

/// Collapses each cluster of `clusters` (a class thread's name and its instances' range in
/// `graph`, as [`crate::instantiate::Instance::clusters`]) where eq. 2.5 applies: the new
/// graph, and per cluster what was done.
pub fn collapse(graph: &Graph, clusters: &[(String, Range<ThreadId>)]) -> (Graph, Vec<Collapsed>) {
    let mut keep = vec![true; graph.threads.len()];
    let mut ops: Vec<Option<(Vec<Op>, usize)>> = vec![None; graph.threads.len()];
    let mut said = Vec::new();
    for (name, range) in clusters {
        match plan(graph, range.clone()) {
            Ok((rep, new_ops, identical, critical)) => {
                for t in range.clone() {
                    keep[t] = t == rep;
                }
                let k = range.len();
                ops[rep] = Some((new_ops, k));
                said.push(Collapsed::Done {
                    cluster: name.clone(),
                    threads: k,
                    representative: graph.threads[rep].name.clone(),
                    identical,
                    critical,
                });
            }
            Err(why) => said.push(Collapsed::Kept {
                cluster: name.clone(),
                why,
            }),
        }
    }
    // The new index of each kept thread.
    let mut index = vec![usize::MAX; graph.threads.len()];
    let mut n = 0;
    for (t, &k) in keep.iter().enumerate() {
        if k {
            index[t] = n;
            n += 1;
        }
    }
    let threads = graph
        .threads
        .iter()
        .enumerate()
        .filter(|(t, _)| keep[*t])
        .map(|(t, th)| {
            let (body, stands_for) = match &ops[t] {
                Some((o, k)) => (o.clone(), *k),
                None => (th.ops.clone(), th.stands_for),
            };
            Thread {
                name: th.name.clone(),
                ops: renumber(&body, &index),
                stands_for,
            }
        })
        .collect();
    let out = Graph {
        threads,
        barriers: graph.barriers.clone(),
        locks: graph.locks.clone(),
        channels: graph.channels.clone(),
    };
    (out, said)
}

/// The representative of the cluster `range`, its ops with the critical sections counted
/// k times, whether the instances are identical and whether it has critical sections; or
/// why the cluster cannot collapse.
fn plan(graph: &Graph, range: Range<ThreadId>) -> Result<(ThreadId, Vec<Op>, bool, bool), Why> {
    let k = range.len();
    if k < 2 {
        return Err(Why::OneThread);
    }
    let members = &graph.threads[range.clone()];
    let mut locks = Vec::new();
    for t in members {
        let mut bad = None;
        walk(&t.ops, &mut |op| match op {
            Op::Barrier(b) if graph.barriers[*b].participants < k => {
                bad.get_or_insert(Why::SmallBarrier(graph.barriers[*b].name.clone()));
            }
            Op::Send { .. } | Op::Recv { .. } => {
                bad.get_or_insert(Why::Messages);
            }
            Op::Fork(_) | Op::Join(_) => {
                bad.get_or_insert(Why::Forks);
            }
            Op::Lock(l) | Op::Unlock(l) if !locks.contains(l) => locks.push(*l),
            _ => {}
        });
        if let Some(why) = bad {
            return Err(why);
        }
    }
    for (i, t) in graph.threads.iter().enumerate() {
        if range.contains(&i) {
            continue;
        }
        let mut bad = None;
        walk(&t.ops, &mut |op| match op {
            Op::Lock(l) | Op::Unlock(l) if locks.contains(l) => {
                bad.get_or_insert(Why::SharedLock(graph.locks[*l].clone()));
            }
            Op::Fork(ts) | Op::Join(ts) => {
                let inside = ts.iter().filter(|c| range.contains(c)).count();
                if inside > 0 && inside < k {
                    bad.get_or_insert(Why::PartlyForked(t.name.clone()));
                }
            }
            _ => {}
        });
        if let Some(why) = bad {
            return Err(why);
        }
    }
    let first = skeleton(&members[0].ops);
    if members.iter().any(|t| skeleton(&t.ops) != first) {
        return Err(Why::Different);
    }
    // The most work; the first of equals.
    let mut rep = range.start;
    let mut most = work(&members[0].ops);
    for (i, t) in members.iter().enumerate().skip(1) {
        let w = work(&t.ops);
        if w > most {
            (rep, most) = (range.start + i, w);
        }
    }
    let identical = members.iter().all(|t| t.ops == graph.threads[rep].ops);
    let mut held = 0usize;
    let mut critical = false;
    let ops = serialise(&graph.threads[rep].ops, k, &mut held, &mut critical);
    Ok((rep, ops, identical, critical))
}

/// Calls `f` on every op, into loops and both arms of branches.
fn walk(ops: &[Op], f: &mut impl FnMut(&Op)) {
    for op in ops {
        f(op);
        match op {
            Op::Loop { body, .. } => walk(body, f),
            Op::Branch {
                then, otherwise, ..
            } => {
                walk(then, f);
                walk(otherwise, f);
            }
            _ => {}
        }
    }
}

/// The ops without their segments' times and without loops that hold no event: what must
/// be the same in every instance for one to stand for the others.
fn skeleton(ops: &[Op]) -> Vec<Op> {
    let mut out = Vec::new();
    for op in ops {
        match op {
            Op::Compute(_) => {}
            Op::Loop { count, body } => {
                let inner = skeleton(body);
                if !inner.is_empty() {
                    out.push(Op::Loop {
                        count: *count,
                        body: inner,
                    });
                }
            }
            Op::Branch {
                probability,
                then,
                otherwise,
            } => out.push(Op::Branch {
                probability: *probability,
                then: skeleton(then),
                otherwise: skeleton(otherwise),
            }),
            other => out.push(other.clone()),
        }
    }
    out
}

/// A thread's work: its segments' seconds, times the loops' counts, a branch's arms weighted
/// by their probabilities.
fn work(ops: &[Op]) -> f64 {
    ops.iter()
        .map(|op| match op {
            Op::Compute(s) => *s,
            Op::Loop { count, body } => *count as f64 * work(body),
            Op::Branch {
                probability,
                then,
                otherwise,
            } => probability * work(then) + (1.0 - probability) * work(otherwise),
            _ => 0.0,
        })
        .sum()
}

/// `ops` with each segment inside a critical section (Sˢ: `held` > 0 there) taking `k`
/// times its time; `critical` set when there is one.
fn serialise(ops: &[Op], k: usize, held: &mut usize, critical: &mut bool) -> Vec<Op> {
    ops.iter()
        .map(|op| match op {
            Op::Compute(s) if *held > 0 => {
                *critical = true;
                Op::Compute(s * k as f64)
            }
            Op::Lock(_) => {
                *held += 1;
                op.clone()
            }
            Op::Unlock(_) => {
                *held = held.saturating_sub(1);
                op.clone()
            }
            Op::Loop { count, body } => Op::Loop {
                count: *count,
                body: serialise(body, k, held, critical),
            },
            Op::Branch {
                probability,
                then,
                otherwise,
            } => {
                let at = *held;
                let a = serialise(then, k, held, critical);
                *held = at;
                let b = serialise(otherwise, k, held, critical);
                Op::Branch {
                    probability: *probability,
                    then: a,
                    otherwise: b,
                }
            }
            other => other.clone(),
        })
        .collect()
}

/// `ops` with the threads that forks and joins name renumbered by `index` (dropped where
/// `usize::MAX`: an instance the representative stands for).
fn renumber(ops: &[Op], index: &[usize]) -> Vec<Op> {
    ops.iter()
        .map(|op| match op {
            Op::Fork(ts) => Op::Fork(keep(ts, index)),
            Op::Join(ts) => Op::Join(keep(ts, index)),
            Op::Loop { count, body } => Op::Loop {
                count: *count,
                body: renumber(body, index),
            },
            Op::Branch {
                probability,
                then,
                otherwise,
            } => Op::Branch {
                probability: *probability,
                then: renumber(then, index),
                otherwise: renumber(otherwise, index),
            },
            other => other.clone(),
        })
        .collect()
}

fn keep(ts: &[ThreadId], index: &[usize]) -> Vec<ThreadId> {
    ts.iter()
        .filter_map(|&t| index.get(t).copied().filter(|&i| i != usize::MAX))
        .collect()
}
