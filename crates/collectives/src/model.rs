//! Models of collective operations fitted to a measurement table, the way chapter 3 fits
//! them: ordinary least squares on absolute times over every cell, each candidate form
//! judged by its average prediction difference; the choice among forms by that difference
//! in leave-one-out cross-validation (or, as the thesis chose, on the fitted cells).

use serde::Serialize;

use crate::difference::Difference;
use crate::form::Form;
use crate::table::{Group, Statistic, Table};

diag::choices! {
    /// How the form of an operation's model is chosen among the candidates.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Criterion {
        /// The lowest average prediction difference on cells left out one at a time (the
        /// default: a form with more terms must earn them on data it was not fitted to).
        #[default]
        CrossValidated = "cv": "Leave-one-out cross-validation",
        /// The lowest average prediction difference on the fitted cells (the thesis' choice).
        Fitted = "fitted": "The fitted cells (the thesis' rule)",
    }
}

diag::choices! {
    /// What the least squares minimise.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Fitting {
        /// The sum of squared relative residuals ((model − t)/t)²: every cell counts alike,
        /// whatever its magnitude, as the average prediction difference judges it (the default:
        /// measurements over sizes from 1 to 10⁶ span six orders of magnitude).
        #[default]
        Relative = "relative": "Relative residuals",
        /// The sum of squared absolute residuals, as the thesis fitted (the only criterion that
        /// reproduces its equations); the large cells dominate and the small ones carry large
        /// relative differences.
        Absolute = "absolute": "Absolute residuals (the thesis)",
    }
}

/// What a fit of a table needs besides the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The forms to try (empty: every form that applies to each operation).
    pub forms: Vec<Form>,
    /// The value of a cell's repetitions the models are fitted to.
    pub statistic: Statistic,
    /// How the form is chosen.
    pub criterion: Criterion,
    /// What the least squares minimise.
    pub fitting: Fitting,
    /// The most size regimes a model may have (at least 1): an MPI library switches
    /// protocols and algorithms at message sizes (eager to rendezvous, tree to pipeline),
    /// and a form fitted per regime follows it. 0 means 1.
    pub max_regimes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            forms: Vec::new(),
            statistic: Statistic::default(),
            criterion: Criterion::default(),
            fitting: Fitting::default(),
            max_regimes: 3,
        }
    }
}

impl Options {
    /// The options for a table measured on this host (`vates probe --mpi`): each point's
    /// least disturbed repetition ([`Statistic::Min`]), since on a shared host the others
    /// carry the other programs' time slices.
    pub fn measured_here() -> Self {
        Options {
            statistic: Statistic::Min,
            ..Options::default()
        }
    }
}

/// A form's coefficients over a range of message sizes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Piece {
    /// The size where the next piece starts: this piece covers the sizes below it (`None`:
    /// every larger size). It is the smallest size measured in the next regime, as MPI
    /// libraries switch protocol at a limit that the larger messages reach (`size >=
    /// eager limit`): a size between the two regimes' measured sizes belongs to the lower.
    pub upto: Option<f64>,
    /// One coefficient per term of the form, in its order.
    pub coefficients: Vec<f64>,
}

/// One form fitted to one operation's cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The form.
    pub form: Form,
    /// The form's coefficients per size regime, by increasing size (one piece: a single
    /// regime).
    pub pieces: Vec<Piece>,
    /// The difference on the fitted cells (the thesis' "average prediction difference").
    pub fitted: Difference,
    /// The difference on each cell predicted by the fit to the others (`None` when leaving
    /// a cell out leaves too few to fit the form).
    pub cross_validated: Option<Difference>,
    /// The residual sum of squares (of the fitting's residuals: relative or absolute).
    pub rss: f64,
    /// The largest condition number of a piece's column-scaled design.
    pub condition: f64,
}

impl Candidate {
    /// The piece that covers size `d`.
    pub fn piece(&self, d: f64) -> &Piece {
        self.pieces
            .iter()
            .find(|p| p.upto.is_none_or(|u| d < u))
            .unwrap_or_else(|| self.pieces.last().expect("a candidate has a piece"))
    }

    /// The coefficients of the first (for a single regime, the only) piece.
    pub fn coefficients(&self) -> &[f64] {
        &self.pieces[0].coefficients
    }

    /// The model's time at `(p, d)` (`d` = 0 for an operation without data).
    pub fn predict(&self, p: f64, d: f64) -> f64 {
        self.form.eval(&self.piece(d).coefficients, p, d)
    }

    /// The model of the piece covering `d` as `fit` holds models (for its text, LaTeX and
    /// expression).
    pub fn model(&self, d: f64) -> fit::Model {
        self.form.model(&self.piece(d).coefficients)
    }

    /// The name of the candidate: the form's, with the number of regimes when more than
    /// one (`size ×3`).
    pub fn name(&self) -> String {
        match self.pieces.len() {
            1 => self.form.name.to_string(),
            n => format!("{} ×{n}", self.form.name),
        }
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
    /// What the least squares minimised.
    pub fitting: Fitting,
}

impl OpModel {
    /// The chosen model (the best candidate), if any form could be fitted.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }
}

/// The most cells cross-validated one at a time; more are cross-validated in ten folds.
pub const LOO_CELLS: usize = 40;

/// The most distinct sizes a search for size regimes splits (with 3 regimes, 741 splits of
/// 40 sizes, each fitted once per fold); a table with more is fitted in one regime, and the
/// forms with more regimes are listed as not fitted, with the reason.
pub const MAX_REGIME_SIZES: usize = 40;

/// Fits `form` to `group`'s cells under `stat` in `regimes` size regimes: least squares
/// on the cells' values, minimising `fitting`'s residuals, the regimes' boundaries the
/// ones of least residual.
///
/// # Errors
/// A [`Skipped`] saying why the form cannot be fitted to these cells.
pub fn fit_form(
    group: &Group,
    form: Form,
    stat: Statistic,
    fitting: Fitting,
    regimes: usize,
) -> Result<Candidate, Skipped> {
    let mut points: Vec<(f64, f64, f64)> = group
        .cells
        .iter()
        .map(|c| (f64::from(c.p), c.d.unwrap_or(0.0), c.value(stat)))
        .collect();
    points.sort_by(|a, b| a.1.total_cmp(&b.1));
    let skip = |reason: String| Skipped {
        form: form.name,
        reason,
    };
    let k = form.terms.len();
    let regimes = regimes.max(1);
    if points.len() < k * regimes {
        return Err(skip(format!(
            "{k} terms need at least {} cells; the table has {}",
            k * regimes,
            points.len()
        )));
    }
    if regimes == 1 {
        if let Some(why) = unidentifiable(form, &points) {
            return Err(skip(why));
        }
    }
    let (pieces, rss, condition) = fit_pieces(form, &points, fitting, regimes).map_err(skip)?;
    let eval = |pieces: &[Piece], p: f64, d: f64| {
        let piece = pieces
            .iter()
            .find(|x| x.upto.is_none_or(|u| d < u))
            .unwrap_or(&pieces[pieces.len() - 1]);
        form.eval(&piece.coefficients, p, d)
    };
    let fitted = Difference::of(points.iter().map(|&(p, d, t)| (eval(&pieces, p, d), t)));
    // Each cell predicted by the fit (boundaries searched again) to the others: left out one
    // at a time up to LOO_CELLS cells, in ten folds (seeded) beyond, so the cost stays
    // linear in the cells.
    let cross_validated = if points.len() > k * regimes {
        let splits = if points.len() <= LOO_CELLS {
            fit::cv::leave_one_out(points.len())
        } else {
            fit::cv::kfold_shuffled(points.len(), 10, 0x5eed)
        };
        let mut pairs = Vec::with_capacity(points.len());
        for split in &splits {
            let train: Vec<(f64, f64, f64)> = split.train.iter().map(|&i| points[i]).collect();
            match fit_pieces(form, &train, fitting, regimes) {
                Ok((c, _, _)) => pairs.extend(split.test.iter().map(|&i| {
                    let (p, d, t) = points[i];
                    (eval(&c, p, d), t)
                })),
                Err(_) => break,
            }
        }
        (pairs.len() == points.len()).then(|| Difference::of(pairs.into_iter()))
    } else {
        None
    };
    Ok(Candidate {
        form,
        pieces,
        fitted,
        cross_validated,
        rss,
        condition,
    })
}

/// Why `form` cannot be told apart on `points` in plain words (one process count for a
/// form with terms in p, one size for a form with terms in d), or `None`.
fn unidentifiable(form: Form, points: &[(f64, f64, f64)]) -> Option<String> {
    use crate::form::Term;
    let distinct = |f: fn(&(f64, f64, f64)) -> f64| {
        let mut v: Vec<f64> = points.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let ps = distinct(|x| x.0);
    let ds = distinct(|x| x.1);
    let p_terms = form
        .terms
        .iter()
        .any(|t| matches!(t, Term::P | Term::LogP | Term::PD | Term::DLogP));
    if p_terms && ps.len() < 2 {
        return Some(format!(
            "its terms in p need two process counts or more; the table has p = {} only",
            ps[0]
        ));
    }
    if form.has_size() && ds.len() < 2 {
        return Some(format!(
            "its terms in d need two sizes or more; the table has d = {} only",
            ds[0]
        ));
    }
    None
}

/// The pieces of least residual for `regimes` regimes of `points` (sorted by size): every
/// split of the distinct sizes into `regimes` runs of consecutive sizes, each with more
/// cells than the form has terms and with two sizes or more if the form has terms in d.
fn fit_pieces(
    form: Form,
    points: &[(f64, f64, f64)],
    fitting: Fitting,
    regimes: usize,
) -> Result<(Vec<Piece>, f64, f64), String> {
    if regimes == 1 {
        let (c, rss, cond) = solve(form, points, fitting)?;
        return Ok((
            vec![Piece {
                upto: None,
                coefficients: c,
            }],
            rss,
            cond,
        ));
    }
    let mut sizes: Vec<f64> = points.iter().map(|x| x.1).collect();
    sizes.dedup();
    let k = form.terms.len();
    let min_sizes = if form.has_size() { 2 } else { 1 };
    let mut best: Option<(Vec<Piece>, f64, f64)> = None;
    type Fit = Option<(Vec<f64>, f64, f64)>;
    let mut memo: std::collections::HashMap<(usize, usize), Fit> = std::collections::HashMap::new();
    // Cuts after distinct-size indices, increasing (at most MAX_REGIME_SIZES sizes: 2 cuts
    // are at most 741 splits of 780 runs).
    let mut cuts = vec![0usize; regimes - 1];
    let n = sizes.len();
    fn next(cuts: &mut [usize], n: usize) -> bool {
        // The next increasing combination of cut positions in 1..n.
        let r = cuts.len();
        for i in (0..r).rev() {
            if cuts[i] < n - (r - i) {
                cuts[i] += 1;
                for j in i + 1..r {
                    cuts[j] = cuts[j - 1] + 1;
                }
                return true;
            }
        }
        false
    }
    for (i, c) in cuts.iter_mut().enumerate() {
        *c = i + 1;
    }
    if n < regimes {
        return Err(format!("{regimes} regimes need {regimes} sizes or more"));
    }
    loop {
        let mut bounds = vec![0];
        bounds.extend(cuts.iter().copied());
        bounds.push(n);
        let mut pieces = Vec::with_capacity(regimes);
        let (mut rss, mut cond, mut ok) = (0.0, 1.0f64, true);
        for w in bounds.windows(2) {
            let (lo, hi) = (sizes[w[0]], sizes[w[1] - 1]);
            let part: Vec<(f64, f64, f64)> = points
                .iter()
                .copied()
                .filter(|x| x.1 >= lo && x.1 <= hi)
                .collect();
            if part.len() <= k || w[1] - w[0] < min_sizes {
                ok = false;
                break;
            }
            // A run of sizes is fitted once, whatever split it is part of.
            let fitted = memo
                .entry((w[0], w[1]))
                .or_insert_with(|| solve(form, &part, fitting).ok());
            match fitted.clone() {
                Some((c, r, kappa)) => {
                    rss += r;
                    cond = cond.max(kappa);
                    let upto = (w[1] < n).then(|| sizes[w[1]]);
                    pieces.push(Piece {
                        upto,
                        coefficients: c,
                    });
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && best.as_ref().is_none_or(|b| rss < b.1) {
            best = Some((pieces, rss, cond));
        }
        if !next(&mut cuts, n) {
            break;
        }
    }
    best.ok_or_else(|| {
        format!("no split of the sizes into {regimes} regimes leaves each enough cells to fit")
    })
}

/// Least squares of `form` on `(p, d, time)` points: coefficients, the residual sum of
/// squares (of `fitting`'s residuals) and the condition, or why not.
fn solve(
    form: Form,
    points: &[(f64, f64, f64)],
    fitting: Fitting,
) -> Result<(Vec<f64>, f64, f64), String> {
    // A relative fit is the absolute fit of every row divided by its time.
    let weight = |t: f64| match fitting {
        Fitting::Relative => 1.0 / t,
        Fitting::Absolute => 1.0,
    };
    let rows: Vec<Vec<f64>> = points
        .iter()
        .map(|&(p, d, t)| form.row(p, d).into_iter().map(|v| v * weight(t)).collect())
        .collect();
    let y: Vec<f64> = points.iter().map(|&(_, _, t)| t * weight(t)).collect();
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
        match fit_form(&group, form, opts.statistic, opts.fitting, 1) {
            Ok(c) => candidates.push(c),
            Err(s) => {
                skipped.push(s);
                continue;
            }
        }
        // More regimes only in size, for a form with terms in d, over a bounded number of
        // sizes.
        let sizes = {
            let mut d: Vec<f64> = group.cells.iter().filter_map(|c| c.d).collect();
            d.sort_by(f64::total_cmp);
            d.dedup();
            d.len()
        };
        if form.has_size() && opts.max_regimes > 1 && sizes > MAX_REGIME_SIZES {
            skipped.push(Skipped {
                form: form.name,
                reason: format!(
                    "in more than one size regime: the table has {sizes} sizes; a search for \
                     regimes splits at most {MAX_REGIME_SIZES}"
                ),
            });
        } else if form.has_size() {
            for r in 2..=opts.max_regimes {
                if let Ok(c) = fit_form(&group, form, opts.statistic, opts.fitting, r) {
                    candidates.push(c);
                }
            }
        }
    }
    // Best first; ties go to the form with fewer terms (the forms are listed that way).
    candidates.sort_by(|a, b| {
        a.score(opts.criterion)
            .total_cmp(&b.score(opts.criterion))
            .then((a.form.terms.len() * a.pieces.len()).cmp(&(b.form.terms.len() * b.pieces.len())))
    });
    OpModel {
        group,
        candidates,
        skipped,
        statistic: opts.statistic,
        criterion: opts.criterion,
        fitting: opts.fitting,
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

/// An operation no form could be fitted to.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("no form could be fitted to {label}: {why}")]
pub struct Unfitted {
    /// The operation (its group's label).
    pub label: String,
    /// Why each form was skipped.
    pub why: String,
}

impl diag::Advise for Unfitted {
    /// More points, or fewer operations.
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::fix(
            "measure more points (process counts and sizes), or choose the operations with {op}",
        ))
    }
}

/// [`fit_table`], refusing a table with an operation no form fits.
///
/// # Errors
/// [`Unfitted`], the first such operation.
pub fn fit_all(table: &Table, opts: &Options) -> Result<Vec<OpModel>, Unfitted> {
    let models = fit_table(table, opts);
    if let Some(m) = models.iter().find(|m| m.best().is_none()) {
        let why: Vec<String> = m
            .skipped
            .iter()
            .map(|s| format!("{}: {}", s.form, s.reason))
            .collect();
        return Err(Unfitted {
            label: m.group.label(),
            why: why.join("; "),
        });
    }
    Ok(models)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::read_csv;

    #[test]
    fn a_table_no_form_fits_is_refused_with_the_reasons() {
        use diag::Advise;
        let t = read_csv("t.csv", "op,p,d,time\nbroadcast,2,1,1\n").unwrap();
        let e = fit_all(&t, &Options::default()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("no form could be fitted to broadcast: size: "),
            "{e}"
        );
        assert!(e.advice().unwrap().fix.ends_with("{op}"));
    }

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
        for (c, want) in best.coefficients().iter().zip([50.0, 3.0, 0.5, 0.25]) {
            assert!((c - want).abs() < 1e-8, "{c} {want}");
        }
        assert!(best.fitted.mean < 1e-9);
        assert!(best.cross_validated.unwrap().mean < 1e-9);
    }

    fn table_with_one_p() -> Table {
        read_csv(
            "t",
            "op,p,d,time\nx,2,1,5\nx,2,10,6\nx,2,100,9\nx,2,1000,30\nx,2,10000,300\n",
        )
        .unwrap()
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
        let ps = table_with_one_p();
        let m = &fit_table(&ps, &Options::default())[0];
        assert!(
            m.skipped.iter().any(|s| s.reason.contains("p = 2 only")),
            "{:?}",
            m.skipped
        );
    }
}
