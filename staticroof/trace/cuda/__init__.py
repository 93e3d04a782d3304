"""The CUDA trace: a `.cu` kernel's C++ rewritten to C, its threads run as loops by the C trace's
instrumented program (no GPU needed).

May import: `trace`, `trace.c`, `frontends.cuda`, `frontends.c` and `frontends.common`. Imported by: the
registry (the CUDA front end's executor).
"""
