# {% lego %}
sym M, N
layout X = Col(M, N)
index r in [0, M)
index i in [0, M * N)
# {% end %}
def f(x_ptr, M, N: tl.constexpr, r):
    v = tl.load(x_ptr + {{ X[r, :] }}) + {{ X[r, :] }} * 0
    for i in range({{ X.size }}):
        w = {{ X[i / N, i % N] }}
