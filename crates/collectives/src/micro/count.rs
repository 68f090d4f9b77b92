//! Table 2-4's mapping from a fragment to its counts of the nine operations.
//!
//! As the thesis maps (spec §2.2, reconstructed from the OCR of Table 2-4):
//!
//! * `e1 + e2`, `e1 − e2`: the operands' counts and one add of the expression's type (REAL
//!   if either operand is REAL); `e1 * e2`: one mult.
//! * `(e)`: the counts of `e`; a constant or a scalar: nothing (scalars live in registers);
//!   an array element: one load of the array's type, its subscripts not costed.
//! * `scalar = e`: the counts of `e` (no store); `A(…) = e`: one store of `A`'s type and
//!   the counts of `e`.
//! * `DO S = E1, E2 … END DO`: `(E2 − E1 + 1) × (loopoh + body)`; when the body's counts
//!   depend on `S` (a triangular nest), the sum over `S` from `E1` to `E2`.
//!
//! Two choices where Table 2-4 is silent: `e1 / e2` counts as a mult of its type (the
//! table has no division operation), and a leading minus `−e` as an add (it is `0 − e`).
//! CONTINUE costs nothing. The counts hold for loops that run `E2 − E1 + 1 ≥ 0` times, as
//! the thesis' formula does.

use super::ast::{BinOp, Expr as F, Program, Stmt, Type};
use super::ops::{Counts, Op};
use expr::simplify::simplify;
use expr::{Assumptions, CmpOp, Cond, Expr};

/// The counts of the nine operations of `program` (Table 2-4), simplified, as polynomials in
/// its parameters.
pub fn counts(program: &Program) -> Counts {
    let total = list(program, &program.body);
    let a = Assumptions::new();
    Counts(total.map(|e| simplify(&e, &a)))
}

/// The counts of one statement whose operands are all outside loops: integers.
fn stmt_ops(program: &Program, s: &Stmt) -> [i64; 9] {
    let mut c = [0i64; 9];
    if let Stmt::Assign { target, value, .. } = s {
        if !target.subscripts.is_empty() {
            let op = match program.type_of(&target.name) {
                Type::Integer => Op::StoreI,
                Type::Real => Op::StoreR,
            };
            c[op.index()] += 1;
        }
        expr_ops(program, value, &mut c);
    }
    c
}

/// Adds the counts of `e` to `c`; returns its type.
fn expr_ops(program: &Program, e: &F, c: &mut [i64; 9]) -> Type {
    match e {
        F::Int(..) => Type::Integer,
        F::Real(..) => Type::Real,
        F::Ref(r) => {
            let ty = program.type_of(&r.name);
            if !r.subscripts.is_empty() {
                let op = match ty {
                    Type::Integer => Op::LoadI,
                    Type::Real => Op::LoadR,
                };
                c[op.index()] += 1;
            }
            ty
        }
        F::Paren(x, _) => expr_ops(program, x, c),
        F::Neg(x, _) => {
            let ty = expr_ops(program, x, c);
            c[add(ty).index()] += 1;
            ty
        }
        F::Bin(op, a, b, _) => {
            let ty = expr_ops(program, a, c).join(expr_ops(program, b, c));
            let o = match op {
                BinOp::Add | BinOp::Sub => add(ty),
                BinOp::Mul | BinOp::Div => match ty {
                    Type::Integer => Op::MultI,
                    Type::Real => Op::MultR,
                },
            };
            c[o.index()] += 1;
            ty
        }
    }
}

fn add(ty: Type) -> Op {
    match ty {
        Type::Integer => Op::AddI,
        Type::Real => Op::AddR,
    }
}

/// The counts of a statement list, unsimplified.
fn list(program: &Program, body: &[Stmt]) -> [Expr; 9] {
    let mut consts = [0i64; 9];
    let mut loops: Vec<[Expr; 9]> = Vec::new();
    for s in body {
        match s {
            Stmt::Do {
                var, lo, hi, body, ..
            } => {
                let mut per = list(program, body);
                per[Op::Loopoh.index()] =
                    Expr::Add(vec![per[Op::Loopoh.index()].clone(), Expr::one()]);
                let (lo, hi) = (bound(lo), bound(hi));
                let a = Assumptions::new();
                loops.push(per.map(|e| {
                    let e = simplify(&e, &a);
                    if e.is_int(0) {
                        e
                    } else if e.depends_on(var) {
                        simplify(&Expr::sum_over(var, lo.clone(), hi.clone(), e), &a)
                    } else {
                        let trips = Expr::Add(vec![
                            hi.clone(),
                            Expr::Mul(vec![Expr::int(-1), lo.clone()]),
                            Expr::one(),
                        ]);
                        simplify(&Expr::Mul(vec![trips, e]), &a)
                    }
                }));
            }
            other => {
                for (t, x) in consts.iter_mut().zip(stmt_ops(program, other)) {
                    *t += x;
                }
            }
        }
    }
    let mut out = consts.map(Expr::int);
    for l in loops {
        for (o, x) in out.iter_mut().zip(l) {
            *o = Expr::Add(vec![std::mem::replace(o, Expr::zero()), x]);
        }
    }
    out
}

/// A loop bound as an expression over the parameters and the enclosing loop variables.
/// Integer division truncates toward zero, as Fortran's does.
pub(crate) fn bound(e: &F) -> Expr {
    match e {
        F::Int(v, _) => Expr::int(*v),
        // Rejected by the name checks; kept total here.
        F::Real(..) => Expr::zero(),
        F::Ref(r) => Expr::var(&r.name),
        F::Paren(x, _) => bound(x),
        F::Neg(x, _) => Expr::Mul(vec![Expr::int(-1), bound(x)]),
        F::Bin(op, a, b, _) => {
            let (a, b) = (bound(a), bound(b));
            match op {
                BinOp::Add => Expr::Add(vec![a, b]),
                BinOp::Sub => Expr::sub(a, b),
                BinOp::Mul => Expr::Mul(vec![a, b]),
                BinOp::Div => {
                    let q = Expr::div(a, b);
                    Expr::ite(
                        Cond::cmp(CmpOp::Ge, q.clone(), Expr::zero()),
                        Expr::Floor(Box::new(q.clone())),
                        Expr::Ceil(Box::new(q)),
                    )
                }
            }
        }
    }
}
