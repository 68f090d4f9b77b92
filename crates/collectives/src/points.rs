//! The points a model or a skeleton is predicted at: every combination of bindings (values,
//! lists, ranges), each point checked (a process count is a whole number from 1, a message
//! size is not negative), at most [`MAX_POINTS`].

use expr::grid::{Grid, Values};
use expr::Name;

use crate::table::MAX_P;

/// The most points one prediction evaluates.
pub const MAX_POINTS: u64 = 10_000;

/// A skeleton's point: the processes and the values of the parameters bound.
pub type SkeletonPoint = (f64, Vec<(String, f64)>);

/// The largest message size a point may name.
pub const MAX_SIZE: f64 = 1e15;

/// Why the bindings do not give points.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PointsError {
    /// A name that is not one of those allowed: the name, then the names and a suggestion.
    #[error("{name}: the names are {}{}", known.join(", "), crate::did_you_mean(name, known.iter().map(String::as_str)))]
    UnknownName {
        /// The name.
        name: String,
        /// The names allowed.
        known: Vec<String>,
    },
    /// No process count.
    #[error("no process count p")]
    MissingP,
    /// No message size, and these operations carry data.
    #[error("no message size d, and {} carry data", ops.join(", "))]
    MissingD {
        /// The operations with data.
        ops: Vec<String>,
    },
    /// A process count that is not a whole number from 1 to [`MAX_P`].
    #[error("p={0}: p is a number of processes, a whole number from 1 to {MAX_P}")]
    BadP(f64),
    /// A message size outside 0..=[`MAX_SIZE`].
    #[error("d={0}: d is a message size, from 0 to {MAX_SIZE:e}")]
    BadD(f64),
    /// A point given as text, `p=P,d=D`, that cannot be read.
    #[error("`{text}`: {message}")]
    Text {
        /// The point as given.
        text: String,
        /// Why.
        message: String,
    },
    /// Too many points, or bindings the grid refuses.
    #[error(transparent)]
    Grid(#[from] expr::grid::GridError),
}

impl diag::Advise for PointsError {
    /// Fewer points for a grid too large (an error of the run, not of the flags); the
    /// others are usage errors whose message says what is wrong.
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            PointsError::Grid(_) => Some(diag::Advice::fix("predict fewer points")),
            _ => None,
        }
    }

    /// A missing name as the binding that gives it (`give the processes, {define}
    /// p=VALUES`); the others as they are.
    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        let keyed = match self {
            PointsError::MissingP => "give the processes, {define} p=VALUES".to_string(),
            PointsError::MissingD { ops } => format!(
                "give the message size too, {{define}} d=VALUE: {} carry data",
                diag::literal(&ops.join(", "))
            ),
            e => return e.to_string(),
        };
        diag::spell_keys(&keyed, spell)
    }
}

impl PointsError {
    /// What joins the input that gave the points to the message: `": "` before a
    /// sentence (a missing name, a grid refused), `" "` before the value or name at fault.
    pub fn join(&self) -> &'static str {
        match self {
            PointsError::MissingP | PointsError::MissingD { .. } | PointsError::Grid(_) => ": ",
            _ => " ",
        }
    }
}

/// A point written `p=P,d=D`, each checked.
///
/// # Errors
/// [`PointsError::Text`], [`PointsError::BadP`] or [`PointsError::BadD`].
pub fn parse_point(text: &str) -> Result<(f64, f64), PointsError> {
    let names = ["p".to_string(), "d".to_string()];
    let v = fit::run::parse_point(text, &names).map_err(|message| PointsError::Text {
        text: text.to_string(),
        message,
    })?;
    Ok((check_p(v[0])?, check_d(v[1])?))
}

/// The points of `texts`, each `p=P,d=D` ([`parse_point`]).
///
/// # Errors
/// The first text's [`PointsError`].
pub fn parse_points(texts: &[String]) -> Result<Vec<(f64, f64)>, PointsError> {
    texts.iter().map(|t| parse_point(t)).collect()
}

/// The `(p, d)` points of `bindings` for the models of `table` ([`model_points`], `d`
/// required when an operation of the table carries data).
///
/// # Errors
/// A [`PointsError`].
pub fn table_points(
    bindings: &[(Name, Values)],
    table: &crate::Table,
) -> Result<Vec<(f64, f64)>, PointsError> {
    // Each operation once, though its real and time-shared groups are apart.
    let mut sized: Vec<String> = table
        .groups()
        .into_iter()
        .filter(|g| g.has_size())
        .map(|g| g.op)
        .collect();
    sized.sort();
    sized.dedup();
    model_points(bindings, &sized)
}

/// Checks a process count.
///
/// # Errors
/// [`PointsError::BadP`].
pub fn check_p(p: f64) -> Result<f64, PointsError> {
    if p.fract() != 0.0 || !(1.0..=f64::from(MAX_P)).contains(&p) {
        return Err(PointsError::BadP(p));
    }
    Ok(p)
}

/// Checks a message size.
///
/// # Errors
/// [`PointsError::BadD`].
pub fn check_d(d: f64) -> Result<f64, PointsError> {
    if !(0.0..=MAX_SIZE).contains(&d) {
        return Err(PointsError::BadD(d));
    }
    Ok(d)
}

/// Every combination of `bindings` with `p` among them and the other names among `known`;
/// each point as `p` and the other names' values, in the bindings' order.
fn combinations(
    bindings: &[(Name, Values)],
    known: &[&str],
) -> Result<Vec<SkeletonPoint>, PointsError> {
    if let Some((n, _)) = bindings
        .iter()
        .find(|(n, _)| &**n != "p" && !known.contains(&&**n))
    {
        return Err(PointsError::UnknownName {
            name: n.to_string(),
            known: std::iter::once("p")
                .chain(known.iter().copied())
                .map(String::from)
                .collect(),
        });
    }
    if !bindings.iter().any(|(n, _)| &**n == "p") {
        return Err(PointsError::MissingP);
    }
    let g = Grid::with_limit(bindings.to_vec(), MAX_POINTS)?;
    let names: Vec<String> = g.names().iter().map(|n| n.to_string()).collect();
    g.points_f64()
        .map(|v| {
            let mut p = 0.0;
            let mut others = Vec::with_capacity(v.len());
            for (n, x) in names.iter().zip(v) {
                if n == "p" {
                    p = check_p(x)?;
                } else {
                    others.push((n.clone(), x));
                }
            }
            Ok((p, others))
        })
        .collect()
}

/// The `(p, d)` points of a fit's predictions: `p` required, `d` required when an
/// operation of `sized_ops` carries data (0 otherwise).
///
/// # Errors
/// A [`PointsError`].
pub fn model_points(
    bindings: &[(Name, Values)],
    sized_ops: &[String],
) -> Result<Vec<(f64, f64)>, PointsError> {
    if bindings.is_empty() {
        return Ok(Vec::new());
    }
    let has_d = bindings.iter().any(|(n, _)| &**n == "d");
    let points = combinations(bindings, &["d"])?;
    if !has_d && !sized_ops.is_empty() {
        return Err(PointsError::MissingD {
            ops: sized_ops.to_vec(),
        });
    }
    points
        .into_iter()
        .map(|(p, rest)| Ok((p, check_d(rest.first().map_or(0.0, |x| x.1))?)))
        .collect()
}

/// The points of a skeleton: `p` and values of its parameters `params`.
///
/// # Errors
/// A [`PointsError`].
pub fn skeleton_points(
    bindings: &[(Name, Values)],
    params: &[&str],
) -> Result<Vec<SkeletonPoint>, PointsError> {
    combinations(bindings, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_names_are_told_as_the_binding_that_gives_them() {
        use diag::Advise;
        let flags = |k: &str| Some(format!("--{k}"));
        assert_eq!(
            PointsError::MissingP.message(&flags),
            "give the processes, --define p=VALUES"
        );
        let d = PointsError::MissingD {
            ops: vec!["a{b}".into(), "c".into()],
        };
        assert_eq!(
            d.message(&flags),
            "give the message size too, --define d=VALUE: a{b}, c carry data"
        );
        assert_eq!((d.join(), PointsError::BadP(0.0).join()), (": ", " "));
        assert_eq!(
            PointsError::BadD(-1.0).message(&flags),
            PointsError::BadD(-1.0).to_string()
        );
    }

    #[test]
    fn points_as_text_are_checked() {
        assert_eq!(parse_point("p=4,d=10"), Ok((4.0, 10.0)));
        assert_eq!(parse_point("d=10,p=4"), Ok((4.0, 10.0)));
        assert_eq!(parse_point("p=0,d=1"), Err(PointsError::BadP(0.0)));
        assert!(matches!(
            parse_point("p=x,d=1"),
            Err(PointsError::Text { .. })
        ));
        assert_eq!(parse_points(&["p=2,d=0".into()]), Ok(vec![(2.0, 0.0)]));
        let e = model_points(&b(&["p=2", "dd=1"]), &[]).unwrap_err();
        assert_eq!(e.to_string(), "dd: the names are p, d; did you mean `d`?");
        let t = crate::read_csv("t.csv", "op,p,d,time\nbroadcast,2,1,1\n").unwrap();
        assert!(matches!(
            table_points(&b(&["p=2"]), &t),
            Err(PointsError::MissingD { .. })
        ));
        // An operation measured real (p = 2) and time-shared (p = 4 on 2 CPUs) is named once.
        let t = crate::read_csv(
            "t.csv",
            "op,p,d,time,shared\nbroadcast,2,1,1,0\nbroadcast,4,1,3,1\n",
        )
        .unwrap();
        assert_eq!(t.groups().len(), 2, "a real and a time-shared group");
        assert!(matches!(
            table_points(&b(&["p=2"]), &t),
            Err(PointsError::MissingD { ops }) if ops == ["broadcast"]
        ));
    }

    fn b(s: &[&str]) -> Vec<(Name, Values)> {
        s.iter()
            .map(|x| expr::grid::parse_binding(x).unwrap())
            .collect()
    }

    #[test]
    fn grids_are_checked_point_by_point() {
        assert_eq!(
            model_points(&b(&["p=2,4", "d=1"]), &["broadcast".into()]).unwrap(),
            vec![(2.0, 1.0), (4.0, 1.0)]
        );
        assert_eq!(model_points(&b(&["p=2"]), &[]).unwrap(), vec![(2.0, 0.0)]);
        assert_eq!(
            model_points(&b(&["p=0", "d=1"]), &[]),
            Err(PointsError::BadP(0.0))
        );
        assert_eq!(
            model_points(&b(&["p=2", "d=-1"]), &[]),
            Err(PointsError::BadD(-1.0))
        );
        assert!(matches!(
            model_points(&b(&["p=2"]), &["x".into()]),
            Err(PointsError::MissingD { .. })
        ));
        assert!(matches!(
            model_points(&b(&["q=2"]), &[]),
            Err(PointsError::UnknownName { .. })
        ));
        assert_eq!(model_points(&b(&["d=2"]), &[]), Err(PointsError::MissingP));
        assert!(matches!(
            model_points(&b(&["p=1..100000", "d=1..100"]), &[]),
            Err(PointsError::Grid(_))
        ));
        let s = skeleton_points(&b(&["p=2", "n=1,2"]), &["n", "i"]).unwrap();
        assert_eq!(
            s,
            vec![
                (2.0, vec![("n".into(), 1.0)]),
                (2.0, vec![("n".into(), 2.0)])
            ]
        );
    }
}
