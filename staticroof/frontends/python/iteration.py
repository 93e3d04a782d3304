"""`for` loops over arrays, as Numba compiles them: `for v in x` walks the first axis (x[0], x[1], ...),
`enumerate(x)` adds the index, `zip(x, y)` walks both up to the shorter one.  Each is rewritten into
the `range` loop it is (`for k in range(x.shape[0]): v = x[k]`), so the element reads are counted as
any subscript is; the new nodes take the loop's position, the body keeps its own."""

from __future__ import annotations

import libcst as cst

from .kernels import qualified


def as_range_loop(node: cst.For, names: dict, positions: dict) -> cst.For | None:
    """The `range` loop that `node` is, or None when it is no iteration over arrays this knows."""
    targets, arrays, index = _unpack(node.target, node.iter, names)
    if arrays is None:
        return None
    code = cst.Module([]).code_for_node
    counter = index or f"__sr_it{positions[node].start.line}_{positions[node].start.column}" \
        if node in positions else index or "__sr_it"
    shapes = [f"({code(a)}).shape[0]" for a in arrays]
    stop = shapes[0] if len(shapes) == 1 else f"min({', '.join(shapes)})"
    head = cst.parse_statement(f"for {counter} in range({stop}):\n    pass\n")
    assert isinstance(head, cst.For)
    loads = [cst.parse_statement(f"{t} = ({code(a)})[{counter}]\n") for t, a in zip(targets, arrays, strict=True)]
    body = node.body.with_changes(body=[*loads, *node.body.body]) if isinstance(node.body, cst.IndentedBlock) \
        else cst.IndentedBlock(body=[*loads, cst.SimpleStatementLine(
            [x for x in node.body.body if isinstance(x, cst.BaseSmallStatement)])])
    out = head.with_changes(body=body, orelse=node.orelse)
    if node in positions:
        where = positions[node]

        class Place(cst.CSTVisitor):
            def on_visit(self, n) -> bool:
                positions.setdefault(n, where)
                return True

        out.visit(Place())
    return out


def _unpack(target, it, names: dict):
    """(element target names, the arrays they walk, the index name or None), or (.., None, ..)."""
    call = qualified(it.func, names) if isinstance(it, cst.Call) and isinstance(it.func, (cst.Name, cst.Attribute)) \
        else ""
    if call == "enumerate" and isinstance(it, cst.Call) and len(it.args) == 1 and isinstance(target, cst.Tuple) \
            and len(target.elements) == 2 and isinstance(target.elements[0].value, cst.Name):
        inner, arrays, _ = _unpack(target.elements[1].value, it.args[0].value, names)
        return inner, arrays, cst.ensure_type(target.elements[0].value, cst.Name).value
    if call == "zip" and isinstance(it, cst.Call) and isinstance(target, cst.Tuple) \
            and len(target.elements) == len(it.args) and all(isinstance(e.value, cst.Name) for e in target.elements):
        return [cst.ensure_type(e.value, cst.Name).value for e in target.elements], [a.value for a in it.args], None
    if call in ("range", "numba.prange", "prange", "enumerate", "zip"):
        return [], None, None
    if isinstance(target, cst.Name) and isinstance(it, (cst.Name, cst.Attribute, cst.Subscript)):
        return [target.value], [it], None
    return [], None, None
