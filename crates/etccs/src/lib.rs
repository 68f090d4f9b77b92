//! Eager Timed CCS (MacDonald 1996, spec `etccs-macdonald.md` §4–§5.4):
//! a timed process algebra for predicting how long message-passing
//! programs run, with the thesis's *concrete* execution-time analysis and
//! its *parametric* one ([`parametric`]: symbolic times, results per region
//! of parameter space, merged into `max`/`min` where exact).
//!
//! A model is written in the thesis tool syntax (`define`, `analyse`,
//! `(a,3).P`, `(a',4).P`, `(tau,3).P`, `nil`, `+`, `|`, `\{a,b}`,
//! `[b/a]`, agent names for recursion) or with the extended prefixes
//! `a@3.P`, `'a@4.P`, `tau@3.P`, `a.P`, plus the `Terminated` placeholder
//! for deadlock checks. Every action fires at the earliest possible time
//! (eagerness, also for visible actions). The analysis explores the
//! transition multiset over hash-consed states with exact rational time
//! and reports EXEC (one time per maximal path), PEXEC (exact
//! probabilities, each transition of a state equally likely), min/max with
//! witness runs, the state count and the outcome (termination, deadlock,
//! or non-termination through a cycle).
//!
//! Semantic choices (spec §8.1):
//! - States are hash-consed terms in a normal form (flattened n-ary `+`/`|`,
//!   `nil` dropped, named constants instead of μ); equal structure = same
//!   state. State counts of T5-1…T5-7 match the spec (2,2,2,3,4,2,4).
//! - Transitions form a multiset (Def 5.2.7); EXEC counts paths, PEXEC gives
//!   each transition of a state equal probability.
//! - `Terminated` acts as `nil` for timing. If an agent mentions it, a state
//!   without transitions in which `Terminated` is not active (not under a
//!   prefix) is reported as a deadlock: with `Terminated := μX.τ₁.X` that
//!   state would not be live.
//! - A cycle in the state graph means non-termination: EXEC is undefined
//!   and the cycle is reported. Unguarded recursion is rejected when parsing.
//! - Visible actions that fire in the explored graph are unrestricted at the
//!   top level; eagerness fires them, so each one gets a warning.
//!
//! ```
//! use etccs::{analyse, parse, thesis_text, Options};
//!
//! let src = "define P7 = ((a,3).nil | (a,3).(b,4).nil | (a',4).nil)\\{a}\nanalyse P7";
//! let mut model = parse("p7.etccs", src)?;
//! let result = analyse(&mut model, "P7", &Options::default())?;
//! assert_eq!(result.states, 4);
//! assert_eq!(
//!     thesis_text(&result),
//!     "Execution times are:\n4\n8\nSummary:\n4 (50.0%)\n8 (50.0%)"
//! );
//! // The visible `b` is unrestricted, so eagerness fires it: a warning says so.
//! assert_eq!(result.warnings.len(), 1);
//! # Ok::<(), etccs::Error>(())
//! ```

pub mod error;
pub mod explore;
mod grow;
mod id_table;
pub mod job;
pub mod linear;
pub mod output;
pub mod parametric;
pub mod parse;
pub mod plot;
pub mod present;
pub mod report;
mod space;
pub mod table;
pub mod term;
pub mod time;
pub mod witness;

pub use error::{Error, Stopped};
pub use explore::{
    analyse, analyse_all, analyse_term, state_space, Analysis, Options, Outcome, Party, Run,
    StateSpace, Step,
};
pub use output::{
    agent_json, json, readable_text, report_json, report_text, report_thesis, reports_json,
    thesis_text,
};
pub use parse::{parse, Model};
pub use report::{analyse_report, Report};
pub use sweep::{Meter, Phase};
pub use term::{Act, Arena, ConstId, Name, SymId, Term, TermId, Time, Transition};
pub use time::Tm;
