{% lego %}
sym K
layout A = Row(8, K)
{% end %}
/* forms.c.tpl - placeholders that share a temporary, in every statement
 * form: brace-less bodies of for, while, do, if/else and case; values
 * checked against plain arithmetic (K = 6); the macro AT shares nothing. */
#include <stdio.h>

static int bad;

static int ref(int i, int j)
{
	return 7 * (6 * i + j) / 5 + 7 * (6 * i + j) % 5;
}

static void check(int got, int i, int j)
{
	if (got != ref(i, j)) {
		printf("(%d, %d): %d, want %d\n", i, j, got, ref(i, j));
		bad = 1;
	}
}

#define AT(i, j) ({{ A[i, j] }})

int main(void)
{
	int x, j = 5, i;
	for (i = 0; i < 8; i++)
		check({{ 7 * A[i, j] / 5 + 7 * A[i, j] % 5 }}, i, j);
	for (i = 0; i < 8; i++) {
		if (i % 2)
			x = {{ 7 * A[i, j] / 5 + 7 * A[i, j] % 5 }};
		else
			x = {{ 7 * A[i, j - 1] / 5 + 7 * A[i, j - 1] % 5 }};
		check(x, i, i % 2 ? j : j - 1);
	}
	i = 8;
	while (i--)
		check({{ 7 * A[i, j] / 5 + 7 * A[i, j] % 5 }}, i, j);
	i = 0;
	do
		check({{ 7 * A[i, j] / 5 + 7 * A[i, j] % 5 }}, i, j);
	while (++i < 8);
	switch (j) {
	case 5:
		check({{ 7 * A[2, j] / 5 + 7 * A[2, j] % 5 }}, 2, j);
		break;
	default:
		bad = 1;
	}
	check(7 * AT(1, 2) / 5 + 7 * AT(1, 2) % 5, 1, 2);
	puts(bad ? "wrong" : "ok");
	return bad;
}
