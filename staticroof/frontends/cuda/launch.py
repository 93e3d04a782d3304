"""Launch sites: `kernel<<<grid, block>>>(args)` in host code, folded to numbers and formulas.

Host code is C++ that the analysis never parses; the launch configuration is recovered from the
tokens of the host function.  Integer declarations and `dim3` constructions before the launch are
kept as expressions (`int blocks = (n + threads - 1) / threads;`) and evaluated at the launch:

- to **numbers**, with every host variable's value (`n = 1 << 20` gives 4096 blocks), and
- to **formulas in the kernel's parameters** where the host passes the same variable to the
  kernel (`saxpy<<<(n + 255) / 256, 256>>>(n, ...)` gives gridDim.x = floor((n + 255)/256) in the
  kernel's own `n`), so the analysis stays exact and symbolic without assuming the grid covers `n`.

Anything not foldable stays unknown.  The launch a kernel is lowered under (:func:`launch_for`:
the site's, with --grid/--block over it) and the dimensions it launches but never indexes
(:func:`repeats`, SR120) are chosen here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from ...diagnostics import Location
from ..common.launch_config import Launch, overridden
from ..common.tokens import Token, match_angle, match_close, split_commas
from .dim3 import dim3_parts, members as _members, tok as _tok, unknown
from .hostexpr import Folder, dim3_params, fold, host_function, param_bits, param_names  # noqa: F401 (fold: re-exported)
from .hostscope import address_taken, assigned_names, equalities, passed, switch_arms

_INT_WORDS = {"int", "unsigned", "size_t", "long", "int64_t", "uint32_t", "int32_t", "uint64_t", "short"}
_DECL_WORDS = _INT_WORDS | {";", "{", "}", "auto", "const", "constexpr", ",", "float", "double", ":"}


@dataclass
class LaunchSite:
    kernel: str
    location: Location
    grid: tuple = (None, None, None)  # ints (None where unknown)
    block: tuple = (None, None, None)
    grid_expr: tuple = (None, None, None)  # sympy in the kernel's parameter names, where foldable
    template_args: list = field(default_factory=list)  # int for values, type spelling for types
    args: list = field(default_factory=list)  # int or None per call argument
    arg_names: list = field(default_factory=list)  # host identifier passed, or None
    arg_tokens: list = field(default_factory=list)  # the tokens of each call argument
    loops: list = field(default_factory=list)  # HostLoop around the launch, outermost first
    bounds: list = field(default_factory=list)  # conditions the grid formula relies on (float rounding)
    varying: list = field(default_factory=list)  # names the grid reads that an enclosing host loop assigns
    block_tokens: list = field(default_factory=list, repr=False, compare=False)
    # the host scope at the launch and the grid's tokens, to fold the grid again in the kernel's
    # parameter names (grid_in_params)
    folder: Folder | None = field(default=None, repr=False, compare=False)
    grid_tokens: list = field(default_factory=list, repr=False, compare=False)


@dataclass
class HostCall:
    """A call of a host function (a template launcher) with its folded integer arguments."""

    name: str
    location: Location
    template_args: list = field(default_factory=list)  # int for values, type spelling for types
    args: list = field(default_factory=list)  # int or None per argument
    arg_tokens: list = field(default_factory=list)
    dim3s: dict = field(default_factory=dict)  # argument index -> (x, y, z) ints or None, for a dim3
    folder: Folder | None = field(default=None, repr=False, compare=False)  # the caller's scope at the call


def split_args(tokens: list[Token]) -> list[list[Token]]:
    """The comma-separated parts of an argument list's tokens (nested brackets kept whole)."""
    return split_commas(tokens)


def find_launches(body: list[Token], env: dict, funcs: dict | None = None, returns: dict | None = None) -> list:
    """Launch sites in one host function body, with the declarations before each one."""
    return scan_host(body, env, funcs=funcs, returns=returns)[0]


def function_returns(items) -> dict:
    """{name: whether it returns a dim3} for the functions the file defines."""
    out = {}
    for it in items:
        if it.is_function and it.header:
            k = next((j for j, t in enumerate(it.header) if t.text == "("), len(it.header))
            out[it.name] = "dim3" in [t.text for t in it.header[:k]]
    return out


def scan_host(body: list[Token], env: dict, callees=frozenset(), funcs: dict | None = None,
              dim3s: dict | None = None, exprs: dict | None = None, returns: dict | None = None) -> tuple[list, list]:
    """(launch sites, calls of the host functions named in `callees`) in one host function body,
    each folded with the declarations before it.  `funcs`: user functions the host expressions
    may call (hostexpr.HostFunc by name); `dim3s`: dim3 parameters' values (name -> (x, y, z));
    `exprs`: parameters that stand for their caller's expression (hostscope.passed); `returns`:
    function_returns (a call of a dim3 helper that is not inlined is an unknown dim3)."""
    folder = Folder(env, exprs, funcs=funcs)
    folder.returns = returns or {}
    dims: dict = {}  # dim3 name -> [x tokens, y tokens, z tokens]
    for name, xyz in (dim3s or {}).items():  # a `?` never folds: a part the caller did not know
        dims[name] = [[Token("num" if v is not None else "punct", str(v) if v is not None else "?", "", 0, 0)]
                      for v in xyz]
    sites, calls = [], []
    loops: list = []  # (index of the loop's last token, HostLoop) for the loops open at i
    conds: list = []  # (index of the branch's last token, its condition's tokens or None for an else)
    body = list(body)
    i, n = 0, len(body)
    ends: dict = {}  # statement ends already found (see _stmt_end)
    first_end = n  # the earliest end among the open loops and branches
    arms: list = []  # (first index, last index, cond tokens or None, binding or None) of switch arms ahead
    binds: list = []  # (last index, name, value before, value bound): a case label or `if (x == 256)`
    scanned = 0  # tokens looked at for `&name` (hostscope.address_taken)
    varying: list = []  # (last index, names assigned) of the host loops entered
    while i < n:
        while binds and binds[-1][0] < i:
            _unbind(folder, *binds.pop()[1:])
        for k in range(scanned, min(i + 1, n)):
            taken = address_taken(body, k)  # `cudaOccupancyMaxPotentialBlockSize(&g, &block, ...)`
            if taken is not None:
                folder.exprs[taken] = []  # written through the pointer: unknown from here
                if taken in dims:
                    dims[taken] = unknown(body[k])
        scanned = max(scanned, i + 1)
        while arms and arms[0][0] <= i:
            _first, last, cond, binding = arms.pop(0)
            conds.append((last, cond))
            first_end = min(first_end, last)
            if binding is not None and last >= i:
                binds.append(_bind(folder, last, *binding))
        if body[i].text == "switch" and body[i].kind == "id":
            for first, last, var, value in switch_arms(body, i):
                cond = [_tok(body[first], var), _tok(body[first], "=="), *value] if var and value else None
                bound = (var, value) if cond is not None and folder.number(value) is not None else None
                arms.append((first, last, cond, bound))
            arms.sort(key=lambda a: a[0])
        # closed loops and branches leave the lists, looked at only when one has closed: a chain of
        # 3,000 nested `if`s keeps 3,000 open over every token of its body
        if first_end < i:
            loops = [(end, lp) for end, lp in loops if end >= i]
            conds = [(end, c) for end, c in conds if end >= i]
            first_end = min([end for end, _ in loops] + [end for end, _ in conds] + [n])
        if body[i].text == "if" and i + 1 < n and body[i + 1].text == "(":
            new = _branches(body, i, ends)
            conds += new
            first_end = min([first_end] + [end for end, _ in new])
            if new and new[0][1] is not None:  # `if (threads == 256) k<256><<<...>>>`: 256 in the branch
                for name, value in equalities(new[0][1]):
                    binds.append(_bind(folder, new[0][0], name, value))
        if body[i].text in ("for", "while", "do") and body[i].kind == "id":
            loop = _host_loop(body, i, folder)
            if loop is not None:
                loops.append(loop[:2])
                first_end = min(first_end, loop[0])
                # what the loop assigns has no single value in it (a later iteration sees another),
                # nor after it: `for (s = n; s > 1; s = blocks) { blocks = (s + 255) / 256; k<<<blocks, 256>>>(...); }`
                changed = assigned_names(body[i:loop[0] + 1])
                for name in changed:
                    folder.exprs[name] = []
                    binds.append((loop[0], name, None, None))  # unknown after the loop (_unbind)
                binds.sort(key=lambda b: -b[0])
                varying.append((loop[0], changed))
                if loop[2] is not None:  # the loop variable has no single value inside the loop
                    folder.exprs[loop[2]] = []
                    i = match_close(body, i + 1) + 1
                    continue
        if body[i].kind == "id" and body[i].text in callees and i + 1 < n and body[i + 1].text in ("<", "("):
            call, i = _call(body, i, folder, dims)
            if call is not None:
                calls.append(call)
            continue
        t = body[i]
        if t.text == "dim3" and i + 1 < n and body[i + 1].kind == "id":
            end = _dim3_declaration(body, i + 1, dims, folder)
            if end is not None:
                i = end
                continue
        if t.kind == "id" and t.text in dims and i + 1 < n and body[i + 1].text == "=" \
                and (i == 0 or body[i - 1].text not in (".", "->", "::")):
            end = _stmt_end(body, i + 1)  # `grid = dim3(blocks);`: under a branch or in a loop, unknown
            parts = [_members(a, dims) for a in dim3_parts(body[i + 2:end], dims, folder)]
            dims[t.text] = parts if not (conds or loops) else [[_tok(t, "?")] for _ in range(3)]
            i = end + 1
            continue
        if t.kind == "id" and i + 2 < n and body[i + 1].text == "." and body[i + 2].text in ("x", "y", "z") \
                and i + 3 < n and body[i + 3].text == "=" and t.text in dims:
            end = _stmt_end(body, i + 3)
            parts = list(dims[t.text]) + [[], []]
            value = _members(body[i + 4:end], dims)  # under a branch or in a loop: unknown (`?` never folds)
            parts["xyz".index(body[i + 2].text)] = value if not (conds or loops) else [_tok(t, "?")]
            dims[t.text] = parts[:3]
            i = end + 1
            continue
        if t.kind == "id" and i + 1 < n and body[i + 1].text == "=" and (i == 0 or body[i - 1].text in _DECL_WORDS):
            end = _stmt_end(body, i + 1, comma=True)  # `const int nx = 256, ny = 256;`
            value = _members(body[i + 2:end], dims)
            if i > 0 and body[i - 1].text in _INT_WORDS:  # `int blocks = ceil(n / 256.0);` converts
                value = [_tok(t, "("), _tok(t, "int"), _tok(t, ")"), _tok(t, "("), *value, _tok(t, ")")]
            declared = i > 0 and body[i - 1].text not in (";", "{", "}", ":")  # `case 1: blocks = 4;` assigns
            folder.exprs[t.text] = value if declared else _assigned(t, value, folder, conds, loops)
            i = end + 1 if end < n and body[end].text == ";" else end
            continue
        stmt_start = i == 0 or body[i - 1].text in (";", "{", "}", ")", ":")
        if t.kind == "id" and i + 1 < n and body[i + 1].text in _COMPOUND and stmt_start:
            end = _stmt_end(body, i + 1)  # `blocks += 1;`, `n /= 2;`: the old value, operated on
            value = [t, _tok(t, body[i + 1].text[:-1]), _tok(t, "("), *_members(body[i + 2:end], dims), _tok(t, ")")]
            folder.exprs[t.text] = _assigned(t, value, folder, conds, loops, True)
            i = end + 1
            continue
        if t.text in ("++", "--") and i + 2 < n and body[i + 1].kind == "id" and body[i + 2].text == ";" and stmt_start:
            body[i:i + 2] = [body[i + 1], _tok(t, t.text)]  # `++blocks;` is `blocks++;`
            t = body[i]
        if t.kind == "id" and i + 2 < n and body[i + 1].text in ("++", "--") and body[i + 2].text == ";" and stmt_start:
            step = [t, _tok(t, body[i + 1].text[0]), _tok(t, "1")]
            folder.exprs[t.text] = _assigned(t, step, folder, conds, loops, True)
            i += 3
            continue
        if t.kind == "id" and i + 1 < n and body[i + 1].text == "=" and i > 0 and body[i - 1].text == ")":
            end = _stmt_end(body, i + 1)  # `if (blocks > cap) blocks = cap;`
            folder.exprs[t.text] = _assigned(t, _members(body[i + 2:end], dims), folder, conds, loops)
            i = end + 1
            continue
        if t.kind == "id" and i + 1 < n and body[i + 1].text in ("<<<", "<"):
            site, i = _launch(body, i, folder, dims)
            if site is not None:
                site.loops = [lp for _, lp in loops]
                changed = set().union(*[names for end, names in varying if end >= i])
                site.varying = sorted(_referenced(site.grid_tokens, folder, dims) & changed)
                sites.append(site)
            continue
        i += 1
    return sites, calls


_COMPOUND = {"+=", "-=", "*=", "/=", "%=", "<<=", ">>="}


def _referenced(parts: list, folder: Folder, dims: dict) -> set:
    """The host names a grid's tokens read, through the declarations they stand for."""
    out: set = set()
    todo = [t for p in parts for t in p]
    while todo and len(out) < 200:
        t = todo.pop()
        if t.kind != "id" or t.text in out:
            continue
        out.add(t.text)
        todo += folder.exprs.get(t.text) or []
        todo += [x for p in dims.get(t.text, []) for x in p]
    return out


def _bind(folder: Folder, last: int, name: str, value: list) -> tuple:
    """Give `name` the value `value` up to index `last` (a case arm, a branch): the entry of `binds`."""
    before = folder.exprs.get(name)
    folder.exprs[name] = value
    return (last, name, before, value)


def _unbind(folder: Folder, name: str, before, value) -> None:
    """The end of a binding: the value before it, or unknown where the arm assigned the name."""
    if folder.exprs.get(name) is not value:
        folder.exprs[name] = []
    elif before is None:
        folder.exprs.pop(name, None)
    else:
        folder.exprs[name] = before


def _dim3_declaration(body: list[Token], j: int, dims: dict, folder: Folder | None = None) -> int | None:
    """`dim3 grid(a, b), block(c, d);`, `dim3 a = dim3(4), b(2);`, `dim3 g, b;` from the first name
    at `j`: each declarator's x, y, z into `dims` in order (so `grid((n + block.x - 1) / block.x)`
    after `block(16, 16)` in the same declaration sees it; no initializer is dim3's (1, 1, 1)).
    The index after the declaration, or None where `j` starts no declarator."""
    n = len(body)
    while j < n and body[j].kind == "id":
        name, k = body[j].text, j + 1
        if k < n and body[k].text in ("(", "{"):
            close = match_close(body, k)
            dims[name] = [_members(a, dims) for a in split_commas(body[k + 1:close])]
            k = close + 1
        elif k < n and body[k].text == "=":
            end = _stmt_end(body, k, comma=True)
            dims[name] = [_members(a, dims) for a in dim3_parts(body[k + 1:end], dims, folder)]
            k = end
        elif k < n and body[k].text in (",", ";"):
            dims[name] = [[_tok(body[j], "1")]]
        else:
            return None
        if k < n and body[k].text == ",":
            j = k + 1
            continue
        return k + 1 if k < n and body[k].text == ";" else k
    return None


def _branches(body, i, ends: dict | None = None) -> list:
    """(last token index, condition tokens) of the `if` at `i`, and (last index, None) of its `else`."""
    n = len(body)
    close = match_close(body, i + 1)
    if close + 1 >= n:
        return []
    start = close + 1
    end = match_close(body, start) if body[start].text == "{" else _stmt_end(body, start, ends=ends)
    out = [(end, body[i + 2:close])]
    if end + 1 < n and body[end + 1].text == "else" and end + 2 < n:
        j = end + 2  # an `else if` chain ends at its first `;` or block: past it, conservatively unknown
        out.append((match_close(body, j) if body[j].text == "{" else _stmt_end(body, j, ends=ends), None))
    return out


def _assigned(t: Token, value, folder: Folder, conds: list, loops: list, carried: bool = False) -> list:
    """The tokens a host variable stands for after an assignment: the value on straight-line code;
    `cond ? value : old` under `if (cond)` (a cap: `if (blocks > 1024) blocks = 1024;`); unknown (an
    empty list) inside a loop when it depends on the variable itself (`n *= 2`: `carried`), in an
    `else`, or with no old value to fall back on."""
    if loops and (carried or any(x.text == t.text for x in value)):
        return []
    old = folder.exprs.get(t.text) or ([_tok(t, t.text)] if folder.values.get(t.text) is not None else None)

    def now(toks):  # the variable's own name in the new value is its old value
        if old is None and any(x.text == t.text and x.kind == "id" for x in toks):
            return None
        out = []
        for x in toks:
            out += [_tok(t, "("), *(old or []), _tok(t, ")")] if x.text == t.text and x.kind == "id" else [x]
        return out

    value = now(value)
    if value is None:
        return []
    if not conds:
        return value
    if old is None or any(c is None for _, c in conds):
        return []
    cond: list = []
    for _, c in conds:
        c = now(c)
        if c is None:
            return []
        cond += ([_tok(t, "&&")] if cond else []) + [_tok(t, "("), *c, _tok(t, ")")]
    return [_tok(t, "("), *cond, _tok(t, ")"), _tok(t, "?"), _tok(t, "("), *value, _tok(t, ")"), _tok(t, ":"),
            _tok(t, "("), *old, _tok(t, ")")]


@dataclass
class HostLoop:
    """A host loop around a launch: the kernel runs once per iteration, and its counts are per launch."""

    location: Location
    trips: int | None = None  # where `for (int t = A; t < B; t++)` folds


def _host_loop(body, i, folder: Folder):
    """(index of the loop's last token, HostLoop, the `for` variable or None) for the loop
    statement at `i`, or None."""
    n = len(body)
    t = body[i]
    if t.text == "do":
        j = i + 1
    else:
        if i + 1 >= n or body[i + 1].text != "(":
            return None
        j = match_close(body, i + 1) + 1
    if j >= n:
        return None
    end = match_close(body, j) if body[j].text == "{" else _stmt_end(body, j)
    trips = var = None
    if t.text == "for":
        head = split_commas([x if x.text != ";" else _tok(x, ",") for x in body[i + 2:match_close(body, i + 1)]])
        if len(head) == 3 and "=" in [x.text for x in head[0]]:
            k = [x.text for x in head[0]].index("=")
            var = head[0][k - 1].text if k > 0 else None
        if var is not None and len(head[1]) >= 3 and head[1][1].text in ("<", "<="):
            lo, hi = folder.number(head[0][k + 1:]), folder.number(head[1][2:])
            step = [x.text for x in head[2]]
            if lo is not None and hi is not None and head[1][0].text == var and step in (["++", var], [var, "++"]):
                trips = max(0, hi - lo + (head[1][1].text == "<="))
    return end, HostLoop(Location(t.file, t.line, t.col), trips), var


def _targs(tokens, folder: Folder) -> list:
    out = []
    for a in split_commas(tokens) if tokens else []:
        v = folder.number(a)
        out.append(v if v is not None else " ".join(x.text for x in a))
    return out


def _call(body, i, folder: Folder, dims: dict | None = None):
    """A call `name<args>(...)` or `name(...)` at `i`: (HostCall or None, index after it)."""
    n, t, j = len(body), body[i], i + 1
    targs = []
    if body[j].text == "<":
        k = match_angle(body, j)
        if k < 0 or k + 1 >= n or body[k + 1].text != "(":
            return None, i + 1
        targs = _targs(body[j + 1:k], folder)
        j = k + 1
    end = match_close(body, j)
    args = split_commas(body[j + 1:end])
    dim3s = {}
    for k, a in enumerate(args):  # `run(grid, block, ...)` with dim3 variables, or `dim3(n / 256)`
        if (len(a) == 1 and a[0].text in (dims or {})) or (a and a[0].text == "dim3"):
            parts = (dim3_parts(a, dims or {}, folder) + [[], [], []])[:3]
            dim3s[k] = tuple(folder.number(_members(p, dims or {})) if p else 1 for p in parts)
    return HostCall(t.text, Location(t.file, t.line, t.col), targs, [folder.number(a) for a in args], args,
                    dim3s, Folder(folder.values, folder.exprs, folder.funcs)), end + 1


def _launch(body, i, folder: Folder, dims):
    n = len(body)
    t = body[i]
    j = i + 1
    targ_tokens = None
    if body[j].text == "<":
        k = match_angle(body, j)
        if k < 0 or k + 1 >= n or body[k + 1].text != "<<<":
            return None, i + 1
        targ_tokens = body[j + 1:k]
        j = k + 1
    close = next((k for k in range(j, n) if body[k].text == ">>>"), None)
    if close is None or close + 1 >= n or body[close + 1].text != "(":
        return None, i + 1
    cfg = [_members(a, dims) for a in split_commas(body[j + 1:close])]
    call_end = match_close(body, close + 1)
    call_args = split_commas(body[close + 2:call_end])
    names = [a[0].text if len(a) == 1 and a[0].kind == "id" else None for a in call_args]
    args = [folder.number(a) for a in call_args]
    tvals = _targs(targ_tokens, folder)
    grid_parts = (dim3_parts(cfg[0], dims, folder) if cfg else []) + [[], [], []]
    block_parts = (dim3_parts(cfg[1], dims, folder) if len(cfg) > 1 else []) + [[], [], []]
    grid = tuple(folder.number(p) if p else (1 if cfg else None) for p in grid_parts[:3])
    block = tuple(folder.number(p) if p else (1 if len(cfg) > 1 else None) for p in block_parts[:3])
    site = LaunchSite(t.text, Location(t.file, t.line, t.col), grid, block, template_args=tvals, args=args,
                      arg_names=names, arg_tokens=call_args)
    site.grid_expr = tuple(folder.evaluate(p, {}) if p else None for p in grid_parts[:3])
    # evaluated again once the kernel's parameter names are known: the scope as it is here
    site.folder = Folder(folder.values, folder.exprs, folder.funcs)
    site.grid_tokens = grid_parts[:3]
    site.block_tokens = block_parts[:3]
    return site, call_end + 1


def grid_in_params(site: LaunchSite, param_names: list) -> tuple:
    """The grid as formulas in the kernel's parameters (where the host passes the variable)."""
    folder = getattr(site, "folder", None)
    if folder is None:
        return (None, None, None)
    # by position (None: an expression argument, or an unnamed parameter); not strict: default arguments
    params = {host: p for host, p in zip(site.arg_names, param_names, strict=False)
              if host is not None and p is not None}
    out = []
    folder.bounds = []
    for toks in site.grid_tokens:
        out.append(folder.evaluate(toks, params) if toks else sympy.Integer(1))
    site.bounds = [b for b in dict.fromkeys(folder.bounds) if b.free_symbols]
    return tuple(out)


def launch_notes(kernel, site: LaunchSite, formula: bool, bindings: dict | None = None) -> None:
    """What the launch site says about the counts: a host loop around it makes them per launch
    (SR150); a grid formula from float host code holds below a bound (SR151), and a size known to
    lie beyond it makes the result approximate (SR152)."""
    if site.loops:
        loops = ", ".join(f"{lp.location}" + (f" ({lp.trips} iterations)" if lp.trips is not None else "")
                          for lp in site.loops)
        kernel.diag("SR150", f"`{kernel.name}` is launched inside the host loop{'s' if len(site.loops) > 1 else ''} "
                    f"at {loops}: W and Q are per launch", site.location)
    _varying_grid(kernel, site)
    if not formula or not site.bounds:
        return

    def shown(bounds):  # sizes are >= 0
        return " and ".join(str(b.replace(sympy.Abs, lambda a: a)) for b in bounds)

    kernel.diag("SR151", f"the grid is computed in floating point: its formula takes the quotient as exact, "
                f"which holds for {shown(site.bounds)}", site.location)
    values = {sympy.Symbol(n): s.default for n, s in kernel.sizes.items() if s.default is not None}
    values.update({sympy.Symbol(n): v for n, v in (bindings or {}).items() if isinstance(v, int)})  # -D wins
    beyond = [b for b in site.bounds if b.xreplace(values) == sympy.false]
    if beyond:
        kernel.diag("SR152", f"the grid formula's floating-point bound {shown(beyond)} does not "
                    "hold at the given sizes: the hardware's rounded grid may differ from the formula", site.location)


def _varying_grid(kernel, site: LaunchSite) -> None:
    """SR153 where a grid dimension the kernel is counted under is neither a number nor a formula
    in its parameters, and the host loop around the launch changes what it is computed from: the
    counts take a grid that covers the guards, and a launch of the loop may have fewer blocks."""
    if not site.loops or not site.varying:
        return
    launch = getattr(kernel, "launch", None) or {}
    grid, exprs = launch.get("grid", ()), launch.get("grid_expr", ())
    unknown = [d for d, g in zip("xyz", grid, strict=False)
               if g is None and (len(exprs) <= "xyz".index(d) or exprs["xyz".index(d)] is None)]
    # a grid that follows the launch's own block size (`CEIL_DIV(n, block_size)` with the loop
    # trying block sizes) is per launch a formula in the parameters and the block: as without a loop
    params = {a: p for p, a in (getattr(kernel, "launch_args", None) or {}).items()}
    for d, toks in zip("xyz", site.block_tokens, strict=False):
        if len(toks) == 1 and toks[0].kind == "id":
            params.setdefault(toks[0].text, f"blockDim_{d}")
    folder = site.folder
    if folder is not None:
        unknown = [d for d in unknown if folder.evaluate(site.grid_tokens["xyz".index(d)], params) is None]
    if unknown:
        names = ", ".join(f"`{v}`" for v in site.varying)
        kernel.diag("SR153", f"the grid (gridDim.{'/'.join(unknown)}) changes between the launches of the host loop "
                    f"at {site.loops[-1].location}: it is computed from {names}, which the loop assigns, and is "
                    "not a formula in the kernel's parameters; the counts take a grid that covers the guards, "
                    "which a launch may not have", site.location)


def host_sites(items, env: dict, every: list | None = None) -> dict:
    """{kernel name: its first LaunchSite} over the file's host functions.  A function that a
    host function calls (`launch_gemm(d_a, n, stream)` from `main`) is scanned with the values of
    the call's arguments bound to its parameters, callers first, so a wrapper that computes the grid
    from its parameter `n` and launches the kernel gives numbers where `main` passes a constant.
    The callee's parameters also stand for the caller's expressions (hostscope.passed).  `every`:
    a list that receives every site found (a template kernel's instantiations have one each)."""
    funcs = {}
    for it in items:
        if it.is_function and "__global__" not in it.qualifiers:
            f = host_function(it.header, it.body)
            if f is not None:
                funcs[f[0]] = f[1]
    hosts = {it.name: it for it in items if it.is_function and not ({"__global__", "__device__"} & it.qualifiers)}
    returns = function_returns(items)
    calls = {name: scan_host(it.body, env, set(hosts) - {name}, funcs, returns=returns)[1]
             for name, it in hosts.items()}
    called = {c.name for cs in calls.values() for c in cs}
    sites: dict = {}
    visited: set = set()
    budget = [4 * len(hosts) + 16]  # scans: a call graph with many paths is cut short, never slow

    def visit(name: str, scope: dict, stack: tuple, dim3s: dict | None = None, exprs: dict | None = None):
        budget[0] -= 1
        visited.add(name)
        # a dim3 parameter no call gives is unknown in every component (not x alone)
        dim3s = {**dict.fromkeys(dim3_params(hosts[name].header), (None, None, None)), **(dim3s or {})}
        found, calls_here = scan_host(hosts[name].body, scope, set(hosts) - {name}, funcs, dim3s, exprs, returns)
        for site in found:
            sites.setdefault(site.kernel, site)
            if every is not None:
                every.append(site)
        for call in calls_here:
            if call.name in stack or budget[0] <= 0:
                continue
            inner, dim3s = dict(env), {}
            pnames = param_names(hosts[call.name].header)
            header = hosts[call.name].header
            exprs = passed(call.arg_tokens, pnames, call.folder, hosts[call.name].body, param_bits(header)) \
                if call.folder else {}
            for k, (pname, value) in enumerate(zip(pnames, call.args, strict=False)):
                if pname is not None:
                    inner.pop(pname, None)  # a parameter shadows a file-scope constant of its name
                    if value is not None:
                        inner[pname] = value
                    if k in call.dim3s:
                        dim3s[pname] = call.dim3s[k]
            visit(call.name, inner, stack + (call.name,), dim3s, exprs)

    for name in hosts:
        if name not in called:
            visit(name, env, (name,))
    for name in hosts:
        if name not in visited:
            visit(name, env, (name,))
    return sites


def _stmt_end(tokens: list[Token], i: int, comma: bool = False, ends: dict | None = None) -> int:
    """Index of the `;` (or `,`) ending the statement that starts at `i`.  With `ends` (a cache
    for one token list, `;` only), every position passed at the statement's own bracket depth
    ends at the same `;`: remembered, so nested `if (a) if (b) ... x;` is not scanned once per if."""
    if ends is not None and not comma and i in ends:
        return ends[i]
    depth, level, end = 0, [], len(tokens)
    for j in range(i, len(tokens)):
        if ends is not None and depth == 0:
            if j in ends and not comma:
                end = ends[j]
                break
            level.append(j)
        t = tokens[j].text
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
        elif (t == ";" or (comma and t == ",")) and depth <= 0:
            end = j
            break
    if ends is not None and not comma:
        ends.update(dict.fromkeys(level, end))
    return end


# ---------------------------------------------------------------------------------------------
# The launch a kernel is lowered under

def launch_for(name: str, site: LaunchSite | None, overrides: dict, params=(), instance: str = "") -> Launch:
    """The launch a kernel (or one instantiation) is analyzed under: its launch site's, with
    --grid/--block and config (for every kernel, the kernel, or the instantiation) over it."""
    base = None
    if site is not None:
        base = Launch(site.grid, site.block, f"launch at {site.location}", grid_in_params(site, list(params)),
                      site.location)
    return overridden(base, overrides, (None, name) + ((instance,) if instance and instance != name else ()))
