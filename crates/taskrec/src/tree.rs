//! The recorded DAG as a tree (DAG Recorder's grammar): a task is a chain of strands and
//! sections ending in an end strand; a section is a chain whose strands may create tasks,
//! ending in the strand that waits for them. A subtree that ran on one worker is collapsed
//! into one [`Agg`] that keeps its work, span and counts.

/// How a strand ended: the call into the runtime that closed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// The strand ended by creating a task (`join`'s second closure, `spawn`).
    Create = 0,
    /// The strand ended by waiting for the tasks of its section (`join`'s return, the end
    /// of a `scope`).
    Wait = 1,
    /// The strand ended its task.
    End = 2,
    /// Any other call into the runtime.
    Other = 3,
}

impl EndKind {
    /// The kind of a byte of the file format.
    pub fn from_byte(b: u8) -> Option<EndKind> {
        match b {
            0 => Some(EndKind::Create),
            1 => Some(EndKind::Wait),
            2 => Some(EndKind::End),
            3 => Some(EndKind::Other),
            _ => None,
        }
    }
}

/// One strand: serial work between two calls into the runtime, on one worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strand {
    /// Start, in clock units since the recording began.
    pub start: u64,
    /// End, in clock units since the recording began.
    pub end: u64,
    /// The worker (rayon thread index) it ran on.
    pub worker: u32,
    /// The call that ended it.
    pub kind: EndKind,
}

impl Strand {
    /// Its duration (0 if the clock went backwards).
    pub fn duration(&self) -> u64 {
        self.end.saturating_sub(self.start)
    }
}

/// A collapsed subgraph: everything in it ran on one worker, so only its totals are kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agg {
    /// The first strand's start.
    pub start: u64,
    /// The last strand's end.
    pub end: u64,
    /// The latest start of a strand inside (until then some of it was ready to run).
    pub last_start: u64,
    /// The worker everything ran on.
    pub worker: u32,
    /// Work: the sum of the strands' durations.
    pub work: u64,
    /// Span: the longest path through it, weighted by strand durations.
    pub span: u64,
    /// Spawn burdens on that path (continuation and return edges it crosses).
    pub span_burdens: u64,
    /// Strands that ended by creating a task.
    pub creates: u64,
    /// Strands that ended by waiting.
    pub waits: u64,
    /// Strands that ended a task.
    pub ends: u64,
    /// Strands (intervals) in all.
    pub strands: u64,
}

impl Agg {
    fn empty(worker: u32) -> Agg {
        Agg {
            start: u64::MAX,
            worker,
            ..Agg::default()
        }
    }

    /// A task of one strand, collapsed (what [`collapse_task`] gives for it).
    pub(crate) fn leaf(s: &Strand) -> Agg {
        let d = s.duration();
        Agg {
            start: s.start,
            end: s.end,
            last_start: s.start,
            worker: s.worker,
            work: d,
            span: d,
            span_burdens: 0,
            creates: u64::from(s.kind == EndKind::Create),
            waits: u64::from(s.kind == EndKind::Wait),
            ends: u64::from(s.kind == EndKind::End),
            strands: 1,
        }
    }

    #[inline(always)]
    fn add_strand(&mut self, s: &Strand) {
        self.start = self.start.min(s.start);
        self.end = self.end.max(s.end);
        self.last_start = self.last_start.max(s.start);
        self.work += s.duration();
        self.strands += 1;
        self.creates += u64::from(s.kind == EndKind::Create);
        self.waits += u64::from(s.kind == EndKind::Wait);
        self.ends += u64::from(s.kind == EndKind::End);
    }

    #[inline(always)]
    fn add(&mut self, a: &Agg) {
        self.start = self.start.min(a.start);
        self.end = self.end.max(a.end);
        self.last_start = self.last_start.max(a.last_start);
        self.work += a.work;
        self.creates += a.creates;
        self.waits += a.waits;
        self.ends += a.ends;
        self.strands += a.strands;
    }
}

/// The task a create strand created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Child {
    /// Not finished yet while recording (a token of the recorder's); a recording that
    /// completed holds none.
    Pending(u64),
    /// A task kept in full (it ran on more than one worker).
    Task(Box<Task>),
    /// A task collapsed into its totals.
    Collapsed(Agg),
}

/// A task: its chain of items, ending in an end strand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Task {
    /// The chain, in program order.
    pub items: Vec<Item>,
}

/// A section: a chain whose strands create tasks, ending in the strand that waits for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The scope's number (`join` sections: 0).
    pub scope: u64,
    /// The chain, in program order.
    pub items: Vec<Item>,
}

/// An element of a chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A strand that did not create a task.
    Strand(Strand),
    /// A strand that created a task.
    Create {
        /// The strand.
        strand: Strand,
        /// The scope whose wait the task joins (0: the enclosing section).
        target: u64,
        /// The task.
        child: Child,
    },
    /// A section kept in full.
    Section(Box<Section>),
    /// A collapsed section or task.
    Collapsed(Agg),
}

/// The totals of a task's chain if everything in it ran on `worker` and nothing in it
/// escapes (creates a task another section waits for); `None` otherwise.
pub fn collapse_task(items: &[Item], worker: u32) -> Option<Agg> {
    let mut acc = TaskAcc::new(worker);
    if items.iter().all(|i| acc.item(i)) {
        acc.finish()
    } else {
        None
    }
}

/// [`collapse_task`] one item at a time (the recorder feeds it a task's items and its last
/// strand without putting them into one slice).
pub(crate) struct TaskAcc(Agg);

impl TaskAcc {
    #[inline(always)]
    pub(crate) fn new(worker: u32) -> TaskAcc {
        TaskAcc(Agg::empty(worker))
    }

    /// Adds a strand; `false` when it ran on another worker.
    #[inline(always)]
    pub(crate) fn strand(&mut self, s: &Strand) -> bool {
        if s.worker != self.0.worker {
            return false;
        }
        self.0.add_strand(s);
        self.0.span += s.duration();
        true
    }

    /// Adds an item; `false` when the chain cannot be collapsed.
    #[inline(always)]
    pub(crate) fn item(&mut self, item: &Item) -> bool {
        match item {
            Item::Strand(s) => self.strand(s),
            Item::Collapsed(a) if a.worker == self.0.worker => {
                self.0.add(a);
                self.0.span += a.span;
                self.0.span_burdens += a.span_burdens;
                true
            }
            _ => false,
        }
    }

    #[inline(always)]
    pub(crate) fn finish(self) -> Option<Agg> {
        (self.0.strands > 0).then_some(self.0)
    }
}

/// The totals of a section's chain if everything in it, created tasks included, ran on
/// `worker`; `None` otherwise. The section's span is the longer of its own chain (through
/// the wait) and each created task's path (the chain up to the create, then the task).
pub fn collapse_section(items: &[Item], worker: u32) -> Option<Agg> {
    let mut acc = SectionAcc::new(worker);
    if items.iter().all(|i| acc.item(i)) {
        acc.finish()
    } else {
        None
    }
}

/// [`collapse_section`] one item at a time (the recorder feeds it a join's create, the
/// items of its first closure and its wait without putting them into one slice).
pub(crate) struct SectionAcc {
    acc: Agg,
    /// The chain's length so far and its burdens.
    chain: u64,
    chain_b: u64,
    /// The longest path through a created task so far and its burdens.
    best: u64,
    best_b: u64,
}

impl SectionAcc {
    #[inline(always)]
    pub(crate) fn new(worker: u32) -> SectionAcc {
        SectionAcc {
            acc: Agg::empty(worker),
            chain: 0,
            chain_b: 0,
            best: 0,
            best_b: 0,
        }
    }

    /// Adds a strand that created no task; `false` when it ran on another worker.
    #[inline(always)]
    pub(crate) fn strand(&mut self, s: &Strand) -> bool {
        if s.worker != self.acc.worker {
            return false;
        }
        self.acc.add_strand(s);
        self.chain += s.duration();
        true
    }

    /// Adds a strand that created the collapsed task `c`; `false` when either ran on
    /// another worker.
    #[inline(always)]
    pub(crate) fn create(&mut self, strand: &Strand, c: &Agg) -> bool {
        let w = self.acc.worker;
        if strand.worker != w || c.worker != w {
            return false;
        }
        self.acc.add_strand(strand);
        self.acc.add(c);
        self.chain += strand.duration();
        // The child's path crosses its return edge; the chain its continuation.
        if self.chain + c.span > self.best {
            self.best = self.chain + c.span;
            self.best_b = self.chain_b + c.span_burdens + 1;
        }
        self.chain_b += 1;
        true
    }

    /// Adds an item; `false` when the chain cannot be collapsed.
    #[inline(always)]
    pub(crate) fn item(&mut self, item: &Item) -> bool {
        match item {
            Item::Strand(s) => self.strand(s),
            Item::Collapsed(a) if a.worker == self.acc.worker => {
                self.acc.add(a);
                self.chain += a.span;
                self.chain_b += a.span_burdens;
                true
            }
            Item::Create {
                strand,
                child: Child::Collapsed(c),
                ..
            } => self.create(strand, c),
            _ => false,
        }
    }

    #[inline(always)]
    pub(crate) fn finish(mut self) -> Option<Agg> {
        if self.best > self.chain {
            self.acc.span = self.best;
            self.acc.span_burdens = self.best_b;
        } else {
            self.acc.span = self.chain;
            self.acc.span_burdens = self.chain_b;
        }
        (self.acc.strands > 0).then_some(self.acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strand(start: u64, end: u64, kind: EndKind) -> Strand {
        Strand {
            start,
            end,
            worker: 0,
            kind,
        }
    }

    fn leaf_task(start: u64, end: u64) -> Agg {
        collapse_task(&[Item::Strand(strand(start, end, EndKind::End))], 0).unwrap()
    }

    #[test]
    fn a_join_section_takes_the_longer_of_chain_and_child() {
        // create 0-1, child 2-12 (span 10), chain 1-3, wait 3-4.
        let items = vec![
            Item::Create {
                strand: strand(0, 1, EndKind::Create),
                target: 0,
                child: Child::Collapsed(leaf_task(2, 12)),
            },
            Item::Strand(strand(12, 14, EndKind::Other)),
            Item::Strand(strand(14, 15, EndKind::Wait)),
        ];
        let a = collapse_section(&items, 0).unwrap();
        assert_eq!(a.work, 1 + 10 + 2 + 1);
        assert_eq!(a.span, 1 + 10);
        assert_eq!(a.span_burdens, 1);
        assert_eq!((a.creates, a.waits, a.ends, a.strands), (1, 1, 1, 4));
        assert_eq!((a.start, a.end, a.last_start), (0, 15, 14));
    }

    #[test]
    fn a_leaf_is_what_collapse_task_gives() {
        for kind in [EndKind::Create, EndKind::Wait, EndKind::End, EndKind::Other] {
            for (start, end) in [(3, 10), (10, 3), (0, 0)] {
                let s = strand(start, end, kind);
                assert_eq!(Some(Agg::leaf(&s)), collapse_task(&[Item::Strand(s)], 0));
            }
        }
    }

    #[test]
    fn another_worker_stops_the_collapse() {
        let mut s = strand(0, 1, EndKind::Wait);
        s.worker = 1;
        assert_eq!(collapse_section(&[Item::Strand(s)], 0), None);
        let escaping = Item::Create {
            strand: strand(0, 1, EndKind::Create),
            target: 7,
            child: Child::Collapsed(leaf_task(1, 2)),
        };
        assert_eq!(collapse_task(&[escaping], 0), None);
    }
}
