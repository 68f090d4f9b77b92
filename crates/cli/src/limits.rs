//! Which flag raises which engine limit: the one place where the engines' stop reasons
//! ([`sweep::Reached`]) meet the command line's flags.

use sweep::{Limit, Reached};

/// The flag that sets `limit`.
pub fn flag(limit: Limit) -> &'static str {
    match limit {
        Limit::States => "--max-states",
        Limit::Events | Limit::Steps => "--max-events",
        Limit::TimelineIntervals => "--max-timeline",
        Limit::Points => "-D (fewer values)",
        Limit::GraphOps => "--max-ops",
        Limit::TraversalSteps => "--max-steps",
        _ => "the limit's option",
    }
}

/// `raise --max-events (now 1000)`.
pub fn raise(reached: &Reached) -> String {
    format!("raise {} (now {})", flag(reached.limit), reached.value)
}
