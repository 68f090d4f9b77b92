/* depend.c: sibling tasks ordered only by `depend` clauses, for the OMPT tool's test
 * (crates/bots/tests/openmp.rs). Each task spins for a given number of milliseconds.
 *
 *   depend chain K MS   K tasks, each depend(inout: x): a chain, task i after task i-1
 *   depend diamond A B C D
 *                       A out(a); B in(a) out(b); C in(a) out(c); D in(b, c):
 *                       the edges A→B, A→C, B→D, C→D
 *   depend readers W R S V
 *                       W out(x); R in(x); S in(x); V inout(x): the edges W→R, W→S
 *                       (readers after the writer), R→V, S→V (a writer after readers)
 *
 * The tasks are created by one thread (`single`) with no taskwait between them; the
 * single's implicit barrier joins them. Prints `ok` and the order the tasks ran in. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void spin(double ms) {
    double end = now() + ms * 1e-3;
    while (now() < end) {
    }
}

static int order[64];
static int done;

static void ran(int id) {
    int k;
#pragma omp atomic capture
    k = done++;
    order[k] = id;
}

int main(int argc, char **argv) {
    if (argc >= 4 && !strcmp(argv[1], "chain")) {
        int k = atoi(argv[2]);
        double ms = atof(argv[3]);
        if (k < 1 || k > 64) return 2;
        int x = 0;
#pragma omp parallel
#pragma omp single
        for (int i = 0; i < k; i++) {
#pragma omp task depend(inout : x) firstprivate(i)
            {
                spin(ms);
                x++;
                ran(i);
            }
        }
        if (x != k) return 1;
    } else if (argc >= 6 && !strcmp(argv[1], "diamond")) {
        double ms[4];
        for (int i = 0; i < 4; i++) ms[i] = atof(argv[2 + i]);
        int a = 0, b = 0, c = 0, d = 0;
#pragma omp parallel
#pragma omp single
        {
#pragma omp task depend(out : a)
            {
                spin(ms[0]);
                a = 1;
                ran(0);
            }
#pragma omp task depend(in : a) depend(out : b)
            {
                spin(ms[1]);
                b = a + 1;
                ran(1);
            }
#pragma omp task depend(in : a) depend(out : c)
            {
                spin(ms[2]);
                c = a + 2;
                ran(2);
            }
#pragma omp task depend(in : b, c)
            {
                spin(ms[3]);
                d = b + c;
                ran(3);
            }
        }
        if (d != 5) return 1;
    } else if (argc >= 6 && !strcmp(argv[1], "readers")) {
        double ms[4];
        for (int i = 0; i < 4; i++) ms[i] = atof(argv[2 + i]);
        int x = 0, r = 0, s = 0;
#pragma omp parallel
#pragma omp single
        {
#pragma omp task depend(out : x)
            {
                spin(ms[0]);
                x = 1;
                ran(0);
            }
#pragma omp task depend(in : x) shared(r)
            {
                spin(ms[1]);
                r = x;
                ran(1);
            }
#pragma omp task depend(in : x) shared(s)
            {
                spin(ms[2]);
                s = x;
                ran(2);
            }
#pragma omp task depend(inout : x)
            {
                spin(ms[3]);
                x = 5;
                ran(3);
            }
        }
        if (x != 5 || r != 1 || s != 1) return 1;
    } else {
        fputs("usage: depend chain K MS | depend diamond|readers A B C D (milliseconds)\n",
              stderr);
        return 2;
    }
    printf("ok");
    for (int i = 0; i < done; i++) printf(" %d", order[i]);
    printf("\n");
    return 0;
}
