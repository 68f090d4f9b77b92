//! Advice on an error that names the inputs to change by neutral keys (`{procs}`,
//! `{max-steps}`), so that one engine's advice serves every front end: the command line
//! spells a key as its flag (`--procs`), a campaign file as its key (`procs`).

/// What to do about an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advice {
    /// The error is in what the user asked for (an option's value, a name the input does
    /// not have), not in the data or the run: a usage error.
    pub usage: bool,
    /// The fix, with `{key}` for each input it names.
    pub fix: String,
}

impl Advice {
    /// Advice on a usage error.
    pub fn usage(fix: impl Into<String>) -> Self {
        Advice {
            usage: true,
            fix: fix.into(),
        }
    }

    /// Advice on an error in the data or the run.
    pub fn fix(fix: impl Into<String>) -> Self {
        Advice {
            usage: false,
            fix: fix.into(),
        }
    }

    /// The fix with every `{key}` spelt by `spell` (a key it does not know stays `key`, its
    /// braces dropped).
    ///
    /// ```
    /// let a = diag::Advice::usage("add 1 to {procs}, or raise {max-steps}");
    /// let flags = |k: &str| Some(format!("--{k}"));
    /// assert_eq!(a.spelt(&flags), "add 1 to --procs, or raise --max-steps");
    /// ```
    pub fn spelt(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        spell_keys(&self.fix, spell)
    }
}

/// `{key} a=… {key} b=…`: the inputs that would give each of `names` a value, for a fix
/// (`{define} N=… {define} P=…`).
///
/// ```
/// assert_eq!(diag::give_each("define", &["N", "P"]), "{define} N=… {define} P=…");
/// ```
pub fn give_each<S: AsRef<str>>(key: &str, names: &[S]) -> String {
    let each: Vec<String> = names
        .iter()
        .map(|n| format!("{{{key}}} {}=…", n.as_ref()))
        .collect();
    each.join(" ")
}

/// An error that can say what to do about it.
pub trait Advise: std::error::Error {
    /// The advice, if the error has any.
    fn advice(&self) -> Option<Advice>;

    /// The message with the inputs it names spelt by `spell` (`by` → `--by`); by default
    /// the error's own text as it is (it may quote the user's text, braces and all). An
    /// error whose text names inputs by key spells them here ([`spell_keys`]), and one
    /// whose message begins with the input it is in puts it first.
    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        let _ = spell;
        self.to_string()
    }
}

/// `text` with every `{key}` (letters, digits, `-`, `_`) replaced by `spell(key)`, or by the
/// bare key when `spell` does not know it; `{{` and `}}` are a literal `{` and `}` (the user's
/// own text in a keyed message, written with [`literal`]); other braces are kept.
pub fn spell_keys(text: &str, spell: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        let (brace, after) = (&rest[at..at + 1], &rest[at + 1..]);
        if after.starts_with(brace) {
            out.push_str(brace);
            rest = &after[1..];
            continue;
        }
        if brace == "}" {
            out.push('}');
            rest = after;
            continue;
        }
        let key_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(after.len());
        if key_len > 0 && after[key_len..].starts_with('}') {
            let key = &after[..key_len];
            out.push_str(&spell(key).unwrap_or_else(|| key.to_string()));
            rest = &after[key_len + 1..];
        } else {
            out.push('{');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The user's own text (a file name, a task or agent name, a parser's message quoting the
/// input) for a message whose keys are spelt by [`spell_keys`]: its braces doubled, so that
/// they come out as typed and never as a flag.
///
/// ```
/// let m = format!("{{agent}} {}: no such agent", diag::literal("X{procs}"));
/// assert_eq!(diag::spell_keys(&m, &|k| Some(format!("--{k}"))), "--agent X{procs}: no such agent");
/// ```
pub fn literal(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// An error worded once for every front end: its message and advice name the inputs by key
/// (`{app}`), the user's own text in them written with [`literal`]; a front end spells the
/// keys ([`Advise::message`], [`Advice::spelt`]).
///
/// ```
/// use diag::Advise;
/// let e = diag::Keyed::usage(format!("{{app}} {}: no runs", diag::literal("a{b}")));
/// assert_eq!(e.message(&|k| Some(format!("--{k}"))), "--app a{b}: no runs");
/// assert!(e.advice().unwrap().usage);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keyed {
    /// The message, its inputs named by key.
    pub message: String,
    /// What to do (an empty fix: the message says it).
    pub advice: Advice,
}

impl Keyed {
    /// A usage error whose message says it all.
    pub fn usage(message: impl Into<String>) -> Keyed {
        Keyed {
            message: message.into(),
            advice: Advice::usage(""),
        }
    }

    /// An error in the data or the run, with what to do (empty: nothing more to say).
    pub fn fix(message: impl Into<String>, fix: impl Into<String>) -> Keyed {
        Keyed {
            message: message.into(),
            advice: Advice::fix(fix),
        }
    }
}

impl std::fmt::Display for Keyed {
    /// The message with its keys bare (`app`), as [`spell_keys`] leaves keys it cannot spell.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&spell_keys(&self.message, &|_| None))
    }
}

impl std::error::Error for Keyed {}

impl Advise for Keyed {
    fn advice(&self) -> Option<Advice> {
        Some(self.advice.clone())
    }

    /// The message with its input keys spelt.
    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        spell_keys(&self.message, spell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_spelt_and_other_braces_kept() {
        let spell = |k: &str| (k == "n").then(|| "-n".to_string());
        assert_eq!(spell_keys("{n} and {m}", &spell), "-n and m");
        assert_eq!(
            spell_keys("a {n} in {braces here} {", &spell),
            "a -n in {braces here} {"
        );
        assert_eq!(spell_keys("{}", &spell), "{}");
        assert_eq!(spell_keys("é{n}é", &spell), "é-né");
    }
}
