/* nested.c: nested parallel regions, for the OMPT tool's test
 * (crates/bots/tests/openmp.rs).
 *
 *   nested OUTER INNER MS
 *
 * An outer parallel region of OUTER threads, each running an inner region of INNER threads
 * (active when OMP_MAX_ACTIVE_LEVELS ≥ 2, else each inner team is its encountering thread
 * alone); every inner implicit task spins MS milliseconds and its thread 0 creates two
 * tasks of MS milliseconds. Prints `ok threads=N tasks=T`: N the distinct threads that ran
 * an inner implicit task, T the explicit tasks created. */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void spin(double ms) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double end = ts.tv_sec + 1e-9 * ts.tv_nsec + ms * 1e-3;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        if (ts.tv_sec + 1e-9 * ts.tv_nsec >= end) break;
    }
}

static pthread_t seen[256];
static int nseen, tasks;

static void saw(void) {
    pthread_t me = pthread_self();
#pragma omp critical
    {
        int found = 0;
        for (int i = 0; i < nseen; i++) found |= pthread_equal(seen[i], me);
        if (!found && nseen < 256) seen[nseen++] = me;
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fputs("usage: nested OUTER INNER MS\n", stderr);
        return 2;
    }
    int outer = atoi(argv[1]), inner = atoi(argv[2]);
    double ms = atof(argv[3]);
#pragma omp parallel num_threads(outer)
    {
#pragma omp parallel num_threads(inner)
        {
            saw();
            if (omp_get_thread_num() == 0) {
                for (int k = 0; k < 2; k++) {
#pragma omp task
                    spin(ms);
#pragma omp atomic
                    tasks++;
                }
            }
            spin(ms);
        }
    }
    printf("ok threads=%d tasks=%d\n", nseen, tasks);
    return 0;
}
