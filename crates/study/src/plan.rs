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

/// What the task at an index of a campaign does (`vates campaign cell`, a job array's
/// task): run a cell, or measure the machine (the index after the last cell, when the
/// campaign keeps a profile).
#[derive(Clone, Debug, PartialEq)]
pub enum Task<'a> {
    /// Run this cell.
    Cell(&'a Cell),
    /// Measure the machine's profile.
    Probe,
}

/// An index past a campaign's tasks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the campaign has {cells} cells (0 to {}{})", .cells.saturating_sub(1), if *.probe { format!("; {} measures the machine", .cells) } else { String::new() })]
pub struct NoTask {
    /// The campaign's cells.
    pub cells: usize,
    /// Whether the index after them measures the machine.
    pub probe: bool,
}

/// The task at `index` among `cells` of a campaign that measures the machine if `probe`.
///
/// # Errors
/// [`NoTask`] past the last.
pub fn task(cells: &[Cell], probe: bool, index: usize) -> Result<Task<'_>, NoTask> {
    match cells.get(index) {
        Some(cell) => Ok(Task::Cell(cell)),
        None if probe && index == cells.len() => Ok(Task::Probe),
        None => Err(NoTask {
            cells: cells.len(),
            probe,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_after_the_cells_measures_the_machine() {
        let text = "name = \"fib\"\ncommand = \"./fib {n}\"\nruntime = \"plain\"\n[train]\n\
                    sizes = [20]\nworkers = [1, 2]\n";
        let c = crate::file::parse("fib.toml", text).unwrap();
        let all = cells(&c);
        assert_eq!(task(&all, true, 1), Ok(Task::Cell(&all[1])));
        assert_eq!(task(&all, true, 2), Ok(Task::Probe));
        let e = task(&all, false, 2).unwrap_err();
        assert_eq!(e.to_string(), "the campaign has 2 cells (0 to 1)");
        let e = task(&all, true, 3).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the campaign has 2 cells (0 to 1; 2 measures the machine)"
        );
    }
}
