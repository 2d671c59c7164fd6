// The reference of transpose.cu.tpl: out (N x M) = in^T, one element at
// a time, with the candidates' grid (32 x 32 tiles, blockDim.y rows of
// threads a pass).
extern "C" __global__ void transpose(const float *in, float *out)
{
	for (int k = 0; k < 32; k += blockDim.y) {
		const long i = blockIdx.y * 32 + threadIdx.y + k;
		const long j = blockIdx.x * 32 + threadIdx.x;
		out[j * M + i] = in[i * N + j];
	}
}
