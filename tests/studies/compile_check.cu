// Compile check (tests/studies/run.sh): every generated kernel header of
// bench/stencil and bench/lud, instantiated at small sizes.  Nothing runs.
namespace b111 {
#include "b111.cuh"
}
namespace b888 {
#include "b888.cuh"
}
namespace b444 {
#include "b444.cuh"
}
namespace b884 {
#include "b884.cuh"
}
namespace b1644 {
#include "b1644.cuh"
}
namespace b4416 {
#include "b4416.cuh"
}
namespace b161616 {
#include "b161616.cuh"
}
namespace r2 {
#include "lud_r2.cuh"
}
namespace r4 {
#include "lud_r4.cuh"
}
namespace r8 {
#include "lud_r8.cuh"
}
namespace r16 {
#include "lud_r16.cuh"
}
namespace r4_nopad {
#include "lud_r4_nopad.cuh"
}
namespace r4_swz {
#include "lud_r4_swz.cuh"
}
namespace r8_swz {
#include "lud_r8_swz.cuh"
}

typedef void stencil_fn(const float *, float *);
#define BOTH(ns) ns::direct<32, 1, true>, ns::direct<32, 2, false>, ns::tiled<32, 1, true>, \
	ns::tiled<32, 2, false>, ns::ghost<32, 1, true>, ns::ghost<32, 2, false>
stencil_fn *stencils[] = {BOTH(b111),  BOTH(b888),  BOTH(b444),   BOTH(b884),
			  BOTH(b1644), BOTH(b4416), BOTH(b161616)};
typedef void fill_fn(float *);
fill_fn *fills[] = {b888::fill<32, 1>, b888::fill<32, 4>, b161616::fill<32, 2>};
typedef void lud_fn(float *, int, int);
lud_fn *luds[] = {
	r2::diagonal, r2::perimeter, r2::internal, r4::internal, r8::internal, r16::internal,
	r4_nopad::diagonal, r4_nopad::perimeter, r4_nopad::internal,
	r4_swz::diagonal, r4_swz::perimeter, r4_swz::internal, r8_swz::internal,
};
