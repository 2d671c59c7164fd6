// Two placeholder lines of one function (tests/mlir/run.sh).
// {% lego %}
sym M, K, BM, BK
layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])
index tm in [0, M/BM)
index tk in [0, K/BK)
index r in [0, BM)
index c in [0, BK)
// {% end %}
func.func @f(%tm: index, %tk: index, %r: index, %c: index, %M: index, %K: index, %BM: index, %BK: index) -> (index, index) {
  %a = arith.addi {{ A[tm, tk, r, c] }}, {{ A[tm, tk, r, c] }} : index
  %b = arith.addi {{ A[tm, tk, r, c] }}, {{ A[tm, tk, r, 0] }} : index
  return %a, %b : index, index
}
