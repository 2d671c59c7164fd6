/* refs.cuh - the hand-written CUDA references of the Lift GPU study
 * (bench/lift/README.md): straightforward kernels with the usual tiling
 * (shared-memory tiles, a warp per row, vector loads), each computing
 * exactly what the Lift program of the same name computes. */
#ifndef LIFT_REFS_CUH
#define LIFT_REFS_CUH

/* dot: the partial sums of chunks of 4 (examples/lift/dot.lift), one
 * float4 of each input a thread. */
__global__ void ref_dot(const float4 *x, const float4 *y, float *out, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n4) {
		float4 a = x[i], b = y[i];
		out[i] = ((a.x * b.x + a.y * b.y) + a.z * b.z) + a.w * b.w;
	}
}

/* gemv: a warp per row, float4 loads, a shuffle reduction. */
__global__ void ref_gemv(const float *A, const float *x, float *y, int M, int K)
{
	int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
	int lane = threadIdx.x % 32;
	if (row >= M)
		return;
	const float4 *a = (const float4 *)(A + (size_t)row * K);
	const float4 *v = (const float4 *)x;
	float s = 0.0f;
	for (int k = lane; k < K / 4; k += 32) {
		float4 p = a[k], q = v[k];
		s += p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w;
	}
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_down_sync(0xffffffffu, s, o);
	if (lane == 0)
		y[row] = s;
}

/* matmul: 32 x 32 tiles of A and B in shared memory, blocks of 32 x 8
 * threads, each thread 4 rows of the tile. */
__global__ void ref_matmul(const float *A, const float *B, float *C, int M,
			   int N, int K)
{
	__shared__ float a[32][33], b[32][33];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * 32, col = blockIdx.x * 32 + tx;
	float acc[4] = {0, 0, 0, 0};
	for (int k0 = 0; k0 < K; k0 += 32) {
		for (int r = ty; r < 32; r += 8) {
			a[r][tx] = A[(size_t)(row + r) * K + k0 + tx];
			b[r][tx] = B[(size_t)(k0 + r) * N + col];
		}
		__syncthreads();
		for (int k = 0; k < 32; k++) {
			float bv = b[k][tx];
			for (int q = 0; q < 4; q++)
				acc[q] += a[ty + 8 * q][k] * bv;
		}
		__syncthreads();
	}
	for (int q = 0; q < 4; q++)
		C[(size_t)(row + ty + 8 * q) * N + col] = acc[q];
	(void)M;
}

/* nbody: bodies staged in shared memory 256 at a time, a thread a body;
 * the same softened formula as examples/lift/nbody.lift. */
__global__ void ref_nbody(const float *x, const float *y, const float *z,
			  const float *m, float *out, int N)
{
	__shared__ float4 tile[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float xi = i < N ? x[i] : 0, yi = i < N ? y[i] : 0, zi = i < N ? z[i] : 0;
	float ax = 0, ay = 0, az = 0;
	for (int j0 = 0; j0 < N; j0 += 256) {
		int j = j0 + threadIdx.x;
		tile[threadIdx.x] = j < N ? make_float4(x[j], y[j], z[j], m[j])
					  : make_float4(0, 0, 0, 0);
		__syncthreads();
		int n = N - j0 < 256 ? N - j0 : 256;
		for (int k = 0; k < n; k++) {
			float4 b = tile[k];
			float dx = b.x - xi, dy = b.y - yi, dz = b.z - zi;
			float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
			float w = b.w / (r2 * sqrtf(r2));
			ax += w * dx;
			ay += w * dy;
			az += w * dz;
		}
		__syncthreads();
	}
	if (i < N) {
		out[3 * i] = ax;
		out[3 * i + 1] = ay;
		out[3 * i + 2] = az;
	}
}

/* kmeans: the cluster centres in shared memory, a thread a point; the
 * first of equally near clusters, as a float (examples/lift/kmeans.lift). */
__global__ void ref_kmeans(const float *P, const float *C, float *out, int N,
			   int K, int F)
{
	extern __shared__ float c[];
	for (int t = threadIdx.x; t < K * F; t += blockDim.x)
		c[t] = C[t];
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= N)
		return;
	float best = 3.4e38f;
	int arg = 0;
	for (int k = 0; k < K; k++) {
		float d = 0;
		for (int f = 0; f < F; f++) {
			float e = P[(size_t)i * F + f] - c[k * F + f];
			d += e * e;
		}
		if (d < best) {
			best = d;
			arg = k;
		}
	}
	out[i] = (float)arg;
}

/* nn: a thread a record. */
__global__ void ref_nn(const float *lat, const float *lng, float tlat,
		       float tlng, float *out, int N)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N)
		out[i] = sqrtf((lat[i] - tlat) * (lat[i] - tlat) +
			       (lng[i] - tlng) * (lng[i] - tlng));
}

/* 2-D stencils of radius R on a 32 x 8 tile with its halo in shared
 * memory: CLAMP reads clamp to the edge (stencil2d.lift, the Jacobi 2-D
 * of the study), else zero outside (conv2d.lift). */
template <int R, int CLAMP>
__global__ void ref_stencil2d(const float *A, const float *w, float *out,
			      int M, int N)
{
	const int D = 2 * R + 1;
	__shared__ float t[8 + 2 * R][32 + 2 * R];
	__shared__ float ws[D * D];
	int x0 = blockIdx.x * 32, y0 = blockIdx.y * 8;
	for (int k = threadIdx.y * 32 + threadIdx.x; k < D * D; k += 256)
		ws[k] = w[k];
	for (int yy = threadIdx.y; yy < 8 + 2 * R; yy += 8)
		for (int xx = threadIdx.x; xx < 32 + 2 * R; xx += 32) {
			int y = y0 + yy - R, x = x0 + xx - R;
			int in = y >= 0 && y < M && x >= 0 && x < N;
			int cy = y < 0 ? 0 : y >= M ? M - 1 : y;
			int cx = x < 0 ? 0 : x >= N ? N - 1 : x;
			t[yy][xx] = CLAMP || in ? A[(size_t)cy * N + cx] : 0.0f;
		}
	__syncthreads();
	int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
	if (x >= N || y >= M)
		return;
	float s = 0.0f;
	for (int a = 0; a < D; a++)
		for (int b = 0; b < D; b++)
			s += t[threadIdx.y + a][threadIdx.x + b] * ws[a * D + b];
	out[(size_t)y * N + x] = s;
}

/* Jacobi 3-D: a thread an (x, y) column marching along z, the planes
 * below and above in registers, the in-plane neighbours read through the
 * cache; clamped at the borders, the 7 points weighted by w as the Lift
 * program's 27 (its zeros skipped), in its order. */
__global__ void ref_jacobi3d(const float *A, const float *w, float *out, int L,
			     int M, int N)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= N || y >= M)
		return;
	int xm = x > 0 ? x - 1 : 0, xp = x < N - 1 ? x + 1 : N - 1;
	int ym = y > 0 ? y - 1 : 0, yp = y < M - 1 ? y + 1 : M - 1;
	size_t P = (size_t)M * N;
	float w4 = w[4], w10 = w[10], w12 = w[12], w13 = w[13], w14 = w[14],
	      w16 = w[16], w22 = w[22];
	float below = A[(size_t)y * N + x], here = below;
	for (int z = 0; z < L; z++) {
		size_t o = (size_t)z * P;
		float above = A[(z < L - 1 ? o + P : o) + (size_t)y * N + x];
		float s = 0.0f;
		s += w4 * below;
		s += w10 * A[o + (size_t)ym * N + x];
		s += w12 * A[o + (size_t)y * N + xm];
		s += w13 * here;
		s += w14 * A[o + (size_t)y * N + xp];
		s += w16 * A[o + (size_t)yp * N + x];
		s += w22 * above;
		out[o + (size_t)y * N + x] = s;
		below = here;
		here = above;
	}
}

/* md: a thread an atom, its position in registers, its K neighbours
 * (the list nbh[i][k] of examples/lift/md.lift) read through the cache;
 * the same Lennard-Jones formula, neighbours beyond the cutoff skipped. */
__global__ void ref_md(const float *x, const float *y, const float *z,
		       const int *nbh, float cutsq, float lj1, float lj2,
		       float *out, int N, int K)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= N)
		return;
	float xi = x[i], yi = y[i], zi = z[i];
	float fx = 0.0f, fy = 0.0f, fz = 0.0f;
	for (int k = 0; k < K; k++) {
		int j = nbh[(size_t)i * K + k];
		float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
		float r2 = dx * dx + dy * dy + dz * dz;
		if (r2 < cutsq) {
			/* the Lift program's association, component by
			 * component (the terms cancel: any other rounds
			 * differently by up to 1e-3 of the sum) */
			float r2inv = 1.0f / r2, r6inv = r2inv * r2inv * r2inv;
			fx += dx * r2inv * r6inv * (lj1 * r6inv - lj2);
			fy += dy * r2inv * r6inv * (lj1 * r6inv - lj2);
			fz += dz * r2inv * r6inv * (lj1 * r6inv - lj2);
		}
	}
	out[3 * i] = fx;
	out[3 * i + 1] = fy;
	out[3 * i + 2] = fz;
}

/* The copy that bounds the stencils: one float in, one out a thread. */
__global__ void ref_copy(const float4 *in, float4 *out, size_t n4)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n4)
		out[i] = in[i];
}

#endif
