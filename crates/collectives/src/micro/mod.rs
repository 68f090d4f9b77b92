//! MacDonald's micro-analysis of sequential code (thesis chapter 2): a fragment of the
//! Fortran 77 subset of Table 2-2 is mapped to symbolic counts of nine basic operations
//! (Tables 2-3, 2-4), a platform is characterised by the times of those operations (fitted
//! to timed experiments, section 2.2), and a fragment's time is predicted as counts × times
//! (Eq 2.2), judged as Tables 2-7 to 2-9 judge it, beside the Mflop/s baseline (Tables 2-10,
//! 2-11).
//!
//! * [`source`], `lex` and [`mod@parse`]: fixed- or free-form text to a [`Program`]
//!   with located [`SourceError`]s under [`Limits`]; [`ast`] is the tree.
//! * [`names`]: scalars, arrays, loop variables and parameters, checked.
//! * [`count`]: Table 2-4's mapping to [`Counts`] ([`ops`]: the operations, counts, times).
//! * [`fragments`]: the thesis' fragments A–F; [`thesis`]: its printed tables.
//! * [`predict`]: Eq 2.2, prediction differences and their summaries, the Mflop/s baseline.
//! * [`report`]: a fragment's counts at a point and its predicted time, as text and JSON.
//! * [`platform`]: the characterisation done here: generated experiments compiled and timed
//!   by a [`platform::Runner`] (gfortran by [`platform::gfortran::Gfortran`]), the nine times
//!   fitted by non-negative least squares, the fragments predicted against their times.

pub mod ast;
pub mod count;
pub mod dependence;
pub mod error;
pub mod fragments;
mod lex;
pub mod names;
pub mod ops;
pub mod parse;
pub mod platform;
pub mod predict;
pub mod report;
pub mod source;
pub mod thesis;

pub use ast::{Program, Type};
pub use error::{SourceError, SourceErrorKind};
pub use names::Names;
pub use ops::{Counts, Op, OpTimes, OPS};
pub use source::{Form, Limits};

/// The advice for a fragment over [`Limits::max_bytes`] (appended to the message).
pub const TOO_LARGE: &str =
    "; the micro-analysis reads fragments (a few loops), not whole programs";

/// A fragment read and counted: its tree, its names and its counts of the nine operations.
#[derive(Clone, Debug, PartialEq)]
pub struct Fragment {
    /// The name the fragment was read under.
    pub name: String,
    /// The parsed statements.
    pub program: Program,
    /// Its names and parameters.
    pub names: Names,
    /// Table 2-4's counts, in the parameters.
    pub counts: Counts,
}

/// Reads fragment `text` (named `name` in messages) in `form` under `limits`, checks its
/// names and counts its operations.
///
/// # Errors
/// A located [`SourceError`].
pub fn analyse(
    name: &str,
    text: &str,
    form: Form,
    limits: &Limits,
) -> Result<Fragment, SourceError> {
    let program = parse::parse(name, text, form, limits)?;
    let names = names::names((name, text), &program)?;
    let counts = count::counts(&program);
    Ok(Fragment {
        name: name.to_string(),
        program,
        names,
        counts,
    })
}

/// [`analyse`] with the form guessed ([`Form::guess`]) and the default limits.
///
/// # Errors
/// A located [`SourceError`].
pub fn analyse_text(name: &str, text: &str) -> Result<Fragment, SourceError> {
    analyse(name, text, Form::guess(text), &Limits::default())
}

#[cfg(test)]
mod tests_counts;
#[cfg(test)]
mod tests_platform;
#[cfg(test)]
mod tests_source;
#[cfg(test)]
mod tests_thesis;
