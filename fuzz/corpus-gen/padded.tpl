// {% lego %}
sym M, K, BM, BK
layout A = OrderBy(Row(M, K)).TileBy([cdiv(M, BM), cdiv(K, BK)], [BM, BK])
index i in [0, 64)
// {% end %}
for (int kk = 0; kk < 4; kk++) {
	y = {{ mask(A[i, kk, r = :, c = :]) }} ? a[{{ A[i, kk, r = :, c = :] }}] : 0;
	z = {{ A.inv(i)[2] }} == {{ A.inv(i)[3] }};
}
