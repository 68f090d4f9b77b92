//! Reading models and `-D` parameter bindings.

use expr::grid::{parse_binding, Values};
use expr::{Name, Rational};

use crate::error::{CliError, Result};
pub use termio::files::{read_text, read_text_unless, utf8};

/// The advice for a model file over the size limit (`read_text`'s `too_large`).
pub const MODEL_TOO_LARGE: &str =
    "; a model this large is better written with repetition (ranges, loops) than unrolled";

/// One `-D NAME=VALUE` (or range, or list) as given on the command line.
#[derive(Clone, Debug)]
pub struct Define {
    /// The parameter name.
    pub name: Name,
    /// Its value or values.
    pub values: Values,
    /// The text as typed, for messages.
    pub text: String,
}

/// clap value parser for `-D`: checks the syntax with [`expr::grid::parse_binding`].
pub fn parse_define(s: &str) -> std::result::Result<Define, String> {
    let (name, values) = parse_binding(s).map_err(|e| e.to_string())?;
    Ok(Define {
        name,
        values,
        text: s.to_string(),
    })
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
    let mut out: Vec<(Name, Rational)> = Vec::with_capacity(defines.len());
    for d in defines {
        let v = match &d.values {
            Values::Single(v) => v.clone(),
            Values::List(vs) if vs.len() == 1 => vs[0].clone(),
            _ => {
                let hint = match sweep {
                    Some(s) => format!("; sweep with `vates {s} MODEL -D {}`", d.text),
                    None => String::new(),
                };
                return Err(CliError::usage(format!(
                    "`-D {}` gives several values, but `vates {command}` takes one value per \
                     parameter{hint}",
                    d.text
                )));
            }
        };
        if out.iter().any(|(n, _)| *n == d.name) {
            return Err(CliError::usage(format!(
                "`{}` is bound more than once; give each parameter one -D",
                d.name
            )));
        }
        out.push((d.name.clone(), v));
    }
    Ok(out)
}

/// Parses a count such as `1000000`, `1e9` or `2.5e6` (a whole number >= 1).
pub fn parse_count(s: &str) -> std::result::Result<u64, String> {
    let r = expr::number::parse_rational(s).map_err(|e| e.to_string())?;
    let v = expr::number::to_f64(&r);
    if r.is_integer() && (1.0..=9.0e18).contains(&v) {
        Ok(v as u64)
    } else {
        Err(format!("`{s}` is not a whole number between 1 and 9e18"))
    }
}

/// Parses a positive finite time scale.
pub fn parse_scale(s: &str) -> std::result::Result<f64, String> {
    let r = expr::number::parse_rational(s).map_err(|e| e.to_string())?;
    let v = expr::number::to_f64(&r);
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(format!("`{s}` is not a positive number"))
    }
}

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
