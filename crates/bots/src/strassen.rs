//! Strassen (BOTS `strassen`, `OptimizedStrassenMultiply`, manual cut-off): `C = A·B` for
//! `n × n` matrices by the Winograd variant of Strassen's algorithm. A call on a matrix
//! larger than the size cut-off (`-y`, 32 in the paper) forms the eight sums `S1..S8` of
//! quadrants, computes the seven quadrant products — in seven tasks and a wait while the
//! depth is below the depth cut-off (`-x`, 7), serially below it — and combines them into
//! the quadrants of `C`. Matrices of at most `-y` rows are multiplied naively (BOTS's
//! `MultiplyByDivideAndConquer`, which splits down to 16 × 16 before its naive loops,
//! does the same arithmetic).
//!
//! BOTS lets four of the seven products write into `C`'s quadrants; here every product
//! has its own contiguous buffer (safe Rust cannot hand four tasks the interleaved rows of
//! one matrix), so a call allocates 15 quadrants where BOTS allocates 11.

use crate::Counts;
use stats::rng::Draw;

/// Strassen's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Depth cut-off (BOTS `-x`): calls at depth `< depth_cutoff` spawn their products.
    pub depth_cutoff: u32,
    /// Size cut-off (BOTS `-y`): matrices of at most this many rows are multiplied
    /// naively.
    pub size_cutoff: usize,
}

impl Default for Config {
    /// The paper's `-x 7 -y 32`.
    fn default() -> Config {
        Config {
            depth_cutoff: 7,
            size_cutoff: 32,
        }
    }
}

impl Config {
    /// Checks that `n` halves evenly down to the size cut-off (a power of two does).
    pub fn validate(&self, n: usize) -> Result<(), String> {
        if n == 0 {
            return Err("the matrix size must be positive".into());
        }
        let mut s = n;
        while s > self.size_cutoff {
            if s % 2 == 1 {
                return Err(format!(
                    "the matrix size {n} must halve evenly down to the size cut-off {} \
                     (a power of two does)",
                    self.size_cutoff
                ));
            }
            s /= 2;
        }
        Ok(())
    }
}

/// A read-only matrix view: element `(i, j)` is `data[off + i·stride + j]`.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The numbers.
    pub data: &'a [f64],
    /// Where element `(0, 0)` is.
    pub off: usize,
    /// The distance between rows.
    pub stride: usize,
}

impl<'a> View<'a> {
    /// A contiguous `rows × stride` matrix.
    pub fn new(data: &'a [f64], stride: usize) -> View<'a> {
        View {
            data,
            off: 0,
            stride,
        }
    }

    /// Row `i`'s first `len` elements.
    pub fn row(&self, i: usize, len: usize) -> &'a [f64] {
        let s = self.off + i * self.stride;
        &self.data[s..s + len]
    }

    /// The submatrix from element `(i, j)`.
    pub fn sub(&self, i: usize, j: usize) -> View<'a> {
        View {
            data: self.data,
            off: self.off + i * self.stride + j,
            stride: self.stride,
        }
    }
}

/// `c = a·b` by the naive i-k-j loops; `c` is `size × size`, contiguous.
pub fn naive(c: &mut [f64], a: View<'_>, b: View<'_>, size: usize) {
    for (i, crow) in c.chunks_mut(size).take(size).enumerate() {
        crow.fill(0.0);
        let arow = a.row(i, size);
        for (k, &aik) in arow.iter().enumerate() {
            for (cv, bv) in crow.iter_mut().zip(b.row(k, size)) {
                *cv += aik * bv;
            }
        }
    }
}

/// The sums of quadrants BOTS forms (`S1..S8`, each `q × q` in `s`, contiguous).
pub fn sums(s: &mut [f64], a: View<'_>, b: View<'_>, q: usize) {
    let (a11, a12, a21, a22) = (a, a.sub(0, q), a.sub(q, 0), a.sub(q, q));
    let (b11, b12, b21, b22) = (b, b.sub(0, q), b.sub(q, 0), b.sub(q, q));
    let qq = q * q;
    let (s1, rest) = s.split_at_mut(qq);
    let (s2, rest) = rest.split_at_mut(qq);
    let (s3, rest) = rest.split_at_mut(qq);
    let (s4, rest) = rest.split_at_mut(qq);
    let (s5, rest) = rest.split_at_mut(qq);
    let (s6, rest) = rest.split_at_mut(qq);
    let (s7, s8) = rest.split_at_mut(qq);
    for r in 0..q {
        let (x11, x12, x21, x22) = (a11.row(r, q), a12.row(r, q), a21.row(r, q), a22.row(r, q));
        let (y11, y12, y21, y22) = (b11.row(r, q), b12.row(r, q), b21.row(r, q), b22.row(r, q));
        for c in 0..q {
            let t = r * q + c;
            s1[t] = x21[c] + x22[c];
            s2[t] = s1[t] - x11[c];
            s4[t] = x12[c] - s2[t];
            s5[t] = y12[c] - y11[c];
            s6[t] = y22[c] - s5[t];
            s8[t] = s6[t] - y21[c];
            s3[t] = x11[c] - x21[c];
            s7[t] = y22[c] - y12[c];
        }
    }
}

/// Combines the seven products into `c` (`2q × 2q`, contiguous); `p` holds, `q × q`
/// each: `M2 = A11·B11`, `M5 = S1·S5`, `T1 = S2·S6`, `C22 = S3·S7`, `C11 = A12·B21`,
/// `C12 = S4·B22`, `C21 = A22·S8`.
pub fn combine(c: &mut [f64], p: &[f64], q: usize) {
    let qq = q * q;
    let m2 = &p[..qq];
    let m5 = &p[qq..2 * qq];
    let t1 = &p[2 * qq..3 * qq];
    let p22 = &p[3 * qq..4 * qq];
    let p11 = &p[4 * qq..5 * qq];
    let p12 = &p[5 * qq..6 * qq];
    let p21 = &p[6 * qq..7 * qq];
    let size = 2 * q;
    let (top, bottom) = c.split_at_mut(q * size);
    for (r, (trow, brow)) in top
        .chunks_mut(size)
        .zip(bottom.chunks_mut(size))
        .enumerate()
    {
        let (c11, c12) = trow.split_at_mut(q);
        let (c21, c22) = brow.split_at_mut(q);
        for col in 0..q {
            let t = r * q + col;
            let m2v = m2[t];
            let m5v = m5[t];
            let t1v = t1[t] + m2v;
            let t2v = p22[t] + t1v;
            c11[col] = p11[t] + m2v;
            c12[col] = p12[t] + m5v + t1v;
            c22[col] = m5v + t2v;
            c21[col] = t2v - p21[t];
        }
    }
}

/// Two random `n × n` matrices, uniform in `[-1, 1)`.
pub fn input(n: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = stats::rng::seeded(seed);
    let a = (0..n * n).map(|_| rng.symmetric()).collect();
    let b = (0..n * n).map(|_| rng.symmetric()).collect();
    (a, b)
}

fn mat_vec(m: &[f64], v: &[f64], n: usize) -> Vec<f64> {
    m.chunks(n)
        .map(|row| row.iter().zip(v).map(|(x, y)| x * y).sum())
        .collect()
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// Freivalds' check of `c = a·b` (`n × n`, row-major) with three random vectors `v`:
/// `‖c·v − a·(b·v)‖ / (‖a‖_F ‖b‖_F ‖v‖)` below `1e-10`. Returns the largest such error.
pub fn verify(a: &[f64], b: &[f64], c: &[f64], n: usize, seed: u64) -> Result<f64, String> {
    if a.len() != n * n || b.len() != n * n || c.len() != n * n {
        return Err(format!("the matrices are not {n} × {n}"));
    }
    let scale = norm(a) * norm(b);
    let mut rng = stats::rng::seeded(seed ^ 0xF4EE_7A1D);
    let mut worst = 0.0f64;
    for _ in 0..3 {
        let v: Vec<f64> = (0..n).map(|_| rng.symmetric()).collect();
        let abv = mat_vec(a, &mat_vec(b, &v, n), n);
        let cv = mat_vec(c, &v, n);
        let diff: Vec<f64> = cv.iter().zip(&abv).map(|(x, y)| x - y).collect();
        let den = scale * norm(&v);
        let e = if den > 0.0 {
            norm(&diff) / den
        } else {
            norm(&diff)
        };
        worst = if e.is_nan() { f64::NAN } else { worst.max(e) };
    }
    if worst.is_finite() && worst < 1e-10 {
        Ok(worst)
    } else {
        Err(format!(
            "Freivalds' check failed: relative error {worst:e} (must be below 1e-10)"
        ))
    }
}

/// The creates and waits of the traced kernel: a call on a matrix larger than the size
/// cut-off at depth `< depth_cutoff` spawns 7 tasks and waits once; with `L` such levels,
/// `(7^L − 1)/6` calls, so `7 (7^L − 1)/6` creates and `(7^L − 1)/6` waits.
pub fn counts(n: usize, cfg: &Config) -> Counts {
    let mut levels = 0u32;
    let mut s = n;
    while s > cfg.size_cutoff && levels < cfg.depth_cutoff {
        levels += 1;
        s /= 2;
    }
    let calls = (7u64.pow(levels) - 1) / 6;
    Counts::new(7 * calls, calls)
}

/// The kernel, on the `join` and `scope` given.
macro_rules! kernel {
    ($join:path, $scope:path) => {
        pub use $crate::strassen::Config;
        use $crate::strassen::View;

        /// `c = a·b` for `n × n` row-major matrices by BOTS's Strassen; `n` must pass
        /// [`Config::validate`].
        pub fn run(a: &[f64], b: &[f64], c: &mut [f64], n: usize, cfg: &Config) {
            if a.len() < n * n || b.len() < n * n || c.len() < n * n || cfg.validate(n).is_err() {
                return;
            }
            strassen(&mut c[..n * n], View::new(a, n), View::new(b, n), n, 0, cfg);
        }

        fn strassen(
            c: &mut [f64],
            a: View<'_>,
            b: View<'_>,
            size: usize,
            depth: u32,
            cfg: &Config,
        ) {
            if size <= cfg.size_cutoff {
                $crate::strassen::naive(c, a, b, size);
                return;
            }
            let q = size / 2;
            let qq = q * q;
            let mut s = vec![0.0; 8 * qq];
            $crate::strassen::sums(&mut s, a, b, q);
            let sv = |k: usize| View::new(&s[k * qq..(k + 1) * qq], q);
            let (s1, s2, s3, s4, s5, s6, s7, s8) =
                (sv(0), sv(1), sv(2), sv(3), sv(4), sv(5), sv(6), sv(7));
            let (a11, a12, a22) = (a, a.sub(0, q), a.sub(q, q));
            let (b11, b21, b22) = (b, b.sub(q, 0), b.sub(q, q));
            let mut p = vec![0.0; 7 * qq];
            {
                let (m2, rest) = p.split_at_mut(qq);
                let (m5, rest) = rest.split_at_mut(qq);
                let (t1, rest) = rest.split_at_mut(qq);
                let (p22, rest) = rest.split_at_mut(qq);
                let (p11, rest) = rest.split_at_mut(qq);
                let (p12, p21) = rest.split_at_mut(qq);
                let d = depth + 1;
                if depth < cfg.depth_cutoff {
                    $scope(|sc| {
                        sc.spawn(move |_| strassen(m2, a11, b11, q, d, cfg));
                        sc.spawn(move |_| strassen(m5, s1, s5, q, d, cfg));
                        sc.spawn(move |_| strassen(t1, s2, s6, q, d, cfg));
                        sc.spawn(move |_| strassen(p22, s3, s7, q, d, cfg));
                        sc.spawn(move |_| strassen(p11, a12, b21, q, d, cfg));
                        sc.spawn(move |_| strassen(p12, s4, b22, q, d, cfg));
                        sc.spawn(move |_| strassen(p21, a22, s8, q, d, cfg));
                    });
                } else {
                    strassen(m2, a11, b11, q, d, cfg);
                    strassen(m5, s1, s5, q, d, cfg);
                    strassen(t1, s2, s6, q, d, cfg);
                    strassen(p22, s3, s7, q, d, cfg);
                    strassen(p11, a12, b21, q, d, cfg);
                    strassen(p12, s4, b22, q, d, cfg);
                    strassen(p21, a22, s8, q, d, cfg);
                }
            }
            $crate::strassen::combine(c, &p, q);
        }
    };
}
pub(crate) use kernel;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_strassen_matches_naive() {
        let n = 64;
        let (a, b) = input(n, 1);
        let cfg = Config {
            depth_cutoff: 0,
            size_cutoff: 8,
        };
        let mut c = vec![0.0; n * n];
        crate::plain::strassen::run(&a, &b, &mut c, n, &cfg);
        let mut d = vec![0.0; n * n];
        naive(&mut d, View::new(&a, n), View::new(&b, n), n);
        let e = c
            .iter()
            .zip(&d)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(e < 1e-12, "{e}");
        assert!(verify(&a, &b, &c, n, 5).is_ok());
        c[17] += 1e-3;
        assert!(verify(&a, &b, &c, n, 5).is_err());
    }

    #[test]
    fn counts_closed_form() {
        let cfg = Config::default();
        assert_eq!(counts(32, &cfg), Counts::default());
        assert_eq!(counts(64, &cfg), Counts::new(7, 1));
        assert_eq!(counts(128, &cfg), Counts::new(56, 8));
        assert_eq!(counts(8192, &cfg), Counts::new(7 * 137_257, 137_257));
        assert!(cfg.validate(96).is_ok());
        assert!(cfg.validate(66).is_err());
        assert!(cfg.validate(80).is_ok());
    }
}
