//! The recorded tree as a DAG: one node per strand or collapsed subgraph, with DAG
//! Recorder's edge kinds. Nodes are numbered in program order, which is a topological
//! order (every predecessor comes first).

use taskrec::tree::{Agg, Child, EndKind, Item, Strand};

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// One strand, and how it ended.
    Strand(EndKind),
    /// A collapsed subgraph (it ran on one worker).
    Collapsed,
}

/// A node: a strand, or a collapsed subgraph with its totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Strand or collapsed.
    pub kind: NodeKind,
    /// The worker it ran on.
    pub worker: u32,
    /// Start (clock units).
    pub start: u64,
    /// End.
    pub end: u64,
    /// The latest start of a strand in it (a strand: its start).
    pub last_start: u64,
    /// Work: the strands' durations.
    pub work: u64,
    /// Span through it.
    pub span: u64,
    /// Spawn burdens on that span.
    pub span_burdens: u64,
    /// Creates, waits, ends and strands in it.
    pub counts: Counts,
    /// The logical edges inside the node by kind ([`EdgeKind::ALL`] order): none in a
    /// strand; in a collapsed node, what the recorder kept (DAG Recorder stores them) or,
    /// for vates' own files, each create's child, continuation and return edge and each
    /// wait's continuation.
    pub inner_edges: [u64; 5],
}

/// Logical node counts (DAG Recorder's `logical_node_counts`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Strands that created a task.
    pub creates: u64,
    /// Strands that waited.
    pub waits: u64,
    /// Strands that ended a task.
    pub ends: u64,
    /// All strands (intervals).
    pub strands: u64,
}

impl Counts {
    /// Strands that ended otherwise.
    pub fn others(&self) -> u64 {
        self.strands - self.creates - self.waits - self.ends
    }
}

/// DAG Recorder's edge kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// A task's end to the node after the wait that waited for it.
    End,
    /// A create strand to the created task's first node.
    Create,
    /// A create strand to the next node of its task.
    CreateCont,
    /// A wait strand to the next node of its task.
    WaitCont,
    /// Any other node to the next node of its task.
    OtherCont,
    /// A task's end to the first node of a sibling task that depended on it (OpenMP's
    /// `depend` clauses; a vates file's dependence list). DAG Recorder has no such kind:
    /// it is not in [`EdgeKind::ALL`], and the statistics count it apart.
    Depend,
}

impl EdgeKind {
    /// All kinds, in DAG Recorder's order.
    pub const ALL: [EdgeKind; 5] = [
        EdgeKind::End,
        EdgeKind::Create,
        EdgeKind::CreateCont,
        EdgeKind::WaitCont,
        EdgeKind::OtherCont,
    ];

    /// True for the edges Cilkview burdens (a stolen continuation, a return; and a
    /// dependence, which like a return makes a task wait for another's end).
    pub fn burdened(self) -> bool {
        matches!(
            self,
            EdgeKind::CreateCont | EdgeKind::End | EdgeKind::Depend
        )
    }
}

/// A recorded DAG.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// The nodes, in a topological order.
    pub nodes: Vec<Node>,
    /// When the first node became ready, if the recorder says (DAG Recorder: 0, its
    /// `dr_start`); `None`: at its start. The statistics count elapsed time from it.
    pub ready_at: Option<u64>,
    pred_off: Vec<usize>,
    preds: Vec<(u32, EdgeKind)>,
}

struct Open {
    scope: u64,
    ends: Vec<(u32, EdgeKind)>,
}

/// The dependences while the graph is built: tasks are numbered as they are entered (the
/// file's order), each sink's sources are looked up when it is entered, and a source's
/// last node is kept when it is left.
#[derive(Default)]
struct Deps {
    /// `(to, from)`, sorted.
    by_sink: Vec<(u64, u64)>,
    /// The last node of each source task left so far.
    last: std::collections::HashMap<u64, u32>,
    /// The tasks that are sources.
    sources: std::collections::HashSet<u64>,
    /// The next task's number.
    next: u64,
}

impl Graph {
    /// The graph of a recorded root task.
    pub fn from_root(root: &Child) -> Graph {
        Graph::from_root_with(root, &[])
    }

    /// The graph of a recorded root task with `dependences` (`(from, to)`: an edge of
    /// kind [`EdgeKind::Depend`] from task `from`'s last node to task `to`'s first, tasks
    /// numbered in the file's order, the root 0). A dependence whose source is not left
    /// before its sink is entered (as the reader checks) is ignored.
    pub fn from_root_with(root: &Child, dependences: &[(u64, u64)]) -> Graph {
        sweep::deep_stack::run(|| Graph::build(root, dependences))
    }

    fn build(root: &Child, dependences: &[(u64, u64)]) -> Graph {
        let mut g = Graph {
            pred_off: vec![0],
            ..Graph::default()
        };
        let mut by_sink: Vec<(u64, u64)> = dependences.iter().map(|&(f, t)| (t, f)).collect();
        by_sink.sort_unstable();
        by_sink.dedup();
        let mut deps = Deps {
            sources: dependences.iter().map(|&(f, _)| f).collect(),
            by_sink,
            ..Deps::default()
        };
        let mut open = Vec::new();
        g.task(root, None, &mut open, &mut deps);
        g
    }

    /// A graph of `nodes` whose predecessors are `preds` (one list per node), every
    /// predecessor earlier in `nodes`, and whose first node became ready at `ready_at`.
    ///
    /// # Panics
    /// None; a predecessor that is not earlier is the caller's error (the statistics would
    /// read a node's end before it is known).
    pub fn from_nodes(
        nodes: Vec<Node>,
        preds: &[Vec<(u32, EdgeKind)>],
        ready_at: Option<u64>,
    ) -> Graph {
        let mut g = Graph {
            nodes: Vec::with_capacity(nodes.len()),
            ready_at,
            pred_off: vec![0],
            preds: Vec::new(),
        };
        for (n, p) in nodes.into_iter().zip(preds) {
            g.push(n, p);
        }
        g
    }

    /// Node `v`'s predecessors and the kinds of their edges.
    pub fn preds(&self, v: usize) -> &[(u32, EdgeKind)] {
        &self.preds[self.pred_off[v]..self.pred_off[v + 1]]
    }

    /// Edges in all.
    pub fn edge_count(&self) -> usize {
        self.preds.len()
    }

    /// Totals over every node.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for n in &self.nodes {
            c.creates += n.counts.creates;
            c.waits += n.counts.waits;
            c.ends += n.counts.ends;
            c.strands += n.counts.strands;
        }
        c
    }

    fn push(&mut self, node: Node, preds: &[(u32, EdgeKind)]) -> u32 {
        self.nodes.push(node);
        self.preds.extend_from_slice(preds);
        self.pred_off.push(self.preds.len());
        (self.nodes.len() - 1) as u32
    }

    fn strand(&mut self, s: &Strand, preds: &[(u32, EdgeKind)]) -> u32 {
        let mut counts = Counts {
            strands: 1,
            ..Counts::default()
        };
        match s.kind {
            EndKind::Create => counts.creates = 1,
            EndKind::Wait => counts.waits = 1,
            EndKind::End => counts.ends = 1,
            EndKind::Other => {}
        }
        self.push(
            Node {
                kind: NodeKind::Strand(s.kind),
                worker: s.worker,
                start: s.start,
                end: s.end,
                last_start: s.start,
                work: s.duration(),
                span: s.duration(),
                span_burdens: 0,
                counts,
                inner_edges: [0; 5],
            },
            preds,
        )
    }

    fn collapsed(&mut self, a: &Agg, preds: &[(u32, EdgeKind)]) -> u32 {
        self.push(
            Node {
                kind: NodeKind::Collapsed,
                worker: a.worker,
                start: a.start,
                end: a.end,
                last_start: a.last_start,
                work: a.work,
                span: a.span,
                span_burdens: a.span_burdens,
                counts: Counts {
                    creates: a.creates,
                    waits: a.waits,
                    ends: a.ends,
                    strands: a.strands,
                },
                // EdgeKind::ALL order: end, create, create-cont, wait-cont, other-cont.
                inner_edges: [a.creates, a.creates, a.creates, a.waits, 0],
            },
            preds,
        )
    }

    /// Adds a task created by `creator`; its last node.
    fn task(
        &mut self,
        c: &Child,
        creator: Option<u32>,
        open: &mut Vec<Open>,
        deps: &mut Deps,
    ) -> Option<u32> {
        let number = deps.next;
        deps.next += 1;
        let mut first: Vec<(u32, EdgeKind)> =
            creator.map(|c| (c, EdgeKind::Create)).into_iter().collect();
        let lo = deps.by_sink.partition_point(|&(to, _)| to < number);
        for &(to, from) in &deps.by_sink[lo..] {
            if to != number {
                break;
            }
            if let Some(&u) = deps.last.get(&from) {
                first.push((u, EdgeKind::Depend));
            }
        }
        let last = match c {
            Child::Collapsed(a) => Some(self.collapsed(a, &first)),
            Child::Task(t) => self.chain(&t.items, first, open, deps).0,
            Child::Pending(_) => None,
        };
        if let Some(v) = last.filter(|_| deps.sources.contains(&number)) {
            deps.last.insert(number, v);
        }
        last
    }

    /// Adds a chain whose first node follows `incoming`; its last node and the edges into
    /// the node after it.
    fn chain(
        &mut self,
        items: &[Item],
        mut incoming: Vec<(u32, EdgeKind)>,
        open: &mut Vec<Open>,
        deps: &mut Deps,
    ) -> (Option<u32>, Vec<(u32, EdgeKind)>) {
        let mut last = None;
        for item in items {
            match item {
                Item::Strand(s) => {
                    let v = self.strand(s, &incoming);
                    let kind = match s.kind {
                        EndKind::Wait => EdgeKind::WaitCont,
                        EndKind::Create => EdgeKind::CreateCont,
                        EndKind::End | EndKind::Other => EdgeKind::OtherCont,
                    };
                    incoming = vec![(v, kind)];
                    last = Some(v);
                }
                Item::Collapsed(a) => {
                    let v = self.collapsed(a, &incoming);
                    incoming = vec![(v, EdgeKind::OtherCont)];
                    last = Some(v);
                }
                Item::Create {
                    strand,
                    target,
                    child,
                } => {
                    let v = self.strand(strand, &incoming);
                    incoming = vec![(v, EdgeKind::CreateCont)];
                    if let Some(end) = self.task(child, Some(v), open, deps) {
                        // The wait of the scope it joins: the innermost one for a join (0),
                        // else the open section of that scope.
                        let slot = open
                            .iter()
                            .rposition(|o| *target == 0 || o.scope == *target)
                            .or(open.len().checked_sub(1));
                        match slot {
                            Some(k) => open[k].ends.push((end, EdgeKind::End)),
                            None => incoming.push((end, EdgeKind::End)),
                        }
                    }
                    last = Some(v);
                }
                Item::Section(s) => {
                    open.push(Open {
                        scope: s.scope,
                        ends: Vec::new(),
                    });
                    let (l, mut out) = self.chain(&s.items, incoming, open, deps);
                    if let Some(o) = open.pop() {
                        out.extend(o.ends);
                    }
                    incoming = out;
                    last = l.or(last);
                }
            }
        }
        (last, incoming)
    }
}
