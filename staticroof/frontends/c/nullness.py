"""A pointer compared with null: a run-time flag, counted for the pointer that is not null.

llm.c's layernorm stores its statistics only for a caller that wants them: `if (mean != nullptr)
__stcs(mean + idx, m);`.  No size decides the branch, and the kernel does not state the pointer's
value; but it is no data either: it is a flag the caller sets once per launch, like an integer
parameter tested with `if (flag)`.  Such a parameter is a size, and every size is at least 1, so
`if (flag)` is counted taken; a pointer to an array the kernel reads or writes is, in the same way,
counted as pointing to that array (not null).  The assumption is named in a note (SR154) and the
result stays exact under it: `p != 0` and `p` are true, `p == 0` and `!p` false.
"""

from __future__ import annotations

import sympy
from pycparser import c_ast


def is_null(node) -> bool:
    """`0`, `NULL` (`((void *)0)`) or `nullptr` (rewritten `0` by the CUDA front end)."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.ID):
        return node.name in ("NULL", "nullptr")
    return isinstance(node, c_ast.Constant) and node.type == "int" and node.value.rstrip("uUlL") in ("0", "0x0")


def pointer_test(low, node):
    """The truth value of `node` when it tests a pointer variable to a known array against null
    (`p != nullptr`, `p == NULL`, `p`): counted not null (SR154); else None."""
    if isinstance(node, c_ast.BinaryOp) and node.op in ("==", "!="):
        ptr = node.left if is_null(node.right) else node.right if is_null(node.left) else None
        if ptr is None or not _names_array(low, ptr, node):
            return None
        return sympy.true if node.op == "!=" else sympy.false
    return sympy.true if _names_array(low, node, node) else None


def _names_array(low, ptr, node) -> bool:
    """Whether `ptr` names a pointer variable to a known array (its value is read from the
    variable alone: no load, no work)."""
    if not isinstance(ptr, c_ast.ID):
        return False
    var = low.lookup(ptr.name)
    if var is None or var.ctype.kind != "ptr" or var.array is None:
        return False
    low.diag("SR154", f"`{ptr.name}` compared with null: counted as not null (a pointer the caller passes, as "
             "an integer flag is counted nonzero)", node)
    return True
