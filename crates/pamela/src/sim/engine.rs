//! The event loop: threads, the event heap, resource queues.
//!
//! See the [module docs](super) for the semantics and the order of execution at one instant.

use super::eval::{int_range, snap};
use super::lower::{Node, Program, NONE};
use super::{
    Arbitration, MemberUsage, ResourceUsage, SimOptions, SimResult, TraceCut, MAX_ACTIVE,
    MAX_PROCESS_LANES,
};
use crate::diag::{ErrorKind, ModelError};
use crate::model::Model;
use stats::rng::RandExt;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::fmt::Write;

/// A control-stack entry of a thread.
#[derive(Clone, Copy, Debug)]
enum Ctl {
    /// Inside a `seq` composite: the next child is `kids[pos]`, the last `kids[end - 1]`.
    Seq { pos: u32, end: u32 },
    /// Inside a `seq` loop: the body runs for index `i` (in `slot`), last index `hi`.
    Loop {
        body: u32,
        slot: u32,
        i: f64,
        hi: f64,
    },
    /// Inside a call: the caller's frame starts at `base`.
    Return { base: u32 },
}

/// A running process instance: a continuation.
#[derive(Debug, Default)]
struct Thread {
    /// Frames of the calls the thread is in; the current one is `slots[base..]`.
    slots: Vec<f64>,
    ctl: Vec<Ctl>,
    base: u32,
    /// Thread whose join counter this one decrements when it ends (`NONE`: the root).
    parent: u32,
    /// Children still running, while blocked at a `par`.
    pending: u32,
    /// The node to start when the thread is taken from the ready queue.
    pc: u32,
    /// The member held or waited for during a `use` (`NONE` during a `delay`).
    holding: u32,
}

/// Bits of an event key that hold the thread id; the sequence number sits above them.
const TID_BITS: u32 = 24;
/// Sequence numbers (one per scheduled completion, so at most one per event) must fit in
/// the 40 bits above the thread id; runs are capped at this many events.
pub(crate) const MAX_SEQ: u64 = (1 << (64 - TID_BITS)) - 1;
const _: () = assert!(MAX_ACTIVE < 1 << TID_BITS);

/// A scheduled completion, packed into one integer whose order is the processing order:
/// the bits of the time (a non-negative finite `f64`, whose bit pattern orders like its
/// value), then the sequence number of the schedule operation, then the thread id.
/// `Reverse` turns `BinaryHeap` into a min-heap.
type Entry = Reverse<u128>;

fn entry(time: f64, seq: u64, tid: u32) -> Entry {
    Reverse((u128::from(time.to_bits()) << 64) | u128::from(seq << TID_BITS) | u128::from(tid))
}

fn entry_time(e: &Entry) -> f64 {
    f64::from_bits((e.0 >> 64) as u64)
}

fn entry_tid(e: &Entry) -> u32 {
    (e.0 as u32) & ((1 << TID_BITS) - 1)
}

/// A queued request.
#[derive(Clone, Copy, Debug)]
struct Waiter {
    tid: u32,
    dur: f64,
}

/// State of one resource member.
#[derive(Debug)]
struct Member {
    busy: u64,
    /// Servers (`u64::MAX`: infinite).
    cap: u64,
    queue: VecDeque<Waiter>,
    busy_time: f64,
    served: u64,
}

/// Trace recording state (only with `record_trace`).
struct Recorder {
    /// Per member: server slot → local server lane.
    lanes: Vec<Vec<u32>>,
    /// Per member: free server slots.
    free: Vec<Vec<u32>>,
    /// Local server lanes: (member, server slot).
    lane_key: Vec<(u32, u32)>,
    /// Per thread id: the thread currently running under that id (ids are recycled, so
    /// everything that must outlive the thread is in `clients`).
    threads: Vec<ThreadRec>,
    /// Threads that performed a `use` or `delay`, in order of their first one.
    clients: Vec<Client>,
    /// Clients with a process lane (at most [`MAX_PROCESS_LANES`]).
    process_lanes: usize,
    /// Threads spawned so far: the spawn ordinal of the next one.
    spawned: u64,
    intervals: Vec<Rec>,
}

/// Trace state of a live thread.
#[derive(Clone, Copy, Debug, Default)]
struct ThreadRec {
    /// Index into [`Program::scopes`] of the place it was spawned.
    scope: u32,
    /// Spawn ordinal.
    spawn: u64,
    /// Index into [`Recorder::clients`]; `NONE` before its first `use` or `delay`.
    client: u32,
    /// The server slot held during a `use`.
    server: u32,
    /// When the current `use` was requested.
    request: f64,
}

/// A thread that performed a `use` or `delay`.
#[derive(Debug)]
struct Client {
    /// Process name and frame variables at spawn, e.g. `main p=3`.
    label: String,
    /// Spawn ordinal: process lanes are ordered by it.
    spawn: u64,
    /// Whether it has a process lane.
    lane: bool,
}

/// A recorded interval; labels are made when the trace is built.
#[derive(Clone, Copy, Debug)]
enum Rec {
    /// Service of `client` on local server lane `lane`.
    Server {
        lane: u32,
        client: u32,
        start: f64,
        end: f64,
    },
    /// On the client's process lane: a `delay`.
    Delay { client: u32, start: f64, end: f64 },
    /// On the client's process lane: queueing for `member`.
    Wait {
        client: u32,
        member: u32,
        start: f64,
        end: f64,
    },
    /// On the client's process lane: service by `member`.
    Serve {
        client: u32,
        member: u32,
        start: f64,
        end: f64,
    },
}

struct Sim<'a, 'p> {
    model: &'a Model,
    prog: &'a Program,
    arbitration: Arbitration,
    max_events: u64,
    step_limit: u64,
    meter: Option<&'p sweep::Meter>,
    threads: Vec<Thread>,
    free: Vec<u32>,
    ready: VecDeque<u32>,
    heap: BinaryHeap<Entry>,
    members: Vec<Member>,
    rng: stats::rng::Rng,
    scratch: Vec<f64>,
    now: f64,
    seq: u64,
    events: u64,
    steps: u64,
    active: usize,
    peak: usize,
    /// Completion time of the root, once it has ended.
    end: Option<f64>,
    rec: Option<Recorder>,
    /// The most timeline intervals recorded.
    max_trace_intervals: usize,
    /// The recording, once it stopped at `max_trace_intervals`, and when.
    cut: Option<(Recorder, f64)>,
}

/// Runs the lowered program.
pub(crate) fn run(
    model: &Model,
    prog: &Program,
    opts: &SimOptions,
    meter: Option<&sweep::Meter>,
) -> Result<SimResult, Box<ModelError>> {
    let mut members = Vec::with_capacity(prog.members as usize);
    for r in &prog.res {
        for _ in 0..r.members {
            members.push(Member {
                busy: 0,
                cap: r.multiplicity.unwrap_or(u64::MAX),
                queue: VecDeque::new(),
                busy_time: 0.0,
                served: 0,
            });
        }
    }
    let rec = opts.record_trace.then(|| Recorder {
        lanes: vec![Vec::new(); members.len()],
        free: vec![Vec::new(); members.len()],
        lane_key: Vec::new(),
        threads: Vec::new(),
        clients: Vec::new(),
        process_lanes: 0,
        spawned: 0,
        intervals: Vec::new(),
    });
    let mut sim = Sim {
        model,
        prog,
        arbitration: opts.arbitration,
        max_events: opts.max_events.min(MAX_SEQ),
        step_limit: opts.max_events.saturating_mul(16).max(1 << 16),
        meter,
        threads: Vec::new(),
        free: Vec::new(),
        ready: VecDeque::new(),
        heap: BinaryHeap::new(),
        members,
        rng: stats::rng::seeded(opts.seed),
        scratch: Vec::new(),
        now: 0.0,
        seq: 0,
        events: 0,
        steps: 0,
        active: 0,
        peak: 0,
        end: None,
        rec,
        max_trace_intervals: opts.max_trace_intervals,
        cut: None,
    };
    let root = sim.spawn(NONE, prog.root, prog.root_scope)?;
    sim.threads[root as usize]
        .slots
        .resize(prog.root_frame as usize, 0.0);
    sim.ready.push_back(root);
    sim.main_loop()?;
    Ok(sim.finish())
}

impl Sim<'_, '_> {
    fn main_loop(&mut self) -> Result<(), Box<ModelError>> {
        loop {
            while let Some(tid) = self.ready.pop_front() {
                let pc = self.threads[tid as usize].pc;
                self.exec(tid, pc)?;
            }
            let Some(e) = self.heap.pop() else {
                return Ok(());
            };
            self.now = entry_time(&e);
            self.wake(entry_tid(&e))?;
        }
    }

    /// An error at node `n`.
    fn err(&self, n: u32, kind: ErrorKind, msg: String, label: &str) -> Box<ModelError> {
        Box::new(ModelError::new(kind, msg).at(
            &self.model.source,
            self.prog.spans[n as usize],
            label,
        ))
    }

    fn eval_err(&self, n: u32, msg: String) -> Box<ModelError> {
        self.err(n, ErrorKind::Evaluation, msg, "while simulating this")
    }

    fn limit(&self, msg: String, reached: sweep::Reached) -> Box<ModelError> {
        let mut e = ModelError::new(ErrorKind::Limit, msg).with_help(
            "every `use` and `delay` instance is one event; a larger event limit lets the run go on",
        );
        e.reached = Some(reached);
        Box::new(e)
    }

    /// A new thread with parent `parent` that will start at `pc`, spawned in scope `scope`
    /// (for its trace lane name); its frame is empty.
    fn spawn(&mut self, parent: u32, pc: u32, scope: u32) -> Result<u32, Box<ModelError>> {
        self.active += 1;
        if self.active > MAX_ACTIVE {
            return Err(Box::new(
                ModelError::new(
                    ErrorKind::Limit,
                    format!(
                        "more than {MAX_ACTIVE} processes active at once (simulated time {})",
                        self.now
                    ),
                )
                .with_help(
                    "a `par` with this many branches cannot be simulated; reduce the parameters",
                ),
            ));
        }
        self.peak = self.peak.max(self.active);
        let tid = match self.free.pop() {
            Some(t) => t,
            None => {
                self.threads.push(Thread::default());
                (self.threads.len() - 1) as u32
            }
        };
        let th = &mut self.threads[tid as usize];
        th.slots.clear();
        th.ctl.clear();
        th.base = 0;
        th.parent = parent;
        th.pending = 0;
        th.pc = pc;
        th.holding = NONE;
        if let Some(rec) = &mut self.rec {
            let t = tid as usize;
            if t >= rec.threads.len() {
                rec.threads.resize(t + 1, ThreadRec::default());
            }
            rec.threads[t] = ThreadRec {
                scope,
                spawn: rec.spawned,
                client: NONE,
                server: NONE,
                request: 0.0,
            };
            rec.spawned += 1;
        }
        Ok(tid)
    }

    fn frame(&self, tid: u32) -> &[f64] {
        let th = &self.threads[tid as usize];
        &th.slots[th.base as usize..]
    }

    /// Counts one `use`/`delay` event.
    #[inline]
    fn event(&mut self) -> Result<(), Box<ModelError>> {
        if self.events >= self.max_events {
            return Err(self.limit(
                format!(
                    "stopped after {} events, the event limit; simulated time so far {}",
                    self.events, self.now
                ),
                sweep::Reached::new(sweep::Limit::Events, self.max_events),
            ));
        }
        self.events += 1;
        // An event records at most three intervals; the recording stops before the limit.
        if self
            .rec
            .as_ref()
            .is_some_and(|r| r.intervals.len() + 3 > self.max_trace_intervals)
        {
            let rec = self.rec.take().expect("checked");
            self.cut = Some((rec, self.now));
        }
        if self.events & 0xFFFF == 0 {
            if let Some(m) = self.meter {
                m.set_count(self.events);
            }
        }
        Ok(())
    }

    #[inline]
    fn schedule(&mut self, n: u32, dur: f64, tid: u32) -> Result<(), Box<ModelError>> {
        let at = self.now + dur;
        if !at.is_finite() {
            return Err(self.eval_err(n, format!("time overflows: {} + {dur}", self.now)));
        }
        self.push(at, tid);
        Ok(())
    }

    /// Gives a server of member `m` to `tid` for `dur` (the busy count is already taken).
    fn grant(&mut self, m: u32, tid: u32, dur: f64) {
        let mem = &mut self.members[m as usize];
        mem.busy_time += dur;
        mem.served += 1;
        self.threads[tid as usize].holding = m;
        if self.rec.is_some() {
            self.record(m, tid, dur);
        }
        // `dur` was checked when requested; `now + dur` is finite unless it overflows, which
        // the heap order tolerates (infinity sorts last) and `finish` reports as the time.
        self.push(self.now + dur, tid);
    }

    /// Schedules the completion of `tid`'s current action at `at`.
    #[inline]
    fn push(&mut self, at: f64, tid: u32) {
        self.seq += 1;
        self.heap.push(entry(at, self.seq, tid));
    }

    /// The heap entry of `tid` fired: release what it holds and continue it.
    fn wake(&mut self, tid: u32) -> Result<(), Box<ModelError>> {
        let m = self.threads[tid as usize].holding;
        if m != NONE {
            self.threads[tid as usize].holding = NONE;
            if let Some(rec) = &mut self.rec {
                rec.free[m as usize].push(rec.threads[tid as usize].server);
            }
            let mem = &mut self.members[m as usize];
            let next = match self.arbitration {
                Arbitration::Fcfs => mem.queue.pop_front(),
                Arbitration::Random => {
                    let n = mem.queue.len();
                    if n == 0 {
                        None
                    } else {
                        mem.queue.swap_remove_back(self.rng.gen_range(0..n))
                    }
                }
            };
            match next {
                Some(w) => self.grant(m, w.tid, w.dur),
                None => mem.busy -= 1,
            }
        }
        self.exec(tid, NONE)
    }

    /// Runs thread `tid` from node `next` (`NONE`: its current action has just completed)
    /// until it blocks. When a thread ends and its parent's join completes, the parent
    /// continues here.
    fn exec(&mut self, mut tid: u32, mut next: u32) -> Result<(), Box<ModelError>> {
        let prog = self.prog;
        loop {
            if next != NONE {
                let n = next;
                self.steps += 1;
                if self.steps > self.step_limit {
                    return Err(self.limit(
                        format!(
                            "stopped after {} interpreter steps ({} events; the step limit is 16 \
                             times the event limit); simulated time so far {}",
                            self.step_limit, self.events, self.now
                        ),
                        sweep::Reached::new(sweep::Limit::Events, self.max_events),
                    ));
                }
                match &prog.nodes[n as usize] {
                    Node::Skip => next = NONE,
                    Node::Delay { time } => {
                        let t = self.duration(n, time.eval(self.frame(tid)))?;
                        self.event()?;
                        self.threads[tid as usize].holding = NONE;
                        if self.rec.is_some() {
                            self.record_delay(tid, t);
                        }
                        return self.schedule(n, t, tid);
                    }
                    Node::Use {
                        res, index, time, ..
                    } => {
                        let t = self.duration(n, time.eval(self.frame(tid)))?;
                        let info = &prog.res[*res as usize];
                        let mut m = info.first;
                        if let Some(ix) = index {
                            let v = ix.eval(self.frame(tid)).map_err(|e| self.eval_err(n, e))?;
                            let k = snap(v);
                            if !(k >= 0.0 && k < f64::from(info.members) && k.fract() == 0.0) {
                                let what = if k.fract() != 0.0 || !k.is_finite() {
                                    "is not an integer"
                                } else {
                                    "is out of range"
                                };
                                return Err(self
                                    .err(
                                        n,
                                        ErrorKind::IndexOutOfRange,
                                        format!(
                                            "index {v} of `{}` {what}: the family has {} members, indexed 0..={}",
                                            info.name,
                                            info.members,
                                            info.members - 1
                                        ),
                                        "this use",
                                    ));
                            }
                            m += k as u32;
                        }
                        self.event()?;
                        if self.rec.is_some() {
                            self.record_request(tid);
                        }
                        let mem = &mut self.members[m as usize];
                        if mem.busy < mem.cap {
                            mem.busy += 1;
                            self.grant(m, tid, t);
                        } else {
                            mem.queue.push_back(Waiter { tid, dur: t });
                            self.threads[tid as usize].holding = m;
                        }
                        return Ok(());
                    }
                    Node::Seq { first, len } => match *len {
                        0 => next = NONE,
                        1 => next = prog.kids[*first as usize],
                        _ => {
                            self.threads[tid as usize].ctl.push(Ctl::Seq {
                                pos: first + 1,
                                end: first + len,
                            });
                            next = prog.kids[*first as usize];
                        }
                    },
                    Node::Par { first, len, scope } => {
                        if *len == 0 {
                            next = NONE;
                            continue;
                        }
                        self.fork(tid, *len, *scope, |k| {
                            (prog.kids[(first + k) as usize], None)
                        })?;
                        return Ok(());
                    }
                    Node::Loop {
                        par,
                        slot,
                        lo,
                        hi,
                        body,
                        scope,
                    } => {
                        let f = self.frame(tid);
                        let (a, b) = lo
                            .eval(f)
                            .and_then(|a| Ok((a, hi.eval(f)?)))
                            .and_then(|(a, b)| int_range(a, b))
                            .map_err(|e| self.eval_err(n, e))?;
                        if b < a {
                            next = NONE;
                            continue;
                        }
                        if *par {
                            let count = b - a + 1.0;
                            if count > (MAX_ACTIVE - self.active) as f64 {
                                self.spawn_limit(count)?;
                            }
                            let (slot, body) = (*slot, *body);
                            self.fork(tid, count as u32, *scope, |k| {
                                (body, Some((slot, a + f64::from(k))))
                            })?;
                            return Ok(());
                        }
                        let th = &mut self.threads[tid as usize];
                        th.slots[(th.base + slot) as usize] = a;
                        if b > a {
                            th.ctl.push(Ctl::Loop {
                                body: *body,
                                slot: *slot,
                                i: a,
                                hi: b,
                            });
                        }
                        next = *body;
                    }
                    Node::If { cond, then, els } => {
                        let th = &self.threads[tid as usize];
                        let rng = &mut self.rng;
                        let r = cond
                            .sample(&th.slots[th.base as usize..], &mut |p| rng.gen::<f64>() < p);
                        next = if r.map_err(|e| self.eval_err(n, e))? {
                            *then
                        } else {
                            *els
                        };
                    }
                    Node::Call { body, frame, args } => {
                        self.scratch.clear();
                        for a in args.iter() {
                            let v = a.eval(self.frame(tid)).map_err(|e| self.eval_err(n, e))?;
                            self.scratch.push(v);
                        }
                        let th = &mut self.threads[tid as usize];
                        th.ctl.push(Ctl::Return { base: th.base });
                        th.base = th.slots.len() as u32;
                        th.slots.extend_from_slice(&self.scratch);
                        th.slots.resize((th.base + frame) as usize, 0.0);
                        next = *body;
                    }
                }
            } else {
                let th = &mut self.threads[tid as usize];
                match th.ctl.last_mut() {
                    Some(Ctl::Seq { pos, end }) => {
                        next = prog.kids[*pos as usize];
                        *pos += 1;
                        if *pos == *end {
                            th.ctl.pop();
                        }
                    }
                    Some(Ctl::Loop { body, slot, i, hi }) => {
                        *i += 1.0;
                        let (body, slot, last) = (*body, *slot, *i >= *hi);
                        th.slots[(th.base + slot) as usize] = *i;
                        if last {
                            th.ctl.pop();
                        }
                        next = body;
                    }
                    Some(Ctl::Return { base }) => {
                        let base = *base;
                        th.slots.truncate(th.base as usize);
                        th.base = base;
                        th.ctl.pop();
                    }
                    None => {
                        // The thread ends.
                        let parent = th.parent;
                        self.free.push(tid);
                        self.active -= 1;
                        if parent == NONE {
                            self.end = Some(self.now);
                            return Ok(());
                        }
                        let p = &mut self.threads[parent as usize];
                        p.pending -= 1;
                        if p.pending > 0 {
                            return Ok(());
                        }
                        tid = parent;
                    }
                }
            }
        }
    }

    /// Checks a duration.
    #[inline]
    fn duration(&self, n: u32, t: Result<f64, String>) -> Result<f64, Box<ModelError>> {
        match t {
            // The clock must stay finite too: a sum of huge times overflows (the bound
            // rejects the same model).
            Ok(t) if t >= 0.0 && t.is_finite() && !(self.now + t).is_finite() => Err(self
                .eval_err(
                    n,
                    format!(
                    "the time {t:e} at simulated time {:e} makes the clock overflow; use a unit \
                     in which the run's length is a finite number",
                    self.now
                ),
                )),
            Ok(t) if t >= 0.0 && t.is_finite() => Ok(t),
            Ok(t) => Err(self.eval_err(
                n,
                format!("the time is {t}; times must be finite and non-negative"),
            )),
            Err(e) => Err(self.eval_err(n, e)),
        }
    }

    fn spawn_limit(&self, count: f64) -> Result<(), Box<ModelError>> {
        Err(Box::new(
            ModelError::new(
                ErrorKind::Limit,
                format!(
                    "a `par` of {count} branches would make more than {MAX_ACTIVE} processes active at once (simulated time {})",
                    self.now
                ),
            )
            .with_help("the simulator keeps every active process in memory; reduce the parameters"),
        ))
    }

    /// Blocks `tid` on `count` children spawned in scope `scope`; child `k` starts at
    /// `child(k).0`, with the parent's current frame and, if given, `slot := value`.
    fn fork(
        &mut self,
        tid: u32,
        count: u32,
        scope: u32,
        child: impl Fn(u32) -> (u32, Option<(u32, f64)>),
    ) -> Result<(), Box<ModelError>> {
        self.scratch.clear();
        let th = &self.threads[tid as usize];
        self.scratch
            .extend_from_slice(&th.slots[th.base as usize..]);
        self.threads[tid as usize].pending = count;
        for k in 0..count {
            let (pc, set) = child(k);
            let c = self.spawn(tid, pc, scope)?;
            let slots = &mut self.threads[c as usize].slots;
            slots.extend_from_slice(&self.scratch);
            if let Some((s, v)) = set {
                slots[s as usize] = v;
            }
            self.ready.push_back(c);
        }
        Ok(())
    }

    /// Trace: the client index of `tid`, made at its first `use` or `delay`, with a process
    /// lane while there are fewer than [`MAX_PROCESS_LANES`].
    fn client(&mut self, tid: u32) -> u32 {
        let Some(rec) = &mut self.rec else {
            return NONE;
        };
        let tr = &mut rec.threads[tid as usize];
        if tr.client != NONE {
            return tr.client;
        }
        // The spawn frame is the bottom of the slot stack; the slots of the spawn scope's
        // variables are never written after the spawn (inner loops use deeper slots, calls
        // push frames above it).
        let sc = &self.prog.scopes[tr.scope as usize];
        let mut label = sc.process.to_string();
        for (name, v) in sc.vars.iter().zip(&self.threads[tid as usize].slots) {
            let _ = write!(label, " {name}={v}");
        }
        let lane = rec.process_lanes < MAX_PROCESS_LANES;
        rec.process_lanes += usize::from(lane);
        let c = rec.clients.len() as u32;
        rec.clients.push(Client {
            label,
            spawn: tr.spawn,
            lane,
        });
        tr.client = c;
        c
    }

    /// Trace: `tid` requests a server now.
    fn record_request(&mut self, tid: u32) {
        self.client(tid);
        if let Some(rec) = &mut self.rec {
            rec.threads[tid as usize].request = self.now;
        }
    }

    /// Trace: a `delay(dur)` of `tid` starting now.
    fn record_delay(&mut self, tid: u32, dur: f64) {
        let client = self.client(tid);
        let Some(rec) = &mut self.rec else { return };
        if rec.clients[client as usize].lane {
            rec.intervals.push(Rec::Delay {
                client,
                start: self.now,
                end: self.now + dur,
            });
        }
    }

    /// Trace: gives `tid` a server slot of member `m` and records its service (on the server
    /// lane and on the process lane, after the wait since the request if there was one).
    fn record(&mut self, m: u32, tid: u32, dur: f64) {
        let client = self.client(tid);
        let Some(rec) = &mut self.rec else { return };
        let mu = m as usize;
        let server = match rec.free[mu].pop() {
            Some(s) => s,
            None => {
                let s = rec.lanes[mu].len() as u32;
                rec.lanes[mu].push(rec.lane_key.len() as u32);
                rec.lane_key.push((m, s));
                s
            }
        };
        let (start, end) = (self.now, self.now + dur);
        rec.intervals.push(Rec::Server {
            lane: rec.lanes[mu][server as usize],
            client,
            start,
            end,
        });
        let tr = &mut rec.threads[tid as usize];
        tr.server = server;
        if rec.clients[client as usize].lane {
            if tr.request < start {
                rec.intervals.push(Rec::Wait {
                    client,
                    member: m,
                    start: tr.request,
                    end: start,
                });
            }
            rec.intervals.push(Rec::Serve {
                client,
                member: m,
                start,
                end,
            });
        }
    }

    fn member_name(&self, r: usize, k: u32) -> String {
        let info = &self.prog.res[r];
        if info.family {
            format!("{}[{k}]", info.name)
        } else {
            info.name.clone()
        }
    }

    fn finish(mut self) -> SimResult {
        let time = self.end.unwrap_or(self.now);
        let util = |busy: f64, servers: Option<u64>, n: u32| match servers {
            Some(c) if time > 0.0 => busy / (c as f64 * f64::from(n) * time),
            _ => 0.0,
        };
        let mut resources = Vec::with_capacity(self.prog.res.len());
        for (r, info) in self.prog.res.iter().enumerate() {
            let ms = &self.members[info.first as usize..(info.first + info.members) as usize];
            let busy: f64 = ms.iter().map(|m| m.busy_time).sum();
            let members = if info.family {
                ms.iter()
                    .enumerate()
                    .map(|(k, m)| MemberUsage {
                        name: self.member_name(r, k as u32),
                        busy: m.busy_time,
                        utilization: util(m.busy_time, info.multiplicity, 1),
                        served: m.served,
                    })
                    .collect()
            } else {
                Vec::new()
            };
            resources.push(ResourceUsage {
                name: info.name.clone(),
                busy,
                utilization: util(busy, info.multiplicity, info.members),
                served: ms.iter().map(|m| m.served).sum(),
                members,
            });
        }
        let (rec, trace_cut) = match self.cut.take() {
            Some((rec, at)) => (
                Some(rec),
                Some(TraceCut {
                    at,
                    reached: sweep::Reached::new(
                        sweep::Limit::TimelineIntervals,
                        self.max_trace_intervals as u64,
                    ),
                }),
            ),
            None => (self.rec.take(), None),
        };
        let trace = rec.map(|rec| self.build_trace(rec));
        SimResult {
            time,
            events: self.events,
            resources,
            peak_active: self.peak,
            trace,
            trace_cut,
        }
    }

    /// The name of member `m` (a flat member index), e.g. `s` or `cpu[2]`.
    fn member_label(&self, m: u32) -> String {
        let r = self
            .prog
            .res
            .partition_point(|info| info.first + info.members <= m);
        self.member_name(r, m - self.prog.res[r].first)
    }

    /// Server lanes in declaration order (resource, member, server), then process lanes in
    /// spawn order, then the intervals.
    fn build_trace(&self, rec: Recorder) -> trace::Trace {
        let mut t = trace::Trace::new(self.model.source.name.clone());
        let mut order: Vec<u32> = (0..rec.lane_key.len() as u32).collect();
        order.sort_by_key(|&l| rec.lane_key[l as usize]);
        let mut id = vec![0; order.len()];
        let mut r = 0;
        for l in order {
            let (m, s) = rec.lane_key[l as usize];
            while m >= self.prog.res[r].first + self.prog.res[r].members {
                r += 1;
            }
            let info = &self.prog.res[r];
            let member = self.member_name(r, m - info.first);
            let name = if info.multiplicity == Some(1) {
                member
            } else {
                format!("{member}#{s}")
            };
            id[l as usize] = t.add_lane(name, info.name.clone());
        }

        // Process lanes: unique names (`#2`, `#3`, … on a collision), and the label of the
        // client's service on server lanes (see `server_label`).
        let mut clients = rec.clients;
        let mut laned: Vec<usize> = (0..clients.len()).filter(|&c| clients[c].lane).collect();
        laned.sort_by_key(|&c| clients[c].spawn);
        let mut used: HashSet<String> = t.lanes.iter().map(|l| l.name.clone()).collect();
        let mut next_k: HashMap<String, u64> = HashMap::new();
        let mut lane_of = vec![usize::MAX; clients.len()];
        for (row, &c) in laned.iter().enumerate() {
            let base = &clients[c].label;
            let mut name = base.clone();
            if !used.insert(name.clone()) {
                let k = next_k.entry(base.clone()).or_insert(1);
                loop {
                    *k += 1;
                    name = format!("{base}#{k}");
                    if used.insert(name.clone()) {
                        break;
                    }
                }
            }
            lane_of[c] = t.add_lane(name.clone(), "processes");
            clients[c].label = server_label(row, &name);
        }

        let mut members: HashMap<u32, (String, String)> = HashMap::new();
        let mut member = |m: u32| {
            members
                .entry(m)
                .or_insert_with(|| {
                    let name = self.member_label(m);
                    (format!("wait {name}"), name)
                })
                .clone()
        };
        let busy = trace::Kind::Busy;
        for iv in rec.intervals {
            match iv {
                Rec::Server {
                    lane,
                    client,
                    start,
                    end,
                } => {
                    let label = clients[client as usize].label.clone();
                    t.push(id[lane as usize], start, end, label, busy);
                }
                Rec::Delay { client, start, end } => {
                    t.push(lane_of[client as usize], start, end, "delay", busy);
                }
                Rec::Wait {
                    client,
                    member: m,
                    start,
                    end,
                } => {
                    let label = member(m).0;
                    t.push(
                        lane_of[client as usize],
                        start,
                        end,
                        label,
                        trace::Kind::Wait,
                    );
                }
                Rec::Serve {
                    client,
                    member: m,
                    start,
                    end,
                } => {
                    let label = member(m).1;
                    t.push(lane_of[client as usize], start, end, label, busy);
                }
            }
        }
        t
    }
}

/// The label of a client's service on a server lane: a letter code of its process-lane row
/// (`A`, …, `Z`, `AA`, … in bijective base 26), then the lane name, e.g. `C: main p=3`. The
/// Gantt chart colours busy bars by the leading letters of the label, so the code gives each
/// client its own colour, which the lane name alone would not (`main p=1` and `main p=2`
/// share the prefix `main`).
pub(super) fn server_label(row: usize, lane: &str) -> String {
    let mut code = Vec::new();
    let mut n = row + 1;
    while n > 0 {
        n -= 1;
        code.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    code.reverse();
    let mut s = String::from_utf8(code).unwrap_or_default();
    s.push_str(": ");
    s.push_str(lane);
    s
}
