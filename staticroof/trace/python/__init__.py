"""The Python trace: a Numba kernel rewritten to plain Python over a counting runtime (numbers and
arrays that count their operations and accesses) and run at concrete sizes; NumPy whole-array
expressions, stencils and Numba CUDA launches included.

May import: `trace` and `frontends.python`. Imported by: the registry (the Python front end's executor).
"""
