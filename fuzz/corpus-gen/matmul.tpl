# {% lego %}
sym M, N, K, BM, BN, BK
assume M % BM == 0 && N % BN == 0 && K % BK == 0
layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])
layout B = OrderBy(Col(K, N)).TileBy([K/BK, N/BN], [BK, BN])
sym npm, npn, GM
assume npm % GM == 0
layout P = OrderBy(Col(max(npm/GM, 1), 1), Col(min(npm, GM), npn)).TileBy([npm, npn])
# {% end %}
pid_m, pid_n = {{ P.inv(pid)[0] }}, {{ P.inv(pid)[1] }}
a = load(a_ptr + {{ A[pid_m, k, :, :] }})
b = load(b_ptr + {{ B[k, pid_n, r = :, c = :] }}) * {{ A.stride(3) }}
x = 2 * {{ A[pid_m, k, 0, 1] }} - {{ A.size }}
