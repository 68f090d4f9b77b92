//! The study folder: what a campaign wrote and what the methods read.
//!
//! ```text
//! STUDY/
//!   campaign.toml        the campaign as run (a resumed campaign must ask for the same runs)
//!   study.json           what the folder holds ([`Manifest`])
//!   train-times.csv      n,p,seconds: a row per training run (every runtime)
//!   test-times.csv       the same for the test runs
//!   train.csv, test.csv  the training rows of `taskpar` (task-parallel runtimes)
//!   train-samples.csv,   the segment times of the threads runtime, in the samples format
//!   test-samples.csv       of `semi` (size, workers, rep, segment, seconds)
//!   dags/                each run's DAG file, when kept
//!   machine.json         the probe profile of the machine that ran it, when measured
//!   cells/<cell>/        each cell's own files and its `done` marker
//! ```
//!
//! The files at the top are put together from the finished cells by [`Study::combine`],
//! anew each time: they hold each finished cell's rows once, whatever order the cells
//! finished in and however often the campaign was resumed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cell::{self, io, read, write_atomically, CellError};
use crate::file::{self, Campaign, FileError};
use crate::plan::{cells, Cell, SetName};

/// The campaign file a study keeps.
pub const CAMPAIGN: &str = "campaign.toml";
/// The study's manifest.
pub const MANIFEST: &str = "study.json";
/// The machine's probe profile.
pub const MACHINE: &str = "machine.json";
/// The version of [`Manifest`]'s layout.
pub const FORMAT: u32 = 1;

/// Why a study folder cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// A file could not be read or written.
    #[error(transparent)]
    Cell(#[from] CellError),
    /// The study's own campaign file is not valid.
    #[error(transparent)]
    Campaign(#[from] FileError),
    /// The study was made by another campaign.
    #[error("`{}` holds a study of another campaign: its {CAMPAIGN} has {key} = {old}, the campaign given {new}", dir.display())]
    Changed {
        /// The study.
        dir: PathBuf,
        /// The first key that differs.
        key: &'static str,
        /// Its value in the study.
        old: String,
        /// Its value in the campaign given.
        new: String,
    },
    /// A finished cell's file holds what a cell does not write.
    #[error("`{}` line {line}: `{text}` is not {what}; the cell's files were changed after it finished", path.display())]
    BadCell {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// The line's text (its start).
        text: String,
        /// What the line should be.
        what: String,
    },
    /// The folder holds no study.
    #[error("`{}` holds no study (no {CAMPAIGN})", dir.display())]
    NotStudy {
        /// The folder.
        dir: PathBuf,
    },
    /// The campaign was cancelled (the program running was stopped).
    #[error("interrupted; the program running was stopped; the finished cells are in `{}` (run again to resume)", dir.display())]
    Cancelled {
        /// The study.
        dir: PathBuf,
    },
    /// The machine's probe stopped.
    #[error("the machine's probe stopped: {0}")]
    Probe(#[from] probe::ProbeError),
}

impl StudyError {
    /// What to do, in words that name the campaign file's keys and the study's folders but
    /// no option of a front end; `None` for the errors that say it themselves or are
    /// located ([`StudyError::Campaign`]) and for [`StudyError::Changed`] (a front end
    /// names its own way to give another folder).
    pub fn help(&self) -> Option<String> {
        Some(match self {
            StudyError::BadCell { path, .. } => format!(
                "remove the cell's folder `{}` and run the campaign again: the cell runs anew",
                path.parent().unwrap_or(path).display()
            ),
            StudyError::NotStudy { .. } => "give a folder made by `vates campaign run`".into(),
            StudyError::Probe(_) => {
                "run again on an otherwise idle host, or set `profile = \"none\"` under [keep]"
                    .into()
            }
            StudyError::Cell(CellError::Recorded(e)) => return e.program_advice(),
            StudyError::Cell(CellError::TimedOut { .. }) => {
                "give smaller sizes, or a larger `timeout` in the campaign file".into()
            }
            StudyError::Cell(CellError::Start(_)) => {
                "give the program's path in `command` (relative to where vates runs)".into()
            }
            _ => return None,
        })
    }
}

impl diag::Advise for StudyError {
    /// [`StudyError::help`] (the user's text in it kept as typed), and for
    /// [`StudyError::Changed`] another folder given with `{o}`.
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            StudyError::Changed { .. } => Some(diag::Advice::fix(
                "give another study folder with {o}, or remove this one to measure anew",
            )),
            e => e.help().map(|h| diag::Advice::fix(diag::literal(&h))),
        }
    }
}

/// A study folder.
#[derive(Clone, Debug)]
pub struct Study {
    /// The folder.
    pub dir: PathBuf,
}

/// What [`Study::combine`] found and wrote, also written as `study.json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Manifest {
    /// [`FORMAT`].
    pub format: u32,
    /// The application.
    pub name: String,
    /// Its runtime.
    pub runtime: file::RuntimeKind,
    /// The command template.
    pub command: Vec<String>,
    /// The size's and the worker count's column names.
    pub names: file::Names,
    /// Cells in the plan.
    pub cells: usize,
    /// Cells finished.
    pub cells_done: usize,
    /// Runs in the plan.
    pub runs: u64,
    /// Runs finished (in finished cells).
    pub runs_done: u64,
    /// The files written at the top of the folder, by name.
    pub files: Vec<String>,
    /// Whether the machine's probe profile is there.
    pub machine_profile: bool,
}

/// The study folder of a campaign when none is named: `NAME-study` in the current
/// directory.
pub fn default_dir(c: &Campaign) -> PathBuf {
    PathBuf::from(format!("{}-study", c.name))
}

impl Study {
    /// Opens the study `dir` for the campaign `c` read from `text`: creates it and keeps the
    /// campaign file on the first run; refuses a study of another campaign.
    ///
    /// # Errors
    /// [`StudyError::Changed`], or a folder or file that cannot be made.
    pub fn open(dir: &Path, c: &Campaign, text: &str) -> Result<Study, StudyError> {
        let kept = dir.join(CAMPAIGN);
        if kept.exists() {
            let (kept, _) = Study::load(dir)?;
            if let Some((key, old, new)) = kept.difference(c) {
                return Err(StudyError::Changed {
                    dir: dir.to_path_buf(),
                    key,
                    old,
                    new,
                });
            }
        } else {
            std::fs::create_dir_all(dir).map_err(io("create", dir))?;
        }
        // The newest timeout and scheduler options are kept for the cells to read.
        write_atomically(&kept, text)?;
        Ok(Study {
            dir: dir.to_path_buf(),
        })
    }

    /// The study in `dir` and its campaign.
    ///
    /// # Errors
    /// [`StudyError::NotStudy`] without a campaign file, or its errors.
    pub fn load(dir: &Path) -> Result<(Campaign, Study), StudyError> {
        let path = dir.join(CAMPAIGN);
        if !path.is_file() {
            return Err(StudyError::NotStudy {
                dir: dir.to_path_buf(),
            });
        }
        let text = crate::cell::read_limited(&path, file::MAX_FILE_BYTES as u64)?;
        let c = file::parse(&path.display().to_string(), &text)?;
        Ok((
            c,
            Study {
                dir: dir.to_path_buf(),
            },
        ))
    }

    /// The folder of `cell`.
    pub fn cell_dir(&self, cell: &Cell) -> PathBuf {
        self.dir.join("cells").join(cell.id())
    }

    /// Where kept DAG files go.
    pub fn dags_dir(&self) -> PathBuf {
        self.dir.join("dags")
    }

    /// Measures the machine's probe profile for the study, telling `step` of the probe's
    /// steps, unless the campaign asks for none or the study has it; returns where it goes
    /// and its JSON text (the caller writes it).
    ///
    /// # Errors
    /// [`StudyError::Probe`].
    pub fn probe(
        &self,
        c: &Campaign,
        step: &mut dyn FnMut(usize, usize, &str),
    ) -> Result<Option<(PathBuf, String)>, StudyError> {
        let path = self.dir.join(MACHINE);
        if !c.probes() || path.exists() {
            return Ok(None);
        }
        let options = probe::Options::new(c.keep.profile == file::ProfileKind::Quick);
        Ok(Some((path, probe::run(&options, step)?.to_json())))
    }

    /// The runner of `campaign`'s cells in this study on `backend`, their DAG files kept
    /// here if the campaign keeps them.
    pub fn runner<'a>(
        &self,
        campaign: &'a Campaign,
        recorder: Option<taskpar::campaign::Runtime>,
        backend: &'a dyn taskpar::campaign::Backend,
    ) -> cell::Runner<'a> {
        cell::Runner {
            campaign,
            recorder,
            dags: campaign.keep.dags.then(|| self.dags_dir()),
            backend,
        }
    }

    /// Whether `cell` has finished.
    pub fn done(&self, cell: &Cell) -> bool {
        self.cell_dir(cell).join(cell::DONE).exists()
    }

    /// Puts the finished cells' files together at the top of the folder and writes the
    /// manifest. Training rows get T1' as the mean work of their set's runs on one worker
    /// at their size (a cell cannot know it while it runs).
    ///
    /// # Errors
    /// A cell file that cannot be read, a file that cannot be written.
    pub fn combine(&self, c: &Campaign) -> Result<Manifest, StudyError> {
        let all = cells(c);
        let mut files = Vec::new();
        let (mut cells_done, mut runs_done) = (0, 0);
        for set in [SetName::Train, SetName::Test] {
            let mine: Vec<&Cell> = all.iter().filter(|x| x.set == set).collect();
            if mine.is_empty() {
                continue;
            }
            let finished: Vec<&Cell> = mine.iter().copied().filter(|x| self.done(x)).collect();
            cells_done += finished.len();
            runs_done += finished.iter().map(|x| x.runs()).sum::<u64>();
            let mut times = cell::times_table(c).to_string();
            let mut samples = String::new();
            let mut rows: Vec<String> = Vec::new();
            for x in &finished {
                let dir = self.cell_dir(x);
                let path = dir.join(cell::TIMES);
                let text = read(&path)?;
                check_times(&path, &text, x.reps)?;
                times.push_str(body(&text));
                if c.runtime == file::RuntimeKind::Threads {
                    let text = read(&dir.join(cell::SAMPLES))?;
                    if samples.is_empty() {
                        samples.push_str(text.lines().next().unwrap_or_default());
                        samples.push('\n');
                    }
                    samples.push_str(body(&text));
                }
                if c.runtime.traced() {
                    let text = read(&dir.join(cell::ROWS))?;
                    rows.extend(body(&text).lines().map(String::from));
                }
            }
            let name = |what: &str| format!("{}{what}.csv", set.name());
            write_atomically(&self.dir.join(name("-times")), &times)?;
            files.push(name("-times"));
            if c.runtime == file::RuntimeKind::Threads {
                if samples.is_empty() {
                    samples = "n,p,rep,segment,seconds\n"
                        .replace("n,p", &format!("{},{}", c.names.size, c.names.workers));
                }
                write_atomically(&self.dir.join(name("-samples")), &samples)?;
                files.push(name("-samples"));
            }
            if c.runtime.traced() {
                let text = with_serial_work(&rows)?;
                write_atomically(&self.dir.join(name("")), &text)?;
                files.push(name(""));
            }
        }
        let manifest = Manifest {
            format: FORMAT,
            name: c.name.clone(),
            runtime: c.runtime,
            command: c.command.clone(),
            names: c.names.clone(),
            cells: all.len(),
            cells_done,
            runs: c.runs(),
            runs_done,
            files,
            machine_profile: self.dir.join(MACHINE).is_file(),
        };
        let json = serde_json::to_string_pretty(&manifest).unwrap_or_default() + "\n";
        write_atomically(&self.dir.join(MANIFEST), &json)?;
        Ok(manifest)
    }
}

/// Checks a finished cell's times: `reps` rows of three finite numbers, the time not
/// negative.
fn check_times(path: &Path, text: &str, reps: u32) -> Result<(), StudyError> {
    let mut rows = 0;
    for (i, line) in text.lines().enumerate().skip(1) {
        let ok = {
            let f: Vec<Option<f64>> = line.split(',').map(|v| v.trim().parse().ok()).collect();
            f.len() == 3
                && f.iter().all(|v| v.is_some_and(f64::is_finite))
                && f[2].is_some_and(|s| s >= 0.0)
        };
        if !ok {
            return Err(StudyError::BadCell {
                path: path.to_path_buf(),
                line: i + 1,
                text: line.chars().take(80).collect(),
                what: "size, workers, seconds (finite, the time 0 or more)".into(),
            });
        }
        rows += 1;
    }
    if rows != reps {
        return Err(StudyError::BadCell {
            path: path.to_path_buf(),
            line: rows as usize + 1,
            text: format!("{rows} rows"),
            what: format!("the cell's {reps} runs"),
        });
    }
    Ok(())
}

/// The lines of a CSV text after its header.
fn body(text: &str) -> &str {
    text.split_once('\n').map_or("", |(_, rest)| rest)
}

/// The training file of `rows` (lines of `taskpar`'s format, no header) with each row's
/// T1' (`work_serial`) the mean work of the rows on one worker at its size, where there
/// are any.
fn with_serial_work(rows: &[String]) -> Result<String, CellError> {
    let header = taskpar::experiment::csv_header();
    let names: Vec<&str> = header.trim_end().split(',').collect();
    let col = |name: &str| names.iter().position(|c| *c == name);
    let (Some(n), Some(p), Some(work), Some(serial)) =
        (col("n"), col("p"), col("work"), col("work_serial"))
    else {
        return Ok(header + &rows.join("\n"));
    };
    let mut sums: HashMap<u64, (f64, u32)> = HashMap::new();
    let fields: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.split(',').map(String::from).collect())
        .collect();
    let num = |f: &[String], i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok());
    for f in &fields {
        if let (Some(nv), Some(1.0), Some(w)) = (num(f, n), num(f, p), num(f, work)) {
            let e = sums.entry(nv.to_bits()).or_insert((0.0, 0));
            e.0 += w;
            e.1 += 1;
        }
    }
    let mut out = header;
    for mut f in fields {
        if let Some(&(sum, count)) = num(&f, n).and_then(|nv| sums.get(&nv.to_bits())) {
            if let Some(slot) = f.get_mut(serial) {
                let mut t = trace::csv::Table::new(Vec::<String>::new());
                t.push_row([sum / f64::from(count)]);
                *slot = body(&t.to_string()).trim_end().to_string();
            }
        }
        out.push_str(&f.join(","));
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_names_the_campaign_files_keys_and_folders() {
        let e = StudyError::BadCell {
            path: PathBuf::from("s/cells/c1/times.csv"),
            line: 2,
            text: "x".into(),
            what: "a row".into(),
        };
        assert_eq!(
            e.help().as_deref(),
            Some("remove the cell's folder `s/cells/c1` and run the campaign again: the cell runs anew")
        );
        let e = StudyError::Cancelled {
            dir: PathBuf::from("s"),
        };
        assert_eq!(e.help(), None);
        assert!(e
            .to_string()
            .ends_with("the finished cells are in `s` (run again to resume)"));
        let e = StudyError::Cell(CellError::Cancelled);
        assert_eq!(e.help(), None);
        let e = StudyError::BadCell {
            path: PathBuf::from("s/{n}/times.csv"),
            line: 2,
            text: "x".into(),
            what: "a row".into(),
        };
        let fix = diag::Advise::advice(&e)
            .unwrap()
            .spelt(&|_| Some("-n".into()));
        assert!(fix.contains("`s/{n}`"), "{fix}");
    }
}
