//! Section 2.2 on this host in one value ([`HostProbe`]): gfortran found and its version
//! read, the thesis' fragments counted, the plan chosen (quick or the thesis'), then the
//! characterisation run and shown with the compiler named.

use std::path::Path;

use super::gfortran::Gfortran;
use super::study::{characterise, thesis_fragments, Plan, Study, StudyError};
use super::RunError;
use crate::micro::{Fragment, SourceError};

/// A characterisation of this host ready to run: what `vates probe --fortran` does.
#[derive(Debug)]
pub struct HostProbe {
    runner: Gfortran,
    /// The compiler's version line.
    pub version: String,
    fragments: Vec<Fragment>,
    quick: bool,
}

/// Why the host could not be characterised.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The compiler cannot be run.
    #[error("the Fortran probe cannot start: {0}")]
    Start(RunError),
    /// The built-in fragments do not read (never for this build's texts).
    #[error("the thesis' fragments: {0}")]
    Fragments(SourceError),
    /// The characterisation stopped.
    #[error("the Fortran probe stopped: {0}")]
    Stopped(StudyError),
}

impl diag::Advise for HostError {
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            HostError::Start(_) => Some(diag::Advice::fix(
                "install gfortran (Debian: apt install gfortran)",
            )),
            HostError::Stopped(_) => Some(diag::Advice::fix(
                "run it again on an otherwise idle host; check that gfortran compiles a program",
            )),
            HostError::Fragments(_) => None,
        }
    }
}

/// A finished characterisation: the compiler, the study and the fragments it predicted.
#[derive(Debug)]
pub struct Characterised {
    /// The compiler's version line.
    pub version: String,
    /// The study (its JSON is the profile a front end writes).
    pub study: Study,
    fragments: Vec<Fragment>,
}

impl HostProbe {
    /// Finds gfortran (building into `cache/micro`) and reads the thesis' fragments; a
    /// `quick` plan takes seconds ([`Plan::quick`]), the thesis' about a minute.
    ///
    /// # Errors
    /// [`HostError::Start`] without a working gfortran, [`HostError::Fragments`].
    pub fn start(cache: &Path, quick: bool) -> Result<HostProbe, HostError> {
        let runner = Gfortran::new(cache.join("micro"));
        let version = runner.version().map_err(HostError::Start)?;
        let fragments = thesis_fragments().map_err(HostError::Fragments)?;
        Ok(HostProbe {
            runner,
            version,
            fragments,
            quick,
        })
    }

    /// What the run will do and how long it takes, for the user before it starts.
    pub fn note(&self) -> String {
        format!(
            "timing Fortran fragments built with {} ({})",
            self.version,
            if self.quick {
                "a few seconds"
            } else {
                "about a minute"
            }
        )
    }

    /// Times the experiments and fragments and fits the operation times.
    ///
    /// # Errors
    /// [`HostError::Stopped`].
    pub fn run(mut self) -> Result<Characterised, HostError> {
        let plan = if self.quick {
            Plan::quick()
        } else {
            Plan::thesis()
        };
        let study =
            characterise(&mut self.runner, &plan, &self.fragments).map_err(HostError::Stopped)?;
        Ok(Characterised {
            version: self.version,
            study,
            fragments: self.fragments,
        })
    }
}

impl Characterised {
    /// The report: the compiler, then the tables of [`crate::micro::report::study_text`].
    pub fn text(&self) -> String {
        format!(
            "compiler: {}\n{}",
            self.version,
            crate::micro::report::study_text(&self.study, &self.fragments)
        )
    }
}
