//! The `vates` modeler beyond the blocks: user basis functions, and models of several
//! parameters.

use fit::vates::{search, search_single, VatesOptions};
use fit::{Basis, Measurement, UserBasis};

/// Strassen-like data, 10 + 0.5·x^log2(7) with 2% noise at x = 2..64: no default block has
/// the exponent 2.807, so with the blocks alone the prediction at x = 1024 misses by more
/// than 5% (9.4% when written). The blocks miss the data by more than its noise, so the
/// modeler fits the exponent (2.805) and predicts within 3%; given the user basis
/// `x^log2(7)` it picks that.
#[test]
fn a_user_basis_outside_pmnf_is_found() {
    let f = |x: f64| 10.0 + 0.5 * x.powf(7f64.log2());
    let mut rng = stats::rng::seeded(3);
    let mut noise = move || (stats::rng::Draw::uniform(&mut rng) - 0.5) * 0.04;
    let ms: Vec<Measurement> = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0]
        .iter()
        .map(|&x| Measurement::one(x, (0..5).map(|_| f(x) * (1.0 + noise())).collect()))
        .collect();
    let truth = f(1024.0);
    let blocks_only = VatesOptions {
        fit_exponent: false,
        ..VatesOptions::default()
    };
    let plain = search_single(&ms, &blocks_only).unwrap();
    let err = |m: &fit::Model| (m.eval(&[1024.0]) - truth).abs() / truth;
    assert!(err(&plain.best.model) > 0.05, "{}", err(&plain.best.model));
    let names = ["x".to_string()];
    let fitted = search_single(&ms, &VatesOptions::default()).unwrap();
    assert!(
        err(&fitted.best.model) < 0.03,
        "{}: {}",
        fitted.best.model.display(&names),
        err(&fitted.best.model)
    );
    let opts = VatesOptions {
        user: vec![UserBasis::new("x^log2(7)", &names).unwrap()],
        ..blocks_only
    };
    let with = search_single(&ms, &opts).unwrap();
    assert!(
        matches!(with.best.model.terms.as_slice(), [t] if matches!(&t.basis, Basis::User(u) if u.text == "x^log2(7)")),
        "{}",
        with.best.model.display(&names)
    );
    assert!(err(&with.best.model) < 0.03, "{}", err(&with.best.model));
}

#[test]
fn user_bases_name_unknown_parameters() {
    let names = ["p".to_string(), "n".to_string()];
    let e = UserBasis::new("q*log2(n)", &names).unwrap_err();
    assert!(e.contains("`q`") && e.contains("not a parameter"), "{e}");
    let e = UserBasis::new("n*log2(n", &names).unwrap_err();
    assert!(e.contains("expected"), "{e}");
}

/// Exact two-parameter data (Extra-P's two_parameter_5 form): 2 + 0.884·log2(p)·s is found.
#[test]
fn two_parameter_product_is_recovered() {
    let mut ms = Vec::new();
    for p in [2.0f64, 4.0, 8.0, 16.0, 32.0] {
        for s in [10.0, 20.0, 30.0, 40.0, 50.0] {
            let v = 2.0 + 0.884 * p.log2() * s;
            ms.push(Measurement {
                point: vec![p, s],
                values: vec![v, v * 1.001, v * 0.999],
            });
        }
    }
    let m = search(&ms, 2, &VatesOptions::default()).unwrap();
    let names = ["p".to_string(), "s".to_string()];
    let shown = m.best.model.display(&names).to_string();
    assert_eq!(m.best.model.terms.len(), 1, "{shown}");
    let Basis::Pmnf(f) = &m.best.model.terms[0].basis else {
        panic!("{shown}")
    };
    assert_eq!(f.len(), 2, "{shown}");
    assert!(
        (m.best.model.terms[0].coefficient - 0.884).abs() < 1e-3,
        "{shown}"
    );
}

/// Values near the largest float: both modelers give finite models and predictions, no
/// overflow and no panic (the run scales values by a power of two).
#[test]
fn values_near_the_largest_float_are_modelled() {
    use fit::read::{Experiment, Series};
    use fit::run::{model_experiment, Modeler, RunOptions};
    let measurements = [1.0, 2.0, 4.0, 8.0, 16.0]
        .iter()
        .map(|&p: &f64| {
            Measurement::one(
                p,
                vec![1e307 * (1.0 + p.log2()), 1.01e307 * (1.0 + p.log2())],
            )
        })
        .collect();
    let e = Experiment {
        parameters: vec!["p".into()],
        series: vec![Series {
            callpath: "c".into(),
            metric: "t".into(),
            measurements,
        }],
    };
    for modeler in [Modeler::Vates, Modeler::Extrap] {
        let m = model_experiment(
            &e,
            &RunOptions {
                modeler,
                ..RunOptions::default()
            },
        )
        .remove(0)
        .unwrap();
        let p = m.predict(&e.parameters, &[10.0]);
        assert!(
            p.value.is_finite() && p.value > 1e307,
            "{modeler:?}: {}",
            p.value
        );
        let (lo, hi) = p.interval.unwrap();
        assert!(lo <= p.value && p.value <= hi, "{lo} {} {hi}", p.value);
    }
}

/// Strong scaling, t = 100/p + 2 at p = 1, 2, 4, …, 64: the means decrease, so the search
/// tries the decreasing blocks (with x = 1 measured, where Extra-P's negative exponents,
/// all with a negative power of log2(p), are undefined) and finds `2 + 100·p^-1`, which
/// extrapolates to p = 1024 within 1% (before: the constant 5.3, 150% off). With 2% noise
/// and 5 repetitions the prediction stays within 5%.
#[test]
fn strong_scaling_finds_p_to_the_minus_one() {
    use stats::rng::Draw;
    let f = |p: f64| 100.0 / p + 2.0;
    let ps = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
    let truth = f(1024.0);
    let exact: Vec<Measurement> = ps
        .iter()
        .map(|&p| Measurement::one(p, vec![f(p)]))
        .collect();
    let s = search_single(&exact, &VatesOptions::default()).unwrap();
    let at = s.best.model.eval(&[1024.0]);
    assert!(
        (at - truth).abs() < 0.01 * truth,
        "{at} vs {truth}: {:?}",
        s.best.model
    );
    assert_eq!(s.best.model.terms.len(), 1, "{:?}", s.best.model);
    assert!((s.best.model.terms[0].coefficient - 100.0).abs() < 1e-6);
    let mut rng = stats::rng::seeded(7);
    let noisy: Vec<Measurement> = ps
        .iter()
        .map(|&p| {
            Measurement::one(
                p,
                (0..5).map(|_| f(p) * (1.0 + 0.02 * rng.gauss())).collect(),
            )
        })
        .collect();
    let s = search(&noisy, 1, &VatesOptions::default()).unwrap();
    let at = s.best.model.eval(&[1024.0]);
    assert!(
        (at - truth).abs() < 0.05 * truth,
        "{at} vs {truth}: {:?}",
        s.best.model
    );
    // Asked for explicitly (the detection off), negative exponents work with p = 1 too.
    let mut asked = VatesOptions {
        decreasing: false,
        ..VatesOptions::default()
    };
    let off = search_single(&exact, &asked).unwrap();
    assert!(
        off.best.model.eval(&[1024.0]) > 1.5 * truth,
        "{:?}",
        off.best.model
    );
    asked.blocks.negative = true;
    let on = search_single(&exact, &asked).unwrap();
    let at = on.best.model.eval(&[1024.0]);
    assert!(
        (at - truth).abs() < 0.01 * truth,
        "{at}: {:?}",
        on.best.model
    );
    // A growing series is not offered decreasing blocks.
    assert!(!fit::vates::decreasing_blocks(&ps, &ps));
    assert!(fit::vates::decreasing_blocks(&ps, &ps.map(f)));
}

/// Two sizes (the shipped `ge` study's P = 1 training runs: N = 240 and 320, five
/// repetitions each, means 1.73× apart against an 18% spread): no hypothesis with a
/// constant and a term can be scored by leaving a size out, and the search used to keep the
/// constant, predicting N = 1280 at the training mean (97% below the measured 0.288 s). The
/// power law through both means is taken instead; two sizes whose means differ within the
/// repetitions' noise keep the constant.
#[test]
fn two_sizes_apart_beyond_their_noise_give_the_power_law_through_both() {
    let ms = vec![
        Measurement::one(
            240.0,
            vec![
                0.008074286,
                0.008233064,
                0.00602406,
                0.008254525,
                0.008474317,
            ],
        ),
        Measurement::one(
            320.0,
            vec![
                0.015120063,
                0.012840476,
                0.014279877,
                0.013157462,
                0.013153033,
            ],
        ),
    ];
    let names = ["N".to_string()];
    let s = search_single(&ms, &VatesOptions::default()).unwrap();
    let m = &s.best.model;
    let (y0, y1) = (ms[0].mean(), ms[1].mean());
    let a = (y1 / y0).ln() / (320f64 / 240.0).ln();
    assert!(
        matches!(m.terms.as_slice(), [t] if matches!(&t.basis, Basis::Pmnf(f) if f.len() == 1)),
        "{}",
        m.display(&names)
    );
    assert_eq!(m.constant, 0.0, "{}", m.display(&names));
    // Through both means (the exponent to 1/200), and so 4^a times the larger at 4×.
    for (x, y) in [(240.0, y0), (320.0, y1)] {
        assert!(
            (m.eval(&[x]) / y - 1.0).abs() < 0.01,
            "{}",
            m.display(&names)
        );
    }
    let at = m.eval(&[1280.0]) / (y1 * 4f64.powf(a));
    assert!((at - 1.0).abs() < 0.02, "{} ({at})", m.display(&names));
    assert!(s.best.quality.cv.is_none(), "no size was left out");
    assert!(
        s.alternatives[0].model.terms.is_empty(),
        "the constant is the runner-up"
    );
    // Within the noise: the constant.
    let flat = vec![
        Measurement::one(240.0, vec![0.010, 0.012, 0.009, 0.011, 0.013]),
        Measurement::one(320.0, vec![0.011, 0.010, 0.012, 0.013, 0.009]),
    ];
    let s = search_single(&flat, &VatesOptions::default()).unwrap();
    assert!(
        s.best.model.terms.is_empty(),
        "{}",
        s.best.model.display(&names)
    );
    // With the fitted exponent off, the nearest block: N^2 (a = 1.9).
    let blocks_only = VatesOptions {
        fit_exponent: false,
        ..VatesOptions::default()
    };
    let s = search_single(&ms, &blocks_only).unwrap();
    let shown = s.best.model.display(&names).to_string();
    assert!(shown.ends_with("* N^(2)"), "{shown}");
}
