//! Exact numbers as text: parsing decimal, scientific and fractional notation into
//! [`Rational`]s, formatting them back, and converting them to `f64`.
//!
//! ```
//! use expr::number::{format_rational, parse_rational, to_f64};
//! let r = parse_rational("0.1").unwrap();
//! assert_eq!(format_rational(&r), "0.1");
//! assert_eq!(format_rational(&parse_rational("2/6").unwrap()), "1/3");
//! assert_eq!(to_f64(&parse_rational("2.5E3").unwrap()), 2500.0);
//! ```

use crate::node::Rational;
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use thiserror::Error;

/// The largest decimal exponent magnitude [`parse_rational`] accepts (`1e1000` is fine,
/// `1e1001` is not): a hostile `1e999999999` must not exhaust memory.
pub const MAX_EXPONENT: u32 = 1000;

/// At most this many digits after the decimal point make [`format_rational`] print a
/// terminating fraction as a decimal; longer ones print as `p/q`, which is shorter then.
pub const MAX_DECIMAL_PLACES: u64 = 40;

/// Why a number could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NumberError {
    /// The text is not a number in any accepted notation.
    #[error(
        "`{input}` is not a number: expected an integer (12, -3), a decimal (0.25, .5, 1e-6, \
         2.5E3) or a fraction (3/4)"
    )]
    Invalid {
        /// The offending text.
        input: String,
    },
    /// The decimal exponent is too large in magnitude.
    #[error("the exponent in `{input}` is too large: at most e±{MAX_EXPONENT} is accepted")]
    ExponentTooLarge {
        /// The offending text.
        input: String,
    },
    /// A fraction with denominator zero.
    #[error("`{input}` divides by zero")]
    ZeroDenominator {
        /// The offending text.
        input: String,
    },
    /// A number, but not a whole number from 1 to [`MAX_COUNT`] ([`parse_count`]).
    #[error("`{input}` is not a whole number between 1 and 9e18")]
    NotCount {
        /// The offending text.
        input: String,
    },
    /// A number, but not positive and finite ([`parse_positive`]).
    #[error("`{input}` is not a positive number")]
    NotPositive {
        /// The offending text.
        input: String,
    },
}

/// The largest count [`parse_count`] accepts.
pub const MAX_COUNT: f64 = 9.0e18;

/// Parses a count such as `1000000`, `1e9` or `2.5e6`: a whole number from 1 to
/// [`MAX_COUNT`].
///
/// ```
/// assert_eq!(expr::number::parse_count("2.5e6"), Ok(2_500_000));
/// assert!(expr::number::parse_count("0.5").is_err());
/// ```
///
/// # Errors
/// [`parse_rational`]'s errors; [`NumberError::NotCount`] for any other number.
pub fn parse_count(s: &str) -> Result<u64, NumberError> {
    let r = parse_rational(s)?;
    let v = to_f64(&r);
    match r.is_integer() && (1.0..=MAX_COUNT).contains(&v) {
        true => Ok(v as u64),
        false => Err(NumberError::NotCount {
            input: s.to_string(),
        }),
    }
}

/// Parses a positive finite number (a time, a frequency, a scale), as `f64`.
///
/// ```
/// assert_eq!(expr::number::parse_positive("1/4"), Ok(0.25));
/// assert!(expr::number::parse_positive("0").is_err());
/// ```
///
/// # Errors
/// [`parse_rational`]'s errors; [`NumberError::NotPositive`] for any other number.
pub fn parse_positive(s: &str) -> Result<f64, NumberError> {
    let v = to_f64(&parse_rational(s)?);
    match v.is_finite() && v > 0.0 {
        true => Ok(v),
        false => Err(NumberError::NotPositive {
            input: s.to_string(),
        }),
    }
}

/// Parses an exact rational number.
///
/// Accepted notations (surrounding whitespace is ignored): integers `12`, `-3`, `+7`;
/// decimals `0.25`, `.5`, `5.`; scientific `1e-6`, `2.5E3`; fractions `3/4`, `-1/3`, whose
/// parts may themselves be decimals (`1.5/2`). Decimals are exact: `0.1` is `1/10`.
///
/// # Errors
/// [`NumberError::Invalid`] for anything else, [`NumberError::ExponentTooLarge`] for an
/// exponent beyond ±[`MAX_EXPONENT`], [`NumberError::ZeroDenominator`] for `x/0`.
pub fn parse_rational(s: &str) -> Result<Rational, NumberError> {
    let t = s.trim();
    let invalid = || NumberError::Invalid {
        input: s.to_string(),
    };
    match t.split_once('/') {
        Some((n, d)) => {
            let num = parse_decimal(n.trim(), s)?.ok_or_else(invalid)?;
            let d = d.trim();
            if d.starts_with(['+', '-']) {
                return Err(invalid());
            }
            let den = parse_decimal(d, s)?.ok_or_else(invalid)?;
            if den.is_zero() {
                return Err(NumberError::ZeroDenominator {
                    input: s.to_string(),
                });
            }
            Ok(num / den)
        }
        None => parse_decimal(t, s)?.ok_or_else(invalid),
    }
}

/// Parses `[+-]digits[.digits][(e|E)[+-]digits]`; `Ok(None)` when the syntax is wrong.
fn parse_decimal(t: &str, input: &str) -> Result<Option<Rational>, NumberError> {
    let bytes = t.as_bytes();
    let mut i = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let int_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = &t[int_start..i];
    let mut frac_digits = "";
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = &t[start..i];
    }
    if int_digits.is_empty() && frac_digits.is_empty() {
        return Ok(None);
    }
    let mut exponent: i64 = 0;
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        let mut exp_negative = false;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            exp_negative = bytes[i] == b'-';
            i += 1;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &t[start..i];
        if digits.is_empty() {
            return Ok(None);
        }
        let trimmed = digits.trim_start_matches('0');
        let too_large = || NumberError::ExponentTooLarge {
            input: input.to_string(),
        };
        if trimmed.len() > 4 {
            return Err(too_large());
        }
        let magnitude: i64 = if trimmed.is_empty() {
            0
        } else {
            trimmed.parse().map_err(|_| too_large())?
        };
        if magnitude > i64::from(MAX_EXPONENT) {
            return Err(too_large());
        }
        exponent = if exp_negative { -magnitude } else { magnitude };
    }
    if i != bytes.len() {
        return Ok(None);
    }
    let digits = format!("{int_digits}{frac_digits}");
    let mantissa: BigInt = match digits.parse() {
        Ok(m) => m,
        Err(_) => return Ok(None),
    };
    let mantissa = if negative { -mantissa } else { mantissa };
    // The value is mantissa * 10^(exponent - frac_len).
    let scale = exponent - frac_digits.len() as i64;
    let ten = BigInt::from(10u32);
    let value = if scale >= 0 {
        Rational::from_integer(mantissa * ten.pow(scale as u32))
    } else {
        let den = ten.pow(scale.unsigned_abs().min(u64::from(u32::MAX)) as u32);
        Rational::new(mantissa, den)
    };
    Ok(Some(value))
}

/// Converts to the nearest `f64` (correctly rounded also for numerators and denominators far
/// beyond `f64` range, e.g. `10^400 / (3*10^399)`); magnitudes beyond `f64::MAX` become
/// infinite and those below the smallest subnormal become zero.
pub fn to_f64(r: &Rational) -> f64 {
    if let Some(v) = r.to_f64() {
        return v;
    }
    // `to_f64` only refuses when its intermediate result is NaN; scale by hand instead.
    let n = r.numer();
    let d = r.denom();
    let shift = n.bits() as i64 - d.bits() as i64 - 64;
    let scaled = if shift >= 0 {
        Rational::new(n.clone(), d.clone() << (shift as u64))
    } else {
        Rational::new(n.clone() << shift.unsigned_abs(), d.clone())
    };
    let m = scaled.to_integer().to_f64().unwrap_or(f64::NAN);
    m * 2f64.powi(shift.clamp(-2000, 2000) as i32)
}

/// Formats exactly: integers as `42`, terminating fractions as decimals without trailing
/// zeros (`0.900072`, `-2.5`), other fractions as `p/q` (`1/3`, `-7/12`). A terminating
/// fraction needing more than [`MAX_DECIMAL_PLACES`] decimal places prints as `p/q` too.
/// [`parse_rational`] reads every output back to the same value.
pub fn format_rational(r: &Rational) -> String {
    if r.is_integer() {
        return r.numer().to_string();
    }
    let d = r.denom();
    let twos = d.trailing_zeros().unwrap_or(0);
    let mut rest = d >> twos;
    let five = BigInt::from(5u32);
    let mut fives = 0u64;
    while fives <= MAX_DECIMAL_PLACES {
        let (q, m) = rest.div_rem(&five);
        if !m.is_zero() {
            break;
        }
        rest = q;
        fives += 1;
    }
    let places = twos.max(fives);
    if !rest.is_one() || places > MAX_DECIMAL_PLACES {
        return format!("{}/{}", r.numer(), d);
    }
    // numer * 10^places / denom is an integer not divisible by 10.
    let scaled = r.numer().abs() * BigInt::from(10u32).pow(places as u32) / d;
    let digits = scaled.to_string();
    let places = places as usize;
    let (int_part, frac_part) = if digits.len() > places {
        let (a, b) = digits.split_at(digits.len() - places);
        (a.to_string(), b.to_string())
    } else {
        ("0".to_string(), format!("{digits:0>places$}"))
    };
    let sign = if r.numer().sign() == Sign::Minus {
        "-"
    } else {
        ""
    };
    format!("{sign}{int_part}.{frac_part}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::q;

    #[test]
    fn counts_and_positive_numbers() {
        assert_eq!(parse_count("1e9"), Ok(1_000_000_000));
        assert_eq!(parse_count("9e18"), Ok(9_000_000_000_000_000_000));
        for bad in ["0", "-1", "1.5", "1e19"] {
            let e = parse_count(bad).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("`{bad}` is not a whole number between 1 and 9e18")
            );
        }
        assert!(matches!(parse_count("x"), Err(NumberError::Invalid { .. })));
        assert_eq!(parse_positive("2.5e-3"), Ok(0.0025));
        for bad in ["0", "-1"] {
            let e = parse_positive(bad).unwrap_err();
            assert_eq!(e.to_string(), format!("`{bad}` is not a positive number"));
        }
        assert!(matches!(
            parse_positive("1e2000"),
            Err(NumberError::ExponentTooLarge { .. })
        ));
    }

    #[test]
    fn parses_every_notation() {
        assert_eq!(parse_rational("12").unwrap(), q(12, 1));
        assert_eq!(parse_rational("-3").unwrap(), q(-3, 1));
        assert_eq!(parse_rational("+7").unwrap(), q(7, 1));
        assert_eq!(parse_rational("0.25").unwrap(), q(1, 4));
        assert_eq!(parse_rational("0.1").unwrap(), q(1, 10));
        assert_eq!(parse_rational("1e-6").unwrap(), q(1, 1_000_000));
        assert_eq!(parse_rational("2.5E3").unwrap(), q(2500, 1));
        assert_eq!(parse_rational("3/4").unwrap(), q(3, 4));
        assert_eq!(parse_rational("-6/8").unwrap(), q(-3, 4));
        assert_eq!(parse_rational(".5").unwrap(), q(1, 2));
        assert_eq!(parse_rational("5.").unwrap(), q(5, 1));
        assert_eq!(parse_rational(" 1.5/2 ").unwrap(), q(3, 4));
        assert_eq!(parse_rational("-.5e+1").unwrap(), q(-5, 1));
        assert_eq!(parse_rational("1e0000001").unwrap(), q(10, 1));
    }

    #[test]
    fn rejects_garbage_with_the_input_named() {
        for bad in [
            "", "-", ".", "e5", "1e", "1.2.3", "1/", "/2", "1/-2", "abc", "1 2", "0x10", "1_000",
            "--1", "1e+-3", "inf", "NaN",
        ] {
            let err = parse_rational(bad).unwrap_err();
            assert!(
                matches!(err, NumberError::Invalid { .. }),
                "{bad:?} gave {err:?}"
            );
            assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
        }
        assert!(matches!(
            parse_rational("3/0"),
            Err(NumberError::ZeroDenominator { .. })
        ));
    }

    #[test]
    fn rejects_huge_exponents_quickly() {
        assert!(parse_rational("1e1000").is_ok());
        assert!(parse_rational("1e-1000").is_ok());
        for bad in [
            "1e1001",
            "1e-1001",
            "1e999999999999999999999999",
            "2.5E99999",
        ] {
            let err = parse_rational(bad).unwrap_err();
            assert!(matches!(err, NumberError::ExponentTooLarge { .. }), "{bad}");
            assert!(err.to_string().contains(bad));
        }
    }

    #[test]
    fn formats_integers_decimals_and_fractions() {
        assert_eq!(format_rational(&q(42, 1)), "42");
        assert_eq!(format_rational(&q(-42, 1)), "-42");
        assert_eq!(format_rational(&q(0, 1)), "0");
        assert_eq!(format_rational(&q(900072, 1_000_000)), "0.900072");
        assert_eq!(format_rational(&q(1, 2)), "0.5");
        assert_eq!(format_rational(&q(-5, 2)), "-2.5");
        assert_eq!(format_rational(&q(1, 1024)), "0.0009765625");
        assert_eq!(format_rational(&q(3, 80)), "0.0375");
        assert_eq!(format_rational(&q(1, 3)), "1/3");
        assert_eq!(format_rational(&q(-7, 12)), "-7/12");
        assert_eq!(
            format_rational(&parse_rational("1e-6").unwrap()),
            "0.000001"
        );
        let tiny = parse_rational("1e-50").unwrap();
        assert_eq!(format_rational(&tiny), format!("1/1{}", "0".repeat(50)));
    }

    #[test]
    fn format_then_parse_is_identity() {
        for (n, d) in [
            (1, 3),
            (-22, 7),
            (123456789, 1000),
            (5, 1),
            (-1, 8),
            (7, 6250),
        ] {
            let r = q(n, d);
            assert_eq!(parse_rational(&format_rational(&r)).unwrap(), r);
        }
    }

    #[test]
    fn to_f64_is_accurate_for_huge_parts() {
        assert_eq!(to_f64(&q(1, 3)), 1.0 / 3.0);
        assert_eq!(to_f64(&q(-5, 2)), -2.5);
        let big = BigInt::from(10u32).pow(400);
        let r = Rational::new(big.clone(), big.clone() * BigInt::from(3));
        assert_eq!(to_f64(&r), 1.0 / 3.0);
        let r = Rational::new(big.clone() * BigInt::from(7), big.clone() * BigInt::from(2));
        assert_eq!(to_f64(&r), 3.5);
        assert_eq!(to_f64(&Rational::from_integer(big.clone())), f64::INFINITY);
        assert_eq!(to_f64(&Rational::new(BigInt::one(), big)), 0.0);
        assert_eq!(to_f64(&parse_rational("1e300").unwrap()), 1e300);
        assert_eq!(to_f64(&parse_rational("1e-300").unwrap()), 1e-300);
    }
}
