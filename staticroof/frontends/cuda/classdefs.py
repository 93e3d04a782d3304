"""C++ class definitions read on tokens, and the C they become (see classes.py for the model).

A class definition item (`struct`/`class` with member functions, static members or template
parameters; a plain C struct stays C) becomes a fields function `__srf_<Class>` declaring its data
members and one C function per member function; its uses in function bodies become a mangled type
name (`Packed128<float>`), `__sr_static((X *)0, m)`, `__sr_scall((X *)0, m, args)` and
`__sr_ctor((X *)0, args)`.  The registry of one file's classes is rebuilt by :func:`begin`."""


from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from ..c.types import CType
from ..common.tokens import Token, match_angle, match_close, split_commas
from . import wmma as WM

OPS = {"[]": "index", "()": "call", "+": "add", "-": "sub", "*": "mul", "/": "div", "+=": "iadd", "-=": "isub",
       "*=": "imul", "/=": "idiv", "==": "eq", "!=": "ne", "<": "lt", ">": "gt"}
_QUALS = {"__device__", "__host__", "__forceinline__", "inline", "static", "constexpr", "explicit", "virtual",
          "__inline__", "__noinline__", "friend"}
_EXPR_BEFORE = {"=", "(", ",", "return", "+", "-", "*", "/", "?", ":", "[", "+=", "-=", "*=", "/=", "{", "==", "!="}


def _tok(like: Token, text: str, kind: str = "punct") -> Token:
    return Token(kind, text, like.file, like.line, like.col)


@dataclass
class Method:
    name: str  # `constant`, `__sr_op_index`, `__ctor__`
    cname: str  # the C function it becomes
    arity: int
    static: bool = False
    returns_ref: bool = False
    owner: str = ""  # the class that defines it (a base's function binds names in the base)


@dataclass
class ClassDef:
    name: str
    tparams: list  # headers.TemplateParam
    fields: list = field(default_factory=list)  # token lists, one declaration each
    statics: set = field(default_factory=set)  # names of static data members
    methods: dict = field(default_factory=dict)  # name -> [Method]
    chunks: list = field(default_factory=list)  # (header tokens, body tokens) of each C function
    generic: str = ""  # the mangled name of the class with its own parameters (the injected name)
    spelled: str = ""  # the name the source writes, where `name` is not it (an explicit specialization)
    specs: list = field(default_factory=list)  # (argument spellings, ClassDef): `template<> struct X<double>`

    @property
    def written(self) -> str:
        return self.spelled or self.name

    def alias(self, pname: str) -> str:
        return f"__sr_{self.name}_{pname}"


class Registry:
    """The classes of one .cu file and the mangled names of their instantiations."""

    def __init__(self):
        self.classes: dict = {}
        self.aliases: set = set()  # typedef / using names of class types
        self.mangled: dict = {}  # mangled -> (ClassDef, arg spellings)
        self._keys: dict = {}
        self.methods: dict = {}  # C function name -> Method
        self.using: list = []  # (alias, type tokens) for `using x128 = Packed128<float>;`

    def mangle(self, cls: ClassDef, args: tuple) -> str:
        key = (cls.name, args)
        if key not in self._keys:
            name = f"__srcls{len(self._keys) + 1}_{cls.name}" if cls.tparams else f"__srcls_{cls.name}"
            self._keys[key] = name
            self.mangled[name] = (cls, args)
        return self._keys[key]

    def entry(self, mangled: str):
        return self.mangled.get(mangled.split("@")[0], (None, ()))


_REG = Registry()


def registry() -> Registry:
    return _REG


# ---------------------------------------------------------------------------------------------
# Tokens

def rename_operators(tokens: list) -> list:
    """`operator[]` -> one identifier `__sr_op_index` (and `operator+` -> `__sr_op_add`, ...), so
    that operator functions are ordinary names for the splitter and the parser; and
    `nvcuda::wmma::fragment<...>` -> one type name, before any other rewrite reads its arguments."""
    out: list[Token] = []
    i, n = 0, len(tokens)
    WM.reset()
    # only `operator` and `fragment` start a rewrite: the tokens between them are copied in runs
    # (most of a file is its stub headers' tokens, which have neither)
    starts = [k for k, t in enumerate(tokens) if t.text == "operator" or t.text == "fragment"]
    s = 0
    while i < n:
        while s < len(starts) and starts[s] < i:
            s += 1
        nxt = starts[s] if s < len(starts) else n
        if nxt > i:
            out += tokens[i:nxt]
            i = nxt
            continue
        t = tokens[i]
        frag = WM.rewrite(tokens, i)  # `wmma::fragment<...>`: one type name (wmma.py)
        if frag is not None:
            if out and out[-1].text == "::":
                out.pop()
                if out and out[-1].kind == "id":
                    out.pop()
            if out and out[-1].text == "::":
                out.pop()
                if out and out[-1].kind == "id":
                    out.pop()
            out += frag[0]
            i = frag[1]
            continue
        if t.text == "operator" and i + 1 < n:
            nxt = tokens[i + 1].text
            pair = nxt + tokens[i + 2].text if i + 2 < n else ""
            if pair in ("[]", "()"):
                out.append(_tok(t, f"__sr_op_{OPS[pair]}", "id"))
                i += 3
                continue
            if nxt in OPS:
                out.append(_tok(t, f"__sr_op_{OPS[nxt]}", "id"))
                i += 2
                continue
            conv = _conversion(tokens, i)
            if conv is not None:  # `operator T *()` -> `T * __sr_op_conv()`: its type is its result
                out += tokens[i + 1:conv] + [_tok(t, "__sr_op_conv", "id")]
                i = conv
                continue
        out.append(t)
        i += 1
    return out


def _conversion(tokens: list, i: int) -> int | None:
    """At `operator` (tokens[i]): the index of the `(` of a conversion operator's parameters
    (`operator T *()`, `operator const float *() const`), or None."""
    j = i + 1
    if j >= len(tokens) or tokens[j].kind != "id" or tokens[j].text in ("new", "delete"):
        return None
    while j < len(tokens) and (tokens[j].kind == "id" or tokens[j].text in ("*", "&", "::")):
        j += 1
    return j if j < len(tokens) and tokens[j].text == "(" else None


def _class_head(it) -> tuple | None:
    """(name, index of the body's `{`, base class names, specialization arguments) of a
    `struct`/`class` definition item, or None.  The arguments are the token lists of
    `template<> struct X<double, 4>` (an explicit specialization), `[]` for a class template's
    partial specialization (`template<class T> struct X<T *>`), None for any other class."""
    toks = it.tokens
    k = 0
    if toks and toks[0].text == "template":
        close = match_angle(toks, 1)
        k = close + 1 if close > 0 else len(toks)
    if k >= len(toks) or toks[k].text not in ("struct", "class"):
        return None
    j = k + 1
    name = None
    spec = None
    while j < len(toks) and toks[j].text not in ("{", ";", ":"):
        if toks[j].text == "(":
            j = match_close(toks, j) + 1
            continue
        if toks[j].text == "<" and name is not None and k > 0:  # `struct SharedMemory<double>`
            close = match_angle(toks, j)
            if close < 0:
                return None
            spec = split_commas(toks[j + 1:close], angles=True) if k == 3 else []
            j = close + 1
            continue
        if toks[j].kind == "id" and toks[j].text not in ("alignas", "__align__", "__device_builtin__", "final"):
            name = toks[j].text
        j += 1
    bases = []
    if j < len(toks) and toks[j].text == ":":  # `struct Derived : public Base {`
        j += 1
        while j < len(toks) and toks[j].text != "{":
            if toks[j].kind == "id" and toks[j].text not in ("public", "private", "protected", "virtual"):
                bases.append(toks[j].text)
            j += 1
    if name is None or j >= len(toks) or toks[j].text != "{":
        return None
    return name, j, bases, spec


def begin(items) -> None:
    """Read the file's class definitions (those with member functions, static members or template
    parameters; a plain C struct stays C) and its aliases of class types."""
    global _REG
    _REG = Registry()
    from .headers import template_params

    found = {}
    specs = []
    for it in items:
        head = _class_head(it) if not it.is_function else None
        if head is None:
            continue
        name, brace, bases, spec = head
        members = _members(it.tokens[brace + 1:match_close(it.tokens, brace)])
        if spec is not None:  # a specialization: a class of its own, chosen by its arguments
            specs.append((name, spec, it, members))
            continue
        has_fn = any(fbody is not None or _is_function(h) for h, fbody in members)
        has_static = any(t.text == "static" for h, _ in members for t in h)
        found[name] = (it, members, bases, bool(it.template or has_fn or has_static or bases))
    owned = {n for n, f in found.items() if f[3]}
    owned |= {b for n in owned for b in found[n][2] if b in found}  # a base of a class is a class
    for name, (it, members, bases, _) in found.items():
        if name not in owned:
            continue
        cls = ClassDef(name, template_params(it.template) if it.template else [])
        _REG.classes[name] = cls
        it.class_def = cls
        cls.generic = _REG.mangle(cls, tuple(cls.alias(p.name) if p.is_type else p.name for p in cls.tparams))
        for b in bases:  # single or multiple inheritance, no virtual calls: the bases' members first
            base = _REG.classes.get(b)
            if base is not None:
                cls.fields += base.fields
                cls.statics |= base.statics
                for m, ms in base.methods.items():
                    if m != "__ctor__":
                        cls.methods.setdefault(m, []).extend(ms)
        _read_members(cls, members)
        own = f"__srm_{name}_"
        for ms in cls.methods.values():  # an override is found before the base's function
            ms.sort(key=lambda x: not x.cname.startswith(own))
    for name, spec, it, members in specs:
        primary = _REG.classes.get(name)
        if primary is None or not spec:  # a partial specialization (not modeled) or of a class not here
            it.tokens = []
            continue
        cls = ClassDef(f"{name}__sp{len(primary.specs) + 1}", [], spelled=name)
        _REG.classes[cls.name] = cls
        it.class_def = cls
        cls.generic = _REG.mangle(cls, ())
        primary.specs.append((tuple(" ".join(t.text for t in arg) for arg in spec), cls))
        _read_members(cls, members)
    for it in items:  # `__device__ float Vec3::norm() const {...}`: a member defined outside
        outside = _outside(it) if it.is_function else None
        if outside is not None:
            cls, head = outside
            _read_members(cls, [(head, it.body)])
            it.is_function, it.tokens = False, []  # emitted with its class (see emit)
    classes = set(_REG.classes)
    for it in items if classes else ():  # `typedef Packed128<float> f128;`, `using x128 = Packed128<float>;`
        texts = [t.text for t in it.tokens]
        if texts and texts[0] == "typedef" and set(texts) & classes and len(texts) >= 3:
            _REG.aliases.add(texts[-2])
    _REG.using = _usings(items)


def _outside(it):
    """(class, header without `Class::`) for a member function defined outside its class."""
    head = it.header
    for k, t in enumerate(head):
        if t.text not in _REG.classes:
            continue
        j = k + 1
        if j < len(head) and head[j].text == "<":
            j = match_angle(head, j) + 1
            if j <= 0:
                return None
        if j + 1 < len(head) and head[j].text == "::" and head[j + 1].kind == "id" and \
                any(x.text == "(" for x in head[j + 1:]):
            return _REG.classes[t.text], head[:k] + head[j + 1:]
    return None


def _usings(items) -> list:
    """`using x128 = Packed128<float>;` items naming a class: (alias, type tokens)."""
    out = []
    for it in items:
        toks = it.tokens
        if len(toks) > 3 and toks[0].text == "using" and toks[2].text == "=" and \
                {t.text for t in toks} & set(_REG.classes):
            out.append((toks[1].text, toks[3:-1] if toks[-1].text == ";" else toks[3:]))
            _REG.aliases.add(toks[1].text)
    return out


def _members(body: list) -> list:
    """The class body as (head tokens, function body tokens or None) per member."""
    out, k, n = [], 0, len(body)
    while k < n:
        if body[k].text in ("public", "private", "protected") and k + 1 < n and body[k + 1].text == ":":
            k += 2
            continue
        j = k
        member: tuple | None = None
        while j < n:
            x = body[j].text
            if x in ("(", "["):
                j = match_close(body, j) + 1
                continue
            if x == "{":
                close = match_close(body, j)
                if _is_function(body[k:j]):
                    member = (body[k:j], body[j + 1:close])
                    j = close + 1
                    break
                j = close + 1
                continue
            if x == ";":
                member = (body[k:j], None)
                j += 1
                break
            j += 1
        if member is not None and member[0]:
            out.append(member)
        k = max(j, k + 1)
    return out


def _is_function(head: list) -> bool:
    k = 0
    while k < len(head):
        x = head[k].text
        if x == "[":
            k = match_close(head, k) + 1
            continue
        if x == "=":
            return False
        if x == "(":
            return True
        k += 1
    return False


def _read_members(cls: ClassDef, members: list) -> None:
    for head, fbody in members:
        texts = [t.text for t in head]
        if texts[0] in ("using", "typedef", "friend", "enum", "struct", "class", "static_assert"):
            continue
        if not _is_function(head):
            if "static" in texts:
                k = texts.index("=") if "=" in texts else len(texts)
                ids = [t.text for t in head[:k] if t.kind == "id"]
                if ids:
                    cls.statics.add(ids[-1])
            cls.fields.append(head)
            continue
        if fbody is None:
            continue  # `Packed128() = default;`, a declaration only
        popen = texts.index("(")
        name = texts[popen - 1] if popen > 0 else ""
        if name.startswith("~") or (popen > 1 and texts[popen - 2] == "~"):
            continue
        pclose = match_close(head, popen)
        params = head[popen + 1:pclose]
        ret = [t for t in head[:popen - 1] if t.text not in _QUALS]
        init = []
        tail = head[pclose + 1:]
        if tail and any(t.text == ":" for t in tail):  # `: x(a), y(b)` -> `x = a; y = b;`
            colon = next(k for k, t in enumerate(tail) if t.text == ":")
            for part in split_commas(tail[colon + 1:]):
                if len(part) >= 3 and part[0].kind == "id" and part[1].text in ("(", "{"):
                    init += [part[0], _tok(part[0], "="), *part[2:-1], _tok(part[0], ";")]
        is_ctor = name == cls.written
        key = "__ctor__" if is_ctor else name
        k = len(cls.methods.get(key, []))
        cname = f"__srm_{cls.name}_{'ctor' if is_ctor else name}_{k}"
        arity = len([a for a in split_commas(params) if a and not (len(a) == 1 and a[0].text == "void")])
        m = Method(key, cname, arity, "static" in texts[:popen], "&" in {t.text for t in ret}, cls.name)
        cls.methods.setdefault(key, []).append(m)
        _REG.methods[cname] = m
        rtype = [t for t in ret if t.text not in ("&", "&&")] or [_tok(head[0], "void", "id")]
        if is_ctor:
            rtype = [_tok(head[0], "void", "id")]
        fn_head = rtype + [_tok(head[popen - 1], cname, "id"), head[popen], *params, head[pclose]]
        cls.chunks.append((fn_head, init + list(fbody)))


def renames(cls: ClassDef) -> dict:
    out = {p.name: cls.alias(p.name) for p in cls.tparams if p.is_type}
    out[cls.written] = cls.generic
    return out


def emit(it, convert) -> str:
    """The C text of a class definition item: its fields function and member functions.
    `convert(tokens, renames)` is cuda.to_c with the class's renames."""
    from ..common.tokens import render
    from .headers import clean_params

    cls = it.class_def
    ren = renames(cls)
    t0 = it.tokens[0]
    out = []
    fields = []
    for f in cls.fields:
        fields += convert(f, ren) + [_tok(f[-1], ";")]
    out.append(render([_tok(t0, "void", "id"), _tok(t0, f"__srf_{cls.name}", "id"), _tok(t0, "("),
                       _tok(t0, "void", "id"), _tok(t0, ")"), _tok(t0, "{"), *fields, _tok(it.tokens[-1], "}")]))
    for head, body in cls.chunks:
        h = clean_params(convert(head, ren))
        b = convert(body, ren)
        out.append(render(h + [_tok(head[-1], "{")] + b + [_tok(body[-1] if body else head[-1], "}")]))
    return "\n".join(out) + "\n"


def prelude() -> str:
    names = sorted(set(_REG.mangled) | {c.alias(p.name) for c in _REG.classes.values() for p in c.tparams if p.is_type})
    return "".join(f"typedef int {n};\n" for n in names) + WM.prelude()


def using_typedefs(convert) -> str:
    from ..common.tokens import render

    out = []
    for alias, toks in _REG.using:
        t0 = toks[0]
        out.append(render([_tok(t0, "typedef", "id"), *convert(toks, {}), _tok(t0, alias, "id"), _tok(t0, ";")]))
    return "\n".join(out) + "\n" if out else ""


def types() -> dict:
    plain = {c.name: CType("class", _REG.mangle(c, ())) for c in list(_REG.classes.values()) if not c.tparams}
    return {**{n: CType("class", n) for n in _REG.mangled}, **plain, **WM.types()}


def rewrite(tokens: list, i: int, out: list, convert, type_renames: dict):
    """At tokens[i]: a class-related construct as C (see the module docstring), as
    (tokens, index after), or None."""
    t = tokens[i]
    n = len(tokens)
    x = t.text
    if x == "static_assert" and i + 1 < n and tokens[i + 1].text == "(":
        end = match_close(tokens, i + 1)
        return [], end + 2 if end + 1 < n and tokens[end + 1].text == ";" else end + 1
    if x == "this" and i + 1 < n and tokens[i + 1].text == "->":
        return [], i + 2
    if x == "*" and i + 1 < n and tokens[i + 1].text == "this":
        return [_tok(t, "__sr_this", "id")], i + 2
    if x == "this":
        return [_tok(t, "__sr_this", "id")], i + 1
    if t.kind != "id" or not (x in _REG.classes or x in _REG.aliases):
        return None
    j = i + 1
    if x in type_renames:
        mangled = type_renames[x]
    elif x in _REG.aliases:
        mangled = x
    else:
        cls = _REG.classes[x]
        if cls.tparams and j < n and tokens[j].text == "<":
            close = match_angle(tokens, j)
            if close < 0:
                return None
            args = tuple(" ".join(a.text for a in convert(arg)) for arg in split_commas(tokens[j + 1:close],
                                                                                       angles=True))
            mangled = _REG.mangle(cls, args)
            j = close + 1
        elif cls.tparams:
            return None
        else:
            mangled = _REG.mangle(cls, ())
    ty = _tok(t, mangled, "id")
    carrier = [_tok(t, "("), ty, _tok(t, "*"), _tok(t, ")"), _tok(t, "0", "num")]
    if j + 1 < n and tokens[j].text == "::" and tokens[j + 1].kind == "id":
        m = tokens[j + 1]
        if j + 2 < n and tokens[j + 2].text == "(":
            end = match_close(tokens, j + 2)
            inner = convert(tokens[j + 3:end])
            return [_tok(t, "__sr_scall", "id"), _tok(t, "("), *carrier, _tok(t, ","), m,
                    *([_tok(t, ",")] + inner if inner else []), _tok(t, ")")], end + 1
        return [_tok(t, "__sr_static", "id"), _tok(t, "("), *carrier, _tok(t, ","), m, _tok(t, ")")], j + 2
    if j < n and tokens[j].text in ("{", "(") and (not out or out[-1].text in _EXPR_BEFORE):
        end = match_close(tokens, j)
        return _ctor(t, carrier, convert(tokens[j + 1:end])), end + 1
    if (j + 1 < n and tokens[j].kind == "id" and tokens[j + 1].text in ("(", "{")
            and (not out or out[-1].text in (";", "{", "}", "const")) and not _looks_like_params(tokens, j + 1)):
        end = match_close(tokens, j + 1)  # `Vec3 v(a, b, c);` -> `Vec3 v = __sr_ctor(...)`
        return [ty, tokens[j], _tok(t, "="), *_ctor(t, carrier, convert(tokens[j + 2:end]))], end + 1
    return [ty], j


def _ctor(t, carrier, inner):
    return [_tok(t, "__sr_ctor", "id"), _tok(t, "("), *carrier, *([_tok(t, ",")] + inner if inner else []),
            _tok(t, ")")]


def _looks_like_params(tokens, open_: int) -> bool:
    """`f(float a, Vec3 b)` (a function declarator) rather than `v(a, b)` (constructor arguments)."""
    end = match_close(tokens, open_)
    inner = tokens[open_ + 1:end]
    if not inner or tokens[open_].text == "{":
        return tokens[open_].text == "("
    for arg in split_commas(inner, angles=True):
        ids = [k for k, a in enumerate(arg) if a.kind == "id"]
        if any(k + 1 in ids for k in ids) or (len(arg) >= 2 and arg[-2].text in ("*", "&") and arg[-1].kind == "id"
                                               and arg[0].kind == "id" and len(arg) > 2):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# The trace

_MARKS = ("__srcls", "__srm_", "__srf_", "__sr_ctor", "__sr_static", "__sr_scall", "__sr_frag", "__sr_this",
          "__sr_op_")


def strip_for_trace(ext: list, kernel: str):
    """The trace compiles C, which has no member functions: the file's top-level nodes with the
    class model's names (and typedefs of class types) are dropped.  Returns (nodes, None), or
    (None, why) when `kernel` itself, or a function it calls, uses them."""
    from pycparser import c_generator

    gen = c_generator.CGenerator()
    text = {id(n): gen.visit(n) for n in ext}
    bad_names = set(_MARKS)
    tainted: set = set()
    changed = True
    while changed:
        changed = False
        for n in ext:
            if id(n) in tainted or not any(m in text[id(n)] for m in bad_names):
                continue
            tainted.add(id(n))
            changed = True
            if isinstance(n, c_ast.Typedef):
                bad_names.add(n.name)
    funcs = {n.decl.name: n for n in ext if isinstance(n, c_ast.FuncDef)}
    seen, todo = set(), [kernel]
    while todo:
        name = todo.pop()
        fn = funcs.get(name)
        if fn is None or name in seen:
            continue
        seen.add(name)
        if id(fn) in tainted:
            through = f" (through `{name}`)" if name != kernel else ""
            return None, (f"`{kernel}` uses C++ classes (member functions, operators, constructors) or wmma "
                          "fragments, which the trace cannot compile" + through)
        todo += [c.name.name for c in _calls(fn)]
    return [n for n in ext if id(n) not in tainted], None


def _calls(node):
    out = []
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
        out.append(node)
    for _, child in node.children():
        out += _calls(child)
    return out

