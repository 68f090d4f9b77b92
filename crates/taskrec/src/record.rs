//! Recording while the program runs. A thread's open tasks are the [`task_on`] calls on its
//! stack: each keeps its caller's state in its own stack frame, and the thread-local state
//! is the innermost task's worker and the start of its running strand (two `Cell`s, no
//! borrow flag, no destructor). The items of the open tasks' chains go on one per-thread
//! stack; a `join` keeps its create and wait strands on its own stack frame and pushes one
//! item when it returns (its section, collapsed at once when it ran on one worker, as a
//! finished task is).
//!
//! Work is booked as DAG Recorder books it: the clock is read when the program calls into
//! the runtime (the strand ends) and again when the runtime returns to the program (the
//! next strand starts), so the runtime's and the recorder's own time between the two is not
//! work; the statistics count it as delay (or, inside a collapsed node, as its inner delay).

use crate::tree::{
    collapse_section, Agg, Child, EndKind, Item, Section, SectionAcc, Strand, Task, TaskAcc,
};
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

thread_local! {
    /// The worker of the task open on this thread (the innermost), `None` when none is.
    static TASK: Cell<Option<u32>> = const { Cell::new(None) };
    /// When that task's running strand began.
    static START: Cell<u64> = const { Cell::new(0) };
    /// The items of the open tasks' chains, the innermost's last.
    static ITEMS: RefCell<Vec<Item>> = const { RefCell::new(Vec::new()) };
    /// Empty slots for this thread's next spawns: a slot goes back to the list of the
    /// thread that closes its scope, which is mostly the one that spawned into it.
    // Boxed: a slot's address is handed to its task and must not move.
    #[allow(clippy::vec_box)]
    static FREE_SLOTS: RefCell<Vec<Box<Slot>>> = const { RefCell::new(Vec::new()) };
    /// This thread's number for scope numbers (0: none yet) and the scopes it opened.
    static SCOPE_NUMBERS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// The number of items on this thread's stack.
fn items_len() -> usize {
    ITEMS.with(|i| i.borrow().len())
}

/// Whether this thread is running a recorded task.
pub(crate) fn in_task() -> bool {
    TASK.get().is_some()
}

/// Runs `f` as a task on this thread: its strands, sections and end are recorded, and the
/// task comes back collapsed when it ran on this worker alone.
pub(crate) fn task<R>(f: impl FnOnce() -> R) -> (R, Child) {
    task_on(worker(), f)
}

/// The task that was open on this thread before a nested one: put back when the nested
/// task ends (or unwinds).
struct Outer {
    task: Option<u32>,
    start: u64,
}

impl Drop for Outer {
    fn drop(&mut self) {
        TASK.set(self.task);
        START.set(self.start);
    }
}

/// [`task`] on worker `w` (this thread's). Its first strand starts once the recorder's
/// bookkeeping is done, its last ends before the recorder closes it.
fn task_on<R>(w: u32, f: impl FnOnce() -> R) -> (R, Child) {
    let outer = Outer {
        task: TASK.replace(Some(w)),
        start: START.get(),
    };
    let base = items_len();
    START.set(now());
    let r = f();
    let end = now();
    let last = Strand {
        start: START.get(),
        end,
        worker: w,
        kind: EndKind::End,
    };
    drop(outer);
    (r, close_task(base, last))
}

/// The record of the task whose items begin at `base` on this thread's stack and whose
/// last strand is `last`: collapsed when everything in it ran on `last`'s worker.
fn close_task(base: usize, last: Strand) -> Child {
    let collapse = COLLAPSE.load(Ordering::Relaxed);
    ITEMS.with(|i| {
        let mut items = i.borrow_mut();
        let base = base.min(items.len());
        if collapse && items.len() == base {
            // A task of one strand (most leaves): collapsed without a trip through the stack.
            return Child::Collapsed(Agg::leaf(&last));
        }
        if collapse {
            let mut acc = TaskAcc::new(last.worker);
            if items[base..].iter().all(|i| acc.item(i)) && acc.strand(&last) {
                if let Some(a) = acc.finish() {
                    items.truncate(base);
                    return Child::Collapsed(a);
                }
            }
        }
        let mut chain = Vec::with_capacity(items.len() - base + 1);
        chain.extend(items.drain(base..));
        chain.push(Item::Strand(last));
        Child::Task(Box::new(Task { items: chain }))
    })
}

/// Ends the running strand of this thread's open task with `kind` at `t` (the clock when
/// the program called into the runtime; a create also records what it creates); `None`
/// when no task is open here. The next strand starts when the runtime returns to the
/// program: [`resume`] after a create, the section's close after a wait.
fn end_strand(t: u64, kind: EndKind, create: Option<(u64, Child)>) -> Option<()> {
    let worker = TASK.get()?;
    let strand = Strand {
        start: START.get(),
        end: t,
        worker,
        kind,
    };
    let item = match create {
        Some((target, child)) => Item::Create {
            strand,
            target,
            child,
        },
        None => Item::Strand(strand),
    };
    ITEMS.with(|i| i.borrow_mut().push(item));
    Some(())
}

/// Starts this thread's next strand now: the runtime has returned to the program after a
/// create.
pub(crate) fn resume() {
    if TASK.get().is_some() {
        START.set(now());
    }
}

/// Closes the section that began at item `at`: `put` puts in its finished tasks; the
/// section is collapsed when it ran on this worker alone, and the strand after it starts
/// when that is done.
fn end_section(at: usize, scope: u64, put: impl FnOnce(&mut [Item])) {
    let Some(w) = TASK.get() else {
        return;
    };
    let done = ITEMS.with(|i| {
        let mut items = i.borrow_mut();
        if at > items.len() {
            return false;
        }
        put(&mut items[at..]);
        let collapsed = if COLLAPSE.load(Ordering::Relaxed) {
            collapse_section(&items[at..], w)
        } else {
            None
        };
        let item = match collapsed {
            Some(a) => {
                items.truncate(at);
                Item::Collapsed(a)
            }
            None => Item::Section(Box::new(Section {
                scope,
                items: items.drain(at..).collect(),
            })),
        };
        items.push(item);
        true
    });
    if done {
        START.set(now());
    }
}

/// `join` while recording. The create strand (ended when the program calls `join`) and the
/// wait strand (ended when `a` returns) stay on this stack frame; the section they bound is
/// pushed, collapsed or in full, when the runtime has run both closures.
pub(crate) fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let t = now();
    let Some(w) = TASK.get() else {
        return rayon::join(a, b);
    };
    let create = Strand {
        start: START.get(),
        end: t,
        worker: w,
        kind: EndKind::Create,
    };
    let at = items_len();
    let ((ra, wait), (rb, mut child)) = rayon::join(
        || {
            // `a` runs on this thread, in this task.
            START.set(now());
            let r = a();
            let end = now();
            let wait = Strand {
                start: START.get(),
                end,
                worker: w,
                kind: EndKind::Wait,
            };
            (r, wait)
        },
        || task_on(worker(), b),
    );
    close_join(at, &create, &mut child, &wait);
    START.set(now());
    (ra, rb)
}

/// Pushes the section of a `join` whose create strand is `create` (it created `child`),
/// whose first closure's items begin at `at` and whose wait is `wait`: collapsed when
/// everything in it ran on the create's worker.
fn close_join(at: usize, create: &Strand, child: &mut Child, wait: &Strand) {
    let collapse = COLLAPSE.load(Ordering::Relaxed);
    ITEMS.with(|i| {
        let mut items = i.borrow_mut();
        let at = at.min(items.len());
        if collapse {
            if let Child::Collapsed(c) = child {
                let mut acc = SectionAcc::new(create.worker);
                if acc.create(create, c)
                    && items[at..].iter().all(|i| acc.item(i))
                    && acc.strand(wait)
                {
                    if let Some(a) = acc.finish() {
                        // The section replaces its first closure's items (in fib, one).
                        if items.len() == at + 1 {
                            items[at] = Item::Collapsed(a);
                        } else {
                            items.truncate(at);
                            items.push(Item::Collapsed(a));
                        }
                        return;
                    }
                }
            }
        }
        let mut chain = Vec::with_capacity(items.len() - at + 2);
        chain.push(Item::Create {
            strand: *create,
            target: 0,
            child: std::mem::replace(child, Child::Pending(0)),
        });
        chain.extend(items.drain(at..));
        chain.push(Item::Strand(*wait));
        items.push(Item::Section(Box::new(Section {
            scope: 0,
            items: chain,
        })));
    });
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
    TASK.get()?;
    let at = items_len();
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
