//! A model ready to analyse: its text parsed and checked ([`crate::front::parse`]) and its
//! root process picked ([`crate::check::root`]), in one call.
//!
//! ```
//! let m = pamela::load::load("m.pam", "resource s; main = use(s, 2);", None)?;
//! assert_eq!((m.root_name(), m.label()), ("main", "m.pam"));
//! let e = pamela::load::load("m.pam", "main = delay(1);", Some("mian")).err().unwrap();
//! assert_eq!(e.kind, pamela::ErrorKind::UnknownRoot);
//! # Ok::<(), Box<pamela::ModelError>>(())
//! ```

use crate::{check, ErrorKind, Model};
use crate::{ModelError, ProcId};

/// A checked model and the process to analyse.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The checked model.
    pub model: Model,
    /// The root process.
    pub root: ProcId,
}

impl Loaded {
    /// The root process's name.
    pub fn root_name(&self) -> &str {
        &self.model.processes[self.root].name
    }

    /// The model's label in messages: the name it was loaded under (its file name as
    /// given).
    pub fn label(&self) -> &str {
        &self.model.source.name
    }
}

/// Parses and checks the model `text`, labelled `name` in diagnostics, and picks the root
/// process `root` (default `main`).
///
/// # Errors
/// A [`ModelError`] pointing into the text (syntax, names, arity, ranges …), or the root's
/// error from [`check::root`].
pub fn load(name: &str, text: &str, root: Option<&str>) -> Result<Loaded, Box<ModelError>> {
    let model = crate::front::parse(name, text)?;
    let root = check::root(&model, root)?;
    Ok(Loaded { model, root })
}

/// Why a command cannot use a model: the model's own error, or a name an input gives that
/// the model lacks, a usage error naming that input by key ([`::diag::Advise`]: `{root}
/// mian: …`, `{define} Q=4: …`).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The model is not valid ([`load`]).
    #[error(transparent)]
    Model(Box<ModelError>),
    /// The root process asked for is not in the model.
    #[error("{given}: {}", error.message)]
    Root {
        /// The name given.
        given: String,
        /// The model's error, its help the processes there are.
        error: Box<ModelError>,
    },
    /// A parameter to bind is not in the model.
    #[error("{given}: {}", error.message)]
    Define {
        /// The binding as given (`Q=4`).
        given: String,
        /// The model's error, its help the parameters there are.
        error: Box<ModelError>,
    },
}

impl ::diag::Advise for LoadError {
    /// The model's own advice, or the help of the name given (a usage error).
    fn advice(&self) -> Option<::diag::Advice> {
        match self {
            LoadError::Model(e) => e.advice(),
            LoadError::Root { error, .. } | LoadError::Define { error, .. } => {
                let help = error.help.as_deref().unwrap_or_default();
                Some(::diag::Advice::usage(::diag::literal(help)))
            }
        }
    }

    /// The message after the input the name was given with (`{define} Q=4: …`).
    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        let (key, given, error) = match self {
            LoadError::Model(e) => return e.to_string(),
            LoadError::Root { given, error } => ("root", given, error),
            LoadError::Define { given, error } => ("define", given, error),
        };
        let input = spell(key).unwrap_or_else(|| key.to_string());
        format!("{input} {given}: {}", error.message)
    }
}

/// [`load`] for a command: the root process `root` and the parameters of `bindings` (each a
/// name and the binding as given, `("N", "N=4")`) checked against the model
/// ([`crate::bind::check_name`]) before any analysis.
///
/// # Errors
/// [`LoadError::Model`] from [`load`]; [`LoadError::Root`] for a root the model does not
/// define, [`LoadError::Define`] for the first binding of a name it does not have.
pub fn load_checked<'a>(
    name: &str,
    text: &str,
    root: Option<&str>,
    bindings: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Loaded, LoadError> {
    let loaded = load(name, text, root).map_err(|error| match root {
        Some(r) if error.kind == ErrorKind::UnknownRoot => LoadError::Root {
            given: r.to_string(),
            error,
        },
        _ => LoadError::Model(error),
    })?;
    for (param, given) in bindings {
        crate::bind::check_name(&loaded.model, param).map_err(|error| LoadError::Define {
            given: given.to_string(),
            error,
        })?;
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::diag::Advise;

    fn flags(k: &str) -> Option<String> {
        Some(format!("--{k}"))
    }

    #[test]
    fn names_the_model_lacks_are_usage_errors_of_their_input() {
        let text = "param N >= 0;\nmain = delay(N);";
        let e = load_checked("m.pam", text, Some("mian"), []).unwrap_err();
        assert!(e.message(&flags).starts_with("--root mian: "), "{e}");
        assert!(e.advice().is_some_and(|a| a.usage));
        let e = load_checked("m.pam", text, None, [("Q", "Q=4")]).unwrap_err();
        assert!(e.message(&flags).starts_with("--define Q=4: "), "{e}");
        let a = e.advice().expect("advice");
        assert!(a.usage && a.fix.contains('N'), "{}", a.fix);
        assert!(load_checked("m.pam", text, None, [("N", "N=4")]).is_ok());
        let e = load_checked("m.pam", "main = ", None, []).unwrap_err();
        assert!(matches!(e, LoadError::Model(_)));
    }
}
