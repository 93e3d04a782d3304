"""Drivers are not kernels: `main`, setup functions, timers.

A C file's `main` allocates, initializes, times and calls the kernels; reporting it as a kernel
(with every kernel it calls inlined) only repeats the kernels' numbers, and a construct the
analysis cannot model in it (a timer through a struct, a `printf` loop) must not fail the run.  A
function is a *driver* when it is `main`, or does no floating-point work and no loop over array
data (a function with no loop and no array access at all is one).  The pipeline does not report
drivers unless asked (`--all-functions`), and a driver's failure never changes the exit status.

The decision comes from the IR when the function was lowered, and from the syntax when it was not
(or when statements of it were dropped, SR123: the dropped part may hold the work).  From the
syntax the test is conservative, so a kernel is never hidden: arithmetic on anything not declared
as an integer counts as floating-point work.
"""

from __future__ import annotations

from pycparser import c_ast

from ... import costs
from ...ir import Guard, Loop, Stmt

_ARITH = ("+", "-", "*", "/")
_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


def find(res, tu) -> set:
    """Names of the driver functions among a translation unit's kernels and failures."""
    out = set()
    for kernel in res.kernels:
        fn = tu.funcs.get(kernel.name)
        dropped = any(d.code == "SR123" for d in kernel.diagnostics)
        if (kernel.name == "main" or fn is None or not tu.is_kernel(fn)
                or (not _ir_work(kernel.body) and not (dropped and _ast_work(fn, tu)))):
            out.add(kernel.name)
    for name, _loc, _d in res.failed:
        fn = tu.funcs.get(name)
        if name == "main" or (fn is not None and not _ast_work(fn, tu)):
            out.add(name)
    return out


def _ir_work(body, in_loop: bool = False) -> bool:
    for n in body:
        if isinstance(n, Stmt) and (n.flops or n.special or (in_loop and n.refs)):
            return True
        if isinstance(n, Loop) and _ir_work(n.body, True):
            return True
        if isinstance(n, Guard) and (_ir_work(n.then, in_loop) or _ir_work(n.orelse, in_loop)):
            return True
    return False


def _ast_work(fn: c_ast.FuncDef, tu) -> bool:
    ints = _integer_names(fn, tu)
    try:
        return _syntax_work(fn.body, ints, False)
    except RecursionError:  # an expression nested past Python's depth: taken as work (its lowering says more)
        return True


def _integer_names(fn, tu) -> set:
    """Names declared with an integer type (parameters, locals, file-scope variables)."""
    out = {name for name, (_decl, t) in tu.globals.items() if t.is_int}
    decls = []

    stack = [fn.body, fn.decl]  # a stack, not recursion: a body nested thousands deep is fine
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Decl) and n.name and not isinstance(n.type, c_ast.FuncDecl):
            decls.append(n)
        stack.extend(child for _, child in reversed(n.children()))
    for d in decls:
        t = tu.types.resolve(d.type)
        if t.is_int:
            out.add(d.name)
        else:
            out.discard(d.name)
    return out


def _is_int(node, ints: set) -> bool:
    if isinstance(node, c_ast.Constant):
        return node.type in ("int", "char", "unsigned int", "long int", "unsigned long int")
    if isinstance(node, c_ast.ID):
        return node.name in ints
    if isinstance(node, c_ast.UnaryOp):
        return node.op == "sizeof" or _is_int(node.expr, ints)
    if isinstance(node, c_ast.BinaryOp):
        return _is_int(node.left, ints) and _is_int(node.right, ints)
    return False


def _syntax_work(node, ints: set, in_loop: bool) -> bool:
    if (isinstance(node, c_ast.BinaryOp) and node.op in _ARITH
            and not (_is_int(node.left, ints) and _is_int(node.right, ints))):
        return True
    if isinstance(node, c_ast.Assignment) and node.op[:-1] in _ARITH and not (
            _is_int(node.lvalue, ints) and _is_int(node.rvalue, ints)):
        return True
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and \
            (costs.classify(node.name.name) or {}).get("kind") in ("special", "fma", "outputs"):
        return True
    if in_loop and isinstance(node, c_ast.ArrayRef):
        return True
    in_loop = in_loop or isinstance(node, _LOOPS)
    return any(_syntax_work(child, ints, in_loop) for _, child in node.children())
