"""libcst helpers on a Python function's syntax that the lowering, the Numba CUDA launch sites and the
Python trace all read (here, apart from the lowering, so that neither needs the other)."""

from __future__ import annotations

import libcst as cst


def statement_list(block) -> list:
    """A block's statements as a list (a one-line suite `if c: x = 1` gives one statement line)."""
    if isinstance(block, cst.IndentedBlock):
        return list(block.body)
    if isinstance(block, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine(block.body)]
    return list(getattr(block, "body", []))


def names_of(target, out: set):
    """Add the names an assignment target binds (`a`, `a, (b, c)`) to `out`."""
    if isinstance(target, cst.Name):
        out.add(target.value)
    elif isinstance(target, (cst.Tuple, cst.List)):
        for e in target.elements:
            names_of(e.value, out)


def shape_names(fn: cst.FunctionDef) -> dict:
    """(array, dim) -> the name a function gives a shape: `n = x.shape[0]`, `n = len(x)`,
    `m, k = A.shape` (a name assigned once, anywhere in the function)."""
    counts: dict = {}
    found: dict = {}

    class Visitor(cst.CSTVisitor):
        def visit_Assign(self, s) -> None:
            for t in s.targets:
                for n in _target_names(t.target):
                    counts[n] = counts.get(n, 0) + 1
            if len(s.targets) != 1:
                return
            target, value = s.targets[0].target, s.value
            if isinstance(target, cst.Name):
                src = _shape_ref(value)
                if src is not None:
                    found[src] = target.value
            elif isinstance(target, cst.Tuple) and isinstance(value, cst.Attribute) and value.attr.value == "shape" \
                    and isinstance(value.value, cst.Name):
                for k, e in enumerate(target.elements):
                    if isinstance(e.value, cst.Name):
                        found[(value.value.value, k)] = e.value.value

        def visit_AugAssign(self, s) -> None:
            for n in _target_names(s.target):
                counts[n] = counts.get(n, 0) + 2

    fn.visit(Visitor())
    return {k: v for k, v in found.items() if counts.get(v, 0) == 1}


def _target_names(t) -> list:
    out: set = set()
    names_of(t, out)
    return list(out)


def _shape_ref(v):
    if isinstance(v, cst.Subscript) and isinstance(v.value, cst.Attribute) and v.value.attr.value == "shape" \
            and isinstance(v.value.value, cst.Name) and len(v.slice) == 1 and isinstance(v.slice[0].slice, cst.Index) \
            and isinstance(v.slice[0].slice.value, cst.Integer):
        return (v.value.value.value, int(v.slice[0].slice.value.value))
    if isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and v.func.value == "len" and len(v.args) == 1 \
            and isinstance(v.args[0].value, cst.Name):
        return (v.args[0].value.value, 0)
    return None
