"""The C trace: a kernel instrumented (every floating operation and memory access counted), compiled
with the host's C compiler and run at concrete sizes, as ground truth for the counts.

May import: `trace` (the shared records and budget), `frontends.c` and `frontends.common` (to read the
file as the analysis does). Imported by: the CUDA trace (which runs kernels as C) and the registry.
"""
