//! FFT (BOTS `fft`, Cilk's `fft`): the complex DFT of `n` points, `n` a power of two,
//! by BOTS's recursive mixed-radix Cooley–Tukey with its task structure:
//!
//! * the twiddle table `W` (`n + 1` powers of the root of unity) is computed by
//!   `compute_w_coefficients`, which halves its index range in two tasks (a `join`)
//!   down to ranges of fewer than 128 indices;
//! * `fft_aux(n)` takes the radix `r` BOTS's `factor` chooses (8 for 64, 128, 256, 1024,
//!   2048 and 4096, else 16 when it divides `n`, else 8, 4, 2), unshuffles the input into
//!   `r` subsequences in one task and a wait, transforms them in `r` tasks and a wait, and
//!   applies the twiddles and the `r`-point butterflies in one task and a wait; transforms
//!   of at most 32 points are serial base cases;
//! * the unshuffle and twiddle loops over `m = n / r` indices halve their range in two
//!   tasks (a `join`) down to ranges of fewer than 128 indices (the `loop_cutoff`).
//!
//! BOTS's butterflies and base cases are machine-generated straight-line code for each
//! radix; here one generic `r`-point radix-2 transform on a small local array does their
//! arithmetic (the same transform, a different operation order). The input is random
//! complex numbers with parts uniform in `[-1, 1)`.

use crate::Counts;
use stats::rng::Draw;
use std::ops::{Add, Mul, Sub};

/// A complex number.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

impl Complex {
    /// `re + i·im`.
    pub const fn new(re: f64, im: f64) -> Complex {
        Complex { re, im }
    }

    /// The complex conjugate.
    pub fn conj(self) -> Complex {
        Complex::new(self.re, -self.im)
    }

    /// The squared modulus.
    pub fn norm_sqr(self) -> f64 {
        self.re * self.re + self.im * self.im
    }
}

impl Add for Complex {
    type Output = Complex;
    #[inline]
    fn add(self, o: Complex) -> Complex {
        Complex::new(self.re + o.re, self.im + o.im)
    }
}

impl Sub for Complex {
    type Output = Complex;
    #[inline]
    fn sub(self, o: Complex) -> Complex {
        Complex::new(self.re - o.re, self.im - o.im)
    }
}

impl Mul for Complex {
    type Output = Complex;
    #[inline]
    fn mul(self, o: Complex) -> Complex {
        Complex::new(
            self.re * o.re - self.im * o.im,
            self.re * o.im + self.im * o.re,
        )
    }
}

/// FFT's parameters. BOTS has no command-line cut-off for FFT; its loops stop halving at
/// 128 indices, hard-coded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Index ranges shorter than this are looped over serially (BOTS: 128).
    pub loop_cutoff: usize,
}

impl Default for Config {
    /// BOTS's 128.
    fn default() -> Config {
        Config { loop_cutoff: 128 }
    }
}

impl Config {
    /// The cut-off the kernel uses: `loop_cutoff`, at least 2 (so that halving a range
    /// leaves two non-empty halves).
    pub fn cut(&self) -> usize {
        self.loop_cutoff.max(2)
    }
}

/// The largest radix `factor` returns for a power of two.
pub const MAX_RADIX: usize = 16;
/// Transforms of at most this many points are base cases.
pub const BASE: usize = 32;

/// Checks that `n` is a power of two (at least 1).
pub fn validate(n: usize) -> Result<(), String> {
    if n.is_power_of_two() {
        Ok(())
    } else {
        Err(format!("the FFT size must be a power of two, not {n}"))
    }
}

/// BOTS's `factor` (for powers of two): the radix of the first step of an `n`-point
/// transform.
pub fn factor(n: usize) -> usize {
    if n < 2 {
        return 1;
    }
    if matches!(n, 64 | 128 | 256 | 1024 | 2048 | 4096) {
        return 8;
    }
    if n & 15 == 0 {
        return 16;
    }
    if n & 7 == 0 {
        return 8;
    }
    if n & 3 == 0 {
        return 4;
    }
    if n & 1 == 0 {
        return 2;
    }
    n
}

/// The radices of the steps of an `n`-point transform (BOTS's `factors` array).
pub fn factors(n: usize) -> Vec<usize> {
    let mut f = Vec::new();
    let mut l = n;
    loop {
        let r = factor(l);
        f.push(r);
        l /= r.max(1);
        if l <= 1 {
            break;
        }
    }
    f
}

/// `W[k]` and `W[n − k]` for `k` in `a..=b`: `lo` holds `W[a..=b]`, `hi` holds
/// `W[n−k]` for `k` in `a..=min(b, n/2 − 1)`, with `W[n−a]` last.
pub fn w_coefficients(n: usize, a: usize, lo: &mut [Complex], hi: &mut [Complex]) {
    let two_pi_over_n = 2.0 * std::f64::consts::PI / n as f64;
    let hl = hi.len();
    for (i, w) in lo.iter_mut().enumerate() {
        let k = a + i;
        let (s, c) = (two_pi_over_n * k as f64).sin_cos();
        *w = Complex::new(c, -s);
        if i < hl {
            hi[hl - 1 - i] = Complex::new(c, s);
        }
    }
}

/// Bit reversal of `i` on `bits` bits.
fn reverse(i: usize, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        i.reverse_bits() >> (usize::BITS - bits)
    }
}

/// The `r`-point DFT of `x[..r]` in place (`r` a power of two at most 32), with the
/// roots of unity from `w` (an `nw`-point table, `r` dividing `nw`).
#[inline]
pub fn small_dft(x: &mut [Complex; BASE], r: usize, w: &[Complex], nw: usize) {
    let bits = r.trailing_zeros();
    for i in 0..r {
        let j = reverse(i, bits);
        if i < j {
            x.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= r {
        let half = len / 2;
        let step = nw / len;
        for start in (0..r).step_by(len) {
            for k in 0..half {
                let t = w[k * step] * x[start + k + half];
                let u = x[start + k];
                x[start + k] = u + t;
                x[start + k + half] = u - t;
            }
        }
        len *= 2;
    }
}

/// A base case: `out = DFT(inp)` for at most 32 points.
pub fn base(inp: &[Complex], out: &mut [Complex], w: &[Complex], nw: usize) {
    let r = inp.len();
    let mut x = [Complex::default(); BASE];
    x[..r].copy_from_slice(inp);
    small_dft(&mut x, r, w, nw);
    out.copy_from_slice(&x[..r]);
}

/// Up to [`MAX_RADIX`] equally long mutable parts of an array (the `r` strided rows an
/// unshuffle or twiddle loop writes), split together.
pub struct Parts<'a> {
    parts: [&'a mut [Complex]; MAX_RADIX],
    r: usize,
}

impl<'a> Parts<'a> {
    /// The `r` consecutive blocks of `m` elements of `out`.
    pub fn blocks(out: &'a mut [Complex], r: usize, m: usize) -> Parts<'a> {
        let mut parts: [&'a mut [Complex]; MAX_RADIX] = Default::default();
        for (slot, chunk) in parts.iter_mut().zip(out.chunks_mut(m.max(1))).take(r) {
            *slot = chunk;
        }
        Parts { parts, r }
    }

    /// The first `k` elements of every part, and the rest.
    pub fn split(self, k: usize) -> (Parts<'a>, Parts<'a>) {
        let mut left: [&'a mut [Complex]; MAX_RADIX] = Default::default();
        let mut right: [&'a mut [Complex]; MAX_RADIX] = Default::default();
        for (i, p) in self.parts.into_iter().enumerate().take(self.r) {
            let (l, r) = p.split_at_mut(k.min(p.len()));
            left[i] = l;
            right[i] = r;
        }
        (
            Parts {
                parts: left,
                r: self.r,
            },
            Parts {
                parts: right,
                r: self.r,
            },
        )
    }
}

/// The serial unshuffle of indices `a..b`: `out[j·m + i] = inp[i·r + j]`.
pub fn unshuffle_serial(a: usize, inp: &[Complex], out: &mut Parts<'_>) {
    let r = out.r;
    let len = out.parts[0].len();
    for i in 0..len {
        let src = &inp[(a + i) * r..(a + i + 1) * r];
        for (j, &v) in src.iter().enumerate() {
            out.parts[j][i] = v;
        }
    }
}

/// The serial twiddle loop over indices `a..b` of a step with radix `r` and `m`
/// subsequences: `out[i + k·m] = Σ_j inp[i + j·m] · ω_n^{(i + k·m)·j}`, as twiddles by
/// `ω_n^{i·j}` and an `r`-point DFT.
pub fn twiddle_serial(
    a: usize,
    inp: &[Complex],
    m: usize,
    out: &mut Parts<'_>,
    w: &[Complex],
    nw: usize,
    n: usize,
) {
    let r = out.r;
    let len = out.parts[0].len();
    let nwdn = nw / n;
    let mut x = [Complex::default(); BASE];
    for i in 0..len {
        let ii = a + i;
        let l1 = nwdn * ii;
        x[0] = inp[ii];
        for (j, xj) in x.iter_mut().enumerate().take(r).skip(1) {
            *xj = inp[ii + j * m] * w[j * l1];
        }
        small_dft(&mut x, r, w, nw);
        for (k, &y) in x.iter().enumerate().take(r) {
            out.parts[k][i] = y;
        }
    }
}

/// Random complex numbers with parts uniform in `[-1, 1)`.
pub fn input(n: usize, seed: u64) -> Vec<Complex> {
    let mut rng = stats::rng::seeded(seed);
    (0..n)
        .map(|_| Complex::new(rng.symmetric(), rng.symmetric()))
        .collect()
}

/// A plain serial iterative radix-2 FFT (independent of the kernel), `sign = -1.0` for
/// the forward transform, `+1.0` for the unnormalised inverse.
pub fn reference_fft(x: &mut [Complex], sign: f64) {
    let n = x.len();
    if n < 2 {
        return;
    }
    let bits = n.trailing_zeros();
    for i in 0..n {
        let j = reverse(i, bits);
        if i < j {
            x.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= n {
        let ang = sign * 2.0 * std::f64::consts::PI / len as f64;
        let half = len / 2;
        let roots: Vec<Complex> = (0..half)
            .map(|k| {
                let (s, c) = (ang * k as f64).sin_cos();
                Complex::new(c, s)
            })
            .collect();
        for start in (0..n).step_by(len) {
            for k in 0..half {
                let t = roots[k] * x[start + k + half];
                let u = x[start + k];
                x[start + k] = u + t;
                x[start + k + half] = u - t;
            }
        }
        len *= 2;
    }
}

/// Coefficient `k` of the DFT of `x`, summed directly.
pub fn dft_coefficient(x: &[Complex], k: usize) -> Complex {
    let n = x.len();
    let mut s = Complex::default();
    for (j, &v) in x.iter().enumerate() {
        let e = ((k as u128 * j as u128) % n as u128) as f64;
        let (sn, cs) = (-2.0 * std::f64::consts::PI * e / n as f64).sin_cos();
        s = s + v * Complex::new(cs, sn);
    }
    s
}

/// Checks `output` as the DFT of `input`. Up to 4096 points: against the naive DFT,
/// `max |X − DFT(x)| / √(Σ|x|²) < 1e-9`. Larger: Parseval's identity (relative `1e-9`),
/// 16 sampled coefficients summed directly, and the inverse of `output` (by an independent
/// serial FFT) against `input` at 4096 sampled points. Returns the largest relative error.
pub fn verify(input: &[Complex], output: &[Complex]) -> Result<f64, String> {
    let n = input.len();
    if output.len() != n {
        return Err(format!("{n} points in, {} out", output.len()));
    }
    if n == 0 {
        return Ok(0.0);
    }
    let energy: f64 = input.iter().map(|v| v.norm_sqr()).sum();
    let scale = energy.sqrt().max(f64::MIN_POSITIVE);
    let mut worst = 0.0f64;
    let mut note = |e: f64, what: &str| -> Result<(), String> {
        if !(e.is_finite() && e < 1e-9) {
            return Err(format!("{what}: relative error {e:e} (must be below 1e-9)"));
        }
        worst = worst.max(e);
        Ok(())
    };
    if n <= 4096 {
        use rayon::prelude::*;
        let roots: Vec<Complex> = (0..n)
            .map(|e| {
                let (s, c) = (-2.0 * std::f64::consts::PI * e as f64 / n as f64).sin_cos();
                Complex::new(c, s)
            })
            .collect();
        let e = (0..n)
            .into_par_iter()
            .map(|k| {
                let mut s = Complex::default();
                for (j, &v) in input.iter().enumerate() {
                    s = s + v * roots[(k * j) % n];
                }
                (s - output[k]).norm_sqr().sqrt()
            })
            .reduce(|| 0.0, f64::max);
        note(e / scale, "against the naive DFT")?;
        return Ok(worst);
    }
    let out_energy: f64 = output.iter().map(|v| v.norm_sqr()).sum();
    note(
        (out_energy / n as f64 - energy).abs() / energy.max(f64::MIN_POSITIVE),
        "Parseval's identity",
    )?;
    let mut rng = stats::rng::seeded(n as u64);
    let mut e = 0.0f64;
    for _ in 0..16 {
        let k = rng.below(n as u64) as usize;
        e = e.max((dft_coefficient(input, k) - output[k]).norm_sqr().sqrt());
    }
    note(e / scale, "sampled coefficients against the direct sum")?;
    let mut back = output.to_vec();
    reference_fft(&mut back, 1.0);
    let mut e = 0.0f64;
    let rms = (energy / n as f64).sqrt().max(f64::MIN_POSITIVE);
    for _ in 0..4096 {
        let j = rng.below(n as u64) as usize;
        let v = Complex::new(back[j].re / n as f64, back[j].im / n as f64);
        e = e.max((v - input[j]).norm_sqr().sqrt());
    }
    note(e / rms, "inverse FFT round trip")?;
    Ok(worst)
}

/// The creates and waits of the traced kernel on `n` points (a power of two).
pub fn counts(n: usize, cfg: &Config) -> Counts {
    let cut = cfg.cut();
    fn w(a: usize, b: usize, cut: usize) -> Counts {
        if b - a < cut {
            Counts::default()
        } else {
            let ab = (a + b) / 2;
            Counts::JOIN + w(a, ab, cut) + w(ab + 1, b, cut)
        }
    }
    fn halves(a: usize, b: usize, cut: usize) -> Counts {
        if b - a < cut {
            Counts::default()
        } else {
            let ab = (a + b) / 2;
            Counts::JOIN + halves(a, ab, cut) + halves(ab, b, cut)
        }
    }
    fn aux(n: usize, f: &[usize], cut: usize) -> Counts {
        if n <= BASE {
            return Counts::default();
        }
        let r = f[0];
        let m = n / r;
        let loops = Counts::scope(1) + halves(0, m, cut);
        loops * 2 + Counts::scope(r as u64) + aux(m, &f[1..], cut) * r as u64
    }
    if validate(n).is_err() {
        return Counts::default();
    }
    w(0, n / 2, cut) + aux(n, &factors(n), cut)
}

/// The kernel, on the `join` and `scope` given.
macro_rules! kernel {
    ($join:path, $scope:path) => {
        use $crate::fft::Parts;
        pub use $crate::fft::{Complex, Config};

        /// `out = DFT(inp)` (forward, unnormalised) for a power-of-two number of points,
        /// as BOTS's `fft`; `inp` is used as scratch (overwritten). Sizes that are not
        /// powers of two are left untouched.
        pub fn run(inp: &mut [Complex], out: &mut [Complex], cfg: &Config) {
            let n = inp.len();
            if $crate::fft::validate(n).is_err() || out.len() != n {
                return;
            }
            if n == 1 {
                out[0] = inp[0];
                return;
            }
            let cut = cfg.cut();
            let mut w = vec![Complex::default(); n + 1];
            {
                let (lo, hi) = w.split_at_mut(n / 2 + 1);
                compute_w(n, 0, n / 2, lo, hi, cut);
            }
            let factors = $crate::fft::factors(n);
            fft_aux(n, inp, out, &factors, &w, n, cut);
        }

        /// `W[k]`, `W[n − k]` for `k` in `a..=b` (as `w_coefficients`), halving the range.
        fn compute_w(
            n: usize,
            a: usize,
            b: usize,
            lo: &mut [Complex],
            hi: &mut [Complex],
            cut: usize,
        ) {
            if b - a < cut {
                $crate::fft::w_coefficients(n, a, lo, hi);
            } else {
                let ab = (a + b) / 2;
                let (lo1, lo2) = lo.split_at_mut(ab - a + 1);
                // `hi` holds W[n − k] for k = a.. in reverse: the first half's last.
                let first = (ab - a + 1).min(hi.len());
                let (hi2, hi1) = hi.split_at_mut(hi.len() - first);
                $join(
                    || compute_w(n, a, ab, lo1, hi1, cut),
                    || compute_w(n, ab + 1, b, lo2, hi2, cut),
                );
            }
        }

        fn fft_aux(
            n: usize,
            inp: &mut [Complex],
            out: &mut [Complex],
            factors: &[usize],
            w: &[Complex],
            nw: usize,
            cut: usize,
        ) {
            if n <= $crate::fft::BASE {
                $crate::fft::base(inp, out, w, nw);
                return;
            }
            let r = factors[0];
            let m = n / r;
            {
                let src: &[Complex] = inp;
                let parts = Parts::blocks(out, r, m);
                $scope(|s| {
                    s.spawn(move |_| unshuffle(0, m, src, parts, cut));
                });
            }
            $scope(|s| {
                for (o, i) in out.chunks_mut(m).zip(inp.chunks_mut(m)) {
                    s.spawn(move |_| fft_aux(m, o, i, &factors[1..], w, nw, cut));
                }
            });
            {
                let src: &[Complex] = inp;
                let parts = Parts::blocks(out, r, m);
                $scope(|s| {
                    s.spawn(move |_| twiddle(0, m, src, m, parts, w, nw, n, cut));
                });
            }
        }

        fn unshuffle(a: usize, b: usize, inp: &[Complex], mut out: Parts<'_>, cut: usize) {
            if b - a < cut {
                $crate::fft::unshuffle_serial(a, inp, &mut out);
            } else {
                let ab = (a + b) / 2;
                let (left, right) = out.split(ab - a);
                $join(
                    || unshuffle(a, ab, inp, left, cut),
                    || unshuffle(ab, b, inp, right, cut),
                );
            }
        }

        #[allow(clippy::too_many_arguments)]
        fn twiddle(
            a: usize,
            b: usize,
            inp: &[Complex],
            m: usize,
            mut out: Parts<'_>,
            w: &[Complex],
            nw: usize,
            n: usize,
            cut: usize,
        ) {
            if b - a < cut {
                $crate::fft::twiddle_serial(a, inp, m, &mut out, w, nw, n);
            } else {
                let ab = (a + b) / 2;
                let (left, right) = out.split(ab - a);
                $join(
                    || twiddle(a, ab, inp, m, left, w, nw, n, cut),
                    || twiddle(ab, b, inp, m, right, w, nw, n, cut),
                );
            }
        }
    };
}
pub(crate) use kernel;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_as_bots() {
        assert_eq!(factors(1024), vec![8, 8, 16]);
        assert_eq!(factors(8192), vec![16, 16, 16, 2]);
        assert_eq!(factors(32), vec![16, 2]);
        assert_eq!(factors(2), vec![2]);
    }

    #[test]
    fn reference_round_trip() {
        let x = input(64, 9);
        let mut y = x.clone();
        reference_fft(&mut y, -1.0);
        for k in [0, 1, 17, 63] {
            let d = (dft_coefficient(&x, k) - y[k]).norm_sqr().sqrt();
            assert!(d < 1e-12, "{d}");
        }
        reference_fft(&mut y, 1.0);
        for (a, b) in x.iter().zip(&y) {
            assert!((a.re - b.re / 64.0).abs() < 1e-13);
        }
    }

    #[test]
    fn serial_kernel_small_sizes() {
        for bits in 0..=11 {
            let n = 1usize << bits;
            let x = input(n, bits as u64);
            let mut inp = x.clone();
            let mut out = vec![Complex::default(); n];
            crate::plain::fft::run(&mut inp, &mut out, &Config { loop_cutoff: 4 });
            assert!(verify(&x, &out).is_ok(), "n = {n}: {:?}", verify(&x, &out));
        }
    }
}
