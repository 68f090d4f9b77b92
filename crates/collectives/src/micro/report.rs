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

#[cfg(test)]
mod tests {
    use super::*;

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
