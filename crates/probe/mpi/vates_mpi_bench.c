/* The MPI collective benchmark of `vates probe --mpi`.
 *
 * Usage: vates_mpi_bench OPS SIZES REPS MIN_REP_US
 *   OPS        comma-separated: barrier,broadcast,scatter,gather,reduce,allreduce,
 *              alltoall,send-receive
 *   SIZES      comma-separated message sizes in MPI_INTs (per process for scatter, gather
 *              and alltoall; the whole vector for broadcast, reduce and allreduce; per
 *              neighbour for send-receive, a ring shift with MPI_Sendrecv)
 *   REPS       timed repetitions per (op, size)
 *   MIN_REP_US the shortest a repetition may last, in µs: each repetition times a loop of
 *              as many calls as that takes (at least 1), so the clock's resolution is far
 *              below what it measures
 *
 * The timing discipline of the established MPI benchmarks (IMB, OSU, SKaMPI): warm-up
 * calls first; before every repetition an MPI_Barrier, so the processes start together;
 * each process times its loop with MPI_Wtime; a repetition's time per call is the slowest
 * process's (MPI_MAX), as IMB's t_max. Rank 0 prints, after a header of `#` lines (the
 * clock's resolution, the process count, the loop lengths), one CSV row per repetition:
 * op,p,d,time with time in µs per call.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op { BARRIER, BROADCAST, SCATTER, GATHER, REDUCE, ALLREDUCE, ALLTOALL, SENDRECV, NOPS };
static const char *NAMES[NOPS] = {"barrier", "broadcast", "scatter", "gather",
                                  "reduce", "allreduce", "alltoall", "send-receive"};

static int rank, nprocs;
static int *sendbuf, *recvbuf;

static void call(enum op op, int d) {
    int right = (rank + 1) % nprocs, left = (rank + nprocs - 1) % nprocs;
    switch (op) {
    case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
    case BROADCAST: MPI_Bcast(sendbuf, d, MPI_INT, 0, MPI_COMM_WORLD); break;
    case SCATTER: MPI_Scatter(sendbuf, d, MPI_INT, recvbuf, d, MPI_INT, 0, MPI_COMM_WORLD); break;
    case GATHER: MPI_Gather(sendbuf, d, MPI_INT, recvbuf, d, MPI_INT, 0, MPI_COMM_WORLD); break;
    case REDUCE: MPI_Reduce(sendbuf, recvbuf, d, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD); break;
    case ALLREDUCE: MPI_Allreduce(sendbuf, recvbuf, d, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case ALLTOALL: MPI_Alltoall(sendbuf, d, MPI_INT, recvbuf, d, MPI_INT, MPI_COMM_WORLD); break;
    case SENDRECV:
        MPI_Sendrecv(sendbuf, d, MPI_INT, right, 0, recvbuf, d, MPI_INT, left, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    default: break;
    }
}

/* The slowest process's time per call of `iters` calls, in seconds. */
static double timed(enum op op, int d, long iters) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long k = 0; k < iters; k++) call(op, d);
    double local = (MPI_Wtime() - t0) / (double)iters, slowest;
    MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

static int parse_list(const char *s, long *out, int max) {
    int n = 0;
    while (*s && n < max) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 0) return -1;
        out[n++] = v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return n;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 5) {
        if (rank == 0) fprintf(stderr, "usage: %s OPS SIZES REPS MIN_REP_US\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int ops[NOPS], nops = 0;
    for (char *tok = strtok(argv[1], ","); tok; tok = strtok(NULL, ",")) {
        int found = -1;
        for (int k = 0; k < NOPS; k++)
            if (strcmp(tok, NAMES[k]) == 0) found = k;
        if (found < 0 || nops == NOPS) {
            if (rank == 0) fprintf(stderr, "unknown operation `%s`\n", tok);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        ops[nops++] = found;
    }
    long sizes[64];
    int nsizes = parse_list(argv[2], sizes, 64);
    long reps = atol(argv[3]);
    double min_rep = atof(argv[4]) * 1e-6;
    long maxd = 0;
    for (int k = 0; k < nsizes; k++)
        if (sizes[k] > maxd) maxd = sizes[k];
    if (nsizes <= 0 || reps < 1 || maxd > (1L << 24)) {
        if (rank == 0) fprintf(stderr, "bad sizes or repetitions\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    size_t n = (size_t)(maxd > 0 ? maxd : 1) * (size_t)nprocs;
    sendbuf = calloc(n, sizeof(int));
    recvbuf = calloc(n, sizeof(int));
    if (!sendbuf || !recvbuf) {
        if (rank == 0) fprintf(stderr, "cannot allocate %zu integers\n", 2 * n);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    for (size_t i = 0; i < n; i++) sendbuf[i] = (int)i;
    if (rank == 0) {
        printf("# wtick_s=%.3g\n# processes=%d\n", MPI_Wtick(), nprocs);
        printf("op,p,d,time\n");
    }
    for (int o = 0; o < nops; o++) {
        int sized = ops[o] != BARRIER;
        for (int s = 0; s < (sized ? nsizes : 1); s++) {
            int d = sized ? (int)sizes[s] : 0;
            /* Warm-up, then the loop length: enough calls for min_rep, the same on every
               process (rank 0's estimate, broadcast). */
            for (int w = 0; w < 3; w++) call(ops[o], d);
            double one = timed(ops[o], d, 4);
            long iters = one > 0 ? (long)(min_rep / one) + 1 : 1000;
            if (iters > 100000) iters = 100000;
            MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
            for (long r = 0; r < reps; r++) {
                double t = timed(ops[o], d, iters);
                if (rank == 0) {
                    if (sized)
                        printf("%s,%d,%d,%.6g\n", NAMES[ops[o]], nprocs, d, t * 1e6);
                    else
                        printf("%s,%d,,%.6g\n", NAMES[ops[o]], nprocs, t * 1e6);
                }
            }
            if (rank == 0) {
                printf("# iterations %s d=%d: %ld\n", NAMES[ops[o]], d, iters);
                fflush(stdout);
            }
        }
    }
    free(sendbuf);
    free(recvbuf);
    MPI_Finalize();
    return 0;
}
