//! MacDonald's models of collective communication (thesis chapter 3): measurement tables of
//! MPI collectives in, per operation a symbolic model in the process count `p` and the
//! message size `d` out, judged as the thesis judges it.
//!
//! * [`table`]: the measurement table (`op,p,d,time`, repetitions, time-shared rows kept
//!   apart) and its CSV reader with located errors; [`osu`] and [`imb`] read the outputs
//!   of the OSU micro-benchmarks and the Intel MPI Benchmarks into it.
//! * [`form`]: the thesis' forms (constant, `log2 p`, `p`, and with size `d`, `p·d`,
//!   `d·log2 p`), each as a `fit` model.
//! * [`model`]: every applicable form fitted by least squares, of relative residuals (the
//!   default) or of absolute ones (as the thesis fitted; `check.py` in `bench/macdonald`
//!   shows no other criterion reproduces its equations), ranked by the average prediction
//!   difference under leave-one-out cross-validation or on the fitted cells.
//! * [`difference`]: the average prediction difference and its population standard
//!   deviation.
//! * [`micro`]: chapter 2's micro-analysis: the Fortran 77 subset of Table 2-2 counted in
//!   the nine basic operations, platforms characterised by timing fragments (gfortran here),
//!   predictions judged as Tables 2-7 to 2-9 judge them.
//! * [`points`]: the points a model or skeleton is predicted at, from `-D`-style bindings,
//!   each checked.
//! * [`report`]: text, LaTeX and plots of measurements against the model; JSON is the
//!   serialisation of [`report::Report`].
//! * [`skeleton`]: SPMD programs as sequences of collectives, computation phases and loops
//!   (section 3.5), their time predicted numerically ([`interp::Interpolated`]: the
//!   measurements interpolated, as eq. 3.21) or symbolically ([`interp::Modelled`], and
//!   [`skeleton::formula`]: one simplified formula in `p` and the parameters), and
//!   [`lower`]ed to an Eager Timed CCS model whose analysis adds the contention of a bus.
//!
//! ```
#![doc = include_str!("../tests/example.rs")]
//! ```

pub mod difference;
pub mod form;
pub mod imb;
pub mod interp;
pub mod lower;
pub mod micro;
pub mod model;
pub mod osu;
pub mod points;
pub mod report;
pub mod skeleton;
pub mod source;
pub mod table;

pub use difference::Difference;
pub use form::UnknownForm;
pub use model::Unfitted;
pub use source::TableError;
pub use table::UnknownOp;

/// `; did you mean `x`?` for a misspelt `name`, or nothing.
pub(crate) fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    diag::did_you_mean(&diag::suggest(name, known))
        .map(|s| format!("; {s}"))
        .unwrap_or_default()
}
pub use form::{Form, Term, FORMS};
pub use model::{fit_all, fit_table, Candidate, Criterion, Fitting, OpModel, Options};
pub use source::{read, Source};
pub use table::{read_csv, Row, Statistic, Table};
