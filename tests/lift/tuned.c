/* tuned.c - the kernel `lego tune` chose for tests/lift/saxpy.lift (from
 * `lego gen --tuned`: its sizes are macros) compiled as C and run as one
 * work-item (c_shim.h) against out = 2.5 x + y computed here.  Built with
 * -DTUNED="<the kernel>"; exit 0 when equal. */
#include <math.h>

#include "c_shim.h"
#include TUNED

int main(void)
{
	static float x[N], y[N], out[N];
	for (int i = 0; i < N; i++) {
		x[i] = (float)(i % 7) - 3.0f;
		y[i] = (float)(i % 5);
		out[i] = NAN;
	}
	saxpy(x, y, out);
	for (int i = 0; i < N; i++)
		CHECK(out[i] == 2.5f * x[i] + y[i], "out[%d] = %g, want %g", i,
		      out[i], 2.5f * x[i] + y[i]);
	return failures != 0;
}
