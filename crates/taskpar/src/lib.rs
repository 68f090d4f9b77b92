//! Task-parallel programs (Namsraijav & Taura): recorded DAGs and their statistics, the
//! two-step model of time(n, p), and replay through the task-graph engine.

pub mod analysis;
pub mod campaign;
pub mod dag;
pub mod dr_stat;
pub mod experiment;
pub mod lists;
pub mod model;
pub mod replay;
pub mod report;
pub mod stats;
pub mod timeline;
