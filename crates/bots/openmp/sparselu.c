/*
 * sparselu: BOTS's sparselu (the `single` version) with OpenMP tasks, as the Rust kernel
 * crates/bots/src/sparselu.rs: LU factorisation without pivoting of a matrix of N x N
 * blocks of m x m numbers, absent blocks null.
 *
 * For each k: lu0 factors the diagonal block in the root task; one task per non-null
 * block of row k (fwd) and of column k (bdiv), a taskwait; one task per pair of non-null
 * blocks (i, k), (k, j) updating block (i, j) (bmod; the task allocates the block when it
 * was null: fill-in), a taskwait.
 *
 * Input: BOTS's genmat (its null structure, its congruential numbers x <- 3125 x mod 65536
 * from x = seed, value (x - 32768) / 16384) in double precision, each diagonal block's
 * diagonal given the row's absolute sum times N so that LU without pivoting is stable
 * (as the Rust kernel does). Check: ||A - L U||_F / ||A||_F below 1e-10 over the blocks.
 */
#include "bots.h"

#include <math.h>

static size_t nb, m; /* blocks per dimension, numbers per block dimension */

#define BLOCK(mat, i, j) ((mat)[(size_t)(i) * nb + (size_t)(j)])

static int is_null(size_t ii, size_t jj) {
    if (ii == jj || ii + 1 == jj || jj + 1 == ii) return 0;
    return (ii < jj && ii % 3 != 0) || (ii > jj && jj % 3 != 0) || ii % 2 == 1 || jj % 2 == 1;
}

static double **genmat(uint64_t seed) {
    double **mat = bots_alloc(nb * nb, sizeof(double *));
    uint32_t x = (uint32_t)(seed % 65536);
    for (size_t ii = 0; ii < nb; ii++)
        for (size_t jj = 0; jj < nb; jj++) {
            if (is_null(ii, jj)) continue;
            double *b = bots_alloc(m * m, sizeof(double));
            for (size_t i = 0; i < m; i++) {
                double rowsum = 0.0;
                for (size_t j = 0; j < m; j++) {
                    x = (3125 * x) % 65536;
                    double v = ((double)x - 32768.0) / 16384.0;
                    b[i * m + j] = v;
                    rowsum += fabs(v);
                }
                if (ii == jj) b[i * m + i] = rowsum * (double)nb + fabs(b[i * m + i]);
            }
            BLOCK(mat, ii, jj) = b;
        }
    return mat;
}

/* BOTS's lu0: LU of a diagonal block in place (unit lower part below the diagonal). */
static void lu0(double *diag) {
    for (size_t k = 0; k < m; k++)
        for (size_t i = k + 1; i < m; i++) {
            double l = diag[i * m + k] / diag[k * m + k];
            diag[i * m + k] = l;
            for (size_t j = k + 1; j < m; j++) diag[i * m + j] -= l * diag[k * m + j];
        }
}

/* BOTS's fwd: col <- L^-1 col, L the unit lower part of diag. */
static void fwd(const double *diag, double *col) {
    for (size_t k = 0; k < m; k++)
        for (size_t i = k + 1; i < m; i++) {
            double l = diag[i * m + k];
            for (size_t j = 0; j < m; j++) col[i * m + j] -= l * col[k * m + j];
        }
}

/* BOTS's bdiv: row <- row U^-1, U the upper part of diag. */
static void bdiv(const double *diag, double *row) {
    for (size_t i = 0; i < m; i++)
        for (size_t k = 0; k < m; k++) {
            double r = row[i * m + k] / diag[k * m + k];
            row[i * m + k] = r;
            for (size_t j = k + 1; j < m; j++) row[i * m + j] -= r * diag[k * m + j];
        }
}

/* BOTS's bmod: inner <- inner - row col. */
static void bmod(const double *row, const double *col, double *inner) {
    for (size_t i = 0; i < m; i++)
        for (size_t k = 0; k < m; k++) {
            double r = row[i * m + k];
            for (size_t j = 0; j < m; j++) inner[i * m + j] -= r * col[k * m + j];
        }
}

static void sparselu(double **mat) {
    for (size_t kk = 0; kk < nb; kk++) {
        if (!BLOCK(mat, kk, kk)) BLOCK(mat, kk, kk) = bots_alloc(m * m, sizeof(double));
        double *diag = BLOCK(mat, kk, kk);
        lu0(diag);
        for (size_t jj = kk + 1; jj < nb; jj++) {
            double *b = BLOCK(mat, kk, jj);
            if (b) {
                COUNT_TASK();
#pragma omp task default(none) firstprivate(diag, b)
                fwd(diag, b);
            }
        }
        for (size_t ii = kk + 1; ii < nb; ii++) {
            double *b = BLOCK(mat, ii, kk);
            if (b) {
                COUNT_TASK();
#pragma omp task default(none) firstprivate(diag, b)
                bdiv(diag, b);
            }
        }
        COUNT_TASKWAIT();
#pragma omp taskwait
        for (size_t ii = kk + 1; ii < nb; ii++) {
            const double *row = BLOCK(mat, ii, kk);
            if (!row) continue;
            for (size_t jj = kk + 1; jj < nb; jj++) {
                const double *col = BLOCK(mat, kk, jj);
                if (!col) continue;
                /* Each task owns block (ii, jj): it alone may allocate it this phase. */
                double **inner = &BLOCK(mat, ii, jj);
                COUNT_TASK();
#pragma omp task default(none) shared(m) firstprivate(row, col, inner)
                {
                    if (!*inner) *inner = bots_alloc(m * m, sizeof(double));
                    bmod(row, col, *inner);
                }
            }
        }
        COUNT_TASKWAIT();
#pragma omp taskwait
    }
}

/* ||A - L U||_F and ||A||_F over the blocks present in lu (a block null in lu is null in
 * A and in L U). Serial loops over blocks, parallel over block rows. */
static double residual(double **orig, double **lu) {
    double err = 0.0, norm = 0.0;
#pragma omp parallel for default(none) shared(orig, lu, nb, m) reduction(+ : err, norm) \
    schedule(dynamic)
    for (size_t idx = 0; idx < nb * nb; idx++) {
        size_t ii = idx / nb, jj = idx % nb;
        if (!BLOCK(lu, ii, jj)) continue;
        double *p = bots_alloc(m * m, sizeof(double));
        size_t kmin = ii < jj ? ii : jj;
        for (size_t k = 0; k < kmin; k++) {
            const double *l = BLOCK(lu, ii, k), *u = BLOCK(lu, k, jj);
            if (!l || !u) continue;
            for (size_t i = 0; i < m; i++)
                for (size_t kk = 0; kk < m; kk++) {
                    double r = l[i * m + kk];
                    for (size_t j = 0; j < m; j++) p[i * m + j] += r * u[kk * m + j];
                }
        }
        /* L(ii, k) U(k, jj) for k = min(ii, jj), with the diagonal block's unit lower or
         * upper part. */
        const double *l = BLOCK(lu, ii, kmin), *u = BLOCK(lu, kmin, jj);
        int l_diag = ii == kmin, u_diag = jj == kmin;
        if (l && u)
            for (size_t i = 0; i < m; i++)
                for (size_t kk = 0; kk < m; kk++) {
                    double r = l_diag ? (i < kk ? 0.0 : i == kk ? 1.0 : l[i * m + kk])
                                      : l[i * m + kk];
                    if (r == 0.0) continue;
                    for (size_t j = 0; j < m; j++) {
                        double v = (u_diag && j < kk) ? 0.0 : u[kk * m + j];
                        p[i * m + j] += r * v;
                    }
                }
        const double *a = BLOCK(orig, ii, jj);
        for (size_t t = 0; t < m * m; t++) {
            double av = a ? a[t] : 0.0;
            err += (av - p[t]) * (av - p[t]);
            norm += av * av;
        }
        free(p);
    }
    return norm > 0.0 ? sqrt(err / norm) : sqrt(err);
}

static size_t present(double **mat) {
    size_t c = 0;
    for (size_t i = 0; i < nb * nb; i++) c += mat[i] != NULL;
    return c;
}

int main(int argc, char **argv) {
    bots_option opts[] = {
        {"m", "block size (1..=1024)", 30},
        {"seed", "genmat seed", 1325},
        BOTS_COUNT_OPTION,
    };
    BOTS_ARGS(argc, argv, "sparselu", "blocks per dimension", 1, 1000, opts);
    nb = (size_t)bots_n;
    uint64_t mm = BOTS_GET(opts, "m");
    if (mm < 1 || mm > 1024) bots_die("block size m = %" PRIu64 " out of range 1..=1024", mm);
    m = (size_t)mm;
    uint64_t seed = BOTS_GET(opts, "seed");

    double **orig = genmat(seed);
    double **lu = genmat(seed);

    double t0 = omp_get_wtime();
#pragma omp parallel default(none) firstprivate(lu)
#pragma omp single
    sparselu(lu);
    double seconds = omp_get_wtime() - t0;

    for (size_t i = 0; i < nb * nb; i++)
        if (orig[i] && !lu[i]) bots_fail("block (%zu, %zu) disappeared", i / nb, i % nb);
    double r = residual(orig, lu);
    if (!(r < 1e-10)) /* also catches NaN */
        bots_fail("relative residual ||A - L U|| / ||A|| = %e (must be below 1e-10)", r);
    size_t before = present(orig), after = present(lu);
    for (size_t i = 0; i < nb * nb; i++) {
        free(orig[i]);
        free(lu[i]);
    }
    free(orig);
    free(lu);
    bots_report(seconds, "residual=%.3e blocks=%zu->%zu", r, before, after);
    return 0;
}
