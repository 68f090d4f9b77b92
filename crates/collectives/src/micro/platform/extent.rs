//! The extents the timing driver gives each array of a fragment at a vector length: interval
//! arithmetic over the loop ranges and the integer scalars the fragment assigns (fragment F's
//! `K = N - I + 1`), so that every subscript stays inside the storage the driver allocates.

use super::super::ast::{BinOp, Expr, Program, Stmt, Type};
use super::super::Fragment;
use std::collections::BTreeMap;

/// An integer interval; `None` where a value is not an integer the analysis can bound.
type Iv = Option<(i128, i128)>;

/// The largest magnitude of a bound (the driver's storage is far smaller).
const HUGE: i128 = 1 << 40;

/// The value every integer scalar that is not a parameter starts with in the driver.
pub(crate) const INT_SCALAR_START: i64 = 3;

/// Per array, per dimension, the lowest and highest subscript the fragment uses when its
/// parameters are `n`.
///
/// # Errors
/// A message naming the array whose subscript cannot be bounded (an indirect subscript, a
/// REAL one, a division by a range holding 0, one that keeps growing).
pub(crate) fn extents(f: &Fragment, n: i64) -> Result<BTreeMap<String, Vec<(i64, i64)>>, String> {
    let mut scalars: BTreeMap<String, Iv> = BTreeMap::new();
    for p in &f.names.params {
        scalars.insert(p.clone(), Some((n as i128, n as i128)));
    }
    for s in f.names.scalars(Type::Integer) {
        scalars
            .entry(s.to_string())
            .or_insert(Some((INT_SCALAR_START as i128, INT_SCALAR_START as i128)));
    }
    for _ in 0..4 {
        let before = scalars.clone();
        let mut w = Walk {
            program: &f.program,
            scalars: scalars.clone(),
            arrays: BTreeMap::new(),
        };
        w.list(&f.program.body)?;
        scalars = w.scalars;
        if scalars == before {
            let mut out = BTreeMap::new();
            for (name, dims) in w.arrays {
                let mut v = Vec::new();
                for d in dims {
                    match d {
                        Some((lo, hi)) if lo.abs() < HUGE && hi.abs() < HUGE => {
                            v.push((lo as i64, hi as i64))
                        }
                        _ => return Err(format!("the subscripts of {name} cannot be bounded")),
                    }
                }
                out.insert(name, v);
            }
            return Ok(out);
        }
    }
    Err("an integer scalar used in a subscript keeps growing from pass to pass".into())
}

struct Walk<'a> {
    program: &'a Program,
    scalars: BTreeMap<String, Iv>,
    arrays: BTreeMap<String, Vec<Iv>>,
}

fn hull(a: Iv, b: Iv) -> Iv {
    match (a, b) {
        (Some((a0, a1)), Some((b0, b1))) => Some((a0.min(b0), a1.max(b1))),
        _ => None,
    }
}

fn clamp(v: Iv) -> Iv {
    v.filter(|(lo, hi)| lo.abs() < HUGE && hi.abs() < HUGE)
}

impl Walk<'_> {
    fn list(&mut self, body: &[Stmt]) -> Result<(), String> {
        for s in body {
            match s {
                Stmt::Assign { target, value, .. } => {
                    let v = self.value(value);
                    if target.subscripts.is_empty() {
                        if self.program.type_of(&target.name) == Type::Integer {
                            let old = self.scalars.get(&target.name).copied().flatten();
                            let new = match old {
                                Some(o) => hull(Some(o), v),
                                None => v,
                            };
                            self.scalars.insert(target.name.clone(), new);
                        }
                    } else {
                        self.element(&target.name, &target.subscripts);
                    }
                }
                Stmt::Do {
                    var, lo, hi, body, ..
                } => {
                    let (lo, hi) = (self.value(lo), self.value(hi));
                    let range = match (lo, hi) {
                        (Some((l0, _)), Some((_, h1))) => Some((l0, h1.max(l0))),
                        _ => None,
                    };
                    let saved = self.scalars.insert(var.clone(), range);
                    self.list(body)?;
                    match saved {
                        Some(v) => self.scalars.insert(var.clone(), v),
                        None => self.scalars.remove(var),
                    };
                }
                Stmt::Continue => {}
            }
        }
        Ok(())
    }

    /// Records the subscripts of an element of `name`.
    fn element(&mut self, name: &str, subs: &[Expr]) {
        let ivs: Vec<Iv> = subs.iter().map(|s| self.value(s)).collect();
        let entry = self
            .arrays
            .entry(name.to_string())
            .or_insert_with(|| ivs.clone());
        for (e, v) in entry.iter_mut().zip(ivs) {
            *e = hull(*e, v);
        }
    }

    /// The interval of an integer expression (recording the subscripts inside it).
    fn value(&mut self, e: &Expr) -> Iv {
        match e {
            Expr::Int(v, _) => Some((*v as i128, *v as i128)),
            Expr::Real(..) => None,
            Expr::Ref(r) => {
                if r.subscripts.is_empty() {
                    if self.program.type_of(&r.name) == Type::Integer {
                        self.scalars.get(&r.name).copied().flatten()
                    } else {
                        None
                    }
                } else {
                    self.element(&r.name, &r.subscripts);
                    None
                }
            }
            Expr::Paren(x, _) => self.value(x),
            Expr::Neg(x, _) => self.value(x).map(|(lo, hi)| (-hi, -lo)),
            Expr::Bin(op, a, b, _) => {
                let (a, b) = (self.value(a), self.value(b));
                let ((a0, a1), (b0, b1)) = (a?, b?);
                clamp(match op {
                    BinOp::Add => Some((a0 + b0, a1 + b1)),
                    BinOp::Sub => Some((a0 - b1, a1 - b0)),
                    BinOp::Mul => {
                        let p = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
                        Some((*p.iter().min()?, *p.iter().max()?))
                    }
                    BinOp::Div => {
                        if b0 <= 0 && b1 >= 0 {
                            None
                        } else {
                            let q = [a0 / b0, a0 / b1, a1 / b0, a1 / b1];
                            Some((*q.iter().min()?, *q.iter().max()?))
                        }
                    }
                })
            }
        }
    }
}
