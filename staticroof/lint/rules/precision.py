"""RF101: an operation of a lower-precision kernel promoted to fp64.

The front end already knows which operations C's usual arithmetic conversions promote, and
folds compile-time constant subexpressions first (`sqrtf(2.0f / M_PI)` costs nothing, as the
compiler evaluates it): each promotion it saw is an SR107 note on the kernel, with the place.
This rule turns each into a finding with what it costs on the configured machine."""

from __future__ import annotations

from ...ir import PRECISIONS
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


def _lower_precision(kernel) -> bool:
    """Does the kernel keep its floating-point data below fp64 (every floating array it touches)?"""
    floating = [a.dtype for a in kernel.arrays.values() if a.dtype in PRECISIONS]
    return bool(floating) and "fp64" not in floating


def _fp64_statements(kernel, said: set):
    """Statements doing fp64 arithmetic (or fp64 math calls) in a lower-precision kernel that no
    front-end note (SR107) covers: how a front end that types but does not say so (a Python float
    in a float32 Numba kernel) shows a promotion in the IR."""
    from ...ir import Stmt, walk

    if not _lower_precision(kernel):
        return
    for node in walk(kernel.body):
        if not isinstance(node, Stmt) or node.location is None:
            continue
        ops = node.flops.get("fp64", 0) + sum(n for (_f, prec), n in node.special.items() if prec == "fp64")
        if ops and (node.location.file, node.location.line) not in said:
            said.add((node.location.file, node.location.line))
            yield node, ops


@rule("RF101", "fp64-promotion", "operation promoted to fp64 in a lower-precision kernel",
      what="""
An arithmetic operation or math call in a kernel that works in `float` (or half precision) that C's
usual arithmetic conversions carry out in `double`: an unsuffixed literal (`2.0 * x[i]`), a `double`
variable, or a double math function on a float argument (`sqrt(x[i])` instead of `sqrtf`); in a
float32 Numba kernel, a Python float (`0.5 * x[i]`, which Numba types as float64). Constant
subexpressions the compiler folds (`sqrtf(2.0f / M_PI)`, `1.0 / 3.0`) are never reported: they cost
nothing at run time. The message names the operation (or, where the front end gives no note, the
statement and its fp64 operations) and the share of the kernel's W that runs in fp64.""",
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
overloads of `sqrt` for `float` do this already. In Numba, write `np.float32(0.5)` for a constant.""")
def check(ctx: FileContext):
    for k in ctx.analyzed():
        promoted = [d for d in k.diagnostics if d.code == "SR107"]
        said = {(d.location.file, d.location.line) for d in promoted if d.location is not None}
        untold = list(_fp64_statements(k.ir, said))
        if not promoted and not untold:
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
        dtypes = sorted({a.dtype for a in k.ir.arrays.values() if a.dtype in PRECISIONS})
        for stmt, ops in untold:
            what = f"{ops} operation{'s' if ops != 1 else ''} of this statement {'run' if ops != 1 else 'runs'}"
            yield Finding("RF101", f"`{k.name}`: {what} in fp64 in a kernel whose arrays are "
                          f"{', '.join(dtypes)} (a double constant or variable promotes them){share}; {penalty}",
                          stmt.location, k.name, (k.location,))
