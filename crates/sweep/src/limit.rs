//! Limits that engines take, and the stop reason they give when one is reached.

use std::fmt;

/// A limit an engine can reach. Engines take each as an explicit option and stop with a
/// [`Reached`] when a run would go past it; the command line maps each to its flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// States of an explored state space (ETCCS).
    States,
    /// Events of a simulation: one per `use` or `delay` instance (PAMELA).
    Events,
    /// Interpreter steps of a simulation, a fixed multiple of the event limit (PAMELA).
    Steps,
    /// Intervals of a recorded timeline (a schedule kept for a Gantt chart or trace).
    TimelineIntervals,
    /// Points of a parameter grid.
    Points,
    /// Ops of an instantiated thread graph: segments and events, each iteration of an
    /// unrolled loop counted (semi-empirical method).
    GraphOps,
    /// Steps of a thread graph's traversal: Θ, segments, loop entries and exits
    /// (semi-empirical method).
    TraversalSteps,
    /// Loop iterations walked while counting a thread graph before instantiating it (loops
    /// whose nested bounds change with their variable; semi-empirical method).
    CountIterations,
    /// Tasks of a task graph, read or generated (`taskgraph`).
    Tasks,
    /// Edges (precedences) of a task graph (`taskgraph`).
    Edges,
    /// Processes of a task-graph analysis (`taskgraph::analysis`).
    Processes,
    /// Nodes of a recorded run's DAG file (`taskpar::dag`).
    Nodes,
    /// Workers that a recorded run's DAG file names (`taskpar::dag`).
    Workers,
    /// Levels of nesting: tasks of a DAG file, subgraphs of a DOT file, the terms of an
    /// ETCCS state or the path of a parametric analysis.
    Depth,
    /// Bytes of an input: a model or graph text, a DAG file.
    InputBytes,
}

impl Limit {
    /// What the limit counts, plural, for messages: `states`, `events`.
    pub fn noun(self) -> &'static str {
        match self {
            Limit::States => "states",
            Limit::Events => "events",
            Limit::Steps => "interpreter steps",
            Limit::TimelineIntervals => "timeline intervals",
            Limit::Points => "grid points",
            Limit::GraphOps => "graph ops",
            Limit::TraversalSteps => "traversal steps",
            Limit::CountIterations => "counted loop iterations",
            Limit::Tasks => "tasks",
            Limit::Edges => "edges",
            Limit::Processes => "processes",
            Limit::Nodes => "nodes",
            Limit::Workers => "workers",
            Limit::Depth => "nesting levels",
            Limit::InputBytes => "input bytes",
        }
    }

    /// What sets the limit, for advice (`diag::Advice`'s keys): the input key that raises
    /// it (`{max-events}`), or, for a limit no input sets (the engine's default holds), whose
    /// limit it is.
    pub fn setter(self) -> &'static str {
        match self {
            Limit::States => "{max-states}",
            Limit::Events | Limit::Steps => "{max-events}",
            Limit::TimelineIntervals => "{max-timeline}",
            Limit::Points => "{define} (fewer values)",
            Limit::GraphOps => "{max-ops}",
            Limit::TraversalSteps => "{max-steps}",
            // The sizes a reader accepts: task graphs, DAG files, model texts.
            Limit::Tasks | Limit::Edges | Limit::Nodes | Limit::Workers | Limit::InputBytes => {
                "the reader's limit"
            }
            // Nesting, processes of an analysis, the walk of a thread graph's count.
            Limit::Depth | Limit::Processes | Limit::CountIterations => "the engine's limit",
        }
    }
}

/// A stop reason: the run reached `limit`, set to `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reached {
    /// Which limit.
    pub limit: Limit,
    /// Its value in the run.
    pub value: u64,
}

impl Reached {
    /// `limit` reached at `value`.
    pub fn new(limit: Limit, value: u64) -> Self {
        Reached { limit, value }
    }

    /// The advice to raise the limit, its input as a key: `raise {max-events} (now 1000)`.
    ///
    /// ```
    /// use sweep::{Limit, Reached};
    /// assert_eq!(Reached::new(Limit::Events, 1000).raise(), "raise {max-events} (now 1000)");
    /// assert_eq!(Reached::new(Limit::Tasks, 5).raise(), "raise the reader's limit (now 5)");
    /// ```
    pub fn raise(&self) -> String {
        format!("raise {} (now {})", self.limit.setter(), self.value)
    }
}

impl fmt::Display for Reached {
    /// `the limit of 1000 events`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the limit of {} {}", self.value, self.limit.noun())
    }
}
