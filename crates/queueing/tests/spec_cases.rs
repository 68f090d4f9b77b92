//! Worked examples and test vectors from the specs, plus hand-computed textbook cases.
//!
//! - `spec/dtga-adve-vernon.md` §8.2: TG-8 (M/M/1//K lock), TG-9 (exact MVA), TG-10
//!   (M/M/3//n blocking helper).
//! - `spec/pamela-van-gemund.md` §3.7: the MVA recursion for a balanced M-server system and
//!   its `C(P*)/C^l` values.

use queueing::{
    approximate_mva, exact_mva, exact_mva_at, lock_overhead, Center, CenterKind, FiniteSource,
    Network,
};

fn assert_close(actual: f64, expected: f64, abs_tol: f64) {
    assert!(
        (actual - expected).abs() <= abs_tol,
        "expected {expected}, got {actual} (tolerance {abs_tol})"
    );
}

fn balanced(centers: usize, demand_each: f64, think: f64) -> Network {
    Network::new(
        (0..centers)
            .map(|k| Center::queueing(format!("c{k}"), demand_each))
            .collect(),
        think,
    )
}

// ---------------------------------------------------------------- TG-9: exact MVA sanity

#[test]
fn tg9_one_center_d3_z17() {
    let net = Network::new(vec![Center::queueing("bus", 3.0)], 17.0);
    let pts = exact_mva(&net, 5).unwrap();
    let expected = [3.0, 3.45, 4.012225, 4.718525, 5.607097];
    for (p, r) in pts.iter().zip(expected) {
        assert_close(p.response_time, r, 5e-7);
    }
    assert_close(pts[4].throughput, 0.221169, 5e-7);
}

#[test]
fn tg9_two_centers_d2_d1_z5() {
    let net = Network::new(
        vec![Center::queueing("a", 2.0), Center::queueing("b", 1.0)],
        5.0,
    );
    let pts = exact_mva(&net, 3).unwrap();
    assert_eq!(pts[0].response_time, 3.0);
    assert_close(pts[1].response_time, 3.625, 1e-12);
    assert_close(pts[2].response_time, 4.420290, 5e-7);
    // Per-center values at n = 2: X(1) = 1/8, Q(1) = (0.25, 0.125).
    assert_close(pts[1].residence_times[0], 2.5, 1e-12);
    assert_close(pts[1].residence_times[1], 1.125, 1e-12);
    assert_close(pts[1].throughput, 2.0 / 8.625, 1e-12);
    assert_close(pts[1].utilizations[0], 4.0 / 8.625, 1e-12);
}

// ---------------------------------------------------------------- exact MVA, textbook cases

#[test]
fn lone_customer_sees_total_demand() {
    let net = Network::new(
        vec![
            Center::queueing("a", 1.5),
            Center::delay("b", 2.0),
            Center::queueing("c", 0.25),
        ],
        4.0,
    );
    let p = exact_mva_at(&net, 1).unwrap();
    assert_eq!(p.response_time, 3.75);
    assert_eq!(p.throughput, 1.0 / 7.75);
    assert_eq!(p.cycle_time(), 7.75);
}

#[test]
fn balanced_network_without_think_time_closed_form() {
    // K balanced centers with demand d and Z = 0: every arrangement of N customers is
    // equally likely, so X(N) = N / ((N + K − 1) d) and Q_k = N / K.
    for k in 1..=5 {
        let d = 0.5;
        let pts = exact_mva(&balanced(k, d, 0.0), 40).unwrap();
        for p in &pts {
            let n = p.population as f64;
            let kf = k as f64;
            assert_close(p.throughput, n / ((n + kf - 1.0) * d), 1e-12);
            assert_close(p.response_time, (n + kf - 1.0) * d, 1e-10);
            for q in &p.queue_lengths {
                assert_close(*q, n / kf, 1e-10);
            }
        }
    }
}

#[test]
fn asymptotic_bounds_and_saturation() {
    let net = Network::new(
        vec![
            Center::queueing("bus", 3.0),
            Center::queueing("mem", 1.0),
            Center::delay("cpu", 2.0),
        ],
        10.0,
    );
    let d = net.total_demand();
    let d_max = net.max_queueing_demand();
    let z = net.think_time;
    let pts = exact_mva(&net, 400).unwrap();
    for p in &pts {
        let n = p.population as f64;
        assert!(p.throughput <= (n / (d + z)).min(1.0 / d_max) * (1.0 + 1e-12));
        assert!(p.response_time >= d.max(n * d_max - z) * (1.0 - 1e-12));
    }
    // Far beyond the knee N* = (D + Z) / D_max = 5.33 the bus saturates.
    let last = pts.last().unwrap();
    assert_close(last.throughput, 1.0 / 3.0, 1e-9);
    assert_close(last.utilizations[0], 1.0, 1e-8);
    assert_close(last.response_time, 400.0 * 3.0 - 10.0, 1e-5);
}

#[test]
fn littles_law_and_population_balance_at_every_n() {
    let net = Network::new(
        vec![
            Center::queueing("a", 0.3),
            Center::queueing("b", 1.1),
            Center::delay("c", 0.7),
            Center::queueing("d", 0.9),
        ],
        2.5,
    );
    for p in exact_mva(&net, 200).unwrap() {
        let n = p.population as f64;
        assert_close(
            p.throughput * (p.response_time + net.think_time),
            n,
            1e-9 * n,
        );
        let q: f64 = p.queue_lengths.iter().sum();
        assert_close(q, n - p.throughput * net.think_time, 1e-9 * n);
        for (k, c) in net.centers.iter().enumerate() {
            assert_close(
                p.queue_lengths[k],
                p.throughput * p.residence_times[k],
                1e-12 * n,
            );
            assert_close(p.utilizations[k], p.throughput * c.demand, 1e-15);
            if c.kind == CenterKind::Queueing {
                assert!(p.utilizations[k] <= 1.0 + 1e-12);
            }
        }
    }
}

// ---------------------------------------------------------------- PAMELA §3.7 MVA bound

/// `R_P = D + (D/M)·(R_{P−1}/(R_{P−1}+Z))·(P−1)` is exact MVA on M balanced queueing centers
/// of demand D/M each; check the recursion itself and the printed `C(P*)/C^l` ratios.
#[test]
fn pamela_mva_bound_ratios() {
    for (d, m, z, p_star, ratio) in [
        (1.0, 1usize, 1.0, 2usize, 1.25),
        (1.0, 4, 3.0, 16, 1.431),
        (1.0, 100, 1.0, 200, 1.702),
        (2.0, 10, 5.0, 35, 1.503),
    ] {
        let mf = m as f64;
        assert_eq!(((d + z) * mf / d).round() as usize, p_star);
        let pts = exact_mva(&balanced(m, d / mf, z), p_star).unwrap();
        let mut r_prev = d;
        for p in &pts[1..] {
            let pp = p.population as f64;
            let r = d + (d / mf) * (r_prev / (r_prev + z)) * (pp - 1.0);
            assert_close(p.response_time, r, 1e-9 * r);
            r_prev = r;
        }
        let c = pts[p_star - 1].response_time + z;
        let c_lower = (d + z).max(d / mf * p_star as f64);
        assert_close(c / c_lower, ratio, 5e-4);
        assert!(c < 2.0 * c_lower);
    }
}

// ---------------------------------------------------------------- approximate MVA

/// Worst relative throughput error of Bard–Schweitzer over populations 1..=60.
fn worst_approx_error(net: &Network) -> f64 {
    let mut worst: f64 = 0.0;
    for e in exact_mva(net, 60).unwrap() {
        let a = approximate_mva(net, e.population, 1e-12, 100_000).unwrap();
        worst = worst.max((a.point.throughput - e.throughput).abs() / e.throughput);
        let n = e.population as f64;
        assert_close(
            a.point.throughput * (a.point.response_time + net.think_time),
            n,
            1e-9 * n,
        );
    }
    worst
}

#[test]
fn approximate_within_a_few_percent_of_exact_for_balanced_networks() {
    // Measured worst cases over N = 1..=60 and Z in {1, 5, 20}: 6.5% (K = 1), 3.3% (K = 2),
    // 1.6% (K = 4), 0.8% (K = 8), always near the knee N* = (D + Z)/D_max. With Z = 0 the
    // balanced case is exact: Q_k = N/K gives R = D·(N + K − 1) in both methods.
    for (k, bound) in [(1usize, 0.07), (2, 0.035), (4, 0.02), (8, 0.01)] {
        assert!(worst_approx_error(&balanced(k, 1.0, 0.0)) < 1e-9);
        for z in [1.0, 5.0, 20.0] {
            let worst = worst_approx_error(&balanced(k, 1.0, z));
            assert!(worst < bound, "K={k} Z={z}: worst error {worst}");
            assert!(worst > 0.0);
        }
    }
}

#[test]
fn approximate_single_center_hand_computed() {
    // D = 1, Z = 1, N = 3: R = 1 + (2/3)·3R/(1+R) gives R² − 2R − 1 = 0, R = 1 + √2,
    // X = 3/(2 + √2) = 0.8787 versus the exact 0.9375.
    let a = approximate_mva(&balanced(1, 1.0, 1.0), 3, 1e-14, 10_000).unwrap();
    assert_close(a.point.response_time, 1.0 + 2f64.sqrt(), 1e-10);
    assert_close(a.point.throughput, 3.0 / (2.0 + 2f64.sqrt()), 1e-10);
    let e = exact_mva_at(&balanced(1, 1.0, 1.0), 3).unwrap();
    assert_close(e.throughput, 0.9375, 1e-15);
}

#[test]
fn approximate_is_exact_for_a_single_center_without_think_time() {
    // One queueing center, Z = 0: all N customers are at the center, R = N·D, X = 1/D.
    let net = balanced(1, 2.0, 0.0);
    for n in [1usize, 2, 7, 1000] {
        let a = approximate_mva(&net, n, 1e-13, 1000).unwrap();
        assert_close(a.point.throughput, 0.5, 1e-12);
        assert_close(a.point.response_time, 2.0 * n as f64, 1e-9 * n as f64);
    }
}

#[test]
fn approximate_large_population_saturates_the_bottleneck() {
    let net = Network::new(
        vec![
            Center::queueing("bus", 3.0),
            Center::queueing("mem", 1.0),
            Center::delay("cpu", 2.0),
        ],
        10.0,
    );
    let a = approximate_mva(&net, 5_000_000, 1e-12, 10_000).unwrap();
    assert_close(a.point.throughput, 1.0 / 3.0, 1e-9);
    assert_close(a.point.utilizations[0], 1.0, 1e-8);
    assert!(a.residual <= 1e-12);
    assert!(
        (1..=50).contains(&a.iterations),
        "{} iterations",
        a.iterations
    );
}

#[test]
fn approximate_converges_fast_with_nearly_tied_bottlenecks() {
    // The textbook fixed-point iteration needs about 190 000 iterations on this network (two
    // queueing centers within 0.01% of each other, N ≈ 1.2·10^5); Newton on X does not.
    let net = Network::new(
        vec![
            Center::queueing("a", 5.756831308356281),
            Center::delay("b", 3.0626698996320787),
            Center::delay("c", 6.761958302077219),
            Center::queueing("d", 9.635531929699034),
            Center::queueing("e", 9.634629948861104),
        ],
        27.063929348986655,
    );
    let n = 119_793;
    let a = approximate_mva(&net, n, 1e-12, 100).unwrap();
    assert!(a.iterations <= 50, "{} iterations", a.iterations);
    let p = &a.point;
    let nf = n as f64;
    assert_close(
        p.throughput * (p.response_time + net.think_time),
        nf,
        1e-9 * nf,
    );
    // Saturated at the bottleneck; the two tied centers hold nearly all customers.
    assert!(p.throughput < 1.0 / 9.635531929699034);
    assert_close(p.throughput * 9.635531929699034, 1.0, 1e-4);
    assert!(p.queue_lengths[3] + p.queue_lengths[4] > 0.99 * nf);
    // The point is a fixed point of the Bard–Schweitzer equations.
    let shrink = (nf - 1.0) / nf;
    for (k, c) in net.centers.iter().enumerate() {
        let r = match c.kind {
            CenterKind::Queueing => c.demand * (1.0 + shrink * p.queue_lengths[k]),
            CenterKind::Delay => c.demand,
        };
        assert_close(p.throughput * r, p.queue_lengths[k], 1e-11 * nf);
    }
}

// ---------------------------------------------------------------- TG-8: M/M/1//K lock

#[test]
fn tg8_mm1k_lock_table() {
    // (K, S, Z, p0, U, R)
    let rows: [(usize, f64, f64, f64, Option<f64>, f64); 5] = [
        (1, 1.0, 4.0, 0.8, Some(0.2), 1.0),
        (2, 1.0, 4.0, 0.615385, Some(0.384615), 1.2),
        (4, 1.0, 4.0, 0.310680, Some(0.689320), 1.802817),
        (4, 1.0, 1.0, 0.015385, None, 3.0625),
        (16, 1.0, 10.0, 0.022302, None, 6.364969),
    ];
    for (k, s, z, p0, u, r) in rows {
        let q = FiniteSource::new(1, s, z);
        assert_close(q.distribution(k).unwrap()[0], p0, 5e-7);
        if let Some(u) = u {
            assert_close(q.utilization(k).unwrap(), u, 5e-7);
        }
        assert_close(q.mean_response(k).unwrap(), r, 5e-7);
        assert_close(lock_overhead(s, z, k).unwrap(), r - s, 5e-7);
        // R = K/X − Z and Q = X·R.
        let x = q.throughput(k).unwrap();
        assert_close(k as f64 / x - z, r, 5e-6);
        assert_close(
            q.mean_queue(k).unwrap(),
            x * q.mean_response(k).unwrap(),
            1e-12,
        );
    }
    // The spec's normalising sum for K = 4, S = 1, Z = 4.
    assert_close(
        1.0 / FiniteSource::new(1, 1.0, 4.0).distribution(4).unwrap()[0],
        3.21875,
        1e-12,
    );
}

#[test]
fn mm1k_matches_machine_repair_closed_form() {
    for (k, s, z) in [
        (3usize, 1.0, 2.0),
        (10, 0.5, 3.0),
        (20, 2.0, 7.0),
        (12, 1.0, 1.0),
    ] {
        let rho = s / z;
        // a_n = K!/(K−n)! ρ^n
        let mut a = vec![1.0_f64];
        for n in 1..=k {
            a.push(a[n - 1] * (k - n + 1) as f64 * rho);
        }
        let total: f64 = a.iter().sum();
        let pi = FiniteSource::new(1, s, z).distribution(k).unwrap();
        for (p, an) in pi.iter().zip(&a) {
            assert_close(*p, an / total, 1e-12);
        }
        let q = FiniteSource::new(1, s, z);
        assert_close(q.utilization(k).unwrap(), 1.0 - 1.0 / total, 1e-12);
    }
}

// ---------------------------------------------------------------- TG-10: M/M/3//n blocking

#[test]
fn tg10_mm3n_blocking_table() {
    let q = FiniteSource::new(3, 1.0, 2.0);
    for (n, p, r) in [
        (4usize, 0.037037, 0.333333),
        (5, 0.114754, 0.380952),
        (6, 0.224417, 0.44),
        (8, 0.488649, 0.605797),
        (16, 0.993104, 2.356063),
    ] {
        let b = q.blocking(n).unwrap();
        assert_close(b.p_block, p, 5e-7);
        assert_close(b.r_block, r, 5e-7);
        assert_eq!(q.p_block(n).unwrap(), b.p_block);
        assert_eq!(q.r_block(n).unwrap(), b.r_block);
    }
    for n in 1..=3 {
        assert_eq!(q.blocking(n).unwrap().p_block, 0.0);
        assert_eq!(q.blocking(n).unwrap().r_block, 0.0);
    }
}

// ---------------------------------------------------------------- M/M/c//K identities

#[test]
fn mmck_identities() {
    for (c, s, z) in [
        (1usize, 1.0, 4.0),
        (2, 1.5, 2.0),
        (3, 1.0, 2.0),
        (8, 0.2, 3.0),
    ] {
        let q = FiniteSource::new(c, s, z);
        for k in 1..=40usize {
            let pi = q.distribution(k).unwrap();
            assert_eq!(pi.len(), k + 1);
            assert_close(pi.iter().sum(), 1.0, 1e-12);
            let x = q.throughput(k).unwrap();
            let l = q.mean_queue(k).unwrap();
            let r = q.mean_response(k).unwrap();
            // Sources not at the facility think: X = (K − L) / Z.
            assert_close(x, (k as f64 - l) / z, 1e-12);
            // Little's law at the facility and R = K/X − Z.
            assert_close(l, x * r, 1e-12);
            assert_close(r, k as f64 / x - z, 1e-9);
            assert_close(q.utilization(k).unwrap(), x * s / c as f64, 1e-12);
            // Arrival theorem: R(K) = S + p_block(K) · R_block(K).
            let b = q.blocking(k).unwrap();
            assert_close(r, s + b.p_block * b.r_block, 1e-10);
            assert_close(q.mean_wait(k).unwrap(), b.p_block * b.r_block, 1e-10);
        }
    }
}

#[test]
fn enough_servers_means_no_queueing() {
    // c ≥ K: the facility is K independent servers; π is Binomial(K, S/(S+Z)).
    let (s, z) = (1.0, 3.0);
    for k in 1..=6usize {
        let q = FiniteSource::new(6, s, z);
        for n in 1..=k {
            assert_eq!(q.p_block(n).unwrap(), 0.0);
        }
        assert_close(q.mean_response(k).unwrap(), s, 1e-12);
        assert_eq!(q.mean_wait(k).unwrap(), 0.0);
        let p = s / (s + z);
        let pi = q.distribution(k).unwrap();
        let mut binom = 1.0;
        for (j, pj) in pi.iter().enumerate() {
            if j > 0 {
                binom = binom * (k - j + 1) as f64 / j as f64;
            }
            let expected = binom * p.powi(j as i32) * (1.0 - p).powi((k - j) as i32);
            assert_close(*pj, expected, 1e-12);
        }
    }
}

#[test]
fn large_populations_are_stable() {
    // 10^5 sources, heavy load: direct products of K!/(K−k)! ρ^k would overflow.
    for (c, s, z) in [(1usize, 1.0, 2.0), (3, 1.0, 2.0), (50, 0.01, 10.0)] {
        let q = FiniteSource::new(c, s, z);
        let k = 100_000usize;
        let pi = q.distribution(k).unwrap();
        assert!(pi.iter().all(|p| p.is_finite() && *p >= 0.0));
        assert_close(pi.iter().sum(), 1.0, 1e-9);
        let x = q.throughput(k).unwrap();
        let l = q.mean_queue(k).unwrap();
        assert_close(x, (k as f64 - l) / z, 1e-6 * x);
        // Offered load K·S/Z far exceeds c: servers saturate, X = c/S.
        assert_close(x, c as f64 / s, 1e-9 * x);
        assert_close(q.utilization(k).unwrap(), 1.0, 1e-9);
    }
    // Light load on many servers: almost nobody waits.
    let q = FiniteSource::new(1000, 1.0, 1000.0);
    let b = q.blocking(100_000).unwrap();
    assert!(b.p_block < 1e-6, "p_block {}", b.p_block);
}
