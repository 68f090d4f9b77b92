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

use crate::{check, Model};
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
