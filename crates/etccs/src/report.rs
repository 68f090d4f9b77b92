//! One entry point for both analyses: agents with symbolic times get the
//! parametric analysis, the others the concrete one.

use crate::error::Error;
use crate::explore::{analyse, Analysis, Options};
use crate::parametric::{self, analyse_parametric, ParamAnalysis};
use crate::parse::Model;

/// The result of analysing one agent.
#[derive(Clone, Debug)]
pub enum Report {
    /// Concrete times: EXEC, PEXEC, extremes, outcome.
    Concrete(Box<Analysis>),
    /// Times per region of parameter space.
    Parametric(Box<ParamAnalysis>),
}

impl Report {
    /// The agent name.
    pub fn name(&self) -> &str {
        match self {
            Report::Concrete(a) => &a.name,
            Report::Parametric(a) => &a.name,
        }
    }

    /// Number of states explored.
    pub fn states(&self) -> usize {
        match self {
            Report::Concrete(a) => a.states,
            Report::Parametric(a) => a.states,
        }
    }
}

/// Analyses agent `name`: parametrically (with `popts`) if it has symbolic
/// times, concretely (with `opts`) otherwise.
pub fn analyse_report(
    model: &mut Model,
    name: &str,
    opts: &Options,
    popts: &parametric::Options,
) -> Result<Report, Error> {
    let t = model
        .agent(name)
        .ok_or_else(|| Error::UnknownAgent(name.to_string()))?;
    if model.arena.mentions_symbolic(t) {
        analyse_parametric(model, name, popts).map(|a| Report::Parametric(Box::new(a)))
    } else {
        analyse(model, name, opts).map(|a| Report::Concrete(Box::new(a)))
    }
}
