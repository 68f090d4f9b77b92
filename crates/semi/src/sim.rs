//! Algorithm G (Table I of the paper; spec §2.4–2.5): a discrete-event traversal of a fully
//! instantiated thread graph. Each thread has its own clock; the ready events form a pool
//! ordered by time, events at the same time taken in a random order (the paper's random
//! policy, seeded); barriers, joins, locks and receives block until released, so G itself
//! produces the load-imbalance and contention waits. When more threads compute than there
//! are processors, they share them equally (processor sharing, the paper's time-sharing
//! policy).
//!
//! A loop's countdown starts at Size − 1 (the back edges), so an event inside loops is
//! processed θ(e) = ∏ Size(l) times (spec §7.1 item 2).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use stats::rng::RngCore;
use thiserror::Error;

use crate::graph::{Graph, GraphError, Op, Size, ThreadId};

/// The cost of each event, tt^e(kind, participants, bytes): what a machine profile gives.
pub trait EventCosts {
    /// Releasing a barrier of `participants` threads (after the last arrival).
    fn barrier(&self, participants: usize) -> f64;
    /// Acquiring a lock (paid by each acquisition, after waiting).
    fn lock(&self) -> f64;
    /// Releasing a lock.
    fn unlock(&self) -> f64;
    /// Starting `children` threads (paid by the parent; the children start after it).
    fn fork(&self, children: usize) -> f64;
    /// Joining `children` threads (after the last has ended).
    fn join(&self, children: usize) -> f64;
    /// Sending a message of `bytes` (paid by the sender).
    fn send(&self, bytes: u64) -> f64;
    /// From a send to the message's arrival.
    fn latency(&self, bytes: u64) -> f64;
    /// Receiving a message of `bytes` (after its arrival).
    fn recv(&self, bytes: u64) -> f64;
    /// Where `graph`'s events lie beyond what these costs were measured for, so that they
    /// are extrapolated: a note for the user per kind of event (none by default).
    fn beyond(&self, graph: &Graph) -> Vec<String> {
        let _ = graph;
        Vec::new()
    }
}

/// Costs chosen at run time (a machine profile, or none) behind one type.
impl EventCosts for Box<dyn EventCosts + Send + Sync> {
    fn barrier(&self, participants: usize) -> f64 {
        (**self).barrier(participants)
    }
    fn lock(&self) -> f64 {
        (**self).lock()
    }
    fn unlock(&self) -> f64 {
        (**self).unlock()
    }
    fn fork(&self, children: usize) -> f64 {
        (**self).fork(children)
    }
    fn join(&self, children: usize) -> f64 {
        (**self).join(children)
    }
    fn send(&self, bytes: u64) -> f64 {
        (**self).send(bytes)
    }
    fn latency(&self, bytes: u64) -> f64 {
        (**self).latency(bytes)
    }
    fn recv(&self, bytes: u64) -> f64 {
        (**self).recv(bytes)
    }
    fn beyond(&self, graph: &Graph) -> Vec<String> {
        (**self).beyond(graph)
    }
}

/// Event costs that do not depend on the participants or the size (a message's latency is
/// `latency + bytes·per_byte`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FixedCosts {
    /// Barrier release.
    pub barrier: f64,
    /// Lock acquisition.
    pub lock: f64,
    /// Lock release.
    pub unlock: f64,
    /// Fork.
    pub fork: f64,
    /// Join.
    pub join: f64,
    /// Send.
    pub send: f64,
    /// Message latency.
    pub latency: f64,
    /// Latency per byte.
    pub per_byte: f64,
    /// Receive.
    pub recv: f64,
}

impl EventCosts for FixedCosts {
    fn barrier(&self, _: usize) -> f64 {
        self.barrier
    }
    fn lock(&self) -> f64 {
        self.lock
    }
    fn unlock(&self) -> f64 {
        self.unlock
    }
    fn fork(&self, _: usize) -> f64 {
        self.fork
    }
    fn join(&self, _: usize) -> f64 {
        self.join
    }
    fn send(&self, _: u64) -> f64 {
        self.send
    }
    fn latency(&self, bytes: u64) -> f64 {
        self.latency + self.per_byte * bytes as f64
    }
    fn recv(&self, _: u64) -> f64 {
        self.recv
    }
}

/// How to traverse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Processors. When more threads compute at once, they share them equally.
    pub processors: usize,
    /// Seed of the random order of simultaneous events and of the branches.
    pub seed: u64,
    /// The most steps (events, segments, loop entries and exits) a traversal may take; a
    /// graph whose [`Graph::size`] is over it is refused before any work.
    pub max_steps: u64,
    /// Keep the schedule (every segment, wait and event cost of every thread).
    pub schedule: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            processors: usize::MAX,
            seed: 0,
            max_steps: 1 << 32,
            schedule: false,
        }
    }
}

/// What a stretch of a thread's time was spent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activity {
    /// A segment.
    Compute,
    /// Waiting at a barrier for the others (load imbalance).
    BarrierWait,
    /// Waiting for a lock (contention).
    LockWait,
    /// Waiting for joined threads to end.
    JoinWait,
    /// Waiting for a message.
    RecvWait,
    /// An event's own cost (barrier release, lock, fork, join, send, receive).
    Event,
}

/// One stretch of the schedule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stretch {
    /// The thread.
    pub thread: ThreadId,
    /// What it did.
    pub activity: Activity,
    /// From.
    pub start: f64,
    /// To.
    pub end: f64,
}

/// Where one thread's time went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThreadTimes {
    /// When it started (`None`: never started).
    pub start: Option<f64>,
    /// When it ended.
    pub end: Option<f64>,
    /// In segments (wall time, so time-sharing's stretch is in it).
    pub compute: f64,
    /// Waiting at barriers: the load imbalance ([`ThreadTimes::imbalance`]) and the waits
    /// of a thread that did no work since its previous barrier (a main thread waiting for
    /// its workers, workers waiting for the main thread's serial part).
    pub barrier_wait: f64,
    /// The load imbalance, the part of `barrier_wait` the paper means (§5: work not
    /// divided evenly among the threads that share it): at a barrier, a thread that
    /// computed since its previous barrier waiting for the last such thread to arrive.
    pub imbalance: f64,
    /// Waiting for locks (contention).
    pub lock_wait: f64,
    /// Waiting for joined threads.
    pub join_wait: f64,
    /// Waiting for messages.
    pub recv_wait: f64,
    /// Events' own costs.
    pub events: f64,
}

/// The result of a traversal.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The predicted time: the last thread's end.
    pub time: f64,
    /// Per thread, in [`Graph::threads`] order.
    pub threads: Vec<ThreadTimes>,
    /// Events processed (Θ of the branches taken).
    pub events: u64,
    /// Steps taken.
    pub steps: u64,
    /// The schedule, when asked for.
    pub schedule: Vec<Stretch>,
}

/// A traversal that cannot be done or cannot finish.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum SimError {
    /// The graph is not valid.
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// No processors.
    #[error("the traversal needs at least one processor")]
    NoProcessors,
    /// The traversal would take more steps than allowed.
    #[error(
        "the graph takes up to {steps} steps ({events} event processings, Θ), over the limit of {}",
        reached.value
    )]
    TooLarge {
        /// Steps.
        steps: u64,
        /// Θ.
        events: u64,
        /// The limit reached: [`sweep::Limit::TraversalSteps`] at [`Options::max_steps`].
        reached: sweep::Reached,
    },
    /// A thread unlocks a lock that it does not hold.
    #[error("`{thread}` unlocks lock `{lock}`, which {}", match .holder { Some(h) => format!("`{h}` holds"), None => "nobody holds".to_string() })]
    NotHeld {
        /// The thread.
        thread: String,
        /// The lock.
        lock: String,
        /// The thread that holds it, if any.
        holder: Option<String>,
    },
    /// Threads wait for something that never happens.
    #[error("deadlock: {}", describe(.causes, .blocked))]
    Deadlock {
        /// Why, where the traversal can tell: the first cause found of each kind.
        causes: Vec<DeadlockCause>,
        /// Each blocked thread and what it waits for.
        blocked: Vec<(String, String)>,
    },
}

/// Why threads wait for ever: a mistake in the model that the deadlock comes from.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DeadlockCause {
    /// More or fewer threads arrive at a barrier than it waits for.
    #[error("barrier `{barrier}` expects {expects} threads but {arrive} arrive")]
    BarrierCount {
        /// The barrier.
        barrier: String,
        /// Its participants.
        expects: usize,
        /// The threads that arrive at it somewhere in their program.
        arrive: usize,
    },
    /// A thread takes a lock it already holds (locks are not re-entrant).
    #[error("thread `{thread}` takes lock `{lock}` it already holds")]
    Relock {
        /// The thread.
        thread: String,
        /// The lock.
        lock: String,
    },
    /// A thread ended holding a lock that others wait for.
    #[error("thread `{thread}` ended holding lock `{lock}`")]
    EndedHolding {
        /// The thread.
        thread: String,
        /// The lock.
        lock: String,
    },
}

impl DeadlockCause {
    /// How to fix the model.
    pub fn fix(&self) -> String {
        match self {
            DeadlockCause::BarrierCount { barrier, .. } => format!(
                "make the participants of `{barrier}` the number of threads that arrive at it"
            ),
            DeadlockCause::Relock { lock, .. } => {
                format!("unlock `{lock}` before taking it again, or do not nest `critical {lock}`")
            }
            DeadlockCause::EndedHolding { lock, .. } => {
                format!("unlock `{lock}` before the thread ends (or use `critical {lock} {{ … }}`)")
            }
        }
    }
}

/// A deadlock's causes and what the blocked threads wait for, in one sentence (without the
/// fixes).
pub fn deadlock_text(causes: &[DeadlockCause], blocked: &[(String, String)]) -> String {
    let said: Vec<String> = causes.iter().map(ToString::to_string).collect();
    let waits = waits(blocked);
    if said.is_empty() {
        waits
    } else {
        format!("{} (so {waits})", said.join("; "))
    }
}

fn describe(causes: &[DeadlockCause], blocked: &[(String, String)]) -> String {
    let fixes: Vec<String> = causes.iter().map(DeadlockCause::fix).collect();
    if fixes.is_empty() {
        deadlock_text(causes, blocked)
    } else {
        format!("{}: {}", deadlock_text(causes, blocked), fixes.join("; "))
    }
}

fn waits(blocked: &[(String, String)]) -> String {
    let mut parts: Vec<String> = blocked
        .iter()
        .take(5)
        .map(|(t, w)| format!("`{t}` waits for {w}"))
        .collect();
    if blocked.len() > 5 {
        parts.push(format!("and {} more", blocked.len() - 5));
    }
    parts.join("; ")
}

/// A thread's program as flat instructions.
#[derive(Clone, Copy, Debug)]
enum Instr {
    Compute(f64),
    /// Loop entry: counter `slot` set to count − 1, or a jump to `exit` for a count of 0.
    Enter {
        slot: u32,
        count: u64,
        exit: u32,
    },
    /// Loop exit: back to `body` while the counter is non-zero (counting it down).
    Exit {
        slot: u32,
        body: u32,
    },
    Barrier(u32),
    Lock(u32),
    Unlock(u32),
    /// Fork the threads `list[from..to]`.
    Fork(u32, u32),
    Join(u32, u32),
    Send(u32, u64),
    Recv(u32),
    /// Continue with probability `p`, else jump.
    Branch(f64, u32),
    Jump(u32),
    Mark,
    End,
}

/// Every thread's instructions, one after another, as they are compiled.
struct Code<'g> {
    graph: &'g Graph,
    instrs: Vec<Instr>,
    /// The current thread's loop slots so far.
    loops: u32,
    /// The threads `Fork` and `Join` instructions name.
    lists: Vec<ThreadId>,
    /// How many times each thread is forked.
    forks: Vec<u64>,
}

impl Code<'_> {
    /// Compiles thread `thread` onto the end of the instructions (jump targets absolute),
    /// checking each op: its size and its loop slots.
    fn thread(&mut self, thread: ThreadId) -> Result<(Size, u32), GraphError> {
        self.loops = 0;
        let graph = self.graph;
        let size = self.ops(thread, &graph.threads[thread].ops, 1)?;
        self.instrs.push(Instr::End);
        Ok((size.then(Size::END), self.loops))
    }

    /// `ops`, which run `times` times each.
    fn ops(&mut self, thread: ThreadId, ops: &[Op], times: u64) -> Result<Size, GraphError> {
        let mut size = Size::default();
        for op in ops {
            self.graph.check_op(thread, op, times, &mut self.forks)?;
            let here = self.instrs.len() as u32;
            let one = match op {
                Op::Compute(s) => {
                    self.instrs.push(Instr::Compute(*s));
                    Size::SEGMENT
                }
                Op::Loop { count, body } => {
                    let slot = self.loops;
                    self.loops += 1;
                    self.instrs.push(Instr::Enter {
                        slot,
                        count: *count,
                        exit: 0,
                    });
                    let inner = self.ops(thread, body, times.saturating_mul(*count))?;
                    self.instrs.push(Instr::Exit {
                        slot,
                        body: here + 1,
                    });
                    let exit = self.instrs.len() as u32;
                    if let Instr::Enter { exit: e, .. } = &mut self.instrs[here as usize] {
                        *e = exit;
                    }
                    inner.looped(*count)
                }
                Op::Branch {
                    probability,
                    then,
                    otherwise,
                } => {
                    self.instrs.push(Instr::Branch(*probability, 0));
                    let a = self.ops(thread, then, times)?;
                    let jump = self.instrs.len();
                    self.instrs.push(Instr::Jump(0));
                    let other = self.instrs.len() as u32;
                    let b = self.ops(thread, otherwise, times)?;
                    let after = self.instrs.len() as u32;
                    self.instrs[here as usize] = Instr::Branch(*probability, other);
                    self.instrs[jump] = Instr::Jump(after);
                    a.branched(b)
                }
                other => {
                    let instr = match other {
                        Op::Barrier(b) => Instr::Barrier(*b as u32),
                        Op::Lock(l) => Instr::Lock(*l as u32),
                        Op::Unlock(l) => Instr::Unlock(*l as u32),
                        Op::Fork(ts) | Op::Join(ts) => {
                            let from = self.lists.len() as u32;
                            self.lists.extend_from_slice(ts);
                            let to = self.lists.len() as u32;
                            if matches!(other, Op::Fork(_)) {
                                Instr::Fork(from, to)
                            } else {
                                Instr::Join(from, to)
                            }
                        }
                        Op::Send { channel, bytes } => Instr::Send(*channel as u32, *bytes),
                        Op::Recv { channel } => Instr::Recv(*channel as u32),
                        _ => Instr::Mark,
                    };
                    self.instrs.push(instr);
                    Size::EVENT
                }
            };
            size = size.then(one);
        }
        Ok(size)
    }
}

/// What a blocked thread waits for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Wait {
    None,
    Barrier(u32),
    Lock(u32),
    Join,
    Recv(u32),
    Compute,
}

struct ThreadState {
    pc: u32,
    counters: Vec<u64>,
    /// When the current wait began.
    since: f64,
    wait: Wait,
    /// A join's threads still running.
    joining: usize,
    /// The latest end among a join's threads so far.
    joined_at: f64,
    /// Whether it computed since its previous barrier (its waits there are load imbalance).
    worked: bool,
}

struct BarrierState {
    /// The arrivals: thread, time, whether it computed since its previous barrier.
    waiting: Vec<(ThreadId, f64, bool)>,
    /// The arrivals counted ([`crate::graph::Thread::stands_for`] each).
    arrived: usize,
    /// The latest arrival of the episode.
    latest: f64,
}

struct LockState {
    holder: Option<ThreadId>,
    waiting: VecDeque<(ThreadId, f64)>,
}

struct Message {
    ready: f64,
    bytes: u64,
}

struct ChannelState {
    messages: VecDeque<Message>,
    receivers: VecDeque<(ThreadId, f64)>,
}

/// Processor sharing: computing threads progress at min(1, P/A) in virtual time.
struct Sharing {
    processors: f64,
    active: usize,
    virtual_now: f64,
    real_then: f64,
    /// (virtual finish, tie, thread).
    jobs: BinaryHeap<Reverse<(u64, u64, ThreadId)>>,
    starts: Vec<f64>,
}

impl Sharing {
    fn rate(&self) -> f64 {
        if self.active as f64 <= self.processors {
            1.0
        } else {
            self.processors / self.active as f64
        }
    }

    /// Brings virtual time to real time `t`.
    fn advance(&mut self, t: f64) {
        if t > self.real_then {
            self.virtual_now += (t - self.real_then) * self.rate();
            self.real_then = t;
        }
    }

    /// The real time of the next completion.
    fn next(&self) -> Option<f64> {
        self.jobs.peek().map(|Reverse((v, _, _))| {
            let v = f64::from_bits(*v);
            self.real_then + (v - self.virtual_now).max(0.0) / self.rate()
        })
    }
}

/// Time keys: non-negative floats order as their bits.
fn key(t: f64) -> u64 {
    t.max(0.0).to_bits()
}

/// Marks a ready-pool entry as a batch of threads (its index in `batches`).
const BATCH: ThreadId = 1 << 31;

/// A ready-pool key: the time, then a random tie-break, then the thread (threads are fewer
/// than 2^32: a graph of more does not fit in memory).
fn entry(t: f64, tie: u32, thread: ThreadId) -> u128 {
    (u128::from(key(t)) << 64) | (u128::from(tie) << 32) | (thread as u128 & 0xFFFF_FFFF)
}

/// The time and thread of a ready-pool key.
fn unpack(e: u128) -> (f64, ThreadId) {
    (
        f64::from_bits((e >> 64) as u64),
        (e & 0xFFFF_FFFF) as ThreadId,
    )
}

struct Engine<'a, C: EventCosts> {
    costs: &'a C,
    /// Every thread's instructions, one after another.
    code: Vec<Instr>,
    lists: Vec<ThreadId>,
    threads: Vec<ThreadState>,
    times: Vec<ThreadTimes>,
    /// The ready pool: [`entry`] keys (time, random tie, thread), least first.
    ready: BinaryHeap<Reverse<u128>>,
    /// The arrivals of a barrier being released (reused).
    released: Vec<(ThreadId, f64, bool)>,
    /// The first unlock by a thread that did not hold the lock: (thread, lock, holder).
    misuse: Option<(ThreadId, u32, Option<ThreadId>)>,
    /// The first lock taken by the thread that holds it: (thread, lock).
    relock: Option<(ThreadId, u32)>,
    /// How many threads each stands for ([`crate::graph::Thread::stands_for`]).
    weight: Vec<usize>,
    /// Threads released together at one time, waiting in the pool as one entry (a
    /// barrier's participants): taken in a random order when it comes up.
    batches: Vec<Vec<ThreadId>>,
    /// Free slots of `batches`.
    free_batches: Vec<usize>,
    rng: stats::rng::Rng,
    barriers: Vec<BarrierState>,
    participants: Vec<usize>,
    locks: Vec<LockState>,
    channels: Vec<ChannelState>,
    /// The thread waiting to join each thread.
    joiner: Vec<Option<ThreadId>>,
    sharing: Option<Sharing>,
    events: u64,
    steps: u64,
    schedule: Option<Vec<Stretch>>,
    /// The time of the event being processed: a thread whose own clock is ahead of it runs
    /// on through segments and order-free events (barrier arrivals, forks, joins, ends),
    /// and waits its turn in the pool before an event whose effect depends on the order
    /// of events (lock, unlock, send, receive) or, with time-sharing, a segment.
    now: f64,
}

/// Traverses `graph` with Algorithm G.
///
/// # Errors
/// [`SimError`]: an invalid graph, no processors, a graph over `opts.max_steps` (refused
/// before any work), or a deadlock.
pub fn simulate<C: EventCosts>(
    graph: &Graph,
    costs: &C,
    opts: &Options,
) -> Result<Outcome, SimError> {
    if opts.processors == 0 {
        return Err(SimError::NoProcessors);
    }
    // One pass checks, sizes and compiles the graph; the traversal starts only within the
    // limit.
    graph.check_barriers()?;
    let mut code = Code {
        graph,
        instrs: Vec::new(),
        loops: 0,
        lists: Vec::new(),
        forks: vec![0; graph.threads.len()],
    };
    let mut size = Size::default();
    let mut starts = Vec::with_capacity(graph.threads.len());
    for t in 0..graph.threads.len() {
        let pc = code.instrs.len() as u32;
        let (s, loops) = code.thread(t)?;
        size = size.then(s);
        starts.push((pc, loops));
    }
    let forked = graph.check_forks(&code.forks)?;
    if size.steps > opts.max_steps {
        return Err(SimError::TooLarge {
            steps: size.steps,
            events: size.events,
            reached: sweep::Reached::new(sweep::Limit::TraversalSteps, opts.max_steps),
        });
    }
    let mut engine = Engine::new(graph, code, &starts, costs, opts);
    for (i, &f) in forked.iter().enumerate() {
        if !f {
            engine.start(i, 0.0);
        }
    }
    engine.run();
    engine.finish(graph)
}

impl<'a, C: EventCosts> Engine<'a, C> {
    fn new(graph: &Graph, code: Code, starts: &[(u32, u32)], costs: &'a C, opts: &Options) -> Self {
        let n = graph.threads.len();
        let threads = starts
            .iter()
            .map(|&(pc, loops)| ThreadState {
                pc,
                counters: vec![0; loops as usize],
                since: 0.0,
                wait: Wait::None,
                joining: 0,
                joined_at: 0.0,
                worked: false,
            })
            .collect();
        let weight: Vec<usize> = graph.threads.iter().map(|t| t.stands_for.max(1)).collect();
        let total: usize = weight.iter().fold(0, |a, w| a.saturating_add(*w));
        Engine {
            costs,
            code: code.instrs,
            lists: code.lists,
            threads,
            times: vec![ThreadTimes::default(); n],
            ready: BinaryHeap::new(),
            released: Vec::new(),
            misuse: None,
            relock: None,
            batches: Vec::new(),
            free_batches: Vec::new(),
            rng: stats::rng::seeded(opts.seed),
            barriers: graph
                .barriers
                .iter()
                .map(|_| BarrierState {
                    waiting: Vec::new(),
                    arrived: 0,
                    latest: 0.0,
                })
                .collect(),
            participants: graph.barriers.iter().map(|b| b.participants).collect(),
            locks: graph
                .locks
                .iter()
                .map(|_| LockState {
                    holder: None,
                    waiting: VecDeque::new(),
                })
                .collect(),
            channels: graph
                .channels
                .iter()
                .map(|_| ChannelState {
                    messages: VecDeque::new(),
                    receivers: VecDeque::new(),
                })
                .collect(),
            joiner: vec![None; n],
            // Threads can outnumber processors only when there are more threads.
            sharing: (total > opts.processors).then(|| Sharing {
                processors: opts.processors as f64,
                active: 0,
                virtual_now: 0.0,
                real_then: 0.0,
                jobs: BinaryHeap::new(),
                starts: vec![0.0; n],
            }),
            events: 0,
            steps: 0,
            schedule: opts.schedule.then(Vec::new),
            now: 0.0,
            weight,
        }
    }

    fn push(&mut self, t: f64, thread: ThreadId) {
        let tie = self.rng.next_u64() as u32;
        self.ready.push(Reverse(entry(t, tie, thread)));
    }

    fn record(&mut self, thread: ThreadId, activity: Activity, start: f64, end: f64) {
        if end > start {
            if let Some(s) = &mut self.schedule {
                s.push(Stretch {
                    thread,
                    activity,
                    start,
                    end,
                });
            }
        }
    }

    fn start(&mut self, thread: ThreadId, t: f64) {
        self.times[thread].start = Some(t);
        self.push(t, thread);
    }

    /// Takes the next ready thread or finished segment until none is left.
    fn run(&mut self) {
        loop {
            let next_ready = self.ready.peek().map(|Reverse(e)| unpack(*e).0);
            let next_job = self.sharing.as_ref().and_then(Sharing::next);
            let take_ready = match (next_ready, next_job) {
                (None, None) => return,
                (Some(r), Some(j)) => r <= j,
                (Some(_), None) => true,
                (None, Some(_)) => false,
            };
            if take_ready {
                let Some(Reverse(e)) = self.ready.pop() else {
                    return;
                };
                let (r, thread) = unpack(e);
                if let Some(s) = &mut self.sharing {
                    s.advance(r);
                }
                self.now = r;
                if thread & BATCH == 0 {
                    self.step(thread, r);
                } else {
                    self.step_batch(thread & !BATCH, r);
                }
            } else if let Some(s) = &mut self.sharing {
                let j = next_job.unwrap_or(s.real_then);
                s.advance(j);
                let Some(Reverse((_, _, thread))) = s.jobs.pop() else {
                    return;
                };
                s.active -= self.weight[thread];
                let start = s.starts[thread];
                self.threads[thread].wait = Wait::None;
                self.times[thread].compute += j - start;
                self.record(thread, Activity::Compute, start, j);
                self.now = j;
                self.step(thread, j);
            }
        }
    }

    /// Runs the threads of batch `slot`, all ready at `t`, in a random order (Fisher–Yates).
    fn step_batch(&mut self, slot: usize, t: f64) {
        let mut threads = std::mem::take(&mut self.batches[slot]);
        for i in (1..threads.len()).rev() {
            let j = (self.rng.next_u64() % (i as u64 + 1)) as usize;
            threads.swap(i, j);
        }
        for &w in &threads {
            self.step(w, t);
        }
        threads.clear();
        self.batches[slot] = threads;
        self.free_batches.push(slot);
    }

    /// Runs `thread` from its program counter at time `t` until it waits.
    fn step(&mut self, thread: ThreadId, mut t: f64) {
        loop {
            let pc = self.threads[thread].pc;
            let instr = self.code[pc as usize];
            let ordered = matches!(
                instr,
                Instr::Lock(_) | Instr::Unlock(_) | Instr::Send(..) | Instr::Recv(_)
            ) || (matches!(instr, Instr::Compute(_)) && self.sharing.is_some());
            if ordered && t > self.now {
                // Its turn comes at `t`.
                self.push(t, thread);
                return;
            }
            self.threads[thread].pc = pc + 1;
            self.steps += 1;
            match instr {
                Instr::Compute(d) => {
                    if d <= 0.0 {
                        continue;
                    }
                    self.threads[thread].worked = true;
                    if let Some(s) = &mut self.sharing {
                        s.starts[thread] = t;
                        s.active += self.weight[thread];
                        let tie = self.rng.next_u64();
                        s.jobs.push(Reverse((key(s.virtual_now + d), tie, thread)));
                        self.threads[thread].wait = Wait::Compute;
                        return;
                    }
                    self.times[thread].compute += d;
                    self.record(thread, Activity::Compute, t, t + d);
                    t += d;
                }
                Instr::Enter { slot, count, exit } => {
                    if count == 0 {
                        self.threads[thread].pc = exit;
                    } else {
                        self.threads[thread].counters[slot as usize] = count - 1;
                    }
                }
                Instr::Exit { slot, body } => {
                    let c = &mut self.threads[thread].counters[slot as usize];
                    if *c > 0 {
                        *c -= 1;
                        self.threads[thread].pc = body;
                    }
                }
                Instr::Jump(to) => self.threads[thread].pc = to,
                Instr::Mark => self.events += 1,
                Instr::Branch(p, other) => {
                    self.events += 1;
                    let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                    if u >= p {
                        self.threads[thread].pc = other;
                    }
                }
                Instr::End => {
                    self.times[thread].end = Some(t);
                    if let Some(parent) = self.joiner[thread] {
                        self.joined(parent, t);
                    }
                    return;
                }
                event => {
                    self.events += 1;
                    match self.event(thread, event, t) {
                        Some(next) => t = next,
                        None => return,
                    }
                }
            }
        }
    }

    /// An interacting event at `t`: the time the thread goes on at, or `None` if it waits.
    fn event(&mut self, thread: ThreadId, instr: Instr, t: f64) -> Option<f64> {
        match instr {
            Instr::Barrier(b) => {
                let bs = &mut self.barriers[b as usize];
                if bs.waiting.is_empty() || t > bs.latest {
                    bs.latest = t;
                }
                let worked = std::mem::take(&mut self.threads[thread].worked);
                bs.waiting.push((thread, t, worked));
                bs.arrived += self.weight[thread];
                if bs.arrived < self.participants[b as usize] {
                    self.threads[thread].wait = Wait::Barrier(b);
                    return None;
                }
                // Arrivals may be processed out of time order: the barrier opens at the
                // latest. Swapped with a kept buffer: no allocation per episode.
                let last = bs.latest;
                let count = std::mem::take(&mut bs.arrived);
                std::mem::swap(&mut bs.waiting, &mut self.released);
                let release = last + self.costs.barrier(count);
                let mut arrived = std::mem::take(&mut self.released);
                let mut batch = self.free_batches.pop();
                // The load imbalance: the threads that worked wait for the last of them.
                let last_worker = arrived
                    .iter()
                    .filter(|a| a.2)
                    .map(|a| a.1)
                    .fold(f64::NEG_INFINITY, f64::max);
                for &(w, since, worked) in &arrived {
                    self.times[w].barrier_wait += last - since;
                    if worked {
                        self.times[w].imbalance += last_worker - since;
                    }
                    self.times[w].events += release - last;
                    self.record(w, Activity::BarrierWait, since, last);
                    self.record(w, Activity::Event, last, release);
                    if w != thread {
                        self.threads[w].wait = Wait::None;
                        let slot = *batch.get_or_insert_with(|| {
                            self.batches.push(Vec::new());
                            self.batches.len() - 1
                        });
                        self.batches[slot].push(w);
                    }
                }
                if let Some(slot) = batch {
                    // The others, as one entry of the pool.
                    let tie = self.rng.next_u64() as u32;
                    self.ready.push(Reverse(entry(release, tie, BATCH | slot)));
                }
                arrived.clear();
                self.released = arrived;
                Some(release)
            }
            Instr::Lock(l) => {
                let ls = &mut self.locks[l as usize];
                if ls.holder == Some(thread) {
                    self.relock.get_or_insert((thread, l));
                }
                if ls.holder.is_some() {
                    ls.waiting.push_back((thread, t));
                    self.threads[thread].wait = Wait::Lock(l);
                    return None;
                }
                ls.holder = Some(thread);
                Some(self.pay(thread, t, self.costs.lock()))
            }
            Instr::Unlock(l) => {
                let after = t + self.costs.unlock();
                let ls = &mut self.locks[l as usize];
                if ls.holder != Some(thread) {
                    // The thread stops here; the traversal ends in an error.
                    self.misuse.get_or_insert((thread, l, ls.holder));
                    return None;
                }
                ls.holder = None;
                if let Some((w, since)) = ls.waiting.pop_front() {
                    ls.holder = Some(w);
                    self.threads[w].wait = Wait::None;
                    self.times[w].lock_wait += t - since;
                    self.record(w, Activity::LockWait, since, t);
                    let go = self.pay(w, t, self.costs.lock());
                    self.push(go, w);
                }
                self.times[thread].events += after - t;
                self.record(thread, Activity::Event, t, after);
                Some(after)
            }
            Instr::Fork(from, to) => {
                let k = self.weigh(from, to);
                let go = self.pay(thread, t, self.costs.fork(k));
                for i in from..to {
                    let child = self.lists[i as usize];
                    self.start(child, go);
                }
                Some(go)
            }
            Instr::Join(from, to) => {
                let mut running = 0;
                let mut latest = t;
                for i in from..to {
                    let c = self.lists[i as usize];
                    match self.times[c].end {
                        Some(e) => latest = latest.max(e),
                        None => {
                            self.joiner[c] = Some(thread);
                            running += 1;
                        }
                    }
                }
                let st = &mut self.threads[thread];
                st.since = t;
                st.joined_at = latest;
                if running == 0 {
                    return Some(self.joined_all(thread));
                }
                st.joining = running;
                st.wait = Wait::Join;
                None
            }
            Instr::Send(c, bytes) => {
                let ready = t + self.costs.latency(bytes);
                let go = self.pay(thread, t, self.costs.send(bytes));
                let ch = &mut self.channels[c as usize];
                if let Some((r, since)) = ch.receivers.pop_front() {
                    self.threads[r].wait = Wait::None;
                    let done = self.received(r, since, ready, bytes);
                    self.push(done, r);
                } else {
                    ch.messages.push_back(Message { ready, bytes });
                }
                Some(go)
            }
            Instr::Recv(c) => {
                let ch = &mut self.channels[c as usize];
                match ch.messages.pop_front() {
                    Some(m) => Some(self.received(thread, t, m.ready, m.bytes)),
                    None => {
                        ch.receivers.push_back((thread, t));
                        self.threads[thread].wait = Wait::Recv(c);
                        None
                    }
                }
            }
            _ => unreachable!("not an interacting event"),
        }
    }

    /// A receive that began waiting at `since` of a message ready at `ready`: when the
    /// receiver goes on.
    fn received(&mut self, thread: ThreadId, since: f64, ready: f64, bytes: u64) -> f64 {
        let from = since.max(ready);
        self.times[thread].recv_wait += from - since;
        self.record(thread, Activity::RecvWait, since, from);
        self.pay(thread, from, self.costs.recv(bytes))
    }

    /// The threads `lists[from..to]` stand for.
    fn weigh(&self, from: u32, to: u32) -> usize {
        self.lists[from as usize..to as usize]
            .iter()
            .map(|&c| self.weight[c])
            .sum()
    }

    /// An event cost paid by `thread` from `t`: when it goes on.
    fn pay(&mut self, thread: ThreadId, t: f64, cost: f64) -> f64 {
        self.times[thread].events += cost;
        self.record(thread, Activity::Event, t, t + cost);
        t + cost
    }

    /// A thread `parent` joins has ended at `t`.
    fn joined(&mut self, parent: ThreadId, t: f64) {
        let st = &mut self.threads[parent];
        st.joining -= 1;
        st.joined_at = st.joined_at.max(t);
        if st.joining > 0 {
            return;
        }
        st.wait = Wait::None;
        let go = self.joined_all(parent);
        self.push(go, parent);
    }

    /// Every thread `parent` joins has ended: the wait and the join's cost; when it goes on.
    fn joined_all(&mut self, parent: ThreadId) -> f64 {
        let (since, at) = (self.threads[parent].since, self.threads[parent].joined_at);
        self.times[parent].join_wait += at - since;
        self.record(parent, Activity::JoinWait, since, at);
        // The join's size: its instruction is the one before the program counter.
        let pc = self.threads[parent].pc as usize - 1;
        let k = match self.code[pc] {
            Instr::Join(from, to) => self.weigh(from, to),
            _ => 0,
        };
        self.pay(parent, at, self.costs.join(k))
    }

    /// The causes of a deadlock the traversal can name: a barrier that a thread waits at
    /// whose participants are not the threads that arrive at it, a lock taken twice by its
    /// holder, a lock held by a thread that has ended.
    fn causes(&self, graph: &Graph) -> Vec<DeadlockCause> {
        let name = |t: ThreadId| graph.threads[t].name.clone();
        let mut causes = Vec::new();
        for (b, bs) in self.barriers.iter().enumerate() {
            if bs.waiting.is_empty() {
                continue;
            }
            let (expects, arrive) = (self.participants[b], graph.arriving_at(b));
            if expects != arrive {
                causes.push(DeadlockCause::BarrierCount {
                    barrier: graph.barriers[b].name.clone(),
                    expects,
                    arrive,
                });
            }
        }
        if let Some((thread, l)) = self.relock {
            causes.push(DeadlockCause::Relock {
                thread: name(thread),
                lock: graph.locks[l as usize].clone(),
            });
        }
        for (l, ls) in self.locks.iter().enumerate() {
            if let Some(h) = ls.holder {
                if self.times[h].end.is_some() && !ls.waiting.is_empty() {
                    causes.push(DeadlockCause::EndedHolding {
                        thread: name(h),
                        lock: graph.locks[l].clone(),
                    });
                }
            }
        }
        causes
    }

    fn finish(self, graph: &Graph) -> Result<Outcome, SimError> {
        if let Some((thread, lock, holder)) = self.misuse {
            let name = |t: ThreadId| graph.threads[t].name.clone();
            return Err(SimError::NotHeld {
                thread: name(thread),
                lock: graph.locks[lock as usize].clone(),
                holder: holder.map(name),
            });
        }
        let blocked: Vec<(String, String)> = self
            .threads
            .iter()
            .zip(&self.times)
            .zip(&graph.threads)
            .filter(|((_, times), _)| times.end.is_none())
            .map(|((st, times), t)| {
                let what = match (times.start, st.wait) {
                    (None, _) => "a fork that never came".to_string(),
                    (_, Wait::Barrier(b)) => {
                        format!("barrier `{}`", graph.barriers[b as usize].name)
                    }
                    (_, Wait::Lock(l)) => format!("lock `{}`", graph.locks[l as usize]),
                    (_, Wait::Recv(c)) => {
                        format!("a message on channel `{}`", graph.channels[c as usize])
                    }
                    (_, Wait::Join) => "threads it joins".to_string(),
                    (_, Wait::Compute | Wait::None) => "nothing (an engine error)".to_string(),
                };
                (t.name.clone(), what)
            })
            .collect();
        if !blocked.is_empty() {
            let causes = self.causes(graph);
            return Err(SimError::Deadlock { causes, blocked });
        }
        let time = self.times.iter().filter_map(|t| t.end).fold(0.0, f64::max);
        Ok(Outcome {
            time,
            threads: self.times,
            events: self.events,
            steps: self.steps,
            schedule: self.schedule.unwrap_or_default(),
        })
    }
}
