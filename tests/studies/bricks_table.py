"""The brick layout L of bench/stencil/stencil.lego against the brick index
written here by hand (bricks row-major, points row-major inside a brick),
at every point of a 16^3 grid, for each brick shape the benchmark uses.
Usage: python3 bricks_table.py LEGO.  Prints PASS/FAIL lines.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = os.path.join(ROOT, "bench", "stencil", "stencil.lego")
N = 16
bad = 0
for bx, by, bz in [(1, 1, 1), (8, 8, 8), (4, 4, 4), (8, 8, 4), (16, 4, 4), (4, 4, 16), (16, 16, 16)]:
    out = subprocess.run([sys.argv[1], "table", SPEC, "L", "-D", f"N={N}", "-D", "R=1",
                          "-D", f"BX={bx}", "-D", f"BY={by}", "-D", f"BZ={bz}"],
                         capture_output=True, text=True)
    got = [int(v) for v in out.stdout.split()]
    want = []
    for x in range(N):
        for y in range(N):
            for z in range(N):
                brick = (x // bx * (N // by) + y // by) * (N // bz) + z // bz
                want.append(brick * bx * by * bz + (x % bx * by + y % by) * bz + z % bz)
    ok = out.returncode == 0 and got == want
    bad += not ok
    print(("PASS" if ok else "FAIL") + f" stencil layout L, bricks {bx}x{by}x{bz}, every point of {N}^3")
sys.exit(1 if bad else 0)
