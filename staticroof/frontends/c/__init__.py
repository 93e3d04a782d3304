"""The C front end: a file preprocessed, parsed by pycparser and lowered to the loop IR (expressions,
statements, structs, `switch`, constant folding, cast views, output arguments, drivers such as `main`,
statement-level recovery).

May import: `frontends.common`, the IR, diagnostics and costs; never `cuda` (a cast view of a class
object asks the lowering's `class_sizeof`, which the CUDA lowering overrides). Imported by: the
registry (its `load`), the CUDA front end (which lowers the C its C++ rewrites produce, and reads
files with `load.read_and_lower`) and the C trace.
"""
