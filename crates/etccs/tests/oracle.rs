//! Differential test: the hash-consed n-ary explorer against a naive,
//! literal implementation of spec §4.2 (binary terms, I/Δ/Delay/Action by
//! the definitions, synchronisation ranging over all names, tree-shaped
//! EXEC without state sharing).

use etccs::{analyse, parse, Options, Outcome, Time};
use num_traits::Zero;
use proptest::prelude::*;

/// An action: `Some((name, co))` or `None` for τ. Names: 0 = a, 1 = b.
type A = Option<(u8, bool)>;

#[derive(Clone, Debug)]
enum N {
    Nil,
    Pre(A, u32, Box<N>),
    Sum(Box<N>, Box<N>),
    Par(Box<N>, Box<N>),
    /// Restrict `a`.
    ResA(Box<N>),
    /// Relabel `[b/a]`.
    RelBA(Box<N>),
}

#[derive(Clone, Debug)]
enum T {
    Nil,
    Pre(A, Time, Box<T>),
    Sum(Box<T>, Box<T>),
    Par(Box<T>, Box<T>),
    ResA(Box<T>),
    RelBA(Box<T>),
}

fn text(n: &N) -> String {
    match n {
        N::Nil => "nil".into(),
        N::Pre(a, v, p) => {
            let s = match a {
                None => "tau".to_string(),
                Some((k, co)) => {
                    format!("{}{}", if *co { "'" } else { "" }, ["a", "b"][*k as usize])
                }
            };
            format!("{s}@{v}.({})", text(p))
        }
        N::Sum(p, q) => format!("({} + {})", text(p), text(q)),
        N::Par(p, q) => format!("({} | {})", text(p), text(q)),
        N::ResA(p) => format!("({})\\{{a}}", text(p)),
        N::RelBA(p) => format!("({})[b/a]", text(p)),
    }
}

fn lift(n: &N) -> T {
    match n {
        N::Nil => T::Nil,
        N::Pre(a, v, p) => T::Pre(*a, Time::from_integer((*v).into()), Box::new(lift(p))),
        N::Sum(p, q) => T::Sum(Box::new(lift(p)), Box::new(lift(q))),
        N::Par(p, q) => T::Par(Box::new(lift(p)), Box::new(lift(q))),
        N::ResA(p) => T::ResA(Box::new(lift(p))),
        N::RelBA(p) => T::RelBA(Box::new(lift(p))),
    }
}

const ALL: [A; 5] = [
    None,
    Some((0, false)),
    Some((0, true)),
    Some((1, false)),
    Some((1, true)),
];

fn co(a: A) -> A {
    a.map(|(k, c)| (k, !c))
}

fn f(a: A) -> A {
    a.map(|(k, c)| (if k == 0 { 1 } else { k }, c))
}

/// I(P, α): intervals `(lo, hi)` with `hi = None` meaning ∞.
fn intervals(p: &T, al: A) -> Vec<(Time, Option<Time>)> {
    match p {
        T::Nil => vec![],
        T::Pre(b, v, _) => {
            if *b != al {
                vec![]
            } else if al.is_none() {
                vec![(v.clone(), Some(v.clone()))]
            } else {
                vec![(v.clone(), None)]
            }
        }
        T::Sum(x, y) => [intervals(x, al), intervals(y, al)].concat(),
        T::Par(x, y) => {
            let mut out = [intervals(x, al), intervals(y, al)].concat();
            if al.is_none() {
                for b in ALL.iter().copied().filter(|b| b.is_some()) {
                    for (u1, u2) in intervals(x, b) {
                        for (u3, u4) in intervals(y, co(b)) {
                            let lo = if u1 > u3 { u1.clone() } else { u3.clone() };
                            let ok = u2.as_ref().is_none_or(|h| *h >= lo)
                                && u4.as_ref().is_none_or(|h| *h >= lo);
                            if ok {
                                out.push((lo.clone(), Some(lo)));
                            }
                        }
                    }
                }
            }
            out
        }
        T::ResA(x) => {
            if matches!(al, Some((0, _))) {
                vec![]
            } else {
                intervals(x, al)
            }
        }
        T::RelBA(x) => ALL
            .iter()
            .filter(|b| f(**b) == al)
            .flat_map(|b| intervals(x, *b))
            .collect(),
    }
}

fn delay(p: &T, u: &Time) -> T {
    match p {
        T::Nil => T::Nil,
        T::Pre(a, v, k) => {
            let nv = if v > u { v - u } else { Time::zero() };
            T::Pre(*a, nv, k.clone())
        }
        T::Sum(x, y) => T::Sum(Box::new(delay(x, u)), Box::new(delay(y, u))),
        T::Par(x, y) => T::Par(Box::new(delay(x, u)), Box::new(delay(y, u))),
        T::ResA(x) => T::ResA(Box::new(delay(x, u))),
        T::RelBA(x) => T::RelBA(Box::new(delay(x, u))),
    }
}

fn action(p: &T, al: A) -> Vec<T> {
    match p {
        T::Nil => vec![],
        T::Pre(b, v, k) => {
            if *b == al && v.is_zero() {
                vec![(**k).clone()]
            } else {
                vec![]
            }
        }
        T::Sum(x, y) => [action(x, al), action(y, al)].concat(),
        T::Par(x, y) => {
            let mut out: Vec<T> = action(x, al)
                .into_iter()
                .map(|x2| T::Par(Box::new(x2), y.clone()))
                .collect();
            out.extend(
                action(y, al)
                    .into_iter()
                    .map(|y2| T::Par(x.clone(), Box::new(y2))),
            );
            if al.is_none() {
                for b in ALL.iter().copied().filter(|b| b.is_some()) {
                    for x2 in action(x, b) {
                        for y2 in action(y, co(b)) {
                            out.push(T::Par(Box::new(x2.clone()), Box::new(y2)));
                        }
                    }
                }
            }
            out
        }
        T::ResA(x) => {
            if matches!(al, Some((0, _))) {
                vec![]
            } else {
                action(x, al)
                    .into_iter()
                    .map(|x2| T::ResA(Box::new(x2)))
                    .collect()
            }
        }
        T::RelBA(x) => ALL
            .iter()
            .filter(|b| f(**b) == al)
            .flat_map(|b| action(x, *b))
            .map(|x2| T::RelBA(Box::new(x2)))
            .collect(),
    }
}

fn exec(p: &T) -> Vec<Time> {
    let s: Vec<(A, Time)> = ALL
        .iter()
        .flat_map(|a| intervals(p, *a).into_iter().map(move |(lo, _)| (*a, lo)))
        .collect();
    let Some(u) = s.iter().map(|(_, lo)| lo.clone()).min() else {
        return vec![Time::zero()];
    };
    let mut out = Vec::new();
    for a in ALL {
        if s.iter().any(|(b, lo)| *b == a && *lo == u) {
            for q in action(&delay(p, &u), a) {
                out.extend(exec(&q).into_iter().map(|t| t + &u));
            }
        }
    }
    if out.is_empty() {
        // Δ non-empty always yields a transition; keep the oracle total anyway.
        out.push(Time::zero());
    }
    out
}

fn node() -> impl Strategy<Value = N> {
    let act = prop_oneof![
        Just(None),
        Just(Some((0u8, false))),
        Just(Some((0, true))),
        Just(Some((1, false))),
        Just(Some((1, true)))
    ];
    Just(N::Nil).prop_recursive(4, 20, 2, move |inner| {
        prop_oneof![
            3 => (act.clone(), 0u32..4, inner.clone()).prop_map(|(a, v, p)| N::Pre(a, v, Box::new(p))),
            1 => (inner.clone(), inner.clone()).prop_map(|(p, q)| N::Sum(Box::new(p), Box::new(q))),
            2 => (inner.clone(), inner.clone()).prop_map(|(p, q)| N::Par(Box::new(p), Box::new(q))),
            1 => inner.clone().prop_map(|p| N::ResA(Box::new(p))),
            1 => inner.prop_map(|p| N::RelBA(Box::new(p))),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn explorer_matches_literal_semantics(n in node()) {
        let src = format!("define P = {}", text(&n));
        let mut m = parse("oracle.etccs", &src).expect("parses");
        let a = analyse(&mut m, "P", &Options::default()).expect("analyses");
        prop_assert_eq!(&a.outcome, &Outcome::Terminated);
        let mut want = exec(&lift(&n));
        want.sort();
        prop_assert_eq!(a.exec_list(usize::MAX), want, "{}", src);
    }
}
