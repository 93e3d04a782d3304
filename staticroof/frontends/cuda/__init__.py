"""The CUDA front end: the C++ layer that real `.cu` files need, rewritten to C on tokens (classes,
templates, lambdas, overloads, cooperative groups, tensor cores, textures) and then lowered by the C
front end; launch sites in host code (`<<<grid, block>>>`) evaluated into launch configurations.

May import: `frontends.c`, `frontends.common`, the IR and its register rule (`staticroof.registers`:
the grid-stride hoist asks it), diagnostics and costs. Imported by: the registry and the CUDA trace.
"""
