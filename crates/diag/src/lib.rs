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

mod advice;
mod choice;
mod located;
mod location;
mod snippet;
mod suggest;

pub use advice::{give_each, literal, spell_keys, Advice, Advise, Keyed};
pub use choice::Choice;
pub use located::{ErrorKind, Located};
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

/// The message and location of an error at bytes `range` of `text` (named `name`): the
/// range cut to at most 80 bytes on character boundaries (a long token must not make a
/// long caret), the message prefixed with `name:line:column: `, the caret labelled
/// `label`. The one constructor behind every reader's located error.
///
/// ```
/// let (message, at) = diag::located("m.txt", "a = 1\nb = ?\n", 10..11, "not a value", "here");
/// assert_eq!(message, "m.txt:2:5: not a value");
/// assert_eq!(at.line_col(), (2, 5));
/// ```
pub fn located(
    name: &str,
    text: &str,
    range: std::ops::Range<usize>,
    message: &str,
    label: &str,
) -> (String, Box<Location>) {
    let start = floor_char_boundary(text, range.start.min(text.len()));
    let end = floor_char_boundary(text, range.end.min(start + 80).min(text.len()));
    let range = start..end.max(start);
    let (line, col) = line_col(text, range.start);
    (
        format!("{name}:{line}:{col}: {message}"),
        Box::new(Location::new(name, text, range, label)),
    )
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

/// `A`, `A and B`, `A, B and C`: names as a sentence lists them.
///
/// ```
/// assert_eq!(diag::and_list(&["a", "b", "c"]), "a, b and c");
/// assert_eq!(diag::and_list(&["a"]), "a");
/// assert_eq!(diag::and_list::<&str>(&[]), "");
/// ```
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [a] => a.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}
