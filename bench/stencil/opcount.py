"""Operation counts of a stencil neighbour's index (bench/stencil/results.md).

Counts the arithmetic operators of index expressions printed in Python
syntax: every operator as printed ("raw"), and the distinct operations once
equal subexpressions are shared ("shared").  Three forms of the index of the
neighbour (x + a, y + b, z + c) in the 8 x 8 x 8 brick layout of an N^3 grid:
liblego's (`lego apply bench/stencil/stencil.lego L ...`, with N symbolic and
with N = 384), a correct form written here by hand, and the authors' linear
form (wrong at brick faces); then the ghost-zone layout Q (bricks padded by
R): liblego's full index of the neighbour, the same by hand, and what the
ghost kernel computes per neighbour (the neighbour's index minus the
point's, a constant of the unrolled loop: no operation at run time).
Usage: python3 bench/stencil/opcount.py [LEGO]   (default build/lego)
"""
import ast
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HAND = ("(((x + a) >> 3) * (N // 8) + ((y + b) >> 3)) * (N // 8) * 512"
        " + ((z + c) >> 3) * 512 + ((x + a) & 7) * 64 + ((y + b) & 7) * 8 + ((z + c) & 7)")
GHOST_HAND = ("((((x >> 3) * (N // 8) + (y >> 3)) * (N // 8) + (z >> 3)) * (8 + 2 * R)"
              " + (x & 7) + R + a) * (8 + 2 * R) * (8 + 2 * R) + ((y & 7) + R + b) * (8 + 2 * R)"
              " + (z & 7) + R + c")
AUTHORS = ("1179648*bx + 24576*by + 512*bz + 64*i + 64*i_diff + 8*j + 8*j_diff"
           " + k + k_diff")


def counts(text):
    tree = ast.parse(text, mode="eval").body
    raw = 0
    seen = set()

    def walk(node):
        nonlocal raw
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp)):
            raw += 1
            seen.add(ast.dump(node))
        for child in ast.iter_child_nodes(node):
            walk(child)

    walk(tree)
    return raw, len(seen)


def lego(exe, *defs, layout=("L", "x+a", "y+b", "z+c")):
    cmd = [exe, "apply", os.path.join(HERE, "stencil.lego"), *layout,
           "--lang", "python", "-D", "BX=8", "-D", "BY=8", "-D", "BZ=8", *defs]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()


def ghost(exe, point, *defs):
    """liblego's index of Q at the point (x, y, z) moved by point's offsets."""
    q = ("Q", "x/BX", "y/BY", "z/BZ", *point)
    return lego(exe, *defs, layout=q)


def main():
    exe = sys.argv[1] if len(sys.argv) > 1 else "build/lego"
    rows = [("liblego, N symbolic", lego(exe)),
            ("liblego, N = 384", lego(exe, "-D", "N=384")),
            ("hand-written, correct", HAND),
            ("authors' linear form (inexact)", AUTHORS),
            ("ghost zones: liblego, N, R symbolic",
             ghost(exe, ("x%BX+R+a", "y%BY+R+b", "z%BZ+R+c"))),
            ("ghost zones: liblego, N = 384, R = 1",
             ghost(exe, ("x%BX+R+a", "y%BY+R+b", "z%BZ+R+c"), "-D", "N=384", "-D", "R=1")),
            ("ghost zones: hand-written", GHOST_HAND)]
    # The ghost kernel's per-neighbour term, Q[0, 0, 0, R + a, R + b, R + c] -
    # Q[0, 0, 0, R, R, R] as the template writes it; a, b, c are constants.
    with tempfile.TemporaryDirectory() as tmp:
        tpl = os.path.join(tmp, "per.tpl")
        with open(tpl, "w") as f:
            f.write("{{ Q[0, 0, 0, R + a, R + b, R + c] - Q[0, 0, 0, R, R, R] }}\n")
        cmd = [exe, "gen", os.path.join(HERE, "stencil.lego"), tpl, "--target", "cuda",
               "-D", "BX=8", "-D", "BY=8", "-D", "BZ=8"]
        per = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()
    rows.append(("ghost kernel, per neighbour (a, b, c, R constants)", per.replace("LL", "")))
    print("| form | raw ops | distinct ops | expression |")
    print("|---|---|---|---|")
    for name, text in rows:
        raw, shared = counts(text)
        print(f"| {name} | {raw} | {shared} | `{text}` |")


if __name__ == "__main__":
    main()
