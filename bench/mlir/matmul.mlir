// FP16 matrix multiply on the tensor cores as one MLIR module:
// C (f32, M x N) = A (f16, M x K) * B (f16, K x N), all row-major, with the
// gpu, nvgpu, memref, scf, affine, vector and arith dialects.  Every index
// (global tiles, swizzled shared tiles, the grouped program ids) is a
// layout of bench/mlir/matmul.lego, filled in by liblego:
//   lego gen bench/mlir/matmul.lego bench/mlir/matmul.mlir.tpl \
//       --target mlir -D GM=8 -o bench/mlir/matmul.mlir
// Structure (the classic Ampere GEMM): a block of 4 warps (128 threads)
// computes a 128 x 128 tile of C, each warp a 64 x 64 quarter as 4 x 8
// mma.sync m16n8k16 (f16 in, f32 accumulators kept in registers).  The k
// loop goes over 64-wide slices of A and B, copied global -> shared with
// cp.async (nvgpu.device_async_copy, 16 bytes a copy) into 3 stages, two
// slices ahead of the one being computed; fragments are read from shared
// memory with ldmatrix (B transposed by ldmatrix.trans).
// Launch: grid (M/128 * N/128), block 128, 98304 bytes of dynamic shared
// memory; needs M a multiple of 1024 (M/128 tile rows in groups of GM = 8,
// as layout P assumes), N a multiple of 128, K a multiple of 64.
// The affine.for loops (fragments) are unrolled before the GPU lowering
// (bench/mlir/build.sh: --affine-loop-unroll), so that every vector
// position is a constant.
!smem = memref<49152xf16, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @matmul {
    gpu.func @matmul_f16(%a: memref<?xf16>, %b: memref<?xf16>,
                         %cm: memref<?xf32>, %M: index, %N: index,
                         %K: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %sm = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to !smem
      %pid = gpu.block_id x
      %t40_0 = arith.constant 128 : index
      %t40_1 = arith.divui %N, %t40_0 : index
      %t40_2 = arith.constant 8 : index
      %t40_3 = arith.muli %t40_1, %t40_2 : index
      %t40_4 = arith.divui %pid, %t40_3 : index
      %t40_5 = arith.muli %t40_4, %t40_2 : index
      %t40_6 = arith.remui %pid, %t40_2 : index
      %t40_7 = arith.addi %t40_5, %t40_6 : index
      %tm = arith.addi %c0, %t40_7 : index
      %t41_0 = arith.constant 8 : index
      %t41_1 = arith.divui %pid, %t41_0 : index
      %t41_2 = arith.constant 128 : index
      %t41_3 = arith.divui %N, %t41_2 : index
      %t41_4 = arith.remui %t41_1, %t41_3 : index
      %tn = arith.addi %c0, %t41_4 : index
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      %lane = arith.remui %tid, %c32 : index
      // Warp (wm, wn) computes rows wm*64.. and columns wn*64.. of the tile.
      %wm = arith.divui %warp, %c2 : index
      %wn = arith.remui %warp, %c2 : index
      %wr = arith.muli %wm, %c64 : index
      %wc = arith.muli %wn, %c64 : index
      // ldmatrix x4: lane l gives the address of row l % 16, columns
      // (l / 16) * 8 .. of a 16 x 16 block (A), or of k row l % 16,
      // columns (l / 16) * 8 .. of a 16 x 16 block of B (transposed).
      %l16 = arith.remui %lane, %c16 : index
      %lh = arith.divui %lane, %c16 : index
      %l8 = arith.muli %lh, %c8 : index
      // mma fragment of C: row lane / 4 (+ 8), columns 2 * (lane % 4) + {0, 1}.
      %lq = arith.divui %lane, %c4 : index
      %lr = arith.remui %lane, %c4 : index
      %lc = arith.muli %lr, %c2 : index

      %nkt = arith.divui %K, %c64 : index
      %last = arith.subi %nkt, %c1 : index
      %nit = arith.addi %nkt, %c2 : index
      %zero = arith.constant dense<0.0> : vector<4x8x2x2xf32>
      %za = arith.constant dense<0.0> : vector<4x4x2xf16>
      %zb = arith.constant dense<0.0> : vector<8x2x2xf16>
      // Iteration it copies k slice it into stage it % 3 and computes slice
      // it - 2 (from stage (it - 2) % 3) once it >= 2: the copies run two
      // slices ahead.  Past the end it copies the last slice again (never
      // read), so that every iteration commits one cp.async group.
      // (An empty group first: its token starts the chain of tokens.)
      %g0 = nvgpu.device_async_create_group {}
      %res:2 = scf.for %it = %c0 to %nit step %c1
          iter_args(%acc0 = %zero, %tok = %g0)
          -> (vector<4x8x2x2xf32>, !nvgpu.device.async.token) {
        // Slice it - 2 has landed (at most the later group pending), for
        // every thread after the barrier, which also ends the reads (at
        // it - 1) of the stage refilled now.
        nvgpu.device_async_wait %tok {numGroups = 1 : i32}
        gpu.barrier
        %kt = arith.minui %it, %last : index
        %st = arith.remui %it, %c3 : index
        affine.for %q = 0 to 8 {
          // Thread tid copies chunks tid + 128 q (8 halves each) of the A
          // tile (128 rows of 8 chunks) and of the B tile (64 rows of 16).
          %q128 = arith.muli %q, %c128 : index
          %id = arith.addi %tid, %q128 : index
          %r = arith.divui %id, %c8 : index
          %ca = arith.remui %id, %c8 : index
          %c = arith.muli %ca, %c8 : index
          %kr = arith.divui %id, %c16 : index
          %cb = arith.remui %id, %c16 : index
          %nc = arith.muli %cb, %c8 : index
          %t94_0 = arith.constant 64 : index
          %t94_1 = arith.muli %kt, %t94_0 : index
          %t94_2 = arith.addi %c, %t94_1 : index
          %t94_3 = arith.constant 128 : index
          %t94_4 = arith.muli %tm, %t94_3 : index
          %t94_5 = arith.addi %r, %t94_4 : index
          %t94_6 = arith.muli %K, %t94_5 : index
          %t94_7 = arith.addi %t94_2, %t94_6 : index
          %t94_8 = arith.constant 16384 : index
          %t94_9 = arith.muli %st, %t94_8 : index
          %t94_10 = arith.muli %r, %t94_0 : index
          %t94_11 = arith.addi %c, %t94_10 : index
          %t94_12 = arith.constant 56 : index
          %t94_13 = arith.constant 3 : index
          %t94_14 = arith.shrsi %t94_11, %t94_13 : index
          %t94_15 = arith.andi %t94_12, %t94_14 : index
          %t94_16 = arith.xori %t94_11, %t94_15 : index
          %t94_17 = arith.addi %t94_9, %t94_16 : index
          %ta = nvgpu.device_async_copy %a[%t94_7], %sm[%t94_17], 8 {bypassL1} : memref<?xf16> to !smem
          %t95_0 = arith.constant 128 : index
          %t95_1 = arith.muli %tn, %t95_0 : index
          %t95_2 = arith.addi %nc, %t95_1 : index
          %t95_3 = arith.constant 64 : index
          %t95_4 = arith.muli %kt, %t95_3 : index
          %t95_5 = arith.addi %kr, %t95_4 : index
          %t95_6 = arith.muli %N, %t95_5 : index
          %t95_7 = arith.addi %t95_2, %t95_6 : index
          %t95_8 = arith.constant 16384 : index
          %t95_9 = arith.muli %st, %t95_8 : index
          %t95_10 = arith.muli %kr, %t95_0 : index
          %t95_11 = arith.addi %nc, %t95_10 : index
          %t95_12 = arith.constant 56 : index
          %t95_13 = arith.constant 4 : index
          %t95_14 = arith.shrsi %t95_11, %t95_13 : index
          %t95_15 = arith.andi %t95_12, %t95_14 : index
          %t95_16 = arith.xori %t95_11, %t95_15 : index
          %t95_17 = arith.addi %t95_9, %t95_16 : index
          %t95_18 = arith.constant 8192 : index
          %t95_19 = arith.addi %t95_17, %t95_18 : index
          %tb = nvgpu.device_async_copy %b[%t95_7], %sm[%t95_19], 8 {bypassL1} : memref<?xf16> to !smem
        }
        // The commit takes every copy of this thread since the last one.
        %g = nvgpu.device_async_create_group {}
        %ready = arith.cmpi uge, %it, %c2 : index
        %accn = scf.if %ready -> (vector<4x8x2x2xf32>) {
          %kc = arith.subi %it, %c2 : index
          %sc = arith.remui %kc, %c3 : index
          %acc9 = affine.for %kk = 0 to 4 iter_args(%acc1 = %acc0) -> (vector<4x8x2x2xf32>) {
          %k16 = arith.muli %kk, %c16 : index
          %fa = affine.for %mi = 0 to 4 iter_args(%fa1 = %za) -> (vector<4x4x2xf16>) {
            %m16 = arith.muli %mi, %c16 : index
            %r0 = arith.addi %wr, %m16 : index
            %r = arith.addi %r0, %l16 : index
            %c = arith.addi %k16, %l8 : index
            %t110_0 = arith.constant 16384 : index
            %t110_1 = arith.muli %sc, %t110_0 : index
            %t110_2 = arith.constant 64 : index
            %t110_3 = arith.muli %r, %t110_2 : index
            %t110_4 = arith.addi %c, %t110_3 : index
            %t110_5 = arith.constant 56 : index
            %t110_6 = arith.constant 3 : index
            %t110_7 = arith.shrsi %t110_4, %t110_6 : index
            %t110_8 = arith.andi %t110_5, %t110_7 : index
            %t110_9 = arith.xori %t110_4, %t110_8 : index
            %t110_10 = arith.addi %t110_1, %t110_9 : index
            %x = nvgpu.ldmatrix %sm[%t110_10] {numTiles = 4 : i32, transpose = false} : !smem -> vector<4x2xf16>
            %fa2 = vector.insert %x, %fa1[%mi] : vector<4x2xf16> into vector<4x4x2xf16>
            affine.yield %fa2 : vector<4x4x2xf16>
          }
          %fb = affine.for %nj = 0 to 4 iter_args(%fb1 = %zb) -> (vector<8x2x2xf16>) {
            %n16 = arith.muli %nj, %c16 : index
            %n0 = arith.addi %wc, %n16 : index
            %nc = arith.addi %n0, %l8 : index
            %kr = arith.addi %k16, %l16 : index
            %t119_0 = arith.constant 16384 : index
            %t119_1 = arith.muli %sc, %t119_0 : index
            %t119_2 = arith.constant 128 : index
            %t119_3 = arith.muli %kr, %t119_2 : index
            %t119_4 = arith.addi %nc, %t119_3 : index
            %t119_5 = arith.constant 56 : index
            %t119_6 = arith.constant 4 : index
            %t119_7 = arith.shrsi %t119_4, %t119_6 : index
            %t119_8 = arith.andi %t119_5, %t119_7 : index
            %t119_9 = arith.xori %t119_4, %t119_8 : index
            %t119_10 = arith.addi %t119_1, %t119_9 : index
            %t119_11 = arith.constant 8192 : index
            %t119_12 = arith.addi %t119_10, %t119_11 : index
            %y = nvgpu.ldmatrix %sm[%t119_12] {numTiles = 4 : i32, transpose = true} : !smem -> vector<4x2xf16>
            // Matrices 0, 1: k rows 0-7, 8-15 of n block 2 nj; 2, 3: of 2 nj + 1.
            %ni0 = arith.muli %nj, %c2 : index
            %ni1 = arith.addi %ni0, %c1 : index
            %y0 = vector.extract %y[0] : vector<2xf16> from vector<4x2xf16>
            %y1 = vector.extract %y[1] : vector<2xf16> from vector<4x2xf16>
            %y2 = vector.extract %y[2] : vector<2xf16> from vector<4x2xf16>
            %y3 = vector.extract %y[3] : vector<2xf16> from vector<4x2xf16>
            %fb2 = vector.insert %y0, %fb1[%ni0, 0] : vector<2xf16> into vector<8x2x2xf16>
            %fb3 = vector.insert %y1, %fb2[%ni0, 1] : vector<2xf16> into vector<8x2x2xf16>
            %fb4 = vector.insert %y2, %fb3[%ni1, 0] : vector<2xf16> into vector<8x2x2xf16>
            %fb5 = vector.insert %y3, %fb4[%ni1, 1] : vector<2xf16> into vector<8x2x2xf16>
            affine.yield %fb5 : vector<8x2x2xf16>
          }
          %acc2 = affine.for %mi = 0 to 4 iter_args(%acc3 = %acc1) -> (vector<4x8x2x2xf32>) {
            %acc4 = affine.for %ni = 0 to 8 iter_args(%acc5 = %acc3) -> (vector<4x8x2x2xf32>) {
              %x = vector.extract %fa[%mi] : vector<4x2xf16> from vector<4x4x2xf16>
              %y = vector.extract %fb[%ni] : vector<2x2xf16> from vector<8x2x2xf16>
              %d = vector.extract %acc5[%mi, %ni] : vector<2x2xf32> from vector<4x8x2x2xf32>
              %e = nvgpu.mma.sync (%x, %y, %d) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
              %acc6 = vector.insert %e, %acc5[%mi, %ni] : vector<2x2xf32> into vector<4x8x2x2xf32>
              affine.yield %acc6 : vector<4x8x2x2xf32>
            }
            affine.yield %acc4 : vector<4x8x2x2xf32>
          }
          affine.yield %acc2 : vector<4x8x2x2xf32>
          }
          scf.yield %acc9 : vector<4x8x2x2xf32>
        } else {
          scf.yield %acc0 : vector<4x8x2x2xf32>
        }
        scf.yield %accn, %g : vector<4x8x2x2xf32>, !nvgpu.device.async.token
      }
      // The copies of the repeated last slice may still be in flight.
      nvgpu.device_async_wait %res#1 {numGroups = 0 : i32}

      // C tile: fragment (mi, ni) row h holds C[r, nc], C[r, nc + 1].
      affine.for %mi = 0 to 4 {
        affine.for %ni = 0 to 8 {
          affine.for %h = 0 to 2 {
            %m16 = arith.muli %mi, %c16 : index
            %h8 = arith.muli %h, %c8 : index
            %r0 = arith.addi %wr, %m16 : index
            %r1 = arith.addi %r0, %lq : index
            %r = arith.addi %r1, %h8 : index
            %n8 = arith.muli %ni, %c8 : index
            %n0 = arith.addi %wc, %n8 : index
            %nc = arith.addi %n0, %lc : index
            %v = vector.extract %res#0[%mi, %ni, %h] : vector<2xf32> from vector<4x8x2x2xf32>
            %t168_0 = arith.constant 128 : index
            %t168_1 = arith.muli %tn, %t168_0 : index
            %t168_2 = arith.addi %nc, %t168_1 : index
            %t168_3 = arith.muli %tm, %t168_0 : index
            %t168_4 = arith.addi %r, %t168_3 : index
            %t168_5 = arith.muli %N, %t168_4 : index
            %t168_6 = arith.addi %t168_2, %t168_5 : index
            vector.store %v, %cm[%t168_6] : memref<?xf32>, vector<2xf32>
          }
        }
      }
      gpu.return
    }
  }
}
