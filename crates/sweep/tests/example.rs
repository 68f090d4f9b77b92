#![allow(missing_docs)] // the crate front page's example, run as a test
use std::sync::Arc;

use sweep::{Limit, Meter, Phase, Reached, EVERY};

/// A toy engine: counts up to `max` units of work, updating the meter as it goes, and
/// stops with a typed reason when it would pass its limit.
fn count_to(n: u64, max: u64, meter: &Meter) -> Result<u64, Reached> {
    meter.start();
    for i in 0..n {
        if i == max {
            return Err(Reached::new(Limit::Events, max));
        }
        if (i as usize).is_multiple_of(EVERY) {
            meter.set_count(i);
        }
    }
    meter.set_count(n);
    meter.set_analysing();
    Ok(n)
}

fn main() {
    let meter = Arc::new(Meter::default());
    assert_eq!(count_to(10_000, 1_000_000, &meter), Ok(10_000));
    assert_eq!((meter.count(), meter.phase()), (10_000, Phase::Analysing));

    let stop = count_to(10_000, 5_000, &meter).unwrap_err();
    assert_eq!(stop, Reached::new(Limit::Events, 5_000));
    // Libraries describe the limit; the command line adds the flag that raises it.
    assert_eq!(stop.to_string(), "the limit of 5000 events");
    assert_eq!(meter.phase(), Phase::Running);
}
