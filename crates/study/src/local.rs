//! Running a campaign's cells here, one after the other, putting the study's files
//! together as they finish.

use std::time::{Duration, Instant};

use crate::cell::{CellError, Runner};
use crate::file::Campaign;
use crate::folder::{Manifest, Study, StudyError};
use crate::plan::{cells, Cell};

/// What a campaign tells its caller as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// The plan: cells and runs to make now, and those finished before.
    Planned {
        /// Cells to run.
        cells: usize,
        /// Runs in them.
        runs: u64,
        /// Cells finished by an earlier campaign.
        done: usize,
    },
    /// A run finished (local cells).
    Run,
    /// A job array was submitted (Slurm).
    Submitted {
        /// Its id.
        job: String,
        /// Its cells.
        cells: usize,
    },
    /// A cell finished.
    Cell(&'a Cell),
}

impl Event<'_> {
    /// What this event tells a progress display over the runs: the plan's runs, the runs
    /// finished ([`Event::runs_finished`] with `per_run`), the note ([`Event::note`]).
    pub fn tick(&self, per_run: bool) -> sweep::Tick {
        sweep::Tick {
            total: match self {
                Event::Planned { runs, .. } => Some(*runs),
                _ => None,
            },
            line: None,
            note: self.note(),
            done: self.runs_finished(per_run),
        }
    }

    /// The runs this event finished, for a display that counts runs: one for each
    /// [`Event::Run`]; a cell's runs for [`Event::Cell`] when they are not told one by one
    /// (`per_run` false: a Slurm campaign's cells run elsewhere).
    pub fn runs_finished(&self, per_run: bool) -> u64 {
        match self {
            Event::Run => 1,
            Event::Cell(cell) if !per_run => cell.runs(),
            _ => 0,
        }
    }

    /// What a user is told of this event besides the count: a job array submitted.
    pub fn note(&self) -> Option<String> {
        match self {
            Event::Submitted { job, cells } => Some(format!(
                "submitted job array {job} ({cells} cell{})",
                if *cells == 1 { "" } else { "s" }
            )),
            _ => None,
        }
    }
}

/// Runs every unfinished cell of `c` in `study` with `runner`, putting the study's files
/// together every [`COMBINE_EVERY`] and at the end; returns the manifest.
///
/// # Errors
/// [`StudyError`]: the first cell that stops (the cells finished before it are put
/// together first, so a resumed campaign starts after them).
pub fn run(
    study: &Study,
    c: &Campaign,
    runner: &Runner<'_>,
    on: &mut dyn FnMut(Event<'_>),
) -> Result<Manifest, StudyError> {
    let all = cells(c);
    let todo: Vec<&Cell> = all.iter().filter(|x| !study.done(x)).collect();
    on(Event::Planned {
        cells: todo.len(),
        runs: todo.iter().map(|x| x.runs()).sum(),
        done: all.len() - todo.len(),
    });
    // Putting the study together reads every finished cell: at most every
    // COMBINE_EVERY while cells finish (a campaign of many short cells would otherwise
    // read its cells a quadratic number of times), and always at the end.
    let mut combined = Instant::now();
    for cell in todo {
        let result = runner.run(cell, &study.cell_dir(cell), &mut || on(Event::Run));
        if let Err(e) = result {
            study.combine(c)?;
            return Err(match e {
                CellError::Cancelled => StudyError::Cancelled {
                    dir: study.dir.clone(),
                },
                e => e.into(),
            });
        }
        on(Event::Cell(cell));
        if combined.elapsed() >= COMBINE_EVERY {
            study.combine(c)?;
            combined = Instant::now();
        }
    }
    study.combine(c)
}

/// How often a running campaign puts its study together.
pub const COMBINE_EVERY: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_counted_once_and_submissions_noted() {
        let text = "name = \"fib\"\ncommand = \"./fib {n}\"\nruntime = \"plain\"\n[train]\n\
                    sizes = [20]\nworkers = [1]\nrepetitions = 3\n";
        let c = crate::file::parse("fib.toml", text).unwrap();
        let cell = &cells(&c)[0];
        assert_eq!(Event::Run.runs_finished(true), 1);
        assert_eq!(Event::Cell(cell).runs_finished(true), 0);
        assert_eq!(Event::Cell(cell).runs_finished(false), 3);
        let e = Event::Submitted {
            job: "42".into(),
            cells: 1,
        };
        assert_eq!(e.note().as_deref(), Some("submitted job array 42 (1 cell)"));
        assert_eq!(Event::Run.note(), None);
    }
}
