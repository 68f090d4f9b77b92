/*
 * vates_ompt.c: an OMPT tool (OpenMP 5 tools interface) that records the task DAG of an
 * unmodified OpenMP program and writes it as a vates DAG file (docs/dag-file.md): version 2
 * when the run had `depend` clauses between tasks, else version 1. `vates taskpar stats` and
 * the other readers take it like the Rust recorder's (taskrec) files.
 *
 *   clang -O2 -fPIC -shared -o libvates_ompt.so vates_ompt.c
 *   OMP_TOOL_LIBRARIES=$PWD/libvates_ompt.so VATES_TASKREC=run.dag OMP_NUM_THREADS=2 ./prog
 *
 * The recording covers the program's parallel part only, as the Rust recorder's
 * taskrec::run does: the root task spans from the first parallel_begin to the last
 * parallel_end of the outermost level (the initial task's strands before the first region
 * and after the last, such as input generation and verification, are cut to zero length
 * at those instants), and the header's `elapsed` is that span. With VATES_TASKREC_ELAPSED=
 * FILE as well, that span in seconds is also written to FILE.
 *
 * Light mode: without VATES_TASKREC (unset or empty) but with VATES_TASKREC_ELAPSED=FILE,
 * the tool registers parallel_begin and parallel_end only and at finalize writes the
 * span from the first outermost parallel_begin to the last parallel_end, in seconds (one
 * decimal number and a newline), to FILE: the untraced run's time, with no per-task cost.
 * (No parallel region: a message and no file.)
 *
 * Without either variable ompt_start_tool returns NULL: the runtime then registers no
 * callback and the program runs as without the tool.
 *
 * What is recorded (times: ns since initialize, read on the hot path from the time-stamp
 * counter when it is invariant and converted when written, else CLOCK_MONOTONIC_RAW; see
 * "the clock" below; workers: the threads
 * that reported an event, numbered in the order they first did, the initial thread 0; the
 * header's `workers` is their count. A thread keeps its number whatever team and level it
 * runs in, so nested parallel regions (OMP_MAX_ACTIVE_LEVELS > 1), whose inner teams bring
 * threads of their own, get distinct workers, and a worker runs one strand at a time.
 * With one outermost team, worker numbers are the team's thread numbers up to a
 * permutation of 1..P-1):
 *
 * - The initial task is the root TASK. Its strands run from the first parallel region's
 *   begin (a zero-length strand), between regions, and end at the last region's end
 *   (a zero-length strand of kind 2, end).
 * - A parallel region is a sequence of phases: the parts of its implicit tasks between
 *   its barriers (explicit ones, and the implicit barriers of worksharing constructs such
 *   as `single`). Each phase is one SECTION of the encountering task: one CREATE per
 *   thread's part of the phase (a TASK of its own, ending with kind 2 at the barrier's
 *   begin), then a zero-length wait strand (kind 1). The first CREATE is the encountering
 *   task's strand up to parallel_begin; the other creates and the waits are zero-length
 *   strands of the encountering task at the phase's release (the earliest end, on any
 *   thread, of the barrier before it). So a barrier joins every implicit task's part
 *   before it and every explicit task created before it that no taskwait or taskgroup
 *   joined, as OpenMP's barriers do; the encountering task's next strand starts at
 *   parallel_end. The region's final barrier ends the last phase (libomp 14 reports it as
 *   ompt_sync_region_barrier_implicit, like the others: the part of an implicit task after
 *   its last barrier is runtime and is dropped; a runtime that reports
 *   ompt_sync_region_barrier_implicit_parallel ends the implicit task there directly).
 *   Counts: with k phases on P threads, P·k creates, k waits and P·k ends besides the
 *   program's tasks and taskwaits (and the root's end).
 * - task_create ends the encountering task's strand with kind 0 (a CREATE item followed
 *   by the created task's TASK node, target scope 0), and the next strand of the creator
 *   starts at once. Undeferred and included tasks are tasks like the others.
 * - task_schedule: the prior task's open strand ends, with kind 2 if the task completed
 *   (its TASK is then done), else kind 3; the next task's strand starts, unless the next
 *   task is inside a taskwait, taskgroup or barrier (its strand starts at that region's
 *   end). When the next task is the one this thread created last and the prior task's
 *   strand began at the end of that create callback (no event between), the runtime is
 *   running the new task inside the creating call (undeferred and included tasks, and
 *   every task of a one-thread team): that strand is runtime, so it is recorded with zero
 *   length at the schedule and its time is delay. (A program that enters the runtime
 *   without an OMPT event in between, such as `taskyield` right after a `task`, would
 *   have its code there booked as delay too.)
 * - taskwait and taskgroup (sync_region begin): the strand ends with kind 1 and the items
 *   since the task's previous wait (or its start) become a SECTION ending with that
 *   strand, which the reader joins with the tasks created in it; the next strand starts
 *   at the sync_region end.
 * - depend clauses (ompt_callback_dependences, on the creating thread right after
 *   task_create): the new task's edges from the earlier siblings it must follow, found
 *   from a table of its parent's (address → the last task with an out-type dependence
 *   on it, and the `in` tasks since): an `in` follows the last out-type task; an
 *   out-type one follows the `in` tasks since that one, or else that one. out, inout,
 *   mutexinoutset and inoutset count as out-type (mutexinoutset tasks are ordered in
 *   their creation order, whichever the runtime ran first: a DAG has no mutual
 *   exclusion; inoutset tasks are serialised among themselves). A taskwait or taskgroup
 *   clears the table (it joined every child so far, which implies any later edge from
 *   one). The edges are the file's dependence list (task numbers in the file's order).
 *   The tool finds them itself rather than take libomp's task_dependence pairs, which
 *   omit a source that had already completed when the sink was created. Doacross
 *   (source, sink) dependences and `taskwait depend` are not task edges and are ignored.
 *
 * Work and delay. A callback that ends a strand reads the clock on entry, and one that
 * also starts a strand reads it again on exit (a sync region's end, which only starts
 * one, reads once), so the tool's own time is delay, as DAG Recorder books the runtime
 * and itself. OMPT has no event for the return from a task creation or a task's
 * completion, so the runtime's code between a callback's exit and the program
 * (allocating a task before its create callback, queueing it after, freeing it after its
 * completion, returning from the runtime) stays in the strands: work.
 *
 * Per thread and without locks or atomics on the hot path: every record is bump-allocated
 * from the calling thread's own arena (8 MB chunks advised as 2 MB huge pages: one page
 * fault per 2 MB), and a task's items are appended only by the thread running it (the
 * runtime's own synchronisation orders a task's creation before its execution); the
 * thread's state is one initial-exec TLS load. Records are small (an item 40 bytes, an
 * explicit task 80: fib records 280 bytes per task). At finalize the tree is walked from
 * the root and written to the file VATES_TASKREC names.
 *
 * Cost (bench/RESULTS.md, "Recording cost per task, three recorders"): about 120 ns per
 * task on fib and 95 on nqueens at one thread, of which libomp's own OMPT dispatch (the
 * same callbacks, empty) is 11-23 ns. Before the counter and the huge-page arena, about
 * eight clock_gettime calls per task and the page faults of calloc'd chunks made it 4x
 * that.
 *
 * A nested parallel region is recorded as the outermost ones are, inside the implicit task
 * that encountered it: a section per phase of the inner team's implicit tasks, created by
 * the encountering implicit task, whose strand ends at the inner parallel_begin and starts
 * again at its parallel_end.
 *
 * Not recorded: detached tasks, target regions, and collapsing (the header says
 * "collapse": false).
 */
#define _GNU_SOURCE
#include <omp-tools.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

/* ---- the file's tags --------------------------------------------------------------- */

enum { TAG_STRAND = 1, TAG_CREATE = 2, TAG_TASK = 4, TAG_SECTION = 5, TAG_REGION = 100 };
enum { END_CREATE = 0, END_WAIT = 1, END_END = 2, END_OTHER = 3 };

/* ---- records --------------------------------------------------------------------- */

struct vtask;
struct region;

/* One item of a task: a strand, a create (a strand and the created task), a section (its
 * items) or a parallel region (expanded into a section when written). 40 bytes. */
typedef struct item {
    struct item *next;
    uint64_t start, end;
    union {
        struct vtask *child;   /* a create's task */
        struct item *first;    /* a section's items */
        struct region *region; /* a region */
    } u;
    union {
        uint32_t worker; /* a strand's or a create's */
        uint32_t count;  /* a section's items */
    };
    uint8_t tag;
    uint8_t kind;
} item;

typedef struct list {
    item *first, *last;
} list;

/* A task, or the part of an implicit task between two barriers (a phase). An explicit
 * task takes the first 80 bytes (up to next_phase); an implicit one the whole. */
typedef struct vtask {
    list done_items; /* items up to the last wait (sections and items outside them) */
    list open;       /* items since the last wait */
    uint32_t done_count, open_count;
    uint64_t strand_start;
    uint32_t strand_worker;
    uint8_t running; /* a strand is open */
    uint8_t in_sync; /* inside a taskwait, taskgroup or barrier */
    uint8_t done;    /* its last strand ended */
    uint8_t implicit;
    struct vtask *parent;  /* an explicit task: the task that created it */
    struct deptable *deps; /* its children's depend clauses since its last wait */
    uint64_t number;       /* 1 + its number in the file (0: not written) */
    /* An implicit task's only: */
    struct vtask *next_phase; /* its part after the next barrier */
    uint64_t released;        /* when the barrier before this phase ended on its thread */
    uint8_t after_generic;    /* a phase after a barrier the runtime did not say the kind of */
} vtask;

/* ---- dependences ------------------------------------------------------------------
 * A task's children's depend clauses since its last wait, by address: the last task with
 * an out-type dependence on it and the tasks with `in` since then. The table belongs to
 * the parent and only the thread running the parent touches it (the dependences callback
 * comes on the creating thread, right after task_create). */

typedef struct reader {
    struct reader *next;
    vtask *task;
} reader;

typedef struct dep_entry {
    uintptr_t addr; /* 0: empty */
    vtask *last_out;
    reader *readers;
} dep_entry;

typedef struct deptable {
    uint32_t cap, used;
    dep_entry *e;
} deptable;

/* An edge of the file's dependence list: `to` starts after `from` ended. */
typedef struct dep_edge {
    struct dep_edge *next;
    vtask *from, *to;
} dep_edge;

typedef struct region {
    uint64_t begin;
    uint32_t slots;
    vtask **tasks; /* by implicit task index */
} region;

/* ---- per-thread state ------------------------------------------------------------ */

typedef struct tstate {
    char *chunk;
    size_t left;
    uint32_t worker;
    struct tstate *next_thread;
    dep_edge *edges; /* the dependences found on this thread */
    vtask *created;  /* the task this thread created last, */
    uint64_t after_create; /* and when its creator's next strand began */
} tstate;

/* initial-exec: a load off the thread pointer, not a call to __tls_get_addr (the tool is
 * dlopen'ed; one pointer fits the static TLS that glibc keeps for such libraries). */
static _Thread_local tstate *tls __attribute__((tls_model("initial-exec")));
static _Atomic(tstate *) threads;
static vtask *root;
static atomic_int levels; /* parallel regions begun and not ended, at every level */
static atomic_uint next_worker; /* the next thread's worker number */
/* The parallel part: the first outermost parallel_begin and the last parallel_end. */
static int have_region;
static uint64_t first_begin, last_end;

/* ---- the clock ---------------------------------------------------------------------
 * The hot path reads the time-stamp counter when the CPU's is invariant (constant_tsc and
 * nonstop_tsc in /proc/cpuinfo) and the kernel's clocksource is `tsc` (it is only when
 * the cores' counters agree): one instruction, where clock_gettime costs a vDSO call
 * several times as long, and half of each read's latency falls inside the strands around
 * it (work). Ticks become ns since the start when written, at the rate measured between
 * the start and the end of the run against CLOCK_MONOTONIC_RAW. Without an invariant
 * counter the hot path reads CLOCK_MONOTONIC_RAW itself (ticks are then ns). */

static int use_tsc;
static uint64_t tick0, ns0;       /* the start, in ticks and in CLOCK_MONOTONIC_RAW ns */
static double ns_per_tick = 1.0;  /* measured at the end (tsc) */

static uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t now(void) {
#if HAVE_TSC
    if (__builtin_expect(use_tsc, 1)) return __rdtsc();
#endif
    return mono_ns();
}

/* Whether /proc/cpuinfo's flags include both `constant_tsc` and `nonstop_tsc`, and the
 * kernel keeps time with the counter (it does only when the cores' counters agree). */
static int invariant_tsc(void) {
#if HAVE_TSC
    char source[64] = "";
    FILE *cs = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!cs) return 0;
    if (!fgets(source, sizeof source, cs)) source[0] = '\0';
    fclose(cs);
    if (strncmp(source, "tsc\n", 4)) return 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return 0;
    char line[4096];
    int ok = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5)) continue;
        ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
        break;
    }
    fclose(f);
    return ok;
#else
    return 0;
#endif
}

static void clock_start(void) {
    use_tsc = invariant_tsc();
    ns0 = mono_ns();
    tick0 = now();
}

/* At the end: the counter's rate over the run. */
static void clock_end(void) {
    if (!use_tsc) return;
    uint64_t ns = mono_ns(), t = now();
    if (t > tick0 && ns > ns0) ns_per_tick = (double)(ns - ns0) / (double)(t - tick0);
}

/* A time read by now() as ns since the start. */
static uint64_t to_ns(uint64_t t) {
    if (t <= tick0) return 0;
    return use_tsc ? (uint64_t)((double)(t - tick0) * ns_per_tick + 0.5) : t - tick0;
}

static tstate *me(void) {
    if (!tls) {
        tstate *s = calloc(1, sizeof *s);
        if (!s) abort();
        /* Workers are the threads, numbered as they first report (the initial thread, which
         * reports the initial task before any other thread exists, is 0). */
        s->worker = atomic_fetch_add(&next_worker, 1);
        s->next_thread = atomic_load(&threads);
        while (!atomic_compare_exchange_weak(&threads, &s->next_thread, s)) {
        }
        tls = s;
    }
    return tls;
}

/* Bump allocation from this thread's arena (zeroed; never freed: the process ends). The
 * arena's chunks are anonymous mappings of 8 MB aligned to 2 MB and advised as huge pages:
 * the first touch of each 2 MB is one page fault, not 512. */
#define CHUNK ((size_t)8 << 20)
#define HUGE ((size_t)2 << 20)
static void *alloc(size_t size) {
    tstate *s = me();
    size = (size + 7) & ~(size_t)7;
    if (__builtin_expect(s->left < size, 0)) {
        size_t n = size > CHUNK ? (size + HUGE - 1) & ~(HUGE - 1) : CHUNK;
        char *m = mmap(NULL, n + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (m == MAP_FAILED) {
            fputs("vates-ompt: out of memory\n", stderr);
            abort();
        }
        char *aligned = (char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
#ifdef MADV_HUGEPAGE
        madvise(aligned, n, MADV_HUGEPAGE);
#endif
        s->chunk = aligned;
        s->left = n;
    }
    void *p = s->chunk;
    s->chunk += size;
    s->left -= size;
    return p;
}

static inline void push(list *l, uint32_t *count, item *it) {
    if (l->last)
        l->last->next = it;
    else
        l->first = it;
    l->last = it;
    ++*count;
}

static vtask *new_task(int implicit) {
    vtask *t = alloc(implicit ? sizeof *t : offsetof(vtask, next_phase));
    t->implicit = (uint8_t)implicit;
    return t;
}

static void begin_strand(vtask *t, uint64_t at) {
    if (t->done || t->running) return;
    t->running = 1;
    t->strand_start = at;
    t->strand_worker = me()->worker;
}

/* Ends t's strand (a zero-length one at `at` if none is open) with `kind`. */
static item *end_strand(vtask *t, uint8_t kind, uint64_t at) {
    item *it = alloc(sizeof *it);
    it->tag = TAG_STRAND;
    it->kind = kind;
    if (t->running) {
        it->worker = t->strand_worker;
        it->start = t->strand_start;
    } else {
        it->worker = me()->worker;
        it->start = at;
    }
    it->end = at;
    t->running = 0;
    push(&t->open, &t->open_count, it);
    return it;
}

/* The items since the last wait, ended by a wait strand, become a section. */
static void close_section(vtask *t, uint64_t at) {
    /* The wait joins every child so far: a later child's dependence on one is implied. */
    t->deps = NULL;
    end_strand(t, END_WAIT, at);
    item *s = alloc(sizeof *s);
    s->tag = TAG_SECTION;
    s->u.first = t->open.first;
    s->count = t->open_count;
    memset(&t->open, 0, sizeof t->open);
    t->open_count = 0;
    push(&t->done_items, &t->done_count, s);
}

static vtask *task_of(ompt_data_t *d) { return d ? (vtask *)d->ptr : NULL; }

/* ---- callbacks ------------------------------------------------------------------- */

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, unsigned int actual, unsigned int index,
                             int flags) {
    (void)actual;
    uint64_t at = now();
    if (flags & ompt_task_initial) {
        if (endpoint == ompt_scope_begin && !root) {
            root = new_task(0);
            task_data->ptr = root;
            begin_strand(root, now());
        }
        return;
    }
    if (endpoint == ompt_scope_begin) {
        vtask *t = new_task(1);
        task_data->ptr = t;
        region *r = parallel_data ? (region *)parallel_data->ptr : NULL;
        if (r && index < r->slots) r->tasks[index] = t;
        begin_strand(t, now());
    } else {
        vtask *t = task_of(task_data);
        if (t && !t->done) {
            end_strand(t, END_END, at);
            t->done = 1;
        }
    }
}

static void on_parallel_begin(ompt_data_t *encountering, const ompt_frame_t *frame,
                              ompt_data_t *parallel_data, unsigned int requested, int flags,
                              const void *codeptr) {
    (void)frame, (void)flags, (void)codeptr;
    uint64_t at = now();
    if (atomic_fetch_add(&levels, 1) == 0 && !have_region) {
        have_region = 1;
        first_begin = at;
    }
    region *r = alloc(sizeof *r);
    r->begin = at;
    r->slots = requested ? requested : 1;
    r->tasks = alloc(r->slots * sizeof *r->tasks);
    parallel_data->ptr = r;
    vtask *e = task_of(encountering);
    if (!e) return;
    /* The encountering task's strand ends by creating the first implicit task. */
    item *first = end_strand(e, END_CREATE, at);
    first->tag = TAG_REGION;
    first->u.region = r;
    e->in_sync = 1;
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering, int flags,
                            const void *codeptr) {
    (void)parallel_data, (void)flags, (void)codeptr;
    uint64_t at = now();
    if (atomic_fetch_sub(&levels, 1) == 1) last_end = at;
    vtask *e = task_of(encountering);
    if (!e) return;
    e->in_sync = 0;
    begin_strand(e, now());
}

static void on_task_create(ompt_data_t *encountering, const ompt_frame_t *frame,
                           ompt_data_t *new_task_data, int flags, int has_dependences,
                           const void *codeptr) {
    (void)frame, (void)has_dependences, (void)codeptr;
    uint64_t at = now();
    if (flags & ompt_task_initial) {
        if (!root) {
            root = new_task(0);
            new_task_data->ptr = root;
            begin_strand(root, now());
        }
        return;
    }
    vtask *child = new_task(0);
    new_task_data->ptr = child;
    vtask *e = task_of(encountering);
    if (!e) return;
    child->parent = e;
    item *it = end_strand(e, END_CREATE, at);
    it->tag = TAG_CREATE;
    it->u.child = child;
    uint64_t after = now();
    begin_strand(e, after);
    tstate *s = me();
    s->created = child;
    s->after_create = after;
}

static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next) {
    uint64_t at = now();
    vtask *p = task_of(prior);
    vtask *n = task_of(next);
    if (p && !p->done) {
        if (status == ompt_task_complete || status == ompt_task_late_fulfill) {
            end_strand(p, END_END, at);
            p->done = 1;
        } else if (p->running) {
            /* The runtime runs the task this thread just created, inside the creating call
             * (an undeferred or included task; a serialised team's, as on one thread): the
             * creator's strand since the create callback is runtime, not program, and is
             * recorded with zero length here (its time is delay). */
            tstate *s = me();
            if (n && n == s->created && p->strand_start == s->after_create) p->strand_start = at;
            end_strand(p, END_OTHER, at);
        }
    }
    if (n && !n->in_sync) begin_strand(n, now());
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr) {
    (void)parallel_data, (void)codeptr;
    uint64_t at = now();
    vtask *t = task_of(task_data);
#ifdef VATES_OMPT_DEBUG
    fprintf(stderr, "sync kind %d endpoint %d task %p implicit %d\n", (int)kind, (int)endpoint,
            (void *)t, t ? t->implicit : -1);
#endif
    if (!t || t->done) return;
    int wait = kind == ompt_sync_region_taskwait || kind == ompt_sync_region_taskgroup;
    if (endpoint == ompt_scope_begin) {
        if (wait) {
            close_section(t, at);
        } else if (t->implicit && kind == ompt_sync_region_barrier_implicit_parallel) {
            end_strand(t, END_END, at);
            t->done = 1;
            return;
        } else if (t->implicit) {
            /* A barrier inside the region: this part of the implicit task ends, and the
             * part after the barrier is a new task of the region's next section. */
            end_strand(t, END_END, at);
            t->done = 1;
            vtask *n = new_task(1);
            n->in_sync = 1;
            n->after_generic = kind == ompt_sync_region_barrier_implicit ||
                               kind == ompt_sync_region_barrier;
            t->next_phase = n;
            task_data->ptr = n;
            return;
        } else if (t->running) {
            end_strand(t, END_OTHER, at);
        }
        t->in_sync = 1;
    } else if (endpoint == ompt_scope_end) {
        /* Only a strand begins here: the entry's reading serves (what follows it is a few
         * stores), one clock read per region end instead of two. */
        if (t->implicit && t->in_sync && !wait) t->released = at;
        t->in_sync = 0;
        begin_strand(t, at);
    }
}

static dep_entry *dep_find(deptable *d, uintptr_t addr, int insert) {
    if (insert && 2 * (d->used + 1) > d->cap) {
        deptable n = {d->cap ? 2 * d->cap : 16, 0, NULL};
        n.e = alloc(n.cap * sizeof *n.e);
        for (uint32_t i = 0; i < d->cap; i++) {
            if (!d->e[i].addr) continue;
            uint32_t j = (uint32_t)(d->e[i].addr >> 3) & (n.cap - 1);
            while (n.e[j].addr) j = (j + 1) & (n.cap - 1);
            n.e[j] = d->e[i];
            n.used++;
        }
        *d = n; /* the old slots stay in the arena */
    }
    if (!d->cap) return NULL;
    uint32_t j = (uint32_t)(addr >> 3) & (d->cap - 1);
    while (d->e[j].addr) {
        if (d->e[j].addr == addr) return &d->e[j];
        j = (j + 1) & (d->cap - 1);
    }
    if (!insert) return NULL;
    d->e[j].addr = addr;
    d->used++;
    return &d->e[j];
}

static void dep_edge_add(vtask *from, vtask *to, dep_edge *mark) {
    if (!from || from == to) return;
    tstate *s = me();
    for (dep_edge *e = s->edges; e != mark; e = e->next)
        if (e->from == from) return; /* already found for this task */
    dep_edge *e = alloc(sizeof *e);
    e->from = from;
    e->to = to;
    e->next = s->edges;
    s->edges = e;
}

/* A new task's depend clauses: its edges from the siblings it must follow (an `in` after
 * the last out-type task on the address; an out-type after the `in` tasks since then, or
 * else after the last out-type task), then the table updated. out, inout, mutexinoutset
 * and inoutset are all out-type here: mutexinoutset tasks are ordered in their creation
 * order, whichever ran first (a DAG has no mutual exclusion), and inoutset tasks are
 * serialised among themselves. Doacross dependences (source, sink) are not task edges. */
static void on_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps, int ndeps) {
    vtask *t = task_of(task_data);
    /* A task that already runs (libomp reports `taskwait depend` so) is not a new one. */
    if (!t || !t->parent || t->running || t->done || ndeps <= 0) return;
    vtask *p = t->parent;
    if (!p->deps) p->deps = alloc(sizeof *p->deps);
    dep_edge *mark = me()->edges;
    for (int i = 0; i < ndeps; i++) {
        ompt_dependence_type_t k = deps[i].dependence_type;
        if (k == ompt_dependence_type_source || k == ompt_dependence_type_sink) continue;
        dep_entry *e = dep_find(p->deps, (uintptr_t)deps[i].variable.ptr, 0);
        if (!e) continue;
        if (k == ompt_dependence_type_in || !e->readers) {
            dep_edge_add(e->last_out, t, mark);
        } else {
            for (reader *r = e->readers; r; r = r->next) dep_edge_add(r->task, t, mark);
        }
    }
    for (int i = 0; i < ndeps; i++) {
        ompt_dependence_type_t k = deps[i].dependence_type;
        if (k == ompt_dependence_type_source || k == ompt_dependence_type_sink) continue;
        dep_entry *e = dep_find(p->deps, (uintptr_t)deps[i].variable.ptr, 1);
        if (k == ompt_dependence_type_in) {
            if (e->readers && e->readers->task == t) continue;
            reader *r = alloc(sizeof *r);
            r->task = t;
            r->next = e->readers;
            e->readers = r;
        } else {
            e->last_out = t;
            e->readers = NULL;
        }
    }
}

/* ---- writing --------------------------------------------------------------------- */

typedef struct buf {
    unsigned char *p;
    size_t len, cap;
    uint64_t nodes;
    uint64_t tasks; /* TASK nodes written: the next task's number */
    uint32_t max_worker;
} buf;

static void bytes(buf *b, const void *src, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1 << 16;
        while (cap < b->len + n) cap *= 2;
        b->p = realloc(b->p, cap);
        if (!b->p) {
            fputs("vates-ompt: out of memory\n", stderr);
            abort();
        }
        b->cap = cap;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

/* Little-endian integers (x86-64 and AArch64 Linux are little-endian). */
static void u8_(buf *b, uint8_t v) { bytes(b, &v, 1); }
static void u32_(buf *b, uint32_t v) { bytes(b, &v, 4); }
static void u64_(buf *b, uint64_t v) { bytes(b, &v, 8); }

/* A strand's worker and times (read by now(); written as ns since the start). */
static void strand_fields(buf *b, uint32_t worker, uint64_t start, uint64_t end) {
    if (worker > b->max_worker) b->max_worker = worker;
    u32_(b, worker);
    u64_(b, to_ns(start));
    u64_(b, to_ns(end));
}

static void write_task(buf *b, vtask *t);
static void write_region(buf *b, const item *it);
static vtask *live(vtask *p);
static uint32_t count_items(const item *it, uint32_t count);

static void write_create(buf *b, uint32_t worker, uint64_t start, uint64_t end,
                         vtask *child) {
    b->nodes++;
    u8_(b, TAG_CREATE);
    strand_fields(b, worker, start, end);
    u64_(b, 0);
    write_task(b, child);
}

static void write_items(buf *b, const item *it, uint32_t count) {
    for (uint32_t k = 0; k < count && it; k++, it = it->next) {
        switch (it->tag) {
        case TAG_STRAND:
            b->nodes++;
            u8_(b, TAG_STRAND);
            u8_(b, it->kind);
            strand_fields(b, it->worker, it->start, it->end);
            break;
        case TAG_CREATE:
            write_create(b, it->worker, it->start, it->end, it->u.child);
            break;
        case TAG_SECTION:
            b->nodes++;
            u8_(b, TAG_SECTION);
            u64_(b, 0);
            u32_(b, count_items(it->u.first, it->count));
            write_items(b, it->u.first, it->count);
            break;
        case TAG_REGION:
            write_region(b, it);
            break;
        }
    }
}

/* A phase of an implicit task, or NULL for none or for the part after the region's final
 * barrier: a runtime that reports that barrier as ompt_sync_region_barrier_implicit (LLVM
 * 14's libomp does) makes it look like any other barrier, and only its being the last one
 * tells it apart. That last part is runtime (the release of the final barrier and the
 * implicit task's end, which libomp reports for worker threads only at the next fork or
 * at exit): the implicit task ends with the previous phase. */
static vtask *live(vtask *p) {
    return p && p->after_generic && !p->next_phase ? NULL : p;
}

/* The sections a region is written as: one per phase (at least one). */
static uint32_t region_phases(const region *r) {
    uint32_t n = 0;
    vtask **phase = alloc(r->slots * sizeof *phase);
    for (uint32_t i = 0; i < r->slots; i++) phase[i] = live(r->tasks[i]);
    for (;;) {
        int any = 0;
        for (uint32_t i = 0; i < r->slots; i++) {
            any |= phase[i] != NULL;
            if (phase[i]) phase[i] = live(phase[i]->next_phase);
        }
        if (!any) break;
        n++;
    }
    return n ? n : 1;
}

/* The nodes a list of items is written as (a region is a section per phase). */
static uint32_t count_items(const item *it, uint32_t count) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < count && it; k++, it = it->next)
        n += it->tag == TAG_REGION ? region_phases(it->u.region) : 1;
    return n;
}

/* A parallel region: per phase (the parts between its barriers) a section with one
 * create per implicit task's phase, then the wait. The first create is the encountering
 * task's strand up to parallel_begin; the others, and the waits, are zero-length strands
 * of the encountering task at the phase's release (the earliest end of the barrier
 * before it on any thread). */
static void write_region(buf *b, const item *it) {
    const region *r = it->u.region;
    vtask **phase = alloc(r->slots * sizeof *phase);
    for (uint32_t i = 0; i < r->slots; i++) phase[i] = live(r->tasks[i]);
    uint64_t at = it->end;
    int first = 1;
    for (;;) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < r->slots; i++) n += phase[i] != NULL;
        if (n == 0 && !first) break;
        b->nodes++;
        u8_(b, TAG_SECTION);
        u64_(b, 0);
        u32_(b, (n ? n : 1) + 1);
        for (uint32_t i = 0; i < r->slots; i++) {
            if (!phase[i]) continue;
            if (first)
                write_create(b, it->worker, it->start, at, phase[i]);
            else
                write_create(b, it->worker, at, at, phase[i]);
            first = 0;
        }
        if (first) { /* no implicit task seen: the strand alone */
            b->nodes++;
            u8_(b, TAG_STRAND);
            u8_(b, END_OTHER);
            strand_fields(b, it->worker, it->start, at);
            first = 0;
        }
        b->nodes++;
        u8_(b, TAG_STRAND);
        u8_(b, END_WAIT);
        strand_fields(b, it->worker, at, at);
        uint64_t release = UINT64_MAX;
        for (uint32_t i = 0; i < r->slots; i++) {
            if (phase[i]) phase[i] = live(phase[i]->next_phase);
            if (phase[i] && phase[i]->released < release) release = phase[i]->released;
        }
        if (release != UINT64_MAX && release > at) at = release;
    }
}

/* A task; one that never reported its end (still running at finalize) gets a
 * zero-length end strand after its last item, since the format's tasks end with one. */
static void write_task(buf *b, vtask *t) {
    const item *last = t->open.last ? t->open.last : t->done_items.last;
    int ended = last && last->tag == TAG_STRAND && last->kind == END_END;
    t->number = ++b->tasks;
    b->nodes++;
    u8_(b, TAG_TASK);
    u32_(b, count_items(t->done_items.first, t->done_count) +
                count_items(t->open.first, t->open_count) + !ended);
    write_items(b, t->done_items.first, t->done_count);
    write_items(b, t->open.first, t->open_count);
    if (!ended) {
        uint64_t at = t->running ? t->strand_start : last ? last->end : 0;
        b->nodes++;
        u8_(b, TAG_STRAND);
        u8_(b, END_END);
        strand_fields(b, last ? last->worker : 0, at, at);
    }
}

static void first_last(const item *it, uint32_t count, uint64_t *lo, uint64_t *hi) {
    for (uint32_t k = 0; k < count && it; k++, it = it->next) {
        if (it->tag == TAG_SECTION) {
            first_last(it->u.first, it->count, lo, hi);
            continue;
        }
        if (it->start < *lo) *lo = it->start;
        if (it->end > *hi) *hi = it->end;
    }
}

/* Cuts the root's own strands (and its items' strands, not its children's) to the
 * parallel part [lo, hi]: what the initial task does before the first region and after
 * the last becomes zero-length strands at those instants. */
static void clamp_items(item *it, uint32_t count, uint64_t lo, uint64_t hi) {
    for (uint32_t k = 0; k < count && it; k++, it = it->next) {
        if (it->tag == TAG_SECTION) {
            clamp_items(it->u.first, it->count, lo, hi);
            continue;
        }
        if (it->start < lo) it->start = lo;
        if (it->end < lo) it->end = lo;
        if (it->start > hi) it->start = hi;
        if (it->end > hi) it->end = hi;
    }
}

/* Writes `seconds` to the file `path` as taskrec does (one number and a newline). */
static void write_elapsed(const char *path, double seconds) {
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%.9e\n", seconds) < 0 || fclose(f) != 0)
        fprintf(stderr, "vates-ompt: cannot write %s\n", path);
}

/* A JSON string literal of s. */
static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void read_line(const char *path, const char *prefix, char *out, size_t n) {
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (prefix && strncmp(line, prefix, strlen(prefix))) continue;
        char *v = prefix ? strchr(line, ':') : line;
        if (!v) continue;
        if (prefix) v++;
        while (*v == ' ' || *v == '\t') v++;
        v[strcspn(v, "\n")] = '\0';
        snprintf(out, n, "%s", v);
        break;
    }
    fclose(f);
}

static void write_file(const char *path, const char *elapsed_path, uint64_t t_end) {
    if (have_region && last_end >= first_begin) {
        clamp_items(root->done_items.first, root->done_count, first_begin, last_end);
        clamp_items(root->open.first, root->open_count, first_begin, last_end);
    }
    buf b = {0};
    write_task(&b, root);
    /* The dependence list (version 2), by task numbers; only between written tasks. */
    buf deps = {0};
    uint64_t ndeps = 0;
    for (tstate *s = atomic_load(&threads); s; s = s->next_thread)
        for (const dep_edge *e = s->edges; e; e = e->next) {
            if (!e->from->number || !e->to->number || e->from->number >= e->to->number)
                continue;
            u64_(&deps, e->from->number - 1);
            u64_(&deps, e->to->number - 1);
            ndeps++;
        }
    uint32_t version = ndeps ? 2 : 1; /* version 1 when there is nothing to add */
    uint64_t lo = UINT64_MAX, hi = 0;
    first_last(root->done_items.first, root->done_count, &lo, &hi);
    first_last(root->open.first, root->open_count, &lo, &hi);
    if (lo > hi) lo = hi = t_end;
    uint64_t elapsed = to_ns(hi) - to_ns(lo);
    if (elapsed_path) write_elapsed(elapsed_path, (double)elapsed / 1e9);

    char *header = NULL;
    size_t header_len = 0;
    FILE *h = open_memstream(&header, &header_len);
    if (!h) return;
    char program[256], cpu[256], mhz[64];
    read_line("/proc/self/comm", NULL, program, sizeof program);
    read_line("/proc/cpuinfo", "model name", cpu, sizeof cpu);
    read_line("/proc/cpuinfo", "cpu MHz", mhz, sizeof mhz);
    double cpu_mhz = mhz[0] ? strtod(mhz, NULL) : 0.0;
    fprintf(h, "{\"format\":\"vates-taskdag\",\"version\":%u,\"recorder\":\"vates-ompt\",\"program\":",
            version);
    json_string(h, program);
    fprintf(h,
            ",\"parameters\":{},\"workers\":%u,\"clock\":{\"unit\":\"ns\",\"frequency_hz\":1e9},"
            "\"elapsed\":%llu,\"collapse\":false,\"machine\":{\"cpu\":",
            b.max_worker + 1, (unsigned long long)elapsed);
    json_string(h, cpu);
    if (cpu_mhz > 0.0) fprintf(h, ",\"cpu_mhz\":%.3f", cpu_mhz);
    fprintf(h, ",\"caches\":[]}}");
    fclose(h);

    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "vates-ompt: cannot write %s\n", path);
        free(header);
        free(b.p);
        free(deps.p);
        return;
    }
    uint32_t hl = (uint32_t)header_len;
    fwrite("VATESDAG", 1, 8, f);
    fwrite(&version, 4, 1, f);
    fwrite(&hl, 4, 1, f);
    fwrite(header, 1, header_len, f);
    fwrite(b.p, 1, b.len, f);
    if (version >= 2) {
        fwrite(&ndeps, 8, 1, f);
        if (deps.len) fwrite(deps.p, 1, deps.len, f);
    }
    fwrite("END.", 1, 4, f);
    fwrite(&b.nodes, 8, 1, f);
    if (fclose(f) != 0) fprintf(stderr, "vates-ompt: cannot write %s\n", path);
    free(header);
    free(b.p);
    free(deps.p);
}

/* ---- start and finish ------------------------------------------------------------ */

static const char *out_path;
static const char *elapsed_path;

/* Starts the clock and returns the runtime's ompt_set_callback, or NULL. */
static ompt_set_callback_t start(ompt_function_lookup_t lookup) {
    clock_start();
    return (ompt_set_callback_t)lookup("ompt_set_callback");
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data) {
    (void)initial_device_num, (void)tool_data;
    ompt_set_callback_t set = start(lookup);
    if (!set) return 0;
    struct {
        ompt_callbacks_t which;
        ompt_callback_t fn;
    } cbs[] = {
        {ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task},
        {ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin},
        {ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end},
        {ompt_callback_task_create, (ompt_callback_t)on_task_create},
        {ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule},
        {ompt_callback_sync_region, (ompt_callback_t)on_sync_region},
        {ompt_callback_dependences, (ompt_callback_t)on_dependences},
    };
    for (size_t i = 0; i < sizeof cbs / sizeof cbs[0]; i++) {
        ompt_set_result_t r = set(cbs[i].which, cbs[i].fn);
        if (r != ompt_set_always)
            fprintf(stderr, "vates-ompt: callback %d not always dispatched (%d)\n",
                    (int)cbs[i].which, (int)r);
    }
    return 1; /* keep the tool */
}

static void finalize(ompt_data_t *tool_data) {
    (void)tool_data;
    uint64_t at = now();
    clock_end();
    if (!root) {
        fputs("vates-ompt: no initial task was reported; nothing written\n", stderr);
        return;
    }
    if (!root->done) {
        end_strand(root, END_END, at);
        root->done = 1;
    }
    write_file(out_path, elapsed_path, at);
}

/* ---- light mode: the parallel part's elapsed time only ------------------------------ */

static atomic_int light_levels;

static void on_light_begin(ompt_data_t *encountering, const ompt_frame_t *frame,
                           ompt_data_t *parallel_data, unsigned int requested, int flags,
                           const void *codeptr) {
    (void)encountering, (void)frame, (void)parallel_data, (void)requested, (void)flags,
        (void)codeptr;
    uint64_t at = now();
    if (atomic_fetch_add(&light_levels, 1) == 0 && !have_region) {
        have_region = 1;
        first_begin = at;
    }
}

static void on_light_end(ompt_data_t *parallel_data, ompt_data_t *encountering, int flags,
                         const void *codeptr) {
    (void)parallel_data, (void)encountering, (void)flags, (void)codeptr;
    uint64_t at = now();
    if (atomic_fetch_sub(&light_levels, 1) == 1) last_end = at;
}

static int initialize_light(ompt_function_lookup_t lookup, int initial_device_num,
                            ompt_data_t *tool_data) {
    (void)initial_device_num, (void)tool_data;
    ompt_set_callback_t set = start(lookup);
    if (!set) return 0;
    if (set(ompt_callback_parallel_begin, (ompt_callback_t)on_light_begin) != ompt_set_always ||
        set(ompt_callback_parallel_end, (ompt_callback_t)on_light_end) != ompt_set_always) {
        fputs("vates-ompt: parallel_begin/parallel_end not always dispatched\n", stderr);
        return 0;
    }
    return 1;
}

static void finalize_light(ompt_data_t *tool_data) {
    (void)tool_data;
    if (!have_region || last_end < first_begin) {
        fprintf(stderr, "vates-ompt: no parallel region ended; %s not written\n",
                elapsed_path);
        return;
    }
    clock_end();
    write_elapsed(elapsed_path, (double)(to_ns(last_end) - to_ns(first_begin)) / 1e9);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
    (void)omp_version, (void)runtime_version;
    out_path = getenv("VATES_TASKREC");
    elapsed_path = getenv("VATES_TASKREC_ELAPSED");
    if (elapsed_path && !*elapsed_path) elapsed_path = NULL;
    if (out_path && *out_path) {
        static ompt_start_tool_result_t result = {initialize, finalize, {0}};
        return &result;
    }
    if (elapsed_path) {
        static ompt_start_tool_result_t light = {initialize_light, finalize_light, {0}};
        return &light;
    }
    return NULL;
}
