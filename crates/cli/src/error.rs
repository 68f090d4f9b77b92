//! The errors a command can end with, and how they are shown.
//!
//! Errors located in a file (a PAMELA model, a task graph, a skeleton) keep their source
//! spans as a [`miette::Report`], rendered by `miette`'s graphical handler (file, line,
//! column, caret, help). Everything else — unreadable or unwritable files, parameter values
//! that do not fit the model, oversized grids — becomes a [`Diag`]: a message with an
//! optional hint, rendered by the same handler. Every one of them ends the
//! process with exit status 1, except [`CliError::Usage`]: a usage error found after clap
//! parsed the arguments, shown like clap's own with the subcommand's usage line, exit 2.

use std::path::Path;

use pamela::ModelError;
pub use termio::error::{json_text, note};
pub use termio::files::{check_output, write_file};
pub use termio::Diag;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// An error with a message and a hint.
    Diag(Diag),
    /// Writing to standard output failed (e.g. a closed pipe).
    Stdout(std::io::Error),
    /// A usage error found after argument parsing; shown like clap's, exit status 2.
    Usage(String),
    /// A diagnostic with source code (a malformed model, graph or ETCCS file).
    Report(miette::Report),
}

/// Result alias for command code.
pub type Result<T, E = CliError> = std::result::Result<T, E>;

impl CliError {
    /// An error with a message and no hint.
    pub fn msg(message: impl Into<String>) -> Self {
        CliError::Diag(Diag::msg(message))
    }

    /// An error with a message and a hint.
    pub fn with_help(message: impl Into<String>, help: impl Into<String>) -> Self {
        CliError::Diag(Diag::with_help(message, help))
    }

    /// A usage error (exit status 2).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError::Usage(message.into())
    }

    /// A file could not be read.
    pub fn read(path: &Path, err: &std::io::Error) -> Self {
        termio::Error::read(path, err).into()
    }

    /// A file could not be written.
    pub fn write(path: &Path, err: &std::io::Error) -> Self {
        termio::Error::write(path, err).into()
    }

    /// Renders the error to standard error in `miette`'s format.
    pub fn report(self) {
        let report = match self {
            CliError::Diag(d) => miette::Report::new(d),
            CliError::Stdout(e) => {
                miette::Report::new(Diag::msg(termio::Error::Stdout(e).to_string()))
            }
            CliError::Usage(m) => miette::Report::new(Diag::msg(m)),
            CliError::Report(r) => r,
        };
        note(&format!("{report:?}"));
    }
}

impl From<termio::Error> for CliError {
    fn from(e: termio::Error) -> Self {
        match e {
            termio::Error::Diag(d) => CliError::Diag(d),
            termio::Error::Stdout(e) => CliError::Stdout(e),
        }
    }
}

/// Located errors of the readers (a span in the file they read) are shown with their source.
macro_rules! located_from {
    ($($t:ty),+) => {$(
        impl From<$t> for CliError {
            fn from(e: $t) -> Self {
                CliError::Report(miette::Report::new(e))
            }
        }
    )+};
}

located_from!(
    fit::read::ReadError,
    taskgraph::GraphError,
    collectives::skeleton::SkeletonError,
    collectives::micro::SourceError
);

impl From<Box<ModelError>> for CliError {
    /// A limit the run reached gets the flag that raises it in its hint, a missing
    /// parameter the `-D` that binds it.
    fn from(mut e: Box<ModelError>) -> Self {
        e.help = diag::Advise::advice(&*e).map(|a| a.spelt(&flag_of));
        CliError::Report(miette::Report::new(*e))
    }
}

/// The flags of every command of the binary as typed, long (`--procs`, `--y`) and short
/// (`-n`), read from its definition.
fn flags() -> &'static std::collections::BTreeSet<String> {
    static FLAGS: std::sync::OnceLock<std::collections::BTreeSet<String>> =
        std::sync::OnceLock::new();
    FLAGS.get_or_init(|| {
        fn walk(c: &clap::Command, out: &mut std::collections::BTreeSet<String>) {
            for a in c.get_arguments() {
                out.extend(a.get_long().map(|l| format!("--{l}")));
                out.extend(a.get_short().map(|c| format!("-{c}")));
            }
            c.get_subcommands().for_each(|s| walk(s, out));
        }
        let mut out = std::collections::BTreeSet::new();
        walk(&<crate::Cli as clap::CommandFactory>::command(), &mut out);
        out
    })
}

/// How the command line spells an input key of a library's advice ([`diag::Advice`]):
/// `{procs}` is `--procs`, `{n}` is `-n`, `{define}` is `-D`; `None` for a key that is no
/// flag of the binary.
pub fn flag_of(key: &str) -> Option<String> {
    match key {
        "define" => Some("-D".into()),
        "coeff" => Some("-C".into()),
        "command" => Some("the program after `--`".into()),
        // A one-letter key is the short flag where there is one (`{n}` is `-n`).
        k => [format!("-{k}"), format!("--{k}")]
            .into_iter()
            .find(|f| flags().contains(f)),
    }
}

/// `text` with the input keys that are flags spelt as flags; other braces (a path's
/// `{1}`) kept as they are.
pub fn spell(text: &str) -> String {
    diag::spell_keys(text, &spelt)
}

/// A key spelt as its flag, or kept in its braces when it is no flag.
fn spelt(key: &str) -> Option<String> {
    flag_of(key).or_else(|| Some(format!("{{{key}}}")))
}

impl CliError {
    /// `e` with the library's advice, its input keys spelt as flags in the message and the
    /// fix: a usage error (exit 2) when the advice says the error is in what was asked for;
    /// `None` when the error has no advice. An empty fix adds no hint.
    pub fn advised(e: &dyn diag::Advise) -> Option<Self> {
        let a = e.advice()?;
        Some(Self::with_advice(e.message(&spelt), a))
    }

    /// `message` with the fix of `a`: after `; ` for a usage error, as the hint otherwise.
    fn with_advice(message: String, a: diag::Advice) -> Self {
        match (a.usage, spell(&a.fix)) {
            (true, fix) if fix.is_empty() => CliError::usage(message),
            (true, fix) => CliError::usage(format!("{message}; {fix}")),
            (false, fix) if fix.is_empty() => CliError::msg(message),
            (false, fix) => CliError::with_help(message, fix),
        }
    }

    /// `e` as the command's error: [`CliError::advised`], or its message alone.
    pub fn keyed(e: &dyn diag::Advise) -> Self {
        Self::advised(e).unwrap_or_else(|| CliError::msg(e.message(&spelt)))
    }

    /// `e` after `prefix` (the flag the command knows it is about: `--op `), with its
    /// advice as [`CliError::advised`] gives it; a usage error when the library gives none
    /// (a name or value the flag gave).
    pub fn flagged(prefix: &str, e: &dyn diag::Advise) -> Self {
        let message = format!("{prefix}{}", e.message(&spelt));
        Self::with_advice(message, e.advice().unwrap_or(diag::Advice::usage("")))
    }

    /// [`CliError::flagged`] after the flag of the error's `input`: its key and what joins
    /// it to the message (`("define", " ")`).
    pub fn on_input(input: Option<(&str, &str)>, e: &dyn diag::Advise) -> Self {
        let flag = input.map(|(key, join)| flag_of(key).unwrap_or_default() + join);
        Self::flagged(&flag.unwrap_or_default(), e)
    }
}

/// Library errors that name inputs by keys become the command's errors by
/// [`CliError::keyed`].
#[macro_export]
macro_rules! keyed_from {
    ($($t:ty),+) => {$(
        impl From<$t> for $crate::error::CliError {
            fn from(e: $t) -> Self {
                $crate::error::CliError::keyed(&e)
            }
        }
    )+};
}

keyed_from!(diag::Keyed);

/// `raise --max-events (now 1000)`: a limit the run reached ([`sweep::Reached::raise`]), its
/// input spelt as a flag.
pub fn raise(reached: &sweep::Reached) -> String {
    spell(&reached.raise())
}

/// Writes `text` to standard output.
pub fn print(out: &mut dyn std::io::Write, text: &str) -> Result<()> {
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
