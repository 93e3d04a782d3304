"""The Python/Numba front end: `.py` files parsed with libcst (never imported or run); which functions
are kernels, their Numba types, statements and expressions, whole-array rules, stencils and Numba
CUDA (thread indices, launch sites) lowered to the loop IR.

May import: `frontends.common` (never `c` or `cuda`), the IR, diagnostics and costs; libcst only when
a file loads. Imported by: the registry (its `load`, and `mathnames` for the cost aliases) and the
Python trace.
"""
