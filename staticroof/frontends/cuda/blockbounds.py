"""The block size a kernel states it needs, checked against the launch it is counted under (SR155).

A kernel says what block it was written for in two ways a launch can contradict: `__launch_bounds__(N)`
(at most N threads per block: a larger launch fails) and an `assert` on `blockDim` (`assert(blockDim.x
== 32)`, `assert(blockDim.x <= 1024)`, `assert(blockDim.x % 32 == 0)`).  A `--block` for every kernel
of a file, or a launch site's, that breaks one counts a launch the kernel cannot run: the counts are
approximate and the warning names both."""

from __future__ import annotations

from pycparser import c_ast

from ..common.tokens import integer_literal

_OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<=": lambda a, b: a <= b, "<": lambda a, b: a < b,
        ">=": lambda a, b: a >= b, ">": lambda a, b: a > b}


def launch_bound(header: list) -> int | None:
    """N of `__launch_bounds__(N[, ...])` among a kernel's header tokens, when N is a number."""
    texts = [t.text for t in header]
    for i, x in enumerate(texts):
        if x == "__launch_bounds__" and i + 2 < len(texts) and texts[i + 1] == "(":
            return integer_literal(texts[i + 2]) if i + 3 < len(texts) and texts[i + 3] in (")", ",") else None
    return None


def _dim(node) -> str | None:
    """`x` for `blockDim.x`."""
    if isinstance(node, c_ast.StructRef) and isinstance(node.name, c_ast.ID) and node.name.name == "blockDim":
        return node.field.name
    return None


def asserted(fn) -> list:
    """(text, check) for each `assert(blockDim.D OP K)` or `assert(blockDim.D % K == 0)` in the kernel,
    `check(block: dict dim -> int)` True when the block satisfies it."""
    out: list = []

    def condition(n):
        """The asserted condition: `assert(c)` undeclared, or the stub's `(c) ? (void)0 : __sr_assert_fail(...)`."""
        if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name == "assert" \
                and n.args is not None and len(n.args.exprs) == 1:
            return n.args.exprs[0]
        if isinstance(n, c_ast.TernaryOp) and isinstance(n.iffalse, c_ast.FuncCall) \
                and isinstance(n.iffalse.name, c_ast.ID) and n.iffalse.name.name == "__sr_assert_fail":
            return n.cond
        return None

    def visit(n):
        c = condition(n)
        if c is not None:
            if isinstance(c, c_ast.BinaryOp) and c.op in _OPS and isinstance(c.right, c_ast.Constant):
                k = integer_literal(c.right.value)
                d = _dim(c.left)
                if k is not None and d is not None:
                    out.append((f"blockDim.{d} {c.op} {k}", lambda b, d=d, op=c.op, k=k: _OPS[op](b[d], k)))
                elif (k == 0 and c.op == "==" and isinstance(c.left, c_ast.BinaryOp) and c.left.op == "%"
                      and isinstance(c.left.right, c_ast.Constant) and _dim(c.left.left)):
                    m, d = integer_literal(c.left.right.value), _dim(c.left.left)
                    if m:
                        out.append((f"blockDim.{d} % {m} == 0", lambda b, d=d, m=m: b[d] % m == 0))
        for _, child in n.children():
            visit(child)

    visit(fn)
    return out


def contradiction(header: list, fn, block: tuple) -> str | None:
    """What of the kernel's own statements the block (x, y, z; None unknown) breaks, or None."""
    if not block or any(v is None for v in block):
        return None
    sizes = dict(zip("xyz", block, strict=True))
    broken = []
    bound = launch_bound(header)
    total = block[0] * block[1] * block[2]
    if bound is not None and total > bound:
        broken.append(f"`__launch_bounds__({bound})` allows at most {bound} threads per block, the launch has {total}")
    for text, holds in asserted(fn):
        if not holds(sizes):
            broken.append(f"`assert({text})` fails for block {' x '.join(map(str, block))}")
    return "; ".join(broken) or None
