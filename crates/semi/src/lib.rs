//! Semi-empirical prediction (Xu, Zhang & Sun, 1996): a parallel program as a **thread
//! graph** (threads split into segments by events: fork/join, barrier, lock, send/receive,
//! loops), segment times scaled from a few small sample runs, event costs from
//! micro-benchmarks of the host, and **Algorithm G**, a discrete-event traversal of the fully
//! instantiated graph that produces the load imbalance and the contention.
//!
//! * [`graph`]: the instantiated thread graph and its event count Θ (eq. 2.2);
//! * [`sim`]: Algorithm G; [`collapse`]: a cluster collapsed to one representative (eq. 2.5);
//! * [`scaling`]: the ratio scalings of eqs. 2.3 and 2.6;
//! * [`coeffs`]: segment coefficients from sample runs;
//! * [`metrics`]: E, Ē and R_conservative (eqs. 4.8–4.10);
//! * [`lang`]: the thread-graph language; [`instantiate`]: full instantiation, Θ first;
//! * [`samples`]: coefficients from sample runs; [`user_values`]: the grouping parameter and
//!   given coefficients, checked against the model; [`costs`]: event costs from a `probe`
//!   profile; [`predict`]: prediction and validation; [`memory_level`]: the cache-level warning;
//!   [`report`]: text, JSON, timelines; [`shown`]: a job's answer as a front end shows it;
//!   [`advice`]: what to do about an error, naming the inputs by neutral keys.
//!
//! ```
//! use semi::instantiate::{instantiate, Bindings, Limits};
//! use semi::sim::{simulate, FixedCosts, Options};
//!
//! // The cluster of spec §6.4: three threads of unequal work, a critical section each, a
//! // barrier; a lock costs 0.1, the barrier 0.5.
//! let model = semi::lang::parse(
//!     "cluster.tg",
//!     "param w1; param w2; param w3; lock cs; barrier done(3);
//!      thread t1 { compute work = w1; critical cs { compute update = 1; } barrier done; }
//!      thread t2 { compute work = w2; critical cs { compute update = 1; } barrier done; }
//!      thread t3 { compute work = w3; critical cs { compute update = 1; } barrier done; }",
//! )
//! .unwrap();
//! let b = Bindings {
//!     params: vec![("w1".into(), 4.0), ("w2".into(), 6.0), ("w3".into(), 5.0)],
//!     coeffs: Vec::new(),
//! };
//! let graph = instantiate(&model, &b, &Limits::default()).unwrap().graph;
//! let costs = FixedCosts { lock: 0.1, barrier: 0.5, ..FixedCosts::default() };
//! let out = simulate(&graph, &costs, &Options { processors: 3, ..Options::default() }).unwrap();
//! assert!((out.time - 7.8).abs() < 1e-9);
//! // The third thread waited 0.1 for the lock (contention).
//! assert!((out.threads[2].lock_wait - 0.1).abs() < 1e-9);
//! ```
//!
//! The library returns typed results and limits; it prints nothing and opens no file.

pub mod advice;
pub mod coeffs;
pub mod collapse;
pub mod costs;
pub mod fitting;
pub mod graph;
pub mod instantiate;
pub mod job;
pub mod lang;
pub mod memory_level;
pub mod metrics;
pub mod point;
pub mod predict;
pub mod report;
pub mod samples;
pub mod scaling;
pub mod shown;
pub mod sim;
pub mod sweep;
pub mod user_values;
pub mod validate;
pub mod whole_program;
