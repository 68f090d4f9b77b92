//! Satisfiability of conjunctions of linear constraints over non-negative
//! rational parameters, with strict inequalities and disequations
//! (spec §5.3), decided exactly.
//!
//! Equalities are eliminated by Gaussian substitution, inequalities by
//! Fourier–Motzkin elimination with strictness tracking (a combination is
//! strict if either parent is), keeping only the tightest constant per
//! direction. Disequations are passive: a non-empty convex set minus
//! finitely many hyperplanes is empty only if it lies inside one of them,
//! so `C ∧ e ≠ 0` is satisfiable iff `C ∧ e > 0` or `C ∧ e < 0` is.
//! Results are cached per conjunction.

use super::constraint::{Conj, Constraint, Normal, Rel};
use crate::linear::{Coef, LinExpr};
use crate::term::FxHashMap;
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// Upper bound on the inequalities alive during one elimination.
pub const MAX_ROWS: usize = 50_000;

/// The solver gave up: elimination produced more than [`MAX_ROWS`] rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooHard;

/// `a·x + c > 0` (strict) or `>= 0`, over integers (a constraint's
/// coefficients are coprime integers; eliminations keep them integral).
#[derive(Clone, Debug)]
struct Row {
    a: Vec<BigInt>,
    c: BigInt,
    strict: bool,
}

impl Row {
    fn from_expr(e: &LinExpr, n: usize, strict: bool) -> Row {
        // Constraints are normalised to integers; scale defensively anyway.
        let mut den = BigInt::one();
        for k in e.terms().iter().map(|(_, k)| k).chain([e.constant_part()]) {
            if !k.is_integer() {
                den = den.lcm(&k.parts().1);
            }
        }
        let int = |k: &Coef| {
            let (n, d) = k.parts();
            if den.is_one() {
                n
            } else {
                n * (&den / d)
            }
        };
        let mut a = vec![BigInt::zero(); n];
        for (p, k) in e.terms() {
            a[p.0 as usize] = int(k);
        }
        Row {
            a,
            c: int(e.constant_part()),
            strict,
        }
    }

    /// `p·self - q·other`.
    fn combine(&self, p: &BigInt, other: &Row, q: &BigInt) -> Row {
        Row {
            a: self
                .a
                .iter()
                .zip(&other.a)
                .map(|(x, y)| x * p - y * q)
                .collect(),
            c: &self.c * p - &other.c * q,
            strict: self.strict || other.strict,
        }
    }

    /// Divides by the gcd of the coefficients, so equal directions compare
    /// equal.
    fn normalise(mut self) -> Row {
        let mut g = BigInt::zero();
        for x in self.a.iter().chain(std::iter::once(&self.c)) {
            g = crate::linear::gcd(&g, x);
            if g.is_one() {
                return self;
            }
        }
        if g.is_zero() {
            return self;
        }
        for x in &mut self.a {
            *x /= &g;
        }
        self.c /= &g;
        self
    }

    fn is_constant(&self) -> bool {
        self.a.iter().all(Zero::is_zero)
    }

    fn constant_holds(&self) -> bool {
        if self.strict {
            self.c.is_positive()
        } else {
            !self.c.is_negative()
        }
    }
}

/// Exact decision procedure for conjunctions over `n` parameters.
#[derive(Debug)]
pub struct Solver {
    n: usize,
    cache: FxHashMap<Conj, bool>,
    /// Number of satisfiability problems actually solved (cache misses).
    pub solved: u64,
}

impl Solver {
    /// A solver for `n` parameters (all `>= 0`).
    pub fn new(n: usize) -> Self {
        Solver {
            n,
            cache: FxHashMap::default(),
            solved: 0,
        }
    }

    /// Whether some valuation (parameters `>= 0`) satisfies `c`.
    pub fn sat(&mut self, c: &Conj) -> Result<bool, TooHard> {
        if let Some(&r) = self.cache.get(c) {
            return Ok(r);
        }
        self.solved += 1;
        let r = self.sat_uncached(c)?;
        self.cache.insert(c.clone(), r);
        Ok(r)
    }

    /// Whether `c ∧ k` is satisfiable (`false` if `k` is trivially false).
    pub fn sat_with(&mut self, c: &Conj, k: Normal) -> Result<bool, TooHard> {
        match c.and(k) {
            None => Ok(false),
            Some(c2) => self.sat(&c2),
        }
    }

    /// Whether every valuation satisfying `c` satisfies `k`.
    pub fn implies(&mut self, c: &Conj, k: &Constraint) -> Result<bool, TooHard> {
        Ok(!self.sat_with(c, Normal::Proper(k.negate()))?)
    }

    fn sat_uncached(&mut self, c: &Conj) -> Result<bool, TooHard> {
        let (ne, core): (Vec<&Constraint>, Vec<&Constraint>) =
            c.0.iter().partition(|k| k.rel == Rel::Ne);
        if !self.core_sat(&core)? {
            return Ok(false);
        }
        for d in ne {
            let mut with = core.clone();
            let gt = Constraint {
                expr: d.expr.clone(),
                rel: Rel::Gt,
            };
            let lt = Constraint {
                expr: d.expr.scale(&Coef::int(-1)),
                rel: Rel::Gt,
            };
            with.push(&gt);
            let above = self.core_sat(&with)?;
            with.pop();
            with.push(&lt);
            if !above && !self.core_sat(&with)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Satisfiability without disequations.
    fn core_sat(&self, cs: &[&Constraint]) -> Result<bool, TooHard> {
        let n = self.n;
        let mut eqs = Vec::new();
        // Non-negativity of every parameter, then the inequalities.
        let mut rows: Vec<Row> = (0..n)
            .map(|i| {
                let mut a = vec![BigInt::zero(); n];
                a[i] = BigInt::one();
                Row {
                    a,
                    c: BigInt::zero(),
                    strict: false,
                }
            })
            .collect();
        for k in cs {
            match k.rel {
                Rel::Eq => eqs.push(Row::from_expr(&k.expr, n, false)),
                Rel::Gt => rows.push(Row::from_expr(&k.expr, n, true)),
                Rel::Ge => rows.push(Row::from_expr(&k.expr, n, false)),
                Rel::Ne => {}
            }
        }
        // Gaussian elimination of the equalities (also substituted into the
        // non-negativity rows, which keeps eliminated parameters >= 0).
        while let Some(eq) = eqs.pop() {
            let Some(k) = eq.a.iter().position(|x| !x.is_zero()) else {
                if !eq.c.is_zero() {
                    return Ok(false);
                }
                continue;
            };
            // r·|piv| - eq·(r_k·sign(piv)) cancels x_k and keeps r's sense.
            let piv = eq.a[k].clone();
            let (scale, sign) = if piv.is_negative() {
                (-piv.clone(), -BigInt::one())
            } else {
                (piv.clone(), BigInt::one())
            };
            for r in rows.iter_mut().chain(eqs.iter_mut()) {
                if !r.a[k].is_zero() {
                    let f = &r.a[k] * &sign;
                    let strict = r.strict;
                    *r = r.combine(&scale, &eq, &f).normalise();
                    r.strict = strict;
                }
            }
        }
        // Fourier–Motzkin over the remaining parameters.
        let Ok(mut rows) = prune(rows) else {
            return Ok(false);
        };
        for k in 0..n {
            let (mut pos, mut neg, mut rest) = (Vec::new(), Vec::new(), Vec::new());
            for r in rows {
                match r.a[k].sign() {
                    Sign::Plus => pos.push(r),
                    Sign::Minus => neg.push(r),
                    Sign::NoSign => rest.push(r),
                }
            }
            if pos.len().saturating_mul(neg.len()) > MAX_ROWS {
                return Err(TooHard);
            }
            for p in &pos {
                for q in &neg {
                    // p·(-q_k) - q·(-p_k) cancels x_k (both factors positive).
                    let mut r = p.combine(&-q.a[k].clone(), q, &-p.a[k].clone());
                    r.a[k] = BigInt::zero();
                    rest.push(r);
                }
            }
            rows = match prune(rest) {
                Ok(r) => r,
                Err(Infeasible) => return Ok(false),
            };
        }
        Ok(rows.iter().all(Row::constant_holds))
    }
}

/// A constant row that does not hold: the system is infeasible.
struct Infeasible;

/// Normalises rows, drops constant ones that hold, fails on one that does
/// not, and keeps per direction only the tightest row.
fn prune(rows: Vec<Row>) -> Result<Vec<Row>, Infeasible> {
    let mut best: FxHashMap<Vec<BigInt>, (BigInt, bool)> = FxHashMap::default();
    for r in rows {
        if r.is_constant() {
            if !r.constant_holds() {
                return Err(Infeasible);
            }
            continue;
        }
        let r = r.normalise();
        match best.get_mut(&r.a) {
            Some((c, strict)) => {
                // a·x + c ⋈ 0 is tighter with a smaller c, or strict at equal c.
                if r.c < *c || (r.c == *c && r.strict) {
                    *c = r.c;
                    *strict = r.strict;
                }
            }
            None => {
                best.insert(r.a, (r.c, r.strict));
            }
        }
    }
    Ok(best
        .into_iter()
        .map(|(a, (c, strict))| Row { a, c, strict })
        .collect())
}
