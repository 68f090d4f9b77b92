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

/// A word of the input as a message quotes it: at most 40 characters, the rest elided (a
/// 10 MB token must not make a 10 MB message).
pub fn short(w: &str) -> String {
    const MAX: usize = 40;
    match w.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &w[..cut]),
        None => w.to_string(),
    }
}

/// Implements `miette::Diagnostic` for an error struct with a `help: Option<String>` and a
/// `location: Option<Box<Location>>` field: the hint, and the caret in a window of the text.
/// The one way every engine's located error renders.
#[macro_export]
macro_rules! located_diagnostic {
    ($ty:ty) => {
        impl miette::Diagnostic for $ty {
            fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
                self.help
                    .as_ref()
                    .map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
            }

            fn source_code(&self) -> Option<&dyn miette::SourceCode> {
                $crate::Location::source_of(self.location.as_deref())
            }

            fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
                $crate::Location::labels_of(self.location.as_deref())
            }
        }
    };
}
