//! The lists and ranges of values a plan or a grid is given as text (`20,22,24`, `20..26`,
//! `20..26:2`: the grammar of a binding's values, [`expr::grid::parse_binding`]).

/// The most runs one campaign makes (and values one list gives).
pub const MAX_RUNS: usize = 100_000;

/// Why a list or range of values (`20,22,24`, `20..26`, `20..26:2`, the grammar of a
/// binding's values, [`expr::grid::parse_binding`]) is not what a plan takes.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValuesError {
    /// Not a list or range of positive numbers, or more than [`MAX_RUNS`].
    #[error(
        "`{text}`: {why} (give a list `1,2,4`, a range `1..8` or a range with a step `10..40:10`)"
    )]
    Bad {
        /// The text as written.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// A worker count that is not a whole number.
    #[error("`{0}` is not a whole worker count")]
    NotWhole(String),
}

/// The positive values of a list or range written as `text` (at most
/// [`MAX_RUNS`]).
///
/// # Errors
/// [`ValuesError::Bad`]: malformed, too many, or a value that is not a positive number.
pub fn values(text: &str) -> Result<Vec<f64>, ValuesError> {
    let bad = |why: String| ValuesError::Bad {
        text: text.to_string(),
        why,
    };
    let (_, v) = expr::grid::parse_binding(&format!("x={text}")).map_err(|e| match e {
        // The number's own message names it: the binding's text again would say it twice.
        expr::grid::GridError::BadNumber { source, .. } => bad(source.to_string()),
        e => bad(e.to_string().replace("`x=", "`").replace("NAME=", "")),
    })?;
    let count: u64 = v
        .count()
        .try_into()
        .ok()
        .filter(|&c| c as usize <= MAX_RUNS)
        .ok_or_else(|| bad(format!("more than {MAX_RUNS} values")))?;
    (0..count)
        .map(|k| {
            v.get(k)
                .map(|r| expr::number::to_f64(&r))
                .filter(|x| x.is_finite() && *x > 0.0)
                .ok_or_else(|| bad("every value must be a positive number".into()))
        })
        .collect()
}

/// The worker counts of a list or range written as `text`: [`values`], each a whole number.
///
/// # Errors
/// [`ValuesError`].
pub fn workers(text: &str) -> Result<Vec<u32>, ValuesError> {
    values(text)?
        .into_iter()
        .map(|p| {
            (p.fract() == 0.0 && p <= f64::from(u32::MAX))
                .then_some(p as u32)
                .ok_or_else(|| ValuesError::NotWhole(trace::text::num(p)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_ranges_of_positive_values() {
        assert_eq!(values("20,22").unwrap(), [20.0, 22.0]);
        assert_eq!(values("1..3").unwrap(), [1.0, 2.0, 3.0]);
        assert_eq!(values("10..40:10").unwrap(), [10.0, 20.0, 30.0, 40.0]);
        let e = values("0,1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`0,1`: every value must be a positive number (give a list `1,2,4`, a range \
             `1..8` or a range with a step `10..40:10`)"
        );
        // A word is named once by the list and once by the number's own message, not
        // three times.
        let e = values("abc").unwrap_err().to_string();
        assert!(e.starts_with("`abc`: `abc` is not a number"), "{e}");
        assert_eq!(e.matches("abc").count(), 2, "{e}");
        let e = values("20,x").unwrap_err().to_string();
        assert!(e.starts_with("`20,x`: `x` is not a number"), "{e}");
        assert!(values("1..1000000")
            .unwrap_err()
            .to_string()
            .contains("more than"));
    }

    #[test]
    fn worker_counts_are_whole() {
        assert_eq!(workers("1,2,4").unwrap(), [1, 2, 4]);
        assert_eq!(
            workers("1.5").unwrap_err(),
            ValuesError::NotWhole("1.5".into())
        );
    }
}
