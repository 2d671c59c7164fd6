// {% lego %}
sym lambda, N
layout A = Row(8, N)
index k in [-4, 4)
// {% end %}
int f(int k) {
	x = {{ select(k != 0, 100 / k, 0) + select(k > 0, 100 / k, 7) }};
	y = k != 0 && {{ A[1, k + 4] % k }} < 2 ? {{ (1 << (k + 4)) >> k }} : {{ isqrt(k + 4) }};
	z = {{ (k == 0 || N / k > 1) + cdiv(N, k + 5) }};
}
/* {% lego %} */
let for = 3
/* {% end %} */
