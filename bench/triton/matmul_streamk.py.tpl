# Stream-K matrix multiply for the tuner's combined template (bench/tune/
# choice.sh, KERNEL 5 of bench/tune/choice.lego), in one launch of a
# persistent grid of G <= SMS * OCC programs.  The K iterations of all tiles of
# C, tile by tile in P's order (the tutorial's grouping as a layout) and
# k within a tile, are cut into G equal runs, one a program: where the
# tiles leave the last wave partly idle, every SM works to the end.  A
# tile wholly inside a run is written to C; a tile shared by runs has each
# part summed in FP32 into its program's slot of WS (slot 0 for the run's
# first tile, 1 for its last) and counted in the tile's counter; the last
# part to arrive adds the others and writes the tile, and sets the counter
# back to 0 for the next call.  Every index comes from the layouts A, B, C,
# P and WS of the spec; the pointer form where the tiles divide the sizes
# (no masks), the masked form where each mask is needed.
import triton
import triton.language as tl


@triton.jit
def streamk_first_tile(g, G, T, KT):
    """The tile where program g's run of the T = tiles * KT iterations,
    [g * T // G, (g + 1) * T // G), starts."""
    return g * T // G // KT


@triton.jit
def streamk_share(t, g, G, T, KT):
    """Program g's part of tile t: its k range, whether that is the whole
    tile, its slot in WS, and the programs sharing the tile, [g_lo, g_hi]
    (those whose run meets the tile's iterations [t * KT, (t + 1) * KT))."""
    k0 = tl.maximum(g * T // G - t * KT, 0)
    k1 = tl.minimum((g + 1) * T // G - t * KT, KT)
    slot = tl.minimum(t - streamk_first_tile(g, G, T, KT), 1)
    g_lo = tl.cdiv((t * KT + 1) * G, T) - 1
    g_hi = tl.cdiv((t + 1) * KT * G, T) - 1
    return k0, k1, (k0 == 0) & (k1 == KT), slot, g_lo, g_hi


@triton.jit
def matmul_streamk_kernel(a_ptr, b_ptr, c_ptr, ws_ptr, count_ptr, M, N, K, G,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                          GM: tl.constexpr):
    g = tl.program_id(axis=0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    KT = K // BK
    T = npm * npn * KT
    for t in range(streamk_first_tile(g, G, T, KT),
                   ((g + 1) * T // G - 1) // KT + 1):
        pid_m, pid_n = {{ P.inv(t)[0] }}, {{ P.inv(t)[1] }}
        k0, k1, whole, slot, g_lo, g_hi = streamk_share(t, g, G, T, KT)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(k0, k1):
            a = tl.load(a_ptr + {{ A[pid_m, k, :, :] }})
            b = tl.load(b_ptr + {{ B[k, pid_n, :, :] }})
            acc = tl.dot(a, b, acc)
        if whole:
            tl.store(c_ptr + {{ C[pid_m, pid_n, :, :] }}, acc.to(c_ptr.dtype.element_ty))
        else:
            tl.store(ws_ptr + {{ WS[g, slot, :, :] }}, acc)
            if splitk_last(count_ptr, t, g_hi - g_lo + 1):
                for q in range(g_lo, g_hi + 1):
                    if q != g:
                        qs = tl.minimum(t - streamk_first_tile(q, G, T, KT), 1)
                        acc += tl.load(ws_ptr + {{ WS[q, qs, :, :] }}, cache_modifier=".cg")
                tl.store(c_ptr + {{ C[pid_m, pid_n, :, :] }}, acc.to(c_ptr.dtype.element_ty))
                tl.atomic_xchg(count_ptr + t, 0)


@triton.jit
def matmul_masked_streamk_kernel(a_ptr, b_ptr, c_ptr, ws_ptr, count_ptr,
                                 M, N, K, G,
                                 BM: tl.constexpr, BN: tl.constexpr,
                                 BK: tl.constexpr, GM: tl.constexpr):
    g = tl.program_id(axis=0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    KT = tl.cdiv(K, BK)
    T = npm * npn * KT
    for t in range(streamk_first_tile(g, G, T, KT),
                   ((g + 1) * T // G - 1) // KT + 1):
        pid_m, pid_n = {{ P.inv(t)[0] }}, {{ P.inv(t)[1] }}
        k0, k1, whole, slot, g_lo, g_hi = streamk_share(t, g, G, T, KT)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(k0, k1):
            a = tl.load(a_ptr + {{ A[pid_m, k, :, :] }}, mask={{ mask(A[pid_m, k, :, :]) }}, other=0.0)
            b = tl.load(b_ptr + {{ B[k, pid_n, :, :] }}, mask={{ mask(B[k, pid_n, :, :]) }}, other=0.0)
            acc = tl.dot(a, b, acc)
        if whole:
            tl.store(c_ptr + {{ C[pid_m, pid_n, :, :] }}, acc.to(c_ptr.dtype.element_ty), mask={{ mask(C[pid_m, pid_n, :, :]) }})
        else:
            tl.store(ws_ptr + {{ WS[g, slot, :, :] }}, acc)
            if splitk_last(count_ptr, t, g_hi - g_lo + 1):
                for q in range(g_lo, g_hi + 1):
                    if q != g:
                        qs = tl.minimum(t - streamk_first_tile(q, G, T, KT), 1)
                        acc += tl.load(ws_ptr + {{ WS[q, qs, :, :] }}, cache_modifier=".cg")
                tl.store(c_ptr + {{ C[pid_m, pid_n, :, :] }}, acc.to(c_ptr.dtype.element_ty), mask={{ mask(C[pid_m, pid_n, :, :]) }})
                tl.atomic_xchg(count_ptr + t, 0)
