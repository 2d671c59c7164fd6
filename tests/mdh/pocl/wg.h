/* wg.h - OpenCL C kernels of lego mdh compiled as C11 and run with one
 * POSIX thread per work-item, one work-group at a time (threads.c).
 * The work-items of a group take turns between barriers, in the order
 * of their ids or the reverse, so that a missing barrier shows in one
 * order or the other as a deterministic wrong result, not as a race
 * that real threads may hide.  Each barrier checks what OpenCL requires
 * and real threads forgive: every work-item of the group reaches it, the
 * same barrier (its line) each time, none having returned.  __local
 * arrays become static: shared by the group's threads, bounds-checked
 * under -fsanitize=address. */
#ifndef WG_H
#define WG_H
#include <pthread.h>
#include <stddef.h>

typedef struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int n, groups, reverse, turn, arrived, exited, line, gen, bad;
} wg_group;

typedef struct {
	wg_group *grp;
	int group, lid;
} wg_item;

/* The work-item each thread runs: the kernel's built-ins read it. */
static _Thread_local wg_item wg_self;

/* Whether the calling work-item may run: its turn, or any once the
 * group is bad (the turns no longer hold, nothing must deadlock). */
static int wg_may_run(const wg_group *g)
{
	const int pos = g->reverse ? g->n - 1 - wg_self.lid : wg_self.lid;
	return g->bad || pos == g->turn;
}

/* Waits (the mutex held) for the calling work-item's first turn. */
static void wg_start(wg_group *g)
{
	pthread_mutex_lock(&g->mu);
	while (!wg_may_run(g))
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

/* The calling work-item is done for this phase: the next takes its
 * turn, or, all having arrived or returned, the next phase begins. */
static void wg_pass(wg_group *g)
{
	g->turn++;
	if (g->arrived > 0 && g->arrived + g->exited == g->n) {
		g->arrived = 0;
		g->turn = 0;
		g->gen++;
	}
	pthread_cond_broadcast(&g->cv);
}

/* A barrier at LINE: marks the group bad when another work-item waits
 * at a different barrier or has returned (the barrier is not reached
 * by all: undefined in OpenCL). */
static void wg_barrier(int line)
{
	wg_group *g = wg_self.grp;
	pthread_mutex_lock(&g->mu);
	if (g->arrived == 0)
		g->line = line;
	else if (g->line != line)
		g->bad = 1;
	if (g->exited > 0)
		g->bad = 1;
	g->arrived++;
	const int gen = g->gen;
	wg_pass(g);
	while (gen == g->gen || !wg_may_run(g))
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

static void wg_exit(void)
{
	wg_group *g = wg_self.grp;
	pthread_mutex_lock(&g->mu);
	g->exited++;
	if (g->arrived > 0)
		g->bad = 1;
	wg_pass(g);
	pthread_mutex_unlock(&g->mu);
}

typedef struct {
	float x, y, z, w;
} float4;

static inline float4 vload4(size_t o, const float *p)
{
	const float4 f = { p[4 * o], p[4 * o + 1], p[4 * o + 2], p[4 * o + 3] };
	return f;
}

static inline size_t get_group_id(int d)
{
	return d == 0 ? (size_t)wg_self.group : 0;
}

static inline size_t get_local_id(int d)
{
	return d == 0 ? (size_t)wg_self.lid : 0;
}

static inline size_t get_global_id(int d)
{
	return d == 0 ? (size_t)(wg_self.group * wg_self.grp->n + wg_self.lid) : 0;
}

static inline size_t get_global_size(int d)
{
	return d == 0 ? (size_t)(wg_self.grp->groups * wg_self.grp->n) : 1;
}

#define __kernel
#define __global
#define __local static
#define reqd_work_group_size(x, y, z) unused
#define CLK_LOCAL_MEM_FENCE 1
#define barrier(f) wg_barrier(__LINE__)
#endif
