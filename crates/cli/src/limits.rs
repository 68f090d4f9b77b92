//! Which flag raises which engine limit: the one place where the engines' stop reasons
//! ([`sweep::Reached`]) meet the command line's flags.

use sweep::{Limit, Reached};

/// The flag that sets `limit`, or, for a limit no flag sets (the engine's default holds), a
/// phrase that names whose limit it is.
pub fn flag(limit: Limit) -> &'static str {
    match limit {
        Limit::States => "--max-states",
        Limit::Events | Limit::Steps => "--max-events",
        Limit::TimelineIntervals => "--max-timeline",
        Limit::Points => "-D (fewer values)",
        Limit::GraphOps => "--max-ops",
        Limit::TraversalSteps => "--max-steps",
        // The sizes a reader accepts: task graphs, DAG files, model texts.
        Limit::Tasks | Limit::Edges | Limit::Nodes | Limit::Workers | Limit::InputBytes => {
            "the reader's limit"
        }
        // Nesting, processes of an analysis, the walk of a thread graph's count.
        Limit::Depth | Limit::Processes | Limit::CountIterations => "the engine's limit",
        _ => "the limit's option",
    }
}

/// `raise --max-events (now 1000)`.
pub fn raise(reached: &Reached) -> String {
    format!("raise {} (now {})", flag(reached.limit), reached.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_with_a_flag_name_it_and_the_others_say_whose_they_are() {
        assert_eq!(
            raise(&Reached::new(Limit::Events, 1000)),
            "raise --max-events (now 1000)"
        );
        for limit in [Limit::GraphOps, Limit::TraversalSteps, Limit::States] {
            assert!(flag(limit).starts_with("--"), "{limit:?}");
        }
        for limit in [
            Limit::Tasks,
            Limit::Edges,
            Limit::Nodes,
            Limit::Workers,
            Limit::InputBytes,
            Limit::Depth,
            Limit::Processes,
            Limit::CountIterations,
        ] {
            assert!(flag(limit).starts_with("the "), "{limit:?}");
        }
    }
}
