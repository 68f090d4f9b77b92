//! Recording while the program runs: each thread keeps its own stack of open tasks and the
//! items of their chains (no shared writes on `join`'s path); a finished task or section is
//! handed back by value and collapsed at once when it ran on one worker.

use crate::tree::{
    collapse_section, collapse_task, fill, Child, EndKind, Item, Section, Strand, Task,
};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

pub(crate) use crate::clock::ticks as now;

/// Whether calls are being recorded (set by [`crate::run`] for the length of its body).
pub(crate) static ENABLED: AtomicBool = AtomicBool::new(false);
/// Whether single-worker subgraphs are collapsed.
pub(crate) static COLLAPSE: AtomicBool = AtomicBool::new(true);
static SCOPES: AtomicU64 = AtomicU64::new(1);

/// This thread's rayon worker index (`u32::MAX` outside the pool).
fn worker() -> u32 {
    rayon::current_thread_index().map_or(u32::MAX, |w| w as u32)
}

struct Frame {
    /// Where this task's items begin in the thread's item stack.
    base: usize,
    /// When the strand now running began.
    strand_start: u64,
    worker: u32,
}

#[derive(Default)]
struct Local {
    items: Vec<Item>,
    frames: Vec<Frame>,
}

thread_local! {
    static LOCAL: RefCell<Local> = RefCell::new(Local::default());
    /// The clock read that ended a join's first closure on this thread, for its second
    /// closure when that runs here next.
    static A_END: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Whether this thread is running a recorded task.
pub(crate) fn in_task() -> bool {
    LOCAL.with(|l| !l.borrow().frames.is_empty())
}

/// Runs `f` as a task on this thread: its strands, sections and end are recorded, and the
/// task comes back collapsed when it ran on this worker alone.
pub(crate) fn task<R>(f: impl FnOnce() -> R) -> (R, Child) {
    let (r, child, _) = task_from(None, f);
    (r, child)
}

/// [`task`], starting at `start` when given (the clock read that ended the strand just
/// before it on this thread), and returning when it ended.
fn task_from<R>(start: Option<u64>, f: impl FnOnce() -> R) -> (R, Child, u64) {
    let w = worker();
    let start = start.unwrap_or_else(now);
    LOCAL.with(|l| {
        let mut l = l.borrow_mut();
        let base = l.items.len();
        l.frames.push(Frame {
            base,
            strand_start: start,
            worker: w,
        });
    });
    let r = f();
    let end = now();
    let child = LOCAL.with(|l| {
        let mut l = l.borrow_mut();
        let Some(fr) = l.frames.pop() else {
            return Child::Task(Box::default());
        };
        l.items.push(Item::Strand(Strand {
            start: fr.strand_start,
            end,
            worker: fr.worker,
            kind: EndKind::End,
        }));
        let collapsed = if COLLAPSE.load(Ordering::Relaxed) {
            collapse_task(&l.items[fr.base..], fr.worker)
        } else {
            None
        };
        match collapsed {
            Some(a) => {
                l.items.truncate(fr.base);
                Child::Collapsed(a)
            }
            None => Child::Task(Box::new(Task {
                items: l.items.drain(fr.base..).collect(),
            })),
        }
    });
    (r, child, end)
}

/// Ends the running strand of this thread's open task with `kind` (a create also records
/// what it creates; the next strand starts at once, so the runtime's work for the create
/// counts as the next strand's); returns the item's index, or `None` when no task is open
/// here. After a wait the next strand starts when the section closes.
fn end_strand(kind: EndKind, create: Option<(u64, Child)>) -> Option<(usize, u64)> {
    let t = now();
    LOCAL.with(|l| {
        let mut l = l.borrow_mut();
        let l = &mut *l;
        let fr = l.frames.last_mut()?;
        let strand = Strand {
            start: fr.strand_start,
            end: t,
            worker: fr.worker,
            kind,
        };
        let at = l.items.len();
        l.items.push(match create {
            Some((target, child)) => {
                fr.strand_start = t;
                Item::Create {
                    strand,
                    target,
                    child,
                }
            }
            None => Item::Strand(strand),
        });
        Some((at, t))
    })
}

/// Closes the section that began at item `at`: `put` puts in its finished tasks; the
/// section is collapsed when it ran on this worker alone, and the strand after it starts.
fn end_section(at: usize, scope: u64, next: Option<u64>, put: impl FnOnce(&mut [Item])) {
    LOCAL.with(|l| {
        let mut l = l.borrow_mut();
        let l = &mut *l;
        let Some(fr) = l.frames.last_mut() else {
            return;
        };
        if at > l.items.len() {
            return;
        }
        put(&mut l.items[at..]);
        let collapsed = if COLLAPSE.load(Ordering::Relaxed) {
            collapse_section(&l.items[at..], fr.worker)
        } else {
            None
        };
        let (item, next) = match collapsed {
            Some(a) => {
                l.items.truncate(at);
                (Item::Collapsed(a), next)
            }
            // Keeping the section costs an allocation and a copy: not the next strand's.
            None => (
                Item::Section(Box::new(Section {
                    scope,
                    items: l.items.drain(at..).collect(),
                })),
                None,
            ),
        };
        l.items.push(item);
        fr.strand_start = next.unwrap_or_else(now);
    });
}

/// `join` while recording.
pub(crate) fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let Some((at, _)) = end_strand(EndKind::Create, Some((0, Child::Pending(0)))) else {
        return rayon::join(a, b);
    };
    // When `b` was not stolen it runs on this thread right after `a`: its task starts
    // with the clock read that ended `a`, and the strand after the join with the one that
    // ended `b` (one read each instead of three; the runtime's few instructions between
    // count as work).
    let (ra, (rb, child, b_end, stolen)) = rayon::join_context(
        |_| {
            let r = a();
            if let Some((_, t)) = end_strand(EndKind::Wait, None) {
                A_END.with(|c| c.set(Some(t)));
            }
            r
        },
        |ctx| {
            let start = if ctx.migrated() {
                None
            } else {
                A_END.with(|c| c.take())
            };
            let (rb, child, end) = task_from(start, b);
            (rb, child, end, ctx.migrated())
        },
    );
    if stolen {
        A_END.with(|c| c.set(None));
    }
    let next = (!stolen).then_some(b_end);
    end_section(at, 0, next, |items| {
        if let Some(Item::Create { child: c, .. }) = items.first_mut() {
            *c = child;
        }
    });
    (ra, rb)
}

/// What a recorded scope's spawned tasks hand back when they finish.
pub(crate) struct Collector {
    id: u64,
    next: AtomicU64,
    done: Mutex<Vec<(u64, Child)>>,
}

impl Collector {
    /// Records a spawn on this thread's open task; the spawn's number in the scope.
    pub(crate) fn spawned(&self) -> u64 {
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        end_strand(EndKind::Create, Some((self.id, Child::Pending(k))));
        k
    }

    /// Hands back spawn `k`'s finished task.
    pub(crate) fn finished(&self, k: u64, child: Child) {
        if let Ok(mut d) = self.done.lock() {
            d.push((k, child));
        }
    }
}

/// Opens a recorded scope on this thread's task: the section's first item and its
/// collector, or `None` when no task is open here.
pub(crate) fn open_scope() -> Option<(usize, Collector)> {
    let at = LOCAL.with(|l| {
        let l = l.borrow();
        l.frames.last().map(|_| l.items.len())
    })?;
    Some((
        at,
        Collector {
            id: SCOPES.fetch_add(1, Ordering::Relaxed),
            next: AtomicU64::new(0),
            done: Mutex::new(Vec::new()),
        },
    ))
}

/// The end of a scope's body: its strand waits for the spawned tasks.
pub(crate) fn scope_body_done() {
    end_strand(EndKind::Wait, None);
}

/// Closes a recorded scope once every spawned task has finished.
pub(crate) fn close_scope(at: usize, c: &Collector) {
    let n = c.next.load(Ordering::Relaxed) as usize;
    let mut done: Vec<Option<Child>> = (0..n).map(|_| None).collect();
    if let Ok(mut d) = c.done.lock() {
        for (k, child) in d.drain(..) {
            if let Some(slot) = done.get_mut(k as usize) {
                *slot = Some(child);
            }
        }
    }
    end_section(at, c.id, None, |items| fill(items, c.id, &mut done));
}
