//! Recorded DAGs: the file [`read`]er, the header, and the [`Graph`] of strands and
//! collapsed nodes that the statistics, the timeline and the replay read.

pub mod dr;
mod graph;
mod load;
mod read;

pub use graph::{Counts, EdgeKind, Graph, Node, NodeKind};
pub use load::{is_recording, load, load_with, sniff, sniff_with, LoadError};
pub use read::{is_dag_file, read, DEPENDENCES_SINCE, OUTSIDE_POOL, VERSION};
pub use taskrec::tree;

use serde::Deserialize;
use std::collections::BTreeMap;

/// The header of a DAG file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Header {
    /// `vates-taskdag`.
    pub format: String,
    /// The layout's version.
    pub version: u32,
    /// The recorder and its version.
    #[serde(default)]
    pub recorder: String,
    /// The program's name.
    #[serde(default)]
    pub program: String,
    /// Its parameters.
    #[serde(default)]
    pub parameters: BTreeMap<String, Option<f64>>,
    /// Workers in the run (P).
    pub workers: u32,
    /// The clock of the times.
    pub clock: Clock,
    /// The root task's elapsed time, in clock units.
    #[serde(default)]
    pub elapsed: u64,
    /// Whether single-worker subgraphs were collapsed.
    #[serde(default)]
    pub collapse: bool,
    /// The machine it ran on.
    #[serde(default)]
    pub machine: Machine,
}

impl Header {
    /// The assumed CPU clock when the header does not say (Hz).
    pub const DEFAULT_CPU_HZ: f64 = 2.5e9;

    /// `cycles` CPU cycles in the recording's clock units (at the CPU clock of the header,
    /// else [`Header::DEFAULT_CPU_HZ`]).
    pub fn cycles_to_clock(&self, cycles: f64) -> f64 {
        let cpu_hz = self
            .machine
            .cpu_mhz
            .filter(|m| m.is_finite() && *m > 0.0)
            .map_or(Self::DEFAULT_CPU_HZ, |m| m * 1e6);
        cycles * self.clock.frequency_hz / cpu_hz
    }
}

/// The clock of a recording.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Clock {
    /// Its unit's name (`ns`).
    pub unit: String,
    /// Ticks per second.
    pub frequency_hz: f64,
}

/// The machine a recording ran on.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Machine {
    /// The CPU model.
    #[serde(default)]
    pub cpu: String,
    /// The CPU clock in MHz when the run began (`None` when unknown).
    #[serde(default)]
    pub cpu_mhz: Option<f64>,
    /// Logical cores available to the process.
    #[serde(default)]
    pub cores: u32,
    /// Its caches.
    #[serde(default)]
    pub caches: Vec<Cache>,
}

/// One cache level.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Cache {
    /// 1, 2, 3.
    pub level: u32,
    /// `Data`, `Instruction`, `Unified`.
    #[serde(rename = "type")]
    pub kind: String,
    /// As Linux prints it (`32K`).
    pub size: String,
}

/// A recorded run's content: a vates DAG file's tree, or a DAG Recorder file's graph.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The header.
    pub header: Header,
    /// The DAG as recorded.
    pub body: Body,
    /// Nodes in the file (materialised nodes).
    pub nodes: u64,
    /// A vates file's dependences (version 2 on): `(from, to)`, task `to` starts only
    /// after task `from` ended; tasks numbered in file order (the root 0, then each
    /// create's task as the file holds it). Empty for DAG Recorder files, whose graph holds
    /// every edge.
    pub dependences: Vec<(u64, u64)>,
}

/// The DAG of a recording, as its file holds it.
#[derive(Clone, Debug)]
pub enum Body {
    /// A vates DAG file's root task (`taskrec`'s tree).
    Tree(tree::Child),
    /// A DAG Recorder file's leaves and edges.
    Graph(Graph),
}

impl Recording {
    /// The recording's DAG as a graph of strands and collapsed nodes: built from a vates
    /// file's tree, or a DAG Recorder file's graph as read (not copied).
    pub fn graph(&self) -> std::borrow::Cow<'_, Graph> {
        match &self.body {
            Body::Tree(root) => {
                std::borrow::Cow::Owned(Graph::from_root_with(root, &self.dependences))
            }
            Body::Graph(g) => std::borrow::Cow::Borrowed(g),
        }
    }
}

impl From<dr::DrFile> for Recording {
    fn from(f: dr::DrFile) -> Recording {
        Recording {
            header: f.header,
            body: Body::Graph(f.graph),
            nodes: f.nodes,
            dependences: Vec::new(),
        }
    }
}

/// Bounds on what a DAG file may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most nodes.
    pub max_nodes: u64,
    /// The deepest nesting of tasks and sections.
    pub max_depth: usize,
    /// The most workers a header may name: the statistics keep worker × worker edge
    /// matrices and the timeline a lane per worker, so the header's count is memory.
    pub max_workers: u32,
    /// The largest file [`load`] reads, in bytes.
    pub max_bytes: u64,
}

impl Limits {
    /// The default most workers (a worker × worker edge matrix of five kinds is then 42 MB).
    pub const MAX_WORKERS: u32 = 1024;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: 50_000_000,
            max_depth: 10_000,
            max_workers: Self::MAX_WORKERS,
            max_bytes: 1 << 31,
        }
    }
}

/// Why a DAG file cannot be read; each says how to get a readable one (its `help`).
#[derive(Clone, Debug, PartialEq, thiserror::Error, miette::Diagnostic)]
pub enum DagError {
    /// The file does not begin with the DAG magic.
    #[error(
        "not a vates DAG file (it does not begin with `VATESDAG`), nor a DAG Recorder one (`DAG_RECORDER FORMAT VERSION`)"
    )]
    #[diagnostic(help(
        "give a file written by a program linked with taskrec and run with \
         VATES_TASKREC=FILE (`vates taskpar record` does this), or a DAG Recorder `.dag`"
    ))]
    NotDag,
    /// Another version of the layout.
    #[error("DAG file version {found}; this vates reads versions 1 to {supported}")]
    #[diagnostic(help(
        "record the run again with this version's taskrec, or read it with the vates \
         that wrote it"
    ))]
    Version {
        /// The file's version.
        found: u32,
        /// The newest version this build reads (it reads 1 to this).
        supported: u32,
    },
    /// The header is not the JSON it should be.
    #[error("the DAG file's header (at byte {offset}) is not valid: {message}")]
    #[diagnostic(help(
        "the file was cut short or changed after it was written (a full disk, a \
         program killed while writing, a copy in text mode); record the run again"
    ))]
    Header {
        /// Where the header begins.
        offset: usize,
        /// What is wrong.
        message: String,
    },
    /// The file ends too early.
    #[error("the DAG file is truncated: it ends at byte {offset}, in {what}")]
    #[diagnostic(help(
        "the file was cut short or changed after it was written (a full disk, a \
         program killed while writing, a copy in text mode); record the run again"
    ))]
    Truncated {
        /// Where it ends.
        offset: usize,
        /// What was being read.
        what: String,
    },
    /// A value that cannot be.
    #[error("the DAG file is corrupt at byte {offset}: {what}")]
    #[diagnostic(help(
        "the file was cut short or changed after it was written (a full disk, a \
         program killed while writing, a copy in text mode); record the run again"
    ))]
    Corrupt {
        /// Where.
        offset: usize,
        /// What.
        what: String,
    },
    /// More nodes than the limit.
    #[error("the DAG file holds more than {} nodes", reached.value)]
    #[diagnostic(help(
        "record with collapsing on (leave VATES_TASKREC_COLLAPSE unset): subgraphs \
         that ran on one worker then take one node"
    ))]
    TooLarge {
        /// The limit reached: [`sweep::Limit::Nodes`] at [`Limits::max_nodes`].
        reached: sweep::Reached,
    },
    /// A header that names more workers than the limit.
    #[error("the DAG file's header names {workers} workers; the limit is {}", reached.value)]
    #[diagnostic(help(
        "record with fewer workers (RAYON_NUM_THREADS or OMP_NUM_THREADS), or check that this is the right file"
    ))]
    TooManyWorkers {
        /// The header's count.
        workers: u32,
        /// The limit reached: [`sweep::Limit::Workers`] at [`Limits::max_workers`].
        reached: sweep::Reached,
    },
    /// A node on a worker the header does not have.
    #[error(
        "the DAG file is corrupt at byte {offset}: a node on worker {worker}, but the header \
         names {workers} workers (0 to {last})", last = workers.saturating_sub(1)
    )]
    #[diagnostic(help(
        "the program ran tasks on more workers than the header names (a pool of its own?): \
         run it in rayon's global pool, which RAYON_NUM_THREADS sizes, and record it again"
    ))]
    Worker {
        /// Where the node's worker is.
        offset: usize,
        /// The node's worker.
        worker: u32,
        /// The header's worker count.
        workers: u32,
    },
    /// Nested deeper than the limit.
    #[error(
        "the DAG file nests tasks deeper than {} levels (at byte {offset})",
        reached.value
    )]
    #[diagnostic(help(
        "record with collapsing on (leave VATES_TASKREC_COLLAPSE unset): subgraphs \
         that ran on one worker then take one node"
    ))]
    TooDeep {
        /// Where.
        offset: usize,
        /// The limit reached: [`sweep::Limit::Depth`] at [`Limits::max_depth`].
        reached: sweep::Reached,
    },
    /// A DAG Recorder file of another version than the one vates reads.
    #[error("a DAG Recorder file of version `{found}`; vates reads `DAG_RECORDER FORMAT VERSION  1.24 2014/09/18` (MassiveThreads' profiler)")]
    #[diagnostic(help(
        "record the run with a DAG Recorder of that format version, or convert the file \
         with that version's dag2any"
    ))]
    DrVersion {
        /// The file's version string.
        found: String,
    },
    /// A DAG Recorder file read without the rate of its clock (the file does not say).
    #[error("a DAG Recorder file's times are clock ticks, and the file does not say how fast the clock ran")]
    #[diagnostic(help(
        "give the rate of the clock that recorded it (the time-stamp counter of that machine)"
    ))]
    DrClock,
    /// A DAG Recorder file whose sizes do not fit the 64-bit little-endian layout.
    #[error("not a DAG Recorder file vates can read: {why}")]
    #[diagnostic(help(
        "record on a 64-bit little-endian machine, or check that the file was copied whole"
    ))]
    DrLayout {
        /// Why.
        why: String,
    },
}

impl diag::Advise for DagError {
    /// The error's help; for [`DagError::DrClock`], the `{clock-hz}` that says the rate.
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            DagError::DrClock => Some(diag::Advice::fix(
                "give {clock-hz}, the time-stamp counter's rate of the machine that recorded it",
            )),
            e => miette::Diagnostic::help(e).map(|h| diag::Advice::fix(h.to_string())),
        }
    }
}

impl Recording {
    /// For a DAG Recorder file read at the clock rate of the machine reading it (the file
    /// does not say how fast its clock ran), the note saying so, with `{clock-hz}` for the
    /// input that gives another rate; `None` for a vates file.
    pub fn clock_note(&self) -> Option<String> {
        matches!(self.body, Body::Graph(_)).then(|| {
            format!(
                "a DAG Recorder file does not say how fast its clock ran; its ticks are read \
                 at this machine's {} MHz (give {{clock-hz}} for the machine that recorded it)",
                self.header.clock.frequency_hz / 1e6
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diag::Advise;

    #[test]
    fn a_missing_clock_rate_is_advised_by_its_key() {
        let fix = DagError::DrClock.advice().unwrap().fix;
        assert!(fix.starts_with("give {clock-hz}, "), "{fix}");
        let fix = DagError::NotDag.advice().unwrap().fix;
        assert!(fix.starts_with("give a file written by a program"), "{fix}");
    }
}
