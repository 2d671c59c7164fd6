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
        %v = memref.load %in[{{ In[i, j] }}] : memref<?xf32>
        %acc2 = vector.insert %v, %acc[%k] : f32 into vector<4xf32>
        affine.yield %acc2 : vector<4xf32>
      }
      affine.for %k = 0 to 4 {
        %k8 = arith.muli %k, %c8 : index
        %i = arith.addi %i1, %k8 : index
        %v = vector.extract %vals[%k] : f32 from vector<4xf32>
        memref.store %v, %out[{{ Out[j, i] }}] : memref<?xf32>
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
        %v = memref.load %in[{{ In[i, j] }}] : memref<?xf32>
        memref.store %v, %tile[{{ Tile[r, c] }}] : memref<1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %i = arith.addi %bi, %c : index
        %j = arith.addi %bj, %r : index
        %v = memref.load %tile[{{ Tile[c, r] }}] : memref<1024xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[{{ Out[j, i] }}] : memref<?xf32>
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
        %v = memref.load %in[{{ In[i, j] }}] : memref<?xf32>
        memref.store %v, %tile[{{ Swz[r, c] }}] : memref<1024xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %i = arith.addi %bi, %c : index
        %j = arith.addi %bj, %r : index
        %v = memref.load %tile[{{ Swz[c, r] }}] : memref<1024xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[{{ Out[j, i] }}] : memref<?xf32>
      }
      gpu.return
    }
  }
}
