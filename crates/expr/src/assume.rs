//! What the simplifier may assume about names: integrality, bounds and definitions.

use crate::node::{Expr, Name};
use std::collections::BTreeMap;

/// Facts about one name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VarInfo {
    /// The name only takes integer values.
    pub integer: bool,
    /// A lower bound (inclusive), possibly symbolic.
    pub lower: Option<Expr>,
    /// An upper bound (inclusive), possibly symbolic.
    pub upper: Option<Expr>,
    /// For a derived parameter (`param B = N / P`), its definition. The simplifier keeps the
    /// name in results but may use the definition to decide signs and comparisons.
    pub definition: Option<Expr>,
}

/// Facts about the names in scope, used by [`crate::simplify`] to decide signs, comparisons
/// and integrality. Names without an entry are arbitrary reals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Assumptions {
    vars: BTreeMap<Name, VarInfo>,
}

impl Assumptions {
    /// No facts.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records (or replaces) the facts about `name`.
    pub fn set(&mut self, name: &str, info: VarInfo) {
        self.vars.insert(Name::from(name), info);
    }

    /// Builder form of [`Assumptions::set`].
    pub fn with(mut self, name: &str, info: VarInfo) -> Self {
        self.set(name, info);
        self
    }

    /// Declares `name` an integer `>= lower`.
    pub fn int_at_least(self, name: &str, lower: i64) -> Self {
        self.with(
            name,
            VarInfo {
                integer: true,
                lower: Some(Expr::int(lower)),
                ..VarInfo::default()
            },
        )
    }

    /// Declares `name` a real `>= lower`.
    pub fn real_at_least(self, name: &str, lower: i64) -> Self {
        self.with(
            name,
            VarInfo {
                lower: Some(Expr::int(lower)),
                ..VarInfo::default()
            },
        )
    }

    /// The facts about `name`, if any.
    pub fn get(&self, name: &str) -> Option<&VarInfo> {
        self.vars.get(name)
    }

    /// Removes the facts about `name`, returning them.
    pub fn remove(&mut self, name: &str) -> Option<VarInfo> {
        self.vars.remove(name)
    }

    /// All names with facts.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &VarInfo)> {
        self.vars.iter()
    }
}
