//! The run layer under every vates engine.
//!
//! * **Progress and limits.** What a long run reports while it goes (a [`Meter`]) and why
//!   it stopped early (a [`Reached`] limit). Engines update a meter and return a `Reached`
//!   in their errors; only the command line knows how to draw a progress display and which
//!   flag raises which [`Limit`].
//! * **Parameter sweeps.** A [`Space`] of parameter values with random access to every
//!   point; [`run`] evaluates an engine's point function over it in chunks, in parallel,
//!   under a point limit, and hands the results in order to [`Sink`]s: CSV
//!   ([`CsvSink`]), JSON ([`JsonSink`]), an even sample or the whole table of rows
//!   ([`Sample`], printed with [`Sample::table`]) and grouped line plots ([`Lines`]).
//!   [`map`] does the same for results that are not numbers. An engine supplies only its
//!   point function and its columns.
//! * **Deep recursion.** [`deep_stack::run`] runs a recursive reader or analysis on a
//!   reused thread with a large stack, so its depth limit bounds it, not the caller's stack.
//!
//! ```
#![doc = include_str!("../tests/example.rs")]
//! ```

mod binding;
pub mod deep_stack;
mod limit;
mod lines;
mod meter;
mod run;
mod sinks;
mod space;

pub use binding::{Binding, NotSingle};
pub use limit::{Limit, Reached};
pub use lines::{LineSpec, Lines, LinesConfig};
pub use meter::{Meter, Phase, Tick, Units, EVERY};
pub use run::{map, run, Block, Evaluation, Header, OnError, Outcome, RunError, Sink};
pub use sinks::{push_json_num, CsvSink, JsonLayout, JsonSink, Row, Sample, TextColumn};
pub use space::{describe_values, Axis, Space, SpaceError};
