/*
 * fib: BOTS's fib (manual cut-off) with OpenMP tasks, as the Rust kernel crates/bots/src/fib.rs.
 *
 * fib(n) at depth < x creates one task for fib(n-2), computes fib(n-1) itself and waits:
 * the Rust kernel's join(fib(n-1), fib(n-2)), whose second closure is the task. Below the
 * cut-off, fib_seq recurses serially. Check: the iterative Fibonacci number.
 */
#include "bots.h"

#define MAX_N 93 /* the largest n whose Fibonacci number fits in 64 bits */

static uint64_t fib_seq(unsigned n) {
    if (n < 2) return n;
    return fib_seq(n - 1) + fib_seq(n - 2);
}

static uint64_t fib(unsigned n, unsigned d, unsigned cutoff) {
    if (n < 2) return n;
    if (d < cutoff) {
        uint64_t x, y;
        COUNT_TASK();
#pragma omp task default(none) shared(y) firstprivate(n, d, cutoff)
        y = fib(n - 2, d + 1, cutoff);
        x = fib(n - 1, d + 1, cutoff);
        COUNT_TASKWAIT();
#pragma omp taskwait
        return x + y;
    }
    return fib_seq(n - 1) + fib_seq(n - 2);
}

int main(int argc, char **argv) {
    bots_option opts[] = {
        {"x", "depth cut-off", 19},
        BOTS_COUNT_OPTION,
    };
    BOTS_ARGS(argc, argv, "fib", "the Fibonacci index", 0, MAX_N, opts);
    const unsigned n = (unsigned)bots_n;
    const uint64_t x = BOTS_GET(opts, "x");
    const unsigned cutoff = x > 1000 ? 1000 : (unsigned)x;

    uint64_t value = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel default(none) shared(value) firstprivate(n, cutoff)
#pragma omp single
    value = fib(n, 0, cutoff);
    double seconds = omp_get_wtime() - t0;

    uint64_t a = 0, b = 1;
    for (unsigned i = 0; i < n; i++) {
        uint64_t next = a + b;
        a = b;
        b = next;
    }
    if (value != a) bots_fail("fib(%u) = %" PRIu64 ", the kernel computed %" PRIu64, n, a, value);
    bots_report(seconds, "value=%" PRIu64, value);
    return 0;
}
