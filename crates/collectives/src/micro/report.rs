//! A fragment's micro-analysis as people and programs read it: its counts of the nine
//! operations (Table 2-6's form) and flops (Table 2-10's), evaluated at a point, and its
//! predicted time on a platform (Eq 2.2).

use serde::Serialize;
use trace::text::{num, Align, TextTable};

use super::{Fragment, OpTimes, OPS};

/// The JSON document of `vates collectives count`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountReport {
    /// The fragment's name.
    pub fragment: String,
    /// Its parameters (the names its loop bounds read).
    pub parameters: Vec<String>,
    /// Per operation: its name, its symbolic count and the count at the point.
    pub counts: Vec<OpCount>,
    /// The floating-point operations, symbolic and at the point.
    pub flops: OpCount,
    /// The point, if one was given.
    pub point: Vec<(String, f64)>,
    /// The predicted time at the point, in seconds, and the platform whose operation times
    /// gave it.
    pub prediction: Option<Prediction>,
}

/// One operation's count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpCount {
    /// The operation (`loopoh`, `loadR`, …; `flops`).
    pub op: String,
    /// The count as an expression in the parameters.
    pub symbolic: String,
    /// The count at the point.
    pub value: Option<f64>,
}

/// A predicted time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prediction {
    /// The platform.
    pub platform: String,
    /// Seconds.
    pub seconds: f64,
}

/// Why a fragment cannot be evaluated at a point.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PointError(pub String);

/// The report of `f` at `point` (values of its parameters; empty for the symbolic counts
/// only), predicted with `times` (a platform's name and operation times) when given.
///
/// # Errors
/// A [`PointError`] naming a parameter the point lacks or a count that cannot be evaluated.
pub fn count_report(
    f: &Fragment,
    point: &[(String, f64)],
    times: Option<(&str, &OpTimes)>,
) -> Result<CountReport, PointError> {
    let params: Vec<String> = f.names.params.iter().cloned().collect();
    let evaluate = !point.is_empty();
    if evaluate {
        if let Some(p) = params.iter().find(|p| !point.iter().any(|(n, _)| n == *p)) {
            return Err(PointError(format!(
                "the fragment's parameter {p} has no value"
            )));
        }
    }
    let bindings: Vec<(expr::Name, f64)> = point
        .iter()
        .map(|(n, v)| (expr::Name::from(n.as_str()), *v))
        .collect();
    let values = if evaluate {
        Some(
            f.counts
                .at(&bindings)
                .map_err(|e| PointError(format!("the counts at this point: {e}")))?,
        )
    } else {
        None
    };
    let flops = f.counts.flops();
    let flops_value = if evaluate {
        let env: std::collections::BTreeMap<expr::Name, f64> = bindings.iter().cloned().collect();
        Some(
            expr::eval::eval_f64(&flops, &env, &expr::eval::EvalLimits::default())
                .map_err(|e| PointError(format!("the flops at this point: {e}")))?,
        )
    } else {
        None
    };
    Ok(CountReport {
        fragment: f.name.clone(),
        parameters: params,
        counts: OPS
            .iter()
            .map(|&op| OpCount {
                op: op.name().to_string(),
                symbolic: f.counts.get(op).to_string(),
                value: values.map(|v| v[op.index()]),
            })
            .collect(),
        flops: OpCount {
            op: "flops".into(),
            symbolic: flops.to_string(),
            value: flops_value,
        },
        point: point.to_vec(),
        prediction: match (values, times) {
            (Some(v), Some((platform, t))) => Some(Prediction {
                platform: platform.to_string(),
                seconds: t.time(&v),
            }),
            _ => None,
        },
    })
}

/// Why a fragment's counts cannot be had at the values given.
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    /// A loop bound that is not a whole number from 0 to 1e15.
    #[error("{name}={}: a loop bound is a whole number from 0 to 1e15", num(*.value))]
    NotWhole {
        /// The parameter.
        name: String,
        /// Its value.
        value: f64,
    },
    /// A name that is not one of the fragment's parameters.
    #[error("{name}: the fragment's parameters are {}{}", if params.is_empty() { "none".to_string() } else { params.join(", ") }, crate::did_you_mean(name, params.iter().map(String::as_str)))]
    Unknown {
        /// The name.
        name: String,
        /// The fragment's parameters.
        params: Vec<String>,
    },
    /// The counts cannot be evaluated at the point.
    #[error(transparent)]
    Point(#[from] PointError),
}

impl diag::Advise for CountError {
    /// None: usage errors whose message says what is wrong.
    fn advice(&self) -> Option<diag::Advice> {
        None
    }
}

impl CountError {
    /// The input the message is about (the values, key `define`) and what joins it.
    pub fn input(&self) -> Option<(&'static str, &'static str)> {
        match self {
            CountError::Point(_) => Some(("define", ": ")),
            _ => Some(("define", " ")),
        }
    }
}

/// The report of `f` at the values `point` (checked: whole numbers from 0 to 1e15, each a
/// parameter of the fragment), predicted on `platform` (with the operation times of
/// optimised code when its flag is set) when given.
///
/// # Errors
/// A [`CountError`].
pub fn count_at(
    f: &Fragment,
    point: &[(expr::Name, expr::Rational)],
    platform: Option<(super::thesis::Platform, bool)>,
) -> Result<CountReport, CountError> {
    let point: Vec<(String, f64)> = point
        .iter()
        .map(|(n, v)| (n.to_string(), expr::number::to_f64(v)))
        .collect();
    if let Some((n, v)) = point
        .iter()
        .find(|(_, v)| v.fract() != 0.0 || *v < 0.0 || *v > 1e15)
    {
        return Err(CountError::NotWhole {
            name: n.clone(),
            value: *v,
        });
    }
    if let Some((n, _)) = point.iter().find(|(n, _)| !f.names.params.contains(n)) {
        return Err(CountError::Unknown {
            name: n.clone(),
            params: f.names.params.iter().cloned().collect(),
        });
    }
    let times = platform.map(|(p, optimised)| p.times(optimised));
    Ok(count_report(
        f,
        &point,
        times.as_ref().map(|(n, t)| (*n, t)),
    )?)
}

impl CountReport {
    /// The report as text ([`count_text`]) or as pretty JSON ending with a newline.
    pub fn render(&self, json: bool) -> String {
        match json {
            true => crate::report::json_text(self),
            false => count_text(self),
        }
    }
}

/// The report as text: a table of the counts (symbolic, and at the point), then the
/// prediction.
pub fn count_text(r: &CountReport) -> String {
    let mut out = format!(
        "{}: counts of the nine basic operations (Table 2-4's mapping){}\n",
        r.fragment,
        if r.parameters.is_empty() {
            String::new()
        } else {
            format!(" in {}", r.parameters.join(", "))
        }
    );
    let at: Vec<String> = r
        .point
        .iter()
        .map(|(n, v)| format!("{n} = {}", num(*v)))
        .collect();
    let mut cols = vec![
        ("operation".to_string(), Align::Left),
        ("count".to_string(), Align::Left),
    ];
    if !at.is_empty() {
        cols.push((format!("at {}", at.join(", ")), Align::Right));
    }
    let mut t = TextTable::new(cols);
    for c in r.counts.iter().chain(std::iter::once(&r.flops)) {
        let mut row = vec![c.op.clone(), c.symbolic.clone()];
        if !at.is_empty() {
            row.push(c.value.map_or("-".into(), num));
        }
        t.push(row);
    }
    out.push_str(&t.render("  "));
    if let Some(p) = &r.prediction {
        out.push_str(&format!(
            "predicted time on {} (Eq 2.2: counts × operation times): {}\n",
            p.platform,
            trace::text::seconds(p.seconds)
        ));
    }
    out
}

/// The characterisation of this machine as text (Markdown tables): the fragments' counts
/// (Table 2-6's form) and flops (Table 2-10's), their loop-carried dependences, the fitted
/// operation times (Table 2-5's and 2-13's form) and, per optimisation level, the
/// prediction differences (Tables 2-7 to 2-9) beside the Mflop/s baseline (Table 2-11).
pub fn study_text(study: &super::platform::study::Study, fragments: &[super::Fragment]) -> String {
    use super::dependence::carried;
    use super::platform::study::by_dependence;
    use super::predict::Summary;
    use super::thesis::TABLE_2_9;
    use std::fmt::Write as _;
    fn row(name: &str, s: &Summary) -> String {
        let [max, min, avg, sd] = s.row();
        format!("| {name} | {max:+.0} | {min:+.0} | {avg:.1} | {sd:.1} |")
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n### Counts (Table 2-6 form) and flops (Table 2-10 form)\n"
    );
    let _ = writeln!(
        out,
        "| operation | {} |",
        fragments
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(out, "|---|{}", "---|".repeat(fragments.len()));
    for op in OPS {
        let cells: Vec<String> = fragments
            .iter()
            .map(|f| f.counts.get(op).to_string())
            .collect();
        let _ = writeln!(out, "| {} | {} |", op.name(), cells.join(" | "));
    }
    let flops: Vec<String> = fragments
        .iter()
        .map(|f| f.counts.flops().to_string())
        .collect();
    let _ = writeln!(out, "| flops | {} |", flops.join(" | "));
    let _ = writeln!(out, "\nLoop-carried dependences:");
    for f in fragments {
        let c: Vec<String> = carried(&f.program)
            .iter()
            .map(|c| format!("{} (loop {})", c.name, c.loop_var))
            .collect();
        let _ = writeln!(
            out,
            "  {}: {}",
            f.name,
            if c.is_empty() {
                "none".to_string()
            } else {
                c.join(", ")
            }
        );
    }
    let _ = writeln!(out, "\n### Operation times (ns; Table 2-5 / 2-13 form)\n");
    let mut head = "| operation |".to_string();
    let mut rule = "|---|".to_string();
    for l in &study.levels {
        head += &format!(" {} NNLS | {} LS |", l.opt.flag(), l.opt.flag());
        rule += "---:|---:|";
    }
    let _ = writeln!(out, "{head}\n{rule}");
    for op in OPS {
        let mut line = format!("| {} |", op.name());
        for l in &study.levels {
            line += &format!(
                " {:.3} | {:.3} |",
                l.calibration.times.get(op) * 1e9,
                l.calibration.least_squares[op.index()] * 1e9
            );
        }
        let _ = writeln!(out, "{line}");
    }
    for l in &study.levels {
        let _ = writeln!(
            out,
            "\n{}: call overhead {:.2} ns; design rank {}, condition {:.0}",
            l.opt.flag(),
            l.overhead * 1e9,
            l.calibration.rank,
            l.calibration.condition
        );
    }
    for l in &study.levels {
        let _ = writeln!(
            out,
            "\n### {}: prediction differences (%), Table 2-7 form\n",
            l.opt.flag()
        );
        let lengths: Vec<i64> = {
            let mut v: Vec<i64> = l.comparison.cells.iter().map(|c| c.n).collect();
            v.dedup();
            v.sort_unstable();
            v.dedup();
            v
        };
        let _ = writeln!(
            out,
            "| fragment | {} |",
            lengths
                .iter()
                .map(|n| format!("n = {n}"))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        let _ = writeln!(out, "|---|{}", "---:|".repeat(lengths.len()));
        for f in fragments {
            let cells: Vec<String> = lengths
                .iter()
                .map(|n| {
                    l.comparison
                        .cells
                        .iter()
                        .find(|c| c.fragment == f.name && c.n == *n)
                        .map_or("".into(), |c| format!("{:+.0}", c.percent()))
                })
                .collect();
            let _ = writeln!(out, "| {} | {} |", f.name, cells.join(" | "));
        }
        let _ = writeln!(
            out,
            "\nBy fragment (Table 2-8 form; max, min, avg |d|, SD |d|):\n"
        );
        let _ = writeln!(
            out,
            "| fragment | max | min | avg | SD |\n|---|---:|---:|---:|---:|"
        );
        for (name, s) in l.comparison.by_fragment() {
            let _ = writeln!(out, "{}", row(&name, &s));
        }
        let _ = writeln!(
            out,
            "\nOverall (Table 2-9 form) and the Mflop/s baseline (Table 2-11 form):\n"
        );
        let _ = writeln!(
            out,
            "| prediction | max | min | avg | SD |\n|---|---:|---:|---:|---:|"
        );
        if let Some(s) = l.comparison.summary(|_| true) {
            let _ = writeln!(out, "{}", row("micro-analysis", &s));
        }
        let (independent, carried) = by_dependence(&l.comparison, fragments);
        if let Some(s) = independent {
            let _ = writeln!(out, "{}", row("micro-analysis, no carried dependence", &s));
        }
        if let Some(s) = carried {
            let _ = writeln!(
                out,
                "{}",
                row("micro-analysis, a loop-carried dependence", &s)
            );
        }
        if let Some(s) = l.baseline.summary(|_| true) {
            let _ = writeln!(out, "{}", row("Mflop/s baseline", &s));
        }
        let rates: Vec<String> = l.rates.iter().map(|(n, r)| format!("{n} {r:.0}")).collect();
        let _ = writeln!(
            out,
            "\nBaseline rates (Mflop/s, geometric mean of the other fragments): {}",
            rates.join(", ")
        );
    }
    let thesis: Vec<String> = TABLE_2_9.iter().map(|r| format!("{:.0}", r[2])).collect();
    let _ = writeln!(
        out,
        "\nThe thesis' unoptimised average magnitudes (Table 2-9): {} %",
        thesis.join(", ")
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_at_a_point_check_its_values() {
        let f = crate::micro::analyse_text(
            "f.f",
            "      DO I = 1, N\n        X(I) = Y(I)\n      END DO\n",
        )
        .unwrap();
        let n = |v: i64| {
            vec![(
                expr::Name::from("N"),
                expr::Rational::from_integer(v.into()),
            )]
        };
        let e = count_at(&f, &n(-5), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "N=-5: a loop bound is a whole number from 0 to 1e15"
        );
        let m = vec![(
            expr::Name::from("M"),
            expr::Rational::from_integer(5.into()),
        )];
        let e = count_at(&f, &m, None).unwrap_err();
        assert_eq!(e.to_string(), "M: the fragment's parameters are N");
        assert_eq!(e.input(), Some(("define", " ")));
        let sun = super::super::thesis::Platform::Sun;
        let r = count_at(&f, &n(1000), Some((sun, false))).unwrap();
        assert_eq!(r.prediction.as_ref().unwrap().platform, "SUN 4/50");
        assert!(r.render(true).ends_with("}\n"));
    }

    #[test]
    fn fragment_a_at_n_1000_on_the_sun() {
        let f = super::super::analyse_text("A", super::super::fragments::A.text).unwrap();
        let t = super::super::thesis::times(0, false).unwrap();
        let r = count_report(&f, &[("N".into(), 1000.0)], Some(("SUN 4/50", &t))).unwrap();
        // Table 2-6, A: loopoh n, loadR 3n, storeR n, addR 2n, multR 3n; Table 2-10: 5n flops.
        let v = |op: &str| r.counts.iter().find(|c| c.op == op).unwrap().value.unwrap();
        assert_eq!(
            (v("loopoh"), v("loadR"), v("storeR"), v("addR"), v("multR")),
            (1000.0, 3000.0, 1000.0, 2000.0, 3000.0)
        );
        assert_eq!(r.flops.value, Some(5000.0));
        // Table 2-5 (SUN): 0.518 + 3·0.135 + 0.235 + 2·0.0108 + 3·0.00916 µs per iteration.
        let want = 1000.0 * (0.518 + 3.0 * 0.135 + 0.235 + 2.0 * 0.0108 + 3.0 * 0.00916) * 1e-6;
        assert!((r.prediction.as_ref().unwrap().seconds - want).abs() < 1e-12);
        assert!(count_text(&r).contains("predicted time on SUN 4/50"));
        let e = count_report(&f, &[("M".into(), 1.0)], None).unwrap_err();
        assert!(e.0.contains("parameter N has no value"), "{e}");
    }
}
