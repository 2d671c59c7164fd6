{% lego %}
# The CUDA transpose of examples/cuda/transpose.cu.tpl (out = in^T, in
# M x N row-major) with its launch and shared tile tunable, for the
# in-process CUDA runner (bench/tune/cuda/run.sh): blocks of 32 x ROWS
# threads move a 32 x 32 tile through shared memory stored as S: row-
# major (bank conflicts on the column reads), padded to 33 columns, or
# XOR-swizzled.  The committed choice is ROWS = 8 with the swizzle.
sym M, N
tune ROWS in {1, 2, 4, 8, 16, 32}
tune layout S in {Row(32, 32), Row(32, 33), GenP([32, 32], swizzle(5, 0, 5))}
index i in [0, M)
index j in [0, N)
index r in [0, 32)
index c in [0, 32)
layout In = Row(M, N)
layout Out = Row(N, M)
{% end %}
extern "C" __global__ void transpose(const float *__restrict__ in,
				     float *__restrict__ out)
{
	__shared__ float tile[32 * 33];
	const int c = threadIdx.x;
	for (int k = 0; k < 32; k += {{ ROWS }}) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + r;
		const int j = blockIdx.x * 32 + c;
		tile[{{ S[r, c] }}] = in[{{ In[i, j] }}];
	}
	__syncthreads();
	for (int k = 0; k < 32; k += {{ ROWS }}) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + c;
		const int j = blockIdx.x * 32 + r;
		out[{{ Out[j, i] }}] = tile[{{ S[c, r] }}];
	}
}
