//! A campaign's cells: one (set, size, worker count) with its repetitions inside, the unit
//! a backend runs (one index of a Slurm job array).

use serde::Serialize;

use crate::file::Campaign;

/// The two sets of a campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SetName {
    /// The training runs, which the methods fit.
    Train,
    /// The held-out runs, which predictions are checked against.
    Test,
}

impl SetName {
    /// Its name in file names (`train`, `test`).
    pub fn name(self) -> &'static str {
        match self {
            SetName::Train => "train",
            SetName::Test => "test",
        }
    }
}

/// One cell of a campaign.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// Its index in [`cells`] (the job array's index).
    pub index: usize,
    /// Its set.
    pub set: SetName,
    /// The size.
    pub n: f64,
    /// The worker count.
    pub p: u32,
    /// Its repetitions.
    pub reps: u32,
}

impl Cell {
    /// Its name, also its folder's under the study's `cells/` (`train-n24-p2`).
    pub fn id(&self) -> String {
        format!("{}-n{}-p{}", self.set.name(), self.n, self.p)
    }

    /// Runs in the cell.
    pub fn runs(&self) -> u64 {
        u64::from(self.reps)
    }
}

/// The cells of `c`: training, then test; in each, by size in the order given, then by
/// worker count ascending (so a size's runs on one worker come first).
pub fn cells(c: &Campaign) -> Vec<Cell> {
    let mut out = Vec::new();
    let sets = [
        (SetName::Train, Some(&c.train)),
        (SetName::Test, c.test.as_ref()),
    ];
    for (name, set) in sets {
        let Some(set) = set else { continue };
        for &n in &set.sizes {
            for &p in &set.workers {
                out.push(Cell {
                    index: out.len(),
                    set: name,
                    n,
                    p,
                    reps: set.repetitions,
                });
            }
        }
    }
    out
}
