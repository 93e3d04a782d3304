"""Launch sites: `kernel<<<grid, block>>>(args)` in host code, constant-folded.

Host code is C++ that the analysis never parses; the launch configuration is recovered from the
tokens of the host function: integer declarations and `dim3` constructions before the launch are
folded (`int threads = 256; int blocks = (n + threads - 1) / threads;`), then the grid, block,
template arguments and integer call arguments are evaluated.  Anything not foldable stays unknown.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass, field
from typing import Optional

from ..diagnostics import Location
from .tokens import Token, match_angle, match_close


@dataclass
class LaunchSite:
    kernel: str
    location: Location
    grid: tuple = (None, None, None)
    block: tuple = (None, None, None)
    template_args: list = field(default_factory=list)  # token texts, one string per argument
    args: list = field(default_factory=list)  # int or None per call argument


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: lambda a, b: int(a / b) if b else None, ast.Mod: operator.mod,
           ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
           ast.BitOr: operator.or_}
_SIZEOF = {"float": 4, "double": 8, "int": 4, "half": 2, "__half": 2, "char": 1, "short": 2, "long": 8,
           "float4": 16, "float2": 8, "__nv_bfloat16": 2, "size_t": 8, "unsigned": 4}


def _eval_node(node, env):
    if isinstance(node, ast.Expression):
        return _eval_node(node.body, env)
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _eval_node(node.operand, env)
        return None if v is None else -v
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a, b = _eval_node(node.left, env), _eval_node(node.right, env)
        if a is None or b is None or (isinstance(node.op, (ast.FloorDiv, ast.Mod)) and b == 0):
            return None
        return _BINOPS[type(node.op)](a, b)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
        vals = [_eval_node(a, env) for a in node.args]
        if None in vals or not vals:
            return None
        return min(vals) if node.func.id == "min" else max(vals)
    return None


def fold(tokens: list[Token], env: dict) -> Optional[int]:
    """Evaluate an integer C expression given as tokens, or None."""
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
        if t.text == "(" and i + 2 < len(tokens) and tokens[i + 1].kind == "id" and tokens[i + 2].text == ")" \
                and tokens[i + 1].text in ("int", "long", "unsigned", "size_t", "unsigned int"):
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
                parts.append(str(int(text, 0) if not text.startswith("0") or text.startswith("0x") or text == "0"
                                 else int(text, 8)))
            except ValueError:
                return None
        elif t.kind == "id":
            if t.text == "std" or t.text == "__SR_SIZE":
                i += 1
                continue
            parts.append(t.text)
        elif t.text == "/":
            parts.append("//")
        elif t.text in ("+", "-", "*", "%", "(", ")", "<<", ">>", "&", "|", ","):
            parts.append(t.text)
        else:
            return None
        i += 1
    text = " ".join(parts)
    # __SR_SIZE(N, 1024) arrives as ( N , 1024 ): take the bound size's value, else the default
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    if isinstance(tree.body, ast.Tuple) and len(tree.body.elts) == 2:
        name, default = tree.body.elts
        if isinstance(name, ast.Name) and name.id in env and env[name.id] is not None:
            return env[name.id]
        return _eval_node(default, env)
    return _eval_node(tree, env)


def _split_args(tokens: list[Token]) -> list[list[Token]]:
    args, cur, depth = [], [], 0
    for t in tokens:
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        if t.text == "," and depth == 0:
            args.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        args.append(cur)
    return args


def _dim3(tokens: list[Token], env: dict, dims: dict) -> tuple:
    if len(tokens) == 1 and tokens[0].text in dims:
        return dims[tokens[0].text]
    if tokens and tokens[0].text == "dim3" and len(tokens) > 1 and tokens[1].text in ("(", "{"):
        inner = tokens[2:match_close(tokens, 1)]
        vals = [fold(a, env) for a in _split_args(inner)]
        return tuple((vals + [1, 1, 1])[:3])
    v = fold(tokens, env)
    return (v, 1, 1)


def find_launches(body: list[Token], env: dict) -> list[LaunchSite]:
    """Launch sites in one host function body, folding declarations in order."""
    env = dict(env)
    dims: dict = {}
    sites = []
    i = 0
    n = len(body)
    while i < n:
        t = body[i]
        # dim3 NAME(a, b, c);  dim3 NAME = dim3(...);  dim3 NAME = {a, b};  dim3 NAME(a);
        if t.text == "dim3" and i + 1 < n and body[i + 1].kind == "id":
            name = body[i + 1].text
            j = i + 2
            if j < n and body[j].text in ("(", "{"):
                k = match_close(body, j)
                vals = [fold(a, env) for a in _split_args(body[j + 1:k])]
                dims[name] = tuple((vals + [1, 1, 1])[:3])
                i = k + 1
                continue
            if j < n and body[j].text == "=":
                end = _stmt_end(body, j)
                dims[name] = _dim3(body[j + 1:end], env, dims)
                i = end + 1
                continue
        # [const] int|unsigned|size_t|long|auto NAME = expr;   NAME = expr;  (also NAME.x = e for dim3)
        if t.kind == "id" and i + 1 < n and body[i + 1].text == "=" and (i == 0 or body[i - 1].text in (
                ";", "{", "}", "int", "unsigned", "size_t", "long", "auto", "const", "constexpr", "int64_t",
                "uint32_t", "int32_t", ",")):
            end = _stmt_end(body, i + 1)
            env[t.text] = fold(body[i + 2:end], env)
            i = end + 1
            continue
        if t.kind == "id" and i + 1 < n and body[i + 1].text in ("<<<", "<"):
            j = i + 1
            targs = False
            if body[j].text == "<":
                k = match_angle(body, j)
                if k < 0 or k + 1 >= n or body[k + 1].text != "<<<":
                    i += 1
                    continue
                targs = True
                j = k + 1
            close = next((k for k in range(j, n) if body[k].text == ">>>"), None)
            if close is None or close + 1 >= n or body[close + 1].text != "(":
                i += 1
                continue
            cfg = _split_args(body[j + 1:close])
            call_end = match_close(body, close + 1)
            args = [fold(a, env) for a in _split_args(body[close + 2:call_end])]
            grid = _dim3(cfg[0], env, dims) if cfg else (None, None, None)
            block = _dim3(cfg[1], env, dims) if len(cfg) > 1 else (None, None, None)
            tvals = []
            for a in _split_args(body[i + 2:j - 1]) if targs else []:
                v = fold(a, env)  # a non-type argument's value, else the type's spelling
                tvals.append(v if v is not None else " ".join(x.text for x in a))
            sites.append(LaunchSite(t.text, Location(t.file, t.line, t.col), grid, block, tvals, args))
            i = call_end + 1
            continue
        i += 1
    return sites


def _stmt_end(tokens: list[Token], i: int) -> int:
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j].text
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
        elif t == ";" and depth <= 0:
            return j
    return len(tokens)
