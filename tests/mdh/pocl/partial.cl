/* partial.cl - matvec partial sums, out[i + 3 * gk] = sum over k = gk, gk + 4
 * of M[i][k] * v[k] for a 3 x 5 M: 8 work-groups of 2 (gi = group / 4,
 * gk = group % 4), v[k] staged in local memory by work-item 0 between
 * barriers each round.  Correct OpenCL C (README.md); PoCL 3.1 gets
 * out[3], out[6], out[9] (or i = 2) wrong. */
__kernel void __attribute__((reqd_work_group_size(2, 1, 1)))
partial(__global const float *M, __global const float *v, __global float *out)
{
	__local float st[1];
	const int grp = (int)get_group_id(0), lid = (int)get_local_id(0);
	const int gi = grp / 4, gk = grp % 4;
	float acc = 0.0f;
	for (int t = 0; t < 2; t++) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid == 0 && gk + 4 * t < 5)
			st[0] = v[gk + 4 * t];
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid + 2 * gi < 3 && gk + 4 * t < 5)
			acc += M[gk + 4 * t + 5 * (lid + 2 * gi)] * st[0];
	}
	if (lid + 2 * gi < 3)
		out[lid + 2 * gi + 3 * gk] = acc;
}
