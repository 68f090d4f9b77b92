//! A team of threads for the multi-threaded set-ups: the calling thread leads, helpers run
//! until the leader releases them.

use std::sync::mpsc;

use crate::ProbeError;

/// Runs `leader` on this thread while `k − 1` scoped helpers run `helper(i)` (`i` = 1 … k−1),
/// and returns the leader's result once every helper has finished. The helpers start only
/// after all of them exist: if the system refuses one, those already started exit without
/// running `helper`, and the error names `what`. The leader must release the helpers (end
/// whatever loop `helper` runs) before it returns.
pub(crate) fn team<R>(
    what: &str,
    k: usize,
    helper: impl Fn(usize) + Sync,
    leader: impl FnOnce() -> R,
) -> Result<R, ProbeError> {
    std::thread::scope(|s| {
        let mut starts = Vec::with_capacity(k.saturating_sub(1));
        for i in 1..k {
            let (go, wait) = mpsc::channel::<()>();
            let helper = &helper;
            let spawned = std::thread::Builder::new()
                .name(format!("probe-{what}-{i}"))
                .spawn_scoped(s, move || {
                    if wait.recv().is_ok() {
                        helper(i);
                    }
                });
            if let Err(e) = spawned {
                // Dropping `starts` releases the helpers already waiting.
                return Err(ProbeError::Threads {
                    what: what.to_string(),
                    threads: k,
                    reason: e.to_string(),
                });
            }
            starts.push(go);
        }
        for go in &starts {
            // A helper that is gone cannot take part; the leader's protocol then stalls, so
            // this does not happen: helpers only wait for this message.
            let _ = go.send(());
        }
        Ok(leader())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_helper_runs_once_with_its_index() {
        let sum = AtomicUsize::new(0);
        let r = team(
            "test",
            4,
            |i| {
                sum.fetch_add(i, Ordering::Relaxed);
            },
            || 7,
        );
        assert_eq!(r, Ok(7));
        assert_eq!(sum.load(Ordering::Relaxed), 1 + 2 + 3);
    }
}
