// The reference of nw.cu.tpl: the textbook recurrence over the whole
// (N+1) x (N+1) score matrix in global memory (mat), one block sweeping
// its anti-diagonals, penalty 10, and the same into score (the checked
// output).  No tiles, no flags, no shared buffer: nothing in common with
// the candidates but the recurrence.  N comes as a macro (-DN=...).
#define P 10

extern "C" __global__ void nw(const int *ref, int *mat, float *flags,
			      int *score)
{
	const long n1 = N + 1;
	for (long k = threadIdx.x; k < n1; k += blockDim.x) {
		mat[k] = score[k] = (int)(-k * P);
		mat[k * n1] = score[k * n1] = (int)(-k * P);
	}
	__syncthreads();
	for (long d = 2; d <= 2 * (long)N; d++) {
		const long first = d - N > 1 ? d - N : 1;
		const long last = d - 1 < N ? d - 1 : N;
		for (long i = first + threadIdx.x; i <= last; i += blockDim.x) {
			const long j = d - i;
			int s = mat[(i - 1) * n1 + j - 1] + ref[i * n1 + j];
			const int w = mat[i * n1 + j - 1] - P;
			const int u = mat[(i - 1) * n1 + j] - P;
			s = s > w ? s : w;
			s = s > u ? s : u;
			mat[i * n1 + j] = score[i * n1 + j] = s;
		}
		__syncthreads();
	}
}
