//! PAMELA (van Gemund): a process language of `seq`/`par`/`use`/`delay`/`if` over resources.
//!
//! placeholder: filled in as the modules land.

pub mod model;

pub use model::{Compose, Model, Param, ProcId, Process, ResId, Resource, SourceFile, Term, TermKind};
