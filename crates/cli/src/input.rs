//! Reading models and `-D` parameter bindings.

use expr::{Name, Rational};
use sweep::NotSingle;

use crate::error::{CliError, Result};
pub use termio::files::{read_text, read_text_unless, utf8};

/// The advice for a model file over the size limit (`read_text`'s `too_large`).
pub const MODEL_TOO_LARGE: &str =
    "; a model this large is better written with repetition (ranges, loops) than unrolled";

/// One `-D NAME=VALUE` (or range, or list) as given on the command line.
pub use sweep::Binding as Define;

/// clap value parser for `-D`: checks the syntax with [`expr::grid::parse_binding`].
pub fn parse_define(s: &str) -> std::result::Result<Define, String> {
    Define::parse(s).map_err(|e| e.to_string())
}

/// The defines as single values; a range or list, or a name given twice, is a usage error
/// of `command` (exit status 2).
/// `command` is the command's path after `vates` (`pamela bound`); `sweep` the command that
/// sweeps the same model, if there is one.
pub fn single_values(
    defines: &[Define],
    command: &str,
    sweep: Option<&str>,
) -> Result<Vec<(Name, Rational)>> {
    Define::singles(defines).map_err(|e| match e {
        NotSingle::Several(d) => {
            let hint = sweep.map_or(String::new(), |s| {
                format!("; sweep with `vates {s} MODEL -D {}`", d.text)
            });
            CliError::usage(format!(
                "`-D {}` gives several values, but `vates {command}` takes one value per \
                 parameter{hint}",
                d.text
            ))
        }
        NotSingle::Twice(d) => CliError::usage(format!(
            "`{}` is bound more than once; give each parameter one -D",
            d.name
        )),
    })
}

/// The value parsers of counts such as `1000000`, `1e9` or `2.5e6` (a whole number >= 1),
/// and of positive finite time scales.
pub use expr::number::{parse_count, parse_positive as parse_scale};

/// The value parser of a flag that takes one of an engine's named values ([`diag::Choice`]):
/// the names and their descriptions are the flag's possible values.
pub fn choice<T: diag::Choice>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(
        T::ALL
            .iter()
            .map(|v| PossibleValue::new(v.name()).help(v.about())),
    )
    .map(|name| T::named(&name).expect("clap checked the name"))
}
