// nw_cpu.cc - the NW study's kernels (bench/tune/nw/nw.cu.tpl) run on
// the CPU: nw_cpu.sh generates every configuration of the space into
// nw_kernels.h (each in a namespace, CUDA's words defined below), and
// this harness runs each launch block after block (block x waits only on
// block x - 1, so in order every wait is met at once), a block's B
// threads as threads meeting at a barrier for __syncthreads.  The score
// matrix is computed here independently (the textbook recurrence), and
// score must equal it exactly everywhere, on two launches in a row (the
// second starts from the flags the first left).  The buffers are those
// of run.sh's --args: int, but the flags float.  Prints one line a
// configuration, "ok" or "WRONG ..."; exits non-zero on any.
#include <climits>
#include <cmath>
#include <cstdio>
#include <pthread.h>
#include <vector>

struct lego_dim3 {
	unsigned x, y, z;
};
static thread_local lego_dim3 threadIdx, blockIdx, gridDim;
static thread_local pthread_barrier_t *lego_barrier;
#define __global__
#define __device__
#define __shared__ static
#define __syncthreads() pthread_barrier_wait(lego_barrier)
#define __threadfence() ((void)0)
template <class T> static T __ldcg(const T *p) { return *p; }

#include "nw_kernels.h"

typedef void kernel_fn(const int *, int *, float *, int *);
/* ref, mat, flags, score */
struct buffers {
	std::vector<int> ref, mat;
	std::vector<float> flags;
	std::vector<int> score;
};
struct thread_args {
	kernel_fn *f;
	unsigned tx, bx, grid;
	pthread_barrier_t *bar;
	buffers *buf;
};

static void *thread_main(void *arg)
{
	const thread_args *a = (const thread_args *)arg;
	threadIdx = {a->tx, 0, 0};
	blockIdx = {a->bx, 0, 0};
	gridDim = {a->grid, 1, 1};
	lego_barrier = a->bar;
	buffers *b = a->buf;
	a->f(b->ref.data(), b->mat.data(), b->flags.data(), b->score.data());
	return nullptr;
}

/* One launch of N / B blocks of B threads, block after block. */
static void run(kernel_fn *f, unsigned n, unsigned b, buffers *buf)
{
	for (unsigned bx = 0; bx < n / b; bx++) {
		pthread_barrier_t bar;
		pthread_barrier_init(&bar, nullptr, b);
		std::vector<thread_args> as(b);
		std::vector<pthread_t> ts(b);
		for (unsigned t = 0; t < b; t++) {
			as[t] = {f, t, bx, n / b, &bar, buf};
			pthread_create(&ts[t], nullptr, thread_main, &as[t]);
		}
		for (unsigned t = 0; t < b; t++)
			pthread_join(ts[t], nullptr);
		pthread_barrier_destroy(&bar);
	}
}

/* The runner's inputs (src/tune/launch.c tune_fill_input), arg a. */
template <class T> static void fill(std::vector<T> &v, size_t a)
{
	for (size_t i = 0; i < v.size(); i++)
		v[i] = (T)((int)((i * 5 + a * 3) % 7) - 3);
}

/* The scores by the recurrence, penalty 10. */
static std::vector<long> want(const std::vector<int> &ref, long n)
{
	const long c = n + 1;
	std::vector<long> s(c * c);
	for (long i = 0; i < c; i++)
		for (long j = 0; j < c; j++) {
			long v = i == 0 ? -10 * j : j == 0 ? -10 * i : 0;
			if (i > 0 && j > 0) {
				v = s[(i - 1) * c + j - 1] + (long)ref[i * c + j];
				v = std::max(v, s[i * c + j - 1] - 10);
				v = std::max(v, s[(i - 1) * c + j] - 10);
			}
			s[i * c + j] = v;
		}
	return s;
}

static int check(const char *name, kernel_fn *f, unsigned n, unsigned b)
{
	const size_t c = n + 1;
	buffers buf = {std::vector<int>(c * c), std::vector<int>(c * c),
		       std::vector<float>(n), std::vector<int>(c * c)};
	fill(buf.ref, 0);
	fill(buf.mat, 1);
	fill(buf.flags, 2);
	const std::vector<long> w = want(buf.ref, n);
	for (int launch = 1; launch <= 2; launch++) {
		for (int &v : buf.score)
			v = INT_MIN; /* the runner's poison */
		run(f, n, b, &buf);
		for (size_t i = 0; i < c * c; i++)
			if (buf.score[i] != w[i]) {
				printf("%s N=%u: WRONG launch %d score[%zu] = %d, want %ld\n",
				       name, n, launch, i, buf.score[i], w[i]);
				return 1;
			}
		for (unsigned k = 0; k < n / b; k++)
			if (buf.flags[k] != 0) {
				printf("%s N=%u: WRONG flag %u left %g\n", name, n, k,
				       buf.flags[k]);
				return 1;
			}
	}
	printf("%s N=%u: ok\n", name, n);
	return 0;
}

int main()
{
	int bad = 0;
#define LEGO_NW_CHECK(name, b) bad |= check(#name, name::nw, 128, b);
	LEGO_NW_KERNELS(LEGO_NW_CHECK)
	return bad;
}
