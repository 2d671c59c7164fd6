// lib.cu - one kernel of `lego mdh --target cuda` as a shared library, so
// that inproc.py can check and time it in the process (and the rounds)
// where it times torch.  Built per variant: nvcc -shared
// -Xcompiler -fPIC -DKERNEL='"k.cu"' -DBENCH_mcc|ccsdt lib.cu -o k.so.
// mdh_lens(s, out) gives the lengths of the two inputs, the output and
// the scratch buffer at sizes s (the program's order); mdh_launch(a, b, y,
// scratch, s) launches the kernel (and the grid kernel) on the default
// stream and returns the cudaError_t.
#include <cstddef>
#include KERNEL

#if defined(BENCH_mcc)
#define NAME mcc
#define IN0 x
#define IN1 f
#define OUT y
#elif defined(BENCH_ccsdt)
#define NAME sd_t_d1_1
#define IN0 t2
#define IN1 v2
#define OUT t3
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define LEN(b) CAT(CAT(NAME, _), CAT(b, _len))
#define SIZES s[0], s[1], s[2], s[3], s[4], s[5], s[6]

extern "C" void mdh_lens(const int *s, size_t *out)
{
	out[0] = LEN(IN0)(SIZES);
	out[1] = LEN(IN1)(SIZES);
	out[2] = LEN(OUT)(SIZES);
	out[3] = CAT(NAME, _scratch_len)(SIZES);
}

extern "C" int mdh_launch(const float *a, const float *b, float *y,
			  float *scr, const int *s)
{
	return (int)CAT(NAME, _launch)(a, b, y, scr, SIZES);
}
