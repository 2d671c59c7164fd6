"""Every index of the paper's matmul kernel derived from Python, as one
whole process: import lego, build the layouts, fill the kernel's
placeholders (the text of matmul_kernel.py's function) for the variant
given (default ab).  What the authors' SymPy generator does in ~7 s.
Prints the filled kernel with --print."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lego.triton  # noqa: E402
from matmul_layouts import layouts  # noqa: E402

path = os.path.join(HERE, "matmul_kernel.py")
with open(path) as f:
    text = f.read()
start = text.index("def matmul_kernel")
body = text[start:text.index("\n\n\n", start)] + "\n"
variant = next((a for a in sys.argv[1:] if not a.startswith("-")), "ab")
out = lego.triton.fill(body, layouts(variant), path,
                       first_line=text.count("\n", 0, start) + 1)
assert "{{" not in out
if "--print" in sys.argv:
    print(out.lstrip("\n"), end="")
