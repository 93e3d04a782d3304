"""`@numba.stencil` kernels in the trace: the kernel's body run once per element of the interior its
neighborhood allows, with its relatively indexed arrays seen from that element (`a[-1, 0]` reads
`a[i - 1, j]`), and the output written as Numba 0.68 writes it (numba/stencils/stencil.py,
`_stencil_wrapper`): without `out=`, a new array whose border slabs `out[..., :-lo, ...]` and
`out[..., -hi:, ...]` (per dimension; `-0:` is the whole axis) hold `cval` (0 unless given), then
the interior; with `out=`, `out[:] = cval` only when the decorator gives `cval`, then the interior.
Arrays named in `standard_indexing=` are indexed as usual.
"""

from __future__ import annotations

import itertools

from .. import TraceError
from .runtime import STATE, Array, ArrayLike, Num, dtype_of, value


class Relative(ArrayLike):
    """An array seen from the current element: index k along dimension d is center[d] + k."""

    def __init__(self, array: Array, center: tuple):
        self.array, self.center, self.shape = array, center, array.shape

    def get(self, idx, key):
        idx = idx if isinstance(idx, tuple) else (idx,)
        if len(idx) != len(self.center) or any(isinstance(i, slice) for i in idx):
            raise TraceError(f"`{self.array.name}`: a stencil index of {len(idx)} dimensions on a "
                             f"{len(self.center)}-D array")
        return self.array.get(tuple(c + int(value(i)) for c, i in zip(self.center, idx, strict=True)), key)

    def set(self, idx, v, key):
        raise TraceError(f"a stencil kernel writes its input `{self.array.name}`")

    def __getitem__(self, idx):
        return self.get(idx, ("plain", self.array.name))


class Stencil:
    """A `@stencil` function as Numba calls it.  `fn` is the kernel's (rewritten) body; `hood` the
    decorator's `neighborhood=` or None (then `infer(relative parameters, rank)` gives it);
    `cval` the decorator's value or None; `made` names the output after where it is made."""

    def __init__(self, name: str, fn, params: list, hood, cval, standard: set, infer, made=None, out_dtype=None):
        self.name, self.fn, self.params, self.hood, self.cval = name, fn, params, hood, cval
        self.standard, self.infer, self.made, self.out_dtype = standard, infer, made, out_dtype
        self.sites: set = set()  # the register sites of the kernel's body (the nest's body)

    def __call__(self, *args, out=None, _sr_loc=None):
        if not args or not isinstance(args[0], Array):
            raise TraceError(f"the stencil `{self.name}` is applied to something that is not an array")
        first = args[0]
        ndim = len(first.shape)
        relative = [k for k, a in enumerate(args) if isinstance(a, Array) and k < len(self.params)
                    and self.params[k] not in self.standard]
        for k in relative:
            if len(args[k].shape) != ndim:
                raise TraceError(f"`{self.params[k]}` has another rank than the stencil's first array")
        hood = self.hood if self.hood is not None else self.infer({self.params[k] for k in relative}, ndim)
        if len(hood) != ndim:
            raise TraceError(f"a {len(hood)}-D neighborhood for a {ndim}-D array")
        ranges = [range(-min(0, lo), n - max(0, hi)) for (lo, hi), n in zip(hood, first.shape, strict=True)]
        results = []
        sites, outer = STATE.sites, None
        for center in itertools.product(*ranges):
            if center[:-1] != outer:  # the innermost loop of Numba's nest begins: its body's registers go
                outer = center[:-1]
                for site in self.sites:
                    sites.last.pop(site, None)
            sites.epoch += 1  # one execution of the kernel's statements per element
            call = [Relative(a, center) if k in relative else a for k, a in enumerate(args)]
            before = set(sites.last)
            results.append((center, self.fn(*call)))
            self.sites |= set(sites.last) - before
        if out is None:
            dtype = dtype_of(results[0][1]) if results else (self.out_dtype or "fp64")
            out = self._new(tuple(first.shape), dtype, _sr_loc)
            cval = self.cval if self.cval is not None else 0
            for d, (lo, hi) in enumerate(hood):
                n = first.shape[d]
                for side, axis in (("low", range(n)[:-lo]), ("high", range(n)[-hi:])):
                    self._fill(out, cval, {d: axis}, ("stencil-border", self.name, d, side))
        else:
            if not isinstance(out, Array) or len(out.shape) != ndim:
                raise TraceError("`out=` that is not an array of the stencil's rank")
            if not all(out.known):  # extents the sizes do not give: the input's, as the analysis assumes
                out.shape = tuple(n if k else f for n, k, f in zip(out.shape, out.known, first.shape, strict=True))
                out.known = (True,) * ndim
            if self.cval is not None:
                self._fill(out, self.cval, {}, ("stencil-cval", self.name))
        for center, v in results:
            STATE.sites.epoch += 1
            out.write(out.flat(center), Num(value(v), out.dtype), ("stencil-out", self.name))
        return out

    def _new(self, shape: tuple, dtype: str, loc) -> Array:
        if self.made is None:
            return Array("out", dtype, shape)
        return self.made.array(tuple(loc) if loc is not None else None, f"{self.name}_out", dtype, shape)

    @staticmethod
    def _fill(out: Array, v, axes: dict, key) -> None:
        """out[...] = v over every element whose index along d lies in axes[d] (all where not given)."""
        for idx in itertools.product(*(axes.get(d, range(n)) for d, n in enumerate(out.shape))):
            STATE.sites.epoch += 1
            out.write(out.flat(idx), Num(value(v), out.dtype), key)
