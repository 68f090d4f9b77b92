//! The paper's equations 9–15 with their coefficients given, and the span-based no_work forms:
//! what a fitted model evaluates, written out for tests and synthetic data.

/// Eq. 9: time = (T1 + delay + no_work)/p.
pub fn time(work: f64, delay: f64, no_work: f64, p: f64) -> f64 {
    (work + delay + no_work) / p
}

/// Eq. 10: T1 = T1' + a1·T1'·(p−1)/p + a2·T1'·(p−1) (exactly T1' at p = 1).
pub fn work(serial: f64, p: f64, a: [f64; 2]) -> f64 {
    let q = p - 1.0;
    serial + a[0] * serial * (q / p) + a[1] * serial * q
}

/// Eq. 11: T1'(n) = b1 + b2·n + b3·n ln n + b4·n² + b5·n² ln n + b6·n³ + b7·n ln ln n
/// (ln ln n with n clamped ≥ 3).
pub fn serial(n: f64, b: [f64; 7]) -> f64 {
    let (l, ll) = (n.ln(), n.max(3.0).ln().ln());
    b[0] + b[1] * n
        + b[2] * n * l
        + b[3] * n * n
        + b[4] * n * n * l
        + b[5] * n * n * n
        + b[6] * n * ll
}

/// Eqs. 13 and 14: d1·n + d2·n ln n + d3·n² + d4·n³ + d5·n ln ln n.
pub fn task_count(n: f64, d: [f64; 5]) -> f64 {
    let (l, ll) = (n.ln(), n.max(3.0).ln().ln());
    d[0] * n + d[1] * n * l + d[2] * n * n + d[3] * n * n * n + d[4] * n * ll
}

/// Eq. 12: delay = ct·(c1 + c2·(p−1) + c3·(p−1)/p) + wt·(c4 + c5·(p−1) + c6·(p−1)/p)
/// (c1·ct + c4·wt at p = 1).
pub fn delay(create_task: f64, wait_tasks: f64, p: f64, c: [f64; 6]) -> f64 {
    let q = p - 1.0;
    create_task * (c[0] + c[1] * q + c[2] * (q / p))
        + wait_tasks * (c[3] + c[4] * q + c[5] * (q / p))
}

/// Eq. 15: no_work = (p−1)²·(f1 + f2·n + f3·n ln n + f4·n²) (0 at p = 1).
pub fn no_work(n: f64, p: f64, f: [f64; 4]) -> f64 {
    let q = p - 1.0;
    q * q * (f[0] + f[1] * n + f[2] * n * n.ln() + f[3] * n * n)
}

/// The span-based form after Graham's bound: no_work = g0·(p−1) + g1·(p−1)·T∞.
pub fn no_work_span_linear(span: f64, p: f64, g: [f64; 2]) -> f64 {
    let q = p - 1.0;
    g[0] * q + g[1] * q * span
}

/// The span-based form with the paper's ramps: no_work = g1·(p−1)·T∞ + g2·(p−1)²·T∞.
pub fn no_work_span_quadratic(span: f64, p: f64, g: [f64; 2]) -> f64 {
    let q = p - 1.0;
    g[0] * q * span + g[1] * q * q * span
}
