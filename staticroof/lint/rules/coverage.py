"""RF9xx: what the analysis could not do, as lint findings a project may silence.

`lint` reports a kernel it could count only approximately (RF901, one finding per reason) and a
kernel it could not model at all (RF902).  Drivers (`main`, setup functions) are not kernels and
are never reported, so a benchmark file's `main` does not fail a hook."""

from __future__ import annotations

from ...diagnostics import RULES as SR_RULES, Location
from ..context import FileContext
from ..registry import Finding, rule


@rule("RF901", "approximate", "the kernel's counts are not exact",
      what="""
A kernel whose W or Q staticroof could only bound: a data-dependent index (`x[idx[i]]`, SR101), a
data-dependent branch (SR104), a call to an unknown function (SR105), a statement it does not
model (SR123), and the other approximate diagnostics. One finding per reason, at its place, with
the SR code and its message.""",
      why="""
The other rules and every number in a report rest on the counts. An approximate count is an upper
bound or a guess about the data: a lint that passes on it proves less than it seems to.""",
      example="""
```c
void gather(int n, const int *idx, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[idx[i]];   /* RF901 (SR101): which x elements are read depends on idx */
}
```""",
      fix="""
Nothing to fix in a gather: it is data-dependent by design. Silence the line or the kernel:
```c
        y[i] = x[idx[i]];   // staticroof: ignore[RF901]
```
or the file in the configuration (`per-file-ignores`).""")
def approximate(ctx: FileContext):
    for k in ctx.kernels:
        if k.failed:
            continue
        for d in k.diagnostics:
            r = SR_RULES.get(d.code)
            if r is None or not r.approximate:
                continue
            yield Finding("RF901", f"`{k.name}` is approximate: {d.code} {d.message}", d.location or k.location,
                          k.name, (k.location,))


@rule("RF902", "not-modelled", "a kernel or file could not be analyzed",
      what="""
A kernel staticroof could not model at all (a syntax error in it, SR001; an unsupported construct,
SR002; counting too complex, SR116; past its time budget, SR126), or a file that could not be read
or preprocessed (SR003, SR005). Drivers such as `main` and setup functions are never reported.""",
      why="""
A kernel without counts has no place on the roofline: no other rule can check it.""",
      example="""
```c
#include "solver_params.h"   /* in include/, not beside the file: RF902 (SR005) for the whole file */

void relax(int n, const real_t *restrict b, real_t *restrict x)
{
    for (int i = 1; i < n - 1; i++)
        x[i] = OMEGA * (b[i] - x[i - 1] - x[i + 1]);
}
```""",
      fix="""
Pass the include folders (`-I include`, or `include = ["include"]` in the configuration) and the
macros (`-D`) the file needs. A kernel that cannot be modelled however it is built is silenced on
its line with `// staticroof: ignore[RF902]`.""")
def not_modelled(ctx: FileContext):
    for d in ctx.file_diagnostics:
        if d.severity == "error" and d.code not in ("SR003", "SR007"):  # usage errors: exit 2, not findings
            yield Finding("RF902", f"file not analyzed: {d.code} {d.message}", d.location or Location(ctx.path))
    for k in ctx.kernels:
        if not k.failed:
            continue
        why = next((d for d in k.diagnostics if d.severity == "error"), k.diagnostics[0] if k.diagnostics else None)
        text = f"{why.code} {why.message}" if why is not None else "no reason given"
        yield Finding("RF902", f"`{k.name}` could not be analyzed: {text}", (why.location if why else None)
                      or k.location, k.name, (k.location,))
