// Transposes out (N x M) = in^T (in M x N), float, both row-major, as one
// MLIR module: the kernels of bench/cuda/transpose_bench.cu (naive, through
// a 32 x 32 shared tile, through an XOR-swizzled shared tile), written with
// the gpu, memref, scf, affine, vector and arith dialects.  Every address is a layout of
// bench/mlir/transpose.lego (those of the CUDA kernels), filled in by liblego:
//   lego gen bench/mlir/transpose.lego bench/mlir/transpose.mlir.tpl \
//       --target mlir -D TILE=32 -o bench/mlir/transpose.mlir
// Blocks of 32 x 8 threads, grid (N / 32, M / 32): each thread moves 4
// elements, rows ty, ty + 8, ty + 16, ty + 24 of its tile (as in CUDA).
module attributes {gpu.container_module} {
  gpu.module @transpose {
    gpu.func @transpose_naive(%in: memref<?xf32>, %out: memref<?xf32>,
                              %M: index, %N: index) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %i0 = arith.muli %by, %c32 : index
      %i1 = arith.addi %i0, %ty : index
      %j0 = arith.muli %bx, %c32 : index
      %j = arith.addi %j0, %tx : index
      // All four loads first, then the stores: for LLVM the two memrefs
      // may alias (their descriptors carry no noalias), so a load written
      // after a store would wait for it; CUDA gets this order from
      // __restrict__.  (The affine loops are unrolled by lower.sh.)
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %vals = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %k8 = arith.muli %k, %c8 : index
        %i = arith.addi %i1, %k8 : index
        %t33_0 = arith.muli %N, %i : index
        %t33_1 = arith.addi %j, %t33_0 : index
        %v = memref.load %in[%t33_1] : memref<?xf32>
        %acc2 = vector.insert %v, %acc[%k] : f32 into vector<4xf32>
        affine.yield %acc2 : vector<4xf32>
      }
      affine.for %k = 0 to 4 {
        %k8 = arith.muli %k, %c8 : index
        %i = arith.addi %i1, %k8 : index
        %v = vector.extract %vals[%k] : f32 from vector<4xf32>
        %t41_0 = arith.muli %M, %j : index
        %t41_1 = arith.addi %i, %t41_0 : index
        memref.store %v, %out[%t41_1] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @transpose_tile(%in: memref<?xf32>, %out: memref<?xf32>,
                             %M: index, %N: index)
        workgroup(%tile: memref<1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c = gpu.thread_id x
      %ty = gpu.thread_id y
      %bi = arith.muli %by, %c32 : index
      %bj = arith.muli %bx, %c32 : index
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %i = arith.addi %bi, %r : index
        %j = arith.addi %bj, %c : index
        %t63_0 = arith.muli %N, %i : index
        %t63_1 = arith.addi %j, %t63_0 : index
        %v = memref.load %in[%t63_1] : memref<?xf32>
        %t63_2 = arith.constant 32 : index
        %t63_3 = arith.muli %r, %t63_2 : index
        %t63_4 = arith.addi %c, %t63_3 : index
        memref.store %v, %tile[%t63_4] : memref<1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %i = arith.addi %bi, %c : index
        %j = arith.addi %bj, %r : index
        %t71_0 = arith.constant 32 : index
        %t71_1 = arith.muli %c, %t71_0 : index
        %t71_2 = arith.addi %r, %t71_1 : index
        %v = memref.load %tile[%t71_2] : memref<1024xf32, #gpu.address_space<workgroup>>
        %t71_3 = arith.muli %M, %j : index
        %t71_4 = arith.addi %i, %t71_3 : index
        memref.store %v, %out[%t71_4] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @transpose_swizzle(%in: memref<?xf32>, %out: memref<?xf32>,
                                %M: index, %N: index)
        workgroup(%tile: memref<1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c = gpu.thread_id x
      %ty = gpu.thread_id y
      %bi = arith.muli %by, %c32 : index
      %bj = arith.muli %bx, %c32 : index
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %i = arith.addi %bi, %r : index
        %j = arith.addi %bj, %c : index
        %t94_0 = arith.muli %N, %i : index
        %t94_1 = arith.addi %j, %t94_0 : index
        %v = memref.load %in[%t94_1] : memref<?xf32>
        %t94_2 = arith.constant 32 : index
        %t94_3 = arith.muli %r, %t94_2 : index
        %t94_4 = arith.addi %c, %t94_3 : index
        %t94_5 = arith.xori %r, %t94_4 : index
        memref.store %v, %tile[%t94_5] : memref<1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %i = arith.addi %bi, %c : index
        %j = arith.addi %bj, %r : index
        %t102_0 = arith.constant 32 : index
        %t102_1 = arith.muli %c, %t102_0 : index
        %t102_2 = arith.addi %r, %t102_1 : index
        %t102_3 = arith.xori %c, %t102_2 : index
        %v = memref.load %tile[%t102_3] : memref<1024xf32, #gpu.address_space<workgroup>>
        %t102_4 = arith.muli %M, %j : index
        %t102_5 = arith.addi %i, %t102_4 : index
        memref.store %v, %out[%t102_5] : memref<?xf32>
      }
      gpu.return
    }
  }
}
