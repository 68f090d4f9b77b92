//! What to do about the method's errors ([`diag::Advise`]), naming the inputs by neutral
//! keys that a front end spells its way: `{by}` (the grouping parameter), `{define}` (a
//! parameter's value), `{coeff}` (a given coefficient), `{samples}`, `{machine}`,
//! `{processors}`, `{draws}`, `{max-steps}`, `{max-ops}`, and for a scaled run `{count}`,
//! `{from}`, `{to}`, `{seconds}`. A usage error's message begins with the input it is in
//! ([`Advise::message`]: `--by p: the model has no parameter `p``).

use diag::{Advice, Advise};
use sweep::Limit;

use crate::job::{JobError, Over};
use crate::lang::ModelError;
use crate::predict::PredictError;
use crate::samples::SamplesError;
use crate::scaling::RatioError;
use crate::sim::SimError;

/// `key` spelt by `spell` (the bare key when it does not know it).
pub(crate) fn key(spell: &dyn Fn(&str) -> Option<String>, key: &str) -> String {
    spell(key).unwrap_or_else(|| key.to_string())
}

/// The limits a point is over, spelt: `--max-steps 500 and --max-ops 10`
/// ([`sweep::Limit::setter`]).
pub fn over_text(over: &[Over], spell: &dyn Fn(&str) -> Option<String>) -> String {
    let each: Vec<String> = over
        .iter()
        .map(|o| {
            let setter = diag::spell_keys(o.limit.setter(), spell);
            format!("{setter} {}", o.value)
        })
        .collect();
    diag::and_list(&each)
}

impl Advise for ModelError {
    /// The help with the inputs that fix the error: the limits an instantiation reached,
    /// the samples or values of missing coefficients, the values of missing parameters
    /// (before any other help).
    fn advice(&self) -> Option<Advice> {
        let mut help = self.help.clone();
        if self
            .reached
            .is_some_and(|r| matches!(r.limit, Limit::TraversalSteps | Limit::GraphOps))
        {
            help = Some("predict at smaller parameters, or raise {max-steps} and {max-ops}".into());
        }
        if !self.missing_coeffs.is_empty() {
            help = Some(format!(
                "fit them to sample runs with {{samples}} FILE, or give them with {}",
                diag::give_each("coeff", &self.missing_coeffs)
            ));
        }
        if !self.missing.is_empty() {
            let hint = format!("bind with {}", diag::give_each("define", &self.missing));
            help = Some(match help {
                Some(h) => format!("{hint}; {h}"),
                None => hint,
            });
        }
        help.filter(|h| Some(h) != self.help.as_ref())
            .map(Advice::fix)
    }
}

impl Advise for SimError {
    fn advice(&self) -> Option<Advice> {
        match self {
            SimError::TooLarge { .. } => Some(Advice::fix(
                "raise {max-steps}, or predict at smaller parameters",
            )),
            SimError::NotHeld { .. } => Some(Advice::fix(
                "a lock belongs to the thread that took it: unlock it there; to signal another \
                 thread, send it a message (send/recv)",
            )),
            _ => None,
        }
    }
}

impl Advise for PredictError {
    fn advice(&self) -> Option<Advice> {
        match self {
            PredictError::Sim(e) => e.advice(),
            PredictError::NoGroup { .. } => Some(Advice::usage(
                "validate makes a table row per value of a parameter (the processor count, `P` \
                 by default)",
            )),
            PredictError::NoProcessors { .. } => Some(Advice::usage(
                "give a number, or one of the model's parameters",
            )),
            PredictError::TooManyDraws { .. } => Some(Advice::usage("")),
            PredictError::NotFinite { .. } => Some(Advice::fix(
                "check the coefficients ({coeff}, {samples}) and the event costs of {machine}",
            )),
            _ => None,
        }
    }

    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        let input = match self {
            PredictError::NoGroup { .. } => "by",
            PredictError::NoProcessors { .. } => "processors",
            PredictError::TooManyDraws { .. } => "draws",
            _ => return self.to_string(),
        };
        format!("{}: {self}", key(spell, input))
    }
}

impl Advise for JobError {
    fn advice(&self) -> Option<Advice> {
        match self {
            JobError::By(_)
            | JobError::Given(_)
            | JobError::UnknownParam { .. }
            | JobError::DerivedParam { .. } => Some(Advice::usage("")),
            JobError::Predict(e) => e.advice(),
            JobError::OverLimits { over, .. } => {
                let raise: Vec<&str> = over.iter().map(|o| o.limit.setter()).collect();
                Some(Advice::fix(format!(
                    "raise {}, or predict at smaller parameters",
                    diag::and_list(&raise)
                )))
            }
            JobError::Model(e) => e.advice(),
            // A limit hit (status 1), as every command's; a bad grid is a usage error.
            JobError::Space(sweep::SpaceError::TooManyPoints { .. }) => {
                Some(Advice::fix("use fewer values or coarser steps"))
            }
            JobError::Space(_) => Some(Advice::usage("")),
            JobError::Samples(_) | JobError::Group { .. } => None,
            JobError::Profile { .. } => Some(Advice::fix(
                "make a profile of this machine with `vates probe {o} machine.json`",
            )),
        }
    }

    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        match self {
            JobError::By(e) => format!("{} {}: {e}", key(spell, "by"), e.name()),
            JobError::Given(e) => format!("{} {}: {e}", key(spell, "coeff"), e.name()),
            JobError::UnknownParam { .. } | JobError::DerivedParam { .. } => {
                format!("{}: {self}", key(spell, "define"))
            }
            JobError::Predict(e) => e.message(spell),
            JobError::OverLimits {
                point,
                events,
                steps,
                ops,
                over,
            } => format!(
                "at {point}: Θ = {events} event processings, {steps} steps, {ops} ops, over {}",
                over_text(over, spell)
            ),
            _ => self.to_string(),
        }
    }
}

/// Where a job's error points into a text: a model error or a file's.
#[derive(Debug)]
pub enum Located {
    /// The model cannot be parsed, counted or instantiated (at a sample point, its
    /// message says which); its help is the [`Advise`] of [`ModelError`].
    Model(Box<ModelError>),
    /// A samples or measurements file is not valid.
    Read(fit::read::ReadError),
}

impl JobError {
    /// The error as a located one when it points into a text; otherwise itself.
    ///
    /// # Errors
    /// The error itself when it has no location.
    pub fn located(self) -> Result<Located, JobError> {
        let samples = |e: SamplesError| match e {
            SamplesError::Read(r) => Ok(Located::Read(r)),
            SamplesError::Model { point, mut source } => {
                source.message = format!("at the sample point {point}: {}", source.message);
                Ok(Located::Model(source))
            }
            e => Err(JobError::Samples(e)),
        };
        match self {
            JobError::Model(e) | JobError::Predict(PredictError::Model(e)) => Ok(Located::Model(e)),
            JobError::Samples(e) | JobError::Predict(PredictError::Samples(e)) => samples(e),
            JobError::Predict(PredictError::Read(r)) => Ok(Located::Read(r)),
            e => Err(e),
        }
    }

    /// The error as a diagnostic that points into its text ([`JobError::located`]): a model
    /// error's help is its advice, the inputs spelt by `spell`.
    ///
    /// # Errors
    /// The error itself when it has no location.
    pub fn diagnostic(
        self,
        spell: &dyn Fn(&str) -> Option<String>,
    ) -> Result<miette::Report, JobError> {
        Ok(match self.located()? {
            Located::Model(mut m) => {
                m.help = m.advice().map(|a| a.spelt(spell)).or(m.help);
                miette::Report::new(*m)
            }
            Located::Read(r) => miette::Report::new(r),
        })
    }
}

impl Advise for RatioError {
    fn advice(&self) -> Option<Advice> {
        Some(match self {
            RatioError::Unbound { .. } => Advice::usage("give it with {from} NAME=VALUE"),
            RatioError::Twice { .. } => Advice::usage("give each parameter once"),
            RatioError::UnknownTarget { .. } => {
                Advice::usage("every parameter is given with {from}, and {to} changes some of them")
            }
            RatioError::NoProcessors { by } => Advice::usage(format!(
                "give it with {{from}} {by}=N₀ (and {{to}} {by}=N), or name it with {{by}}"
            )),
            RatioError::Scaling(_) => Advice::fix(
                "check {count} at the {from} point (a count of iterations is positive) and \
                 {seconds}",
            ),
            RatioError::Ceiling => Advice::usage("it applies to {law} data-parallel (eq. 2.6)"),
            RatioError::Count { .. }
            | RatioError::Eval { .. }
            | RatioError::BadProcessors { .. } => Advice::usage(""),
        })
    }

    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        let input = match self {
            RatioError::Count { .. } | RatioError::Eval { .. } => key(spell, "count"),
            RatioError::Unbound { .. } | RatioError::NoProcessors { .. } => key(spell, "from"),
            RatioError::Twice { which, .. } if *which == "target" => key(spell, "to"),
            RatioError::Twice { .. } => key(spell, "from"),
            RatioError::UnknownTarget { .. } => key(spell, "to"),
            RatioError::BadProcessors { .. } => {
                format!("{}/{}", key(spell, "from"), key(spell, "to"))
            }
            RatioError::Ceiling => key(spell, "ceiling"),
            RatioError::Scaling(_) => return self.to_string(),
        };
        format!("{input}: {self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(k: &str) -> Option<String> {
        Some(format!("--{k}"))
    }

    #[test]
    fn usage_errors_begin_with_their_input() {
        let e = JobError::UnknownParam {
            name: "Q".into(),
            hint: String::new(),
        };
        assert_eq!(
            e.message(&flags),
            "--define: the model has no parameter `Q` to bind"
        );
        assert!(e.advice().is_some_and(|a| a.usage));
        let e = RatioError::Twice {
            name: "N".into(),
            which: "target",
        };
        assert_eq!(e.message(&flags), "--to: `N` is given twice");
        assert_eq!(
            e.advice().map(|a| a.fix).as_deref(),
            Some("give each parameter once")
        );
    }

    #[test]
    fn limits_over_name_the_keys_that_raise_them() {
        let e = JobError::OverLimits {
            point: "N=1".into(),
            events: 3,
            steps: 600,
            ops: 20,
            over: vec![
                Over::new(Limit::TraversalSteps, 500),
                Over::new(Limit::GraphOps, 10),
            ],
        };
        assert_eq!(
            e.message(&flags),
            "at N=1: Θ = 3 event processings, 600 steps, 20 ops, over --max-steps 500 and \
             --max-ops 10"
        );
        let a = e.advice().expect("advice");
        assert!(!a.usage);
        assert_eq!(
            a.fix,
            "raise {max-steps} and {max-ops}, or predict at smaller parameters"
        );
    }

    #[test]
    fn a_model_error_missing_values_is_told_how_to_give_them() {
        let mut e = ModelError::new(crate::lang::ErrorKind::Limit, "x");
        assert!(e.advice().is_none(), "no advice beyond its own help");
        e.missing = vec!["N".into()];
        e.help = Some("see the model".into());
        assert_eq!(
            e.advice().map(|a| a.fix).as_deref(),
            Some("bind with {define} N=…; see the model")
        );
    }
}
