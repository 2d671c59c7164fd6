// smem.cu - one warp moves a tile through shared memory, one kernel per
// (layout, access), so that ncu's shared-memory wavefront counters of each
// kernel are one access's (bench/synth/gpu/run.sh).  The accesses are
// written the way kernels write them, from the hardware's definitions,
// not from liblego's TV layouts: a layout enters only as its table of
// element offsets, read from global memory.
//
// usage: smem MANIFEST  (lines: ID TABLE ROWS COLS LOGICAL_COLS ELEM_BYTES KIND)
//   KIND: st16 st8 st4 (a flat vector copy into the tile), ldm4 ldm1
//   (ldmatrix over 16x16 / 8x8 blocks), col4 (a warp reading a column of
//   4-byte elements, 32 rows at a time)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static __device__ unsigned smem_addr(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__global__ void k_store(const int *off, int n, int eb, int vb, int *sink)
{
	extern __shared__ __align__(16) unsigned char sm[];
	unsigned base = smem_addr(sm);
	int lane = threadIdx.x, per = vb / eb;
	for (int first = 0; first < n; first += 32 * per) {
		int e = first + lane * per;
		if (e >= n)
			continue;
		unsigned a = base + off[e] * eb;
		if (vb == 16)
			asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};"
				     :: "r"(a), "r"(lane) : "memory");
		else if (vb == 8)
			asm volatile("st.shared.v2.u32 [%0], {%1, %1};"
				     :: "r"(a), "r"(lane) : "memory");
		else
			asm volatile("st.shared.u32 [%0], %1;"
				     :: "r"(a), "r"(lane) : "memory");
	}
	sink[lane] = lane;
}

__global__ void k_ldmatrix(const int *off, int rows, int cols, int x,
			   int *sink)
{
	extern __shared__ __align__(16) unsigned char sm[];
	unsigned base = smem_addr(sm), acc = 0;
	int lane = threadIdx.x, j = lane / 8, r = lane % 8;
	int fr = x == 4 ? 16 : 8, fc = x == 4 ? 16 : 8;
	for (int pr = 0; pr < rows; pr += fr)
		for (int pc = 0; pc < cols; pc += fc) {
			// lane 8j + r: row r of matrix j; the x4's matrices
			// 0 1 down the left half, 2 3 down the right
			int rr = x == 4 ? pr + 8 * (j % 2) + r : pr + r;
			int cc = x == 4 ? pc + 8 * (j / 2) : pc;
			unsigned a = base + off[rr * cols + cc] * 2, d0, d1, d2,
				 d3;
			if (x == 4) {
				asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
					     "{%0, %1, %2, %3}, [%4];"
					     : "=r"(d0), "=r"(d1), "=r"(d2),
					       "=r"(d3) : "r"(a) : "memory");
				acc += d0 ^ d1 ^ d2 ^ d3;
			} else {
				asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 "
					     "{%0}, [%1];" : "=r"(d0) : "r"(a)
					     : "memory");
				acc += d0;
			}
		}
	sink[lane] = acc;
}

__global__ void k_column(const int *off, int rows, int cols, int *sink)
{
	extern __shared__ __align__(16) unsigned char sm[];
	unsigned base = smem_addr(sm), acc = 0, v;
	int lane = threadIdx.x;
	for (int pr = 0; pr < rows; pr += 32)
		for (int c = 0; c < cols; c++) {
			int r = pr + lane;
			if (r >= rows)
				continue;
			asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v)
				     : "r"(base + off[r * cols + c] * 4)
				     : "memory");
			acc += v;
		}
	sink[lane] = acc;
}

static std::vector<int> read_table(const char *path, int rows, int cols,
				   int lcols, int *size)
{
	FILE *f = fopen(path, "r");
	std::vector<int> all, out;
	long long v;
	while (f && fscanf(f, "%lld", &v) == 1)
		all.push_back((int)v);
	if (f)
		fclose(f);
	*size = (int)all.size();
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			out.push_back(all.at(r * lcols + c));
	return out;
}

int main(int argc, char **argv)
{
	FILE *m = argc > 1 ? fopen(argv[1], "r") : NULL;
	char id[64], table[256], kind[16];
	int rows, cols, lcols, eb, *sink;
	if (!m) {
		fprintf(stderr, "usage: smem MANIFEST\n");
		return 2;
	}
	cudaMalloc(&sink, 32 * sizeof(int));
	while (fscanf(m, "%63s %255s %d %d %d %d %15s", id, table, &rows, &cols,
		      &lcols, &eb, kind) == 7) {
		int size;
		std::vector<int> off = read_table(table, rows, cols, lcols,
						  &size);
		int *doff;
		cudaMalloc(&doff, off.size() * sizeof(int));
		cudaMemcpy(doff, off.data(), off.size() * sizeof(int),
			   cudaMemcpyHostToDevice);
		size_t bytes = (size_t)size * eb;
		cudaFuncSetAttribute(k_store,
			cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
		if (!strncmp(kind, "st", 2))
			k_store<<<1, 32, bytes>>>(doff, rows * cols, eb,
						  atoi(kind + 2), sink);
		else if (!strncmp(kind, "ldm", 3))
			k_ldmatrix<<<1, 32, bytes>>>(doff, rows, cols,
						     atoi(kind + 3), sink);
		else
			k_column<<<1, 32, bytes>>>(doff, rows, cols, sink);
		cudaError_t e = cudaDeviceSynchronize();
		printf("%s %s %s\n", id, kind, e == cudaSuccess ? "ok"
				     : cudaGetErrorString(e));
		cudaFree(doff);
	}
	return 0;
}
