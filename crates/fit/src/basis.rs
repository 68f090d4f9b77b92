//! A plain regression on user basis functions, for any table of numbers:
//! `y ≈ c0 + Σ c_k·b_k(columns)`, each `b_k` an expression of the columns (`n*log(n)`,
//! `2^x`, `x^log2(7)`), fitted by least squares, non-negative least squares, or the Lasso by
//! LARS with α chosen by cross-validation.

use expr::compile::Compiled;
use expr::{Expr, Name};

use crate::{
    lasso_lars_cv, least_squares, nnls, Design, FitError, LassoLarsCvOptions, NnlsOptions,
};

diag::choices! {
    /// The regression.
    #[derive(Default)]
    pub enum Method {
        /// Least squares (SVD; collinear bases are named).
        #[default]
        Ols = "ols": "Least squares (collinear bases are named)",
        /// Non-negative least squares (every coefficient, the intercept included, ≥ 0).
        Nnls = "nnls": "Non-negative least squares",
        /// The Lasso by LARS, α by K-fold cross-validation (scikit-learn's `LassoLarsCV`).
        LassoLarsCv = "lasso-lars-cv": "The Lasso by LARS, alpha by K-fold cross-validation (scikit-learn's LassoLarsCV)",
    }
}

/// Options of [`fit_bases`].
#[derive(Clone, Debug, PartialEq)]
pub struct BasisOptions {
    /// The regression.
    pub method: Method,
    /// Fit an intercept `c0` (default true).
    pub intercept: bool,
    /// Lasso: keep every coefficient ≥ 0.
    pub positive: bool,
    /// Lasso: the number of contiguous folds (default 5).
    pub cv: usize,
    /// Lasso: shuffle the rows with this seed before making the folds.
    pub shuffle: Option<u64>,
}

impl Default for BasisOptions {
    fn default() -> Self {
        BasisOptions {
            method: Method::Ols,
            intercept: true,
            positive: false,
            cv: 5,
            shuffle: None,
        }
    }
}

/// One basis function: its text and its expression.
#[derive(Clone, Debug, PartialEq)]
pub struct BasisTerm {
    /// As the user wrote it (trimmed).
    pub text: String,
    /// The parsed expression.
    pub expr: Expr,
}

/// Why bases cannot be read or fitted.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BasisError {
    /// A basis function is not a valid expression: the message, then the function and a
    /// caret under the error.
    #[error(
        "basis function {index} (`{text}`): {error}\n  {text}\n  {}^",
        caret_pad(.text, .error)
    )]
    Parse {
        /// 1-based position in the list.
        index: usize,
        /// Its text.
        text: String,
        /// The parser's error (offsets within `text`).
        error: expr::ParseError,
    },
    /// No basis functions were given.
    #[error("no basis functions")]
    Empty,
    /// A basis function cannot be evaluated at a row (a logarithm of 0, a division by zero).
    #[error("basis function `{text}` at row {row}: {message}")]
    Eval {
        /// The basis function.
        text: String,
        /// The row (1-based, as a person counts data rows).
        row: usize,
        /// What went wrong.
        message: String,
    },
    /// Fewer rows than unknowns: the coefficients are not determined.
    #[error("{rows} rows for {unknowns} unknowns: the coefficients are not determined")]
    TooFewRows {
        /// Data rows.
        rows: usize,
        /// Coefficients to fit (the intercept included).
        unknowns: usize,
    },
    /// The regression failed.
    #[error(transparent)]
    Fit(#[from] FitError),
}

impl diag::Advise for BasisError {
    /// How to write the functions (usage) for an empty list, nothing to add for one that
    /// does not parse (the caret shows where); for a failed fit the data's fix
    /// ([`crate::RANGE_HELP`] for values out of range).
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            BasisError::Parse { .. } => None,
            BasisError::Empty => Some(diag::Advice::usage(
                "give functions such as \"n; n*log(n)\"",
            )),
            BasisError::Fit(e @ FitError::Range { .. }) => diag::Advise::advice(e),
            _ => Some(diag::Advice::fix(
                "check the basis functions against the data (a log of 0, too few rows)",
            )),
        }
    }
}

/// A regression of one CSV column on basis functions of others: the front door of a
/// regression on a file ([`Regression::new`] reads the functions, [`Regression::run`] the
/// columns and fits).
#[derive(Clone, Debug, PartialEq)]
pub struct Regression {
    /// The basis functions.
    pub bases: Vec<BasisTerm>,
    /// The column explained.
    pub y: String,
    /// The regression and its options.
    pub options: BasisOptions,
}

/// Why a regression on a file cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum RegressionError {
    /// The file is malformed.
    #[error(transparent)]
    Read(crate::read::ReadError),
    /// A column the regression names, as `y` (`key` `y`) or in a basis function (`basis`),
    /// that the file lacks: the message and its hint, as [`crate::read::LoadError::Column`].
    #[error("{}{}", .error.message, .error.help.as_deref().map(|h| format!("; {h}")).unwrap_or_default())]
    Column {
        /// The input that named it: `y` or `basis`.
        key: &'static str,
        /// The reader's error.
        error: crate::read::ReadError,
    },
    /// The regression failed on the file `name`'s columns.
    #[error("{name}: {error}")]
    Fit {
        /// The file's name.
        name: String,
        /// Why.
        error: BasisError,
    },
}

impl diag::Advise for RegressionError {
    /// The fit's advice ([`BasisError`]'s); none for a read error (it is located).
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            RegressionError::Read(_) => None,
            // A usage error whose message says what to change.
            RegressionError::Column { .. } => Some(diag::Advice::usage("")),
            RegressionError::Fit { error, .. } => diag::Advise::advice(error),
        }
    }
}

impl RegressionError {
    /// The input a missing column's message is about, as a key of [`diag::Advice`], and
    /// what joins it to the message (`y`, `": "`); `None` otherwise.
    pub fn input(&self) -> Option<(&'static str, &'static str)> {
        match self {
            RegressionError::Column { key, .. } => Some((key, ": ")),
            _ => None,
        }
    }
}

impl Regression {
    /// The regression of `y` on the functions of `spec` (separated by `;`).
    ///
    /// # Errors
    /// [`parse_bases`]' errors.
    pub fn new(spec: &str, y: &str, options: BasisOptions) -> Result<Self, BasisError> {
        Ok(Regression {
            bases: parse_bases(spec)?,
            y: y.to_string(),
            options,
        })
    }

    /// Reads the columns the functions use and `y` from the CSV `text` (named `name`) and
    /// fits.
    ///
    /// # Errors
    /// A [`RegressionError`].
    pub fn run(&self, name: &str, text: &str) -> Result<BasisFit, RegressionError> {
        let mut names = variables(&self.bases);
        names.push(self.y.clone());
        let cols = crate::read::csv::columns(name, text, &names).map_err(|error| {
            if error.kind != crate::read::ReadErrorKind::UnknownName {
                return RegressionError::Read(error);
            }
            let y = format!("`{}`", crate::read::short(&self.y));
            let key = if error.message.contains(&y) {
                "y"
            } else {
                "basis"
            };
            RegressionError::Column { key, error }
        })?;
        let (ys, xs) = cols.split_last().expect("the y column");
        let columns: Vec<(&str, &[f64])> = names
            .iter()
            .zip(xs)
            .map(|(n, c)| (n.as_str(), c.as_slice()))
            .collect();
        fit_bases(&self.bases, &columns, ys, &self.options).map_err(|error| RegressionError::Fit {
            name: name.to_string(),
            error,
        })
    }
}

/// The spaces that put a caret under the error in `text`.
fn caret_pad(text: &str, error: &expr::ParseError) -> String {
    " ".repeat(text[..error.start.min(text.len())].chars().count())
}

/// Reads `spec`, basis functions separated by `;`.
///
/// # Errors
/// [`BasisError::Empty`] without any; [`BasisError::Parse`] for one that does not parse.
pub fn parse_bases(spec: &str) -> Result<Vec<BasisTerm>, BasisError> {
    let mut out = Vec::new();
    for (i, part) in spec.split(';').enumerate() {
        let text = part.trim();
        if text.is_empty() {
            continue;
        }
        let expr = expr::parse(text).map_err(|error| BasisError::Parse {
            index: i + 1,
            text: text.to_string(),
            error,
        })?;
        out.push(BasisTerm {
            text: text.to_string(),
            expr,
        });
    }
    if out.is_empty() {
        return Err(BasisError::Empty);
    }
    Ok(out)
}

/// The variables the bases use, in order of first use: the columns a table must have.
pub fn variables(bases: &[BasisTerm]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for b in bases {
        for v in b.expr.free_vars() {
            if !out.iter().any(|o| **o == *v) {
                out.push(v.to_string());
            }
        }
    }
    out
}

/// The fitted regression.
#[derive(Clone, Debug, PartialEq)]
pub struct BasisFit {
    /// The basis functions' texts.
    pub terms: Vec<String>,
    /// One coefficient per basis function.
    pub coefficients: Vec<f64>,
    /// The intercept (0 without one).
    pub intercept: f64,
    /// The Lasso's α, chosen by cross-validation.
    pub alpha: Option<f64>,
    /// Residual sum of squares.
    pub rss: f64,
    /// R² (1 − RSS/TSS).
    pub r2: f64,
    /// Least squares: the rank of the design (with the intercept column).
    pub rank: Option<usize>,
    /// Least squares: each basis function that is a combination of others over the rows,
    /// with that combination (`(basis text or "1", factor)`).
    pub collinear: Vec<(String, Vec<(String, f64)>)>,
}

/// Fits `y ≈ c0 + Σ c_k·b_k` where the variables of the bases are the `columns`
/// (`(name, values)`, every column as long as `y`).
///
/// # Errors
/// [`BasisError::TooFewRows`] with fewer rows than coefficients; [`BasisError::Eval`] where a
/// basis cannot be evaluated or is not finite at a row; [`BasisError::Fit`] from the
/// regression (no convergence).
pub fn fit_bases(
    bases: &[BasisTerm],
    columns: &[(&str, &[f64])],
    y: &[f64],
    opts: &BasisOptions,
) -> Result<BasisFit, BasisError> {
    let slots: Vec<Name> = columns.iter().map(|(n, _)| Name::from(*n)).collect();
    let n = y.len();
    let unknowns = bases.len() + usize::from(opts.intercept);
    if n < unknowns {
        return Err(BasisError::TooFewRows { rows: n, unknowns });
    }
    let mut design: Vec<Vec<f64>> = vec![Vec::with_capacity(bases.len() + 1); n];
    let mut point = vec![0.0; columns.len()];
    for b in bases {
        let c = Compiled::new(&b.expr, &slots).map_err(|e| BasisError::Eval {
            text: b.text.clone(),
            row: 0,
            message: e.to_string(),
        })?;
        for (i, row) in design.iter_mut().enumerate() {
            for (slot, (_, col)) in point.iter_mut().zip(columns) {
                *slot = col[i];
            }
            let v = c.eval(&point).map_err(|e| BasisError::Eval {
                text: b.text.clone(),
                row: i + 1,
                message: e.to_string(),
            })?;
            row.push(v);
        }
    }
    // The regression runs on y divided by a power of two near its largest magnitude (exact
    // in floating point), so that sums and squares of values near 1e308 do not overflow; the
    // coefficients, α and the RSS are scaled back.
    let largest = y.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let scale = if largest > 0.0 && largest.is_finite() {
        2f64.powi(largest.log2().floor() as i32)
    } else {
        1.0
    };
    let unscaled = y;
    let scaled: Vec<f64> = y.iter().map(|v| v / scale).collect();
    let y = scaled.as_slice();
    let mean = y.iter().sum::<f64>() / n.max(1) as f64;
    let tss: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    let with_ones = || -> Vec<Vec<f64>> {
        design
            .iter()
            .map(|r| {
                let mut row = Vec::with_capacity(r.len() + 1);
                if opts.intercept {
                    row.push(1.0);
                }
                row.extend_from_slice(r);
                row
            })
            .collect()
    };
    let skip = usize::from(opts.intercept);
    let split = |c: &[f64]| -> (f64, Vec<f64>) {
        if opts.intercept {
            (c[0], c[1..].to_vec())
        } else {
            (0.0, c.to_vec())
        }
    };
    let name = |j: usize| -> String {
        if opts.intercept && j == 0 {
            "1".to_string()
        } else {
            bases[j - skip].text.clone()
        }
    };
    let (intercept, coefficients, alpha, rank, collinear) = match opts.method {
        Method::Ols => {
            let f = least_squares(&Design::from_rows(&with_ones())?, y)?;
            let (c0, cs) = split(&f.coefficients);
            let collinear = f
                .collinear
                .iter()
                .map(|c| {
                    (
                        name(c.column),
                        c.combination.iter().map(|&(j, v)| (name(j), v)).collect(),
                    )
                })
                .collect();
            (c0, cs, None, Some(f.rank), collinear)
        }
        Method::Nnls => {
            let f = nnls(
                &Design::from_rows(&with_ones())?,
                y,
                &NnlsOptions::default(),
            )?;
            let (c0, cs) = split(&f.x);
            (c0, cs, None, None, Vec::new())
        }
        Method::LassoLarsCv => {
            let f = lasso_lars_cv(
                &Design::from_rows(&design)?,
                y,
                &LassoLarsCvOptions {
                    cv: opts.cv,
                    shuffle: opts.shuffle,
                    positive: opts.positive,
                    fit_intercept: opts.intercept,
                    ..LassoLarsCvOptions::default()
                },
            )?;
            (f.intercept, f.coefficients, Some(f.alpha), None, Vec::new())
        }
    };
    let rss: f64 = design
        .iter()
        .zip(y)
        .map(|(r, &yi)| {
            let p = intercept + r.iter().zip(&coefficients).map(|(a, b)| a * b).sum::<f64>();
            (yi - p) * (yi - p)
        })
        .sum();
    let r2 = if tss > 0.0 { 1.0 - rss / tss } else { f64::NAN };
    let (intercept, rss, alpha) = (
        intercept * scale,
        rss * scale * scale,
        alpha.map(|a| a * scale),
    );
    let coefficients: Vec<f64> = coefficients.iter().map(|c| c * scale).collect();
    // Never NaN or infinite coefficients: say which part a double cannot hold. (The RSS of
    // values near 1e300 may exceed the largest double and is then infinite, as it is.)
    let what = if !intercept.is_finite() || coefficients.iter().any(|c| !c.is_finite()) {
        Some("coefficients")
    } else if rss.is_nan() || (tss > 0.0 && !r2.is_finite()) {
        Some("residual sum of squares")
    } else {
        None
    };
    if let Some(what) = what {
        let magnitudes = unscaled
            .iter()
            .chain(design.iter().flatten())
            .map(|v| v.abs());
        return Err(BasisError::Fit(FitError::Range {
            what,
            smallest: magnitudes
                .clone()
                .filter(|v| *v > 0.0)
                .fold(f64::INFINITY, f64::min),
            largest: magnitudes.fold(0.0, f64::max),
        }));
    }
    Ok(BasisFit {
        terms: bases.iter().map(|b| b.text.clone()).collect(),
        coefficients,
        intercept,
        alpha,
        rss,
        r2,
        rank,
        collinear,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use diag::Advise;

    #[test]
    fn a_regression_reads_its_columns_and_fits() {
        let r = Regression::new("n; n^2", "t", BasisOptions::default()).unwrap();
        let f = r.run("t.csv", "n,t\n1,4\n2,11\n3,22\n4,37\n").unwrap();
        // t = 1 + n + 2n².
        assert!((f.intercept - 1.0).abs() < 1e-9, "{f:?}");
        assert!((f.coefficients[0] - 1.0).abs() < 1e-9 && (f.coefficients[1] - 2.0).abs() < 1e-9);
        // A column the regression names and the file lacks is told by the input naming it.
        let e = r.run("t.csv", "n,u\n1,3\n").unwrap_err();
        assert!(
            matches!(e, RegressionError::Column { key: "y", .. }),
            "{e:?}"
        );
        assert_eq!(e.input(), Some(("y", ": ")));
        assert!(e.advice().unwrap().usage);
        let e = r.run("t.csv", "m,t\n1,3\n").unwrap_err();
        assert!(
            matches!(e, RegressionError::Column { key: "basis", .. }),
            "{e:?}"
        );
        assert!(matches!(
            r.run("t.csv", "n,t\n1,abc\n"),
            Err(RegressionError::Read(_))
        ));
    }

    #[test]
    fn errors_point_at_the_function_and_say_what_to_do() {
        let e = Regression::new("n; n*+", "t", BasisOptions::default()).unwrap_err();
        assert!(e.to_string().ends_with("\n  n*+\n     ^"), "{e}");
        assert_eq!(e.advice(), None);
        let e = Regression::new(" ; ", "t", BasisOptions::default()).unwrap_err();
        assert!(e.advice().unwrap().usage);
        let r = Regression::new("log(n)", "t", BasisOptions::default()).unwrap();
        let e = r.run("t.csv", "n,t\n0,1\n1,2\n2,3\n").unwrap_err();
        assert!(
            e.to_string().starts_with("t.csv: basis function `log(n)`"),
            "{e}"
        );
        let a = e.advice().unwrap();
        assert!(
            !a.usage && a.fix.starts_with("check the basis functions"),
            "{a:?}"
        );
        let range = BasisError::Fit(FitError::Range {
            what: "coefficients",
            smallest: 1.0,
            largest: 1e300,
        });
        assert_eq!(range.advice().unwrap().fix, crate::RANGE_HELP);
        assert_eq!(diag::Choice::name(Method::LassoLarsCv), "lasso-lars-cv");
    }
}
