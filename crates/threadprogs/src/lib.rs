//! Shared-memory programs with explicit synchronisation, for the semi-empirical method
//! (Xu, Zhang & Sun): each has a thread-graph model in `examples/semi/` and times its
//! segments per thread, so that sample runs give the samples file and larger runs the
//! measurements a prediction is checked against.
//!
//! * [`ge`]: Gaussian elimination, columns split over the workers, two barriers per step
//!   while the main thread pivots;
//! * [`apsp`]: all-pairs shortest paths, Dijkstra per source, sources split statically;
//! * [`queue`]: a critical section per work item.
//!
//! ```
//! let r = threadprogs::ge::run(24, 2, 7).unwrap();
//! assert!(r.seconds > 0.0);
//! assert_eq!(r.segments.len(), threadprogs::ge::SEGMENTS.len());
//! ```

pub mod apsp;
pub mod ge;
pub mod queue;
pub mod rng;
pub mod timer;

pub use timer::{Report, Segments};

/// The most threads a program starts.
pub const MAX_THREADS: usize = 1024;

/// The most memory a program's matrices may take, bytes (16 GiB).
pub const MAX_MATRIX_BYTES: u128 = 16 << 30;

/// Refuses `p` threads over [`MAX_THREADS`], or `matrices` n × n matrices of f64 over
/// [`MAX_MATRIX_BYTES`], before any is allocated.
pub(crate) fn check_size(program: &str, n: usize, p: usize, matrices: u128) -> Result<(), String> {
    if p > MAX_THREADS {
        return Err(format!(
            "{program}: {p} threads, over the limit of {MAX_THREADS}; take fewer"
        ));
    }
    let bytes = (n as u128)
        .saturating_mul(n as u128)
        .saturating_mul(8 * matrices);
    if bytes > MAX_MATRIX_BYTES {
        return Err(format!(
            "{program}: n = {n} needs {:.1} GiB of matrices, over the limit of 16 GiB; take a smaller n",
            bytes as f64 / (1u64 << 30) as f64
        ));
    }
    Ok(())
}

/// Runs program `name` (`ge`, `apsp`, `queue`) at size `n` on `p` threads.
///
/// # Errors
/// An unknown program, or the program's own error.
pub fn run(name: &str, n: usize, p: usize, seed: u64) -> Result<Report, String> {
    match name {
        "ge" => ge::run(n, p, seed),
        "apsp" => apsp::run(n, p, seed),
        "queue" => queue::run(n, p, seed),
        other => Err(format!("unknown program `{other}` (ge, apsp, queue)")),
    }
}
