//! Issue acceptance for the modelers on seeded synthetic data (`suite`): exponent recovery
//! under noise, and the `vates` modeler's extrapolation against the `extrap` modeler's.

mod suite;

use fit::pmnf::{extrap_single, ExtrapOptions, DEFAULT_BLOCKS};
use fit::vates::{search_single, VatesOptions};
use fit::{Basis, Fitted, Measurement};
use stats::rng::Draw;
use suite::{cases, median_or_nan, Kind, TARGET};

/// The single block of a one-term model.
fn block(m: &Fitted) -> Option<fit::pmnf::Term> {
    match m.model.terms.as_slice() {
        [t] => {
            let Basis::Pmnf(f) = &t.basis else {
                return None;
            };
            Some(f[0].term)
        }
        _ => None,
    }
}

/// 200 seeded one-term cases `200 + 10·b` (every default block in turn, as the exact
/// recovery test) measured at x = 2, 4, …, 1024 with 2% noise and five repetitions: the
/// `vates` modeler recovers the block in at least 95% of them (191 of 200 when written);
/// the `extrap` modeler, whose unweighted fit lets the largest values decide, in 167.
/// Over x = 2..32 only, adjacent blocks (x^(3/2) and x^(4/3)·log2(x)) are
/// indistinguishable under this noise for either modeler.
const XS: [f64; 10] = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0];

#[test]
fn exponents_are_recovered_under_two_percent_noise() {
    let mut rng = stats::rng::seeded(7);
    let (mut hits_e, mut hits_v) = (0, 0);
    let n = 200;
    for i in 0..n {
        let b = DEFAULT_BLOCKS[i % DEFAULT_BLOCKS.len()];
        let (c0, c1) = (200.0, 10.0);
        let ms: Vec<Measurement> = XS
            .iter()
            .map(|&x: &f64| {
                let values = (0..5)
                    .map(|_| (c0 + c1 * b.eval(x)) * (1.0 + 0.02 * rng.gauss()))
                    .collect();
                Measurement::one(x, values)
            })
            .collect();
        let e = extrap_single(&ms, &ExtrapOptions::default()).unwrap();
        let v = search_single(&ms, &VatesOptions::default()).unwrap();
        hits_e += usize::from(block(&e) == Some(b));
        hits_v += usize::from(block(&v.best) == Some(b));
    }
    assert!(hits_v * 100 >= 95 * n, "vates recovered {hits_v} of {n}");
    assert!(hits_e * 100 >= 80 * n, "extrap recovered {hits_e} of {n}");
}

/// The seeded suite of 120 data sets (40 one-term, 40 two-term, 40 outside PMNF; 1–10%
/// noise; x ≤ 64): the `vates` modeler's median relative error at x = 1024 is lower than the
/// `extrap` modeler's overall and on the two-term sets, and at most 10% higher on the
/// one-term sets. `cargo run --release -p fit --example extrapolation` prints the table.
#[test]
fn vates_extrapolates_better_than_extrap() {
    let mut rows: Vec<(Kind, f64, f64)> = Vec::new();
    for c in cases(1, 40) {
        let e = extrap_single(&c.measurements, &ExtrapOptions::default()).unwrap();
        let v = search_single(&c.measurements, &VatesOptions::default()).unwrap();
        let err = |p: f64| (p - c.truth).abs() / c.truth;
        rows.push((
            c.kind,
            err(e.model.eval(&[TARGET])),
            err(v.best.model.eval(&[TARGET])),
        ));
    }
    let med = |kind: Option<Kind>| {
        let sel: Vec<&(Kind, f64, f64)> = rows
            .iter()
            .filter(|r| kind.is_none_or(|k| r.0 == k))
            .collect();
        (
            median_or_nan(sel.iter().map(|r| r.1).collect()),
            median_or_nan(sel.iter().map(|r| r.2).collect()),
        )
    };
    let (e_all, v_all) = med(None);
    let (e_two, v_two) = med(Some(Kind::TwoTerm));
    let (e_one, v_one) = med(Some(Kind::OneTerm));
    assert!(v_all < e_all, "overall: vates {v_all} vs extrap {e_all}");
    assert!(v_two < e_two, "two terms: vates {v_two} vs extrap {e_two}");
    assert!(
        v_one <= 1.1 * e_one,
        "one term: vates {v_one} vs extrap {e_one}"
    );
}
