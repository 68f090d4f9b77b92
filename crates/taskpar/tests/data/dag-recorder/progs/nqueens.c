/* nqueens.c -- N-queens solution count recorded with DAG Recorder
 * (MassiveThreads 07569c5).  At each row, one task per safe column
 * placement (a myth thread), then wait for all of them (one wait per row
 * visit that spawned anything).  A full board (row == n) counts 1.
 * Usage: nqueens N   (MYTH_NUM_WORKERS sets the worker count)
 */
#define DAG_RECORDER 2
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <myth/myth.h>
static int dr_get_worker(void) { return myth_get_worker_num(); }
static int dr_get_max_workers(void) { return myth_get_num_workers(); }
#include <dag_recorder.h>

#define MAXN 16

typedef struct {
  int n, row;
  signed char cols[MAXN];       /* cols[i] = column of the queen in row i */
  long r;
  dr_dag_node *c;
} nq_arg;

static long nq(int n, int row, const signed char *cols);

static void *nq_task(void *a_) {
  nq_arg *a = (nq_arg *)a_;
  dr_start_task(a->c);
  a->r = nq(a->n, a->row, a->cols);
  dr_end_task();
  return 0;
}

static int safe(int row, const signed char *cols, int c) {
  for (int i = 0; i < row; i++) {
    int d = cols[i] - c;
    if (d == 0 || d == row - i || d == i - row) return 0;
  }
  return 1;
}

static long nq(int n, int row, const signed char *cols) {
  if (row == n) return 1;
  nq_arg args[MAXN];
  myth_thread_t ths[MAXN];
  int k = 0;
  for (int c = 0; c < n; c++) {
    if (!safe(row, cols, c)) continue;
    nq_arg *a = &args[k];
    a->n = n; a->row = row + 1;
    memcpy(a->cols, cols, row);
    a->cols[row] = (signed char)c;
    if (k == 0) dr_begin_section();
    dr_dag_node *t = dr_enter_create_task(&a->c);
    ths[k] = myth_create(nq_task, a);
    dr_return_from_create_task(t);
    k++;
  }
  long s = 0;
  if (k > 0) {
    dr_dag_node *t = dr_enter_wait_tasks();
    for (int i = 0; i < k; i++) myth_join(ths[i], NULL);
    dr_return_from_wait_tasks(t);
    for (int i = 0; i < k; i++) s += args[i].r;
  }
  return s;
}

int main(int argc, char **argv) {
  static const long known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712};
  int n = (argc > 1 ? atoi(argv[1]) : 6);
  if (n < 1 || n > 13) { fprintf(stderr, "n must be 1..13\n"); return 2; }
  signed char cols[MAXN];
  dr_start(0);
  long x = nq(n, 0, cols);
  dr_stop();
  dr_dump();
  printf("nqueens(%d) = %ld (expected %ld) workers=%d %s\n", n, x, known[n],
         myth_get_num_workers(), x == known[n] ? "OK" : "WRONG");
  return x == known[n] ? 0 : 1;
}
