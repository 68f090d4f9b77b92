//! The fully instantiated thread graph (spec §2.2): threads as sequences of segments and
//! events, loops with their iteration counts, and the objects events meet on (barriers,
//! locks, channels). Every class thread has been expanded and every count evaluated; this is
//! what Algorithm G ([`crate::sim`]) walks.
//!
//! The number of event processings Θ (eq. 2.2) is known before a traversal: each event is
//! processed θ(e) = ∏ Size(l) times over the loops l around it (eq. 2.1).

use thiserror::Error;

/// A thread's index in [`Graph::threads`].
pub type ThreadId = usize;

/// One step of a thread: a segment, a loop, or an event.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// A segment: this many seconds of computation (stretched by time-sharing when more
    /// threads compute than there are processors).
    Compute(f64),
    /// A loop: `body` runs `count` times (loop entry and exit are control events).
    Loop {
        /// The iteration count Size(l).
        count: u64,
        /// The loop's body.
        body: Vec<Op>,
    },
    /// Arrive at barrier `id` ([`Graph::barriers`]) and wait until all its participants have.
    Barrier(usize),
    /// Acquire lock `id` ([`Graph::locks`]), waiting while another thread holds it.
    Lock(usize),
    /// Release lock `id`.
    Unlock(usize),
    /// Start these threads.
    Fork(Vec<ThreadId>),
    /// Wait until these threads have ended.
    Join(Vec<ThreadId>),
    /// Send a message of `bytes` on channel `channel` ([`Graph::channels`]).
    Send {
        /// The channel.
        channel: usize,
        /// The message size.
        bytes: u64,
    },
    /// Receive the next message on channel `channel`, waiting until one has arrived.
    Recv {
        /// The channel.
        channel: usize,
    },
    /// Take `then` with probability `probability`, else `otherwise`.
    Branch {
        /// The probability of `then`, in [0, 1].
        probability: f64,
        /// The branch taken with `probability`.
        then: Vec<Op>,
        /// The other branch.
        otherwise: Vec<Op>,
    },
    /// A named point with no semantics (an instrumentation point between two segments).
    Mark,
}

impl Op {
    /// Whether the op is an event (counted in Θ): everything but segments and loops.
    pub fn is_event(&self) -> bool {
        !matches!(self, Op::Compute(_) | Op::Loop { .. })
    }
}

/// One thread: its name and its steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Thread {
    /// The name (an instance of a class thread: `worker[3]`).
    pub name: String,
    /// The steps, in program order.
    pub ops: Vec<Op>,
    /// How many identical threads this one stands for: 1, or k for the representative of a
    /// cluster of k collapsed by eq. 2.5 ([`crate::collapse`]). Its barrier arrival counts k
    /// arrivals, a fork or join of it costs as one of k threads, and it computes as k
    /// threads when processors are shared.
    pub stands_for: usize,
}

/// A barrier and how many threads meet at it.
#[derive(Clone, Debug, PartialEq)]
pub struct Barrier {
    /// The name.
    pub name: String,
    /// The participants: the barrier opens when this many threads have arrived.
    pub participants: usize,
}

/// A fully instantiated thread graph. Threads that some thread forks start when forked; the
/// others start at time 0.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    /// The threads.
    pub threads: Vec<Thread>,
    /// The barriers.
    pub barriers: Vec<Barrier>,
    /// The locks, by name.
    pub locks: Vec<String>,
    /// The message channels, by name.
    pub channels: Vec<String>,
}

/// A graph that cannot be traversed.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum GraphError {
    /// A thread refers to a barrier, lock, channel or thread that does not exist.
    #[error("thread `{thread}` refers to {what} {index}, but the graph has {count}")]
    Unknown {
        /// The thread.
        thread: String,
        /// `barrier`, `lock`, `channel` or `thread`.
        what: &'static str,
        /// The index used.
        index: usize,
        /// How many there are.
        count: usize,
    },
    /// A segment's time is negative or not finite.
    #[error("thread `{thread}` has a segment of {seconds} s; a segment takes a finite time ≥ 0")]
    BadSegment {
        /// The thread.
        thread: String,
        /// The time.
        seconds: f64,
    },
    /// A branch probability outside [0, 1].
    #[error("thread `{thread}` has a branch of probability {probability}; it must lie in [0, 1]")]
    BadProbability {
        /// The thread.
        thread: String,
        /// The probability.
        probability: f64,
    },
    /// A barrier without participants.
    #[error("barrier `{barrier}` has no participants")]
    EmptyBarrier {
        /// The barrier.
        barrier: String,
    },
    /// A thread forked more than once (by two forks, or by a fork that runs more than once).
    #[error("thread `{thread}` is forked {times} times; a thread starts once")]
    ForkedTwice {
        /// The thread.
        thread: String,
        /// How many fork processings start it (at most).
        times: u64,
    },
    /// A thread that forks or joins itself.
    #[error("thread `{thread}` forks or joins itself")]
    SelfReference {
        /// The thread.
        thread: String,
    },
    /// No thread starts at time 0: every thread is forked by another.
    #[error("every thread is forked by another, so none starts")]
    NoRoot,
}

/// How much work a traversal does, known before it starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Θ, eq. 2.2: event processings (every event but loop entry and exit; a branch's
    /// longer arm counted).
    pub events: u64,
    /// Every step a traversal may take: events, segments, loop entries and exits
    /// (saturating at `u64::MAX`).
    pub steps: u64,
}

impl Graph {
    /// Θ and the steps of a traversal (saturating).
    pub fn size(&self) -> Size {
        let mut total = Size::default();
        for t in &self.threads {
            let s = size_of(&t.ops);
            total = total.then(s).then(Size::END);
        }
        total
    }

    /// Whether any thread has a branch (a traversal then draws at random which arm it takes).
    pub fn has_branches(&self) -> bool {
        let mut found = false;
        for t in &self.threads {
            visit(&t.ops, &mut |op, _| {
                found |= matches!(op, Op::Branch { .. })
            });
        }
        found
    }

    /// The threads, weighted by [`Thread::stands_for`], that arrive at barrier `b` somewhere
    /// in their program (a branch's arms counted as if taken).
    pub fn arriving_at(&self, b: usize) -> usize {
        self.threads
            .iter()
            .filter(|t| {
                let mut found = false;
                visit(&t.ops, &mut |op, _| found |= *op == Op::Barrier(b));
                found
            })
            .map(|t| t.stands_for.max(1))
            .sum()
    }

    /// Which threads are forked by another (they start when forked).
    pub fn forked(&self) -> Vec<bool> {
        let mut out = vec![false; self.threads.len()];
        for t in &self.threads {
            visit(&t.ops, &mut |op, _| {
                if let Op::Fork(children) = op {
                    for &c in children {
                        if let Some(f) = out.get_mut(c) {
                            *f = true;
                        }
                    }
                }
            });
        }
        out
    }

    /// Checks every reference, time and probability, and that each thread starts once.
    ///
    /// # Errors
    /// The first [`GraphError`] found.
    pub fn check(&self) -> Result<(), GraphError> {
        self.starts().map(|_| ())
    }

    /// [`Graph::check`], returning which threads a fork starts.
    pub(crate) fn starts(&self) -> Result<Vec<bool>, GraphError> {
        self.check_barriers()?;
        let mut forks = vec![0u64; self.threads.len()];
        for (i, t) in self.threads.iter().enumerate() {
            let mut err = None;
            visit(&t.ops, &mut |op, times| {
                if err.is_none() {
                    err = self.check_op(i, op, times, &mut forks).err();
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
        }
        self.check_forks(&forks)
    }

    pub(crate) fn check_barriers(&self) -> Result<(), GraphError> {
        match self.barriers.iter().find(|b| b.participants == 0) {
            Some(b) => Err(GraphError::EmptyBarrier {
                barrier: b.name.clone(),
            }),
            None => Ok(()),
        }
    }

    /// From how many times each thread is forked: which are, or why that cannot be.
    pub(crate) fn check_forks(&self, forks: &[u64]) -> Result<Vec<bool>, GraphError> {
        if let Some((i, &times)) = forks.iter().enumerate().find(|(_, &n)| n > 1) {
            return Err(GraphError::ForkedTwice {
                thread: self.threads[i].name.clone(),
                times,
            });
        }
        if !self.threads.is_empty() && forks.iter().all(|&n| n > 0) {
            return Err(GraphError::NoRoot);
        }
        Ok(forks.iter().map(|&n| n > 0).collect())
    }

    /// Checks one op of `thread` that runs `times` times, counting the forks it makes.
    pub(crate) fn check_op(
        &self,
        thread: ThreadId,
        op: &Op,
        times: u64,
        forks: &mut [u64],
    ) -> Result<(), GraphError> {
        let name = || self.threads[thread].name.clone();
        let known = |what: &'static str, index: usize, count: usize| {
            if index < count {
                Ok(())
            } else {
                Err(GraphError::Unknown {
                    thread: name(),
                    what,
                    index,
                    count,
                })
            }
        };
        match op {
            Op::Compute(s) if !(s.is_finite() && *s >= 0.0) => Err(GraphError::BadSegment {
                thread: name(),
                seconds: *s,
            }),
            Op::Branch { probability, .. } if !(0.0..=1.0).contains(probability) => {
                Err(GraphError::BadProbability {
                    thread: name(),
                    probability: *probability,
                })
            }
            Op::Barrier(b) => known("barrier", *b, self.barriers.len()),
            Op::Lock(l) | Op::Unlock(l) => known("lock", *l, self.locks.len()),
            Op::Send { channel, .. } | Op::Recv { channel } => {
                known("channel", *channel, self.channels.len())
            }
            Op::Fork(children) | Op::Join(children) => {
                for &c in children {
                    known("thread", c, self.threads.len())?;
                    if c == thread {
                        return Err(GraphError::SelfReference { thread: name() });
                    }
                    if matches!(op, Op::Fork(_)) {
                        forks[c] = forks[c].saturating_add(times);
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// Calls `f(op, θ)` on every op, θ the product of the counts of the loops around it (a
/// branch's ops counted as if taken).
fn visit(ops: &[Op], f: &mut impl FnMut(&Op, u64)) {
    fn go(ops: &[Op], times: u64, f: &mut impl FnMut(&Op, u64)) {
        for op in ops {
            f(op, times);
            match op {
                Op::Loop { count, body } => go(body, times.saturating_mul(*count), f),
                Op::Branch {
                    then, otherwise, ..
                } => {
                    go(then, times, f);
                    go(otherwise, times, f);
                }
                _ => {}
            }
        }
    }
    go(ops, 1, f);
}

fn size_of(ops: &[Op]) -> Size {
    ops.iter().fold(Size::default(), |s, op| {
        s.then(match op {
            Op::Loop { count, body } => size_of(body).looped(*count),
            Op::Branch {
                then, otherwise, ..
            } => size_of(then).branched(size_of(otherwise)),
            Op::Compute(_) => Size::SEGMENT,
            _ => Size::EVENT,
        })
    })
}

impl Size {
    /// A segment: one step.
    pub(crate) const SEGMENT: Size = Size {
        events: 0,
        steps: 1,
    };
    /// An event: one processing, one step.
    pub(crate) const EVENT: Size = Size {
        events: 1,
        steps: 1,
    };
    /// A thread's end: one step.
    pub(crate) const END: Size = Size::SEGMENT;

    /// This, then `next`.
    pub(crate) fn then(self, next: Size) -> Size {
        Size {
            events: self.events.saturating_add(next.events),
            steps: self.steps.saturating_add(next.steps),
        }
    }

    /// A loop of `count` iterations of this body: entry once, the body and its exit each
    /// iteration.
    pub(crate) fn looped(self, count: u64) -> Size {
        Size {
            events: self.events.saturating_mul(count),
            steps: self
                .steps
                .saturating_add(1)
                .saturating_mul(count)
                .saturating_add(1),
        }
    }

    /// A branch between this arm and `other`: the branch event, the longer arm, and the
    /// jump over the other.
    pub(crate) fn branched(self, other: Size) -> Size {
        Size {
            events: self.events.max(other.events).saturating_add(1),
            steps: self.steps.max(other.steps).saturating_add(2),
        }
    }
}
