"""The C front end: a file preprocessed, parsed by pycparser and lowered to the loop IR (expressions,
statements, structs, `switch`, constant folding, cast views, output arguments, drivers such as `main`,
statement-level recovery).

May import: `frontends.common`, the IR, diagnostics and costs. Imported by: the registry (its `load`),
the CUDA front end (which lowers the C its C++ rewrites produce) and the C trace.
"""
