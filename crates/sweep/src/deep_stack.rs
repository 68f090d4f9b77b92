//! A large stack for deep recursion. Readers and analyses that recurse over
//! nested input (ETCCS terms, recorded task trees) must be bounded by their
//! depth limits, not by the caller's stack, which may be a test thread's 2 MB. They run on a pool of threads with large stacks, built on
//! first use and reused: a call costs a hand-over to a waiting thread
//! instead of the creation of a thread (tens of microseconds, as much as
//! the whole analysis of a small model), and a thread keeps its
//! allocator's caches from one analysis to the next.

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::OnceLock;

/// The stack of each pool thread: reserved address space, of which only
/// the pages a recursion touches are backed by memory.
const STACK_BYTES: usize = 512 << 20;

/// The pool (one thread per core, as rayon sizes it), or `None` if its
/// threads could not be started.
fn pool() -> Option<&'static ThreadPool> {
    static POOL: OnceLock<Option<ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        ThreadPoolBuilder::new()
            .stack_size(STACK_BYTES)
            .thread_name(|i| format!("vates-deep-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// Runs `f` on a large stack: on a pool thread (at once on the calling
/// thread if it is one, or if the pool could not be started). A panic in
/// `f` reaches the caller.
pub fn run<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    match pool() {
        Some(p) => p.install(f),
        None => f(),
    }
}

#[cfg(test)]
mod tests {
    use super::run;

    /// Deeper than a 2 MB test-thread stack allows: about 64 MB of frames.
    fn depth(n: u32) -> u32 {
        let pad = std::hint::black_box([n; 512]);
        if n == 0 {
            0
        } else {
            1 + depth(n - 1) + pad[0] - n
        }
    }

    #[test]
    fn recursion_far_deeper_than_the_callers_stack_runs_and_nests() {
        assert_eq!(run(|| depth(30_000)), 30_000);
        // Called from a pool thread, it runs there at once.
        assert_eq!(run(|| run(|| depth(1_000))), 1_000);
    }

    #[test]
    fn a_panic_reaches_the_caller() {
        let r = std::panic::catch_unwind(|| run(|| panic!("inside")));
        let msg = r.expect_err("the panic is passed on");
        assert_eq!(msg.downcast_ref::<&str>(), Some(&"inside"));
    }
}
