// ccsdt_ref.cu - the reference of bench/mdh/tune-ccsdt.sh for lego tune
// --runner cuda: sd_t_d1_1 (examples/mdh/ccsdt.mdh) written plainly, one
// thread an output, with the candidates' arguments (the scratch buffer
// unused):  t3[h3,h2,h1,p6,p5,p4] = -sum over h7 of
// t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7], every buffer row-major.
extern "C" __global__ void sd_t_d1_1(const float *t2, const float *v2,
				     float *t3, float *S, int H3, int H2,
				     int H1, int P6, int P5, int P4, int H7)
{
	long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
	(void)S;
	if (e >= (long)H3 * H2 * H1 * P6 * P5 * P4)
		return;
	const long out = e;
	const int p4 = e % P4; e /= P4;
	const int p5 = e % P5; e /= P5;
	const int p6 = e % P6; e /= P6;
	const int h1 = e % H1; e /= H1;
	const int h2 = e % H2; e /= H2;
	const int h3 = (int)e;
	float s = 0.0f;
	for (int h7 = 0; h7 < H7; h7++)
		s += t2[(((long)h7 * P4 + p4) * P5 + p5) * H1 + h1] *
		     v2[(((long)h3 * H2 + h2) * P6 + p6) * H7 + h7];
	t3[out] = -s;
}
