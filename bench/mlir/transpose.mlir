// Transposes out (N x M) = in^T (in M x N), float, both row-major, as one
// MLIR module: the kernels of bench/cuda/transpose_bench.cu (naive, through
// a 32 x 32 shared tile, through an XOR-swizzled shared tile), written with
// the gpu, memref, scf and arith dialects.  Every address is a layout of
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
      scf.for %k = %c0 to %c32 step %c8 {
        %i = arith.addi %i1, %k : index
        %t27_0 = arith.muli %N, %i : index
        %t27_1 = arith.addi %j, %t27_0 : index
        %v = memref.load %in[%t27_1] : memref<?xf32>
        %t28_0 = arith.muli %M, %j : index
        %t28_1 = arith.addi %i, %t28_0 : index
        memref.store %v, %out[%t28_1] : memref<?xf32>
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
        %t50_0 = arith.muli %N, %i : index
        %t50_1 = arith.addi %j, %t50_0 : index
        %v = memref.load %in[%t50_1] : memref<?xf32>
        %t51_0 = arith.constant 32 : index
        %t51_1 = arith.muli %r, %t51_0 : index
        %t51_2 = arith.addi %c, %t51_1 : index
        memref.store %v, %tile[%t51_2] : memref<1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %i = arith.addi %bi, %c : index
        %j = arith.addi %bj, %r : index
        %t58_0 = arith.constant 32 : index
        %t58_1 = arith.muli %c, %t58_0 : index
        %t58_2 = arith.addi %r, %t58_1 : index
        %v = memref.load %tile[%t58_2] : memref<1024xf32, #gpu.address_space<workgroup>>
        %t59_0 = arith.muli %M, %j : index
        %t59_1 = arith.addi %i, %t59_0 : index
        memref.store %v, %out[%t59_1] : memref<?xf32>
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
        %t81_0 = arith.muli %N, %i : index
        %t81_1 = arith.addi %j, %t81_0 : index
        %v = memref.load %in[%t81_1] : memref<?xf32>
        %t82_0 = arith.constant 32 : index
        %t82_1 = arith.muli %r, %t82_0 : index
        %t82_2 = arith.addi %c, %t82_1 : index
        %t82_3 = arith.constant 31 : index
        %t82_4 = arith.constant 5 : index
        %t82_5 = arith.shrsi %t82_2, %t82_4 : index
        %t82_6 = arith.andi %t82_3, %t82_5 : index
        %t82_7 = arith.xori %t82_2, %t82_6 : index
        memref.store %v, %tile[%t82_7] : memref<1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %i = arith.addi %bi, %c : index
        %j = arith.addi %bj, %r : index
        %t89_0 = arith.constant 32 : index
        %t89_1 = arith.muli %c, %t89_0 : index
        %t89_2 = arith.addi %r, %t89_1 : index
        %t89_3 = arith.constant 31 : index
        %t89_4 = arith.constant 5 : index
        %t89_5 = arith.shrsi %t89_2, %t89_4 : index
        %t89_6 = arith.andi %t89_3, %t89_5 : index
        %t89_7 = arith.xori %t89_2, %t89_6 : index
        %v = memref.load %tile[%t89_7] : memref<1024xf32, #gpu.address_space<workgroup>>
        %t90_0 = arith.muli %M, %j : index
        %t90_1 = arith.addi %i, %t90_0 : index
        memref.store %v, %out[%t90_1] : memref<?xf32>
      }
      gpu.return
    }
  }
}
