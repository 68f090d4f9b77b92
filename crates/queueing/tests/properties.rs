//! Property tests: Little's law, population balance and monotonicity of exact MVA on random
//! networks, and normalisation of the finite-source distribution.

use proptest::prelude::*;
use queueing::{approximate_mva, exact_mva, exact_mva_at, Center, FiniteSource, Network};

fn network() -> impl Strategy<Value = Network> {
    (
        prop::collection::vec((any::<bool>(), 0.0f64..10.0), 1..6),
        0.0f64..20.0,
    )
        .prop_filter("bounded throughput", |(cs, z)| {
            *z > 0.0 || cs.iter().any(|(_, d)| *d > 0.0)
        })
        .prop_map(|(cs, z)| {
            Network::new(
                cs.into_iter()
                    .enumerate()
                    .map(|(i, (q, d))| {
                        if q {
                            Center::queueing(format!("q{i}"), d)
                        } else {
                            Center::delay(format!("d{i}"), d)
                        }
                    })
                    .collect(),
                z,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn exact_mva_invariants(net in network(), n in 1usize..80) {
        let pts = exact_mva(&net, n).unwrap();
        prop_assert_eq!(pts.len(), n);
        let d_max = net.max_queueing_demand();
        let mut prev_x = 0.0;
        let mut prev_r = 0.0;
        for p in &pts {
            let nf = p.population as f64;
            let tol = 1e-9 * nf;
            // Little's law over the whole cycle and population balance.
            prop_assert!((p.throughput * (p.response_time + net.think_time) - nf).abs() <= tol);
            let q: f64 = p.queue_lengths.iter().sum();
            prop_assert!((q - (nf - p.throughput * net.think_time)).abs() <= tol);
            // Throughput does not decrease, response time does not decrease.
            prop_assert!(p.throughput >= prev_x * (1.0 - 1e-12));
            prop_assert!(p.response_time >= prev_r * (1.0 - 1e-12));
            // Bottleneck bound.
            if d_max > 0.0 {
                prop_assert!(p.throughput * d_max <= 1.0 + 1e-12);
            }
            prev_x = p.throughput;
            prev_r = p.response_time;
        }
    }

    #[test]
    fn approximate_mva_invariants(net in network(), n in 1usize..2000) {
        let a = approximate_mva(&net, n, 1e-12, 1_000_000).unwrap();
        let p = &a.point;
        let nf = n as f64;
        prop_assert!(a.residual <= 1e-12);
        prop_assert!((p.throughput * (p.response_time + net.think_time) - nf).abs() <= 1e-9 * nf);
        // Asymptotic bounds hold for the approximation too.
        prop_assert!(p.throughput <= nf / (net.total_demand() + net.think_time) * (1.0 + 1e-12));
        prop_assert!(p.throughput * net.max_queueing_demand() <= 1.0 + 1e-12);
        if n == 1 {
            let e = exact_mva_at(&net, 1).unwrap();
            prop_assert!((p.throughput - e.throughput).abs() <= 1e-12 * e.throughput);
        }
    }

    #[test]
    fn finite_source_distribution_is_normalised(
        c in 1usize..6,
        s in 0.01f64..10.0,
        z in 0.01f64..10.0,
        k in 0usize..300,
    ) {
        let q = FiniteSource::new(c, s, z);
        let pi = q.distribution(k).unwrap();
        prop_assert!((pi.iter().sum::<f64>() - 1.0).abs() <= 1e-12);
        prop_assert!(pi.iter().all(|p| *p >= 0.0));
        let x = q.throughput(k).unwrap();
        let l = q.mean_queue(k).unwrap();
        prop_assert!((x - (k as f64 - l) / z).abs() <= 1e-9 * (1.0 + x));
        prop_assert!(q.utilization(k).unwrap() <= 1.0 + 1e-12);
    }
}
