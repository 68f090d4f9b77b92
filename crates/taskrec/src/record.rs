//! Recording while the program runs: each thread keeps its own stack of open tasks and the
//! items of their chains (no shared writes on `join`'s path); a finished task or section is
//! handed back by value and collapsed at once when it ran on one worker.

use crate::tree::{collapse_section, collapse_task, Child, EndKind, Item, Section, Strand, Task};
use std::cell::{Cell, RefCell, UnsafeCell};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Reads the clock, and keeps the reading as this thread's last.
#[inline]
pub(crate) fn now() -> u64 {
    let t = crate::clock::ticks();
    LAST.with(|c| c.set(t));
    t
}

/// This thread's last clock reading. A task that runs on the worker that created it was
/// taken from that worker's own deque, with no idle time since the worker's last reading
/// (a worker with a job in its deque does not go looking for work), so it starts at that
/// reading: one clock read less per task, and the runtime's few instructions between count
/// as the task's work.
fn last() -> u64 {
    LAST.with(Cell::get)
}

/// Whether calls are being recorded (set by [`crate::run`] for the length of its body).
pub(crate) static ENABLED: AtomicBool = AtomicBool::new(false);
/// Whether single-worker subgraphs are collapsed.
pub(crate) static COLLAPSE: AtomicBool = AtomicBool::new(true);
/// The most empty slots a thread keeps for reuse.
const MAX_FREE_SLOTS: usize = 4096;
/// Spawns into recorded scopes that could not be recorded, made on a thread with no open
/// task (a thread outside the recording that holds a scope's handle): a scope that had one
/// may have waited idle for it, so it does not end at its last clock reading.
static UNRECORDED: AtomicU64 = AtomicU64::new(0);
/// Threads that have opened a recorded scope.
static THREADS: AtomicU64 = AtomicU64::new(0);

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

struct Local {
    items: Vec<Item>,
    frames: Vec<Frame>,
}

thread_local! {
    static LOCAL: RefCell<Local> = const {
        RefCell::new(Local {
            items: Vec::new(),
            frames: Vec::new(),
        })
    };
    /// Empty slots for this thread's next spawns: a slot goes back to the list of the
    /// thread that closes its scope, which is mostly the one that spawned into it.
    // Boxed: a slot's address is handed to its task and must not move.
    #[allow(clippy::vec_box)]
    static FREE_SLOTS: RefCell<Vec<Box<Slot>>> = const { RefCell::new(Vec::new()) };
    /// This thread's last clock reading ([`last`]).
    static LAST: Cell<u64> = const { Cell::new(0) };
    /// This thread's number for scope numbers (0: none yet) and the scopes it opened.
    static SCOPE_NUMBERS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// Whether this thread is running a recorded task.
pub(crate) fn in_task() -> bool {
    LOCAL.with(|l| !l.borrow().frames.is_empty())
}

/// Runs `f` as a task on this thread: its strands, sections and end are recorded, and the
/// task comes back collapsed when it ran on this worker alone.
pub(crate) fn task<R>(f: impl FnOnce() -> R) -> (R, Child) {
    let (r, child, _) = task_from(None, worker(), f);
    (r, child)
}

/// [`task`], starting at `start` when given (this thread's last clock reading, when the task
/// follows it at once), on worker `w` (this thread's), and returning when it ended.
fn task_from<R>(start: Option<u64>, w: u32, f: impl FnOnce() -> R) -> (R, Child, u64) {
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
        let last = Item::Strand(Strand {
            start: fr.strand_start,
            end,
            worker: fr.worker,
            kind: EndKind::End,
        });
        let collapse = COLLAPSE.load(Ordering::Relaxed);
        if collapse && l.items.len() == fr.base {
            // A task of one strand (most leaves): collapsed without a trip through the stack.
            if let Some(a) = collapse_task(std::slice::from_ref(&last), fr.worker) {
                return Child::Collapsed(a);
            }
        }
        l.items.push(last);
        let collapsed = if collapse {
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
            end_strand(EndKind::Wait, None);
            r
        },
        |ctx| {
            let start = (!ctx.migrated()).then(last);
            let (rb, child, end) = task_from(start, worker(), b);
            (rb, child, end, ctx.migrated())
        },
    );
    let next = (!stolen).then_some(b_end);
    end_section(at, 0, next, |items| {
        if let Some(Item::Create { child: c, .. }) = items.first_mut() {
            *c = child;
        }
    });
    (ra, rb)
}

/// Where a spawned task leaves its finished record for its scope: allocated by the spawn,
/// written once by the task, read and freed when the scope closes. No lock and no shared
/// counter: the create item holds the slot's address, and rayon's scope, which returns
/// only after every task spawned into it has finished, orders the write before the read.
#[derive(Default)]
struct Slot(UnsafeCell<Option<Child>>);

/// A spawned task's hold on its slot, and the worker that spawned it.
pub(crate) struct SlotRef(NonNull<Slot>, u32);

// SAFETY: the slot is written only by the task that holds its `SlotRef` (which is not
// `Clone`), and read only when its scope closes, after rayon's scope has returned and so
// after that task has finished.
#[allow(unsafe_code)]
unsafe impl Send for SlotRef {}

impl SlotRef {
    /// Runs the spawned task `f` on this thread ([`task`]; without a clock read at its start
    /// when it runs on the worker that spawned it) and leaves its record in the slot.
    pub(crate) fn run(self, f: impl FnOnce()) {
        let w = worker();
        let start = (self.1 == w).then(last);
        let ((), child, _) = task_from(start, w, f);
        self.put(child);
    }

    /// Leaves the finished task's record in the slot.
    fn put(self, child: Child) {
        // SAFETY: see `Send`: until the scope closes, this task alone accesses the slot,
        // which lives until then.
        #[allow(unsafe_code)]
        unsafe {
            *(*self.0.as_ptr()).0.get() = Some(child);
        }
    }
}

/// Records a spawn into scope `scope` on this thread's open task: the slot the spawned task
/// leaves its record in, or `None` when no task is open here.
pub(crate) fn spawned(scope: u64) -> Option<SlotRef> {
    let slot = FREE_SLOTS
        .with(|f| f.borrow_mut().pop())
        .unwrap_or_default();
    let slot = Box::into_raw(slot);
    let token = slot.expose_provenance() as u64;
    match end_strand(EndKind::Create, Some((scope, Child::Pending(token)))) {
        Some(_) => NonNull::new(slot).map(|s| SlotRef(s, worker())),
        None => {
            UNRECORDED.fetch_add(1, Ordering::Relaxed);
            // SAFETY: the slot was allocated above and nothing refers to it.
            #[allow(unsafe_code)]
            drop(unsafe { Box::from_raw(slot) });
            None
        }
    }
}

/// Puts the finished tasks of scope `scope` into the create items that made them, in
/// `items` and in every task and section kept in full below them, freeing their slots.
/// Called once per scope, after every task spawned into it has finished.
fn fill(items: &mut [Item], scope: u64) {
    for item in items {
        match item {
            Item::Create { target, child, .. } => {
                if let Child::Pending(token) = *child {
                    if *target == scope && token != 0 {
                        let slot = std::ptr::with_exposed_provenance_mut::<Slot>(token as usize);
                        // SAFETY: `spawned` made the token from a live slot and put it in
                        // this create item alone; the scope's tasks have all finished, and
                        // this is the scope's one fill, so the slot is taken once.
                        #[allow(unsafe_code)]
                        let mut slot = unsafe { Box::from_raw(slot) };
                        *child = slot.0.get_mut().take().unwrap_or(Child::Pending(0));
                        FREE_SLOTS.with(|f| {
                            let mut f = f.borrow_mut();
                            if f.len() < MAX_FREE_SLOTS {
                                f.push(slot);
                            }
                        });
                    }
                }
                if let Child::Task(t) = child {
                    fill(&mut t.items, scope);
                }
            }
            Item::Section(s) => fill(&mut s.items, scope),
            Item::Strand(_) | Item::Collapsed(_) => {}
        }
    }
}

/// A recorded scope while it runs.
#[derive(Clone, Copy)]
pub(crate) struct OpenScope {
    /// Its section's first item on this thread.
    at: usize,
    /// Its number.
    pub(crate) id: u64,
    /// The count of unrecorded spawns when it opened.
    unrecorded: u64,
}

/// Opens a recorded scope on this thread's task, or `None` when no task is open here.
pub(crate) fn open_scope() -> Option<OpenScope> {
    let at = LOCAL.with(|l| {
        let l = l.borrow();
        l.frames.last().map(|_| l.items.len())
    })?;
    Some(OpenScope {
        at,
        id: next_scope(),
        unrecorded: UNRECORDED.load(Ordering::Relaxed),
    })
}

/// A number for a new scope, unique in the process: this thread's number (taken once per
/// thread from a shared counter) and its count of scopes, so that opening a scope writes
/// nothing another thread reads.
fn next_scope() -> u64 {
    SCOPE_NUMBERS.with(|c| {
        let (mut thread, opened) = c.get();
        if thread == 0 {
            thread = THREADS.fetch_add(1, Ordering::Relaxed) + 1;
        }
        c.set((thread, opened + 1));
        (thread << 40) | ((opened + 1) & ((1 << 40) - 1))
    })
}

/// The end of a scope's body: its strand waits for the spawned tasks.
pub(crate) fn scope_body_done() {
    end_strand(EndKind::Wait, None);
}

/// Closes a recorded scope once every task spawned into it has finished. When everything in
/// it ran on this worker, and no spawn went unrecorded meanwhile, the scope never waited
/// idle, and the strand after it starts at this thread's last clock reading.
pub(crate) fn close_scope(s: OpenScope) {
    let next = (UNRECORDED.load(Ordering::Relaxed) == s.unrecorded).then(last);
    end_section(s.at, s.id, next, |items| fill(items, s.id));
}
