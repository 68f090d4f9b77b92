/*
 * fft: BOTS's fft (Cilk's fft) with OpenMP tasks, as the Rust kernel crates/bots/src/fft.rs:
 * the complex DFT of N points, N a power of two, by BOTS's recursive mixed-radix
 * Cooley-Tukey with its task structure:
 *
 *  - the twiddle table W (N + 1 powers of the root of unity) is computed by halving the
 *    index range, the upper half in a task, the lower in the caller, and a taskwait (the
 *    Rust join), down to ranges of fewer than c indices;
 *  - fft_aux(n) takes the radix r of BOTS's factor(), unshuffles the input into r
 *    subsequences in one task and a taskwait, transforms them in r tasks and a taskwait,
 *    and applies the twiddles and r-point butterflies in one task and a taskwait;
 *    transforms of at most 32 points are serial base cases;
 *  - the unshuffle and twiddle loops over m = n / r indices halve their range (upper half
 *    a task, lower half the caller, a taskwait) down to ranges of fewer than c indices.
 *
 * BOTS's butterflies are generated straight-line code per radix; here (as in the Rust
 * kernel) one generic r-point radix-2 transform does their arithmetic.
 *
 * Input: N complex numbers with parts uniform in [-1, 1) (the Rust crate's generator and
 * seed: the same numbers). Check: the inverse of the output by an independent serial
 * radix-2 FFT against the input at every point, max |x' - x| / rms(x) below 1e-9, and 16
 * sampled coefficients against the directly summed DFT, relative to ||x||, below 1e-9.
 */
#include "bots.h"

#include <math.h>

#define BASE 32 /* transforms of at most this many points are base cases */
#define TWO_PI 6.283185307179586476925286766559

typedef struct {
    double re, im;
} cplx;

static inline cplx cadd(cplx a, cplx b) { return (cplx){a.re + b.re, a.im + b.im}; }
static inline cplx csub(cplx a, cplx b) { return (cplx){a.re - b.re, a.im - b.im}; }
static inline cplx cmul(cplx a, cplx b) {
    return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

/* BOTS's factor (for powers of two): the radix of the first step of an n-point FFT. */
static size_t factor(size_t n) {
    if (n < 2) return 1;
    if (n == 64 || n == 128 || n == 256 || n == 1024 || n == 2048 || n == 4096) return 8;
    if ((n & 15) == 0) return 16;
    if ((n & 7) == 0) return 8;
    if ((n & 3) == 0) return 4;
    if ((n & 1) == 0) return 2;
    return n;
}

static unsigned log2_exact(size_t n) {
    unsigned b = 0;
    while (((size_t)1 << b) < n) b++;
    return b;
}

static size_t reverse(size_t i, unsigned bits) {
    size_t r = 0;
    for (unsigned b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
}

/* Puts x[..n] in bit-reversed order (n = 2^bits). */
static void bit_reverse(cplx *x, size_t n, unsigned bits) {
    for (size_t i = 0; i < n; i++) {
        size_t j = reverse(i, bits);
        if (i < j) {
            cplx t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
    }
}

/* The r-point DFT of x[..r] in place (r a power of two, at most 32), with the roots of
 * unity of the nw-point table w (r divides nw). */
static void small_dft(cplx *x, size_t r, const cplx *w, size_t nw) {
    unsigned bits = log2_exact(r);
    bit_reverse(x, r, bits);
    for (size_t len = 2; len <= r; len *= 2) {
        size_t half = len / 2, step = nw / len;
        for (size_t start = 0; start < r; start += len)
            for (size_t k = 0; k < half; k++) {
                cplx t = cmul(w[k * step], x[start + k + half]);
                cplx u = x[start + k];
                x[start + k] = cadd(u, t);
                x[start + k + half] = csub(u, t);
            }
    }
}

/* W[k] and W[n - k] for k in a..=b (W[n - k] only for k < n/2), halving the range. */
static void compute_w(size_t n, size_t a, size_t b, cplx *W, size_t cut) {
    if (b - a < cut) {
        double two_pi_over_n = TWO_PI / (double)n;
        for (size_t k = a; k <= b; k++) {
            double s = sin(two_pi_over_n * (double)k), c = cos(two_pi_over_n * (double)k);
            W[k] = (cplx){c, -s};
            if (k < n / 2) W[n - k] = (cplx){c, s};
        }
    } else {
        size_t ab = (a + b) / 2;
        COUNT_TASK();
#pragma omp task default(none) firstprivate(n, ab, b, W, cut)
        compute_w(n, ab + 1, b, W, cut);
        compute_w(n, a, ab, W, cut);
        COUNT_TASKWAIT();
#pragma omp taskwait
    }
}

/* out[j m + i] = in[i r + j] for i in a..b, j in 0..r. */
static void unshuffle(size_t a, size_t b, const cplx *in, cplx *out, size_t r, size_t m,
                      size_t cut) {
    if (b - a < cut) {
        for (size_t i = a; i < b; i++)
            for (size_t j = 0; j < r; j++) out[j * m + i] = in[i * r + j];
    } else {
        size_t ab = (a + b) / 2;
        COUNT_TASK();
#pragma omp task default(none) firstprivate(ab, b, in, out, r, m, cut)
        unshuffle(ab, b, in, out, r, m, cut);
        unshuffle(a, ab, in, out, r, m, cut);
        COUNT_TASKWAIT();
#pragma omp taskwait
    }
}

/* out[i + k m] = sum_j in[i + j m] w_n^((i + k m) j) for i in a..b, k in 0..r: twiddles by
 * w_n^(i j) and an r-point DFT. */
static void twiddle(size_t a, size_t b, const cplx *in, cplx *out, size_t r, size_t m,
                    const cplx *W, size_t nw, size_t n, size_t cut) {
    if (b - a < cut) {
        cplx x[BASE];
        size_t nwdn = nw / n;
        for (size_t i = a; i < b; i++) {
            size_t l1 = nwdn * i;
            x[0] = in[i];
            for (size_t j = 1; j < r; j++) x[j] = cmul(in[i + j * m], W[j * l1]);
            small_dft(x, r, W, nw);
            for (size_t k = 0; k < r; k++) out[k * m + i] = x[k];
        }
    } else {
        size_t ab = (a + b) / 2;
        COUNT_TASK();
#pragma omp task default(none) firstprivate(ab, b, in, out, r, m, W, nw, n, cut)
        twiddle(ab, b, in, out, r, m, W, nw, n, cut);
        twiddle(a, ab, in, out, r, m, W, nw, n, cut);
        COUNT_TASKWAIT();
#pragma omp taskwait
    }
}

/* out = DFT(in) for n points; `in` is scratch (overwritten). factors[0] is n's radix. */
static void fft_aux(size_t n, cplx *in, cplx *out, const size_t *factors, const cplx *W,
                    size_t nw, size_t cut) {
    if (n <= BASE) {
        cplx x[BASE];
        memcpy(x, in, n * sizeof(cplx));
        small_dft(x, n, W, nw);
        memcpy(out, x, n * sizeof(cplx));
        return;
    }
    size_t r = factors[0], m = n / r;
    COUNT_TASK();
#pragma omp task default(none) firstprivate(in, out, r, m, cut)
    unshuffle(0, m, in, out, r, m, cut);
    COUNT_TASKWAIT();
#pragma omp taskwait
    for (size_t k = 0; k < r; k++) {
        COUNT_TASK();
#pragma omp task default(none) firstprivate(k, m, in, out, factors, W, nw, cut)
        fft_aux(m, out + k * m, in + k * m, factors + 1, W, nw, cut);
    }
    COUNT_TASKWAIT();
#pragma omp taskwait
    COUNT_TASK();
#pragma omp task default(none) firstprivate(in, out, r, m, W, nw, n, cut)
    twiddle(0, m, in, out, r, m, W, nw, n, cut);
    COUNT_TASKWAIT();
#pragma omp taskwait
}

/* The kernel: out = DFT(in), n a power of two; `in` is scratch. */
static void fft(size_t n, cplx *in, cplx *out, size_t cut) {
    if (n == 1) {
        out[0] = in[0];
        return;
    }
    cplx *W = bots_alloc(n + 1, sizeof(cplx));
    compute_w(n, 0, n / 2, W, cut);
    size_t factors[64], nf = 0;
    for (size_t l = n; l > 1; l /= factors[nf++]) factors[nf] = factor(l);
    fft_aux(n, in, out, factors, W, n, cut);
    free(W);
}

/* A plain serial iterative radix-2 FFT, independent of the kernel: sign -1 forward, +1
 * the unnormalised inverse. */
static void reference_fft(cplx *x, size_t n, double sign) {
    if (n < 2) return;
    unsigned bits = log2_exact(n);
    bit_reverse(x, n, bits);
    cplx *roots = bots_alloc(n / 2, sizeof(cplx));
    for (size_t len = 2; len <= n; len *= 2) {
        double ang = sign * TWO_PI / (double)len;
        size_t half = len / 2;
        for (size_t k = 0; k < half; k++)
            roots[k] = (cplx){cos(ang * (double)k), sin(ang * (double)k)};
        for (size_t start = 0; start < n; start += len)
            for (size_t k = 0; k < half; k++) {
                cplx t = cmul(roots[k], x[start + k + half]);
                cplx u = x[start + k];
                x[start + k] = cadd(u, t);
                x[start + k + half] = csub(u, t);
            }
    }
    free(roots);
}

static double cabs_(cplx a) { return sqrt(a.re * a.re + a.im * a.im); }

int main(int argc, char **argv) {
    bots_option opts[] = {
        {"c", "loop cut-off (BOTS hard-codes 128; at least 2 is used)", 128},
        {"seed", "input seed", 1},
        BOTS_COUNT_OPTION,
    };
    BOTS_ARGS(argc, argv, "fft", "points, a power of two", 1, (uint64_t)1 << 28, opts);
    const size_t n = (size_t)bots_n;
    if (n & (n - 1)) bots_die("the FFT size must be a power of two, not %zu", n);
    uint64_t c = BOTS_GET(opts, "c");
    const size_t cut = c < 2 ? 2 : (size_t)c;

    cplx *input = bots_alloc(n, sizeof(cplx));
    bots_rng rng = bots_seeded(BOTS_GET(opts, "seed"));
    for (size_t i = 0; i < n; i++) {
        input[i].re = bots_symmetric(&rng);
        input[i].im = bots_symmetric(&rng);
    }
    cplx *scratch = bots_alloc(n, sizeof(cplx));
    cplx *out = bots_alloc(n, sizeof(cplx));
    memcpy(scratch, input, n * sizeof(cplx));

    double t0 = omp_get_wtime();
#pragma omp parallel default(none) firstprivate(n, scratch, out, cut)
#pragma omp single
    fft(n, scratch, out, cut);
    double seconds = omp_get_wtime() - t0;

    double energy = 0.0;
    for (size_t i = 0; i < n; i++) energy += input[i].re * input[i].re + input[i].im * input[i].im;
    double scale = energy > 0.0 ? sqrt(energy) : 1.0;
    double rms = energy > 0.0 ? sqrt(energy / (double)n) : 1.0;

    /* The inverse round trip, at every point. */
    memcpy(scratch, out, n * sizeof(cplx));
    reference_fft(scratch, n, 1.0);
    double round_trip = 0.0;
    for (size_t i = 0; i < n; i++) {
        cplx back = {scratch[i].re / (double)n, scratch[i].im / (double)n};
        double e = cabs_(csub(back, input[i])) / rms;
        if (!(e <= round_trip)) round_trip = e; /* NaN sticks */
    }
    if (!(round_trip < 1e-9))
        bots_fail("inverse FFT round trip: relative error %e (must be below 1e-9)", round_trip);

    /* 16 coefficients summed directly (roots from their own table). */
    cplx *roots = scratch;
    for (size_t e = 0; e < n; e++) {
        double ang = -TWO_PI * (double)e / (double)n;
        roots[e] = (cplx){cos(ang), sin(ang)};
    }
    bots_rng pick = bots_seeded((uint64_t)n);
    double sampled = 0.0;
    for (int s = 0; s < 16; s++) {
        size_t k = (size_t)bots_below(&pick, n);
        cplx sum = {0.0, 0.0};
        for (size_t j = 0; j < n; j++) sum = cadd(sum, cmul(input[j], roots[(k * j) & (n - 1)]));
        double e = cabs_(csub(sum, out[k])) / scale;
        if (!(e <= sampled)) sampled = e;
    }
    if (!(sampled < 1e-9))
        bots_fail("sampled coefficients against the direct sum: relative error %e (must be "
                  "below 1e-9)",
                  sampled);
    free(input);
    free(scratch);
    free(out);
    bots_report(seconds, "error=%.3e", round_trip > sampled ? round_trip : sampled);
    return 0;
}
