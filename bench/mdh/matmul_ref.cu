// matmul_ref.cu - the reference of bench/mdh/tune-nvrtc.sh for lego tune
// --runner cuda: C = A B row-major, one thread an output, with the
// candidates' arguments (the scratch buffer unused).
extern "C" __global__ void matmul(const float *A, const float *B, float *C,
				  float *S, int M, int N, int K)
{
	const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
	(void)S;
	if (e >= (long)M * N)
		return;
	const long i = e / N, j = e % N;
	float s = 0.0f;
	for (int k = 0; k < K; k++)
		s += A[i * K + k] * B[(long)k * N + j];
	C[e] = s;
}
