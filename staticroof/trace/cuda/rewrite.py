"""CUDA C++ that the trace must still make runnable C after the front end's rewrite (which is made
for parsing, not for compiling): texture fetches, dynamic shared memory, overloaded functions.

- `tex1Dfetch<T>(obj, i)` reads element i of the linear memory bound to the texture object: it
  becomes `((T *)(obj))[i]`, an ordinary instrumented read, and the texture object parameter
  gets a region of its own like any array (named after the parameter).  Fetches with filtered
  float coordinates (tex1D/tex2D/tex3D) depend on the texture's own extent, which the kernel
  does not state: they are refused.
- `extern __shared__ T s[]` (any kernel's, at any scope) becomes a static array of 256 KiB, more
  than any GPU's per-block maximum; shared memory is on-chip, never counted as DRAM.
- Overloads (`float sq(float)` and `double sq(double)`) get distinct C names, and each call picks
  the one C++ overload resolution would, from its arguments' real types (see overloads.py).
- A writable reference parameter (`float &yi`, which the front end's C drops to a copy) becomes a
  pointer: the callee uses `*yi`, each call passes `&arg`, so the callee's stores reach the caller.
- A template kernel runs as one instantiation (`axpy<double>`, named as the analysis names it); a
  template `__device__` function is compiled once per candidate type and called like an overload,
  so each call gets the instantiation its arguments deduce.
"""

from __future__ import annotations

import copy
import functools
import itertools

from pycparser import c_ast, c_generator

from ...frontends.common.tokens import Token, match_angle, match_close, render, split_commas, tokenize
from ...frontends.cuda import templates
from ...frontends.cuda.grammar import table
from ...frontends.cuda.headers import template_params
from .. import TraceError

_FETCH = "tex1Dfetch"
# the fetches at filtered coordinates, from the builtin table (grammars/cuda.toml)
_FILTERED = frozenset(n for n, e in table()["intrinsics"].items()
                      if e["kind"] == "texture" and e.get("coordinates") == "filtered")
TEXTURE_PRELUDE = '#line 1 "<staticroof-trace-prelude>"\ntypedef unsigned long long cudaTextureObject_t;\n'


def _punct(text: str, at: Token) -> Token:
    return Token("punct", text, at.file, at.line, at.col)


def _fetches(tokens: list, types: dict) -> list:
    out, i, n = [], 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t.kind == "id" and t.text in _FILTERED and i + 1 < n and tokens[i + 1].text in ("<", "("):
            raise TraceError(f"{t.file}:{t.line}: `{t.text}` reads a texture at filtered coordinates, which "
                             "depend on the texture's extent the kernel does not state; only tex1Dfetch "
                             "can be traced")
        if t.kind != "id" or t.text != _FETCH:
            out.append(t)
            i += 1
            continue
        close = match_angle(tokens, i + 1) if i + 1 < n and tokens[i + 1].text == "<" else -1
        if close < 0:
            raise TraceError(f"{t.file}:{t.line}: tex1Dfetch without an element type is a texture reference "
                             "(removed in CUDA 12); only texture objects (tex1Dfetch<T>) can be traced")
        if close + 1 >= n or tokens[close + 1].text != "(":
            out.append(t)
            i += 1
            continue
        end = match_close(tokens, close + 1)
        elem = tokens[i + 2:close]
        args = split_commas(tokens[close + 2:end])
        if len(args) != 2:
            raise TraceError(f"{t.file}:{t.line}: tex1Dfetch takes a texture object and an index")
        obj, index = args[0], _fetches(args[1], types)
        spelling = " ".join(x.text for x in elem)
        if len(obj) == 1 and obj[0].kind == "id":
            types.setdefault(obj[0].text, set()).add(spelling)
        p = functools.partial(_punct, at=t)
        out += [p("("), p("("), *elem, p("*"), p(")"), p("("), *obj, p(")"), p(")"), p("["), *index, p("]")]
        i = end + 1
    return out


def textures(text: str, path: str) -> tuple[str, dict]:
    """`text` with texture fetches as reads of the object's linear memory, and each texture object
    name's element type spellings."""
    if _FETCH not in text and not any(f in text for f in _FILTERED):
        return text, {}
    types: dict = {}
    tokens = _fetches(tokenize(text, path), types)
    return TEXTURE_PRELUDE + render(tokens), types


def _declared_type(t):
    """A copy of a declarator's type without its name or top-level qualifiers (`const float x` is
    `float`, an array parameter is a pointer): the type `_Generic` sees."""
    t = copy.deepcopy(t)
    if isinstance(t, c_ast.ArrayDecl):
        t = c_ast.PtrDecl([], t.type)
    if isinstance(t, (c_ast.TypeDecl, c_ast.PtrDecl)):
        t.quals = []
    inner = t
    while not isinstance(inner, c_ast.TypeDecl) and hasattr(inner, "type"):
        inner = inner.type
    if isinstance(inner, c_ast.TypeDecl):
        inner.declname = None
    return t


def type_text(t) -> str:
    return c_generator.CGenerator().visit(c_ast.Typename(None, [], None, _declared_type(t)))


def shared_memory(nodes) -> None:
    """`__shared__` (lowered as `register`) arrays become static; unsized ones get 256 KiB."""
    def visit(n):
        if isinstance(n, c_ast.Decl) and "register" in (n.storage or []):
            n.storage = ["static"]
            if isinstance(n.type, c_ast.ArrayDecl) and n.type.dim is None:
                n.type.dim = c_ast.ID(f"(__SR_DYN_SHARED_BYTES / sizeof({type_text(n.type.type)}))")
        for _, child in n.children():
            visit(child)

    for n in nodes:
        visit(n)


def overloads(funcs: list) -> dict:
    """Rename each overload of a name defined more than once: {name: [(C name, [parameter type])]}."""
    by_name: dict = {}
    for fn in funcs:
        by_name.setdefault(fn.decl.name, []).append(fn)
    out: dict = {}
    for name, defs in by_name.items():
        if len(defs) < 2:
            continue
        out[name] = []
        for k, fn in enumerate(defs):
            new = f"{name}__sr_overload{k}"
            fn.decl.name = new
            t = fn.decl.type
            while not isinstance(t, c_ast.TypeDecl):
                t = t.type
            t.declname = new
            params = fn.decl.type.args.params if fn.decl.type.args else []
            # every parameter by position, named or not (`int /* flags */` is a Typename)
            types = [type_text(p.type) for p in params if not isinstance(p, c_ast.EllipsisParam)]
            if types == ["void"]:
                types = []
            out[name].append((new, types))
    return out


def instance(src, kernel: str) -> tuple:
    """(function name, {type alias: spelling}, {value parameter: int}, launch site) of `kernel`:
    a kernel's name, or one instantiation's as the analysis names it (`axpy<double>`; the plain
    name is the first instantiation)."""
    base = kernel.partition("<")[0]
    item = src.kernel_items.get(base)
    params = template_params(item.template) if item is not None and item.template else []
    if not params:
        return base, {}, {}, src.sites.get(base)
    found = templates.resolve_instances(base, item, src, params, lambda spelling: spelling or None, "float")
    chosen = next((r for r in found if r.name == kernel), found[0] if found and base == kernel else None)
    if chosen is None:
        raise TraceError(f"`{kernel}`: the file makes no such instantiation (it makes "
                         f"{', '.join(r.name for r in found) or 'none'})")
    return base, chosen.types, chosen.values, chosen.site


def _bind_types(node, bound: dict) -> None:
    """Spell each type alias of `bound` (a template's type parameter) as its bound type, in place."""
    if isinstance(node, c_ast.IdentifierType) and len(node.names) == 1 and node.names[0] in bound:
        node.names = bound[node.names[0]].split()
    for _, child in node.children():
        _bind_types(child, bound)


def instantiate(ext: list, src, types: list) -> list:
    """`ext` with each template `__device__` function replaced by one copy per combination of the
    candidate `types` for its type parameters (copies with the same parameter types kept once);
    the copies share the name, so `overloads` tells them apart by argument types."""
    out = []
    for n in ext:
        item = src.kernel_items.get(n.decl.name) if isinstance(n, c_ast.FuncDef) else None
        aliases = [a for a, (_sp, _p, it) in src.type_aliases.items() if it is item] if item is not None else []
        if item is None or not aliases or "__global__" in item.qualifiers:
            out.append(n)
            continue
        seen = set()
        for combo in itertools.islice(itertools.product(types, repeat=len(aliases)), 256):
            fn = copy.deepcopy(n)
            _bind_types(fn, dict(zip(aliases, combo, strict=True)))
            params = fn.decl.type.args.params if fn.decl.type.args else []
            key = tuple(type_text(p.type) for p in params if isinstance(p, c_ast.Decl))
            if key not in seen:
                seen.add(key)
                out.append(fn)
    return out


def references(ext: list, refs: set) -> None:
    """Writable reference parameters (where `refs` names them, see headers.clean_params) as pointers,
    in place: the parameter's type, its uses in the callee and the arguments of every call."""
    funcs = [n for n in ext if isinstance(n, c_ast.FuncDef)]
    by_name: dict = {}
    for fn in funcs:
        by_name.setdefault(fn.decl.name, []).append(fn)
    positions: dict = {}  # function name -> indices of its reference parameters
    for fn in funcs:
        params = fn.decl.type.args.params if fn.decl.type.args is not None else []
        found = [k for k, p in enumerate(params) if isinstance(p, c_ast.Decl) and p.coord is not None
                 and (p.coord.file, p.coord.line, p.coord.column) in refs]
        if not found:
            continue
        if len(by_name[fn.decl.name]) > 1:
            raise TraceError(f"`{fn.decl.name}` is overloaded and takes a reference parameter: which "
                             "calls bind it cannot be told here")
        names = set()
        for k in found:
            p = params[k]
            p.type = c_ast.PtrDecl([], p.type, p.coord)
            names.add(p.name)
        _dereference(fn.body, names)
        positions[fn.decl.name] = found
    for fn in funcs:
        for call in _calls(fn.body):
            at = positions.get(call.name.name)
            if at and call.args is not None:
                for k in at:
                    if k < len(call.args.exprs):
                        call.args.exprs[k] = c_ast.UnaryOp("&", call.args.exprs[k], call.coord)


def _calls(node):
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
        yield node
    for _, child in node.children():
        yield from _calls(child)


def _dereference(node, names: set) -> None:
    """Every use of one of `names` under `node` as `(*name)`."""
    for attr in getattr(node, "__slots__", ()):
        if isinstance(node, c_ast.StructRef) and attr == "field":
            continue
        child = getattr(node, attr, None)
        if isinstance(child, c_ast.ID) and child.name in names:
            setattr(node, attr, c_ast.UnaryOp("*", child, child.coord))
        elif isinstance(child, list):
            for k, item in enumerate(child):
                if isinstance(item, c_ast.ID) and item.name in names:
                    child[k] = c_ast.UnaryOp("*", item, item.coord)
                elif isinstance(item, c_ast.Node):
                    _dereference(item, names)
        elif isinstance(child, c_ast.Node):
            _dereference(child, names)
