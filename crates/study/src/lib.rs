//! Studies: a user's program measured by a campaign, here or on a cluster, into one folder
//! the methods read.
//!
//! A campaign file ([`file`](mod@file)) names a command template with `{n}` and `{p}`, its runtime
//! (plain, rayon, openmp, dag-recorder, threads), training and test sizes × worker counts ×
//! repetitions, and what to keep. Its cells ([`plan`]: one size and worker count with its
//! repetitions) are run by the same code wherever they run ([`cell::Runner`]): one after
//! the other here ([`local::run`]), or as one Slurm job array ([`slurm`]). The study
//! folder ([`folder`]) keeps each cell's files and puts them together into the files the
//! methods read: times, `taskpar` training rows, `semi` samples, DAGs and the machine's
//! probe profile.
//!
//! ```
//! let text = r#"
//! name = "fib"
//! command = "./fib {n}"
//! runtime = "openmp"
//! [train]
//! sizes = "20..24:2"
//! workers = [1, 2]
//! repetitions = 3
//! [test]
//! sizes = [30]
//! workers = [2]
//! "#;
//! let campaign = study::file::parse("fib.toml", text).unwrap();
//! let cells = study::plan::cells(&campaign);
//! assert_eq!(cells.len(), 3 * 2 + 1);
//! assert_eq!(cells[1].id(), "train-n20-p2");
//! assert_eq!(campaign.runs(), 3 * 2 * 3 + 1);
//! ```

pub mod cell;
pub mod compare;
pub mod file;
pub mod folder;
pub mod local;
pub mod plan;
pub mod report;
pub mod slurm;
pub mod text_file;

diag::choices! {
    /// Where a campaign's cells run.
    pub enum Backend {
        /// [`local::run`].
        Local = "local": "Here, one cell after the other",
        /// [`slurm::run`].
        Slurm = "slurm": "As Slurm job arrays (sbatch, squeue, sacct, scancel)",
    }
}
