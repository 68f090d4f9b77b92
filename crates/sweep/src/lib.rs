//! The run layer under every vates engine: what a long run reports while it goes (a
//! [`Meter`]) and why it stopped early (a [`Reached`] limit). Engines update a meter and
//! return a `Reached` in their errors; only the command line knows how to draw a progress
//! display and which flag raises which [`Limit`].
//!
//! ```
#![doc = include_str!("../tests/example.rs")]
//! ```

mod limit;
mod meter;

pub use limit::{Limit, Reached};
pub use meter::{Meter, Phase, EVERY};
