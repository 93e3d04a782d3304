"""RF101: an operation of a lower-precision kernel promoted to fp64.

The front end already knows which operations C's usual arithmetic conversions promote, and
folds compile-time constant subexpressions first (`sqrtf(2.0f / M_PI)` costs nothing, as the
compiler evaluates it): each promotion it saw is an SR107 note on the kernel, with the place.
This rule turns each into a finding with what it costs on the configured machine."""

from __future__ import annotations

from ..context import FileContext, number
from ..registry import Finding, rule


def _fp64_penalty(machine, unit) -> str:
    if machine is None:
        return "on GPUs the fp64 roof is often 2x to 64x below fp32's"
    key32, key64 = ("tf32_tensor", "fp64_tensor") if unit == "tensor" else ("fp32", "fp64")
    p32, p64 = machine.peaks.get(key32), machine.peaks.get(key64)
    if not p32 or not p64:
        return f"{machine.name} lists no {key64} roof beside {key32}"
    ratio = p32 / p64
    shown = number(ratio) if ratio == int(ratio) else f"{ratio:.3g}"
    return f"on {machine.name} the fp64 roof is {shown}x below fp32's"


@rule("RF101", "fp64-promotion", "operation promoted to fp64 in a lower-precision kernel",
      what="""
An arithmetic operation or math call in a kernel that works in `float` (or half precision) that C's
usual arithmetic conversions carry out in `double`: an unsuffixed literal (`2.0 * x[i]`), a `double`
variable, or a double math function on a float argument (`sqrt(x[i])` instead of `sqrtf`). Constant
subexpressions the compiler folds (`sqrtf(2.0f / M_PI)`, `1.0 / 3.0`) are never reported: they cost
nothing at run time. The message names the operation and the share of the kernel's W that runs in fp64.""",
      why="""
The roof a kernel is measured against is its dominant precision's. Every promoted operation runs on
the fp64 units, whose peak is 2x lower than fp32 on data-centre GPUs and 32x to 64x lower on
consumer GPUs; a kernel that is compute-bound at fp32 can be several times slower than its roof
allows, and the conversions add instructions too.""",
      example="""
```c
void scale(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 2.0 * x[i] + sqrt(x[i]);   /* RF101 twice: `*` on a double literal, sqrt of a float */
}
```""",
      fix="""
```c
void scale(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 2.0f * x[i] + sqrtf(x[i]);
}
```
Suffix float literals with `f` and call the `f` math functions (`sqrtf`, `expf`); in CUDA C++ the
overloads of `sqrt` for `float` do this already.""")
def check(ctx: FileContext):
    for k in ctx.analyzed():
        promoted = [d for d in k.diagnostics if d.code == "SR107"]
        if not promoted:
            continue
        total = k.total.flops
        fp64 = k.total.by_precision.get("fp64")
        share = ""
        if fp64 is not None and fp64.value is not None and total.value:
            share = f" ({number(fp64.value)} of the kernel's {number(total.value)} FLOP run in fp64)"
        elif fp64 is not None:
            share = f" (fp64 W = {fp64.expr} of {total.expr})"
        penalty = _fp64_penalty(ctx.machine, ctx.unit)
        for d in promoted:
            yield Finding("RF101", f"`{k.name}`: {d.message}{share}; {penalty}", d.location or k.location, k.name,
                          (k.location,))
