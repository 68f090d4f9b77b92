/*
 * nqueens: BOTS's nqueens (manual cut-off) with OpenMP tasks, as the Rust kernel
 * crates/bots/src/nqueens.rs.
 *
 * A call for row j at depth < x creates one task per column i: the task copies the board,
 * puts the queen and, when ok() accepts the board, recurses; the call then waits and sums
 * the columns' counts. At the cut-off the columns are tried serially, and the call still
 * waits once (BOTS's taskwait with nothing to wait for; the Rust kernel's empty scope).
 * Check: the known number of solutions (OEIS A000170).
 */
#include "bots.h"

#define MAX_N 23

static const uint64_t SOLUTIONS[MAX_N + 1] = {
    1,       1,         0,          0,           2,             10,
    4,       40,        92,         352,         724,           2680,
    14200,   73712,     365596,     2279184,     14772512,      95815104,
    666090624ULL, 4968057848ULL, 39029188884ULL, 314666222712ULL, 2691008701644ULL,
    24233937684440ULL,
};

/* BOTS's ok: whether the first n queens of a attack no other (all pairs checked). */
static int ok(int n, const char *a) {
    for (int i = 0; i < n; i++) {
        int p = a[i];
        for (int j = i + 1; j < n; j++) {
            int q = a[j];
            int d = j - i;
            if (q == p || q == p - d || q == p + d) return 0;
        }
    }
    return 1;
}

/* BOTS's nqueens_ser: the solutions with rows 0..j placed as in a. */
static uint64_t nqueens_ser(int n, int j, char *a) {
    if (n == j) return 1;
    uint64_t solutions = 0;
    for (int i = 0; i < n; i++) {
        a[j] = (char)i;
        if (ok(j + 1, a)) solutions += nqueens_ser(n, j + 1, a);
    }
    return solutions;
}

static uint64_t nqueens(int n, int j, const char *a, unsigned depth, unsigned cutoff) {
    if (n == j) return 1;
    uint64_t csols[MAX_N] = {0};
    for (int i = 0; i < n; i++) {
        if (depth < cutoff) {
            /* `a` is the parent's board, alive until the taskwait below. */
            COUNT_TASK();
#pragma omp task default(none) shared(csols) firstprivate(a, i, j, n, depth, cutoff)
            {
                char b[MAX_N];
                memcpy(b, a, MAX_N);
                b[j] = (char)i;
                if (ok(j + 1, b)) csols[i] = nqueens(n, j + 1, b, depth + 1, cutoff);
            }
        } else {
            char b[MAX_N];
            memcpy(b, a, MAX_N);
            b[j] = (char)i;
            if (ok(j + 1, b)) csols[i] = nqueens_ser(n, j + 1, b);
        }
    }
    COUNT_TASKWAIT();
#pragma omp taskwait
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) sum += csols[i];
    return sum;
}

int main(int argc, char **argv) {
    bots_option opts[] = {
        {"x", "depth cut-off", 7},
        BOTS_COUNT_OPTION,
    };
    BOTS_ARGS(argc, argv, "nqueens", "the board size", 1, MAX_N, opts);
    const int n = (int)bots_n;
    const uint64_t x = BOTS_GET(opts, "x");
    const unsigned cutoff = x > 1000 ? 1000 : (unsigned)x;

    char board[MAX_N] = {0};
    uint64_t solutions = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel default(none) shared(solutions, board) firstprivate(n, cutoff)
#pragma omp single
    solutions = nqueens(n, 0, board, 0, cutoff);
    double seconds = omp_get_wtime() - t0;

    if (solutions != SOLUTIONS[n])
        bots_fail("%d-queens has %" PRIu64 " solutions, the kernel found %" PRIu64, n,
                  SOLUTIONS[n], solutions);
    bots_report(seconds, "solutions=%" PRIu64, solutions);
    return 0;
}
