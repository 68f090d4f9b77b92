//! Exact discrete-event simulation of a PAMELA model: the execution time `T`.
//!
//! [`simulate`] runs a zero-argument process of a checked [`Model`] under a [`Binding`] of
//! every parameter and returns the completion time `T`, the number of events and per-resource
//! usage; with [`SimOptions::record_trace`] also a [`trace::Trace`] with one lane per server
//! and one lane per simulated process (see [Trace](#trace)).
//!
//! # Semantics
//!
//! Durations are deterministic. `use(r, t)` takes one of the `multiplicity` servers of `r`
//! (of the addressed member, for a family `r[i]`; each member has its own servers and queue)
//! for `t`; when all are busy the request waits in an unbounded queue. Servers are
//! work-conserving: a released server is handed to the next waiter at the same instant.
//! [`Arbitration::Fcfs`] serves waiters in request order, [`Arbitration::Random`] picks the
//! next one uniformly at random. Infinite-server resources and `delay(t)` never queue.
//! `A ; B` and `seq v in a..=b` run their parts in order; `A || B` and `par v in a..=b`
//! start all parts at the same instant, in child order, and end when the last part ends (a
//! barrier). Loop bounds are rounded like folds (`ceil(a) ..= floor(b)`, after snapping
//! values within `1e-9` relative of an integer to it); an empty range is `skip`. `if`
//! evaluates its condition when the process reaches it, drawing one Bernoulli coin per
//! `prob(p)` operand reached. Process calls evaluate their arguments at the call.
//!
//! ## Order at one instant (determinism)
//!
//! Timed completions sit in a binary heap keyed by `(time, sequence number)`, the sequence
//! number counting schedule operations, so completions at equal times are processed in the
//! order they were scheduled. Processing one completion runs the woken thread until it blocks
//! again (on a `use`, a `delay`, or a `par` waiting for its children); children spawned by a
//! `par` are appended, in child order, to a FIFO of threads ready at the current instant, and
//! that FIFO is drained (each thread again running until it blocks) before the next heap entry
//! is taken. When the last child of a `par` ends, the parent continues at once, within the
//! same step. A `use` requests its server when the thread reaches it, so requests at one
//! instant reach the queue in exactly this order; `use` and `delay` with duration 0 still go
//! through the heap and count as events.
//!
//! # Design
//!
//! The model is lowered once (module `lower`) into a flat array of nodes: each process body
//! once, names resolved to slots of a per-process frame, parameters folded to constants, and
//! expressions compiled with [`expr::compile::Compiled`] behind constant and slot fast paths
//! (module `eval`). A running *thread* is a small continuation: a slot stack holding the
//! frames of the calls it is in, a control stack (`seq` position, `seq` loop counter and
//! bound, call return), the parent whose join counter it decrements when it ends, and the
//! member it holds. Loops are never unrolled ahead of time: a `seq` loop keeps `(index, hi)`
//! on the control stack, a `par` loop spawns its children when reached. Threads are recycled
//! through a free list, so memory grows with the number of simultaneously live threads
//! ([`SimResult::peak_active`]), not with the number of events. Resource state lives in flat
//! per-member arrays (busy count and a `VecDeque` of waiters, each waiter its thread and
//! service time).
//!
//! # Limits
//!
//! [`SimOptions::max_events`] bounds the number of `use`/`delay` instances (it is capped at
//! `2^40 - 1`, the range of the heap's sequence numbers); the interpreter also stops after
//! `16 * max_events` (at least `2^16`) steps, so a model that loops without timed actions
//! cannot spin forever; at most [`MAX_ACTIVE`] threads may be live at once (about 100 bytes
//! each), and families may have at most [`MAX_MEMBERS`] members in total. Each of these
//! raises an [`ErrorKind::Limit`] error instead of exhausting time or memory.
//!
//! # Trace
//!
//! With [`SimOptions::record_trace`] the result carries a [`trace::Trace`] that shows both
//! sides of every queue. Lanes come in two parts:
//!
//! - **Server lanes**, first, in declaration order: one per server that served at least one
//!   `use` (`s`; `pool#0`, `pool#1` for a multiplicity other than 1; `cpu[3]` for a family
//!   member), in lane group = the resource name. Each served `use` is one busy interval,
//!   labelled with the client: a letter code of the client's process lane (`A` for the first
//!   process lane, … `Z`, `AA`, …) and that lane's name, e.g. `C: main p=3`. The Gantt chart
//!   colours busy bars by the leading letters of a label ([`trace::gantt::label_prefix`]), so
//!   the code gives every client its own colour; with the lane name alone all `main p=…`
//!   clients would share one.
//! - **Process lanes**, in lane group `processes`, in spawn order: one per thread (process
//!   instance: the root, or a branch of a `par`) that performs at least one `use` or `delay`,
//!   named by its process and the variables of its frame at spawn (`main p=3`; a branch of
//!   `A || B` is named like its parent; `#2`, `#3`, … are appended to keep names unique). On
//!   it, `delay(t)` is a busy interval `delay`; `use(r, t)` is a wait interval `wait s` (or
//!   `wait cpu[2]`) from the request until service starts, only if that is later, then a busy
//!   interval `s` (`cpu[2]`) for the service. A thread does one thing at a time, so intervals
//!   on a process lane do not overlap; the wait intervals add up to the total queueing time.
//!
//! Zero-duration actions are recorded as zero-length busy intervals. Lanes are keyed by spawn,
//! not by the engine's (recycled) thread ids. At most [`MAX_PROCESS_LANES`] process lanes are
//! recorded: threads whose first `use` or `delay` comes after that many have got lanes appear
//! only on server lanes, labelled with their name without a code (`main p=10001`). Without
//! `record_trace` nothing of this is recorded.

mod engine;
mod eval;
mod lower;

pub use lower::MAX_MEMBERS;

#[cfg(doc)]
use crate::diag::ErrorKind;
use crate::diag::ModelError;
use crate::model::{Binding, Model, ProcId};

/// Most threads (process instances) that may be live at the same time; each takes about
/// 100 bytes.
pub const MAX_ACTIVE: usize = 10_000_000;

/// Most process lanes a trace records (see [Trace](self#trace)); further threads appear only
/// on server lanes.
pub const MAX_PROCESS_LANES: usize = 10_000;

::diag::choices! {
    /// How a released server picks the next waiting request.
    #[derive(Default, Hash)]
    pub enum Arbitration {
        /// First come, first served; requests at one instant in the order they were issued.
        #[default]
        Fcfs = "fcfs": "First come, first served",
        /// Uniformly at random among the waiters, from the seeded RNG.
        Random = "random": "A uniformly random waiter (seeded)",
    }
}

/// Options of [`simulate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// Queue discipline of every finite resource.
    pub arbitration: Arbitration,
    /// Seed of the generator ([`stats::rng`]) used for random arbitration and `prob(p)` conditions.
    pub seed: u64,
    /// Stop with an [`ErrorKind::Limit`] error (its [`ModelError::reached`] says which limit)
    /// after this many `use`/`delay` events.
    pub max_events: u64,
    /// Record a [`trace::Trace`] with one lane per resource server and one per process (see
    /// [Trace](self#trace)); nothing is recorded when `false`.
    pub record_trace: bool,
    /// The most intervals the trace may hold (about 300 bytes each while recording); the
    /// recording stops before an event would pass it, and [`SimResult::trace_cut`] says when.
    /// The simulation itself goes on.
    pub max_trace_intervals: usize,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            arbitration: Arbitration::Fcfs,
            seed: 0,
            max_events: 1_000_000_000,
            record_trace: false,
            max_trace_intervals: 1_000_000,
        }
    }
}

/// Usage of one declared resource over the whole run.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceUsage {
    /// The declared name.
    pub name: String,
    /// Total service time given, summed over all servers and members.
    pub busy: f64,
    /// `busy / (multiplicity * members * T)`: the mean fraction of servers busy; `0` for an
    /// infinite-server resource or when `T = 0`.
    pub utilization: f64,
    /// Number of `use` requests served.
    pub served: u64,
    /// Per member, for a family (`cpu[0]`, `cpu[1]`, …); empty for a plain resource.
    pub members: Vec<MemberUsage>,
}

/// Usage of one member of a resource family.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberUsage {
    /// `name[index]`, e.g. `cpu[3]`.
    pub name: String,
    /// Total service time given by the member's servers.
    pub busy: f64,
    /// `busy / (multiplicity * T)`; `0` for infinite servers or when `T = 0`.
    pub utilization: f64,
    /// Number of `use` requests served.
    pub served: u64,
}

/// What a simulation run found.
#[derive(Clone, Debug, PartialEq)]
pub struct SimResult {
    /// The completion time `T` of the simulated process.
    pub time: f64,
    /// Number of `use` and `delay` instances executed (zero-duration ones included).
    pub events: u64,
    /// One entry per declared resource, in declaration order.
    pub resources: Vec<ResourceUsage>,
    /// Most threads live at once (a `par` waiting for its children counts as one).
    pub peak_active: usize,
    /// The trace, when [`SimOptions::record_trace`] was set: one lane per server (`s`,
    /// `pool#2`, `cpu[3]`) with one busy interval per served `use` labelled with its client
    /// (`C: main p=3`), then one lane per process (`main p=3`, group `processes`) with its
    /// `delay`s, waits and services; see [Trace](self#trace).
    pub trace: Option<trace::Trace>,
    /// Where the trace stops, when it reached [`SimOptions::max_trace_intervals`]: it holds
    /// the run up to that time only.
    pub trace_cut: Option<TraceCut>,
}

/// The end of a trace that stopped at its limit before the run ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceCut {
    /// The simulated time of the last event recorded.
    pub at: f64,
    /// The limit: [`sweep::Limit::TimelineIntervals`] at its value.
    pub reached: sweep::Reached,
}

impl TraceCut {
    /// The note for a user of a run that ended at time `end`: where its timeline stops and
    /// the limit it reached (the input that raises it is [`sweep::Reached::raise`]).
    pub fn note(&self, end: f64) -> String {
        let (at, reached) = (self.at, self.reached);
        format!("note: the timeline files stop at time {at} of {end}: they reached {reached}")
    }
}

/// A simulation's Gantt chart: its title (the model and root), the time axis, and a legend
/// that says what the colours of the process lanes mean (think, service at the first few
/// resources, queueing).
pub fn gantt_options(model: &Model, root: crate::ProcId) -> trace::gantt::GanttOptions {
    /// How many resources the legend names.
    const LEGEND_RESOURCES: usize = 4;
    let (legend, wait) = trace_legend(model, LEGEND_RESOURCES);
    trace::gantt::GanttOptions {
        title: Some(format!(
            "{} — root {}: resource servers and processes",
            model.source.name, model.processes[root].name
        )),
        time_label: "model time".to_string(),
        legend,
        wait_legend: Some(wait),
        ..Default::default()
    }
}

/// What the busy and wait intervals of a simulation's trace mean, for a Gantt chart's
/// legend: `(label, text)` for busy labels (a `delay` is think time; a resource's name,
/// service there), up to `max` resources, and the text for wait intervals.
pub fn trace_legend(model: &Model, max: usize) -> (Vec<(String, String)>, String) {
    let mut legend = vec![("delay".to_string(), "think (delay)".to_string())];
    for r in model.resources.iter().take(max) {
        legend.push((r.name.to_string(), format!("service at {}", r.name)));
    }
    (legend, "queueing for a resource".to_string())
}

/// Simulates process `root` (which takes no arguments) of `model` under `binding`.
///
/// Errors: [`ErrorKind::Evaluation`] for a negative or non-finite time, a probability outside
/// `[0, 1]`, a non-finite loop bound or any other value that cannot be computed;
/// [`ErrorKind::IndexOutOfRange`] for a family index that is not an integer in
/// `0 ..= size-1`; [`ErrorKind::Multiplicity`] for a multiplicity or family size that is not
/// a positive integer; [`ErrorKind::Binding`] for an unbound parameter;
/// [`ErrorKind::Limit`] when a limit (see the module docs) is reached. Errors raised while
/// running point at the term being executed.
///
/// ```
/// use expr::{Name, Rational};
/// use pamela::sim::{simulate, SimOptions};
///
/// let model = pamela::parse(
///     "mrm.pam",
///     "param P: int >= 1; param N: int >= 1; param tau_l >= 0; param tau_s >= 0;
///      resource s;
///      main = par p in 1..=P { seq i in 1..=N { delay(tau_l); use(s, tau_s) } };",
/// )?;
/// let root = pamela::check::root(&model, None)?;
/// let int = |v: i64| Rational::from_integer(v.into());
/// let given = [("P", 4), ("N", 10), ("tau_l", 3), ("tau_s", 1)]
///     .map(|(k, v)| (Name::from(k), int(v)));
/// let binding = model.bind(&given)?;
/// let r = simulate(&model, root, &binding, &SimOptions::default())?;
/// assert_eq!(r.time, 43.0); // the lower bound T^l is N·max(P·tau_s, tau_l + tau_s) = 40
/// assert_eq!(r.events, 80);
/// assert_eq!(r.resources[0].utilization, 40.0 / 43.0);
/// # Ok::<(), Box<pamela::ModelError>>(())
/// ```
pub fn simulate(
    model: &Model,
    root: ProcId,
    binding: &Binding,
    opts: &SimOptions,
) -> Result<SimResult, Box<ModelError>> {
    simulate_metered(model, root, binding, opts, None)
}

/// What a progress display calls a simulation's phases and what its meter counts.
pub const METER_UNITS: sweep::Units = sweep::Units {
    running: "simulating",
    analysing: "summarising",
    noun: "events",
};

/// [`simulate`], recording the number of events in `meter` about every `2^16` events (for a
/// progress display read by another thread).
pub fn simulate_metered(
    model: &Model,
    root: ProcId,
    binding: &Binding,
    opts: &SimOptions,
    meter: Option<&sweep::Meter>,
) -> Result<SimResult, Box<ModelError>> {
    let prog = lower::lower(model, root, binding)?;
    if let Some(m) = meter {
        m.start();
    }
    let r = engine::run(model, &prog, opts, meter);
    if let (Some(m), Ok(r)) = (meter, &r) {
        m.set_count(r.events);
    }
    r
}

#[cfg(test)]
mod tests;
