// write.cu - the write ceiling beside the kernels in inproc.py (run 11):
// for n floats, cudaMemsetAsync, and a plain store kernel, one float4 a
// thread, neighbouring threads neighbouring 16-byte pieces (so every
// warp writes whole 128-byte lines in address order), with ordinary or
// streaming (__stcs) stores.  Built with nvcc -shared like lib.cu.
#include <cstddef>
#include <cuda_runtime.h>

__global__ void store4(float4 *y, size_t n4, int streaming)
{
	const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n4)
		return;
	const float4 v = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
	if (streaming)
		__stcs(&y[i], v);
	else
		y[i] = v;
}

extern "C" int mdh_memset(float *y, size_t n)
{
	return (int)cudaMemsetAsync(y, 0, n * sizeof(float));
}

// n a multiple of 4 (the rest is not written)
extern "C" int mdh_store4(float *y, size_t n, int streaming)
{
	const size_t n4 = n / 4;
	store4<<<(unsigned)((n4 + 255) / 256), 256>>>((float4 *)y, n4,
						       streaming);
	return (int)cudaGetLastError();
}
