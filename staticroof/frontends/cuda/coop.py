"""Cooperative groups (`cooperative_groups.h`) rewritten to the CUDA builtins they stand for.

A group object is an index calculation, not data: `cta.thread_rank()` is the thread's linear rank
in its block, `tile.thread_rank()` that rank mod the tile's size N, `tile.shfl_down(v, o)` is
`__shfl_down_sync`.  So, on tokens and before the C++-to-C rewrite (cuda.py), every group variable
(`cg::thread_block cta = cg::this_thread_block();`, `auto tile = cg::tiled_partition<32>(cta);`,
a `cg::thread_block_tile<32>` parameter) becomes an `int` placeholder and each member call the
builtin expression it is, so that thread indices stay affine and guards such as
`if (tile.thread_rank() == 0)` are counted exactly.

The block rank is `threadIdx.x`, plus the y and z terms only when the function itself reads
`threadIdx.y/z` or `blockDim.y/z` (a 1-D block otherwise: the usual case, and the one that keeps
a kernel's dimensions what it indexes).  What cannot be an index is an opaque value
(`__sr_cg_opaque`): the rank in a `coalesced_group` (which threads are active is data) and any
`thread_group` whose kind the declaration does not say.

`cg::reduce(tile, v, cg::plus<T>())` combines the N lanes' values: N - 1 additions per tile, and
`__sr_cg_reduce(v, lane, N, flops)` charges them to lane 0 (see coop_calls.py); `cg::less` and
`cg::greater` (and the bitwise operators) compare: 0 FLOPs.
"""

from __future__ import annotations

from ..common.tokens import Token, integer_literal, match_angle, match_close, retext, split_commas

NAMESPACES = {"cg", "cooperative_groups", "experimental", "details"}
_GROUP_TYPES = {"thread_block": "block", "grid_group": "grid", "coalesced_group": "coalesced",
                "thread_group": "group", "thread_block_tile": "tile", "cluster_group": "block",
                "multi_grid_group": "grid"}
_MAKERS = {"this_thread_block": "block", "this_grid": "grid", "coalesced_threads": "coalesced",
           "tiled_partition": "tile", "this_cluster": "block", "this_multi_grid": "grid",
           "binary_partition": "coalesced", "labeled_partition": "coalesced"}
_OPS = {"plus": "add", "less": "cmp", "greater": "cmp", "bit_and": "cmp", "bit_or": "cmp", "bit_xor": "cmp"}
_FULL = "0xffffffff"


def aliases(tokens: list[Token]) -> set:
    """Names that mean `cooperative_groups` (`namespace cg = cooperative_groups;`) in a file."""
    out = set(NAMESPACES)
    for k in range(len(tokens) - 3):
        if tokens[k].text == "namespace" and tokens[k + 2].text == "=" and tokens[k + 3].text == "cooperative_groups":
            out.add(tokens[k + 1].text)
    return out


def _strip(tokens: list[Token], names: set) -> list[Token]:
    """`cg::this_thread_block` -> `this_thread_block`; `namespace cg = ...;` and `using ...;` in a
    function body are dropped."""
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t.text in names and i + 1 < n and tokens[i + 1].text == "::":
            i += 2
            continue
        if t.text in ("namespace", "using") and (not out or out[-1].text in (";", "{", "}")):
            j = i
            while j < n and tokens[j].text != ";":
                j += 1
            if any(x.text == "cooperative_groups" or x.text in names for x in tokens[i:j]):
                i = j + 1
                continue
        out.append(t)
        i += 1
    return out


def _const_int(tokens: list[Token]) -> int | None:
    text = "".join(t.text for t in tokens)
    return integer_literal(text)


def _sync(kind) -> str:
    """`g.sync()` for a group of this kind."""
    return {"grid": "__sr_grid_sync()", "block": "__syncthreads()", "group": "__syncthreads()"}.get(
        kind, "__syncwarp()")


class _Rewriter:
    def __init__(self, tokens: list[Token]):
        self.toks = tokens
        self.groups: dict = {}  # name -> ("block"|"grid"|"coalesced"|"group", None) | ("tile", N)
        texts = {(tokens[k].text, tokens[k + 2].text) for k in range(len(tokens) - 2) if tokens[k + 1].text == "."}
        self.dims = ["x"] + [d for d in "yz" if ("threadIdx", d) in texts or ("blockDim", d) in texts]

    # -- expressions the groups stand for --------------------------------------------------------
    def rank(self) -> str:
        r = "threadIdx.x"
        if "y" in self.dims or "z" in self.dims:
            r += " + blockDim.x * (threadIdx.y" + (" + blockDim.y * threadIdx.z" if "z" in self.dims else "") + ")"
        return f"({r})"

    def bsize(self) -> str:
        return "(" + " * ".join(f"blockDim.{d}" for d in self.dims) + ")"

    def method(self, kind, size, name: str, args: list[Token]) -> str | None:
        a = "".join(" " + t.text for t in args)
        lanes = "__shfl_sync" if name == "shfl" else f"__{name}_sync"
        if name in ("shfl", "shfl_down", "shfl_up", "shfl_xor", "any", "all", "ballot"):
            return f"{lanes}({_FULL},{a})"
        if name == "sync":
            return _sync(kind)
        if name == "is_valid":
            return "1"
        if kind == "block":
            return {"thread_rank": self.rank(), "size": self.bsize(), "num_threads": self.bsize(),
                    "group_index": "blockIdx", "thread_index": "threadIdx", "group_dim": "blockDim",
                    "dim_threads": "blockDim"}.get(name)
        if kind == "tile":
            return {"thread_rank": f"({self.rank()} % {size})", "size": str(size), "num_threads": str(size),
                    "meta_group_rank": f"({self.rank()} / {size})",
                    "meta_group_size": f"(({self.bsize()} + {size - 1}) / {size})"}.get(name)
        if kind == "grid":
            return {"thread_rank": "(blockIdx.x * blockDim.x + threadIdx.x)", "size": "(gridDim.x * blockDim.x)",
                    "num_threads": "(gridDim.x * blockDim.x)", "block_rank": "blockIdx.x",
                    "num_blocks": "gridDim.x", "block_index": "blockIdx", "dim_blocks": "gridDim"}.get(name)
        what = "a coalesced group's" if kind == "coalesced" else "a `thread_group` (kind not stated):"
        return f'__sr_cg_opaque("{what} {name}()")'

    # -- group expressions -------------------------------------------------------------------------
    def group_at(self, i: int) -> tuple | None:
        """(kind, size, end) for a group expression starting at token i: a group variable or a call
        that makes one (`this_thread_block()`, `tiled_partition<32>(cta)`)."""
        t, n = self.toks[i], len(self.toks)
        if t.kind == "id" and t.text in self.groups and not (i + 1 < n and self.toks[i + 1].text == "("):
            return (*self.groups[t.text], i + 1)
        if t.text in _MAKERS and i + 1 < n:
            j, size = i + 1, None
            if self.toks[j].text == "<":
                close = match_angle(self.toks, j)
                if close < 0:
                    return None
                size = _const_int(self.toks[j + 1:close])
                j = close + 1
            if j >= n or self.toks[j].text != "(":
                return None
            end = match_close(self.toks, j)
            if t.text == "tiled_partition" and size is None:  # tiled_partition(parent, 4)
                inner = self.toks[j + 1:end]
                commas = [k for k, x in enumerate(inner) if x.text == ","]
                size = _const_int(inner[commas[-1] + 1:]) if commas else None
            kind = _MAKERS[t.text]
            if kind == "tile" and size is None:
                kind = "group"
            return kind, size, end + 1
        return None

    def decl_type(self, i: int) -> tuple | None:
        """(kind, size, end) for a group type spelled at token i (`thread_block_tile<32>`)."""
        t = self.toks[i]
        if t.text not in _GROUP_TYPES:
            return None
        kind, size, j = _GROUP_TYPES[t.text], None, i + 1
        if j < len(self.toks) and self.toks[j].text == "<":
            close = match_angle(self.toks, j)
            if close < 0:
                return None
            args = self.toks[j + 1:close]
            comma = next((k for k, x in enumerate(args) if x.text == ","), len(args))
            size = _const_int(args[:comma])
            j = close + 1
        if kind == "tile" and size is None:
            kind = "group"
        return kind, size, j

    def run(self) -> list[Token]:
        toks, out, i, n = self.toks, [], 0, len(self.toks)
        while i < n:
            t = toks[i]
            typed = self.decl_type(i)
            if (typed is None and t.text == "auto" and i + 3 < n and toks[i + 1].kind == "id"
                    and toks[i + 2].text == "="):
                made = self.group_at(i + 3)
                if made is not None:
                    typed = (made[0], made[1], i + 1)
            if typed is not None:
                kind, size, j = typed
                while j < n and toks[j].text in ("&", "const"):
                    j += 1
                if j < n and toks[j].kind == "id":  # a declaration (or a parameter)
                    name = toks[j].text
                    if j + 1 < n and toks[j + 1].text == "=":
                        made = self.group_at(j + 2)
                        if made is not None and kind in ("group", "tile") and made[0] != "group":
                            kind, size = made[0], made[1] if made[1] is not None else size
                    self.groups[name] = (kind, size)
                    out += retext(t, "int") + [toks[j]]
                    i = j + 1
                    if i < n and toks[i].text == "=":
                        k = i
                        while k < n and toks[k].text not in (";", ","):
                            k = match_close(toks, k) if toks[k].text in ("(", "[", "{") else k
                            k += 1
                        out += retext(toks[i], "= 0")
                        i = k
                    continue
            if t.text == "reduce" and i + 1 < n and toks[i + 1].text == "(" and (not out or out[-1].text != "."):
                call = self.reduce(i)
                if call is not None:
                    out += call[0]
                    i = call[1]
                    continue
            if t.text == "sync" and i + 1 < n and toks[i + 1].text == "(":  # cg::sync(g)
                g = self.group_at(i + 2)
                if g is not None:
                    end = match_close(toks, i + 1)
                    out += retext(t, _sync(g[0]))
                    i = end + 1
                    continue
            g = self.group_at(i) if (t.kind == "id" and (t.text in self.groups or t.text in _MAKERS)) else None
            if g is not None and g[2] + 2 < n and toks[g[2]].text == "." and toks[g[2] + 2].text == "(":
                kind, size, j = g
                name = toks[j + 1].text
                end = match_close(toks, j + 2)
                args = rewrite(toks[j + 3:end], set(), self.groups)
                text = self.method(kind, size, name, args)
                if text is not None:
                    out += retext(toks[j + 1], text)
                    i = end + 1
                    continue
            out.append(t)
            i += 1
        return out

    def reduce(self, i: int):
        """`reduce(g, v, plus<T>())` -> `__sr_cg_reduce(v, lane, N, flops)` (N - 1 adds on lane 0)."""
        end = match_close(self.toks, i + 1)
        parts: list[list[Token]] = []
        cur: list[Token] = []
        depth = 0
        for t in self.toks[i + 2:end]:
            if t.text in ("(", "[", "{", "<"):
                depth += 1
            elif t.text in (")", "]", "}", ">"):
                depth -= 1
            if t.text == "," and depth == 0:
                parts.append(cur)
                cur = []
            else:
                cur.append(t)
        parts.append(cur)
        if len(parts) != 3 or not parts[0]:
            return None
        g = self.group_at(self.toks.index(parts[0][0], i))
        if g is None:
            return None
        kind, size, _ = g
        op = _OPS.get(parts[2][0].text) if parts[2] else None
        lane = f"({self.rank()} % {size})" if kind == "tile" else self.rank() if kind == "block" else "0"
        n = size if kind == "tile" else 0  # 0: a group whose size is not known (see coop_calls.py)
        flops = {"add": 1, "cmp": 0}.get(op, -1) if op is not None else -1  # -1: an operator staticroof does not know
        value = rewrite(parts[1], set(), self.groups)
        head = retext(self.toks[i], "__sr_cg_reduce(")
        tail = retext(self.toks[i], f", {lane}, {n}, {flops})")
        return head + value + tail, end + 1



def rewrite(tokens: list[Token], names: set, groups: dict | None = None) -> list[Token]:
    """A function's tokens with cooperative groups rewritten (a no-op for a function without them)."""
    if names:
        tokens = _strip(tokens, names)
    if not any(t.text in _GROUP_TYPES or t.text in _MAKERS or (groups and t.text in groups) for t in tokens):
        return tokens
    r = _Rewriter(tokens)
    if groups:
        r.groups.update(groups)
    out = r.run()
    if groups is not None:
        groups.update(r.groups)
    return out


def group_of(tokens: list[Token], groups: dict) -> tuple | None:
    """(kind, size) of a group expression (a group variable of `groups`, or a call that makes one),
    None if `tokens` are not one."""
    if not tokens:
        return None
    r = _Rewriter(tokens)
    r.groups.update(groups)
    g = r.group_at(0)
    return g[:2] if g is not None and g[2] == len(tokens) else None


def leader(kind: str, size, body: list[Token]) -> str | None:
    """A C condition true in exactly one thread of each group of this kind (its rank 0; the dimensions
    of the rank are those `body` uses), None for a group whose members are not known."""
    rank = _Rewriter(body).rank()
    if kind == "block":
        return f"({rank} == 0)"
    if kind == "tile" and size:
        return f"({rank} % {size} == 0)"
    if kind == "grid":
        return f"(blockIdx.x == 0 && {rank} == 0)"
    return None


def _param_names(header: list[Token]) -> list[str]:
    """The parameter names of a function header (`(thread_group g, float *tmp)` -> [g, tmp])."""
    open_ = next((k for k, t in enumerate(header) if t.text == "("), None)
    if open_ is None:
        return []
    close = match_close(header, open_)
    names = []
    for part in split_commas(header[open_ + 1:close], angles=True):
        ids = [t.text for t in part if t.kind == "id" and t.text not in ("const", "volatile")]
        eq = next((k for k, t in enumerate(part) if t.text == "="), None)
        if eq is not None:
            ids = [t.text for t in part[:eq] if t.kind == "id"]
        names.append(ids[-1] if ids else "")
    return names


def parameter_groups(items, names: set) -> dict:
    """{function: {parameter: (kind, size)}} for the parameters of `__device__` functions that every
    call in the file passes the same kind of group (`reduce_sum(thread_group g, ...)` called with
    `this_thread_block()`, a template `Group g` called with a tile of 32): the kind the declaration
    does not state, from its callers."""
    functions = {it.name: it for it in items if it.is_function}
    seen: dict = {}  # (function, index) -> set of kinds
    for it in functions.values():
        toks = _strip(it.body, names)
        if not any(t.text in _GROUP_TYPES or t.text in _MAKERS for t in toks):
            continue
        r = _Rewriter(toks)
        r.run()  # fills r.groups with the caller's group variables
        for k in range(len(toks) - 1):
            callee = functions.get(toks[k].text)
            if callee is None or callee is it or toks[k + 1].text != "(" or (k and toks[k - 1].text in (".", "->")):
                continue
            end = match_close(toks, k + 1)
            for j, arg in enumerate(split_commas(toks[k + 2:end])):
                g = None
                if arg and (arg[0].text in r.groups or arg[0].text in _MAKERS):
                    g = r.group_at(toks.index(arg[0], k))
                    g = g[:2] if g is not None and g[2] == k + 2 + _offset(toks[k + 2:end], j) + len(arg) else None
                seen.setdefault((callee.name, j), set()).add(g)
    out: dict = {}
    for (fname, j), kinds in seen.items():
        if len(kinds) == 1 and None not in kinds:
            params = _param_names(functions[fname].header)
            if j < len(params) and params[j]:
                out.setdefault(fname, {})[params[j]] = next(iter(kinds))
    return out


def _offset(tokens: list[Token], j: int) -> int:
    """Index in `tokens` where the j-th comma-separated argument starts."""
    depth, count = 0, 0
    for k, t in enumerate(tokens):
        if count == j:
            return k
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        elif t.text == "," and depth == 0:
            count += 1
    return len(tokens)
