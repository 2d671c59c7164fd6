// nw_cpu.cc - the NW study's kernels (bench/tune/nw/nw.cu.tpl) run on
// the CPU: nw_cpu.sh generates every configuration of the space into
// nw_kernels.h (each in a namespace, CUDA's words defined below), and
// this harness runs each launch block after block (block x waits only on
// block x - 1, so in order every wait is met at once), a block's B
// threads as threads meeting at a barrier for __syncthreads.  The score
// matrix is computed here independently (the textbook recurrence), and
// lo must equal it mod 256 everywhere, on two launches in a row (the
// second starts from the flags the first left).  Prints one line a
// configuration, "ok" or "WRONG ..."; exits non-zero on any.
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

typedef void kernel_fn(const float *, float *, float *, float *);
struct thread_args {
	kernel_fn *f;
	unsigned tx, bx, grid;
	pthread_barrier_t *bar;
	float *ref, *mat, *flags, *lo;
};

static void *thread_main(void *arg)
{
	const thread_args *a = (const thread_args *)arg;
	threadIdx = {a->tx, 0, 0};
	blockIdx = {a->bx, 0, 0};
	gridDim = {a->grid, 1, 1};
	lego_barrier = a->bar;
	a->f(a->ref, a->mat, a->flags, a->lo);
	return nullptr;
}

/* One launch of N / B blocks of B threads, block after block. */
static void run(kernel_fn *f, unsigned n, unsigned b, std::vector<float> *buf)
{
	for (unsigned bx = 0; bx < n / b; bx++) {
		pthread_barrier_t bar;
		pthread_barrier_init(&bar, nullptr, b);
		std::vector<thread_args> as(b);
		std::vector<pthread_t> ts(b);
		for (unsigned t = 0; t < b; t++) {
			as[t] = {f, t, bx, n / b, &bar, buf[0].data(), buf[1].data(),
				 buf[2].data(), buf[3].data()};
			pthread_create(&ts[t], nullptr, thread_main, &as[t]);
		}
		for (unsigned t = 0; t < b; t++)
			pthread_join(ts[t], nullptr);
		pthread_barrier_destroy(&bar);
	}
}

/* The runner's inputs (src/tune/launch.c tune_fill_input), arg a. */
static void fill(std::vector<float> &v, size_t a)
{
	for (size_t i = 0; i < v.size(); i++)
		v[i] = (float)((i * 5 + a * 3) % 7) - 3;
}

/* Scores mod 256 by the recurrence, penalty 10. */
static std::vector<int> want(const std::vector<float> &ref, long n)
{
	const long c = n + 1;
	std::vector<long> s(c * c);
	std::vector<int> lo(c * c);
	for (long i = 0; i < c; i++)
		for (long j = 0; j < c; j++) {
			long v = i == 0 ? -10 * j : j == 0 ? -10 * i : 0;
			if (i > 0 && j > 0) {
				v = s[(i - 1) * c + j - 1] + (long)ref[i * c + j];
				v = std::max(v, s[i * c + j - 1] - 10);
				v = std::max(v, s[(i - 1) * c + j] - 10);
			}
			s[i * c + j] = v;
			lo[i * c + j] = (int)(v & 255);
		}
	return lo;
}

static int check(const char *name, kernel_fn *f, unsigned n, unsigned b)
{
	const size_t c = n + 1;
	std::vector<float> buf[4] = {std::vector<float>(c * c), std::vector<float>(c * c),
				     std::vector<float>(n), std::vector<float>(c * c)};
	for (size_t a = 0; a < 3; a++)
		fill(buf[a], a);
	const std::vector<int> w = want(buf[0], n);
	for (int launch = 1; launch <= 2; launch++) {
		for (float &v : buf[3])
			v = NAN;
		run(f, n, b, buf);
		for (size_t i = 0; i < c * c; i++)
			if (!(buf[3][i] == (float)w[i])) {
				printf("%s N=%u: WRONG launch %d lo[%zu] = %g, want %d\n", name,
				       n, launch, i, buf[3][i], w[i]);
				return 1;
			}
		for (unsigned k = 0; k < n / b; k++)
			if (buf[2][k] != 0) {
				printf("%s N=%u: WRONG flag %u left %g\n", name, n, k, buf[2][k]);
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
