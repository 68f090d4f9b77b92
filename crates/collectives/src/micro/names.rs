//! What each name of a fragment is (scalar or array, INTEGER or REAL, loop variable,
//! assigned or only read), and the checks the mapping needs: a name is either a scalar or
//! an array, loop variables are INTEGER scalars not assigned in their loop, loop bounds are
//! INTEGER expressions of scalars the fragment does not assign (its parameters).

use super::ast::{Expr, Program, Ref, Stmt, Type};
use super::error::{SourceError, SourceErrorKind};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

/// What a name of a fragment is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameInfo {
    /// Declared or implicit type.
    pub ty: Type,
    /// Number of subscripts for an array; 0 for a scalar.
    pub rank: usize,
    /// Whether the fragment assigns it (a loop variable counts as assigned).
    pub assigned: bool,
    /// Whether it is a DO variable.
    pub loop_var: bool,
    /// Where it is first used.
    pub first: Range<usize>,
}

/// The names of a program, and its parameters: the names the loop bounds read.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Names {
    /// Every name used, by name.
    pub names: BTreeMap<String, NameInfo>,
    /// The scalars the loop bounds read that no statement assigns (Table 2-6's `n`).
    pub params: BTreeSet<String>,
}

impl Names {
    /// The arrays of type `ty`, in name order.
    pub fn arrays(&self, ty: Type) -> Vec<&str> {
        self.names
            .iter()
            .filter(|(_, i)| i.rank > 0 && i.ty == ty)
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// The scalars of type `ty` that are not loop variables, in name order.
    pub fn scalars(&self, ty: Type) -> Vec<&str> {
        self.names
            .iter()
            .filter(|(_, i)| i.rank == 0 && !i.loop_var && i.ty == ty)
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// The DO variables, in name order.
    pub fn loop_vars(&self) -> Vec<&str> {
        self.names
            .iter()
            .filter(|(_, i)| i.loop_var)
            .map(|(n, _)| n.as_str())
            .collect()
    }
}

/// Collects and checks the names of `program` (text `src` for messages).
///
/// # Errors
/// A [`SourceErrorKind::Name`] or [`SourceErrorKind::Unsupported`] error at the offending use.
pub fn names(src: (&str, &str), program: &Program) -> Result<Names, SourceError> {
    let mut out = Names::default();
    let mut bounds: Vec<(String, Range<usize>, bool)> = Vec::new();
    let mut open: Vec<String> = Vec::new();
    walk(
        src,
        program,
        &program.body,
        &mut out,
        &mut bounds,
        &mut open,
    )?;
    for (name, span, enclosing) in bounds {
        let info = &out.names[&name];
        if info.loop_var && !enclosing {
            return Err(SourceError::at(
                SourceErrorKind::Name,
                src,
                span,
                format!("the loop bound reads {name}, the variable of a loop that does not enclose it"),
            )
            .help("a bound may read the variables of the loops around it and the fragment's parameters"));
        }
        if info.assigned && !info.loop_var {
            return Err(SourceError::at(
                SourceErrorKind::Name,
                src,
                span,
                format!("the loop bound reads {name}, which the fragment assigns"),
            )
            .help("the mapping counts iterations from bounds in the fragment's parameters; write the bound in those names"));
        }
        if !info.loop_var {
            out.params.insert(name);
        }
    }
    Ok(out)
}

fn walk(
    src: (&str, &str),
    program: &Program,
    list: &[Stmt],
    out: &mut Names,
    bounds: &mut Vec<(String, Range<usize>, bool)>,
    open: &mut Vec<String>,
) -> Result<(), SourceError> {
    for s in list {
        match s {
            Stmt::Assign { target, value, .. } => {
                if target.subscripts.is_empty() && open.contains(&target.name) {
                    return Err(SourceError::at(
                        SourceErrorKind::Name,
                        src,
                        target.span.clone(),
                        format!("{} is assigned inside its own DO loop", target.name),
                    )
                    .help("a DO variable may not be changed by its loop; use another name"));
                }
                use_ref(src, program, target, true, out)?;
                use_expr(src, program, value, out)?;
            }
            Stmt::Do {
                var,
                lo,
                hi,
                body,
                span,
            } => {
                if open.contains(var) {
                    return Err(SourceError::at(
                        SourceErrorKind::Name,
                        src,
                        span.clone(),
                        format!("{var} is already the variable of an enclosing DO"),
                    )
                    .help("nested loops need different variables"));
                }
                let var_ref = Ref {
                    name: var.clone(),
                    subscripts: Vec::new(),
                    span: span.clone(),
                };
                use_ref(src, program, &var_ref, true, out)?;
                if program.type_of(var) != Type::Integer {
                    return Err(SourceError::at(
                        SourceErrorKind::Name,
                        src,
                        span.clone(),
                        format!("the DO variable {var} is REAL"),
                    )
                    .help(
                        "loop variables are INTEGER: names starting I to N, or declare it INTEGER",
                    ));
                }
                if let Some(i) = out.names.get_mut(var) {
                    i.loop_var = true;
                }
                for b in [lo, hi] {
                    bound(src, program, b, out, bounds, open)?;
                }
                open.push(var.clone());
                walk(src, program, body, out, bounds, open)?;
                open.pop();
            }
            Stmt::Continue => {}
        }
    }
    Ok(())
}

/// Checks a loop bound: INTEGER constants and scalars, no array elements.
fn bound(
    src: (&str, &str),
    program: &Program,
    e: &Expr,
    out: &mut Names,
    bounds: &mut Vec<(String, Range<usize>, bool)>,
    open: &[String],
) -> Result<(), SourceError> {
    match e {
        Expr::Int(..) => Ok(()),
        Expr::Real(_, s) => Err(SourceError::at(
            SourceErrorKind::Unsupported,
            src,
            s.clone(),
            "a REAL constant in a loop bound",
        )
        .help("loop bounds are INTEGER expressions")),
        Expr::Ref(r) => {
            if !r.subscripts.is_empty() {
                return Err(SourceError::at(
                    SourceErrorKind::Unsupported,
                    src,
                    r.span.clone(),
                    "an array element in a loop bound",
                )
                .help("the counts are polynomials in the bounds' scalars; copy the element to a scalar parameter"));
            }
            if program.type_of(&r.name) != Type::Integer {
                return Err(SourceError::at(
                    SourceErrorKind::Name,
                    src,
                    r.span.clone(),
                    format!("the loop bound reads {}, which is REAL", r.name),
                )
                .help(
                    "loop bounds are INTEGER: names starting I to N, or declare the name INTEGER",
                ));
            }
            use_ref(src, program, r, false, out)?;
            bounds.push((r.name.clone(), r.span.clone(), open.contains(&r.name)));
            Ok(())
        }
        Expr::Neg(x, _) | Expr::Paren(x, _) => bound(src, program, x, out, bounds, open),
        Expr::Bin(_, a, b, _) => {
            bound(src, program, a, out, bounds, open)?;
            bound(src, program, b, out, bounds, open)
        }
    }
}

fn use_expr(
    src: (&str, &str),
    program: &Program,
    e: &Expr,
    out: &mut Names,
) -> Result<(), SourceError> {
    match e {
        Expr::Int(..) | Expr::Real(..) => Ok(()),
        Expr::Ref(r) => use_ref(src, program, r, false, out),
        Expr::Neg(x, _) | Expr::Paren(x, _) => use_expr(src, program, x, out),
        Expr::Bin(_, a, b, _) => {
            use_expr(src, program, a, out)?;
            use_expr(src, program, b, out)
        }
    }
}

fn use_ref(
    src: (&str, &str),
    program: &Program,
    r: &Ref,
    assigned: bool,
    out: &mut Names,
) -> Result<(), SourceError> {
    let rank = r.subscripts.len();
    for s in &r.subscripts {
        use_expr(src, program, s, out)?;
    }
    match out.names.get_mut(&r.name) {
        Some(info) => {
            if info.rank != rank {
                let (line, col) = diag::line_col(src.1, info.first.start);
                let what = |k: usize| match k {
                    0 => "a scalar".to_string(),
                    1 => "an array of one dimension".to_string(),
                    k => format!("an array of {k} dimensions"),
                };
                return Err(SourceError::at(
                    SourceErrorKind::Name,
                    src,
                    r.span.clone(),
                    format!(
                        "{} is {} here and {} at {line}:{col}",
                        r.name,
                        what(rank),
                        what(info.rank)
                    ),
                )
                .help("use one name per variable"));
            }
            info.assigned |= assigned;
        }
        None => {
            out.names.insert(
                r.name.clone(),
                NameInfo {
                    ty: program.type_of(&r.name),
                    rank,
                    assigned,
                    loop_var: false,
                    first: r.span.clone(),
                },
            );
        }
    }
    Ok(())
}
