//! The `extrap` modeler (`fit::pmnf::extrap_single`) against Extra-P 4.2.5: recovery of
//! every default building block (Extra-P's own `test_basic_modeler.py` check, here to 1e-9),
//! and the models Extra-P prints for its example and test inputs (`extrap --text FILE
//! --print functions`).

use fit::pmnf::{extrap_single, ExtrapOptions, Term, DEFAULT_BLOCKS};
use fit::{Basis, Fitted, Measurement};

fn points(x: &[f64], data: &[&[f64]]) -> Vec<Measurement> {
    x.iter()
        .zip(data)
        .map(|(&x, v)| Measurement::one(x, v.to_vec()))
        .collect()
}

/// The one term of a model: its coefficient and block.
fn single_term(m: &Fitted) -> Option<(f64, Term)> {
    let t = m.model.terms.first()?;
    let Basis::Pmnf(f) = &t.basis else {
        return None;
    };
    Some((t.coefficient, f[0].term))
}

fn show(m: &Fitted) -> String {
    m.model.display(&["x".to_string()]).to_string()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-12)
}

/// The model of `pts` is `c0 + c1 * term` (Extra-P's printout), to 1e-6.
fn expect(pts: &[Measurement], term: &str, c0: f64, c1: f64) {
    let m = extrap_single(pts, &ExtrapOptions::default()).unwrap();
    let (got_c1, got) = single_term(&m).unwrap_or_else(|| panic!("constant model {}", show(&m)));
    assert_eq!(got.to_string(), term, "{}", show(&m));
    assert!(
        close(m.model.constant, c0, 1e-6) && close(got_c1, c1, 1e-6),
        "{}",
        show(&m)
    );
}

#[test]
fn every_default_block_is_recovered() {
    let x = [2.0, 4.0, 8.0, 16.0, 32.0];
    for term in DEFAULT_BLOCKS {
        let pts: Vec<Measurement> = x
            .iter()
            .map(|&x| Measurement::one(x, vec![200.0 + 10.0 * term.eval(x)]))
            .collect();
        let m = extrap_single(&pts, &ExtrapOptions::default()).unwrap();
        let (c1, got) = single_term(&m).unwrap_or_else(|| panic!("{term}: constant model"));
        assert_eq!(got, term, "{term}: chose {got}");
        assert!(
            close(m.model.constant, 200.0, 1e-9) && close(c1, 10.0, 1e-9),
            "{term}: {}",
            show(&m)
        );
    }
}

#[test]
fn extrap_docs_example() {
    // docs/examples/input.txt: Extra-P prints 2.8183276094059617 + 0.48270031135124886 *
    // p^(5/4) * log2(p)^(1).
    let m = points(
        &[4.0, 8.0, 16.0, 32.0, 64.0],
        &[
            &[8.31, 8.02, 8.14],
            &[22.74, 22.66, 23.20],
            &[65.79, 64.74, 66.62],
            &[186.78, 184.68, 181.58],
            &[528.86, 522.44, 531.78],
        ],
    );
    expect(
        &m,
        "x^(5/4) * log2(x)^(1)",
        2.8183276094059617,
        0.48270031135124886,
    );
}

#[test]
fn extrap_test_one_parameter_3() {
    // tests/data/text/one_parameter_3.txt: -1.2988175595135387 + 0.2018255805983842 * x^(2).
    let m = points(
        &[20.0, 30.0, 40.0, 50.0, 60.0],
        &[
            &[
                82.00848518948744,
                81.42023198759563,
                81.98984501217201,
                80.76019835580321,
                82.54252892405795,
            ],
            &[
                184.5140079299443,
                177.46069577925178,
                179.12260901809867,
                178.9221229310546,
                177.93461023001083,
            ],
            &[
                315.26845992523744,
                314.8769218843138,
                315.7165660477195,
                324.22329944880516,
                323.2719163782126,
            ],
            &[
                509.81064352081336,
                495.74457198852593,
                501.0059487282256,
                502.5272204028191,
                509.6665018646357,
            ],
            &[
                725.3886983183301,
                727.8628493044997,
                727.0517005284136,
                729.5284355624206,
                721.0616186790007,
            ],
        ],
    );
    expect(&m, "x^(2)", -1.2988175595135387, 0.2018255805983842);
}

#[test]
fn extrap_test_one_parameter_6() {
    // tests/data/text/one_parameter_6.txt, regions met1..met3: 4.068 (constant),
    // 0.0004973684210394235 + 9.99997985800278e-07 * p^(2),
    // 2.182252631578941 + 1.0121669702114525e-06 * p^(2).
    let x = [1000.0, 2000.0, 4000.0, 8000.0, 16000.0];
    let met1 = points(
        &x,
        &[
            &[4.1, 3.9, 4.0, 4.0, 4.1],
            &[4.1, 3.9, 4.0, 4.0, 4.1],
            &[4.1, 3.9, 4.3, 4.0, 4.1],
            &[4.1, 3.9, 4.0, 4.0, 4.1],
            &[4.1, 3.9, 4.9, 4.0, 4.1],
        ],
    );
    let m = extrap_single(&met1, &ExtrapOptions::default()).unwrap();
    assert!(m.model.terms.is_empty(), "{}", show(&m));
    assert!(close(m.model.constant, 4.068, 1e-12), "{}", show(&m));
    let rows: [(&[&[f64]], f64, f64); 2] = [
        (
            &[
                &[1.0, 1.0, 1.0, 1.0, 1.0],
                &[4.0, 4.0, 4.0, 3.99, 4.01],
                &[16.0, 15.999, 16.01, 16.01, 15.99],
                &[64.0, 64.0, 64.0, 64.01, 63.99],
                &[256.01, 255.99, 256.0, 256.0],
            ],
            0.0004973684210394235,
            9.99997985800278e-07,
        ),
        (
            &[
                &[2.0, 2.0, 2.0, 2.0, 2.001],
                &[6.1, 5.9, 6.0, 6.0, 6.1],
                &[19.1, 18.9, 19.0, 19.0, 19.1],
                &[68.1, 67.9, 68.0, 68.0, 68.1],
                &[261.1, 260.9, 260.9, 261.0, 261.1],
            ],
            2.182252631578941,
            1.0121669702114525e-06,
        ),
    ];
    for (data, c0, c1) in rows {
        expect(&points(&x, data), "x^(2)", c0, c1);
    }
}

#[test]
fn bad_points_are_errors() {
    assert!(extrap_single(&[], &ExtrapOptions::default()).is_err());
    let nan = [Measurement::one(2.0, vec![f64::NAN])];
    assert!(extrap_single(&nan, &ExtrapOptions::default()).is_err());
    let empty = [Measurement::one(2.0, vec![])];
    assert!(extrap_single(&empty, &ExtrapOptions::default()).is_err());
}
