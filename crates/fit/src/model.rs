//! Measurements and the models fitted to them: a constant plus coefficients times basis
//! functions, with the quality figures of the fit.

use std::fmt;

use crate::pmnf::Factor;

/// The measurements at one point of the parameter space: its repetitions.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The parameters' values, one per parameter.
    pub point: Vec<f64>,
    /// The measured values (repetitions, at least one).
    pub values: Vec<f64>,
}

impl Measurement {
    /// A measurement of one parameter.
    pub fn one(x: f64, values: Vec<f64>) -> Self {
        Measurement {
            point: vec![x],
            values,
        }
    }

    /// The mean of the repetitions (NaN without any).
    pub fn mean(&self) -> f64 {
        self.values.iter().sum::<f64>() / self.values.len() as f64
    }
}

/// A basis function of a model's term.
#[derive(Clone, Debug, PartialEq)]
pub enum Basis {
    /// A product of PMNF factors, one per parameter it involves.
    Pmnf(Vec<Factor>),
    /// A function a user wrote (`2^x`, `x^log2(7)`).
    User(UserBasis),
}

/// A basis function a user wrote: any expression of the parameters, compiled.
#[derive(Clone, Debug)]
pub struct UserBasis {
    /// As written.
    pub text: String,
    /// The expression.
    pub expr: expr::Expr,
    compiled: std::sync::Arc<expr::compile::Compiled>,
    params: Vec<usize>,
}

impl PartialEq for UserBasis {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.expr == other.expr
    }
}

impl UserBasis {
    /// Reads `text`, an expression of the parameters `names`.
    ///
    /// # Errors
    /// A message (for a person) when the text does not parse or uses a name that is not a
    /// parameter.
    pub fn new(text: &str, names: &[String]) -> Result<UserBasis, String> {
        let text = text.trim();
        let e = expr::parse(text).map_err(|e| format!("`{text}`: {e}"))?;
        let mut params = Vec::new();
        for v in e.free_vars() {
            match names.iter().position(|n| **n == *v) {
                Some(i) => params.push(i),
                None => {
                    let hint =
                        diag::did_you_mean(&diag::suggest(&v, names.iter().map(String::as_str)))
                            .unwrap_or_else(|| format!("the parameters are {}", names.join(", ")));
                    return Err(format!(
                        "`{text}` uses `{v}`, which is not a parameter; {hint}"
                    ));
                }
            }
        }
        let slots: Vec<expr::Name> = names.iter().map(|n| expr::Name::from(n.as_str())).collect();
        let compiled =
            expr::compile::Compiled::new(&e, &slots).map_err(|err| format!("`{text}`: {err}"))?;
        Ok(UserBasis {
            text: text.to_string(),
            expr: e,
            compiled: std::sync::Arc::new(compiled),
            params,
        })
    }

    /// The value at `point` (NaN where the expression is undefined).
    pub fn eval(&self, point: &[f64]) -> f64 {
        self.compiled.eval(point).unwrap_or(f64::NAN)
    }

    /// The local growth exponent at large values (every parameter 2^20 → 2^21), as a
    /// polynomial order for ranking.
    fn growth(&self, dims: usize) -> (f64, f64) {
        let at = |x: f64| self.eval(&vec![x; dims]);
        let (a, b) = (at(1_048_576.0), at(2_097_152.0));
        if b.is_infinite() && b > 0.0 {
            // Faster than any power (an exponential such as 2^p).
            return (f64::INFINITY, 0.0);
        }
        let g = (b / a).ln() / std::f64::consts::LN_2;
        if g.is_finite() {
            (g, 0.0)
        } else {
            (0.0, 0.0)
        }
    }
}

impl Basis {
    /// The basis function's value at `point`.
    pub fn eval(&self, point: &[f64]) -> f64 {
        match self {
            Basis::Pmnf(factors) => factors.iter().map(|f| f.eval(point)).product(),
            Basis::User(u) => u.eval(point),
        }
    }

    /// The parameters the basis function involves.
    pub fn params(&self) -> Vec<usize> {
        match self {
            Basis::Pmnf(factors) => factors.iter().map(|f| f.param).collect(),
            Basis::User(u) => u.params.clone(),
        }
    }

    /// Growth order as every parameter → ∞: the sum over factors of the polynomial
    /// exponents, then of the log exponents (for ranking models by asymptotic cost).
    pub fn growth(&self) -> (f64, f64) {
        match self {
            Basis::Pmnf(factors) => factors.iter().fold((0.0, 0.0), |(p, l), f| {
                (p + f.term.poly.value(), l + f.term.log.value())
            }),
            Basis::User(u) => u.growth(u.compiled.slots().len()),
        }
    }

    /// The basis function in Extra-P's notation with the parameters' `names`.
    pub fn display<'a>(&'a self, names: &'a [String]) -> impl fmt::Display + 'a {
        Named { item: self, names }
    }
}

/// A basis function or model shown with the parameters' names.
struct Named<'a, T> {
    item: &'a T,
    names: &'a [String],
}

impl fmt::Display for Named<'_, Basis> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.item {
            Basis::Pmnf(factors) => {
                for (i, fac) in factors.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" * ")?;
                    }
                    let name = self.names.get(fac.param).map_or("?", String::as_str);
                    write!(f, "{}", fac.term.display(name))?;
                }
                Ok(())
            }
            Basis::User(u) => write!(f, "({})", u.text),
        }
    }
}

/// A coefficient times a basis function.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelTerm {
    /// The coefficient.
    pub coefficient: f64,
    /// The basis function.
    pub basis: Basis,
}

/// `constant + Σ coefficient·basis`.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The constant.
    pub constant: f64,
    /// The terms (none: a constant model).
    pub terms: Vec<ModelTerm>,
}

impl Model {
    /// The constant model.
    pub fn constant(c: f64) -> Self {
        Model {
            constant: c,
            terms: Vec::new(),
        }
    }

    /// `coefficients[0] + Σ coefficients[k+1]·bases[k]`.
    pub fn from_coefficients(bases: &[Basis], coefficients: &[f64]) -> Self {
        Model {
            constant: coefficients.first().copied().unwrap_or(0.0),
            terms: bases
                .iter()
                .zip(coefficients.iter().skip(1))
                .map(|(b, &c)| ModelTerm {
                    coefficient: c,
                    basis: b.clone(),
                })
                .collect(),
        }
    }

    /// The model times `s` (its constant and coefficients scaled).
    pub fn scaled(&self, s: f64) -> Model {
        Model {
            constant: self.constant * s,
            terms: self
                .terms
                .iter()
                .map(|t| ModelTerm {
                    coefficient: t.coefficient * s,
                    basis: t.basis.clone(),
                })
                .collect(),
        }
    }

    /// The model's value at `point`.
    pub fn eval(&self, point: &[f64]) -> f64 {
        self.constant
            + self
                .terms
                .iter()
                .map(|t| t.coefficient * t.basis.eval(point))
                .sum::<f64>()
    }

    /// The fastest-growing term's growth order among the terms that add (positive
    /// coefficients); `(0, 0)` for a constant or decreasing model.
    pub fn growth(&self) -> (f64, f64) {
        self.terms
            .iter()
            .filter(|t| t.coefficient > 0.0)
            .map(|t| t.basis.growth())
            .fold((0.0, 0.0), |a, b| if b > a { b } else { a })
    }

    /// The model as an [`expr::Expr`] over the parameters `names`, coefficients as the exact
    /// rationals of their `f64` values: it evaluates (exactly, in `f64`, compiled) to what
    /// [`Model::eval`] gives.
    pub fn to_expr(&self, names: &[String]) -> expr::Expr {
        use expr::{Expr, Rational};
        let num = |v: f64| Rational::from_float(v).map_or_else(Expr::zero, Expr::Num);
        let mut sum = vec![num(self.constant)];
        for t in &self.terms {
            let factors = match &t.basis {
                Basis::Pmnf(f) => f,
                Basis::User(u) => {
                    sum.push(Expr::Mul(vec![num(t.coefficient), u.expr.clone()]));
                    continue;
                }
            };
            let mut prod = vec![num(t.coefficient)];
            for f in factors {
                let x = Expr::var(names.get(f.param).map_or("?", String::as_str));
                let (p, l) = (f.term.poly, f.term.log);
                if !p.is_zero() {
                    prod.push(if p.den() == 1 {
                        Expr::pow(x.clone(), p.num())
                    } else {
                        Expr::power(x.clone(), Expr::ratio(p.num().into(), p.den().into()))
                    });
                }
                if !l.is_zero() {
                    let lg = Expr::log2(x);
                    prod.push(if l.den() == 1 {
                        Expr::pow(lg, l.num())
                    } else {
                        Expr::power(lg, Expr::ratio(l.num().into(), l.den().into()))
                    });
                }
            }
            sum.push(Expr::Mul(prod));
        }
        Expr::Add(sum)
    }

    /// The model in Extra-P's notation: `2.8 + 0.48 * p^(5/4) * log2(p)^(1)`.
    pub fn display<'a>(&'a self, names: &'a [String]) -> impl fmt::Display + 'a {
        Named { item: self, names }
    }
}

impl fmt::Display for Named<'_, Model> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.item.constant)?;
        for t in &self.item.terms {
            write!(f, " + {} * {}", t.coefficient, t.basis.display(self.names))?;
        }
        Ok(())
    }
}

/// How well a model fits its measurements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quality {
    /// Residual sum of squares against the measurements' means.
    pub rss: f64,
    /// Symmetric mean absolute percentage error, in percent:
    /// `100/n · Σ 2|p − a|/(|a| + |p|)`.
    pub smape: f64,
    /// Adjusted R².
    pub adjusted_r2: f64,
    /// The cross-validation error the search chose by, in percent, if it used one: the
    /// root mean square relative leave-one-out error (`vates`) or the leave-one-out SMAPE
    /// (`extrap`).
    pub cv: Option<f64>,
}

/// A model with the quality of its fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The model.
    pub model: Model,
    /// Its quality.
    pub quality: Quality,
}

impl Fitted {
    /// The fit of the data times `s`: the model scaled, the RSS by `s²` (SMAPE, adjusted R²
    /// and the relative cross-validation error do not change).
    pub fn scaled(&self, s: f64) -> Fitted {
        Fitted {
            model: self.model.scaled(s),
            quality: Quality {
                rss: self.quality.rss * s * s,
                ..self.quality
            },
        }
    }
}

/// SMAPE in percent of `predicted` against `actual`, terms with a zero denominator left
/// out of the sum but counted in n.
pub(crate) fn smape(actual: &[f64], predicted: &[f64]) -> f64 {
    let n = actual.len().max(1) as f64;
    actual
        .iter()
        .zip(predicted)
        .filter(|(a, p)| a.abs() + p.abs() != 0.0)
        .map(|(a, p)| 2.0 * (p - a).abs() / (a.abs() + p.abs()))
        .sum::<f64>()
        * 100.0
        / n
}
