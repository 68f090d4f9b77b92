//! Records the task DAG of a rayon program for vates' task-parallel model (Namsraijav &
//! Taura's method, with DAG Recorder's definitions).
//!
//! Use [`join`] and [`scope`] where the program used `rayon::join` and `rayon::scope` (same
//! signatures; a scope's handle has one more lifetime), and run the parallel part under
//! [`run`]. Recording is off unless the environment variable `VATES_TASKREC` names an output
//! file; off, each call costs one relaxed atomic load more than rayon's.
//!
//! * `VATES_TASKREC=FILE`: record the DAG into `FILE` (the format is [`file`](mod@file)'s).
//! * `VATES_TASKREC_ELAPSED=FILE`: write the body's elapsed seconds to `FILE` (for untraced
//!   runs).
//! * `VATES_TASKREC_COLLAPSE=0`: keep every strand (by default a subgraph that ran on one
//!   worker is collapsed into one node with its work, span and counts, so runs with
//!   millions of tasks leave small files).
//!
//! Each thread keeps its open tasks and their strands in its own buffers; a finished task
//! goes back to its parent by value, and a spawned task into a slot that its create holds.
//!
//! Record the whole parallel part with these calls: a plain `rayon::join` or parallel
//! iterator inside a recorded task is timed as that task's own work, and a recorded task
//! that rayon runs while waiting for it overlaps that work (its strands are timed twice). A
//! task that panics leaves its slot unfreed.
//!
//! ```
//! fn fib(n: u64) -> u64 {
//!     if n < 2 {
//!         return n;
//!     }
//!     let (a, b) = taskrec::join(|| fib(n - 1), || fib(n - 2));
//!     a + b
//! }
//! let total = taskrec::scope(|s| {
//!     s.spawn(|_| assert_eq!(fib(10), 55));
//!     fib(12)
//! });
//! assert_eq!(total, 144);
//! // Under `run`, with VATES_TASKREC set, the DAG of the body is written to that file.
//! assert_eq!(taskrec::run("fib", &[("n", 20.0)], || fib(20)), 6765);
//! // The same, recorded in memory.
//! let (value, dag) = taskrec::record(|| fib(20));
//! assert_eq!(value, 6765);
//! assert_eq!(dag.creates(), 10945);
//! ```

mod clock;
pub mod file;
mod record;
pub mod tree;

pub use file::{
    encode, Meta, FORMAT_VERSION, MAGIC, TAG_COLLAPSED, TAG_CREATE, TAG_SECTION, TAG_STRAND,
    TAG_TASK, TRAILER,
};

use record::ENABLED;
use std::sync::atomic::Ordering;
use tree::{Child, Item};

/// The environment variable that names the DAG file and switches recording on.
pub const ENV_FILE: &str = "VATES_TASKREC";
/// The environment variable that names the file for the body's elapsed seconds.
pub const ENV_ELAPSED: &str = "VATES_TASKREC_ELAPSED";
/// The environment variable that switches collapsing off (`0`).
pub const ENV_COLLAPSE: &str = "VATES_TASKREC_COLLAPSE";

/// `rayon::join`, recorded: the strand before it ends in a create (of `b`'s task), `a` runs
/// on in the caller's task, and the strand that ends `a` waits for `b`.
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    if !ENABLED.load(Ordering::Relaxed) {
        return rayon::join(a, b);
    }
    record::join(a, b)
}

/// A scope of spawned tasks (`rayon::Scope`), recorded as a section whose end waits for
/// every task spawned into it.
pub struct Scope<'a, 'scope> {
    inner: &'a rayon::Scope<'scope>,
    /// The recorded scope's number, when recording.
    rec: Option<u64>,
}

impl<'scope> Scope<'_, 'scope> {
    /// `rayon::Scope::spawn`, recorded: the spawning strand ends in a create.
    pub fn spawn<BODY>(&self, body: BODY)
    where
        BODY: for<'b> FnOnce(&Scope<'b, 'scope>) + Send + 'scope,
    {
        let slot = self
            .rec
            .and_then(|id| record::spawned(id).map(|slot| (id, slot)));
        match slot {
            None => self.inner.spawn(move |s| {
                body(&Scope {
                    inner: s,
                    rec: None,
                })
            }),
            Some((id, slot)) => {
                self.inner.spawn(move |s| {
                    let scope = Scope {
                        inner: s,
                        rec: Some(id),
                    };
                    slot.run(|| body(&scope));
                });
                // The runtime has returned to the spawning strand.
                record::resume();
            }
        }
    }
}

/// `rayon::scope`, recorded: `op` runs in the caller's task, and the scope's end waits for
/// every task spawned into it.
pub fn scope<'scope, OP, R>(op: OP) -> R
where
    OP: for<'a> FnOnce(&Scope<'a, 'scope>) -> R + Send,
    R: Send,
{
    let opened = if ENABLED.load(Ordering::Relaxed) {
        record::open_scope()
    } else {
        None
    };
    match opened {
        None => rayon::scope(|s| {
            op(&Scope {
                inner: s,
                rec: None,
            })
        }),
        Some(open) => {
            let r = rayon::scope(|s| {
                let r = op(&Scope {
                    inner: s,
                    rec: Some(open.id),
                });
                record::scope_body_done();
                r
            });
            record::close_scope(open);
            r
        }
    }
}

/// A recorded run: the root task, the workers and the elapsed time.
#[derive(Clone, Debug)]
pub struct Dag {
    /// The root task.
    pub root: Child,
    /// rayon's worker count during the run.
    pub workers: u32,
    /// The root task's start, in ticks of the recording's clock.
    pub start: u64,
    /// Ticks from the root task's start to its end.
    pub elapsed: u64,
    /// The clock's ticks per second (measured over the recording).
    pub clock_hz: f64,
}

impl Dag {
    /// Tasks created in the run (the root is not counted).
    pub fn creates(&self) -> u64 {
        count(&self.root, &|a| a.creates, tree::EndKind::Create)
    }

    /// Wait operations in the run.
    pub fn waits(&self) -> u64 {
        count(&self.root, &|a| a.waits, tree::EndKind::Wait)
    }
}

fn count(c: &Child, agg: &dyn Fn(&tree::Agg) -> u64, kind: tree::EndKind) -> u64 {
    fn chain(items: &[Item], agg: &dyn Fn(&tree::Agg) -> u64, kind: tree::EndKind) -> u64 {
        items
            .iter()
            .map(|i| match i {
                Item::Strand(s) => u64::from(s.kind == kind),
                Item::Create { strand, child, .. } => {
                    u64::from(strand.kind == kind) + count(child, agg, kind)
                }
                Item::Section(s) => chain(&s.items, agg, kind),
                Item::Collapsed(a) => agg(a),
            })
            .sum()
    }
    match c {
        Child::Pending(_) => 0,
        Child::Task(t) => chain(&t.items, agg, kind),
        Child::Collapsed(a) => agg(a),
    }
}

/// How to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Collapse each subgraph that ran on one worker into one node with its totals (work,
    /// span, counts): small files for millions of tasks. Off, every strand is kept (to
    /// replay the run at more workers than it had).
    pub collapse: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { collapse: true }
    }
}

/// One recording at a time per process: recording is switched on for the whole pool.
static RECORDING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `body` as the root task in rayon's pool and records its DAG in memory, with the
/// default [`Options`].
pub fn record<R: Send>(body: impl FnOnce() -> R + Send) -> (R, Dag) {
    record_with(Options::default(), body)
}

/// Runs `body` as the root task in rayon's pool and records its DAG in memory.
///
/// Recording is switched on for the whole pool, so one recording runs at a time in a
/// process (a second one waits for the first), and work of other computations that the
/// pool's threads run meanwhile is recorded too. Inside a recording, a nested call runs
/// `body` as part of the outer recording and returns an empty DAG.
pub fn record_with<R: Send>(opts: Options, body: impl FnOnce() -> R + Send) -> (R, Dag) {
    if ENABLED.load(Ordering::SeqCst) && record::in_task() {
        let r = body();
        let dag = Dag {
            root: Child::Pending(0),
            workers: rayon::current_num_threads() as u32,
            start: 0,
            elapsed: 0,
            clock_hz: 1e9,
        };
        return (r, dag);
    }
    let _one = RECORDING.lock().unwrap_or_else(|e| e.into_inner());
    record::COLLAPSE.store(opts.collapse, Ordering::SeqCst);
    let mark = clock::Mark::now();
    ENABLED.store(true, Ordering::SeqCst);
    let ((r, root), start, end) = rayon::scope(|_| {
        let start = record::now();
        let out = record::task(body);
        (out, start, record::now())
    });
    ENABLED.store(false, Ordering::SeqCst);
    let dag = Dag {
        root,
        workers: rayon::current_num_threads() as u32,
        start,
        elapsed: end.saturating_sub(start),
        clock_hz: mark.frequency(),
    };
    (r, dag)
}

/// Runs `body` as the root task in rayon's pool. With `VATES_TASKREC=FILE` its DAG is
/// recorded and written to `FILE` (with `program`, `parameters`, the worker count and this
/// machine in the header); with `VATES_TASKREC_ELAPSED=FILE` the body's elapsed seconds
/// are written to `FILE`. A file that cannot be written is reported on standard error;
/// the body's result is returned either way.
pub fn run<R: Send>(
    program: &str,
    parameters: &[(&str, f64)],
    body: impl FnOnce() -> R + Send,
) -> R {
    let dag_file = std::env::var_os(ENV_FILE).filter(|p| !p.is_empty());
    let elapsed_file = std::env::var_os(ENV_ELAPSED).filter(|p| !p.is_empty());
    let opts = Options {
        collapse: std::env::var(ENV_COLLAPSE).map_or(true, |v| v != "0"),
    };
    let (r, seconds) = match dag_file {
        None => rayon::scope(|_| {
            let t0 = std::time::Instant::now();
            let r = body();
            (r, t0.elapsed().as_secs_f64())
        }),
        Some(path) => {
            let (r, dag) = record_with(opts, body);
            let meta = Meta {
                program: program.to_string(),
                parameters: parameters
                    .iter()
                    .map(|(k, v)| (k.to_string(), *v))
                    .collect(),
                collapse: opts.collapse,
            };
            if let Err(e) = std::fs::write(&path, encode(&dag, &meta)) {
                eprintln!("taskrec: cannot write {}: {e}", path.to_string_lossy());
            }
            (r, dag.elapsed as f64 / dag.clock_hz)
        }
    };
    if let Some(path) = elapsed_file {
        if let Err(e) = std::fs::write(&path, format!("{seconds:e}\n")) {
            eprintln!("taskrec: cannot write {}: {e}", path.to_string_lossy());
        }
    }
    r
}
