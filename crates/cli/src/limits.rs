//! Which flag raises which engine limit: the engines' stop reasons ([`sweep::Reached`]) name
//! their inputs by key ([`sweep::Limit::setter`]), spelt here as flags.

use sweep::{Limit, Reached};

/// The flag that sets `limit`, or, for a limit no flag sets (the engine's default holds), a
/// phrase that names whose limit it is.
pub fn flag(limit: Limit) -> String {
    diag::spell_keys(limit.setter(), &crate::error::flag_of)
}

/// `raise --max-events (now 1000)`.
pub fn raise(reached: &Reached) -> String {
    diag::spell_keys(&reached.raise(), &crate::error::flag_of)
}
