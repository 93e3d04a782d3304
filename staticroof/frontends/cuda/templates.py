"""Template kernels: the instantiations a .cu file makes, each of which is its own result.

A template kernel's counts depend on its arguments (`axpy<uint8_t>` moves 1 B per element,
`axpy<double2>` 16 B), so each distinct instantiation found in the file is lowered on its own.
They come from:

- launch sites, with explicit arguments (`axpy<double><<<g, b>>>(...)`) or deduced from the
  arguments' declared types (`axpy<<<g, b>>>(n, d_x)` with `double *d_x;`);
- explicit instantiations (`template __global__ void axpy<double>(...);`, `extern template ...`);
- calls of a template host launcher (`launch_axpy<float>(n, x)` or `launch_axpy(n, x)` with its
  parameters' types deduced), whose body launches the kernel with the launcher's parameters.

Deduction reads declarations only (`T *x` against `double *d_x`, `T a` against `2.0f`); anything
else stays undeduced, and a kernel with no complete instantiation is analyzed once under `float`
with SR114 (approximate).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from ...diagnostics import Location
from ..common.tokens import Token, match_angle, match_close, split_commas
from .launch import LaunchSite, find_launches, fold, function_returns, scan_host, split_args

# Fixed-width and other spellings that need no header to mean a type.
FIXED = {"int8_t": "signed char", "uint8_t": "unsigned char", "int16_t": "short", "uint16_t": "unsigned short",
         "int32_t": "int", "uint32_t": "unsigned int", "int64_t": "long", "uint64_t": "unsigned long",
         "size_t": "unsigned long", "half": "__half", "nv_bfloat16": "__nv_bfloat16"}
_QUALS = {"const", "volatile", "struct", "typename", "std", "::", "__restrict__", "restrict", "&"}
_TYPE_WORDS = {"void", "char", "short", "int", "long", "float", "double", "unsigned", "signed", "bool", "_Bool",
               "__half", "half", "__nv_bfloat16", "nv_bfloat16", "__half2", "half2", "__nv_bfloat162"} | set(FIXED)


def normalize(spelling: str) -> str:
    """A type argument as one canonical spelling (`std::uint8_t`, `const float` -> `uint8_t`, `float`)."""
    words = [w for w in spelling.replace("::", " :: ").split() if w not in _QUALS]
    return " ".join(words)


@dataclass
class Instance:
    """One instantiation of a template kernel: its arguments (type spellings and ints, None where
    unknown) and the launch site that makes it (None for an explicit instantiation)."""

    args: tuple
    site: LaunchSite | None = None
    location: Location | None = None

    def label(self) -> str:
        return ", ".join("?" if a is None else str(a) for a in self.args)


@dataclass
class _Fn:
    """What deduction needs of a template function: its template and value parameters."""

    tparams: list  # TemplateParam
    params: list = field(default_factory=list)  # (name, type tokens)


def _fn_params(header: list[Token]) -> list:
    """(name, type tokens) of each parameter in a function header, in order; the name is None for
    an unnamed one (`int /* stream */`, `T *`), so that arguments pair with parameters by position."""
    close = len(header) - 1
    while close >= 0 and header[close].text != ")":
        close -= 1
    depth, open_ = 0, -1
    for k in range(close, -1, -1):
        depth += header[k].text == ")"
        depth -= header[k].text == "("
        if depth == 0:
            open_ = k
            break
    out: list = []
    parts = split_args(header[open_ + 1:close]) if open_ >= 0 else []
    if [[t.text for t in a] for a in parts] == [["void"]]:
        return out
    for arg in parts:
        arg = arg[:next((k for k, t in enumerate(arg) if t.text == "="), len(arg))]
        ids = [k for k, t in enumerate(arg) if t.kind == "id" and t.text not in _QUALS and t.text not in _TYPE_WORDS]
        if len(arg) > 1 and ids and ids[-1] == len(arg) - 1:
            out.append((arg[-1].text, arg[:-1]))
        elif arg:
            out.append((None, arg))
    return out


def declared_types(fn_header: list[Token], body: list[Token]) -> dict:
    """{variable: (type spelling, pointer depth)} from a host function's parameters and its
    declarations (`double *d_x, *d_y;`, `float alpha = 2.0f;`)."""
    out = {name: _spelling(toks) for name, toks in _fn_params(fn_header) if name is not None} if fn_header else {}
    i, n = 0, len(body)
    while i < n:
        j = i
        while (j < n and body[j].text in ("const", "static", "volatile", "unsigned", "signed", "std", "::")) or (
                j < n and body[j].kind == "id" and body[j].text in _TYPE_WORDS | {"float4", "double2", "float2",
                                                                                   "int4", "uint4"}):
            j += 1
        if j > i and j < n and (body[j].text == "*" or body[j].kind == "id"):
            base = normalize(" ".join(t.text for t in body[i:j]))
            k = j
            while k < n:
                stars = 0
                while k < n and body[k].text == "*":
                    stars += 1
                    k += 1
                if k < n and body[k].kind == "id":
                    out[body[k].text] = (base, stars)
                    k += 1
                depth = 0
                while k < n and not (depth == 0 and body[k].text in (",", ";", ")")):
                    depth += body[k].text in ("(", "[", "{")
                    depth -= body[k].text in (")", "]", "}")
                    k += 1
                if k >= n or body[k].text != ",":
                    break
                k += 1
            i = max(k, i + 1)
            continue
        i += 1
    return out


def _spelling(type_tokens: list[Token]) -> tuple:
    stars = sum(t.text == "*" for t in type_tokens)
    return normalize(" ".join(t.text for t in type_tokens if t.text != "*")), stars


def _literal_type(tokens: list[Token]) -> tuple | None:
    from .classdefs import registry

    if len(tokens) >= 3 and tokens[0].text in registry().classes and tokens[1].text in ("{", "(") and \
            tokens[-1].text in ("}", ")"):
        return (tokens[0].text, 0)  # a temporary of a class: `Square{}`, `AxpbOp{2.0f, 1.0f}`
    if len(tokens) == 2 and tokens[0].text == "-":
        tokens = tokens[1:]
    if len(tokens) != 1 or tokens[0].kind != "num":
        return None
    text = tokens[0].text.lower()
    if text.startswith("0x"):
        return ("int", 0)
    if any(c in text for c in ".e"):
        return ("float", 0) if text.endswith("f") else ("double", 0)
    return ("int", 0)


def deduce(fn: _Fn, arg_tokens: list, types: dict, given: list) -> list:
    """The template arguments of a call: `given` (explicit, in order) completed by deduction from
    each argument's declared type; None where neither decides."""
    out = list(given) + [None] * (len(fn.tparams) - len(given))
    names = {p.name: k for k, p in enumerate(fn.tparams)}
    for (_pname, ptoks), arg in zip(fn.params, arg_tokens, strict=False):
        pspell, pstars = _spelling(ptoks)
        k = names.get(pspell)
        if k is None or out[k] is not None or not fn.tparams[k].is_type:
            continue
        if len(arg) == 1 and arg[0].kind == "id" and arg[0].text in types:
            base, stars = types[arg[0].text]
        else:
            lit = _literal_type(arg)
            if lit is None:
                continue
            base, stars = lit
        if stars == pstars and base:
            out[k] = base
    for k, p in enumerate(fn.tparams):
        if out[k] is None and p.default is not None:
            out[k] = normalize(p.default) if p.is_type else p.default
    return out


def explicit(items, kernels: dict) -> list:
    """(kernel, template arguments, Location) of each explicit instantiation of a kernel."""
    out = []
    for it in items:
        toks = it.tokens
        if it.is_function or not toks or toks[0].text not in ("template", "extern"):
            continue
        for k in range(len(toks) - 1):
            t = toks[k]
            if t.kind == "id" and t.text in kernels and toks[k + 1].text == "<":
                close = match_angle(toks, k + 1)
                if close > 0:
                    args = [_targ(a) for a in split_args(toks[k + 2:close])]
                    out.append((t.text, args, Location(t.file, t.line, t.col)))
                break
    return out


_BOOLS = {"true": 1, "false": 0}


def _targ(tokens: list[Token]):
    v = fold(tokens, {})
    return v if v is not None else normalize(" ".join(t.text for t in tokens))


def _substitute(args: list, mapping: dict) -> list:
    """A launch's template arguments with the launcher's parameters replaced by the call's."""
    out = []
    for a in args:
        if isinstance(a, str):
            words = a.split()
            if len(words) == 1 and words[0] in mapping:
                out.append(mapping[words[0]])
                continue
            out.append(" ".join(str(mapping.get(w, w)) for w in words))
        else:
            out.append(a)
    return out


def instances(items, env: dict, kernels: dict, template_params, known: list | None = None) -> dict:
    """{kernel name: [Instance]} for every template kernel (`kernels`: name -> Item), distinct
    by their arguments, in the order the file makes them.  `known`: the sites launch.host_sites
    found, with what the callers of their host function passed: a launch in a plain host function
    (`reduce_sum(n, threads, blocks)`) takes its site from there."""
    by_place: dict = {}
    returns = function_returns(items)
    for site in known or []:
        by_place.setdefault((site.location.file, site.location.line, site.location.col), site)
    fns = {name: _Fn(template_params(it.template), _fn_params(it.header)) for name, it in kernels.items()}
    launchers = {it.name: it for it in items if it.is_function and it.template
                 and not ({"__global__", "__device__"} & it.qualifiers)}
    lfns = {name: _Fn(template_params(it.template), _fn_params(it.header)) for name, it in launchers.items()}
    found: dict = {name: [] for name in kernels}

    def add(name, args, site, loc):
        found[name].append(Instance(tuple(args), site, loc))

    def sites_in(it, scope_env, mapping, call=None):
        types = declared_types(it.header, it.body)
        for site in find_launches(it.body, scope_env, returns=returns):
            if call is None:
                site = by_place.get((site.location.file, site.location.line, site.location.col), site)
            if site.kernel in fns:
                given = _substitute(site.template_args, mapping)
                args = deduce(fns[site.kernel], site.arg_tokens, types, given)
                args = _substitute(args, mapping)
                add(site.kernel, args, site, call.location if call is not None else site.location)

    for it in items:
        if not it.is_function or {"__global__", "__device__"} & it.qualifiers or it.name in launchers:
            continue
        sites_in(it, env, {})
        types = declared_types(it.header, it.body)
        for call in scan_host(it.body, env, set(launchers))[1]:
            lfn = lfns[call.name]
            targs = deduce(lfn, call.arg_tokens, types, call.template_args)
            mapping = {p.name: a for p, a in zip(lfn.tparams, targs, strict=False) if a is not None}
            scope = dict(env)
            for (pname, _), value in zip(lfn.params, call.args, strict=False):
                if pname is not None and value is not None:
                    scope[pname] = value
            sites_in(launchers[call.name], scope, mapping, call)
    for name, args, loc in explicit(items, kernels):
        if name in fns:
            add(name, deduce(fns[name], [], {}, args), None, loc)
    return {name: _distinct(sorted(found[name], key=_where)) for name in kernels}


def host_instances(items, template_params) -> dict:
    """{function: [Instance]} for the template functions of a C++ host file (host.py): the calls
    that give their arguments (`axpby<double>(...)`) or whose arguments' declared types deduce them
    (`axpby(n, a, x.data(), ...)` with `std::vector<double> x`), and explicit instantiations.  The
    calls in a template's own body are not read: their arguments are that template's parameters."""
    fns = {it.name: _Fn(template_params(it.template), _fn_params(_as_pointers(it.header)))
           for it in items if it.is_function and it.template and not _qualified(it)}
    found: dict = {name: [] for name in fns}
    if not fns:
        return found
    members: dict = {}  # the data members of the file's classes, for their member functions' calls
    for it in items:
        if not it.is_function and any(t.text in ("class", "struct") for t in it.tokens[:4]):
            members.update(declared_types([], _as_pointers(it.tokens)))
    scopes = []  # (header, body) of each function, and of each member function defined in a class
    for it in items:
        if it.is_function and not it.template:
            scopes.append((it.header, it.body))
        elif not it.is_function:
            scopes += _inline_members(it.tokens)
    for header, body in scopes:
        body = _as_pointers(body)
        types = {**members, **declared_types(_as_pointers(header), body)}
        for t, given, arg_tokens in _calls(body, fns):
            args = deduce(fns[t.text], [_data_of(a) for a in arg_tokens], types, given)
            found[t.text].append(Instance(tuple(args), None, Location(t.file, t.line, t.col)))
    for name, args, loc in explicit(items, fns):
        found[name].append(Instance(tuple(deduce(fns[name], [], {}, args)), None, loc))
    return {name: _distinct(sorted(found[name], key=_where)) for name in fns}


def _calls(body: list[Token], names) -> list:
    """(name token, explicit template arguments, argument token lists) of each call of a function
    in `names` (`f<double>(a, b)`, `f(a, b)`; not `obj.f(...)`), wherever it stands in `body`."""
    out, n = [], len(body)
    for k, t in enumerate(body):
        if t.kind != "id" or t.text not in names or (k > 0 and body[k - 1].text in (".", "->")):
            continue
        j, given = k + 1, []
        if j < n and body[j].text == "<":
            close = match_angle(body, j)
            if close < 0:
                continue
            given = [_targ(a) for a in split_commas(body[j + 1:close], angles=True)]
            j = close + 1
        if j < n and body[j].text == "(":
            out.append((t, given, split_commas(body[j + 1:match_close(body, j)])))
    return out


def explicit_calls(items, template_params) -> dict:
    """{(file, line, col) of the name: [(type parameter, argument spelling)]} for each call of a
    function template with explicit template arguments (`sq<double>(x[i])`), anywhere in the file:
    the C the lowering reads has dropped them, and they decide, not the arguments' types."""
    fns = {it.name: template_params(it.template) for it in items if it.is_function and it.template}
    out: dict = {}
    if not fns:
        return out
    for it in items:
        for t, given, _args in _calls(it.tokens, fns):
            pairs = [(p.name, a) for p, a in zip(fns[t.text], given, strict=False) if p.is_type and isinstance(a, str)]
            if pairs:
                out[(t.file, t.line, t.col)] = pairs
    return out


def explicit_types(low, node, name: str, aliases: dict) -> dict:
    """{alias: C type} of the explicit type arguments of the call `node` of template `name` (see
    explicit_calls); an argument naming the caller's own template parameter is that parameter's
    type in this lowering."""
    from .classdefs import registry

    c = node.coord
    pairs = getattr(low.tu, "explicit_targs", {}).get((c.file, c.line, c.column)) if c is not None else None
    out: dict = {}
    caller = low.fn.decl.name
    m = registry().methods.get(caller)
    cls = registry().classes.get(m.owner) if m is not None else None
    for pname, spelling in pairs or ():
        alias = aliases.get(pname)
        own = [f"__sr_{caller}_{spelling}"] + ([cls.alias(spelling)] if cls is not None else [])
        t = next((low.tu.types.builtin[a] for a in own if a in low.tu.types.builtin), None) or resolve_type(
            spelling, low.tu.types.builtin, low.tu)
        if alias is not None and t is not None:
            out[alias] = t
    return out


def _inline_members(tokens: list[Token]) -> list:
    """(header, body) of each function defined inside a class (or namespace-level item) body:
    a `{...}` after a `)` (or `) const`, `) override`, ...), its header back to the last `;`, `{`,
    `}` or access label."""
    out, k, n = [], 0, len(tokens)
    start = 0
    while k < n:
        x = tokens[k].text
        if x in (";", "}") or (x == ":" and k > 0 and tokens[k - 1].text in ("public", "private", "protected")):
            start = k + 1
        elif x == "{":
            j = k - 1
            while j > start and tokens[j].text in ("const", "override", "noexcept", "final", "volatile"):
                j -= 1
            if j > start and tokens[j].text == ")":
                close = match_close(tokens, k)
                out.append((tokens[start:k], tokens[k + 1:close]))
                k, start = close + 1, close + 1
                continue
            start = k + 1
        k += 1
    return out


def _qualified(it) -> bool:
    """A member function defined outside its class (`void Grid<T>::step()`), not a free function."""
    names = [k for k, t in enumerate(it.header) if t.text == it.name]
    return bool(names) and names[-1] > 0 and it.header[names[-1] - 1].text == "::"


_CONTAINERS = ("vector", "span", "valarray")


def _as_pointers(tokens: list[Token]) -> list[Token]:
    """`std::vector<T>` (a span, a valarray) as `T *`, for deduction: it holds T as a pointer does."""
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t.text in _CONTAINERS and i + 1 < n and tokens[i + 1].text == "<":
            close = match_angle(tokens, i + 1)
            if close > 0:
                if len(out) >= 2 and out[-1].text == "::" and out[-2].text == "std":
                    del out[-2:]
                elem = split_commas(tokens[i + 2:close], angles=True)
                out += (elem[0] if elem else []) + [Token("punct", "*", t.file, t.line, t.col)]
                i = close + 1
                while i < n and tokens[i].text in ("&", "&&"):  # `const std::vector<T> &x`: the pointer
                    i += 1
                continue
        out.append(t)
        i += 1
    return out


def _data_of(arg: list[Token]) -> list[Token]:
    """`x.data()` as `x` (the container's elements), any other argument as it is."""
    texts = [t.text for t in arg]
    return arg[:1] if len(arg) == 5 and arg[0].kind == "id" and texts[1:] == [".", "data", "(", ")"] else arg


def _where(inst: Instance) -> tuple:
    loc = inst.location
    return (loc.file, loc.line, loc.col) if loc is not None else ("", 0, 0)


def _distinct(found: list) -> list:
    """One Instance per argument list; an incomplete one (an argument neither given nor deduced)
    only when nothing complete was found."""
    complete = [x for x in found if None not in x.args]
    keep = complete or found[:1]
    out, seen = [], set()
    for x in keep:
        if x.args not in seen:
            seen.add(x.args)
            out.append(x)
    return out




# ---------------------------------------------------------------------------------------------
# Lowering one result per instantiation

@dataclass
class Resolved:
    """An instantiation ready to lower: its result's name, the C types of its type parameters'
    aliases, its value parameters, the parameters whose type had to be assumed, and its site."""

    name: str
    types: dict  # alias -> CType
    values: dict  # value parameter -> int or None
    assumed: list  # type parameter names assumed float
    site: LaunchSite | None


def resolve_instances(name: str, item, src, params: list, resolve, float_type, labeled: bool = False) -> list:
    """The distinct instantiations of kernel `name` (one for a plain kernel), each with its types.
    `resolve(spelling)` gives a CType or None; `float_type` is what an unknown type becomes.
    `labeled`: a single instantiation is named with its arguments too (`axpby<double>`; a C++ host
    function template), unless an argument had to be assumed."""
    if not params:
        return [Resolved(name, {}, {}, [], src.sites.get(name))]
    labeled = labeled and bool(src.instances.get(name))  # a name for each instantiation the file makes
    found = src.instances.get(name) or [Instance(tuple(p.default for p in params), src.sites.get(name))]
    out, seen = [], set()
    for inst in found:
        types, values, assumed, key, labels = {}, {}, [], [], []
        for k, p in enumerate(params):
            arg = inst.args[k] if k < len(inst.args) else p.default
            if p.is_type:
                t = resolve(normalize(arg)) if isinstance(arg, str) else None
                if t is None:
                    t = float_type
                    assumed.append(p.name)
                types[f"__sr_{name}_{p.name}"] = t
                key.append(t)
                labels.append(normalize(arg) if isinstance(arg, str) and p.name not in assumed else "float")
            else:
                arg = _BOOLS.get(arg, arg) if isinstance(arg, str) else arg  # `kernel<true>`: 1
                values[p.name] = arg if isinstance(arg, int) else None
                key.append(values[p.name])
                label = "?" if values[p.name] is None else str(values[p.name])
                labels.append({"1": "true", "0": "false"}.get(label, label) if getattr(p, "boolean", False) else label)
        if tuple(key) in seen:
            continue
        seen.add(tuple(key))
        out.append(Resolved(", ".join(labels), types, values, assumed, inst.site))
    for r in out:
        r.name = name if len(out) == 1 and not (labeled and not r.assumed) else f"{name}<{r.name}>"
    return out


def static_type(low, node):
    """The C type of an expression from declarations alone (no evaluation, so no accesses are
    recorded): what deduction of a called template function's parameters needs.  None if unknown."""
    from ..c.types import FLOAT, INT, CType, arith

    if isinstance(node, c_ast.ID):
        var = low.lookup(node.name)
        return var.ctype if var is not None else None
    if isinstance(node, c_ast.Constant):
        if node.type in ("float", "double"):
            return FLOAT["fp32" if node.type == "float" else "fp64"]
        return INT if node.type in ("int", "char") else None
    if isinstance(node, c_ast.Cast):
        return low.tu.types.resolve(node.to_type)
    if isinstance(node, c_ast.ArrayRef):
        t = static_type(low, node.name)
        if t is not None and t.kind == "array" and len(t.dims) > 1:
            return CType("array", base=t.base, dims=t.dims[1:])
        return t.base if t is not None and t.kind in ("ptr", "array") else None
    if isinstance(node, c_ast.UnaryOp) and node.op == "*":
        t = static_type(low, node.expr)
        return t.base if t is not None and t.kind == "ptr" else None
    if isinstance(node, c_ast.UnaryOp) and node.op == "&":
        t = static_type(low, node.expr)
        return CType("ptr", base=t) if t is not None else None
    if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
        return static_type(low, node.expr)
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*", "/"):
        a, b = static_type(low, node.left), static_type(low, node.right)
        if a is None or b is None:
            return None
        if a.is_pointer or b.is_pointer:
            return a if a.is_pointer else b
        return arith(a, b) if (a.is_float or b.is_float) else INT
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.StructRef) and node.name.field.name == "data":
        t = static_type(low, node.name.name)  # `x.data()` of a std::vector (containers.py): its pointer
        return t if t is not None and t.kind == "ptr" else None
    if isinstance(node, c_ast.StructRef) and node.type == ".":
        t = static_type(low, node.name)
        if t is not None and t.is_vector:
            return FLOAT[t.prec] if t.prec in FLOAT else CType("int", t.prec)
    return None


def bind_callee(low, callee, args, aliases: dict, given: dict | None = None) -> dict:
    """Deduce a called template function's type parameters from its arguments' declared types
    (`mul(x[i], a)` with `double *x` makes T double), after those `given` explicitly (alias ->
    C type), and bind their aliases for its lowering.
    Returns the aliases' previous types, to restore after.  A parameter that cannot be deduced
    keeps its type, and the kernel says so (SR114)."""
    decl = callee.decl.type
    params = [p for p in (decl.args.params if decl.args is not None else [])
              if not isinstance(p, c_ast.EllipsisParam)]  # an unnamed parameter's type deduces too
    by_alias = {alias: pname for pname, alias in aliases.items()}
    deduced: dict = dict(given or {})  # explicit arguments (explicit_types) decide first
    for p, a in zip(params, args, strict=False):  # not strict: default arguments
        t, levels = p.type, 0
        while isinstance(t, (c_ast.PtrDecl, c_ast.TypeDecl, c_ast.ArrayDecl)):
            levels += not isinstance(t, c_ast.TypeDecl)
            t = t.type
        if not isinstance(t, c_ast.IdentifierType):
            continue
        alias = next((n for n in t.names if n in by_alias), None)
        if alias is None or alias in deduced:
            continue
        at = static_type(low, a)
        for _ in range(levels):
            at = at.base if at is not None and at.kind in ("ptr", "array") else None
        if at is not None and at.kind in ("float", "int", "vector"):
            deduced[alias] = at
    saved = {}
    for alias, pname in by_alias.items():
        saved[alias] = low.tu.types.builtin.get(alias)
        if alias in deduced:
            low.tu.types.builtin[alias] = deduced[alias]
        elif not getattr(low.tu, "template_defaults", {}).get(alias):
            low.diag("SR114", f"`{callee.decl.name}`: template type `{pname}` is not deduced from this call's "
                     f"arguments; assuming {_c_name(low.tu.types.builtin.get(alias))}", args[0] if args else None)
    return saved


def _c_name(t) -> str:
    names = {"fp32": "float", "fp64": "double", "fp16": "__half", "bf16": "__nv_bfloat16"}
    return names.get(getattr(t, "prec", ""), getattr(t, "prec", "") or "float")


def resolve_type(spelling, types: dict, tu):
    """The C type a template argument spells (`double`, `float4`, `uint8_t`, `__half`), or None."""
    if not spelling:
        return None
    spelling = normalize(spelling)
    return types.get(spelling) or spelled(spelling, tu) or spelled(FIXED.get(spelling, ""), tu) or (
        types.get(FIXED.get(spelling, "")))


def spelled(spelling, tu):
    """A type spelling resolved through the translation unit's typedefs (None if not a number)."""
    if not spelling:
        return None
    t = tu.types.resolve(c_ast.IdentifierType(spelling.replace("const", "").split()))
    return t if t.kind in ("float", "int", "vector") else None
