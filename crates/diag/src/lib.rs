//! Located errors for every vates reader: where in a text an error is (1-based line and
//! column), a bounded window of that text for `miette` to render, and "did you mean"
//! suggestions for misspelt names.
//!
//! Every engine's error type (PAMELA's `ModelError`, the task graph's `GraphError`, the ETCCS
//! syntax errors) keeps its own kinds and fields and holds a [`Location`] for the part that
//! points into the text. A location copies only a few lines around the error, each cut to a
//! few hundred bytes around the caret, so an error in a 50 MB one-line file renders as
//! quickly and as briefly as one in a small file, at any column.
//!
//! ```
#![doc = include_str!("../tests/example.rs")]
//! ```

mod location;
mod snippet;
mod suggest;

pub use location::{floor_char_boundary, line_col, offset_of};
pub use snippet::{Location, Snippet};
pub use suggest::{did_you_mean, edit_distance, suggest};
