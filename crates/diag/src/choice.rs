//! Closed sets of named values: the one way an engine's option enum (a criterion, a policy,
//! a runtime) tells a front end its names and what each means, so that the command line and
//! the campaign file offer the engine's own enum instead of a copy of it.

/// An enum whose values a user chooses by name. Declare one with [`choices!`](crate::choices).
///
/// ```
/// diag::choices! {
///     /// What the least squares minimise.
///     #[derive(Default)]
///     pub enum Fitting {
///         /// Relative residuals.
///         #[default]
///         Relative = "relative": "Relative residuals.",
///         /// Absolute residuals.
///         Absolute = "absolute": "Absolute residuals (the thesis).",
///     }
/// }
/// use diag::Choice;
/// assert_eq!(Fitting::named("absolute"), Ok(Fitting::Absolute));
/// assert_eq!(Fitting::Relative.name(), "relative");
/// assert_eq!(Fitting::default().to_string(), "relative");
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

/// Declares a field-less enum that a user chooses by name, and implements [`Choice`] and
/// `Display` (the name) for it: each variant with its name and description, in the order
/// help texts list them. The enum derives `Clone, Copy, Debug, PartialEq, Eq`; its doc
/// comment, visibility and further attributes (more derives, `#[serde(...)]`) and each
/// variant's doc comment and attributes (`#[default]`, `#[serde(rename = ...)]`) are
/// passed through.
///
/// ```
/// diag::choices! {
///     /// Where the cells run.
///     #[derive(Hash)]
///     pub(crate) enum Backend {
///         /// Here.
///         Local = "local": "Here, one cell after the other",
///         /// On a cluster.
///         Slurm = "slurm": "As Slurm job arrays",
///     }
/// }
/// assert_eq!(<Backend as diag::Choice>::ALL, &[Backend::Local, Backend::Slurm]);
/// assert_eq!(format!("{}", Backend::Slurm), "slurm");
/// ```
#[macro_export]
macro_rules! choices {
    (
        $(#[$attr:meta])*
        $vis:vis enum $ty:ident {
            $($(#[$vattr:meta])* $variant:ident = $name:literal : $about:literal),+ $(,)?
        }
    ) => {
        #[derive(
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::fmt::Debug,
            ::core::cmp::PartialEq,
            ::core::cmp::Eq,
        )]
        $(#[$attr])*
        $vis enum $ty {
            $($(#[$vattr])* $variant),+
        }
        impl $crate::Choice for $ty {
            const ALL: &'static [Self] = &[$(Self::$variant),+];
            fn name(self) -> &'static str {
                match self { $(Self::$variant => $name),+ }
            }
            fn about(self) -> &'static str {
                match self { $(Self::$variant => $about),+ }
            }
        }
        impl ::core::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str($crate::Choice::name(*self))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Choice;

    crate::choices! {
        /// A private choice with a default and a further derive.
        #[derive(Default, Hash, PartialOrd, Ord)]
        enum Shade {
            /// Light.
            Light = "light": "The light one",
            /// Dark, the default.
            #[default]
            Dark = "dark": "The dark one"
        }
    }

    #[test]
    fn declares_the_enum_with_its_attributes() {
        assert_eq!(Shade::default(), Shade::Dark);
        assert!(Shade::Light < Shade::Dark);
        let copy = Shade::Light;
        assert_eq!(format!("{copy:?} {}", Shade::Light), "Light light");
        let mut seen = std::collections::HashSet::new();
        assert!(seen.insert(Shade::Dark) && !seen.insert(Shade::Dark));
    }

    #[test]
    fn names_and_describes_each_value_in_order() {
        assert_eq!(Shade::ALL, &[Shade::Light, Shade::Dark]);
        assert_eq!(Shade::Dark.about(), "The dark one");
        assert_eq!(Shade::named("dark"), Ok(Shade::Dark));
        assert_eq!(
            Shade::named("drak").unwrap_err(),
            "`drak` is not one of light, dark; did you mean `dark`?"
        );
    }
}
