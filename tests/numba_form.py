"""The Numba forms of the property tests' generated kernels (tests/test_properties.py): the same
loop nest as Python source, with @njit (from the C form) and @cuda.jit (from the CUDA form, its
launch in a host `main`), so that the Python front end and the Python trace are checked on the
same random kernels as the C ones.

The generator writes C in a fixed shape (one `for` header, `}`, or one statement per line, with
an optional `if (...)` guard), which this module translates line by line: a loop clamped to the
constant (`i < n && i < C`) becomes `range(n)` with an `if i < C:` guard around its body, a float
literal `2.0f` becomes `np.float32(2.0)`, and the byte buffer read through a float view becomes a
float32 array `raw`.
"""

from __future__ import annotations

import re

_FOR = re.compile(r"for \(int (\w) = (.+?); (.+?); (\w)(\+\+|--| \+= (\d+))\) \{$")
_TYPES = {"float": "float32[:]", "double": "float64[:]", "unsigned char": "float32[:]"}


def _header(line: str) -> tuple[str, str | None]:
    """(Python `for` line, guard or None) of one C loop header."""
    m = _FOR.match(line)
    assert m, line
    v, start, cond, _, inc, step = m.groups()
    if inc == "--":  # for (int v = S - 1; v >= 0; v--)
        assert cond == f"{v} >= 0", line
        return f"for {v} in range({start}, -1, -1):", None
    step = step or "1"
    guard = None
    if " && " in cond:  # v < S && v < C
        cond, guard = cond.split(" && ")
    op, bound = cond.split(" ", 2)[1:]
    bound = f"{bound} + 1" if op == "<=" else bound
    assert op in ("<", "<="), line
    if start == "0" and step == "1":
        return f"for {v} in range({bound}):", guard
    return f"for {v} in range({start}, {bound}, {step})" + ":", guard


def _statement(line: str) -> list[str]:
    """A C statement line (`[if (cond) ]target op expr;`) as Python lines."""
    line = line.strip().rstrip(";")
    line = line.replace("((const float *)raw)[", "raw[")
    line = re.sub(r"(\d+\.\d+)f\b", r"np.float32(\1)", line)
    if line.startswith("if ("):
        depth, k = 0, 3
        for k in range(3, len(line)):
            depth += line[k] == "("
            depth -= line[k] == ")"
            if depth == 0:
                break
        return [f"if {line[4:k]}:", "    " + line[k + 1:].strip()]
    return [line]


def body(lines: list[str], indent: int) -> list[str]:
    """The C body lines (loops and statements) as indented Python."""
    out: list[str] = []
    stack: list[int] = []  # per open loop: the extra indentation of its guard
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        pad = "    " * (indent + len(stack) + sum(stack))
        if line.startswith("for ("):
            header, guard = _header(line)
            out.append(pad + header)
            if guard:
                out.append(pad + "    " + f"if {guard}:")
            stack.append(1 if guard else 0)
        elif line == "}":
            stack.pop()
        else:
            out += [pad + s for s in _statement(line)]
    return out


def _params(signature: str) -> tuple[list[str], list[str]]:
    """(names, Numba types) of a generated C kernel's parameters."""
    names, types = [], []
    for p in signature.split(","):
        p = p.replace("__restrict__", "").replace("restrict", "").replace("const", "").replace("*", " ").split()
        names.append(p[-1])
        kind = " ".join(p[:-1])
        types.append("int64" if kind == "int" else _TYPES[kind])
    return names, types


def njit_form(c_src: str) -> str:
    """The C form (`#define C c`, `void k(int n, int m, ...) { nest }`) as an @njit kernel."""
    lines = c_src.splitlines()
    c = lines[0].split()[2]
    sig = lines[1][len("void k("):-1]
    names, types = _params(sig)
    nest = lines[3:lines.index("}", len(lines) - 2) if lines[-1] != "}" else -1]
    return "\n".join([
        "import numpy as np", "from numba import njit", "", f"C = {c}", "", "",
        f'@njit("void({", ".join(types)})")', f"def k({', '.join(names)}):", *body(nest, 1), "",
    ])


def cuda_form(cuda_src: str) -> str:
    """The CUDA form (a guard on the global index, a launch in `main`) as a @cuda.jit kernel."""
    lines = cuda_src.splitlines()
    consts = [f"{w[1]} = {w[2]}" for w in (line.split() for line in lines if line.startswith("#define"))]
    head = next(k for k, line in enumerate(lines) if line.startswith("__global__"))
    names, types = _params(lines[head][len("__global__ void k("):-1])
    guard = lines[head + 3].strip()[len("if ("):-len(") {")]
    guard = guard.replace(" && ", " and ").replace("threadIdx.x", "cuda.threadIdx.x")
    close = next(k for k in range(len(lines) - 1, head, -1) if lines[k].strip() == "}" and lines[k - 1].strip() == "}")
    rest = lines[head + 4:close - 1]
    launch = next(line for line in lines if "<<<" in line)
    grid, block = launch.split("<<<")[1].split(">>>")[0].rsplit(", ", 1) if "dim3" not in launch else (
        launch.split("<<<")[1].split(", dim3")[0], "(" + launch.split("dim3(")[1].split(")")[0] + ")")
    grid = grid.replace(" / ", " // ")
    arrays = [n for n, t in zip(names, types, strict=True) if t != "int64"]
    host = ["def main():", "    n = 5", "    m = 7"]
    host += [f"    {a} = np.zeros(64, dtype=np.{'float64' if t == 'float64[:]' else 'float32'})"
             for a, t in zip(names, types, strict=True) if a in arrays]
    host.append(f"    k[{grid}, {block}]({', '.join(names)})")
    return "\n".join([
        "import numpy as np", "from numba import cuda", "", *consts, "", "",
        f'@cuda.jit("void({", ".join(types)})")', f"def k({', '.join(names)}):",
        "    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x", f"    if {guard}:", *body(rest, 2), "", "",
        *host, "",
    ])
