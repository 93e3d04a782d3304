"""What every front end shares: the lowering helpers (the statement being assembled, affinity checks,
`Unsupported`), comparisons of sympy values, `staticroof:` comment directives, the launch
configuration, and the C/C++ preprocessor and tokenizer that the C and CUDA front ends read files with
(and the names its stub headers test, `stubs.py`, which the CLI asks about a `-D`).

May import: the IR, diagnostics, costs, inputs and resources; never a language package (`c`, `cuda`,
`python`). Imported by: every language package, and by cache keys, lint and diff (comments, includes).
"""
