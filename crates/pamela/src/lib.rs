//! PAMELA (van Gemund): a process language of `seq`/`par`/`use`/`delay`/`if` over resources,
//! its symbolic lower bound T^l and its exact discrete-event simulation T.
//!
//! A model goes through [`parse`] (text to a checked [`Model`], errors as located
//! [`ModelError`]s), [`check::root`] (the process to analyse; [`load()`] does both),
//! [`Model::bind`] (parameter
//! values, checked against their declarations), and then [`bound::bound`] (T^l, the critical
//! path φ and the contention bound ω as symbolic expressions, spec eqs. 1–5) or
//! [`sim::simulate`] (the completion time T and per-resource utilisation, with a trace on
//! request). T^l ≤ T for every model and binding.
//!
//! ```
//! use expr::{Name, Rational};
//!
//! // The machine-repair model of the paper: P clients, each N times thinking for tau_l
//! // and then queueing for one server s for tau_s.
//! let model = pamela::parse(
//!     "mrm.pam",
//!     "param N: int >= 1; param P: int >= 1; param tau_l >= 0; param tau_s >= 0;
//!      resource s;
//!      main = par p in 1..=P { seq i in 1..=N { delay(tau_l); use(s, tau_s) } };",
//! )?;
//! let root = pamela::check::root(&model, None)?;
//! let report = pamela::bound::bound(&model, root)?;
//! assert_eq!(report.tl.to_string(), "N*max(tau_l + tau_s, P*tau_s)");
//!
//! let int = |v: i64| Rational::from_integer(v.into());
//! let given = [("N", 10), ("P", 8), ("tau_l", 3), ("tau_s", 1)]
//!     .map(|(k, v)| (Name::from(k), int(v)));
//! let binding = model.bind(&given)?;
//! let tl = report.evaluate(&binding)?.tl;
//! let t = pamela::sim::simulate(&model, root, &binding, &Default::default())?.time;
//! assert_eq!((tl, t), (80.0, 83.0)); // past saturation the server binds: T^l = N·P·tau_s
//! # Ok::<(), Box<pamela::ModelError>>(())
//! ```

pub mod bind;
pub mod bound;
pub mod check;
pub mod diag;
pub mod evaluate;
pub mod front;
pub mod load;
pub mod model;
pub mod report;
pub mod sim;
pub mod sweep_plan;
pub mod syntax;

pub use diag::{ErrorKind, ModelError};
pub use front::parse;
pub use load::{load, load_checked, LoadError, Loaded};
pub use model::{
    Binding, Compose, Loop, Model, Param, ProcId, Process, ResId, Resource, SourceFile, Term,
    TermKind,
};
