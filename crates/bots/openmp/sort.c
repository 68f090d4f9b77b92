/*
 * sort: BOTS's sort (Cilk's cilksort) of 64-bit integers with OpenMP tasks, as the Rust
 * kernel crates/bots/src/sort.rs.
 *
 * cilksort splits the array in four quarters and sorts them in four tasks and a taskwait
 * (scratch in a second array); merges the quarters pairwise into the scratch, one merge
 * in a task and one in the caller, and a taskwait (the Rust join); and merges the halves
 * back in the caller. cilkmerge splits the longer run at its middle, finds the split of
 * the other run by binary search and merges the upper sides in a task, the lower ones
 * itself, and waits, down to runs of at most a elements merged serially. Arrays shorter
 * than y are sorted by the serial quicksort, which leaves parts shorter than b to
 * insertion sort.
 *
 * Input: 0..n scrambled by n random swaps (the Rust crate's generator and seed: the same
 * numbers). Check: the output is exactly 0, 1, ..., n-1 (sorted, and the same multiset).
 */
#include "bots.h"

typedef int64_t elm;

static size_t merge_cutoff, quick_cutoff, insertion_cutoff;

static void insertion_sort(elm *a, size_t len) {
    for (size_t q = 1; q < len; q++) {
        elm x = a[q];
        size_t p = q;
        while (p > 0 && a[p - 1] > x) {
            a[p] = a[p - 1];
            p--;
        }
        a[p] = x;
    }
}

static elm med3(elm a, elm b, elm c) {
    if (a < b) return b < c ? b : (a < c ? c : a);
    return b > c ? b : (a > c ? c : a);
}

/* BOTS's seqpart (len >= 2): partitions around the median of the first, middle and last
 * elements; returns p with a[..=p] <= pivot <= a[p+1..]. */
static size_t seqpart(elm *a, size_t len) {
    size_t high = len - 1;
    elm pivot = med3(a[0], a[high], a[high / 2]);
    size_t lo = 0, hi = high;
    for (;;) {
        while (a[hi] > pivot) hi--;
        while (a[lo] < pivot) lo++;
        if (lo >= hi) break;
        elm t = a[lo];
        a[lo] = a[hi];
        a[hi] = t;
        hi--;
        lo++;
    }
    return hi < high ? hi : hi - 1;
}

/* BOTS's seqquick: quicksort, leaving parts shorter than `cut` (>= 2) to insertion sort. */
static void seqquick(elm *a, size_t len, size_t cut) {
    if (cut < 2) cut = 2;
    while (len > cut) {
        size_t p = seqpart(a, len);
        seqquick(a, p + 1, cut);
        a += p + 1;
        len -= p + 1;
    }
    insertion_sort(a, len);
}

/* BOTS's seqmerge: merges the sorted runs a and b into dest. */
static void seqmerge(const elm *a, size_t na, const elm *b, size_t nb, elm *dest) {
    size_t i = 0, j = 0;
    for (size_t d = 0; d < na + nb; d++) {
        if (j >= nb || (i < na && a[i] < b[j]))
            dest[d] = a[i++];
        else
            dest[d] = b[j++];
    }
}

/* BOTS's binsplit: the number of elements of b below v. */
static size_t binsplit(elm v, const elm *b, size_t nb) {
    size_t lo = 0, hi = nb;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void cilkmerge(const elm *a, size_t na, const elm *b, size_t nb, elm *dest) {
    if (nb > na) { /* the longer run first */
        const elm *t = a;
        a = b;
        b = t;
        size_t tn = na;
        na = nb;
        nb = tn;
    }
    if (nb == 0 || nb <= merge_cutoff) {
        if (nb == 0)
            memcpy(dest, a, na * sizeof(elm));
        else
            seqmerge(a, na, b, nb, dest);
        return;
    }
    size_t m1 = na / 2;
    size_t m2 = binsplit(a[m1], b, nb);
    dest[m1 + m2] = a[m1];
    COUNT_TASK();
#pragma omp task default(none) firstprivate(a, b, na, nb, m1, m2, dest)
    cilkmerge(a + m1 + 1, na - m1 - 1, b + m2, nb - m2, dest + m1 + m2 + 1);
    cilkmerge(a, m1, b, m2, dest);
    COUNT_TASKWAIT();
#pragma omp taskwait
}

static void cilksort(elm *low, elm *tmp, size_t size) {
    size_t qcut = quick_cutoff < 4 ? 4 : quick_cutoff;
    if (size < qcut) {
        seqquick(low, size, insertion_cutoff);
        return;
    }
    size_t q = size / 4;
    elm *a = low, *b = a + q, *c = b + q, *d = c + q;
    elm *ta = tmp, *tb = ta + q, *tc = tb + q, *td = tc + q;
    size_t nd = size - 3 * q;
    COUNT_TASK();
#pragma omp task default(none) firstprivate(a, ta, q)
    cilksort(a, ta, q);
    COUNT_TASK();
#pragma omp task default(none) firstprivate(b, tb, q)
    cilksort(b, tb, q);
    COUNT_TASK();
#pragma omp task default(none) firstprivate(c, tc, q)
    cilksort(c, tc, q);
    COUNT_TASK();
#pragma omp task default(none) firstprivate(d, td, nd)
    cilksort(d, td, nd);
    COUNT_TASKWAIT();
#pragma omp taskwait

    COUNT_TASK();
#pragma omp task default(none) firstprivate(c, d, tc, q, nd)
    cilkmerge(c, q, d, nd, tc);
    cilkmerge(a, q, b, q, ta);
    COUNT_TASKWAIT();
#pragma omp taskwait

    cilkmerge(ta, 2 * q, tc, size - 2 * q, low);
}

int main(int argc, char **argv) {
    bots_option opts[] = {
        {"a", "merge cut-off", 512},
        {"y", "quicksort cut-off (at least 4)", 512},
        {"b", "insertion-sort threshold (at least 2)", 20},
        {"seed", "input seed", 1},
        BOTS_COUNT_OPTION,
    };
    BOTS_ARGS(argc, argv, "sort", "numbers to sort", 1, (uint64_t)1 << 31, opts);
    const size_t n = (size_t)bots_n;
    merge_cutoff = (size_t)BOTS_GET(opts, "a");
    quick_cutoff = (size_t)BOTS_GET(opts, "y");
    insertion_cutoff = (size_t)BOTS_GET(opts, "b");
    if (quick_cutoff < 4) bots_die("the quicksort cut-off must be at least 4, not %zu", quick_cutoff);
    if (insertion_cutoff < 2)
        bots_die("the insertion-sort threshold must be at least 2, not %zu", insertion_cutoff);

    elm *data = bots_alloc(n, sizeof(elm));
    elm *tmp = bots_alloc(n, sizeof(elm));
    for (size_t i = 0; i < n; i++) data[i] = (elm)i;
    bots_rng rng = bots_seeded(BOTS_GET(opts, "seed"));
    for (size_t i = 0; i < n; i++) {
        size_t j = (size_t)bots_below(&rng, n);
        elm t = data[i];
        data[i] = data[j];
        data[j] = t;
    }

    double t0 = omp_get_wtime();
#pragma omp parallel default(none) firstprivate(data, tmp, n)
#pragma omp single
    cilksort(data, tmp, n);
    double seconds = omp_get_wtime() - t0;

    for (size_t i = 0; i < n; i++)
        if (data[i] != (elm)i)
            bots_fail("element %zu is %" PRId64 ": the output is not 0, 1, ..., %zu (unsorted, "
                      "or not the input's numbers)",
                      i, data[i], n - 1);
    free(data);
    free(tmp);
    bots_report(seconds, "%s", "");
    return 0;
}
