// FP16 matrix multiply on Hopper's tensor cores as one MLIR module:
// C (f32, M x N) = A (f16, M x K) * B (f16, K x N), all row-major, with the
// gpu, nvgpu (TMA, mbarriers, warpgroup MMA), nvvm, memref, scf, affine and
// arith dialects.  Every index (the TMA boxes' coordinates, the C tile, the
// grouped program ids) is a layout of bench/mlir/matmul_wgmma.lego, filled
// in by liblego:
//   lego gen bench/mlir/matmul_wgmma.lego bench/mlir/matmul_wgmma.mlir.tpl \
//       --target mlir -D GM=8 -D WG=2 -o bench/mlir/matmul_wgmma.mlir
// (-D WG=1: 128 x 128 tiles, one warpgroup a block: measured slower,
// bench/mlir/results.md).
// Structure: a block of WG warpgroups (128 WG threads) computes a
// 128 x 128 WG tile of C, warpgroup wg the 128 x 128 part at column
// wg * 128, with nvgpu.warpgroup.mma (wgmma.mma_async m64n128k16, f16 in, f32
// accumulators in registers) reading both operands from shared memory.
// The k loop goes over 64-wide slices: thread 0 loads each slice with TMA
// (nvgpu.tma.async.load: the A box 128 x 64 and 2 WG B boxes 64 x 64, all
// with the 128-byte swizzle that wgmma reads) into one of 4 stages of
// 16 + 16 WG KiB, completion counted in bytes by that stage's mbarrier, two
// slices ahead of the one being computed.
// Launch: grid (M/128 * N/(128 WG)), block 128 WG, 4 * 16384 (1 + WG) + 2048
// bytes of dynamic shared memory (4 stages, and room to align them); the
// two TMA descriptors (CUtensorMap, 128-byte swizzle, boxes 64 x 128 for A
// and 64 x 64 for B, innermost first) are passed as pointers to global
// memory.  Needs M a
// multiple of 1024 (groups of GM = 8 tile rows, as layout P assumes), N a
// multiple of 128 WG, K a multiple of 64.
!wa = memref<128x64xf16, #gpu.address_space<workgroup>>
!wb = memref<64x64xf16, #gpu.address_space<workgroup>>
!wbh = memref<64x128xf16, #gpu.address_space<workgroup>>
!tma = !nvgpu.tensormap.descriptor<tensor = !wa, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!tmb = !nvgpu.tensormap.descriptor<tensor = !wb, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
module attributes {gpu.container_module} {
  gpu.module @matmul_wgmma {
    gpu.func @matmul_wgmma(%pa: !llvm.ptr, %pb: !llvm.ptr, %cm: memref<?xf32>,
                           %M: index, %N: index, %K: index) kernel {
      // The descriptors arrive as pointers (what the nvgpu lowering turns
      // a tensormap descriptor into; the gpu.func lowering knows no nvgpu
      // types).
      %ta = builtin.unrealized_conversion_cast %pa : !llvm.ptr to !tma
      %tb = builtin.unrealized_conversion_cast %pb : !llvm.ptr to !tmb
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c1087 = arith.constant 1087 : index
      %cm1024 = arith.constant -1024 : index
      %c8192 = arith.constant 8192 : index
      %c16384 = arith.constant 16384 : index
      %c65536 = arith.constant 65536 : index
      // Bytes of one stage: A 128 x 64 + B 64 x 128 WG halves; B's stage.
      %t55_0 = arith.constant 49152 : index
      %stage_bytes = arith.addi %c0, %t55_0 : index
      %t55_1 = arith.constant 32768 : index
      %bstage = arith.addi %c0, %t55_1 : index
      %t55_2 = arith.constant 4 : index
      %nbox = arith.addi %c0, %t55_2 : index
      %ticks = arith.constant 10000000 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      // The 128-byte swizzle pattern repeats every 1024 bytes: the stages
      // start at the first 1024-byte boundary at least 64 bytes past the
      // start of the dynamic shared memory (the lowering gives it a 1-byte
      // static symbol; the mbarriers, 32 bytes, may follow it).
      %base = memref.extract_aligned_pointer_as_index %raw : memref<?xi8, #gpu.address_space<workgroup>> -> index
      %b64 = arith.addi %base, %c1087 : index
      %start = arith.andi %b64, %cm1024 : index
      %pad = arith.subi %start, %base : index
      %bars = nvgpu.mbarrier.create -> !bars
      %tid = gpu.thread_id x
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        affine.for %s = 0 to 4 {
          nvgpu.mbarrier.init %bars[%s], %c1 : !bars
        }
        nvgpu.tma.prefetch.descriptor %ta : !tma
        nvgpu.tma.prefetch.descriptor %tb : !tmb
      }
      gpu.barrier
      %pid = gpu.block_id x
      %t80_0 = arith.constant 256 : index
      %t80_1 = arith.divui %N, %t80_0 : index
      %t80_2 = arith.constant 8 : index
      %t80_3 = arith.muli %t80_1, %t80_2 : index
      %t80_4 = arith.divui %pid, %t80_3 : index
      %t80_5 = arith.muli %t80_4, %t80_2 : index
      %t80_6 = arith.remui %pid, %t80_2 : index
      %t80_7 = arith.addi %t80_5, %t80_6 : index
      %tm = arith.addi %c0, %t80_7 : index
      %t80_8 = arith.divui %pid, %t80_2 : index
      %t80_9 = arith.remui %t80_8, %t80_1 : index
      %tn = arith.addi %c0, %t80_9 : index
      %wg = arith.divui %tid, %c128 : index
      %nkt = arith.divui %K, %c64 : index
      %nit = arith.addi %nkt, %c2 : index
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      // Iteration it loads k slice it into stage it % 4 (thread 0) and
      // computes slice it - 2 (from stage (it - 2) % 4) once it >= 2.  The
      // stage loaded at it held slice it - 4, computed at it - 2: the wait
      // for all but the last wgmma group at the end of it - 1 and the
      // barrier after it free that stage.
      %res = scf.for %it = %c0 to %nit step %c1 iter_args(%acc = %acc0) -> (!acc) {
        %more = arith.cmpi ult, %it, %nkt : index
        %load = arith.andi %is0, %more : i1
        scf.if %load {
          %kt = arith.addi %it, %c0 : index
          %st = arith.remui %it, %c4 : index
          %sta = arith.muli %st, %c16384 : index
          %offa = arith.addi %pad, %sta : index
          %stb = arith.muli %st, %bstage : index
          %offb0 = arith.addi %pad, %c65536 : index
          %offb = arith.addi %offb0, %stb : index
          %sa = memref.view %raw[%offa][] : memref<?xi8, #gpu.address_space<workgroup>> to !wa
          nvgpu.mbarrier.arrive.expect_tx %bars[%st], %stage_bytes : !bars
          %t104_0 = arith.constant 64 : index
          %t104_1 = arith.muli %kt, %t104_0 : index
          %t104_2 = arith.constant 128 : index
          %t104_3 = arith.muli %tm, %t104_2 : index
          nvgpu.tma.async.load %ta[%t104_1, %t104_3], %bars[%st] to %sa : !tma, !bars -> !wa
          scf.for %h = %c0 to %nbox step %c1 {
            %hb = arith.muli %h, %c8192 : index
            %offh = arith.addi %offb, %hb : index
            %sb = memref.view %raw[%offh][] : memref<?xi8, #gpu.address_space<workgroup>> to !wb
            %t109_0 = arith.constant 4 : index
            %t109_1 = arith.muli %tn, %t109_0 : index
            %t109_2 = arith.addi %h, %t109_1 : index
            %t109_3 = arith.constant 64 : index
            %t109_4 = arith.muli %t109_2, %t109_3 : index
            %t109_5 = arith.muli %kt, %t109_3 : index
            nvgpu.tma.async.load %tb[%t109_4, %t109_5], %bars[%st] to %sb : !tmb, !bars -> !wb
          }
        }
        %ready = arith.cmpi uge, %it, %c2 : index
        %accn = scf.if %ready -> (!acc) {
          %kc = arith.subi %it, %c2 : index
          %sc = arith.remui %kc, %c4 : index
          %round = arith.divui %kc, %c4 : index
          %phase = arith.index_castui %round : index to i1
          nvgpu.mbarrier.try_wait.parity %bars[%sc], %phase, %ticks : !bars
          %sca = arith.muli %sc, %c16384 : index
          %offa = arith.addi %pad, %sca : index
          %scb = arith.muli %sc, %bstage : index
          %wgb = arith.muli %wg, %c16384 : index
          %offb0 = arith.addi %pad, %c65536 : index
          %offb1 = arith.addi %offb0, %scb : index
          %offb = arith.addi %offb1, %wgb : index
          %sa = memref.view %raw[%offa][] : memref<?xi8, #gpu.address_space<workgroup>> to !wa
          %sb = memref.view %raw[%offb][] : memref<?xi8, #gpu.address_space<workgroup>> to !wbh
          %da = nvgpu.warpgroup.generate.descriptor %sa, %ta : !wa, !tma -> !nvgpu.warpgroup.descriptor<tensor = !wa>
          %db = nvgpu.warpgroup.generate.descriptor %sb, %tb : !wbh, !tmb -> !nvgpu.warpgroup.descriptor<tensor = !wbh>
          %acc2 = nvgpu.warpgroup.mma %da, %db, %acc {transposeB} : <tensor = !wa>, <tensor = !wbh>, !acc -> !acc
          nvvm.wgmma.wait.group.sync.aligned 1
          scf.yield %acc2 : !acc
        } else {
          scf.yield %acc : !acc
        }
        gpu.barrier
        scf.yield %accn : !acc
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      // Warpgroup wg's half of the C tile: 128 rows of 128 floats.  The
      // nvgpu lowering of warpgroup.mma.store (mlir-opt 22) gives thread
      // tid the rows of warp tid / 32 of the warpgroup, not (tid / 32) % 4:
      // warpgroup 1 writes 64 rows too low, so its view starts 64 rows
      // higher (found by reading the PTX; the results are checked).
      %t145_0 = arith.constant 2 : index
      %t145_1 = arith.muli %tn, %t145_0 : index
      %t145_2 = arith.addi %wg, %t145_1 : index
      %t145_3 = arith.muli %N, %tm : index
      %t145_4 = arith.addi %t145_2, %t145_3 : index
      %t145_5 = arith.constant 128 : index
      %t145_6 = arith.muli %t145_4, %t145_5 : index
      %co = arith.addi %c0, %t145_6 : index
      %cs = arith.addi %c0, %N : index
      %wg64 = arith.muli %wg, %c64 : index
      %up = arith.muli %wg64, %cs : index
      %cv0 = arith.subi %co, %up : index
      %cv = memref.reinterpret_cast %cm to offset: [%cv0], sizes: [128, 128], strides: [%cs, 1] : memref<?xf32> to memref<128x128xf32, strided<[?, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %cv : !acc to memref<128x128xf32, strided<[?, 1], offset: ?>>
      gpu.return
    }
  }
}
