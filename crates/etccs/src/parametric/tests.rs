//! Properties of the constraint machinery, checked against brute force on a
//! grid of valuations: the solver never calls a satisfiable conjunction
//! unsatisfiable (which would prune real paths), and simplifying a union
//! keeps exactly the same valuations.

use super::constraint::{Conj, Constraint, Normal, Rel};
use super::regions::{covered, simplify_union};
use super::solver::Solver;
use crate::linear::{Coef, LinExpr, Param};
use proptest::prelude::*;

/// Grid values 0, 1/2, …, 4 for each of two parameters.
fn grid() -> Vec<Vec<Coef>> {
    let vals: Vec<Coef> = (0..=8).map(|k| Coef::ratio(k, 2)).collect();
    let mut out = Vec::new();
    for x in &vals {
        for y in &vals {
            out.push(vec![x.clone(), y.clone()]);
        }
    }
    out
}

fn constraint() -> impl Strategy<Value = Option<Constraint>> {
    let rel = prop_oneof![Just(Rel::Gt), Just(Rel::Ge), Just(Rel::Eq), Just(Rel::Ne)];
    (-3i64..=3, -3i64..=3, -6i64..=6, rel).prop_map(|(a, b, c, rel)| {
        let k = Coef::int;
        let e = LinExpr::var(Param(0))
            .scale(&k(a))
            .add(&LinExpr::var(Param(1)).scale(&k(b)))
            .add(&LinExpr::constant(Coef::ratio(c, 2)));
        match Constraint::normal(e, rel) {
            Normal::Proper(k) => Some(k),
            _ => None,
        }
    })
}

fn conj() -> impl Strategy<Value = Conj> {
    proptest::collection::vec(constraint(), 1..5).prop_map(|cs| {
        let mut c = Conj::top();
        for k in cs.into_iter().flatten() {
            c = c.and(Normal::Proper(k)).expect("proper");
        }
        c
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// The normal form does not depend on how a constraint was written: scaling by a
    /// positive factor (and, for `=` and `!=`, by -1) gives the same constraint, whether
    /// the expression already has coprime integer coefficients or not.
    #[test]
    fn the_normal_form_ignores_scaling(
        a in -6i64..=6, b in -6i64..=6, c in -12i64..=12, d in 1i64..=4,
        kn in 1i64..=6, kd in 1i64..=6, neg in any::<bool>(), r in 0usize..4,
    ) {
        let rel = [Rel::Gt, Rel::Ge, Rel::Eq, Rel::Ne][r];
        let q = Coef::ratio;
        let e = LinExpr::var(Param(0))
            .scale(&q(a, 1))
            .add(&LinExpr::var(Param(1)).scale(&q(b, d)))
            .add(&LinExpr::constant(q(c, 1)));
        let mut k = q(kn, kd);
        if neg && matches!(rel, Rel::Eq | Rel::Ne) {
            k = k.neg();
        }
        let base = Constraint::normal(e.clone(), rel);
        prop_assert_eq!(&Constraint::normal(e.scale(&k), rel), &base);
        if let Normal::Proper(n) = &base {
            // Coprime integers, the first coefficient positive for `=` and `!=`.
            let all: Vec<&Coef> = n.expr.terms().iter().map(|(_, c)| c)
                .chain([n.expr.constant_part()]).collect();
            prop_assert!(all.iter().all(|c| c.is_integer()));
            let g = all.iter().fold(num_bigint::BigInt::from(0), |g, c| {
                num_integer::Integer::gcd(&g, &c.parts().0)
            });
            prop_assert_eq!(g, num_bigint::BigInt::from(1));
            if matches!(rel, Rel::Eq | Rel::Ne) {
                prop_assert!(n.expr.terms()[0].1.is_positive());
            }
        }
    }

    #[test]
    fn a_satisfied_grid_point_means_satisfiable(c in conj()) {
        let mut s = Solver::new(2);
        let witness = grid().into_iter().find(|v| c.holds(v));
        let sat = s.sat(&c).expect("small");
        if let Some(v) = witness {
            prop_assert!(sat, "{:?} holds at {:?} but was called unsatisfiable", c, v);
        }
    }

    #[test]
    fn implication_holds_at_every_grid_point(c in conj(), k in constraint()) {
        let Some(k) = k else { return Ok(()) };
        let mut s = Solver::new(2);
        if s.implies(&c, &k).expect("small") {
            for v in grid() {
                if c.holds(&v) {
                    prop_assert!(k.holds(&v), "{:?} does not imply {:?} at {:?}", c, k, v);
                }
            }
        }
    }

    #[test]
    fn simplifying_a_union_keeps_its_points(pieces in proptest::collection::vec(conj(), 1..5)) {
        let mut s = Solver::new(2);
        let simple = simplify_union(&mut s, pieces.clone(), &Conj::top()).expect("small");
        for v in grid() {
            let before = pieces.iter().any(|p| p.holds(&v));
            let after = simple.iter().any(|p| p.holds(&v));
            prop_assert_eq!(before, after, "{:?} -> {:?} at {:?}", pieces, simple, v);
        }
    }
}

#[test]
fn strict_inequalities_and_disequations() {
    let t = |i| LinExpr::var(Param(i));
    let k = |e: LinExpr, rel| match Constraint::normal(e, rel) {
        Normal::Proper(k) => k,
        _ => panic!("proper"),
    };
    let mut s = Solver::new(2);
    // t1 > t2 and t2 > t1: empty.
    let c = Conj::top()
        .and(Normal::Proper(k(t(0).sub(&t(1)), Rel::Gt)))
        .and_then(|c| c.and(Normal::Proper(k(t(1).sub(&t(0)), Rel::Gt))))
        .expect("proper");
    assert!(!s.sat(&c).expect("small"));
    // t1 >= t2, t2 >= t1, t1 != t2: the line minus itself is empty.
    let c = Conj::top()
        .and(Normal::Proper(k(t(0).sub(&t(1)), Rel::Ge)))
        .and_then(|c| c.and(Normal::Proper(k(t(1).sub(&t(0)), Rel::Ge))))
        .and_then(|c| c.and(Normal::Proper(k(t(0).sub(&t(1)), Rel::Ne))))
        .expect("proper");
    assert!(!s.sat(&c).expect("small"));
    // t1 + t2 <= 0 forces both to 0 (parameters are >= 0), so t1 != 0 is impossible.
    let c = Conj::top()
        .and(Normal::Proper(k(
            t(0).add(&t(1)).scale(&Coef::int(-1)),
            Rel::Ge,
        )))
        .and_then(|c| c.and(Normal::Proper(k(t(0), Rel::Ne))))
        .expect("proper");
    assert!(!s.sat(&c).expect("small"));
    // 2*t1 = 3 is satisfiable (at 3/2), and with t1 != 3/2 it is not.
    let e = t(0)
        .scale(&Coef::int(2))
        .sub(&LinExpr::constant(Coef::int(3)));
    let c = Conj::top()
        .and(Normal::Proper(k(e.clone(), Rel::Eq)))
        .expect("proper");
    assert!(s.sat(&c).expect("small"));
    let c = c.and(Normal::Proper(k(e, Rel::Ne))).expect("proper");
    assert!(!s.sat(&c).expect("small"));
}

#[test]
fn coverage_is_found_past_pieces_that_miss_the_region() {
    // x = t1, y = t2. R = {x >= 2, y < 1} lies inside B = {x >= 1, y < 1}. Thirteen
    // disjoint pieces F_k = {10 + 2k < y < 11 + 2k, x > 100} come first and miss R; each
    // splits it two ways, so a search that branches on them needs 2^13 checks (beyond
    // MAX_COVER_STEPS) before it reaches B.
    let t = |i| LinExpr::var(Param(i));
    let n = |v: i64| LinExpr::constant(Coef::int(v));
    let k = |e: LinExpr, rel| match Constraint::normal(e, rel) {
        Normal::Proper(k) => k,
        _ => panic!("proper"),
    };
    let conj = |ks: Vec<Constraint>| {
        ks.into_iter().fold(Conj::top(), |c, k| {
            c.and(Normal::Proper(k)).expect("proper")
        })
    };
    let y_below_1 = k(n(1).sub(&t(1)), Rel::Gt);
    let region = conj(vec![k(t(0).sub(&n(2)), Rel::Ge), y_below_1.clone()]);
    let b = conj(vec![k(t(0).sub(&n(1)), Rel::Ge), y_below_1]);
    let far: Vec<Conj> = (0..13)
        .map(|j| {
            conj(vec![
                k(t(1).sub(&n(10 + 2 * j)), Rel::Gt),
                k(n(11 + 2 * j).sub(&t(1)), Rel::Gt),
                k(t(0).sub(&n(100)), Rel::Gt),
            ])
        })
        .collect();
    let mut s = Solver::new(2);
    let pieces: Vec<&Conj> = far.iter().chain(std::iter::once(&b)).collect();
    assert!(covered(&mut s, &region, &pieces).expect("small"));
    // Without B the region is not covered.
    assert!(!covered(&mut s, &region, &pieces[..13]).expect("small"));
    // Nor is it by B when it reaches below x = 1.
    let wider = conj(vec![
        k(t(1).sub(&n(0)), Rel::Ge),
        k(n(1).sub(&t(1)), Rel::Gt),
    ]);
    assert!(!covered(&mut s, &wider, &pieces).expect("small"));
}
