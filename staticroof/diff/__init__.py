"""`staticroof diff` and baselines: how a change moved each kernel's W, Q, I and roofline position.

- `git`: changed files and a revision's files, read-only, through git without a shell;
- `run`: which files to analyze, both sides laid out and analyzed;
- `compare`: kernel against kernel, the changes in percent and the regression rules;
- `baseline`: the same comparison against a file written earlier;
- `command`: the click commands.
"""
