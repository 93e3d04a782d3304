"""RF3xx: where a kernel sits under the roofline, against the project's thresholds.

RF301 needs `thresholds.min-intensity`; RF302 needs a machine (`--machine` or `machine = ...`)
and uses `thresholds.ridge-factor` (default 10).  Both need the intensity as a number: the
sizes given, or an intensity that does not depend on them (saxpy's 1/6)."""

from __future__ import annotations

from ..context import FileContext, number, quantity, value_of
from ..registry import Finding, rule


def _dram_intensity(k):
    """The DRAM level's intensity (Q cache with a machine's cache, else Q compulsory) as a number."""
    level = k.total.levels[0] if k.total.levels else None
    q = level.intensity if level is not None else k.total.intensity
    if q.value is not None:
        return q, q.value
    return q, value_of(q.expr, k.sizes)


@rule("RF301", "low-intensity", "arithmetic intensity below the configured threshold",
      needs="a threshold: `min-intensity` under `[tool.staticroof.thresholds]`",
      what="""
A kernel whose arithmetic intensity I = W/Q (at the DRAM level: the cache-bounded Q with a
machine, else the compulsory Q) is below `thresholds.min-intensity`. The message gives W, Q and I.""",
      why="""
Below the ridge point a kernel runs at bandwidth x I, whatever the processor's peak: a project
that sets a floor on I (say, 1 FLOP/B for kernels meant to be compute-heavy) catches the change
that quietly turned a blocked algorithm into a streaming one.""",
      example="""
```c
/* pyproject.toml: [tool.staticroof.thresholds] min-intensity = 1.0 */
void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];        /* RF301: I = 1/6 FLOP/B */
}
```""",
      fix="""
Raise the intensity (fuse the kernel with its neighbours, block it for reuse), or, when the kernel
is streaming by nature, silence it where it is defined:
```c
void saxpy(int n, float a, const float *x, float *y)   // staticroof: ignore[RF301]
```""")
def low_intensity(ctx: FileContext):
    floor = ctx.settings.min_intensity
    if floor is None:
        return
    for k in ctx.analyzed():
        _q, value = _dram_intensity(k)
        if value is None or value >= floor:
            continue
        t = k.total
        message = (f"`{k.name}`: I = {number(value)} FLOP/B (W {quantity(t.flops, 'FLOP')} over Q "
                   f"{quantity(k.total.levels[0].bytes if k.total.levels else t.compulsory)}) is below the "
                   f"threshold {number(floor)} FLOP/B (thresholds.min-intensity)")
        yield Finding("RF301", message, k.location, k.name)


@rule("RF302", "far-below-ridge", "memory-bound far below the ridge point on the configured machine",
      needs="a machine: `--machine NAME` or `machine = \"NAME\"`",
      what="""
A kernel that is memory-bound on the configured machine with an intensity more than
`thresholds.ridge-factor` times (default 10) below the machine's ridge point I* = peak/bandwidth for
the kernel's precision. The message gives I, the ridge, the factor and the attainable performance.""",
      why="""
The ridge is the intensity a kernel needs to use the processor it runs on. A kernel ten times
below it can use at most a tenth of the peak, whatever the code generation; only more reuse (fusion,
tiling, a better layout) moves it.""",
      example="""
```c
/* staticroof lint --machine a100 */
void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];   /* RF302: I = 1/6 FLOP/B, 57x below the ridge 9.56 */
}
```""",
      fix="""
Fuse the kernel with its producer or consumer so its bytes are used more than once (see RF401), or
accept it: a kernel that streams by nature is silenced with `// staticroof: ignore[RF302]` or by
raising `ridge-factor`.""")
def far_below_ridge(ctx: FileContext):
    if ctx.machine is None:
        return
    factor = ctx.settings.ridge_factor
    for k in ctx.analyzed():
        r = k.roofline
        if not r or r.get("intensity") is None or not r.get("ridge"):
            continue
        intensity, ridge = r["intensity"], r["ridge"]
        if intensity <= 0 or ridge / intensity <= factor:
            continue
        message = (f"`{k.name}`: memory-bound on {r['machine']} ({r['roof']}): I = {number(intensity)} FLOP/B is "
                   f"{ridge / intensity:.3g}x below the ridge {ridge:.3g} FLOP/B (thresholds.ridge-factor = "
                   f"{number(factor)}); attainable {r['attainable'] / 1e9:.4g} GFLOP/s = "
                   f"{100 * r['fraction_of_peak']:.3g}% of peak")
        yield Finding("RF302", message, k.location, k.name)
