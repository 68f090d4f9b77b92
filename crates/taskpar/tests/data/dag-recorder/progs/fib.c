/* fib.c -- recursive fork-join fib recorded with DAG Recorder (MassiveThreads 07569c5).
 * Each fib(n), n >= 2: begin a section, spawn fib(n-1) as a myth thread,
 * compute fib(n-2) in the parent, wait (myth_join).  fib(0)=0, fib(1)=1
 * are leaves with no tasking primitives (they become part of an interval).
 * Usage: fib N      (MYTH_NUM_WORKERS sets the worker count)
 */
#define DAG_RECORDER 2
#include <stdio.h>
#include <stdlib.h>
#include <myth/myth.h>
/* dag_recorder.h's macros call these two; they must be visible first */
static int dr_get_worker(void) { return myth_get_worker_num(); }
static int dr_get_max_workers(void) { return myth_get_num_workers(); }
#include <dag_recorder.h>

static long fib(int n);

typedef struct { int n; long r; dr_dag_node *c; } fib_arg;

static void *fib_task(void *a_) {
  fib_arg *a = (fib_arg *)a_;
  dr_start_task(a->c);          /* first thing the child task does */
  a->r = fib(a->n);
  dr_end_task();                /* last thing the child task does */
  return 0;
}

static long fib(int n) {
  if (n < 2) return n;
  fib_arg a;
  dr_begin_section();           /* like mtbb task_group: a section per fork-join */
  dr_dag_node *t = dr_enter_create_task(&a.c);
  a.n = n - 1;
  myth_thread_t th = myth_create(fib_task, &a);
  dr_return_from_create_task(t);
  long y = fib(n - 2);
  t = dr_enter_wait_tasks();
  myth_join(th, NULL);
  dr_return_from_wait_tasks(t);
  return a.r + y;
}

static long fib_ref(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; i++) { long c = a + b; a = b; b = c; }
  return a;
}

int main(int argc, char **argv) {
  int n = (argc > 1 ? atoi(argv[1]) : 10);
  dr_start(0);
  long x = fib(n);
  dr_stop();
  dr_dump();                    /* writes <prefix>.dag/.stat/.gpl (dr_stop alone writes nothing) */
  long ok = fib_ref(n);
  printf("fib(%d) = %ld (expected %ld) workers=%d %s\n", n, x, ok,
         myth_get_num_workers(), x == ok ? "OK" : "WRONG");
  return x == ok ? 0 : 1;
}
