//! Finding and reading DAG files: [`sniff`] tells a DAG file among other formats by its
//! first bytes, [`load`] reads one from disk within [`Limits::max_bytes`], checking the
//! magic before reading the rest (so another kind of file, or `/dev/zero`, costs nothing).

use std::io::Read;
use std::path::{Path, PathBuf};

use super::{dr, is_dag_file, read, DagError, Limits, Recording};

/// Why a DAG file could not be loaded.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum LoadError {
    /// The file could not be opened or read.
    #[error("cannot read `{}`: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        error: std::io::Error,
    },
    /// The file is larger than [`Limits::max_bytes`].
    #[error(
        "`{}` is larger than {} bytes, the limit for a DAG file",
        path.display(),
        reached.value
    )]
    #[diagnostic(help(
        "check that this is the right file; record with collapsing on (leave \
         VATES_TASKREC_COLLAPSE unset)"
    ))]
    TooBig {
        /// The file.
        path: PathBuf,
        /// The limit reached: [`sweep::Limit::InputBytes`] at [`Limits::max_bytes`].
        reached: sweep::Reached,
    },
    /// The bytes are not a readable DAG file.
    #[error("`{}`: {error}", path.display())]
    #[diagnostic(forward(error))]
    Dag {
        /// The file.
        path: PathBuf,
        /// Why.
        error: DagError,
    },
}

impl diag::Advise for LoadError {
    /// A DAG's advice ([`DagError`]'s); the others have none (an unreadable file says it
    /// all, one too large has its diagnostic's help).
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            LoadError::Dag { error, .. } => diag::Advise::advice(error),
            _ => None,
        }
    }
}

/// True if `bytes` begin as a recording vates reads does: a vates DAG file or a DAG
/// Recorder file.
pub fn is_recording(bytes: &[u8]) -> bool {
    is_dag_file(bytes) || dr::is_dr_file(bytes)
}

/// The recording in `bytes` if they are a DAG file (they begin with its magic), `None` if
/// they are of another format. A DAG file that cannot be read is `Some(Err(..))`.
pub fn sniff(bytes: &[u8], limits: &Limits) -> Option<Result<Recording, DagError>> {
    sniff_with(bytes, limits, None)
}

/// [`sniff`], also for a DAG Recorder file, whose clock ran `clock_hz` times a second (the
/// file does not say; `None`: such a file is [`DagError::DrClock`]).
pub fn sniff_with(
    bytes: &[u8],
    limits: &Limits,
    clock_hz: Option<f64>,
) -> Option<Result<Recording, DagError>> {
    if dr::is_dr_file(bytes) {
        return Some(match clock_hz {
            Some(hz) => dr::read(bytes, limits, hz).map(Recording::from),
            None => Err(DagError::DrClock),
        });
    }
    is_dag_file(bytes).then(|| read(bytes, limits))
}

/// Reads the DAG file `path`: its magic first, then the whole file within
/// [`Limits::max_bytes`], then [`read`].
///
/// # Errors
/// [`LoadError`]: a file that cannot be read, is too large, or is not a readable DAG file.
pub fn load(path: &Path, limits: &Limits) -> Result<Recording, LoadError> {
    load_with(path, limits, None)
}

/// [`load`], also of a DAG Recorder file whose clock ran `clock_hz` times a second
/// ([`sniff_with`]).
///
/// # Errors
/// [`LoadError`], as [`load`].
pub fn load_with(
    path: &Path,
    limits: &Limits,
    clock_hz: Option<f64>,
) -> Result<Recording, LoadError> {
    let io = |error: std::io::Error| LoadError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(io(std::io::Error::other("it is a directory")));
    }
    let cap = limits.max_bytes.saturating_add(1);
    let mut input = file.take(cap);
    let mut bytes = Vec::new();
    // A regular file's size is known: one buffer of that size (a growing one would copy).
    if meta.is_file() {
        bytes
            .try_reserve_exact(usize::try_from(meta.len().min(cap)).unwrap_or(0))
            .map_err(|_| io(std::io::ErrorKind::OutOfMemory.into()))?;
    }
    // The magic first: a file of another kind is refused before the rest is read.
    (&mut input)
        .take(taskrec::MAGIC.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if !is_dag_file(&bytes) && !dr::begins_dr_file(&bytes) {
        return Err(LoadError::Dag {
            path: path.to_path_buf(),
            error: DagError::NotDag,
        });
    }
    input.read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limits.max_bytes {
        return Err(LoadError::TooBig {
            path: path.to_path_buf(),
            reached: sweep::Reached::new(sweep::Limit::InputBytes, limits.max_bytes),
        });
    }
    sniff_with(&bytes, limits, clock_hz)
        .unwrap_or(Err(DagError::NotDag))
        .map_err(|error| LoadError::Dag {
            path: path.to_path_buf(),
            error,
        })
}
