//! Queueing-model solvers for the system-level models of vates.
//!
//! Adve & Vernon's deterministic task graph analysis splits a prediction into a high-level
//! model (the task graph, solved deterministically) and a system-level model of contention for
//! shared resources (bus, memory, locks), solved as a queueing model whose customers are the
//! tasks executing at that moment. This crate provides those solvers on their own:
//!
//! - [`Network`] of [`Center`]s: a closed, single-chain network of queueing (FCFS) and delay
//!   (infinite-server) centers with a think time.
//! - [`exact_mva`] / [`exact_mva_at`]: the exact mean value analysis recursion over
//!   populations `n = 1..=N`, O(N·K), giving throughput, response time, and per-center
//!   residence times, queue lengths and utilisations. [`MvaRecursion`] runs the same
//!   recursion one step at a time and allows population-dependent demands (for a
//!   flow-equivalent center).
//! - [`approximate_mva`]: Bard–Schweitzer approximate MVA for large populations, O(K) per
//!   iteration independent of N. Its fixed point is found by Newton's method on the throughput
//!   (a handful of iterations even where the textbook iteration needs 10^5), with a tolerance,
//!   an iteration budget and an error when it does not converge.
//! - [`FiniteSource`]: the M/M/c//K finite-source queue: a numerically stable stationary
//!   distribution, throughput, mean queue, response time, utilisation, the arrival-theorem
//!   blocking quantities `p_block(n)` and `R_block(n)`, and [`lock_overhead`] for an
//!   M/M/1//K lock.
//!
//! Formulas are those of `spec/dtga-adve-vernon.md` §4.3 (M/M/1//K lock) and §4.6 (MVA,
//! M/M/c//n); its test vectors TG-8, TG-9 and TG-10 are tests of this crate, as are the MVA
//! bound numbers of `spec/pamela-van-gemund.md` §3.7. All quantities are means in steady
//! state; service is exponential (the residual-life correction for deterministic service that
//! the spec suggests is not implemented). Populations are limited to [`MAX_POPULATION`] and
//! stored trajectories to [`MAX_TRAJECTORY_VALUES`], with a typed error when a limit is hit.
//!
//! # Example
//!
//! ```
//! use queueing::{approximate_mva, exact_mva, lock_overhead, Center, FiniteSource, Network};
//!
//! // A bus (queueing, 3 time units per cycle) and a processor (delay, 17 units).
//! let net = Network::new(
//!     vec![Center::queueing("bus", 3.0), Center::delay("cpu", 17.0)],
//!     0.0,
//! );
//! let points = exact_mva(&net, 5)?;
//! let p5 = &points[4];
//! assert!((p5.response_time - (17.0 + 5.607097)).abs() < 1e-6);
//! // Little's law: X · (R + Z) = N.
//! assert!((p5.throughput * p5.response_time - 5.0).abs() < 1e-12);
//!
//! // The same network with a million customers: approximate MVA, bus saturated.
//! let big = approximate_mva(&net, 1_000_000, 1e-12, 1_000)?;
//! assert!((big.point.throughput - 1.0 / 3.0).abs() < 1e-9);
//!
//! // At most 3 outstanding reads: an arriving read among 4 is blocked with probability 1/27.
//! let reads = FiniteSource::new(3, 1.0, 2.0);
//! assert!((reads.p_block(4)? - 1.0 / 27.0).abs() < 1e-12);
//!
//! // A task-queue lock held for 1, requested every 4 by each of 2 processes: wait 0.2.
//! assert!((lock_overhead(1.0, 4.0, 2)? - 0.2).abs() < 1e-12);
//! # Ok::<(), queueing::QueueingError>(())
//! ```

mod error;
mod finite_source;
mod mva;
mod network;

pub use error::{QueueingError, Result};
pub use finite_source::{lock_overhead, Blocking, FiniteSource};
pub use mva::{
    approximate_mva, exact_mva, exact_mva_at, ApproxMva, MvaPoint, MvaRecursion, MAX_POPULATION,
    MAX_TRAJECTORY_VALUES,
};
pub use network::{Center, CenterKind, Network};
