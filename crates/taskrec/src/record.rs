//! Recording while the program runs: each thread keeps its own stack of open tasks and the
//! items of their chains (no shared writes on `join`'s path); a finished task or section is
//! handed back by value and collapsed at once when it ran on one worker.
//!
//! Work is booked as DAG Recorder books it: the clock is read when the program calls into
//! the runtime (the strand ends) and again when the runtime returns to the program (the
//! next strand starts), so the runtime's and the recorder's own time between the two is not
//! work; the statistics count it as delay (or, inside a collapsed node, as its inner delay).

use crate::tree::{collapse_section, collapse_task, Child, EndKind, Item, Section, Strand, Task};
use std::cell::{Cell, RefCell, UnsafeCell};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Reads the clock.
#[inline]
pub(crate) fn now() -> u64 {
    crate::clock::ticks()
}

/// Whether calls are being recorded (set by [`crate::run`] for the length of its body).
pub(crate) static ENABLED: AtomicBool = AtomicBool::new(false);
/// Whether single-worker subgraphs are collapsed.
pub(crate) static COLLAPSE: AtomicBool = AtomicBool::new(true);
/// The most empty slots a thread keeps for reuse.
const MAX_FREE_SLOTS: usize = 4096;
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
    task_on(worker(), f)
}

/// [`task`] on worker `w` (this thread's). Its first strand starts once its frame is open,
/// its last ends before the recorder closes it.
fn task_on<R>(w: u32, f: impl FnOnce() -> R) -> (R, Child) {
    LOCAL.with(|l| {
        let mut l = l.borrow_mut();
        let base = l.items.len();
        l.frames.push(Frame {
            base,
            strand_start: 0,
            worker: w,
        });
        if let Some(fr) = l.frames.last_mut() {
            fr.strand_start = now();
        }
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
    (r, child)
}

/// Ends the running strand of this thread's open task with `kind` at `t` (the clock when
/// the program called into the runtime; a create also records what it creates); returns the
/// item's index, or `None` when no task is open here. The next strand starts when the
/// runtime returns to the program: [`resume`] after a create, the section's close after a
/// wait.
fn end_strand(t: u64, kind: EndKind, create: Option<(u64, Child)>) -> Option<usize> {
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
            Some((target, child)) => Item::Create {
                strand,
                target,
                child,
            },
            None => Item::Strand(strand),
        });
        Some(at)
    })
}

/// Starts this thread's next strand now: the runtime has returned to the program after a
/// create.
pub(crate) fn resume() {
    LOCAL.with(|l| {
        // The frame first, the clock last: the bookkeeping stays out of the strand.
        if let Some(fr) = l.borrow_mut().frames.last_mut() {
            fr.strand_start = now();
        }
    });
}

/// Closes the section that began at item `at`: `put` puts in its finished tasks; the
/// section is collapsed when it ran on this worker alone, and the strand after it starts
/// when that is done.
fn end_section(at: usize, scope: u64, put: impl FnOnce(&mut [Item])) {
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
        let item = match collapsed {
            Some(a) => {
                l.items.truncate(at);
                Item::Collapsed(a)
            }
            None => Item::Section(Box::new(Section {
                scope,
                items: l.items.drain(at..).collect(),
            })),
        };
        l.items.push(item);
        fr.strand_start = now();
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
    let t = now();
    let Some(at) = end_strand(t, EndKind::Create, Some((0, Child::Pending(0)))) else {
        return rayon::join(a, b);
    };
    let (ra, (rb, child)) = rayon::join(
        || {
            resume();
            let r = a();
            end_strand(now(), EndKind::Wait, None);
            r
        },
        || task_on(worker(), b),
    );
    end_section(at, 0, |items| {
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

/// A spawned task's hold on its slot.
pub(crate) struct SlotRef(NonNull<Slot>);

// SAFETY: the slot is written only by the task that holds its `SlotRef` (which is not
// `Clone`), and read only when its scope closes, after rayon's scope has returned and so
// after that task has finished.
#[allow(unsafe_code)]
unsafe impl Send for SlotRef {}

impl SlotRef {
    /// Runs the spawned task `f` on this thread ([`task`]) and leaves its record in the
    /// slot.
    pub(crate) fn run(self, f: impl FnOnce()) {
        let ((), child) = task_on(worker(), f);
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
    let t = now();
    let slot = FREE_SLOTS
        .with(|f| f.borrow_mut().pop())
        .unwrap_or_default();
    let slot = Box::into_raw(slot);
    let token = slot.expose_provenance() as u64;
    match end_strand(t, EndKind::Create, Some((scope, Child::Pending(token)))) {
        Some(_) => NonNull::new(slot).map(SlotRef),
        None => {
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
    end_strand(now(), EndKind::Wait, None);
}

/// Closes a recorded scope once every task spawned into it has finished; the strand after
/// it starts when that is done.
pub(crate) fn close_scope(s: OpenScope) {
    end_section(s.at, s.id, |items| fill(items, s.id));
}
