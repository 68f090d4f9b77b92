//! PAMELA (van Gemund): a process language of `seq`/`par`/`use`/`delay`/`if` over resources.
//!
//! placeholder: filled in as the modules land.

pub mod bind;
pub mod bound;
pub mod check;
pub mod diag;
pub mod model;
pub mod sim;
pub mod syntax;

pub use diag::{ErrorKind, ModelError};
pub use model::{
    Binding, Compose, Model, Param, ProcId, Process, ResId, Resource, SourceFile, Term, TermKind,
};
