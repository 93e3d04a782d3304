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

import ast
from dataclasses import dataclass, field
from typing import Optional

import sympy

from ..diagnostics import Location
from .tokens import Token, match_angle, match_close, split_commas

_SIZEOF = {"float": 4, "double": 8, "int": 4, "half": 2, "__half": 2, "char": 1, "short": 2, "long": 8,
           "float4": 16, "float2": 8, "__nv_bfloat16": 2, "size_t": 8, "unsigned": 4}
_DECL_WORDS = {";", "{", "}", "int", "unsigned", "size_t", "long", "auto", "const", "constexpr", "int64_t",
               "uint32_t", "int32_t", ","}


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


@dataclass
class HostCall:
    """A call of a host function (a template launcher) with its folded integer arguments."""

    name: str
    location: Location
    template_args: list = field(default_factory=list)  # int for values, type spelling for types
    args: list = field(default_factory=list)  # int or None per argument
    arg_tokens: list = field(default_factory=list)


def _python(tokens: list[Token]) -> Optional[str]:
    """The tokens of an integer C expression as Python source (`/` becomes `//`), or None."""
    parts = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.text == "sizeof" and i + 1 < len(tokens) and tokens[i + 1].text == "(":
            j = match_close(tokens, i + 1)
            inner = [x.text for x in tokens[i + 2:j] if x.text not in ("const", "unsigned")]
            size = _SIZEOF.get(inner[-1]) if inner else None
            if size is None:
                return None
            parts.append(str(size))
            i = j + 1
            continue
        if t.text == "::":
            if parts and parts[-1] not in "()+-*/%,":
                parts.pop()
            i += 1
            continue
        if (t.text == "(" and i + 2 < len(tokens) and tokens[i + 2].text == ")"
                and tokens[i + 1].text in ("int", "long", "unsigned", "size_t")):
            i += 3  # an integer cast
            continue
        if t.text in ("static_cast", "reinterpret_cast") and i + 1 < len(tokens) and tokens[i + 1].text == "<":
            j = match_angle(tokens, i + 1)
            if j < 0:
                return None
            i = j + 1
            continue
        if t.kind == "num":
            text = t.text.replace("'", "").rstrip("uUlL")
            try:
                v = int(text, 8) if len(text) > 1 and text[0] == "0" and text[1].isdigit() else int(text, 0)
            except ValueError:
                return None
            parts.append(str(v))
        elif t.kind == "id":
            if t.text in ("std", "__SR_SIZE"):
                i += 1
                continue
            parts.append(t.text)
        elif t.text == "/":
            parts.append("//")
        elif t.text in ("+", "-", "*", "%", "(", ")", "<<", ">>", ","):
            parts.append(t.text)
        else:
            return None
        i += 1
    return " ".join(parts)


def _parse(tokens: list[Token]):
    src = _python(tokens)
    if src is None:
        return None
    try:
        return ast.parse(src, mode="eval").body
    except SyntaxError:
        return None


class Folder:
    """Evaluates host integer expressions given as tokens, in a scope of earlier declarations."""

    def __init__(self, values: dict, exprs: Optional[dict] = None):
        self.values = dict(values)  # name -> int (file-scope constants, -D bindings)
        self.exprs = dict(exprs or {})  # name -> tokens (host declarations, latest wins)

    def evaluate(self, tokens, params: Optional[dict] = None):
        """sympy value of `tokens`: host variables in `params` (host name -> kernel parameter name)
        become that parameter's symbol; other variables are replaced by what they stand for."""
        tree = _parse(tokens)
        return None if tree is None else self._eval(tree, params or {}, 0)

    def _eval(self, node, params, depth):
        if depth > 50:
            return None
        if isinstance(node, ast.Tuple) and len(node.elts) == 2:  # __SR_SIZE(N, 1024) arrives as (N, 1024)
            name, default = node.elts
            if isinstance(name, ast.Name) and (name.id in params or name.id in self.values):
                return self._eval(name, params, depth + 1)
            return self._eval(default, params, depth + 1)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return sympy.Integer(node.value)
        if isinstance(node, ast.Name):
            if node.id in params:
                return sympy.Symbol(params[node.id])
            if node.id in self.exprs:
                v = self.evaluate_name(node.id, params, depth)
                if v is not None:
                    return v
            if node.id in self.values and self.values[node.id] is not None:
                return sympy.Integer(self.values[node.id])
            return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self._eval(node.operand, params, depth + 1)
            return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
        if isinstance(node, ast.BinOp):
            a, b = self._eval(node.left, params, depth + 1), self._eval(node.right, params, depth + 1)
            if a is None or b is None:
                return None
            op = type(node.op)
            if op is ast.Add:
                return a + b
            if op is ast.Sub:
                return a - b
            if op is ast.Mult:
                return sympy.expand(a * b)
            if op is ast.FloorDiv:
                return sympy.floor(a / b) if b != 0 else None
            if op is ast.Mod:
                return sympy.Mod(a, b) if b != 0 else None
            if op is ast.LShift and b.is_Integer:
                return a * 2 ** int(b)
            if op is ast.RShift and b.is_Integer:
                return sympy.floor(a / 2 ** int(b))
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            vals = [self._eval(a, params, depth + 1) for a in node.args]
            if None in vals or not vals:
                return None
            return sympy.Min(*vals) if node.func.id == "min" else sympy.Max(*vals)
        return None

    def evaluate_name(self, name, params, depth):
        saved = self.exprs.pop(name)  # no self-reference
        try:
            tree = _parse(saved)
            return None if tree is None else self._eval(tree, params, depth + 1)
        finally:
            self.exprs[name] = saved

    def number(self, tokens) -> Optional[int]:
        v = self.evaluate(tokens)
        return int(v) if v is not None and v.is_Integer else None


def fold(tokens: list[Token], env: dict) -> Optional[int]:
    """The integer value of `tokens` with `env` (name -> int), or None."""
    return Folder(env).number(tokens)


def split_args(tokens: list[Token]) -> list[list[Token]]:
    """The comma-separated parts of an argument list's tokens (nested brackets kept whole)."""
    return split_commas(tokens)


def _dim3_parts(tokens: list[Token], dims: dict) -> list:
    """The x, y, z expressions (token lists) of a launch-configuration argument."""
    if len(tokens) == 1 and tokens[0].text in dims:
        return dims[tokens[0].text]
    if tokens and tokens[0].text == "dim3" and len(tokens) > 1 and tokens[1].text in ("(", "{"):
        return split_commas(tokens[2:match_close(tokens, 1)])
    if tokens and tokens[0].text == "{":
        return split_commas(tokens[1:match_close(tokens, 0)])
    return [tokens]


def _members(tokens: list[Token], dims: dict) -> list[Token]:
    """`block.x` of a dim3 declared before, replaced by its (parenthesized) x expression; an
    omitted y or z is 1, as dim3's constructor makes it."""
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if (t.kind == "id" and t.text in dims and i + 2 < len(tokens) and tokens[i + 1].text == "."
                and tokens[i + 2].text in ("x", "y", "z")):
            part = (list(dims[t.text]) + [[], [], []])["xyz".index(tokens[i + 2].text)]
            part = part or [Token("num", "1", t.file, t.line, t.col)]
            out += [Token("punct", "(", t.file, t.line, t.col), *part, Token("punct", ")", t.file, t.line, t.col)]
            i += 3
            continue
        out.append(t)
        i += 1
    return out


def find_launches(body: list[Token], env: dict) -> list[LaunchSite]:
    """Launch sites in one host function body, with the declarations before each one."""
    return scan_host(body, env)[0]


def scan_host(body: list[Token], env: dict, callees=frozenset()) -> tuple[list, list]:
    """(launch sites, calls of the host functions named in `callees`) in one host function body,
    each folded with the declarations before it."""
    folder = Folder(env)
    dims: dict = {}  # dim3 name -> [x tokens, y tokens, z tokens]
    sites, calls = [], []
    body = list(body)
    i, n = 0, len(body)
    while i < n:
        if body[i].kind == "id" and body[i].text in callees and i + 1 < n and body[i + 1].text in ("<", "("):
            call, i = _call(body, i, folder)
            if call is not None:
                calls.append(call)
            continue
        t = body[i]
        if t.text == "dim3" and i + 1 < n and body[i + 1].kind == "id":
            name = body[i + 1].text
            j = i + 2
            if j < n and body[j].text in ("(", "{"):
                k = match_close(body, j)
                dims[name] = [_members(a, dims) for a in split_commas(body[j + 1:k])]
                i = k + 1
                continue
            if j < n and body[j].text == "=":
                end = _stmt_end(body, j)
                dims[name] = [_members(a, dims) for a in _dim3_parts(body[j + 1:end], dims)]
                i = end + 1
                continue
        if t.kind == "id" and i + 2 < n and body[i + 1].text == "." and body[i + 2].text in ("x", "y", "z") \
                and i + 3 < n and body[i + 3].text == "=" and t.text in dims:
            end = _stmt_end(body, i + 3)
            parts = list(dims[t.text]) + [[], []]
            parts["xyz".index(body[i + 2].text)] = _members(body[i + 4:end], dims)
            dims[t.text] = parts[:3]
            i = end + 1
            continue
        if t.kind == "id" and i + 1 < n and body[i + 1].text == "=" and (i == 0 or body[i - 1].text in _DECL_WORDS):
            end = _stmt_end(body, i + 1, comma=True)  # `const int nx = 256, ny = 256;`
            folder.exprs[t.text] = _members(body[i + 2:end], dims)
            i = end + 1 if end < n and body[end].text == ";" else end
            continue
        if t.kind == "id" and i + 1 < n and body[i + 1].text in ("<<<", "<"):
            site, i = _launch(body, i, folder, dims)
            if site is not None:
                sites.append(site)
            continue
        i += 1
    return sites, calls


def _targs(tokens, folder: Folder) -> list:
    out = []
    for a in split_commas(tokens) if tokens else []:
        v = folder.number(a)
        out.append(v if v is not None else " ".join(x.text for x in a))
    return out


def _call(body, i, folder: Folder):
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
    return HostCall(t.text, Location(t.file, t.line, t.col), targs, [folder.number(a) for a in args], args), end + 1


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
    grid_parts = (_dim3_parts(cfg[0], dims) if cfg else []) + [[], [], []]
    block_parts = (_dim3_parts(cfg[1], dims) if len(cfg) > 1 else []) + [[], [], []]
    grid = tuple(folder.number(p) if p else (1 if cfg else None) for p in grid_parts[:3])
    block = tuple(folder.number(p) if p else (1 if len(cfg) > 1 else None) for p in block_parts[:3])
    site = LaunchSite(t.text, Location(t.file, t.line, t.col), grid, block, template_args=tvals, args=args,
                      arg_names=names, arg_tokens=call_args)
    site.grid_expr = tuple(folder.evaluate(p, {}) if p else None for p in grid_parts[:3])
    site.folder = folder  # evaluated again once the kernel's parameter names are known
    site.grid_tokens = grid_parts[:3]
    return site, call_end + 1


def grid_in_params(site: LaunchSite, param_names: list) -> tuple:
    """The grid as formulas in the kernel's parameters (where the host passes the variable)."""
    folder = getattr(site, "folder", None)
    if folder is None:
        return (None, None, None)
    params = {host: p for host, p in zip(site.arg_names, param_names) if host is not None}
    out = []
    for toks in site.grid_tokens:
        out.append(folder.evaluate(toks, params) if toks else sympy.Integer(1))
    return tuple(out)


def _stmt_end(tokens: list[Token], i: int, comma: bool = False) -> int:
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j].text
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
        elif (t == ";" or (comma and t == ",")) and depth <= 0:
            return j
    return len(tokens)


# ---------------------------------------------------------------------------------------------
# The launch a kernel is lowered under

DIMS = ("x", "y", "z")


@dataclass
class Launch:
    """The launch configuration a kernel is lowered under (None entries are unknown)."""

    grid: tuple = (None, None, None)
    block: tuple = (None, None, None)
    origin: str = ""
    grid_expr: tuple = (None, None, None)  # the grid in the kernel's own parameters, where known
    location: Optional[Location] = None  # the launch site's, when the launch comes from one


def launch_for(name: str, site: Optional[LaunchSite], overrides: dict, params=(), instance: str = "") -> Launch:
    """The launch a kernel (or one instantiation) is analyzed under: its launch site's, with
    --grid/--block and config (for every kernel, the kernel, or the instantiation) over it."""
    grid = block = grid_expr = (None, None, None)
    origin, location = "", None
    if site is not None:
        grid, block, origin, location = site.grid, site.block, f"launch at {site.location}", site.location
        grid_expr = grid_in_params(site, list(params))
    given = set()
    for key in (None, name) + ((instance,) if instance and instance != name else ()):
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
        for role, given in (("blockDim", low.launch.block), ("gridDim", low.launch.grid)):
            if all(v is None for v in given):
                continue
            if given[k] is None:
                unknown.append(f"{role}_{d}")
                parts.append(low.size_symbol(f"{role}_{d}", origin=origin or "launch (unknown)"))
                said.append(f"{role}.{d} unknown")
            elif given[k] != 1:
                parts.append(sympy.Integer(given[k]))
                said.append(f"{role}.{d} = {given[k]}")
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
