//! The event loop: threads, the event heap, resource queues.
//!
//! See the [module docs](super) for the semantics and the order of execution at one instant.

use super::eval::{int_range, snap};
use super::lower::{Node, Program, NONE};
use super::{Arbitration, MemberUsage, ResourceUsage, SimOptions, SimResult, MAX_ACTIVE};
use crate::diag::{ErrorKind, ModelError};
use crate::model::Model;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
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
    /// Trace only: the server slot held, and the `use` node (for the label).
    server: u32,
    node: u32,
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
    /// Per member: server slot → local lane id.
    lanes: Vec<Vec<u32>>,
    /// Per member: free server slots.
    free: Vec<Vec<u32>>,
    /// Local lanes: (member, server slot).
    lane_key: Vec<(u32, u32)>,
    /// (local lane, start, end, label).
    intervals: Vec<(u32, f64, f64, String)>,
}

struct Sim<'a, 'p> {
    model: &'a Model,
    prog: &'a Program,
    arbitration: Arbitration,
    max_events: u64,
    step_limit: u64,
    progress: &'p mut dyn FnMut(u64, f64),
    threads: Vec<Thread>,
    free: Vec<u32>,
    ready: VecDeque<u32>,
    heap: BinaryHeap<Entry>,
    members: Vec<Member>,
    rng: ChaCha8Rng,
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
}

/// Runs the lowered program.
pub(crate) fn run(
    model: &Model,
    prog: &Program,
    opts: &SimOptions,
    progress: &mut dyn FnMut(u64, f64),
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
        intervals: Vec::new(),
    });
    let mut sim = Sim {
        model,
        prog,
        arbitration: opts.arbitration,
        max_events: opts.max_events.min(MAX_SEQ),
        step_limit: opts.max_events.saturating_mul(16).max(1 << 16),
        progress,
        threads: Vec::new(),
        free: Vec::new(),
        ready: VecDeque::new(),
        heap: BinaryHeap::new(),
        members,
        rng: ChaCha8Rng::seed_from_u64(opts.seed),
        scratch: Vec::new(),
        now: 0.0,
        seq: 0,
        events: 0,
        steps: 0,
        active: 0,
        peak: 0,
        end: None,
        rec,
    };
    let root = sim.spawn(NONE, prog.root)?;
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

    fn limit(&self, msg: String) -> Box<ModelError> {
        Box::new(ModelError::new(ErrorKind::Limit, msg).with_help(
            "every `use` and `delay` instance is one event; a larger --max-events lets the run go on",
        ))
    }

    /// A new thread with parent `parent` that will start at `pc`; its frame is empty.
    fn spawn(&mut self, parent: u32, pc: u32) -> Result<u32, Box<ModelError>> {
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
            return Err(self.limit(format!(
                "stopped after {} events (--max-events); simulated time so far {}; raise --max-events",
                self.events, self.now
            )));
        }
        self.events += 1;
        if self.events & 0xFFFF == 0 {
            (self.progress)(self.events, self.now);
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
                rec.free[m as usize].push(self.threads[tid as usize].server);
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
                    return Err(self.limit(format!(
                        "stopped after {} interpreter steps ({} events; the step limit is 16 × --max-events); simulated time so far {}; raise --max-events",
                        self.step_limit, self.events, self.now
                    )));
                }
                match &prog.nodes[n as usize] {
                    Node::Skip => next = NONE,
                    Node::Delay { time } => {
                        let t = self.duration(n, time.eval(self.frame(tid)))?;
                        self.event()?;
                        self.threads[tid as usize].holding = NONE;
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
                            self.threads[tid as usize].node = n;
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
                    Node::Par { first, len } => {
                        if *len == 0 {
                            next = NONE;
                            continue;
                        }
                        self.fork(tid, *len, |k| (prog.kids[(first + k) as usize], None))?;
                        return Ok(());
                    }
                    Node::Loop {
                        par,
                        slot,
                        lo,
                        hi,
                        body,
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
                            self.fork(tid, count as u32, |k| {
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

    /// Blocks `tid` on `count` children; child `k` starts at `child(k).0`, with the parent's
    /// current frame and, if given, `slot := value`.
    fn fork(
        &mut self,
        tid: u32,
        count: u32,
        child: impl Fn(u32) -> (u32, Option<(u32, f64)>),
    ) -> Result<(), Box<ModelError>> {
        self.scratch.clear();
        let th = &self.threads[tid as usize];
        self.scratch
            .extend_from_slice(&th.slots[th.base as usize..]);
        self.threads[tid as usize].pending = count;
        for k in 0..count {
            let (pc, set) = child(k);
            let c = self.spawn(tid, pc)?;
            let slots = &mut self.threads[c as usize].slots;
            slots.extend_from_slice(&self.scratch);
            if let Some((s, v)) = set {
                slots[s as usize] = v;
            }
            self.ready.push_back(c);
        }
        Ok(())
    }

    /// Trace: gives `tid` a server slot of member `m` and records its busy interval.
    fn record(&mut self, m: u32, tid: u32, dur: f64) {
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
        let th = &self.threads[tid as usize];
        let lane = rec.lanes[mu][server as usize];
        let label = match &self.prog.nodes[th.node as usize] {
            Node::Use { scope, .. } => {
                let sc = &self.prog.scopes[*scope as usize];
                let mut s = sc.process.to_string();
                let f = &th.slots[th.base as usize..];
                for (name, v) in sc.vars.iter().zip(f) {
                    let _ = write!(s, " {name}={v}");
                }
                s
            }
            _ => String::new(),
        };
        rec.intervals.push((lane, self.now, self.now + dur, label));
        self.threads[tid as usize].server = server;
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
        let trace = self.rec.take().map(|rec| self.build_trace(rec));
        SimResult {
            time,
            events: self.events,
            resources,
            peak_active: self.peak,
            trace,
        }
    }

    /// Lanes in declaration order (resource, member, server), then the intervals.
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
        for (lane, start, end, label) in rec.intervals {
            t.push(id[lane as usize], start, end, label, trace::Kind::Busy);
        }
        t
    }
}
