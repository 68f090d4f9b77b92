/* A 1-D geometric decomposition with MPI, the program of MacDonald's thesis section 3.5 made
 * real: an n x 1024 grid of doubles is scattered by rows from rank 0, each process runs
 * `iters` Jacobi sweeps of a 5-point stencil over its rows, exchanging one halo row with
 * each neighbour (two MPI_Sendrecv of 1024 doubles per sweep, around a ring), and the grid
 * is gathered back. Its skeleton is examples/collectives/geodecomp.skel.
 *
 *   mpicc -O2 -o geodecomp geodecomp.c
 *   mpirun -np P ./geodecomp N ITERS      prints the seconds from the first scatter to the
 *                                         end of the gather (the slowest rank's)
 *   mpirun -np P ./geodecomp calibrate ROWS
 *                                         prints the seconds one sweep takes per grid point
 *                                         over ROWS rows, every process sweeping its own
 *                                         grid at once (the working set and the memory
 *                                         traffic of a run with ROWS rows per process; no
 *                                         communication): the slowest process's, the fastest
 *                                         of 5 repetitions of at least 20 ms
 *
 * Sizes are doubles here (8 bytes); the skeleton counts them in the measurement table's
 * integers (4 bytes), i.e. twice as many.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLS 1024

/* One Jacobi sweep of rows 1..rows of `u` (rows 0 and rows+1 are halos) into `v`. */
static void sweep(const double *u, double *v, int rows) {
    for (int r = 1; r <= rows; r++) {
        const double *up = u + (size_t)(r - 1) * COLS, *mid = u + (size_t)r * COLS,
                     *down = u + (size_t)(r + 1) * COLS;
        double *out = v + (size_t)r * COLS;
        out[0] = mid[0];
        for (int c = 1; c < COLS - 1; c++)
            out[c] = 0.25 * (up[c] + down[c] + mid[c - 1] + mid[c + 1]);
        out[COLS - 1] = mid[COLS - 1];
    }
}

static double calibrate(int rows) {
    int sweeps = (int)(20e6 / ((double)rows * COLS)) + 1;
    double *u = calloc((size_t)(rows + 2) * COLS, sizeof *u);
    double *v = calloc((size_t)(rows + 2) * COLS, sizeof *v);
    for (size_t k = 0; k < (size_t)(rows + 2) * COLS; k++) u[k] = (double)(k % 7);
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int s = 0; s < sweeps; s++) {
            sweep(u, v, rows);
            double *t = u; u = v; v = t;
        }
        double local = (MPI_Wtime() - t0) / ((double)sweeps * rows * COLS), t;
        MPI_Allreduce(&local, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (t < best) best = t;
    }
    volatile double sink = u[COLS + 5];
    (void)sink;
    free(u);
    free(v);
    return best;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc == 3 && strcmp(argv[1], "calibrate") == 0) {
        int rows = atoi(argv[2]);
        if (rows < 1 || rows > (1 << 16)) {
            fprintf(stderr, "ROWS is 1 to 65536\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        double c = calibrate(rows);
        if (rank == 0) printf("%.6g\n", c);
        MPI_Finalize();
        return 0;
    }
    if (argc != 3) {
        if (rank == 0) fprintf(stderr, "usage: %s N ITERS | calibrate ROWS\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int n = atoi(argv[1]), iters = atoi(argv[2]);
    if (n < p || n % p != 0 || iters < 0 || n > (1 << 16)) {
        if (rank == 0) fprintf(stderr, "N must be a multiple of the %d processes, up to 65536\n", p);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rows = n / p;
    double *grid = NULL;
    if (rank == 0) {
        grid = malloc((size_t)n * COLS * sizeof *grid);
        for (size_t k = 0; k < (size_t)n * COLS; k++) grid[k] = (double)(k % 13);
    }
    double *u = calloc((size_t)(rows + 2) * COLS, sizeof *u);
    double *v = calloc((size_t)(rows + 2) * COLS, sizeof *v);
    int up = (rank + p - 1) % p, down = (rank + 1) % p;
    /* Touch every page before the clock starts: the run is timed in steady state, as the
       calibration is. */
    memset(u, 1, (size_t)(rows + 2) * COLS * sizeof *u);
    memset(v, 1, (size_t)(rows + 2) * COLS * sizeof *v);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Scatter(grid, rows * COLS, MPI_DOUBLE, u + COLS, rows * COLS, MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
    for (int it = 0; it < iters; it++) {
        /* First row up, last row down; halos in from the other sides. */
        MPI_Sendrecv(u + COLS, COLS, MPI_DOUBLE, up, 0, u + (size_t)(rows + 1) * COLS, COLS,
                     MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(u + (size_t)rows * COLS, COLS, MPI_DOUBLE, down, 1, u, COLS, MPI_DOUBLE,
                     up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sweep(u, v, rows);
        double *t = u; u = v; v = t;
    }
    MPI_Gather(u + COLS, rows * COLS, MPI_DOUBLE, grid, rows * COLS, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
    double local = MPI_Wtime() - t0, slowest;
    MPI_Reduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double check = 0;
        for (size_t k = 0; k < (size_t)n * COLS; k += 4099) check += grid[k];
        printf("%.6g %.6g\n", slowest, check);
    }
    free(u);
    free(v);
    free(grid);
    MPI_Finalize();
    return 0;
}
