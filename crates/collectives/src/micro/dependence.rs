//! Loop-carried flow dependences: a value one iteration writes and a later one reads. The
//! model of Table 2-4 adds operation times as if every iteration were independent; a
//! recurrence makes each iteration wait for the last (the thesis' explanation of the DEC's
//! optimised B, C and E, and of E's register reuse). Found here:
//!
//! * a scalar the loop assigns and reads before its first assignment in the body (`Q = Q +
//!   …`, fragment F's `S`);
//! * an array written at `V + c1` and read at `V + c2` with `c2 < c1` in the loop over `V`
//!   (`X(I) = X(I-1) + …`), the other subscripts equal.
//!
//! Other subscripts (not the loop variable plus a constant) are not judged.

use super::ast::{BinOp, Expr, Program, Ref, Stmt};
use std::collections::BTreeSet;
use std::ops::Range;

/// A loop-carried flow dependence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carried {
    /// The scalar or array carrying the value.
    pub name: String,
    /// The variable of the loop that carries it.
    pub loop_var: String,
    /// The read that sees an earlier iteration's value.
    pub read: Range<usize>,
}

/// The loop-carried flow dependences of `program`, one per (name, loop).
pub fn carried(program: &Program) -> Vec<Carried> {
    let mut out = Vec::new();
    loops(&program.body, &mut out);
    out
}

fn loops(body: &[Stmt], out: &mut Vec<Carried>) {
    for s in body {
        if let Stmt::Do { var, body, .. } = s {
            let mut flat = Vec::new();
            flatten(body, &mut flat);
            in_loop(var, &flat, out);
            loops(body, out);
        }
    }
}

/// The assignments of a body, nested loops' included, in order.
fn flatten<'a>(body: &'a [Stmt], out: &mut Vec<(&'a Ref, &'a Expr)>) {
    for s in body {
        match s {
            Stmt::Assign { target, value, .. } => out.push((target, value)),
            Stmt::Do { body, .. } => flatten(body, out),
            Stmt::Continue => {}
        }
    }
}

fn in_loop(var: &str, body: &[(&Ref, &Expr)], out: &mut Vec<Carried>) {
    let assigned: BTreeSet<&str> = body
        .iter()
        .filter(|(t, _)| t.subscripts.is_empty())
        .map(|(t, _)| t.name.as_str())
        .collect();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut found: Vec<Carried> = Vec::new();
    let mut push = |c: Carried| {
        if !found.iter().any(|f| f.name == c.name) {
            found.push(c);
        }
    };
    for (target, value) in body {
        let mut reads = Vec::new();
        refs(value, &mut reads);
        for s in &target.subscripts {
            refs(s, &mut reads);
        }
        for r in &reads {
            if r.subscripts.is_empty()
                && assigned.contains(r.name.as_str())
                && !seen.contains(r.name.as_str())
            {
                push(Carried {
                    name: r.name.clone(),
                    loop_var: var.to_string(),
                    read: r.span.clone(),
                });
            }
        }
        if target.subscripts.is_empty() {
            seen.insert(&target.name);
        }
    }
    // Arrays: every write against every read of the same array.
    for (w, _) in body.iter().filter(|(t, _)| !t.subscripts.is_empty()) {
        for (_, value) in body {
            let mut reads = Vec::new();
            refs(value, &mut reads);
            for r in reads
                .iter()
                .filter(|r| r.name == w.name && r.subscripts.len() == w.subscripts.len())
            {
                if earlier(var, &w.subscripts, &r.subscripts) {
                    push(Carried {
                        name: r.name.clone(),
                        loop_var: var.to_string(),
                        read: r.span.clone(),
                    });
                }
            }
        }
    }
    out.extend(found);
}

/// Whether subscripts `read` name an element written by an earlier iteration of the loop
/// over `var` than subscripts `write` (some dimension `var + c2` against `var + c1` with
/// `c2 < c1`, the others equal).
fn earlier(var: &str, write: &[Expr], read: &[Expr]) -> bool {
    let mut behind = false;
    for (w, r) in write.iter().zip(read) {
        match (offset(var, w), offset(var, r)) {
            (Some(a), Some(b)) if b < a => behind = true,
            (Some(a), Some(b)) if a == b => {}
            _ => {
                if super::ast::expr_text(w) != super::ast::expr_text(r) {
                    return false;
                }
            }
        }
    }
    behind
}

/// `c` when `e` is `var + c`, `var - c` or `var`.
fn offset(var: &str, e: &Expr) -> Option<i64> {
    let is_var = |e: &Expr| matches!(e, Expr::Ref(r) if r.subscripts.is_empty() && r.name == var);
    match e {
        Expr::Paren(x, _) => offset(var, x),
        _ if is_var(e) => Some(0),
        Expr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b, _) if is_var(a) => match **b {
            Expr::Int(c, _) => Some(if *op == BinOp::Add { c } else { -c }),
            _ => None,
        },
        Expr::Bin(BinOp::Add, a, b, _) if is_var(b) => match **a {
            Expr::Int(c, _) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

/// Every reference in `e`, subscripts' included.
fn refs<'a>(e: &'a Expr, out: &mut Vec<&'a Ref>) {
    match e {
        Expr::Int(..) | Expr::Real(..) => {}
        Expr::Ref(r) => {
            out.push(r);
            for s in &r.subscripts {
                refs(s, out);
            }
        }
        Expr::Neg(x, _) | Expr::Paren(x, _) => refs(x, out),
        Expr::Bin(_, a, b, _) => {
            refs(a, out);
            refs(b, out);
        }
    }
}
