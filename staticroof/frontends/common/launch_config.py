"""The launch configuration a GPU kernel is lowered under, --grid/--block (or the config's launches)
over its launch site's, and the launch dimensions a kernel never indexes (SR120): shared by the CUDA
C and the Numba CUDA front ends.

Apart from launch.py, whose host-code folding needs NumPy, so that the Numba front end can use it
without that import."""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from ...diagnostics import Location
from ...ir import LAUNCH_BLOCK, LAUNCH_GRID, launch_size

DIMS = ("x", "y", "z")


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


def repeats(low, used: set) -> list:
    """(dim, extent) for each launch dimension the kernel never indexes: every thread along it runs
    the whole body again (W and accesses multiply; the elements, hence compulsory Q, are the same).
    Said with SR120.  Where the launch gives no grid (or no block) at all, that part is taken as 1;
    where it gives one it could not fold, the extent is the size `blockDim_y`/`gridDim_y`."""
    out = []
    origin = low.launch.origin
    where = f"the {origin}" if origin.startswith("launch at") else f"the launch ({origin or 'unknown'})"
    for k, d in enumerate(DIMS):
        if d in used:
            continue
        parts, said, unknown = [], [], []
        for role, given in ((LAUNCH_BLOCK, low.launch.block), (LAUNCH_GRID, low.launch.grid)):
            if all(v is None for v in given):
                continue
            name = launch_size(role, d)
            if given[k] is None:
                unknown.append(name)
                parts.append(low.size_symbol(name, origin=origin or "launch (unknown)", role=role))
                said.append(f"{name.replace('_', '.')} unknown")
            elif given[k] != 1:
                parts.append(sympy.Integer(given[k]))
                said.append(f"{name.replace('_', '.')} = {given[k]}")
        extent = sympy.Mul(*parts)
        if extent == 1:
            continue
        out.append((d, extent))
        msg = (f"`{low.kernel.name}` never reads threadIdx.{d} or blockIdx.{d}, but {where} has "
               f"{' and '.join(said)}: each of the {extent} threads along {d} repeats the body (W and the "
               "accesses are counted that many times; compulsory traffic is unchanged) and they write the same "
               "elements")
        if unknown:
            msg += f"; {' and '.join(unknown)} could not be folded and stays a size in the formulas"
        low.kernel.diag("SR120", msg, low.launch.location or low.kernel.location)
    return out
