/* {% lego %}
sym TILE
index r in [0, 32)
index c in [0, 32)
layout Swz = GenP([32, 32], swizzle(5, 0, 5))
layout W = GenP([65, 65], antidiag)
{% end %} */
tile[{{ Swz[r, c] }}] = in[{{ W[r, c] }}];
v = {{ W.inv(r * 65 + c)[0] }} << 2;
