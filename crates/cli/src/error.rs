//! The errors a command can end with, and how they are shown.
//!
//! Model errors keep their source spans and are rendered by `miette`'s graphical handler
//! (file, line, column, caret, help). Everything else — unreadable or unwritable files,
//! parameter values that do not fit the model, oversized grids — becomes a [`Diag`]: a
//! message with an optional hint, rendered by the same handler; diagnostics of other readers
//! (task graphs, ETCCS models) are kept as a [`miette::Report`]. Every one of them ends the
//! process with exit status 1, except [`CliError::Usage`]: a usage error found after clap
//! parsed the arguments, shown like clap's own with the subcommand's usage line, exit 2.

use std::path::Path;

use pamela::ModelError;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// An error in the model or in its use (parse, check, binding, evaluation, limits).
    Model(Box<ModelError>),
    /// Any other error with a message and a hint.
    Diag(Diag),
    /// Writing to standard output failed (e.g. a closed pipe).
    Stdout(std::io::Error),
    /// A usage error found after argument parsing; shown like clap's, exit status 2.
    Usage(String),
    /// A diagnostic with source code (a malformed graph or ETCCS file).
    Report(miette::Report),
}

/// A located-nowhere diagnostic: a message and an optional hint.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
pub struct Diag {
    /// One-line description.
    pub message: String,
    /// How to fix it.
    #[help]
    pub help: Option<String>,
}

/// Result alias for command code.
pub type Result<T, E = CliError> = std::result::Result<T, E>;

impl CliError {
    /// An error with a message and no hint.
    pub fn msg(message: impl Into<String>) -> Self {
        CliError::Diag(Diag {
            message: message.into(),
            help: None,
        })
    }

    /// An error with a message and a hint.
    pub fn with_help(message: impl Into<String>, help: impl Into<String>) -> Self {
        CliError::Diag(Diag {
            message: message.into(),
            help: Some(help.into()),
        })
    }

    /// A usage error (exit status 2).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError::Usage(message.into())
    }

    /// A file could not be read.
    pub fn read(path: &Path, err: &std::io::Error) -> Self {
        use std::io::ErrorKind as K;
        let help = match err.kind() {
            K::NotFound | K::PermissionDenied => "check the path and its permissions",
            K::OutOfMemory => {
                "the input is too large for the memory available; give a smaller file"
            }
            _ => "check that the path names a readable file",
        };
        CliError::with_help(
            format!("cannot read `{}`: {}", path.display(), io_reason(err)),
            help,
        )
    }

    /// A file could not be written.
    pub fn write(path: &Path, err: &std::io::Error) -> Self {
        CliError::with_help(
            format!("cannot write `{}`: {}", path.display(), io_reason(err)),
            "check that the directory exists and is writable",
        )
    }

    /// Renders the error to standard error in `miette`'s format.
    pub fn report(self) {
        let report = match self {
            CliError::Model(e) => miette::Report::new(*e),
            CliError::Diag(d) => miette::Report::new(d),
            CliError::Stdout(e) => miette::Report::new(Diag {
                message: format!("cannot write to standard output: {}", io_reason(&e)),
                help: None,
            }),
            CliError::Usage(m) => miette::Report::new(Diag {
                message: m,
                help: None,
            }),
            CliError::Report(r) => r,
        };
        note(&format!("{report:?}"));
    }
}

/// Writes `text` and a newline to standard error. A closed standard error (`2>&1 | head
/// -1`) is not an error worth a panic: the text is dropped.
pub fn note(text: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

impl From<fit::read::ReadError> for CliError {
    fn from(e: fit::read::ReadError) -> Self {
        CliError::Report(miette::Report::new(e))
    }
}

impl From<taskgraph::GraphError> for CliError {
    fn from(e: taskgraph::GraphError) -> Self {
        CliError::Report(miette::Report::new(e))
    }
}

impl From<Box<ModelError>> for CliError {
    /// A limit the run reached gets the flag that raises it in its hint.
    fn from(mut e: Box<ModelError>) -> Self {
        let mut hints = Vec::new();
        if let Some(r) = &e.reached {
            hints.push(crate::limits::raise(r));
        }
        if !e.missing.is_empty() {
            let binds: Vec<String> = e.missing.iter().map(|m| format!("-D {m}=…")).collect();
            hints.push(format!("bind with {}", binds.join(" ")));
        }
        if !hints.is_empty() {
            if let Some(h) = e.help.take() {
                hints.push(h);
            }
            e.help = Some(hints.join("; "));
        }
        CliError::Model(e)
    }
}

/// A short reason for an I/O error, without the OS error number.
fn io_reason(err: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match err.kind() {
        K::NotFound => "no such file or directory".to_string(),
        K::PermissionDenied => "permission denied".to_string(),
        K::InvalidData => "the file is not valid UTF-8 text".to_string(),
        _ => {
            let s = err.to_string();
            // "Is a directory (os error 21)" → "is a directory"
            let s = s.split(" (os error").next().unwrap_or(&s).to_string();
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_lowercase().chain(c).collect(),
                None => s,
            }
        }
    }
}

/// Checks, before any work, that `path` can be created as an output file: its directory
/// exists and it is not itself a directory. The error is the one writing would give.
pub fn check_output(path: &Path) -> Result<()> {
    use std::io::{Error, ErrorKind};
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if dir.is_some_and(|d| !d.is_dir()) {
        return Err(CliError::write(path, &Error::from(ErrorKind::NotFound)));
    }
    if path.is_dir() {
        return Err(CliError::write(path, &Error::other("it is a directory")));
    }
    // Opened for writing without truncating (`/proc/x`, a read-only file, a full disk's
    // quota show here, before a long run); a file made only for the check is removed.
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| CliError::write(path, &e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Writes `bytes` to `path`; the error names the path.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| CliError::write(path, &e))
}

/// `value` as pretty-printed JSON text with a final newline (the `--format json` output of
/// every command).
pub fn json_text(value: &serde_json::Value) -> Result<String> {
    let mut s = serde_json::to_string_pretty(value)
        .map_err(|e| CliError::msg(format!("cannot encode JSON: {e}")))?;
    s.push('\n');
    Ok(s)
}
