// The reference of nw.cu.tpl: the textbook recurrence over the whole
// (N+1) x (N+1) score matrix in global memory (mat), one block sweeping
// its anti-diagonals, penalty 10, lo = each score mod 256.  No tiles,
// no flags, no shared buffer: nothing in common with the candidates but
// the recurrence.  N comes as a macro (-DN=...).
#define P 10

extern "C" __global__ void nw(const float *ref, float *mat, float *flags,
			      float *lo)
{
	const long n1 = N + 1;
	for (long k = threadIdx.x; k < n1; k += blockDim.x) {
		mat[k] = (float)(-k * P);
		mat[k * n1] = (float)(-k * P);
		lo[k] = (float)((int)(-k * P) & 255);
		lo[k * n1] = (float)((int)(-k * P) & 255);
	}
	__syncthreads();
	for (long d = 2; d <= 2 * (long)N; d++) {
		const long first = d - N > 1 ? d - N : 1;
		const long last = d - 1 < N ? d - 1 : N;
		for (long i = first + threadIdx.x; i <= last; i += blockDim.x) {
			const long j = d - i;
			int s = (int)mat[(i - 1) * n1 + j - 1] + (int)ref[i * n1 + j];
			const int w = (int)mat[i * n1 + j - 1] - P;
			const int u = (int)mat[(i - 1) * n1 + j] - P;
			s = s > w ? s : w;
			s = s > u ? s : u;
			mat[i * n1 + j] = (float)s;
			lo[i * n1 + j] = (float)(s & 255);
		}
		__syncthreads();
	}
}
