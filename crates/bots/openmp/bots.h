/*
 * bots.h: what the six C/OpenMP kernels share (the command line, the seeded generator,
 * the task counters and the result line). Each kernel is one C file that includes this
 * header; see README.md.
 *
 *   KERNEL N [key=value ...]    e.g.  fib 30 x=19    sort 2^20 count=1
 *
 * prints one line `KERNEL n=N ok [results] [tasks=T taskwaits=W] seconds=S` and exits 0,
 * or a message on standard error and exits 1 (bad arguments, or a failed check).
 */
#ifndef BOTS_H
#define BOTS_H

#include <inttypes.h>
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- task counters (option count=1) ------------------------------------------------ */

/* Whether the kernel counts its tasks and taskwaits (count=1; off by default, so that
 * timed runs do no atomic updates). Set before the parallel region, read-only in it. */
static int bots_counting;
/* Tasks created (each `omp task` the kernel executes) and taskwaits executed. */
static uint64_t bots_tasks, bots_taskwaits;

/* Adds one to `counter` when counting (`count=1`). */
#define BOTS_COUNT(counter)                                                               \
    do {                                                                                  \
        if (bots_counting) {                                                              \
            _Pragma("omp atomic") counter++;                                              \
        }                                                                                 \
    } while (0)
/* Counts one task creation: call just before each `#pragma omp task`. */
#define COUNT_TASK() BOTS_COUNT(bots_tasks)
/* Counts one taskwait: call just before each `#pragma omp taskwait`. */
#define COUNT_TASKWAIT() BOTS_COUNT(bots_taskwaits)

/* ---- SplitMix64: the same generator and draws as the Rust crate's stats::rng -------- */

typedef struct {
    uint64_t state;
} bots_rng;

/* The generator started from `seed` (its state is the seed, as in the reference). */
static inline bots_rng bots_seeded(uint64_t seed) {
    bots_rng r = {seed};
    return r;
}

static inline uint64_t bots_next(bots_rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A number in 0..n (n = 0 taken as 1), by the remainder. */
static inline uint64_t bots_below(bots_rng *r, uint64_t n) {
    return bots_next(r) % (n ? n : 1);
}

/* A number in [-1, 1) from 53 random bits. */
static inline double bots_symmetric(bots_rng *r) {
    double u = (double)(bots_next(r) >> 11) / 9007199254740992.0; /* 2^53 */
    return 2.0 * u - 1.0;
}

/* ---- the command line --------------------------------------------------------------- */

/* One option: name, meaning, value (the default until the command line sets it). */
typedef struct {
    const char *key;
    const char *meaning;
    uint64_t value;
} bots_option;

/* The option every kernel takes, last in its table. */
#define BOTS_COUNT_OPTION {"count", "1: count tasks and taskwaits (off: 0)", 0}

static const char *bots_kernel = "bots";
static uint64_t bots_n;

/* Prints a message on standard error, prefixed by the kernel's name, and exits 1. */
static void bots_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void bots_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", bots_kernel);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* A failed check: `KERNEL n=N FAILED: message` on standard error, exit status 1. */
static void bots_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void bots_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s n=%" PRIu64 " FAILED: ", bots_kernel, bots_n);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* A non-negative integer, also written B^E; 0 when it is not one. */
static int bots_parse_number(const char *s, uint64_t *out) {
    const char *caret = strchr(s, '^');
    uint64_t v = 0;
    const char *p = s;
    if (*p == '\0') return 0;
    for (; *p && p != caret; p++) {
        if (*p < '0' || *p > '9') return 0;
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    if (caret) {
        uint64_t e;
        if (p == s || !bots_parse_number(caret + 1, &e) || strchr(caret + 1, '^')) return 0;
        uint64_t r = 1;
        for (uint64_t i = 0; i < e; i++) {
            if (v != 0 && r > UINT64_MAX / v) return 0;
            r *= v;
        }
        v = r;
    }
    *out = v;
    return 1;
}

static void bots_usage(FILE *f, const char *what, uint64_t lo, uint64_t hi,
                       const bots_option *opts, size_t nopts) {
    fprintf(f,
            "usage: %s N [key=value ...]\n"
            "Runs BOTS's %s with OpenMP tasks, checks the result and prints one line.\n"
            "  N = %s (%" PRIu64 "..=%" PRIu64 "; B^E allowed)\n",
            bots_kernel, bots_kernel, what, lo, hi);
    for (size_t i = 0; i < nopts; i++) {
        char kv[64];
        snprintf(kv, sizeof kv, "%s=%" PRIu64, opts[i].key, opts[i].value);
        fprintf(f, "  %-12s %s\n", kv, opts[i].meaning);
    }
}

/* Reads `N [key=value ...]` into bots_n and the options' values (exits on an error);
 * `-h` prints the usage. Sets bots_counting from the count option. */
static void bots_args(int argc, char **argv, const char *kernel, const char *what,
                      uint64_t lo, uint64_t hi, bots_option *opts, size_t nopts) {
    bots_kernel = kernel;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "help")) {
            bots_usage(stdout, what, lo, hi, opts, nopts);
            exit(0);
        }
    }
    if (argc < 2) {
        bots_usage(stderr, what, lo, hi, opts, nopts);
        exit(1);
    }
    if (!bots_parse_number(argv[1], &bots_n))
        bots_die("bad size N '%s': expected a non-negative integer (%s)", argv[1], what);
    if (bots_n < lo || bots_n > hi)
        bots_die("size N = %" PRIu64 " out of range: %s, %" PRIu64 "..=%" PRIu64, bots_n, what,
                 lo, hi);
    for (int a = 2; a < argc; a++) {
        const char *eq = strchr(argv[a], '=');
        if (!eq) bots_die("bad option '%s': options are key=value (see -h)", argv[a]);
        size_t klen = (size_t)(eq - argv[a]);
        size_t i = 0;
        while (i < nopts && !(strlen(opts[i].key) == klen && !strncmp(opts[i].key, argv[a], klen)))
            i++;
        if (i == nopts) bots_die("unknown option '%.*s' (see -h)", (int)klen, argv[a]);
        if (!bots_parse_number(eq + 1, &opts[i].value))
            bots_die("bad value for option %s: '%s' is not a non-negative integer", opts[i].key,
                     eq + 1);
    }
    for (size_t i = 0; i < nopts; i++) {
        if (!strcmp(opts[i].key, "count")) {
            if (opts[i].value > 1) bots_die("count must be 0 or 1");
            bots_counting = (int)opts[i].value;
        }
    }
}

/* The value of option `key` (the tables are the kernels' own: a missing key is a bug). */
static uint64_t bots_get(const bots_option *opts, size_t nopts, const char *key) {
    for (size_t i = 0; i < nopts; i++)
        if (!strcmp(opts[i].key, key)) return opts[i].value;
    bots_die("internal error: no option %s", key);
}

/* The option table's length, for the two calls above. */
#define BOTS_NOPTS(opts) (sizeof(opts) / sizeof((opts)[0]))
/* bots_args and bots_get on a local option table. */
#define BOTS_ARGS(argc, argv, kernel, what, lo, hi, opts) \
    bots_args(argc, argv, kernel, what, lo, hi, opts, BOTS_NOPTS(opts))
#define BOTS_GET(opts, key) bots_get(opts, BOTS_NOPTS(opts), key)

/* Allocates or exits. */
static inline void *bots_alloc(size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) bots_die("out of memory (%zu × %zu bytes)", count, size);
    return p;
}

/* Prints the result line: `KERNEL n=N ok RESULTS [tasks=T taskwaits=W] seconds=S`, where
 * RESULTS (may be empty) is the kernel's own `key=value` fields. */
static void bots_report(double seconds, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bots_report(double seconds, const char *fmt, ...) {
    char results[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(results, sizeof results, fmt, ap);
    va_end(ap);
    printf("%s n=%" PRIu64 " ok %s%s", bots_kernel, bots_n, results, results[0] ? " " : "");
    if (bots_counting)
        printf("tasks=%" PRIu64 " taskwaits=%" PRIu64 " ", bots_tasks, bots_taskwaits);
    printf("seconds=%.6f\n", seconds);
}

#endif
