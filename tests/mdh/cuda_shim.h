/* cuda_shim.h - the CUDA names a generated MDH kernel uses (--target
 * nvrtc), so that the host's C++ compiler checks the kernel's code with
 * its warnings (-Wshadow: tests/mdh/run.sh), which nvcc does not give for
 * device code.  Types and intrinsics only; nothing here runs. */
#include <cmath>
#define __global__
#define __shared__ static
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __device__
struct float4 {
	float x, y, z, w;
};
static inline float4 make_float4(float a, float b, float c, float d)
{
	return float4{a, b, c, d};
}
static inline void __stcs(float *p, float v) { *p = v; }
static inline void __stcs(float4 *p, float4 v) { *p = v; }
static inline void __syncthreads(void) {}
struct int4 {
	int x, y, z, w;
};
struct mdh_shim_dim3 {
	unsigned x, y, z;
};
static const mdh_shim_dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0},
			   blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
static inline float __int_as_float(int i)
{
	float f;
	__builtin_memcpy(&f, &i, sizeof f);
	return f;
}
/* a warp shuffle (B_red = 2): one lane's view, its own value */
template <class T> static inline T __shfl_xor_sync(unsigned, T v, int)
{
	return v;
}
