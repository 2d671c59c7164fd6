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
// loop goes over 32-wide slices of A and B, copied global -> shared with
// cp.async (nvgpu.device_async_copy, 16 bytes a copy) into 4 stages, three
// slices ahead of the one being computed; fragments are read from shared
// memory with ldmatrix (B transposed by ldmatrix.trans).
// Launch: grid (M/128 * N/128), block 128, 65536 bytes of dynamic shared
// memory; needs M, N multiples of 128, K a multiple of 32 and K >= 96.
// The affine.for loops (fragments) are unrolled before the GPU lowering
// (bench/mlir/build.sh: --affine-loop-unroll), so that every vector
// position is a constant.
!smem = memref<32768xf16, #gpu.address_space<workgroup>>
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
      %t39_0 = arith.constant 128 : index
      %t39_1 = arith.divui %N, %t39_0 : index
      %t39_2 = arith.constant 8 : index
      %t39_3 = arith.muli %t39_1, %t39_2 : index
      %t39_4 = arith.divui %pid, %t39_3 : index
      %t39_5 = arith.muli %t39_4, %t39_2 : index
      %t39_6 = arith.remui %pid, %t39_2 : index
      %t39_7 = arith.addi %t39_5, %t39_6 : index
      %tm = arith.addi %c0, %t39_7 : index
      %t40_0 = arith.constant 8 : index
      %t40_1 = arith.divui %pid, %t40_0 : index
      %t40_2 = arith.constant 128 : index
      %t40_3 = arith.divui %N, %t40_2 : index
      %t40_4 = arith.remui %t40_1, %t40_3 : index
      %tn = arith.addi %c0, %t40_4 : index
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

      %nkt = arith.divui %K, %c32 : index
      %last = arith.subi %nkt, %c1 : index
      %nit = arith.addi %nkt, %c3 : index
      %zero = arith.constant dense<0.0> : vector<4x8x2x2xf32>
      %za = arith.constant dense<0.0> : vector<4x4x2xf16>
      %zb = arith.constant dense<0.0> : vector<8x2x2xf16>
      // Iteration it copies k slice it into stage it % 4 and computes slice
      // it - 3 (from stage (it - 3) % 4) once it >= 3: the copies run three
      // slices ahead.  Past the end it copies the last slice again (never
      // read), so that every iteration commits one cp.async group.
      // (An empty group first: its token starts the chain of tokens.)
      %g0 = nvgpu.device_async_create_group {}
      %res:2 = scf.for %it = %c0 to %nit step %c1
          iter_args(%acc0 = %zero, %tok = %g0)
          -> (vector<4x8x2x2xf32>, !nvgpu.device.async.token) {
        // Slice it - 3 has landed (at most the 2 later groups pending), for
        // every thread after the barrier, which also ends the reads (at
        // it - 1) of the stage refilled now.
        nvgpu.device_async_wait %tok {numGroups = 2 : i32}
        gpu.barrier
        %kt = arith.minui %it, %last : index
        %st = arith.remui %it, %c4 : index
        affine.for %q = 0 to 4 {
          // Thread tid copies chunks tid + 128 q (8 halves each) of the A
          // tile (128 rows of 4 chunks) and of the B tile (32 rows of 16).
          %q128 = arith.muli %q, %c128 : index
          %id = arith.addi %tid, %q128 : index
          %r = arith.divui %id, %c4 : index
          %ca = arith.remui %id, %c4 : index
          %c = arith.muli %ca, %c8 : index
          %kr = arith.divui %id, %c16 : index
          %cb = arith.remui %id, %c16 : index
          %nc = arith.muli %cb, %c8 : index
          %t93_0 = arith.constant 32 : index
          %t93_1 = arith.muli %kt, %t93_0 : index
          %t93_2 = arith.addi %c, %t93_1 : index
          %t93_3 = arith.constant 128 : index
          %t93_4 = arith.muli %tm, %t93_3 : index
          %t93_5 = arith.addi %r, %t93_4 : index
          %t93_6 = arith.muli %K, %t93_5 : index
          %t93_7 = arith.addi %t93_2, %t93_6 : index
          %t93_8 = arith.constant 8192 : index
          %t93_9 = arith.muli %st, %t93_8 : index
          %t93_10 = arith.muli %r, %t93_0 : index
          %t93_11 = arith.addi %c, %t93_10 : index
          %t93_12 = arith.constant 24 : index
          %t93_13 = arith.constant 3 : index
          %t93_14 = arith.shrsi %t93_11, %t93_13 : index
          %t93_15 = arith.andi %t93_12, %t93_14 : index
          %t93_16 = arith.xori %t93_11, %t93_15 : index
          %t93_17 = arith.addi %t93_9, %t93_16 : index
          %ta = nvgpu.device_async_copy %a[%t93_7], %sm[%t93_17], 8 {bypassL1} : memref<?xf16> to !smem
          %t94_0 = arith.constant 128 : index
          %t94_1 = arith.muli %tn, %t94_0 : index
          %t94_2 = arith.addi %nc, %t94_1 : index
          %t94_3 = arith.constant 32 : index
          %t94_4 = arith.muli %kt, %t94_3 : index
          %t94_5 = arith.addi %kr, %t94_4 : index
          %t94_6 = arith.muli %N, %t94_5 : index
          %t94_7 = arith.addi %t94_2, %t94_6 : index
          %t94_8 = arith.constant 8192 : index
          %t94_9 = arith.muli %st, %t94_8 : index
          %t94_10 = arith.muli %kr, %t94_0 : index
          %t94_11 = arith.addi %nc, %t94_10 : index
          %t94_12 = arith.constant 56 : index
          %t94_13 = arith.constant 4 : index
          %t94_14 = arith.shrsi %t94_11, %t94_13 : index
          %t94_15 = arith.andi %t94_12, %t94_14 : index
          %t94_16 = arith.xori %t94_11, %t94_15 : index
          %t94_17 = arith.addi %t94_9, %t94_16 : index
          %t94_18 = arith.constant 4096 : index
          %t94_19 = arith.addi %t94_17, %t94_18 : index
          %tb = nvgpu.device_async_copy %b[%t94_7], %sm[%t94_19], 8 {bypassL1} : memref<?xf16> to !smem
        }
        // The commit takes every copy of this thread since the last one.
        %g = nvgpu.device_async_create_group {}
        %ready = arith.cmpi uge, %it, %c3 : index
        %accn = scf.if %ready -> (vector<4x8x2x2xf32>) {
          %kc = arith.subi %it, %c3 : index
          %sc = arith.remui %kc, %c4 : index
          %acc9 = affine.for %kk = 0 to 2 iter_args(%acc1 = %acc0) -> (vector<4x8x2x2xf32>) {
          %k16 = arith.muli %kk, %c16 : index
          %fa = affine.for %mi = 0 to 4 iter_args(%fa1 = %za) -> (vector<4x4x2xf16>) {
            %m16 = arith.muli %mi, %c16 : index
            %r0 = arith.addi %wr, %m16 : index
            %r = arith.addi %r0, %l16 : index
            %c = arith.addi %k16, %l8 : index
            %t109_0 = arith.constant 8192 : index
            %t109_1 = arith.muli %sc, %t109_0 : index
            %t109_2 = arith.constant 32 : index
            %t109_3 = arith.muli %r, %t109_2 : index
            %t109_4 = arith.addi %c, %t109_3 : index
            %t109_5 = arith.constant 24 : index
            %t109_6 = arith.constant 3 : index
            %t109_7 = arith.shrsi %t109_4, %t109_6 : index
            %t109_8 = arith.andi %t109_5, %t109_7 : index
            %t109_9 = arith.xori %t109_4, %t109_8 : index
            %t109_10 = arith.addi %t109_1, %t109_9 : index
            %x = nvgpu.ldmatrix %sm[%t109_10] {numTiles = 4 : i32, transpose = false} : !smem -> vector<4x2xf16>
            %fa2 = vector.insert %x, %fa1[%mi] : vector<4x2xf16> into vector<4x4x2xf16>
            affine.yield %fa2 : vector<4x4x2xf16>
          }
          %fb = affine.for %nj = 0 to 4 iter_args(%fb1 = %zb) -> (vector<8x2x2xf16>) {
            %n16 = arith.muli %nj, %c16 : index
            %n0 = arith.addi %wc, %n16 : index
            %nc = arith.addi %n0, %l8 : index
            %kr = arith.addi %k16, %l16 : index
            %t118_0 = arith.constant 8192 : index
            %t118_1 = arith.muli %sc, %t118_0 : index
            %t118_2 = arith.constant 128 : index
            %t118_3 = arith.muli %kr, %t118_2 : index
            %t118_4 = arith.addi %nc, %t118_3 : index
            %t118_5 = arith.constant 56 : index
            %t118_6 = arith.constant 4 : index
            %t118_7 = arith.shrsi %t118_4, %t118_6 : index
            %t118_8 = arith.andi %t118_5, %t118_7 : index
            %t118_9 = arith.xori %t118_4, %t118_8 : index
            %t118_10 = arith.addi %t118_1, %t118_9 : index
            %t118_11 = arith.constant 4096 : index
            %t118_12 = arith.addi %t118_10, %t118_11 : index
            %y = nvgpu.ldmatrix %sm[%t118_12] {numTiles = 4 : i32, transpose = true} : !smem -> vector<4x2xf16>
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
            %t167_0 = arith.constant 128 : index
            %t167_1 = arith.muli %tn, %t167_0 : index
            %t167_2 = arith.addi %nc, %t167_1 : index
            %t167_3 = arith.muli %tm, %t167_0 : index
            %t167_4 = arith.addi %r, %t167_3 : index
            %t167_5 = arith.muli %N, %t167_4 : index
            %t167_6 = arith.addi %t167_2, %t167_5 : index
            vector.store %v, %cm[%t167_6] : memref<?xf32>, vector<2xf32>
          }
        }
      }
      gpu.return
    }
  }
}
