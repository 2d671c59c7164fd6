// FP16 matrix multiply on Hopper's tensor cores as one MLIR module, warp
// specialized: C (f32, M x N) = A (f16, M x K) * B (f16, K x N), all
// row-major, with the gpu, nvgpu (TMA, mbarriers, warpgroup MMA), nvvm,
// memref, scf, affine and arith dialects.  Every index (the TMA boxes'
// coordinates, the C tile, the grouped program ids) is a layout of
// bench/mlir/matmul_wgmma.lego, filled in by liblego:
//   lego gen bench/mlir/matmul_wgmma.lego bench/mlir/matmul_ws.mlir.tpl \
//       --target mlir -D GM=8 -D WG=2 -o bench/mlir/matmul_ws.mlir
// Structure: a block of WG consumer warpgroups and one producer warp
// (128 WG + 32 threads) computes a 128 x 128 WG tile of C; consumer
// warpgroup wg computes the 128 x 128 part at column wg * 128 with
// nvgpu.warpgroup.mma (wgmma.mma_async m64n128k16, f16 in, f32
// accumulators in registers) reading both operands from shared memory.
// The k loop goes over 64-wide slices in 4 stages of 16 + 16 WG KiB.  Each
// stage has two mbarriers: "full" (the producer's TMA loads of the slice,
// counted in bytes: the A box 128 x 64 and 2 WG B boxes 64 x 64, all with
// the 128-byte swizzle that wgmma reads) and "empty" (one arrival from
// every consumer thread once the wgmmas that read the stage are complete).
// The producer (lane 0 of warp 4 WG) refills a stage as soon as it is
// empty; no block-wide barrier in the loop.
// Launch: grid (M/128 * N/(128 WG)), block 128 WG + 32, 4 * 16384 (1 + WG)
// + 2048 bytes of dynamic shared memory (4 stages, and room to align
// them); the two TMA descriptors (CUtensorMap, 128-byte swizzle, boxes
// 64 x 128 for A and 64 x 64 for B, innermost first) are passed as
// pointers to global memory.  Needs M a multiple of 1024 (groups of GM = 8
// tile rows, as layout P assumes), N a multiple of 128 WG, K a multiple of
// 64.
!wa = memref<128x64xf16, #gpu.address_space<workgroup>>
!wb = memref<64x64xf16, #gpu.address_space<workgroup>>
!wbh = memref<64x128xf16, #gpu.address_space<workgroup>>
!tma = !nvgpu.tensormap.descriptor<tensor = !wa, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!tmb = !nvgpu.tensormap.descriptor<tensor = !wb, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
module attributes {gpu.container_module} {
  gpu.module @matmul_ws {
    gpu.func @matmul_ws(%pa: !llvm.ptr, %pb: !llvm.ptr, %cm: memref<?xf32>,
                        %M: index, %N: index, %K: index) kernel {
      // The descriptors arrive as pointers (what the nvgpu lowering turns
      // a tensormap descriptor into; the gpu.func lowering knows no nvgpu
      // types).
      %ta = builtin.unrealized_conversion_cast %pa : !llvm.ptr to !tma
      %tb = builtin.unrealized_conversion_cast %pb : !llvm.ptr to !tmb
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c1087 = arith.constant 1087 : index
      %cm1024 = arith.constant -1024 : index
      %c8192 = arith.constant 8192 : index
      %c16384 = arith.constant 16384 : index
      %c65536 = arith.constant 65536 : index
      // Bytes of one stage: A 128 x 64 + B 64 x 128 WG halves; B's stage.
      %t56_0 = arith.constant 49152 : index
      %stage_bytes = arith.addi %c0, %t56_0 : index
      %t57_0 = arith.constant 32768 : index
      %bstage = arith.addi %c0, %t57_0 : index
      %t58_0 = arith.constant 4 : index
      %nbox = arith.addi %c0, %t58_0 : index
      // The consumer threads (arrivals that empty a stage); the producer's
      // first thread has this index.
      %t61_0 = arith.constant 256 : index
      %nconsumer = arith.addi %c0, %t61_0 : index
      %ticks = arith.constant 10000000 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      // The 128-byte swizzle pattern repeats every 1024 bytes: the stages
      // start at the first 1024-byte boundary at least 64 bytes past the
      // start of the dynamic shared memory (the lowering gives it a 1-byte
      // static symbol; the mbarriers, 64 bytes, may follow it).
      %base = memref.extract_aligned_pointer_as_index %raw : memref<?xi8, #gpu.address_space<workgroup>> -> index
      %b64 = arith.addi %base, %c1087 : index
      %start = arith.andi %b64, %cm1024 : index
      %pad = arith.subi %start, %base : index
      %full = nvgpu.mbarrier.create -> !bars
      %empty = nvgpu.mbarrier.create -> !bars
      %tid = gpu.thread_id x
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        affine.for %s = 0 to 4 {
          nvgpu.mbarrier.init %full[%s], %c1 : !bars
          nvgpu.mbarrier.init %empty[%s], %nconsumer : !bars
        }
        nvgpu.tma.prefetch.descriptor %ta : !tma
        nvgpu.tma.prefetch.descriptor %tb : !tmb
      }
      gpu.barrier
      %pid = gpu.block_id x
      %t86_0 = arith.constant 256 : index
      %t86_1 = arith.divui %N, %t86_0 : index
      %t86_2 = arith.constant 8 : index
      %t86_3 = arith.muli %t86_1, %t86_2 : index
      %t86_4 = arith.divui %pid, %t86_3 : index
      %t86_5 = arith.muli %t86_4, %t86_2 : index
      %t86_6 = arith.remui %pid, %t86_2 : index
      %t86_7 = arith.addi %t86_5, %t86_6 : index
      %tm = arith.addi %c0, %t86_7 : index
      %t87_0 = arith.constant 8 : index
      %t87_1 = arith.divui %pid, %t87_0 : index
      %t87_2 = arith.constant 256 : index
      %t87_3 = arith.divui %N, %t87_2 : index
      %t87_4 = arith.remui %t87_1, %t87_3 : index
      %tn = arith.addi %c0, %t87_4 : index
      %nkt = arith.divui %K, %c64 : index
      // The warpgroup index through a shuffle from lane 0: ptxas then
      // knows the branch below is the same for a whole warp (else it
      // serializes the wgmmas of a branch it takes for divergent).
      %wgt = arith.divui %tid, %c128 : index
      %wgt32 = arith.index_castui %wgt : index to i32
      %i0 = arith.constant 0 : i32
      %i32w = arith.constant 32 : i32
      %wgu32, %valid = gpu.shuffle idx %wgt32, %i0, %i32w : i32
      %wg = arith.index_castui %wgu32 : i32 to index
      %t98_0 = arith.constant 2 : index
      %nwg = arith.addi %c0, %t98_0 : index
      %is_producer = arith.cmpi eq, %wg, %nwg : index
      scf.if %is_producer {
        // Slice kt goes to stage kt % 4 once the consumers emptied it of
        // slice kt - 4: the completion of phase kt / 4 - 1 of its empty
        // mbarrier.
        %lead = arith.cmpi eq, %tid, %nconsumer : index
        scf.if %lead {
          scf.for %kt = %c0 to %nkt step %c1 {
            %st = arith.remui %kt, %c4 : index
            %reuse = arith.cmpi uge, %kt, %c4 : index
            scf.if %reuse {
              %round = arith.divui %kt, %c4 : index
              %prev = arith.subi %round, %c1 : index
              %phase = arith.index_castui %prev : index to i1
              nvgpu.mbarrier.try_wait.parity %empty[%st], %phase, %ticks : !bars
            }
            %sta = arith.muli %st, %c16384 : index
            %offa = arith.addi %pad, %sta : index
            %stb = arith.muli %st, %bstage : index
            %offb0 = arith.addi %pad, %c65536 : index
            %offb = arith.addi %offb0, %stb : index
            %sa = memref.view %raw[%offa][] : memref<?xi8, #gpu.address_space<workgroup>> to !wa
            nvgpu.mbarrier.arrive.expect_tx %full[%st], %stage_bytes : !bars
            %t122_0 = arith.constant 64 : index
            %t122_1 = arith.muli %kt, %t122_0 : index
            %t122_2 = arith.constant 128 : index
            %t122_3 = arith.muli %tm, %t122_2 : index
            nvgpu.tma.async.load %ta[%t122_1, %t122_3], %full[%st] to %sa : !tma, !bars -> !wa
            scf.for %h = %c0 to %nbox step %c1 {
              %hb = arith.muli %h, %c8192 : index
              %offh = arith.addi %offb, %hb : index
              %sb = memref.view %raw[%offh][] : memref<?xi8, #gpu.address_space<workgroup>> to !wb
              %t127_0 = arith.constant 4 : index
              %t127_1 = arith.muli %tn, %t127_0 : index
              %t127_2 = arith.addi %h, %t127_1 : index
              %t127_3 = arith.constant 64 : index
              %t127_4 = arith.muli %t127_2, %t127_3 : index
              %t127_5 = arith.muli %kt, %t127_3 : index
              nvgpu.tma.async.load %tb[%t127_4, %t127_5], %full[%st] to %sb : !tmb, !bars -> !wb
            }
          }
        }
      } else {
        %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
        // Slice kc: wait for its stage to be full, issue its wgmmas, wait
        // for those of slice kc - 1 and give that stage back (every
        // consumer thread arrives: no branch around the arrival).
        %res = scf.for %kc = %c0 to %nkt step %c1 iter_args(%acc = %acc0) -> (!acc) {
          %sc = arith.remui %kc, %c4 : index
          %round = arith.divui %kc, %c4 : index
          %phase = arith.index_castui %round : index to i1
          nvgpu.mbarrier.try_wait.parity %full[%sc], %phase, %ticks : !bars
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
          %past = arith.cmpi uge, %kc, %c1 : index
          scf.if %past {
            %kp = arith.subi %kc, %c1 : index
            %sp = arith.remui %kp, %c4 : index
            %tok = nvgpu.mbarrier.arrive %empty[%sp] : !bars -> !nvgpu.mbarrier.token
          }
          scf.yield %acc2 : !acc
        }
        nvvm.wgmma.wait.group.sync.aligned 0
        // Warpgroup wg's part of the C tile: 128 rows of 128 floats.  The
        // nvgpu lowering of warpgroup.mma.store (mlir-opt 22) gives thread
        // tid the rows of warp tid / 32 of the warpgroup, not (tid / 32) % 4:
        // warpgroup 1 writes 64 rows too low, so its view starts 64 rows
        // higher (found by reading the PTX; the results are checked).
        %t168_0 = arith.constant 2 : index
        %t168_1 = arith.muli %tn, %t168_0 : index
        %t168_2 = arith.addi %wg, %t168_1 : index
        %t168_3 = arith.muli %N, %tm : index
        %t168_4 = arith.addi %t168_2, %t168_3 : index
        %t168_5 = arith.constant 128 : index
        %t168_6 = arith.muli %t168_4, %t168_5 : index
        %co = arith.addi %c0, %t168_6 : index
        %cs = arith.addi %c0, %N : index
        %wg64 = arith.muli %wg, %c64 : index
        %up = arith.muli %wg64, %cs : index
        %cv0 = arith.subi %co, %up : index
        %cv = memref.reinterpret_cast %cm to offset: [%cv0], sizes: [128, 128], strides: [%cs, 1] : memref<?xf32> to memref<128x128xf32, strided<[?, 1], offset: ?>>
        nvgpu.warpgroup.mma.store %res, %cv : !acc to memref<128x128xf32, strided<[?, 1], offset: ?>>
      }
      gpu.return
    }
  }
}
