//! Seeded synthetic data sets for comparing modelers on extrapolation: functions of one
//! parameter measured at x = 2, 4, …, 64 (five repetitions with multiplicative Gaussian
//! noise of 1–10%), to be predicted at x = 1024. Shared by the `extrapolation` test and
//! bench.

#![allow(dead_code)]

use fit::pmnf::{Term, DEFAULT_BLOCKS};
use fit::Measurement;
use stats::rng::Draw;

/// The family a case's function belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `c0 + c1·b` with `b` a default building block.
    OneTerm,
    /// `c0 + c1·b1 + c2·b2`, the second block growing faster and small at the measured sizes.
    TwoTerm,
    /// A form outside the default PMNF blocks.
    Outside,
}

/// One data set.
pub struct Case {
    /// What the function is.
    pub name: String,
    /// Its family.
    pub kind: Kind,
    /// The noise level (relative standard deviation).
    pub noise: f64,
    /// The measurements.
    pub measurements: Vec<Measurement>,
    /// The true value at the prediction point.
    pub truth: f64,
}

/// The measured sizes.
pub const X: [f64; 6] = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
/// Where predictions are checked.
pub const TARGET: f64 = 1024.0;
/// Repetitions per size.
pub const REPS: usize = 5;

/// The crate's seeded generator with the draws the suite needs.
struct Rng(stats::rng::Rng);

impl Rng {
    fn uniform(&mut self) -> f64 {
        self.0.uniform()
    }

    fn gauss(&mut self) -> f64 {
        self.0.gauss()
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    fn log_range(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.uniform()).exp()
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.0.below(xs.len() as u64) as usize]
    }
}

fn measure(rng: &mut Rng, f: &dyn Fn(f64) -> f64, noise: f64) -> Vec<Measurement> {
    X.iter()
        .map(|&x| {
            let values = (0..REPS)
                .map(|_| f(x) * (1.0 + noise * rng.gauss()).max(0.05))
                .collect();
            Measurement::one(x, values)
        })
        .collect()
}

/// The case of `f` measured with `noise`.
fn case(rng: &mut Rng, kind: Kind, name: String, noise: f64, f: &dyn Fn(f64) -> f64) -> Case {
    Case {
        name,
        kind,
        noise,
        measurements: measure(rng, f, noise),
        truth: f(TARGET),
    }
}

const NOISE: [f64; 4] = [0.01, 0.02, 0.05, 0.10];

/// Growing blocks (positive polynomial exponent) for the terms of two-term cases.
fn growing() -> Vec<Term> {
    DEFAULT_BLOCKS
        .iter()
        .copied()
        .filter(|t| t.poly.num() > 0)
        .collect()
}

/// `per_kind` cases of each family from `seed`.
pub fn cases(seed: u64, per_kind: usize) -> Vec<Case> {
    let mut rng = Rng(stats::rng::seeded(seed));
    let mut out = Vec::new();
    for i in 0..per_kind {
        // One term: c0 + c1·b, the term between 0.5 and 20 times c0 at x = 64.
        let b = rng.pick(&DEFAULT_BLOCKS);
        let c0 = rng.log_range(10.0, 1000.0);
        let c1 = c0 * rng.log_range(0.5, 20.0) / b.eval(64.0);
        let noise = NOISE[i % NOISE.len()];
        let f = move |x: f64| c0 + c1 * b.eval(x);
        let name = format!("{c0:.3} + {c1:.4}·{b}");
        out.push(case(&mut rng, Kind::OneTerm, name, noise, &f));
    }
    let g = growing();
    for i in 0..per_kind {
        // Two terms: the faster one 10–40% of the slower one at x = 64.
        let (mut a, mut b) = (rng.pick(&g), rng.pick(&g));
        while a.poly == b.poly {
            b = rng.pick(&g);
        }
        if a.growth() > b.growth() {
            std::mem::swap(&mut a, &mut b);
        }
        let c0 = rng.log_range(10.0, 1000.0);
        let c1 = c0 * rng.log_range(1.0, 10.0) / a.eval(64.0);
        let c2 = c1 * a.eval(64.0) * rng.range(0.1, 0.4) / b.eval(64.0);
        let noise = NOISE[i % NOISE.len()];
        let f = move |x: f64| c0 + c1 * a.eval(x) + c2 * b.eval(x);
        let name = format!("{c0:.3} + {c1:.4}·{a} + {c2:.4}·{b}");
        out.push(case(&mut rng, Kind::TwoTerm, name, noise, &f));
    }
    type Form = (&'static str, fn(f64) -> f64);
    let forms: [Form; 8] = [
        ("x^log2(7)", |x| x.powf(7f64.log2())),
        ("x^1.1", |x| x.powf(1.1)),
        ("x^0.6", |x| x.powf(0.6)),
        ("x·log2(x)^1.5", |x| x * x.log2().powf(1.5)),
        ("x/log2(x)", |x| x / x.log2()),
        ("x^1.5/log2(x)", |x| x.powf(1.5) / x.log2()),
        ("log2(x)^3", |x| x.log2().powi(3)),
        ("x^2.2", |x| x.powf(2.2)),
    ];
    for i in 0..per_kind {
        let (name, h) = forms[i % forms.len()];
        let c0 = rng.log_range(10.0, 1000.0);
        let c1 = c0 * rng.log_range(0.5, 20.0) / h(64.0);
        let noise = NOISE[(i / forms.len() + i) % NOISE.len()];
        let f = move |x: f64| c0 + c1 * h(x);
        let name = format!("{c0:.3} + {c1:.4}·{name}");
        out.push(case(&mut rng, Kind::Outside, name, noise, &f));
    }
    out
}

/// The median of `v` (NaN when empty).
pub fn median_or_nan(v: Vec<f64>) -> f64 {
    stats::median(&v).unwrap_or(f64::NAN)
}
