{% lego %}
sym K
layout A = Row(8, K)
{% end %}
# forms.py.tpl - Triton's target (run as plain Python): placeholders that
# share a temporary in the bodies of if/else, for and while, and after a
# comment line; values checked against plain arithmetic (K = 6).


def ref(i, j):
    return 7 * (6 * i + j) // 5 + 7 * (6 * i + j) % 5


bad = 0
j = 5
for i in range(8):
    if i % 2:
        # a comment between the header and the body
        x = {{ 7 * A[i, j] / 5 + 7 * A[i, j] % 5 }}
    else:
        x = {{ 7 * A[i, j - 1] / 5 + 7 * A[i, j - 1] % 5 }} - ref(i, j - 1) + ref(i, j)
    bad |= x != ref(i, j)
i = 8
while i > 0:
    i -= 1
    bad |= {{ 7 * A[i, j] / 5 + 7 * A[i, j] % 5 }} != ref(i, j)
print("wrong" if bad else "ok")
