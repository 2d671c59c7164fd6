# Index expressions of the matmul specs, evaluated by test_triton.py with
# numpy standing in for tl.arange.
a = {{ A[pid_m, k, :, :] }}
b = {{ B[k, pid_n, :, :] }}
c = {{ C[pid_m, pid_n, :, :] }}
pm, pn = {{ P.inv(pid)[0] }}, {{ P.inv(pid)[1] }}
a_rows = {{ A[pid_m, k, 2:BM, :] }}
