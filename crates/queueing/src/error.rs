//! The crate's error type.

/// Everything that can go wrong when building or solving a model in this crate.
///
/// Every variant names the offending value (and, for network centers, the center by name and
/// index) so that a caller can show the message to a user unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum QueueingError {
    /// A center's service demand is negative, NaN or infinite.
    #[error("center `{name}` (index {index}): service demand must be finite and non-negative, got {value}")]
    InvalidDemand {
        /// Position of the center in [`Network::centers`](crate::Network::centers).
        index: usize,
        /// The center's name.
        name: String,
        /// The rejected demand.
        value: f64,
    },
    /// The network's think time is negative, NaN or infinite.
    #[error("think time must be finite and non-negative, got {0}")]
    InvalidThinkTime(f64),
    /// The network has zero think time and zero total demand, so the throughput is unbounded.
    #[error("the network has zero total service demand and zero think time, so its throughput is unbounded")]
    UnboundedThroughput,
    /// A center index passed to [`MvaRecursion::set_demand`](crate::MvaRecursion::set_demand)
    /// does not exist.
    #[error("center index {index} is out of range for a network of {len} centers")]
    NoSuchCenter {
        /// The rejected index.
        index: usize,
        /// Number of centers in the network.
        len: usize,
    },
    /// The recursion's response time overflowed (the demands are too large for the
    /// population).
    #[error("the response time at population {population} is not a finite number: center `{center}` has demand {demand}, too large for this population")]
    Overflow {
        /// The population whose solution overflowed.
        population: usize,
        /// The center whose residence time overflowed first.
        center: String,
        /// Its demand.
        demand: f64,
    },
    /// A population above [`MAX_POPULATION`](crate::MAX_POPULATION) was requested.
    #[error("population {population} exceeds the limit of {limit} customers")]
    PopulationTooLarge {
        /// The requested population.
        population: usize,
        /// The limit that was hit.
        limit: usize,
    },
    /// [`exact_mva`](crate::exact_mva) would have to store more than
    /// [`MAX_TRAJECTORY_VALUES`](crate::MAX_TRAJECTORY_VALUES) numbers.
    #[error(
        "storing every population 1..={population} for {centers} centers needs {values} numbers, \
         more than the limit of {limit}; use `exact_mva_at` or `MvaRecursion` instead"
    )]
    TrajectoryTooLarge {
        /// The requested population.
        population: usize,
        /// Number of centers in the network.
        centers: usize,
        /// How many numbers the trajectory would hold.
        values: usize,
        /// The limit that was hit.
        limit: usize,
    },
    /// A quantity that is only defined for at least one customer was asked for population 0.
    #[error("population must be at least 1 for {0}")]
    ZeroPopulation(&'static str),
    /// The convergence tolerance of approximate MVA is not finite and positive.
    #[error("tolerance must be finite and positive, got {0}")]
    InvalidTolerance(f64),
    /// Approximate MVA did not reach the tolerance within the iteration budget.
    #[error(
        "approximate MVA did not converge within {iterations} iterations \
         (last relative change {residual:e}, tolerance {tolerance:e})"
    )]
    NotConverged {
        /// Iterations performed (the budget).
        iterations: usize,
        /// Largest relative change of a queue length in the last iteration.
        residual: f64,
        /// The requested tolerance.
        tolerance: f64,
    },
    /// A finite-source queue parameter is negative, NaN or infinite.
    #[error("finite-source queue: {what} must be finite and non-negative, got {value}")]
    InvalidQueueParameter {
        /// Which parameter (`"service time"` or `"think time"`).
        what: &'static str,
        /// The rejected value.
        value: f64,
    },
    /// A finite-source queue was given zero servers.
    #[error("finite-source queue: the number of servers must be at least 1")]
    NoServers,
    /// A finite-source queue has both zero service time and zero think time.
    #[error("finite-source queue: service time and think time are both zero, so the throughput is unbounded")]
    DegenerateQueue,
}

/// Shorthand for results in this crate.
pub type Result<T, E = QueueingError> = std::result::Result<T, E>;
