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

    fn add_strand(&mut self, s: &Strand) {
        self.start = self.start.min(s.start);
        self.end = self.end.max(s.end);
        self.last_start = self.last_start.max(s.start);
        self.work += s.duration();
        self.strands += 1;
        match s.kind {
            EndKind::Create => self.creates += 1,
            EndKind::Wait => self.waits += 1,
            EndKind::End => self.ends += 1,
            EndKind::Other => {}
        }
    }

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
    let mut acc = Agg::empty(worker);
    for item in items {
        match item {
            Item::Strand(s) if s.worker == worker => {
                acc.add_strand(s);
                acc.span += s.duration();
            }
            Item::Collapsed(a) if a.worker == worker => {
                acc.add(a);
                acc.span += a.span;
                acc.span_burdens += a.span_burdens;
            }
            _ => return None,
        }
    }
    (acc.strands > 0).then_some(acc)
}

/// The totals of a section's chain if everything in it, created tasks included, ran on
/// `worker`; `None` otherwise. The section's span is the longer of its own chain (through
/// the wait) and each created task's path (the chain up to the create, then the task).
pub fn collapse_section(items: &[Item], worker: u32) -> Option<Agg> {
    let mut acc = Agg::empty(worker);
    let (mut chain, mut chain_b) = (0u64, 0u64);
    let (mut best, mut best_b) = (0u64, 0u64);
    for item in items {
        match item {
            Item::Strand(s) if s.worker == worker => {
                acc.add_strand(s);
                chain += s.duration();
            }
            Item::Collapsed(a) if a.worker == worker => {
                acc.add(a);
                chain += a.span;
                chain_b += a.span_burdens;
            }
            Item::Create {
                strand,
                child: Child::Collapsed(c),
                ..
            } if strand.worker == worker && c.worker == worker => {
                acc.add_strand(strand);
                acc.add(c);
                chain += strand.duration();
                // The child's path crosses its return edge; the chain its continuation.
                if chain + c.span > best {
                    best = chain + c.span;
                    best_b = chain_b + c.span_burdens + 1;
                }
                chain_b += 1;
            }
            _ => return None,
        }
    }
    if best > chain {
        acc.span = best;
        acc.span_burdens = best_b;
    } else {
        acc.span = chain;
        acc.span_burdens = chain_b;
    }
    (acc.strands > 0).then_some(acc)
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
