//! The recording's clock: the time-stamp counter on x86-64 (one instruction, about a third
//! of the cost of `Instant::now` here), nanoseconds of `Instant` elsewhere. Its frequency is
//! measured against `Instant` over the recording.

use std::sync::OnceLock;
use std::time::Instant;

static EPOCH: OnceLock<Instant> = OnceLock::new();

/// The clock's current value.
#[cfg(target_arch = "x86_64")]
#[inline]
#[allow(unsafe_code)]
pub(crate) fn ticks() -> u64 {
    // SAFETY: `rdtsc` exists on every x86-64 processor, reads a counter and touches no
    // memory; it has no preconditions.
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// The clock's current value.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(crate) fn ticks() -> u64 {
    EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// A reading of both clocks, to measure the ticks' frequency between two of them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    ticks: u64,
    at: Instant,
}

impl Mark {
    pub(crate) fn now() -> Mark {
        let _ = EPOCH.get_or_init(Instant::now);
        Mark {
            ticks: ticks(),
            at: Instant::now(),
        }
    }

    /// Ticks per second from `self` to a later mark, waiting until at least 5 ms have
    /// passed so that the two readings' costs do not matter.
    pub(crate) fn frequency(&self) -> f64 {
        if cfg!(not(target_arch = "x86_64")) {
            return 1e9;
        }
        let mut end = Mark::now();
        while end.at.duration_since(self.at).as_secs_f64() < 0.005 {
            std::hint::spin_loop();
            end = Mark::now();
        }
        end.ticks.wrapping_sub(self.ticks) as f64 / end.at.duration_since(self.at).as_secs_f64()
    }
}
