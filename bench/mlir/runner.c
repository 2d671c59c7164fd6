/* runner.c - runs the kernels that liblego's MLIR modules were lowered to
 * (bench/mlir/build.sh: PTX -> cubin) through the CUDA driver API, side by
 * side with the equivalent CUDA kernels (bench/cuda/transpose_bench.cu,
 * compiled to a cubin by nvcc) and with cuBLAS.  Every kernel's result is
 * checked before it is timed.
 *
 *   runner DIR [matmul]   (DIR: transpose.cubin, matmul.cubin,
 *                          matmul_wgmma.cubin, transpose_cuda.cubin;
 *                          matmul: only the matmuls)
 *
 * Transposes (float, N x N, 32 x 32 tiles, 32 x 8 threads): 4096, 8192,
 * 16384, median of 20 launches, GB/s = (bytes read + written) / time.
 * FP16 matrix multiply C (f32) = A * B (f16), row-major, two MLIR kernels
 * (nvgpu mma.sync + cp.async; nvgpu wgmma + TMA, whose A and B are
 * CUtensorMaps made here): checked in full against the CPU at small sizes, then at 4096 and 8192 against cuBLAS
 * (whole matrix) and the CPU (sampled entries), timed against cuBLAS
 * (cublasGemmEx, f16 in, f32 out and accumulation).  Inputs are multiples
 * of 1/2 in [-1, 1]: every sum is exact in f32, whatever the order, so
 * results must be equal, not close.
 * Exit status 0 only when every result is correct. */
#include <cublas_v2.h>
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 20
#define ROUNDS 3
/* The matmul's dynamic shared memory: 4 stages of 128 x 32 + 32 x 128
 * halves (bench/mlir/matmul.mlir.tpl). */
#define MATMUL_SMEM (4 * 2 * 4096 * 2)
/* The wgmma matmul's: 4 stages of 128 x 64 + 64 x 256 halves, and 2048
 * bytes to align them (bench/mlir/matmul_wgmma.mlir.tpl). */
#define WGMMA_SMEM (4 * 16384 * 3 + 2048)

#define CK(call) check_cu((call), #call, __LINE__)

static void check_cu(CUresult r, const char *what, int line)
{
	if (r == CUDA_SUCCESS)
		return;
	const char *s = "?";
	cuGetErrorString(r, &s);
	fprintf(stderr, "runner.c:%d: %s: %s\n", line, what, s);
	exit(2);
}

/* The descriptor that a memref<?xT> kernel argument lowers to (MLIR's
 * default calling convention): allocated and aligned pointers, offset,
 * size, stride. */
typedef struct {
	CUdeviceptr alloc, aligned;
	int64_t offset, size, stride;
} memref1;

static memref1 memref_of(CUdeviceptr p, int64_t n)
{
	memref1 m = {p, p, 0, n, 1};
	return m;
}

/* Appends the 5 fields of m to the kernel parameter list. */
static int push_memref(void **params, int k, memref1 *m)
{
	params[k++] = &m->alloc;
	params[k++] = &m->aligned;
	params[k++] = &m->offset;
	params[k++] = &m->size;
	params[k++] = &m->stride;
	return k;
}

typedef struct {
	CUfunction f;
	unsigned grid, gridy, block, blocky, shared;
	void **params;
} launch;

static void run_launch(const launch *l)
{
	CK(cuLaunchKernel(l->f, l->grid, l->gridy, 1, l->block, l->blocky, 1,
			  l->shared, 0, l->params, NULL));
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

/* Median time in ms of REPS runs of fn(arg), each between two events. */
static float time_median(void (*fn)(void *), void *arg)
{
	float t[REPS];
	CUevent e0, e1;
	CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
	CK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
	fn(arg); /* warm-up */
	for (int r = 0; r < REPS; r++) {
		CK(cuEventRecord(e0, 0));
		fn(arg);
		CK(cuEventRecord(e1, 0));
		CK(cuEventSynchronize(e1));
		CK(cuEventElapsedTime(&t[r], e0, e1));
	}
	CK(cuEventDestroy(e0));
	CK(cuEventDestroy(e1));
	qsort(t, REPS, sizeof *t, cmp_float);
	return t[REPS / 2];
}

static void launch_fn(void *l)
{
	run_launch(l);
}

static CUfunction get(CUmodule m, const char *name)
{
	CUfunction f;
	CK(cuModuleGetFunction(&f, m, name));
	return f;
}

/* ---- transposes ---- */

typedef struct {
	const char *name;
	CUmodule *mod;
	const char *sym;
	int mlir; /* MLIR calling convention (memref descriptors, index) */
	int copy; /* a copy, not a transpose (bandwidth reference) */
} tkernel;

static int bench_transpose(const tkernel *ks, int nk, int n)
{
	const size_t count = (size_t)n * n, bytes = count * sizeof(float);
	float *hin = malloc(bytes), *hout = malloc(bytes);
	CUdeviceptr din, dout;
	int bad_any = 0;
	if (!hin || !hout)
		exit(2);
	for (size_t x = 0; x < count; x++)
		hin[x] = (float)(x % 16777213);
	CK(cuMemAlloc(&din, bytes));
	CK(cuMemAlloc(&dout, bytes));
	CK(cuMemcpyHtoD(din, hin, bytes));
	printf("transpose %d x %d float (median of %d)\n", n, n, REPS);
	for (int k = 0; k < nk; k++) {
		memref1 min = memref_of(din, (int64_t)count);
		memref1 mout = memref_of(dout, (int64_t)count);
		int64_t M = n, N = n;
		int iM = n, iN = n;
		void *params[12];
		int np = 0;
		if (ks[k].mlir) {
			np = push_memref(params, np, &min);
			np = push_memref(params, np, &mout);
			params[np++] = &M;
			params[np++] = &N;
		} else {
			params[np++] = &din;
			params[np++] = &dout;
			params[np++] = &iM;
			params[np++] = &iN;
		}
		launch l = {get(*ks[k].mod, ks[k].sym), n / 32, n / 32, 32, 8, 0,
			    params};
		CK(cuMemsetD32(dout, 0, count));
		run_launch(&l);
		CK(cuCtxSynchronize());
		CK(cuMemcpyDtoH(hout, dout, bytes));
		size_t bad = 0;
		for (size_t i = 0; i < (size_t)n; i++)
			for (size_t j = 0; j < (size_t)n; j++)
				bad += hout[ks[k].copy ? i * n + j : j * n + i] !=
				       hin[i * n + j];
		float ms = time_median(launch_fn, &l);
		printf("  %-28s %-5s %9.4f ms %8.1f GB/s\n", ks[k].name,
		       bad ? "WRONG" : "ok", ms, 2.0 * bytes / ms / 1e6);
		bad_any |= bad != 0;
	}
	CK(cuMemFree(din));
	CK(cuMemFree(dout));
	free(hin);
	free(hout);
	return bad_any;
}

/* ---- FP16 matrix multiply ---- */

typedef struct {
	cublasHandle_t h;
	int m, n, k;
	CUdeviceptr a, b, c;
} gemm;

/* Row-major C = A B is column-major C^T = B^T A^T. */
static void cublas_fn(void *arg)
{
	gemm *g = arg;
	const float one = 1, zero = 0;
	cublasStatus_t s = cublasGemmEx(
		g->h, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->m, g->k, &one,
		(void *)g->b, CUDA_R_16F, g->n, (void *)g->a, CUDA_R_16F, g->k,
		&zero, (void *)g->c, CUDA_R_32F, g->n, CUBLAS_COMPUTE_32F,
		CUBLAS_GEMM_DEFAULT);
	if (s != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "cublasGemmEx: status %d\n", (int)s);
		exit(2);
	}
}

static uint32_t next(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* One of -1, -1/2, 0, 1/2, 1. */
static float pick(uint64_t *s)
{
	return ((int)(next(s) % 5) - 2) * 0.5f;
}

/* The binary16 encoding of x, a multiple of 1/2 in [-1, 1] (exact). */
static uint16_t to_half(float x)
{
	uint32_t u;
	memcpy(&u, &x, sizeof u);
	if (x == 0)
		return 0;
	return (uint16_t)((u >> 16 & 0x8000) | (((u >> 23 & 0xff) - 112) << 10) |
			  (u >> 13 & 0x3ff));
}

static double dot(const float *a, const float *b, int n, int k, int i, int j)
{
	double s = 0;
	for (int p = 0; p < k; p++)
		s += (double)a[(size_t)i * k + p] * b[(size_t)p * n + j];
	return s;
}

/* An MLIR matmul kernel: its launch shape and the sizes it supports. */
typedef struct {
	const char *name;
	CUfunction f;
	int tma;	   /* A and B passed as TMA descriptors, not memrefs */
	int bm, bn, bk;	   /* C tile, k slice */
	unsigned threads, smem;
} mkernel;

static int supports(const mkernel *kn, int m, int n, int k)
{
	/* M in groups of GM = 8 tile rows (layout P), whole tiles and slices. */
	return m % (8 * kn->bm) == 0 && n % kn->bn == 0 && k % kn->bk == 0;
}

/* A CUtensorMap for a row-major rows x cols f16 matrix at p, boxes of
 * box_rows x 64 (128 bytes, the 128-byte swizzle), copied to global memory
 * (the kernel takes a pointer to it). */
static CUdeviceptr tensor_map(CUdeviceptr p, int rows, int cols, int box_rows)
{
	CUtensorMap tm;
	cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
	cuuint64_t strides[1] = {(cuuint64_t)cols * 2};
	cuuint32_t box[2] = {64, (cuuint32_t)box_rows}, one[2] = {1, 1};
	CK(cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
				  (void *)p, dims, strides, box, one,
				  CU_TENSOR_MAP_INTERLEAVE_NONE,
				  CU_TENSOR_MAP_SWIZZLE_128B,
				  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
				  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
	CUdeviceptr d;
	CK(cuMemAlloc(&d, sizeof tm));
	CK(cuMemcpyHtoD(d, &tm, sizeof tm));
	return d;
}

/* The arguments of one MLIR matmul launch (kept alive while it is timed). */
typedef struct {
	memref1 ma, mb, mc;
	CUdeviceptr ta, tb;
	int64_t M, N, K;
	void *params[18];
	launch l;
} margs;

static void margs_init(margs *a, const mkernel *kn, const gemm *g,
		       CUdeviceptr c)
{
	const size_t sa = (size_t)g->m * g->k, sb = (size_t)g->k * g->n;
	int np = 0;
	a->ma = memref_of(g->a, (int64_t)sa);
	a->mb = memref_of(g->b, (int64_t)sb);
	a->mc = memref_of(c, (int64_t)g->m * g->n);
	a->M = g->m;
	a->N = g->n;
	a->K = g->k;
	a->ta = a->tb = 0;
	if (kn->tma) {
		a->ta = tensor_map(g->a, g->m, g->k, kn->bm);
		a->tb = tensor_map(g->b, g->k, g->n, 64);
		a->params[np++] = &a->ta;
		a->params[np++] = &a->tb;
	} else {
		np = push_memref(a->params, np, &a->ma);
		np = push_memref(a->params, np, &a->mb);
	}
	np = push_memref(a->params, np, &a->mc);
	a->params[np++] = &a->M;
	a->params[np++] = &a->N;
	a->params[np++] = &a->K;
	launch l = {kn->f, (unsigned)(g->m / kn->bm * (g->n / kn->bn)), 1,
		    kn->threads, 1, kn->smem, a->params};
	a->l = l;
}

static void margs_free(margs *a)
{
	if (a->ta)
		CK(cuMemFree(a->ta));
	if (a->tb)
		CK(cuMemFree(a->tb));
}

/* Checks the MLIR matmuls (those that support m x n x k; and cuBLAS, when
 * time_it) at m x n x k: the whole result against the CPU when full, else
 * against cuBLAS (whole) and the CPU (4096 sampled entries); with time_it,
 * times them all, cuBLAS last. */
static int bench_matmul(const mkernel *ks, int nk, cublasHandle_t h, int m,
			int n, int k, int full, int time_it)
{
	const size_t sa = (size_t)m * k, sb = (size_t)k * n, sc = (size_t)m * n;
	float *fa = malloc(sa * 4), *fb = malloc(sb * 4);
	float *c1 = malloc(sc * 4), *c2 = malloc(sc * 4);
	uint16_t *ha = malloc(sa * 2), *hb = malloc(sb * 2);
	uint64_t seed = 12345 + (uint64_t)m * 7 + n * 3 + k;
	int bad_any = 0;
	if (!fa || !fb || !c1 || !c2 || !ha || !hb)
		exit(2);
	for (size_t x = 0; x < sa; x++)
		ha[x] = to_half(fa[x] = pick(&seed));
	for (size_t x = 0; x < sb; x++)
		hb[x] = to_half(fb[x] = pick(&seed));
	gemm g = {h, m, n, k, 0, 0, 0};
	CUdeviceptr c_mlir;
	CK(cuMemAlloc(&g.a, sa * 2));
	CK(cuMemAlloc(&g.b, sb * 2));
	CK(cuMemAlloc(&g.c, sc * 4));
	CK(cuMemAlloc(&c_mlir, sc * 4));
	CK(cuMemcpyHtoD(g.a, ha, sa * 2));
	CK(cuMemcpyHtoD(g.b, hb, sb * 2));
	if (!full) {
		cublas_fn(&g);
		CK(cuCtxSynchronize());
		CK(cuMemcpyDtoH(c2, g.c, sc * 4));
	}
	for (int q = 0; q < nk; q++) {
		if (!supports(&ks[q], m, n, k))
			continue;
		margs a;
		margs_init(&a, &ks[q], &g, c_mlir);
		CK(cuMemsetD32(c_mlir, 0x7fc00000, sc)); /* NaN: unwritten shows */
		run_launch(&a.l);
		CK(cuCtxSynchronize());
		CK(cuMemcpyDtoH(c1, c_mlir, sc * 4));
		size_t bad = 0, bad_cublas = 0;
		uint64_t s2 = seed;
		if (full) {
			for (int i = 0; i < m; i++)
				for (int j = 0; j < n; j++)
					bad += c1[(size_t)i * n + j] !=
					       dot(fa, fb, n, k, i, j);
		} else {
			for (size_t x = 0; x < sc; x++)
				bad += c1[x] != c2[x];
			for (int s = 0; s < 4096; s++) {
				int i = (int)(next(&s2) % (uint32_t)m);
				int j = (int)(next(&s2) % (uint32_t)n);
				double d = dot(fa, fb, n, k, i, j);
				bad += c1[(size_t)i * n + j] != d;
				bad_cublas += c2[(size_t)i * n + j] != d;
			}
		}
		printf("matmul %d x %d x %d: %s %s (%zu wrong)", m, n, k,
		       ks[q].name, bad ? "WRONG" : "ok", bad);
		if (!full)
			printf(", cuBLAS %s vs CPU", bad_cublas ? "WRONG" : "ok");
		printf("\n");
		bad_any |= bad || bad_cublas;
		/* ROUNDS pairs (kernel, then cuBLAS): cuBLAS's time moves
		 * from one measurement to the next by several percent. */
		for (int r = 0; time_it && r < ROUNDS; r++) {
			const double flop = 2.0 * m * n * k;
			float t_mlir = time_median(launch_fn, &a.l);
			float t_cublas = time_median(cublas_fn, &g);
			printf("  %-29s %9.4f ms %6.1f TFLOP/s | cuBLAS %9.4f ms "
			       "%6.1f TFLOP/s | ratio %.3f\n",
			       ks[q].name, t_mlir, flop / t_mlir / 1e9, t_cublas,
			       flop / t_cublas / 1e9, t_cublas / t_mlir);
		}
		margs_free(&a);
	}
	CK(cuMemFree(g.a));
	CK(cuMemFree(g.b));
	CK(cuMemFree(g.c));
	CK(cuMemFree(c_mlir));
	free(fa);
	free(fb);
	free(c1);
	free(c2);
	free(ha);
	free(hb);
	return bad_any;
}

static CUmodule load(const char *dir, const char *file)
{
	char path[4096];
	CUmodule m;
	snprintf(path, sizeof path, "%s/%s", dir, file);
	CK(cuModuleLoad(&m, path));
	return m;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "matmul"))) {
		fprintf(stderr, "usage: runner DIR [matmul]\n");
		return 2;
	}
	CUdevice dev;
	CUcontext ctx;
	char name[256];
	int sms, clock;
	setvbuf(stdout, NULL, _IOLBF, 0); /* a killed run keeps its lines */
	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	/* The primary context: the one cuBLAS (runtime API) uses too. */
	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	CK(cuCtxSetCurrent(ctx));
	CK(cuDeviceGetName(name, sizeof name, dev));
	CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
	CK(cuDeviceGetAttribute(&clock, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev));
	printf("device: %s (%d SMs, %d MHz)\n", name, sms, clock / 1000);

	CUmodule tm = load(argv[1], "transpose.cubin");
	CUmodule tc = load(argv[1], "transpose_cuda.cubin");
	CUmodule mm = load(argv[1], "matmul.cubin");
	const tkernel ks[] = {
		{"copy (CUDA, hand)", &tc, "_Z10copy_plainPKfPfii", 0, 1},
		{"copy via shared (CUDA, hand)", &tc, "_Z11copy_sharedPKfPfii", 0, 1},
		{"naive (CUDA, gen)", &tc, "_Z15transpose_naivePKfPfii", 0, 0},
		{"naive (MLIR, gen)", &tm, "transpose_naive", 1, 0},
		{"shared tile (CUDA, gen)", &tc, "_Z14transpose_tilePKfPfii", 0, 0},
		{"shared tile (MLIR, gen)", &tm, "transpose_tile", 1, 0},
		{"padded tile (CUDA, hand)", &tc, "_Z16transpose_paddedPKfPfii", 0, 0},
		{"xor-swizzled (CUDA, gen)", &tc, "_Z17transpose_swizzlePKfPfii", 0, 0},
		{"xor-swizzled (MLIR, gen)", &tm, "transpose_swizzle", 1, 0},
	};
	int bad = 0;
	const int tsizes[] = {4096, 8192, 16384};
	for (int s = 0; s < 3 && argc == 2; s++)
		bad |= bench_transpose(ks, (int)(sizeof ks / sizeof *ks), tsizes[s]);

	CUmodule mw = load(argv[1], "matmul_wgmma.cubin");
	const mkernel mks[] = {
		{"MLIR (nvgpu mma.sync)", get(mm, "matmul_f16"), 0, 128, 128, 32,
		 128, MATMUL_SMEM},
		{"MLIR (wgmma+TMA, 128x256)", get(mw, "matmul_wgmma"), 1, 128, 256,
		 64, 256, WGMMA_SMEM},
	};
	const int nmk = (int)(sizeof mks / sizeof *mks);
	for (int q = 0; q < nmk; q++)
		CK(cuFuncSetAttribute(mks[q].f,
				      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
				      (int)mks[q].smem));
	cublasHandle_t h;
	if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "cublasCreate failed\n");
		return 2;
	}
	/* Checked in full: one k slice; a few (the pipelines' ends, stages
	 * reused with the other mbarrier phase); many.  Each kernel runs the
	 * sizes it supports. */
	const int small[][3] = {{1024, 128, 32},  {1024, 384, 160},
				{1024, 256, 64},  {1024, 512, 320},
				{2048, 256, 1024}, {3072, 768, 576}};
	for (int s = 0; s < (int)(sizeof small / sizeof *small); s++)
		bad |= bench_matmul(mks, nmk, h, small[s][0], small[s][1],
				    small[s][2], 1, 0);
	bad |= bench_matmul(mks, nmk, h, 4096, 4096, 4096, 0, 1);
	bad |= bench_matmul(mks, nmk, h, 8192, 8192, 8192, 0, 1);
	cublasDestroy(h);
	printf(bad ? "FAILED\n" : "all results correct\n");
	return bad;
}
