//! Performance-model normal form (PMNF): models `c0 + Σ c_k · Π x_l^i · log2(x_l)^j`, the
//! building blocks a search tries, and the search Extra-P 4.2.5's default modelers make
//! over them (the `extrap` modeler): [`extrap_single`] for one parameter, [`extrap`] for
//! any number.

mod blocks;
mod extrap;
mod multi;
mod term;

pub(crate) use blocks::{negate, NEGATIVE_LOG_BLOCKS};
pub use blocks::{BlockOptions, DEFAULT_BLOCKS};
pub(crate) use extrap::check as check_measurements;
pub use extrap::{extrap_single, ExtrapOptions};
pub use multi::extrap;
pub(crate) use multi::{hypotheses, line};
pub use term::{Exponent, Factor, Term};
