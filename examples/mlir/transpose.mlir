// A transpose through two layouts: out[Out(i, j)] = in[In(i, j)], one
// thread per element.  The index functions @In_apply and @Out_apply come
// from `lego mlir examples/mlir/transpose.lego In|Out`, spliced in at the
// LEGO-FUNCTIONS line by examples/mlir/make.sh (giving transpose.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Index functions of layout In (liblego): logical -> physical and back.
    func.func @In_apply(%i0: index, %i1: index, %N: index) -> index {
      %t0 = arith.muli %N, %i0 : index
      %t1 = arith.addi %i1, %t0 : index
      return %t1 : index
    }

    func.func @In_inv(%i_flat: index, %N: index) -> (index, index) {
      %t0 = arith.divui %i_flat, %N : index
      %t1 = arith.remui %i_flat, %N : index
      return %t0, %t1 : index, index
    }

    // Index functions of layout Out (liblego): logical -> physical and back.
    func.func @Out_apply(%i0: index, %i1: index, %M: index) -> index {
      %t0 = arith.muli %M, %i1 : index
      %t1 = arith.addi %i0, %t0 : index
      return %t1 : index
    }

    func.func @Out_inv(%i_flat: index, %M: index) -> (index, index) {
      %t0 = arith.remui %i_flat, %M : index
      %t1 = arith.divui %i_flat, %M : index
      return %t0, %t1 : index, index
    }

    gpu.func @transpose(%in: memref<?xf32>, %out: memref<?xf32>,
                        %M: index, %N: index) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %row0 = arith.muli %by, %bdy : index
      %i = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %bdx : index
      %j = arith.addi %col0, %tx : index
      %i_ok = arith.cmpi ult, %i, %M : index
      %j_ok = arith.cmpi ult, %j, %N : index
      %ok = arith.andi %i_ok, %j_ok : i1
      scf.if %ok {
        %src = func.call @In_apply(%i, %j, %N)
          : (index, index, index) -> index
        %dst = func.call @Out_apply(%i, %j, %M)
          : (index, index, index) -> index
        %v = memref.load %in[%src] : memref<?xf32>
        memref.store %v, %out[%dst] : memref<?xf32>
      }
      gpu.return
    }
  }
}
