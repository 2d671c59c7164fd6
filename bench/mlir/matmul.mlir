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
// memory; needs M a multiple of 1024 (M/128 tile rows in groups of GM = 8,
// as layout P assumes), N a multiple of 128, K a multiple of 32.
// (A version with k slices of 64 in 3 stages of 32 KiB ran 3-8% slower on
// the H200: bench/mlir/results.md.)
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
      %t42_0 = arith.constant 128 : index
      %t42_1 = arith.divui %N, %t42_0 : index
      %t42_2 = arith.constant 8 : index
      %t42_3 = arith.muli %t42_1, %t42_2 : index
      %t42_4 = arith.divui %pid, %t42_3 : index
      %t42_5 = arith.muli %t42_4, %t42_2 : index
      %t42_6 = arith.remui %pid, %t42_2 : index
      %t42_7 = arith.addi %t42_5, %t42_6 : index
      %tm = arith.addi %c0, %t42_7 : index
      %t42_8 = arith.divui %pid, %t42_2 : index
      %t42_9 = arith.remui %t42_8, %t42_1 : index
      %tn = arith.addi %c0, %t42_9 : index
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
          %t96_0 = arith.constant 32 : index
          %t96_1 = arith.muli %kt, %t96_0 : index
          %t96_2 = arith.addi %c, %t96_1 : index
          %t96_3 = arith.constant 128 : index
          %t96_4 = arith.muli %tm, %t96_3 : index
          %t96_5 = arith.addi %r, %t96_4 : index
          %t96_6 = arith.muli %K, %t96_5 : index
          %t96_7 = arith.addi %t96_2, %t96_6 : index
          %t96_8 = arith.constant 8192 : index
          %t96_9 = arith.muli %st, %t96_8 : index
          %t96_10 = arith.muli %r, %t96_0 : index
          %t96_11 = arith.addi %c, %t96_10 : index
          %t96_12 = arith.constant 24 : index
          %t96_13 = arith.constant 3 : index
          %t96_14 = arith.shrsi %t96_11, %t96_13 : index
          %t96_15 = arith.andi %t96_12, %t96_14 : index
          %t96_16 = arith.xori %t96_11, %t96_15 : index
          %t96_17 = arith.addi %t96_9, %t96_16 : index
          %ta = nvgpu.device_async_copy %a[%t96_7], %sm[%t96_17], 8 {bypassL1} : memref<?xf16> to !smem
          %t97_0 = arith.constant 128 : index
          %t97_1 = arith.muli %tn, %t97_0 : index
          %t97_2 = arith.addi %nc, %t97_1 : index
          %t97_3 = arith.constant 32 : index
          %t97_4 = arith.muli %kt, %t97_3 : index
          %t97_5 = arith.addi %kr, %t97_4 : index
          %t97_6 = arith.muli %N, %t97_5 : index
          %t97_7 = arith.addi %t97_2, %t97_6 : index
          %t97_8 = arith.constant 8192 : index
          %t97_9 = arith.muli %st, %t97_8 : index
          %t97_10 = arith.muli %kr, %t97_0 : index
          %t97_11 = arith.addi %nc, %t97_10 : index
          %t97_12 = arith.constant 7 : index
          %t97_13 = arith.andi %t97_12, %kr : index
          %t97_14 = arith.constant 8 : index
          %t97_15 = arith.muli %t97_13, %t97_14 : index
          %t97_16 = arith.xori %t97_11, %t97_15 : index
          %t97_17 = arith.addi %t97_9, %t97_16 : index
          %t97_18 = arith.constant 4096 : index
          %t97_19 = arith.addi %t97_17, %t97_18 : index
          %tb = nvgpu.device_async_copy %b[%t97_7], %sm[%t97_19], 8 {bypassL1} : memref<?xf16> to !smem
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
            %t112_0 = arith.constant 8192 : index
            %t112_1 = arith.muli %sc, %t112_0 : index
            %t112_2 = arith.constant 32 : index
            %t112_3 = arith.muli %r, %t112_2 : index
            %t112_4 = arith.addi %c, %t112_3 : index
            %t112_5 = arith.constant 24 : index
            %t112_6 = arith.constant 3 : index
            %t112_7 = arith.shrsi %t112_4, %t112_6 : index
            %t112_8 = arith.andi %t112_5, %t112_7 : index
            %t112_9 = arith.xori %t112_4, %t112_8 : index
            %t112_10 = arith.addi %t112_1, %t112_9 : index
            %x = nvgpu.ldmatrix %sm[%t112_10] {numTiles = 4 : i32, transpose = false} : !smem -> vector<4x2xf16>
            %fa2 = vector.insert %x, %fa1[%mi] : vector<4x2xf16> into vector<4x4x2xf16>
            affine.yield %fa2 : vector<4x4x2xf16>
          }
          %fb = affine.for %nj = 0 to 4 iter_args(%fb1 = %zb) -> (vector<8x2x2xf16>) {
            %n16 = arith.muli %nj, %c16 : index
            %n0 = arith.addi %wc, %n16 : index
            %nc = arith.addi %n0, %l8 : index
            %kr = arith.addi %k16, %l16 : index
            %t121_0 = arith.constant 8192 : index
            %t121_1 = arith.muli %sc, %t121_0 : index
            %t121_2 = arith.constant 128 : index
            %t121_3 = arith.muli %kr, %t121_2 : index
            %t121_4 = arith.addi %nc, %t121_3 : index
            %t121_5 = arith.constant 7 : index
            %t121_6 = arith.andi %t121_5, %kr : index
            %t121_7 = arith.constant 8 : index
            %t121_8 = arith.muli %t121_6, %t121_7 : index
            %t121_9 = arith.xori %t121_4, %t121_8 : index
            %t121_10 = arith.addi %t121_1, %t121_9 : index
            %t121_11 = arith.constant 4096 : index
            %t121_12 = arith.addi %t121_10, %t121_11 : index
            %y = nvgpu.ldmatrix %sm[%t121_12] {numTiles = 4 : i32, transpose = true} : !smem -> vector<4x2xf16>
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
            %t170_0 = arith.constant 128 : index
            %t170_1 = arith.muli %tn, %t170_0 : index
            %t170_2 = arith.addi %nc, %t170_1 : index
            %t170_3 = arith.muli %tm, %t170_0 : index
            %t170_4 = arith.addi %r, %t170_3 : index
            %t170_5 = arith.muli %N, %t170_4 : index
            %t170_6 = arith.addi %t170_2, %t170_5 : index
            vector.store %v, %cm[%t170_6] : memref<?xf32>, vector<2xf32>
          }
        }
      }
      gpu.return
    }
  }
}
