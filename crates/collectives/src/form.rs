//! The symbolic forms of chapter 3 (eqs. 3.6–3.20): sums of a few terms in the process
//! count `p` and the message size `d`, with `log` meaning `log2`.

use fit::pmnf::{Factor, Term as Block};
use fit::{Basis, Model};
use serde::Serialize;

/// A term of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Term {
    /// `1`: the start-up cost.
    One,
    /// `p`: a cost per process (direct sends, a central server).
    P,
    /// `log2 p`: a cost per level of a tree.
    LogP,
    /// `d`: a cost per data item, independent of `p`.
    D,
    /// `p·d`: a cost per item sent to or from each process.
    PD,
    /// `d·log2 p`: a cost per item and tree level.
    DLogP,
}

impl Term {
    /// The term's value at `(p, d)` (`d` = 0 for an operation without data).
    pub fn eval(self, p: f64, d: f64) -> f64 {
        match self {
            Term::One => 1.0,
            Term::P => p,
            Term::LogP => p.log2(),
            Term::D => d,
            Term::PD => p * d,
            Term::DLogP => d * p.log2(),
        }
    }

    /// The term as written in an equation: `p`, `log2(p)`, `p*d`.
    pub fn text(self) -> &'static str {
        match self {
            Term::One => "1",
            Term::P => "p",
            Term::LogP => "log2(p)",
            Term::D => "d",
            Term::PD => "p*d",
            Term::DLogP => "d*log2(p)",
        }
    }

    /// Whether the term involves `d`.
    pub fn has_size(self) -> bool {
        matches!(self, Term::D | Term::PD | Term::DLogP)
    }

    /// The term as a basis function of `fit` over the parameters `[p, d]`, or `None` for
    /// the constant.
    fn basis(self) -> Option<Basis> {
        let p = |poly: i32, log: i32| Factor {
            param: 0,
            term: Block::new(poly, 1, log),
        };
        let d = Factor {
            param: 1,
            term: Block::new(1, 1, 0),
        };
        Some(Basis::Pmnf(match self {
            Term::One => return None,
            Term::P => vec![p(1, 0)],
            Term::LogP => vec![p(0, 1)],
            Term::D => vec![d],
            Term::PD => vec![p(1, 0), d],
            Term::DLogP => vec![p(0, 1), d],
        }))
    }
}

/// A named form: the terms a model of it sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Form {
    /// Its name on the command line and in reports.
    pub name: &'static str,
    /// Its terms; the constant, when there is one, first.
    pub terms: &'static [Term],
    /// Where it comes from.
    pub origin: &'static str,
}

/// The forms, operations without data first, each group by increasing number of terms.
pub const FORMS: [Form; 6] = [
    Form {
        name: "constant",
        terms: &[Term::One],
        origin: "eq. 3.6 (hardware barrier)",
    },
    Form {
        name: "log",
        terms: &[Term::One, Term::LogP],
        origin: "eq. 3.7 (process tree)",
    },
    Form {
        name: "linear",
        terms: &[Term::One, Term::P],
        origin: "eq. 3.8 (central server)",
    },
    Form {
        name: "size",
        terms: &[Term::One, Term::D],
        origin: "start-up and bandwidth (ch. 4), independent of p",
    },
    Form {
        name: "log-size",
        terms: &[Term::One, Term::LogP, Term::D, Term::DLogP],
        origin: "eqs. 3.9-3.11, 3.17 (broadcast tree)",
    },
    Form {
        name: "linear-size",
        terms: &[Term::One, Term::P, Term::D, Term::PD],
        origin: "eqs. 3.12-3.16, 3.18-3.20 (direct sends)",
    },
];

/// A name that is not a form's.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("`{name}`: the forms are {}{hint}", Form::names().join(", "))]
pub struct UnknownForm {
    /// The name.
    pub name: String,
    /// `; did you mean …?`, or empty.
    pub hint: String,
}

impl diag::Advise for UnknownForm {
    /// None: a usage error whose message lists the forms.
    fn advice(&self) -> Option<diag::Advice> {
        None
    }
}

impl Form {
    /// The form by name.
    pub fn named(name: &str) -> Option<Form> {
        FORMS.iter().copied().find(|f| f.name == name)
    }

    /// The forms named `names`, in order.
    ///
    /// # Errors
    /// [`UnknownForm`], the first name that is not a form's.
    pub fn all_named(names: &[String]) -> Result<Vec<Form>, UnknownForm> {
        names
            .iter()
            .map(|name| {
                Form::named(name).ok_or_else(|| UnknownForm {
                    name: name.clone(),
                    hint: crate::did_you_mean(name, Form::names()),
                })
            })
            .collect()
    }

    /// The names of every form.
    pub fn names() -> Vec<&'static str> {
        FORMS.iter().map(|f| f.name).collect()
    }

    /// Whether the form involves the message size.
    pub fn has_size(&self) -> bool {
        self.terms.iter().any(|t| t.has_size())
    }

    /// The forms that apply to an operation with data (`with_size`) or without: the size
    /// forms, or the others.
    pub fn applicable(with_size: bool) -> Vec<Form> {
        FORMS
            .iter()
            .copied()
            .filter(|f| f.has_size() == with_size)
            .collect()
    }

    /// The design row of the point `(p, d)`.
    pub fn row(&self, p: f64, d: f64) -> Vec<f64> {
        self.terms.iter().map(|t| t.eval(p, d)).collect()
    }

    /// `Σ coefficients[k]·terms[k]` at `(p, d)`.
    pub fn eval(&self, coefficients: &[f64], p: f64, d: f64) -> f64 {
        self.terms
            .iter()
            .zip(coefficients)
            .map(|(t, c)| c * t.eval(p, d))
            .sum()
    }

    /// The form with these coefficients as text: `56.10779 + 119.7135*p + 0.017849*d`,
    /// coefficients to seven significant digits, in the syntax `expr::parse` reads.
    pub fn text(&self, coefficients: &[f64]) -> String {
        let mut s = String::new();
        for (k, (t, &v)) in self.terms.iter().zip(coefficients).enumerate() {
            let c = trace::text::num(v.abs());
            let term = if *t == Term::One {
                c
            } else {
                format!("{c}*{}", t.text())
            };
            match (k, v < 0.0) {
                (0, true) => s.push_str(&format!("-{term}")),
                (0, false) => s.push_str(&term),
                (_, true) => s.push_str(&format!(" - {term}")),
                (_, false) => s.push_str(&format!(" + {term}")),
            }
        }
        s
    }

    /// The form with these coefficients as a `fit` model over `[p, d]` (its text, LaTeX
    /// and expression come from `fit`).
    pub fn model(&self, coefficients: &[f64]) -> Model {
        let mut m = Model::constant(0.0);
        for (t, &c) in self.terms.iter().zip(coefficients) {
            match t.basis() {
                None => m.constant += c,
                Some(basis) => m.terms.push(fit::ModelTerm {
                    coefficient: c,
                    basis,
                }),
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_named() {
        let f = Form::all_named(&["size".into(), "log".into()]).unwrap();
        assert_eq!(
            f.iter().map(|f| f.name).collect::<Vec<_>>(),
            ["size", "log"]
        );
        let e = Form::all_named(&["sise".into()]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("`sise`: the forms are constant, log"),
            "{e}"
        );
        assert!(e.to_string().ends_with("did you mean `size`?"), "{e}");
    }

    #[test]
    fn the_fit_model_evaluates_as_the_form() {
        let names = ["p".to_string(), "d".to_string()];
        for f in FORMS {
            let c: Vec<f64> = (0..f.terms.len()).map(|k| 1.5 + k as f64).collect();
            let m = f.model(&c);
            for (p, d) in [(2.0, 10.0), (16.0, 1000.0), (3.0, 0.0)] {
                let a = f.eval(&c, p, d);
                let b = m.eval(&[p, d]);
                assert!((a - b).abs() <= 1e-12 * a.abs(), "{} {a} {b}", f.name);
            }
            assert!(!m.display(&names).to_string().is_empty());
        }
        assert_eq!(Form::applicable(false).len(), 3);
        assert_eq!(Form::applicable(true).len(), 3);
    }
}
