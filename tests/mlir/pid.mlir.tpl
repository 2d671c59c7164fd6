{% lego %}
# The grouped program-id layout of the Triton tutorial (SEMANTICS.md).
sym npm, npn, GM
assume npm % GM == 0
layout P = OrderBy(Col(max(npm/GM, 1), 1), Col(min(npm, GM), npn)).TileBy([npm, npn])
{% end %}
// P's index functions written through a template (lego gen --target mlir),
// with the signatures of `lego mlir`, so tests/mlir/run.sh runs them.
func.func @P_apply(%i0: index, %i1: index, %GM: index, %npm: index, %npn: index) -> index {
  return {{ P[i0, i1] }} : index
}

func.func @P_inv(%i_flat: index, %GM: index, %npm: index, %npn: index) -> (index, index) {
  return {{ P.inv(i_flat)[0] }}, {{ P.inv(i_flat)[1] }} : index, index
}
