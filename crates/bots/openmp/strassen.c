/*
 * strassen: BOTS's strassen (OptimizedStrassenMultiply, manual cut-off) with OpenMP
 * tasks, as the Rust kernel crates/bots/src/strassen.rs: C = A B for N x N matrices by the
 * Winograd variant of Strassen's algorithm.
 *
 * A call on a matrix larger than y rows forms the eight sums S1..S8 of quadrants,
 * computes the seven quadrant products -- in seven tasks and a taskwait while the depth is
 * below x, serially below it -- and combines them into C's quadrants. Matrices of at most
 * y rows are multiplied naively. As in the Rust kernel (and unlike BOTS, which lets four
 * products write into C), every product has its own contiguous buffer.
 *
 * Input: two matrices with entries uniform in [-1, 1) (the Rust crate's generator and
 * seed: the same numbers). Check: every row of C (N <= 1024; else 64 sampled rows)
 * against the naive product's row, ||c_i - a_i B|| / (||a_i|| ||B||_F) below 1e-10.
 */
#include "bots.h"

#include <math.h>

static unsigned depth_cutoff;
static size_t size_cutoff;

/* c = a b by the naive i-k-j loops; c is size x size, contiguous. */
static void naive(double *c, const double *a, size_t lda, const double *b, size_t ldb,
                  size_t size) {
    for (size_t i = 0; i < size; i++) {
        double *crow = c + i * size;
        for (size_t j = 0; j < size; j++) crow[j] = 0.0;
        for (size_t k = 0; k < size; k++) {
            double aik = a[i * lda + k];
            const double *brow = b + k * ldb;
            for (size_t j = 0; j < size; j++) crow[j] += aik * brow[j];
        }
    }
}

/* The sums of quadrants BOTS forms (S1..S8, each q x q in s, contiguous). */
static void sums(double *s, const double *a, size_t lda, const double *b, size_t ldb,
                 size_t q) {
    size_t qq = q * q;
    double *s1 = s, *s2 = s + qq, *s3 = s + 2 * qq, *s4 = s + 3 * qq;
    double *s5 = s + 4 * qq, *s6 = s + 5 * qq, *s7 = s + 6 * qq, *s8 = s + 7 * qq;
    for (size_t r = 0; r < q; r++) {
        const double *x11 = a + r * lda, *x12 = x11 + q, *x21 = a + (r + q) * lda, *x22 = x21 + q;
        const double *y11 = b + r * ldb, *y12 = y11 + q, *y21 = b + (r + q) * ldb, *y22 = y21 + q;
        for (size_t c = 0; c < q; c++) {
            size_t t = r * q + c;
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

/* Combines the seven products (q x q each, in p: M2, M5, T1, C22, C11, C12, C21 as the
 * Rust kernel's combine) into c (2q x 2q, contiguous). */
static void combine(double *c, const double *p, size_t q) {
    size_t qq = q * q, size = 2 * q;
    const double *m2 = p, *m5 = p + qq, *t1 = p + 2 * qq, *p22 = p + 3 * qq;
    const double *p11 = p + 4 * qq, *p12 = p + 5 * qq, *p21 = p + 6 * qq;
    for (size_t r = 0; r < q; r++) {
        double *c11 = c + r * size, *c12 = c11 + q;
        double *c21 = c + (r + q) * size, *c22 = c21 + q;
        for (size_t col = 0; col < q; col++) {
            size_t t = r * q + col;
            double m2v = m2[t], m5v = m5[t];
            double t1v = t1[t] + m2v;
            double t2v = p22[t] + t1v;
            c11[col] = p11[t] + m2v;
            c12[col] = p12[t] + m5v + t1v;
            c22[col] = m5v + t2v;
            c21[col] = t2v - p21[t];
        }
    }
}

static void strassen(double *c, const double *a, size_t lda, const double *b, size_t ldb,
                     size_t size, unsigned depth) {
    if (size <= size_cutoff) {
        naive(c, a, lda, b, ldb, size);
        return;
    }
    size_t q = size / 2, qq = q * q;
    double *s = bots_alloc(8 * qq, sizeof(double));
    double *p = bots_alloc(7 * qq, sizeof(double));
    sums(s, a, lda, b, ldb, q);
    const double *s1 = s, *s2 = s + qq, *s3 = s + 2 * qq, *s4 = s + 3 * qq;
    const double *s5 = s + 4 * qq, *s6 = s + 5 * qq, *s7 = s + 6 * qq, *s8 = s + 7 * qq;
    const double *a11 = a, *a12 = a + q, *a22 = a + q * lda + q;
    const double *b11 = b, *b21 = b + q * ldb, *b22 = b + q * ldb + q;
    double *m2 = p, *m5 = p + qq, *t1 = p + 2 * qq, *p22 = p + 3 * qq;
    double *p11 = p + 4 * qq, *p12 = p + 5 * qq, *p21 = p + 6 * qq;
    unsigned d = depth + 1;
    if (depth < depth_cutoff) {
        COUNT_TASK();
#pragma omp task default(none) firstprivate(m2, a11, lda, b11, ldb, q, d)
        strassen(m2, a11, lda, b11, ldb, q, d);
        COUNT_TASK();
#pragma omp task default(none) firstprivate(m5, s1, s5, q, d)
        strassen(m5, s1, q, s5, q, q, d);
        COUNT_TASK();
#pragma omp task default(none) firstprivate(t1, s2, s6, q, d)
        strassen(t1, s2, q, s6, q, q, d);
        COUNT_TASK();
#pragma omp task default(none) firstprivate(p22, s3, s7, q, d)
        strassen(p22, s3, q, s7, q, q, d);
        COUNT_TASK();
#pragma omp task default(none) firstprivate(p11, a12, lda, b21, ldb, q, d)
        strassen(p11, a12, lda, b21, ldb, q, d);
        COUNT_TASK();
#pragma omp task default(none) firstprivate(p12, s4, b22, ldb, q, d)
        strassen(p12, s4, q, b22, ldb, q, d);
        COUNT_TASK();
#pragma omp task default(none) firstprivate(p21, a22, lda, s8, q, d)
        strassen(p21, a22, lda, s8, q, q, d);
        COUNT_TASKWAIT();
#pragma omp taskwait
    } else {
        strassen(m2, a11, lda, b11, ldb, q, d);
        strassen(m5, s1, q, s5, q, q, d);
        strassen(t1, s2, q, s6, q, q, d);
        strassen(p22, s3, q, s7, q, q, d);
        strassen(p11, a12, lda, b21, ldb, q, d);
        strassen(p12, s4, q, b22, ldb, q, d);
        strassen(p21, a22, lda, s8, q, q, d);
    }
    combine(c, p, q);
    free(s);
    free(p);
}

static double norm(const double *v, size_t len) {
    double s = 0.0;
    for (size_t i = 0; i < len; i++) s += v[i] * v[i];
    return sqrt(s);
}

int main(int argc, char **argv) {
    bots_option opts[] = {
        {"x", "depth cut-off", 7},
        {"y", "matrix-size cut-off", 32},
        {"seed", "input seed", 1},
        BOTS_COUNT_OPTION,
    };
    BOTS_ARGS(argc, argv, "strassen", "matrix rows, halving evenly down to y (a power of two)",
              1, 1 << 14, opts);
    const size_t n = (size_t)bots_n;
    uint64_t x = BOTS_GET(opts, "x");
    depth_cutoff = x > 1000 ? 1000 : (unsigned)x;
    size_cutoff = (size_t)BOTS_GET(opts, "y");
    for (size_t s = n; s > size_cutoff; s /= 2)
        if (s % 2 == 1)
            bots_die("the matrix size %zu must halve evenly down to the size cut-off %zu "
                     "(a power of two does)",
                     n, size_cutoff);
    uint64_t seed = BOTS_GET(opts, "seed");

    double *a = bots_alloc(n * n, sizeof(double));
    double *b = bots_alloc(n * n, sizeof(double));
    double *c = bots_alloc(n * n, sizeof(double));
    bots_rng rng = bots_seeded(seed);
    for (size_t i = 0; i < n * n; i++) a[i] = bots_symmetric(&rng);
    for (size_t i = 0; i < n * n; i++) b[i] = bots_symmetric(&rng);

    double t0 = omp_get_wtime();
#pragma omp parallel default(none) firstprivate(a, b, c, n)
#pragma omp single
    strassen(c, a, n, b, n, n, 0);
    double seconds = omp_get_wtime() - t0;

    /* The rows checked: all of them, or 64 drawn at random. */
    size_t nrows = n <= 1024 ? n : 64;
    size_t *rows = bots_alloc(nrows, sizeof(size_t));
    bots_rng pick = bots_seeded(seed ^ 0xF4EE7A1DULL);
    for (size_t r = 0; r < nrows; r++) rows[r] = n <= 1024 ? r : (size_t)bots_below(&pick, n);
    double *errors = bots_alloc(nrows, sizeof(double));
    double bnorm = norm(b, n * n);
#pragma omp parallel default(none) shared(a, b, c, n, nrows, rows, errors, bnorm)
    {
        double *ref = bots_alloc(n, sizeof(double));
#pragma omp for schedule(dynamic)
        for (size_t r = 0; r < nrows; r++) {
            size_t i = rows[r];
            for (size_t j = 0; j < n; j++) ref[j] = 0.0;
            for (size_t k = 0; k < n; k++) {
                double aik = a[i * n + k];
                for (size_t j = 0; j < n; j++) ref[j] += aik * b[k * n + j];
            }
            double diff = 0.0;
            for (size_t j = 0; j < n; j++) diff += (c[i * n + j] - ref[j]) * (c[i * n + j] - ref[j]);
            double den = norm(a + i * n, n) * bnorm;
            errors[r] = den > 0.0 ? sqrt(diff) / den : sqrt(diff);
        }
        free(ref);
    }
    double worst = 0.0;
    for (size_t r = 0; r < nrows; r++) {
        if (!(errors[r] < 1e-10)) /* also catches NaN */
            bots_fail("row %zu differs from the naive product: relative error %e (must be "
                      "below 1e-10)",
                      rows[r], errors[r]);
        if (errors[r] > worst) worst = errors[r];
    }
    free(rows);
    free(errors);
    free(a);
    free(b);
    free(c);
    bots_report(seconds, "error=%.3e", worst);
    return 0;
}
