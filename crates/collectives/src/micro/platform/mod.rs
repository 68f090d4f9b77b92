//! Section 2.2 done on this machine: the experiments of [`experiments`] and the fragments to
//! predict are compiled and timed by a [`Runner`] ([`gfortran::Gfortran`] shells out to the
//! compiler; tests use a model), the nine operation times are fitted by non-negative least
//! squares ([`mod@calibrate`]), and [`study::characterise`] predicts the fragments against their
//! measured times in the form of Tables 2-7 to 2-9 (2-14 to 2-16 optimised), beside the
//! Mflop/s baseline (Tables 2-10, 2-11).

pub mod calibrate;
pub mod driver;
pub mod experiments;
mod extent;
pub mod gfortran;
pub mod host;
pub mod study;

pub use calibrate::{calibrate, Calibration};
pub use study::{characterise, Level, Measured, Plan, Study, StudyError};

use super::Fragment;

/// A compiler optimisation level: the thesis' minimal and maximal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Opt {
    /// No optimisation (`-O0`): Tables 2-5, 2-7 to 2-9.
    O0,
    /// Optimisation (`-O2`): Tables 2-13 to 2-16.
    O2,
}

impl Opt {
    /// The compiler flag.
    pub fn flag(self) -> &'static str {
        match self {
            Opt::O0 => "-O0",
            Opt::O2 => "-O2",
        }
    }
}

/// A kernel at a value of its parameters (every parameter takes the value `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// The index of the kernel in [`Job::kernels`].
    pub kernel: usize,
    /// The vector length.
    pub n: i64,
}

/// What to time: kernels, the points, the optimisation level and the timing discipline.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The kernels, read and counted.
    pub kernels: &'a [Fragment],
    /// The points to time, in order.
    pub points: &'a [Point],
    /// The optimisation level.
    pub opt: Opt,
    /// Samples per point (the median is taken).
    pub samples: usize,
    /// Each sample repeats the kernel until it lasts at least this long, seconds.
    pub min_sample_seconds: f64,
}

/// The timing of one point.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// The point.
    pub point: Point,
    /// Executions per sample.
    pub reps: u64,
    /// Seconds per execution, one per sample.
    pub seconds: Vec<f64>,
}

/// Compiles and times kernels.
pub trait Runner {
    /// The timings of every point of `job`, in the job's order.
    ///
    /// # Errors
    /// A [`RunError`]: the compiler missing or failing, the program failing or timing out,
    /// its output unreadable.
    fn time(&mut self, job: &Job) -> Result<Vec<Timing>, RunError>;
}

/// Why kernels could not be timed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The compiler is not installed.
    #[error("{program} was not found: install the Debian package `{package}` (apt-get install {package})")]
    Missing {
        /// The program looked for.
        program: String,
        /// The package that provides it.
        package: &'static str,
    },
    /// The compiler rejected the generated program.
    #[error("{program} {flag} failed: {stderr}")]
    Compile {
        /// The compiler.
        program: String,
        /// The optimisation flag.
        flag: &'static str,
        /// The start of its standard error.
        stderr: String,
    },
    /// The timing program failed.
    #[error("the timing program failed ({status}): {stderr}")]
    Run {
        /// Its exit status.
        status: String,
        /// The start of its standard error.
        stderr: String,
    },
    /// The timing program ran longer than the runner allows.
    #[error("the timing program ran longer than {seconds} s and was stopped")]
    Timeout {
        /// The limit.
        seconds: f64,
    },
    /// A file or process operation failed.
    #[error("{0}")]
    Io(String),
    /// The program's output could not be read.
    #[error("the timing program's output: {0}")]
    Output(String),
    /// A kernel cannot be timed by the driver.
    #[error("kernel {kernel}: {message}")]
    Kernel {
        /// The kernel's name.
        kernel: String,
        /// Why.
        message: String,
    },
    /// The job itself is wrong.
    #[error("{0}")]
    Plan(String),
}
