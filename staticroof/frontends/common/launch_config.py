"""The launch configuration a GPU kernel is lowered under, and --grid/--block (or the config's
launches) over its launch site's: shared by the CUDA C and the Numba CUDA front ends.

Apart from launch.py, whose host-code folding needs NumPy, so that the Numba front end can use it
without that import."""

from __future__ import annotations

from dataclasses import dataclass

from ...diagnostics import Location


@dataclass
class Launch:
    """The launch configuration a kernel is lowered under (None entries are unknown)."""

    grid: tuple = (None, None, None)
    block: tuple = (None, None, None)
    origin: str = ""
    grid_expr: tuple = (None, None, None)  # the grid in the kernel's own parameters, where known
    location: Location | None = None  # the launch site's, when the launch comes from one


def overridden(site: Launch | None, overrides: dict, keys) -> Launch:
    """The launch site's configuration (None: no site, all unknown) with the overrides of each key
    over it in turn (None: every kernel; then the kernel, the instantiation).  A given grid replaces
    the site's grid formula too."""
    base = site or Launch()
    grid, block, grid_expr, origin, location = base.grid, base.block, base.grid_expr, base.origin, base.location
    given = set()
    for key in keys:
        o = overrides.get(key) or {}
        if o.get("grid"):
            grid, grid_expr = tuple((list(o["grid"]) + [1, 1, 1])[:3]), (None, None, None)
            given.add("grid")
        if o.get("block"):
            block = tuple((list(o["block"]) + [1, 1, 1])[:3])
            given.add("block")
    if given == {"grid", "block"} or (given and site is None):
        origin, location = "--grid/--block", None
    elif given:  # one of them over a launch site: say which
        origin = f"{origin} with --{given.pop()}"
    return Launch(grid, block, origin, grid_expr, location)
