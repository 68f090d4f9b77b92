//! Closed sets of named values: the one way an engine's option enum (a criterion, a policy,
//! a runtime) tells a front end its names and what each means, so that the command line and
//! the campaign file offer the engine's own enum instead of a copy of it.

/// An enum whose values a user chooses by name. Implement it with [`choices!`](crate::choices).
///
/// ```
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// enum Fitting { Relative, Absolute }
/// diag::choices!(Fitting {
///     Relative = "relative": "Relative residuals.",
///     Absolute = "absolute": "Absolute residuals (the thesis).",
/// });
/// use diag::Choice;
/// assert_eq!(Fitting::named("absolute"), Ok(Fitting::Absolute));
/// assert_eq!(Fitting::Relative.name(), "relative");
/// assert_eq!(
///     Fitting::named("relativ").unwrap_err(),
///     "`relativ` is not one of relative, absolute; did you mean `relative`?"
/// );
/// ```
pub trait Choice: Sized + Copy + Send + Sync + 'static {
    /// Every value, in the order a help text lists them.
    const ALL: &'static [Self];
    /// The value's name as a user writes it.
    fn name(self) -> &'static str;
    /// What the value means, one sentence.
    fn about(self) -> &'static str;

    /// The value named `name`; otherwise a message listing the names, with a suggestion
    /// for a misspelt one.
    fn named(name: &str) -> Result<Self, String> {
        if let Some(v) = Self::ALL.iter().find(|v| v.name() == name) {
            return Ok(*v);
        }
        let names: Vec<&str> = Self::ALL.iter().map(|v| v.name()).collect();
        let hint = crate::did_you_mean(&crate::suggest(name, names.iter().copied()))
            .map(|s| format!("; {s}"))
            .unwrap_or_default();
        Err(format!(
            "`{}` is not one of {}{hint}",
            crate::short(name),
            names.join(", ")
        ))
    }
}

/// Implements [`Choice`] (and `Display`, the name) for a field-less enum: each variant with
/// its name and description, in the order help texts list them.
#[macro_export]
macro_rules! choices {
    ($ty:ty { $($variant:ident = $name:literal : $about:literal),+ $(,)? }) => {
        impl $crate::Choice for $ty {
            const ALL: &'static [Self] = &[$(Self::$variant),+];
            fn name(self) -> &'static str {
                match self { $(Self::$variant => $name),+ }
            }
            fn about(self) -> &'static str {
                match self { $(Self::$variant => $about),+ }
            }
        }
        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::Choice::name(*self))
            }
        }
    };
}
