//! Rust versions of six kernels of the Barcelona OpenMP Tasks Suite (BOTS) — fft, fib,
//! nqueens, sort, sparselu and strassen — with the cut-offs Namsraijav & Taura use in
//! "Performance Modeling of Task Parallel Programs" (Table 2), written on the task
//! recording API of [`taskrec`].
//!
//! Each kernel is written once, in a macro that takes the `join` and `scope` to use, and
//! instantiated twice: [`traced`] (on [`taskrec::join`] and [`taskrec::scope`], so that
//! [`taskrec::run`] or [`taskrec::record`] can record its DAG) and [`plain`] (on
//! `rayon::join` and `rayon::scope`, the baseline the recording overhead is measured
//! against). The kernel's module (for example [`fib`]) holds what is not parallel: its
//! [`Config`](fib::Config) with the paper's cut-offs as defaults, its input generator
//! (seeded and deterministic; fib and nqueens have no input but `n`), its `verify`, and
//! `counts`, the number of creates and waits the traced kernel performs, computed serially
//! from the recursion's structure.
//!
//! # Task structure
//!
//! The kernels follow BOTS's task structure (the "manual cut-off" versions): every BOTS
//! `task` is a task here and every `taskwait` a wait, with one translation: two tasks
//! followed by a `taskwait` become one [`taskrec::join`], whose first closure runs on in
//! the caller's task (1 create + 1 wait where OpenMP has 2 creates + 1 wait). Larger groups
//! are a [`taskrec::scope`] with one `spawn` per task (k creates + 1 wait; a scope waits
//! once at its end even when nothing was spawned, as a BOTS `taskwait` does). BOTS's
//! outermost `parallel`/`single`/`task` is the root task that [`taskrec::run`] provides.
//!
//! # The kernels in C with OpenMP tasks
//!
//! `crates/bots/openmp` holds the same six kernels in C with OpenMP tasks (one file each,
//! `fib.c` to `fft.c`, built with `clang -O2 -fopenmp` or by its `Makefile`): real OpenMP
//! programs for vates to record and model. They take the binary's arguments (`N
//! [key=value ...]`, the same option names and defaults), generate the same inputs (the
//! same SplitMix64 draws), verify their results and print `KERNEL n=N ok ... seconds=S`;
//! with `count=1` they count their tasks and taskwaits, which equal [`Counts`] from the
//! kernels' `counts` (a `join` is one task, the caller's half and a `taskwait`; a `scope`
//! a task per spawn and one `taskwait`). The test `tests/openmp.rs` builds and checks
//! them; `openmp/README.md` tells how to build and run them and what each checks.
//!
//! # Example
//!
//! ```
//! use bots::{fib, traced};
//!
//! let cfg = fib::Config { cutoff: 4 };
//! let (value, dag) = taskrec::record(|| traced::fib::run(20, &cfg));
//! assert!(fib::verify(20, value).is_ok());
//! let expected = fib::counts(20, &cfg);
//! assert_eq!((dag.creates(), dag.waits()), (expected.creates, expected.waits));
//! // The same kernel on plain rayon.
//! assert_eq!(bots::plain::fib::run(20, &cfg), 6765);
//! ```

pub mod fft;
pub mod fib;
pub mod nqueens;
pub mod sort;
pub mod sparselu;
pub mod strassen;

/// The names of the kernels, in the order the binary lists them.
pub const KERNELS: [&str; 6] = ["fft", "fib", "nqueens", "sort", "sparselu", "strassen"];

/// The tasks a run creates and the waits it performs (what [`taskrec::Dag::creates`] and
/// [`taskrec::Dag::waits`] count on a recording).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Tasks created (a `join` creates one, a `spawn` one).
    pub creates: u64,
    /// Wait operations (one per `join`, one at the end of each `scope`).
    pub waits: u64,
}

impl Counts {
    /// `creates` creates and `waits` waits.
    pub const fn new(creates: u64, waits: u64) -> Counts {
        Counts { creates, waits }
    }

    /// One `join`: one create and one wait.
    pub const JOIN: Counts = Counts::new(1, 1);

    /// A scope with `spawns` spawned tasks: `spawns` creates and one wait.
    pub const fn scope(spawns: u64) -> Counts {
        Counts::new(spawns, 1)
    }
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts::new(self.creates + o.creates, self.waits + o.waits)
    }
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        *self = *self + o;
    }
}

impl std::ops::Mul<u64> for Counts {
    type Output = Counts;
    fn mul(self, k: u64) -> Counts {
        Counts::new(self.creates * k, self.waits * k)
    }
}

impl std::iter::Sum for Counts {
    fn sum<I: Iterator<Item = Counts>>(iter: I) -> Counts {
        iter.fold(Counts::default(), |a, b| a + b)
    }
}

/// The kernels on [`taskrec::join`] and [`taskrec::scope`]: run them under
/// [`taskrec::run`] or [`taskrec::record`] to record their DAGs.
pub mod traced {
    /// FFT on taskrec.
    pub mod fft {
        crate::fft::kernel!(taskrec::join, taskrec::scope);
    }
    /// Fib on taskrec.
    pub mod fib {
        crate::fib::kernel!(taskrec::join, taskrec::scope);
    }
    /// NQueens on taskrec.
    pub mod nqueens {
        crate::nqueens::kernel!(taskrec::join, taskrec::scope);
    }
    /// Sort (cilksort) on taskrec.
    pub mod sort {
        crate::sort::kernel!(taskrec::join, taskrec::scope);
    }
    /// SparseLU on taskrec.
    pub mod sparselu {
        crate::sparselu::kernel!(taskrec::join, taskrec::scope);
    }
    /// Strassen on taskrec.
    pub mod strassen {
        crate::strassen::kernel!(taskrec::join, taskrec::scope);
    }
}

/// The same kernels on plain `rayon::join` and `rayon::scope` (the baseline).
pub mod plain {
    /// FFT on rayon.
    pub mod fft {
        crate::fft::kernel!(rayon::join, rayon::scope);
    }
    /// Fib on rayon.
    pub mod fib {
        crate::fib::kernel!(rayon::join, rayon::scope);
    }
    /// NQueens on rayon.
    pub mod nqueens {
        crate::nqueens::kernel!(rayon::join, rayon::scope);
    }
    /// Sort (cilksort) on rayon.
    pub mod sort {
        crate::sort::kernel!(rayon::join, rayon::scope);
    }
    /// SparseLU on rayon.
    pub mod sparselu {
        crate::sparselu::kernel!(rayon::join, rayon::scope);
    }
    /// Strassen on rayon.
    pub mod strassen {
        crate::strassen::kernel!(rayon::join, rayon::scope);
    }
}
