//! The statistics every vates crate shares, written once:
//!
//! * [`order`]: medians and quantiles of repeated measurements ([`median`],
//!   [`lower_median`], [`quantile`]), one definition each;
//! * [`rng`]: the one seeded generator family of the workspace ([`rng::Rng`], SplitMix64 from
//!   `rand_xoshiro`, with `rand`'s distributions), the draws the engines make from it
//!   ([`rng::Draw`]) and the counter-based hash [`rng::mix`] for values any thread can
//!   regenerate from an index.
//!
//! It depends on no workspace crate, so every crate may use it: the engines, the host
//! probe and the example programs alike.
//!
//! ```
//! use stats::rng::{seeded, Draw};
//!
//! assert_eq!(stats::median(&[3.0, 1.0, 2.0, 10.0]), Some(2.5));
//! assert_eq!(stats::lower_median(&[3.0, 1.0, 2.0, 10.0]), Some(2.0));
//! assert_eq!(stats::quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.25), Some(2.0));
//!
//! // The same seed gives the same draws on every platform.
//! let (mut a, mut b) = (seeded(7), seeded(7));
//! assert_eq!(a.uniform(), b.uniform());
//! assert!(a.below(10) < 10);
//! ```

pub mod order;
pub mod rng;

pub use order::{lower_median, median, quantile, quantile_sorted};
