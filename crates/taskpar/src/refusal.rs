//! A refused request as a front end shows it: the message and the fix, the front end's
//! inputs named as it spells them (the library says `{app}`, the command line `--app`).

/// A refused request, its inputs named as the front end spells them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The message.
    pub message: String,
    /// What to do, if the message does not say.
    pub help: Option<String>,
    /// Whether the request is at fault (a usage error), not the data or the run.
    pub usage: bool,
}

impl Refusal {
    /// A usage error that says it all.
    pub fn usage(message: String) -> Refusal {
        Refusal {
            message,
            help: None,
            usage: true,
        }
    }

    /// An error in the data or the run, with what to do.
    pub fn fix(message: String, help: String) -> Refusal {
        Refusal {
            message,
            help: Some(help),
            usage: false,
        }
    }
}

/// How a front end spells an input's key (`app` → `--app`).
pub type Spell<'a> = &'a dyn Fn(&str) -> Option<String>;

/// `key` as `spell` spells it, else the key itself.
pub fn spelt(spell: Spell<'_>, key: &str) -> String {
    spell(key).unwrap_or_else(|| key.to_string())
}
