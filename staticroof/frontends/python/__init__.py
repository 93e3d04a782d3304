"""The Python/Numba front end: `.py` files parsed with libcst (never imported or run); which functions
are kernels, their Numba types, statements and expressions, whole-array rules, stencils and Numba
CUDA (thread indices, launch sites) lowered to the loop IR.

May import: `frontends.common`, the IR, diagnostics and costs; libcst only when a file loads. Imported
by: the registry (its `FRONTEND`) and the Python trace.
"""
