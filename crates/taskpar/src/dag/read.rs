//! Reading a DAG file (the layout of `taskrec::file`, and version 2's dependence list after
//! the tree, `docs/dag-file.md`): the header, then the tree, checked
//! byte by byte. A wrong magic, another version, a truncated or corrupt body, a tree nested
//! deeper or larger than the limits: each is a [`DagError`] that says where and why.

use super::{DagError, Header, Limits, Recording};
use taskrec::tree::{Agg, Child, EndKind, Item, Section, Strand, Task};
use taskrec::{MAGIC, TAG_COLLAPSED, TAG_CREATE, TAG_SECTION, TAG_STRAND, TAG_TASK, TRAILER};

/// The newest layout version this build reads (it reads every version from 1 on).
pub const VERSION: u32 = 2;

/// The first layout version with a dependence list after the root node.
pub const DEPENDENCES_SINCE: u32 = 2;

/// The worker of a node that ran outside the pool (on a thread rayon does not own).
pub const OUTSIDE_POOL: u32 = u32::MAX;

/// True if `bytes` begin as a DAG file does.
pub fn is_dag_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads a DAG file's bytes.
///
/// # Errors
/// [`DagError`] for a file that is not a DAG file, of another version, truncated, corrupt,
/// or past `limits`.
pub fn read(bytes: &[u8], limits: &Limits) -> Result<Recording, DagError> {
    sweep::deep_stack::run(|| read_here(bytes, limits))
}

fn read_here(bytes: &[u8], limits: &Limits) -> Result<Recording, DagError> {
    if !is_dag_file(bytes) {
        return Err(DagError::NotDag);
    }
    let mut c = Cursor {
        bytes,
        at: MAGIC.len(),
        nodes: 0,
        limits: *limits,
        workers: 0,
        subtree_ends: None,
    };
    let version = c.u32("the format version")?;
    if !(1..=VERSION).contains(&version) {
        return Err(DagError::Version {
            found: version,
            supported: VERSION,
        });
    }
    let len = c.u32("the header length")? as usize;
    let header_at = c.at;
    let text = c.take(len, "the header")?;
    let header: Header = serde_json::from_slice(text).map_err(|e| DagError::Header {
        offset: header_at,
        message: e.to_string(),
    })?;
    if header.workers == 0 {
        return Err(DagError::Header {
            offset: header_at,
            message: "`workers` is 0; a run has at least one worker".into(),
        });
    }
    if header.workers > limits.max_workers {
        return Err(DagError::TooManyWorkers {
            workers: header.workers,
            reached: sweep::Reached::new(sweep::Limit::Workers, limits.max_workers.into()),
        });
    }
    let hz = header.clock.frequency_hz;
    if !(hz.is_finite() && hz > 0.0) {
        return Err(DagError::Header {
            offset: header_at,
            message: format!(
                "`clock.frequency_hz` is {hz}; the clock's ticks per second must be a positive \
                 number"
            ),
        });
    }
    if header.version != version {
        return Err(DagError::Header {
            offset: header_at,
            message: format!(
                "`version` is {}, but the layout version before the header is {version}",
                header.version
            ),
        });
    }
    c.workers = header.workers;
    if version >= DEPENDENCES_SINCE {
        c.subtree_ends = Some(Vec::new());
    }
    let root = c.child_at(0)?;
    let dependences = if version >= DEPENDENCES_SINCE {
        c.dependences()?
    } else {
        Vec::new()
    };
    let trailer_at = c.at;
    let trailer = c.take(TRAILER.len(), "the end marker")?;
    if trailer != TRAILER {
        return Err(DagError::Corrupt {
            offset: trailer_at,
            what: "the end marker after the last node".into(),
        });
    }
    let count = c.u64("the node count")?;
    if count != c.nodes {
        return Err(DagError::Corrupt {
            offset: trailer_at,
            what: format!(
                "the node count: the file says {count}, its body holds {}",
                c.nodes
            ),
        });
    }
    if c.at != bytes.len() {
        return Err(DagError::Corrupt {
            offset: c.at,
            what: format!("{} bytes after the end marker", bytes.len() - c.at),
        });
    }
    Ok(Recording {
        header,
        body: super::Body::Tree(root),
        nodes: c.nodes,
        dependences,
    })
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    nodes: u64,
    limits: Limits,
    /// The header's worker count: a node's worker is below it or [`OUTSIDE_POOL`].
    workers: u32,
    /// Version 2 on: per task read (in file order, the root 0), the number of tasks read
    /// when its node ended, so that task `k`'s descendants are `k + 1 .. subtree_ends[k]`.
    subtree_ends: Option<Vec<u64>>,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], DagError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(DagError::Truncated {
                offset: self.at,
                what: what.to_string(),
            });
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self, what: &str) -> Result<u8, DagError> {
        Ok(self.take(1, what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32, DagError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, what: &str) -> Result<u64, DagError> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// A node's worker, checked against the header's count.
    fn worker(&mut self, what: &str) -> Result<u32, DagError> {
        let at = self.at;
        let worker = self.u32(what)?;
        if worker >= self.workers && worker != OUTSIDE_POOL {
            return Err(DagError::Worker {
                offset: at,
                worker,
                workers: self.workers,
            });
        }
        Ok(worker)
    }

    fn node(&mut self, depth: usize) -> Result<(), DagError> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(DagError::TooLarge {
                reached: sweep::Reached::new(sweep::Limit::Nodes, self.limits.max_nodes),
            });
        }
        if depth > self.limits.max_depth {
            return Err(DagError::TooDeep {
                offset: self.at,
                reached: sweep::Reached::new(sweep::Limit::Depth, self.limits.max_depth as u64),
            });
        }
        Ok(())
    }

    fn strand(&mut self, kind: EndKind) -> Result<Strand, DagError> {
        let at = self.at;
        let worker = self.worker("a strand's worker")?;
        let start = self.u64("a strand's start")?;
        let end = self.u64("a strand's end")?;
        if end < start {
            return Err(DagError::Corrupt {
                offset: at,
                what: format!("a strand that ends ({end}) before it starts ({start})"),
            });
        }
        Ok(Strand {
            start,
            end,
            worker,
            kind,
        })
    }

    fn collapsed(&mut self) -> Result<Agg, DagError> {
        let at = self.at;
        let worker = self.worker("a collapsed node's worker")?;
        let mut v = [0u64; 10];
        for x in &mut v {
            *x = self.u64("a collapsed node's totals")?;
        }
        let [start, end, last_start, work, span, span_burdens, creates, waits, ends, strands] = v;
        if end < start
            || last_start < start
            || last_start > end
            || span > work
            || work > end - start
        {
            return Err(DagError::Corrupt {
                offset: at,
                what: format!(
                    "a collapsed node's times (start {start}, end {end}, last start {last_start}, \
                     work {work}, span {span}): they must satisfy start ≤ last start ≤ end and \
                     span ≤ work ≤ end − start"
                ),
            });
        }
        Ok(Agg {
            start,
            end,
            last_start,
            worker,
            work,
            span,
            span_burdens,
            creates,
            waits,
            ends,
            strands,
        })
    }

    fn items(&mut self, depth: usize) -> Result<Vec<Item>, DagError> {
        let n = self.u32("an item count")? as usize;
        // A corrupt count must not reserve memory the file cannot fill (a strand is 22 bytes).
        let mut items = Vec::with_capacity(n.min((self.bytes.len() - self.at) / 22 + 1));
        for _ in 0..n {
            items.push(self.item(depth)?);
        }
        Ok(items)
    }

    fn item(&mut self, depth: usize) -> Result<Item, DagError> {
        let at = self.at;
        let tag = self.u8("a node tag")?;
        self.node(depth)?;
        match tag {
            TAG_STRAND => {
                let kind_at = self.at;
                let k = self.u8("a strand's kind")?;
                let kind = EndKind::from_byte(k)
                    .filter(|k| *k != EndKind::Create)
                    .ok_or_else(|| DagError::Corrupt {
                        offset: kind_at,
                        what: format!("a strand kind {k} (wait 1, end 2, other 3)"),
                    })?;
                Ok(Item::Strand(self.strand(kind)?))
            }
            TAG_CREATE => {
                let strand = self.strand(EndKind::Create)?;
                let target = self.u64("a create's target scope")?;
                let child = self.child_at(depth + 1)?;
                Ok(Item::Create {
                    strand,
                    target,
                    child,
                })
            }
            TAG_COLLAPSED => Ok(Item::Collapsed(self.collapsed()?)),
            TAG_SECTION => {
                let scope = self.u64("a section's scope")?;
                let items = self.items(depth + 1)?;
                Ok(Item::Section(Box::new(Section { scope, items })))
            }
            TAG_TASK => Err(DagError::Corrupt {
                offset: at,
                what: "a task where a chain item belongs (a task follows a create)".into(),
            }),
            t => Err(DagError::Corrupt {
                offset: at,
                what: format!(
                    "a node tag {t} (strand 1, create 2, collapsed 3, task 4, section 5)"
                ),
            }),
        }
    }

    /// A task node (the root, or the task a create made).
    fn child_at(&mut self, depth: usize) -> Result<Child, DagError> {
        let number = self.subtree_ends.as_mut().map(|ends| {
            ends.push(0);
            ends.len() - 1
        });
        let child = self.child_body(depth)?;
        if let (Some(k), Some(ends)) = (number, self.subtree_ends.as_mut()) {
            ends[k] = ends.len() as u64;
        }
        Ok(child)
    }

    /// Version 2 on, after the root node: the count (u64), then per dependence the task it
    /// leaves and the task it enters (u64 each, tasks numbered in file order). The first
    /// must come before the second and the second must not lie inside the first (a task
    /// cannot wait for its own ancestor's end).
    fn dependences(&mut self) -> Result<Vec<(u64, u64)>, DagError> {
        let at = self.at;
        let n = self.u64("the dependence count")?;
        let left = (self.bytes.len() - self.at) as u64;
        if n > left / 16 {
            return Err(DagError::Truncated {
                offset: at,
                what: format!("a list of {n} dependences (16 bytes each; {left} bytes left)"),
            });
        }
        let ends = self.subtree_ends.take().unwrap_or_default();
        let tasks = ends.len() as u64;
        let mut out = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let at = self.at;
            let from = self.u64("a dependence's source task")?;
            let to = self.u64("a dependence's sink task")?;
            let why = if from >= tasks || to >= tasks {
                Some(format!(
                    "the file holds tasks 0 to {}",
                    tasks.saturating_sub(1)
                ))
            } else if from >= to {
                Some("its source must come before its sink in the file".to_string())
            } else if to < ends[from as usize] {
                Some("its sink is inside its source (a descendant)".to_string())
            } else {
                None
            };
            if let Some(why) = why {
                return Err(DagError::Corrupt {
                    offset: at,
                    what: format!("a dependence from task {from} to task {to}: {why}"),
                });
            }
            out.push((from, to));
        }
        Ok(out)
    }

    fn child_body(&mut self, depth: usize) -> Result<Child, DagError> {
        let at = self.at;
        let tag = self.u8("a task node")?;
        self.node(depth)?;
        match tag {
            TAG_COLLAPSED => Ok(Child::Collapsed(self.collapsed()?)),
            TAG_TASK => {
                let items = self.items(depth + 1)?;
                if !matches!(items.last(), Some(Item::Strand(s)) if s.kind == EndKind::End) {
                    return Err(DagError::Corrupt {
                        offset: at,
                        what: "a task that does not finish with an end strand".into(),
                    });
                }
                Ok(Child::Task(Box::new(Task { items })))
            }
            t => Err(DagError::Corrupt {
                offset: at,
                what: format!("a node tag {t} where a task belongs (task 4 or collapsed 3)"),
            }),
        }
    }
}
