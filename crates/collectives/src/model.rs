//! Models of collective operations fitted to a measurement table, the way chapter 3 fits
//! them: ordinary least squares on absolute times over every cell, each candidate form
//! judged by its average prediction difference; the choice among forms by that difference
//! in leave-one-out cross-validation (or, as the thesis chose, on the fitted cells).

use serde::Serialize;

use crate::difference::Difference;
use crate::form::Form;
use crate::table::{Group, Statistic, Table};

/// How the form of an operation's model is chosen among the candidates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Criterion {
    /// The lowest average prediction difference on cells left out one at a time (the
    /// default: a form with more terms must earn them on data it was not fitted to).
    #[default]
    CrossValidated,
    /// The lowest average prediction difference on the fitted cells (the thesis' choice).
    Fitted,
}

/// What a fit of a table needs besides the table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// The forms to try (empty: every form that applies to each operation).
    pub forms: Vec<Form>,
    /// The value of a cell's repetitions the models are fitted to.
    pub statistic: Statistic,
    /// How the form is chosen.
    pub criterion: Criterion,
}

/// One form fitted to one operation's cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The form.
    pub form: Form,
    /// One coefficient per term of the form, in its order.
    pub coefficients: Vec<f64>,
    /// The difference on the fitted cells (the thesis' "average prediction difference").
    pub fitted: Difference,
    /// The difference on each cell predicted by the fit to the others (`None` when leaving
    /// a cell out leaves too few to fit the form).
    pub cross_validated: Option<Difference>,
    /// The residual sum of squares, in squared time units.
    pub rss: f64,
    /// The condition number of the column-scaled design.
    pub condition: f64,
}

impl Candidate {
    /// The model's time at `(p, d)` (`d` = 0 for an operation without data).
    pub fn predict(&self, p: f64, d: f64) -> f64 {
        self.form.eval(&self.coefficients, p, d)
    }

    /// The model as `fit` holds models (for its text, LaTeX and expression).
    pub fn model(&self) -> fit::Model {
        self.form.model(&self.coefficients)
    }

    /// The score `criterion` ranks by (infinite when it cannot be computed).
    pub fn score(&self, criterion: Criterion) -> f64 {
        match criterion {
            Criterion::Fitted => self.fitted.mean,
            Criterion::CrossValidated => self.cross_validated.map_or(f64::INFINITY, |d| d.mean),
        }
    }
}

/// A form that could not be fitted to an operation's cells, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skipped {
    /// The form.
    pub form: &'static str,
    /// Why: fewer cells than terms, or terms the points cannot tell apart.
    pub reason: String,
}

/// The models of one operation (one group of the table).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpModel {
    /// The operation, platform and time-sharing, with its cells.
    pub group: Group,
    /// The forms fitted, best first under the criterion.
    pub candidates: Vec<Candidate>,
    /// The forms that could not be fitted.
    pub skipped: Vec<Skipped>,
    /// The statistic the cells stand for.
    pub statistic: Statistic,
    /// The criterion that ranked the candidates.
    pub criterion: Criterion,
}

impl OpModel {
    /// The chosen model (the best candidate), if any form could be fitted.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }
}

/// Fits `form` to `group`'s cells under `stat`: OLS on the cells' values.
///
/// # Errors
/// A [`Skipped`] saying why the form cannot be fitted to these cells.
pub fn fit_form(group: &Group, form: Form, stat: Statistic) -> Result<Candidate, Skipped> {
    let points: Vec<(f64, f64, f64)> = group
        .cells
        .iter()
        .map(|c| (f64::from(c.p), c.d.unwrap_or(0.0), c.value(stat)))
        .collect();
    let skip = |reason: String| Skipped {
        form: form.name,
        reason,
    };
    let k = form.terms.len();
    if points.len() < k {
        return Err(skip(format!(
            "{} terms need at least {k} cells; the table has {}",
            k,
            points.len()
        )));
    }
    let (coefficients, rss, condition) = solve(form, &points).map_err(skip)?;
    let fitted = Difference::of(
        points
            .iter()
            .map(|&(p, d, t)| (form.eval(&coefficients, p, d), t)),
    );
    // Leave-one-out: each cell predicted by the fit to the others.
    let cross_validated = if points.len() > k {
        let mut pairs = Vec::with_capacity(points.len());
        for i in 0..points.len() {
            let rest: Vec<(f64, f64, f64)> = points
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &x)| x)
                .collect();
            match solve(form, &rest) {
                Ok((c, _, _)) => {
                    let (p, d, t) = points[i];
                    pairs.push((form.eval(&c, p, d), t));
                }
                Err(_) => break,
            }
        }
        (pairs.len() == points.len()).then(|| Difference::of(pairs.into_iter()))
    } else {
        None
    };
    Ok(Candidate {
        form,
        coefficients,
        fitted,
        cross_validated,
        rss,
        condition,
    })
}

/// OLS of `form` on `(p, d, time)` points: coefficients, RSS and condition, or why not.
fn solve(form: Form, points: &[(f64, f64, f64)]) -> Result<(Vec<f64>, f64, f64), String> {
    let rows: Vec<Vec<f64>> = points.iter().map(|&(p, d, _)| form.row(p, d)).collect();
    let y: Vec<f64> = points.iter().map(|&(_, _, t)| t).collect();
    let design = fit::Design::from_rows(&rows).map_err(|e| e.to_string())?;
    let ls = fit::least_squares(&design, &y).map_err(|e| e.to_string())?;
    if ls.rank < form.terms.len() {
        let which: Vec<&str> = ls
            .collinear
            .iter()
            .map(|c| form.terms[c.column].text())
            .collect();
        return Err(format!(
            "the points cannot tell its terms apart ({} equals a combination of the others)",
            which.join(", ")
        ));
    }
    Ok((ls.coefficients, ls.rss, ls.condition))
}

/// Fits every applicable form (or `opts.forms`) to one group and ranks them.
pub fn fit_group(group: Group, opts: &Options) -> OpModel {
    let with_size = group.has_size();
    let forms: Vec<Form> = if opts.forms.is_empty() {
        Form::applicable(with_size)
    } else {
        opts.forms.clone()
    };
    let mut candidates = Vec::new();
    let mut skipped = Vec::new();
    for form in forms {
        if form.has_size() && !with_size {
            skipped.push(Skipped {
                form: form.name,
                reason: "it has terms in d, and the operation has no message size".into(),
            });
            continue;
        }
        match fit_form(&group, form, opts.statistic) {
            Ok(c) => candidates.push(c),
            Err(s) => skipped.push(s),
        }
    }
    // Best first; ties go to the form with fewer terms (the forms are listed that way).
    candidates.sort_by(|a, b| {
        a.score(opts.criterion)
            .total_cmp(&b.score(opts.criterion))
            .then(a.form.terms.len().cmp(&b.form.terms.len()))
    });
    OpModel {
        group,
        candidates,
        skipped,
        statistic: opts.statistic,
        criterion: opts.criterion,
    }
}

/// Fits every operation of `table` (each platform and time-sharing apart).
pub fn fit_table(table: &Table, opts: &Options) -> Vec<OpModel> {
    table
        .groups()
        .into_iter()
        .map(|g| fit_group(g, opts))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::read_csv;

    #[test]
    fn recovers_an_exact_linear_size_model_and_prefers_it() {
        let mut text = String::from("op,p,d,time\n");
        for p in [2u32, 4, 8, 16] {
            for d in [1.0, 10.0, 100.0, 1000.0] {
                let t = 50.0 + 3.0 * f64::from(p) + 0.5 * d + 0.25 * f64::from(p) * d;
                text.push_str(&format!("scatter,{p},{d},{t}\n"));
            }
        }
        let table = read_csv("t", &text).unwrap();
        let models = fit_table(&table, &Options::default());
        assert_eq!(models.len(), 1);
        let best = models[0].best().unwrap();
        assert_eq!(best.form.name, "linear-size");
        for (c, want) in best.coefficients.iter().zip([50.0, 3.0, 0.5, 0.25]) {
            assert!((c - want).abs() < 1e-8, "{c} {want}");
        }
        assert!(best.fitted.mean < 1e-9);
        assert!(best.cross_validated.unwrap().mean < 1e-9);
    }

    #[test]
    fn a_single_process_count_cannot_fit_p_terms() {
        let table = read_csv("t", "op,p,d,time\nbarrier,2,,5\nbarrier,2,,6\n").unwrap();
        let m = &fit_table(&table, &Options::default())[0];
        assert_eq!(m.best().unwrap().form.name, "constant");
        assert_eq!(m.skipped.len(), 2);
        assert!(
            m.skipped[0].reason.contains("at least 2 cells"),
            "{:?}",
            m.skipped
        );
    }
}
