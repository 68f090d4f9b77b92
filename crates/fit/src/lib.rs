//! Regression for empirical performance models: what turns measurements into models that
//! extrapolate.
//!
//! * [`least_squares`]: linear least squares by the singular value decomposition of the
//!   column-scaled design (rank-revealing): coefficients (the minimum-norm solution when
//!   columns are collinear, as LAPACK's `gelsd` and `numpy.linalg.lstsq` give), rank,
//!   condition number, residuals, R² and adjusted R², and each collinear column named with
//!   the combination of the others it equals.
//! * [`nnls`]: non-negative least squares (Lawson and Hanson's active-set method).
//! * [`lasso_lars_path`] and [`lasso_lars_cv`]: the Lasso by least-angle regression, its
//!   whole path, optionally positive, and α chosen by K-fold cross-validation, as
//!   scikit-learn's `lars_path` and `LassoLarsCV`.
//! * [`pmnf`]: the performance-model normal form (`c0 + Σ c_k·Π x^i·log2(x)^j`) and the
//!   searches of Extra-P's default modelers over it ([`pmnf::extrap`]), giving a
//!   [`Model`] of [`Measurement`]s with its [`Quality`].
//! * [`vates`]: the default search, made to extrapolate (relative-error fits of up to two
//!   terms, a lack-of-fit test against the repetitions, a fitted exponent between the
//!   blocks, user basis functions).
//! * [`basis`]: a plain regression on basis functions a user writes as expressions.
//! * [`read`]: Extra-P's text format, Extra-P's JSON Lines and CSV, with located errors;
//!   [`run`]: every series of an experiment modelled, with bootstrap intervals and warnings;
//!   [`interval`]: the calibrated 90% intervals of every predicting command (the bootstrap
//!   widened by the held-out errors and the repetitions' spread), and their coverage;
//!   [`report`]: text, JSON, LaTeX, rankings and plots of the models.
//! * [`cv`]: K-fold (contiguous, as scikit-learn's `KFold`, optionally shuffled) and
//!   leave-one-out splits; [`stats`]: the F distribution (the seeded generator is the workspace's, `stats::rng`).
//!
//! Every function checks its input (shapes, finite values, enough rows) and says what is
//! wrong in a [`FitError`] (or a reader's located [`read::ReadError`]); none panics on data.
//!
//! ```
#![doc = include_str!("../tests/example.rs")]
//! ```

pub mod basis;
pub mod cv;
mod error;
pub mod interval;
pub mod job;
mod lars;
mod matrix;
mod model;
mod nnls;
mod ols;
pub mod pmnf;
pub mod read;
pub mod report;
pub mod run;
pub mod stats;
pub mod vates;

pub use error::{FitError, RANGE_HELP};
pub use lars::{
    cv_curve, lasso_lars_cv, lasso_lars_path, CvCurve, LarsOptions, LarsPath, LassoLarsCv,
    LassoLarsCvOptions,
};
pub use matrix::Design;
pub use model::{Basis, Fitted, Measurement, Model, ModelTerm, Quality, UserBasis};
pub use nnls::{nnls, Nnls, NnlsOptions};
pub use ols::{independent_columns, least_squares, Collinear, LeastSquares};
