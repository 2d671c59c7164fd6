// A transpose through two layouts: out[Out(i, j)] = in[In(i, j)], one
// thread per element.  The index functions @In_apply and @Out_apply come
// from `lego mlir examples/mlir/transpose.lego In|Out`, spliced in at the
// LEGO-FUNCTIONS line by examples/mlir/make.sh (giving transpose.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels {
// LEGO-FUNCTIONS
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
