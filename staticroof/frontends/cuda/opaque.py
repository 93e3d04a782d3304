"""Type names no header in reach defines (`my_real_t x;`, `Foo::Bar v;`, a typedef from a header
that is not there) become one opaque type instead of a syntax error.

pycparser needs to know every type name; a kernel that declares `my_real_t acc;` with the header
defining `my_real_t` missing would otherwise fail as a whole (SR001).  On tokens, a name in type
position (`NAME NAME`, `NAME *NAME`, `(NAME)` before an operand, `sizeof(NAME)`) that is neither a
keyword nor a type the file (with its headers) declares is replaced by `__sr_opaque`, a 4-byte
integer-like scalar: its values are not indices, arithmetic on them alone is not floating-point
work, mixed with a float it counts in the float's precision.  Each kernel that uses one gets
SR141 (approximate: the size and kind are assumed) naming the type and what was assumed.
"""

from __future__ import annotations

from ..common.tokens import Token

OPAQUE = "__sr_opaque"
_KEYWORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool",
    "bool", "class", "template", "typename", "namespace", "using", "new", "delete", "operator", "this",
    "public", "private", "protected", "virtual", "friend", "constexpr", "decltype", "nullptr", "true", "false",
    "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast", "throw", "try", "catch", "mutable",
    "explicit", "noexcept", "override", "final", "alignas", "alignof", "static_assert", "typeid", "asm",
    "__asm__", "__volatile__", "__restrict__", "__restrict", "size_t", "ptrdiff_t", "wchar_t",
    "__shared__", "__constant__", "__device__", "__global__", "__host__", "__forceinline__", "__inline__",
    "__noinline__", "__launch_bounds__", "__managed__", "__grid_constant__", "__align__", "std", "unroll",
}
_QUALS = {"const", "volatile", "static", "register", "extern", "__shared__", "__constant__", "__restrict__",
          "restrict", "__device__", "__host__", "__forceinline__", "__inline__", "inline"}
_STARTS = {";", "{", "}", "(", ",", ")", ":"}  # ")" for `for (...) T x;`, ":" for labels, `case`


_DECLARING = frozenset(("struct", "class", "union", "enum", "using", "typename", "typedef", "{", "}", ";"))


def known_types(tokens: list[Token], builtin: set) -> set:
    """Every type name the file declares (typedefs, struct/class/union/enum tags, `using X =`,
    template type parameters), plus `builtin`."""
    known = set(builtin) | _KEYWORDS
    n = len(tokens)
    depth = 0
    start = 0
    for k, t in enumerate(tokens):
        x = t.text
        if x not in _DECLARING:  # no branch below reads any other token here
            continue
        if x in ("struct", "class", "union", "enum") and k + 1 < n and tokens[k + 1].kind == "id":
            known.add(tokens[k + 1].text)
        elif x == "using" and k + 2 < n and tokens[k + 2].text == "=":
            known.add(tokens[k + 1].text)
        elif x in ("typename", "class") and k + 1 < n and tokens[k + 1].kind == "id":
            known.add(tokens[k + 1].text)
        elif x == "typedef":
            depth, start = 1, k
        elif depth and x in ("{", "}"):  # `typedef struct { float x; } body_t;`: the `;`s inside
            depth += 1 if x == "{" else -1  # the braces do not end the typedef
        elif depth == 1 and x == ";":
            ids = [y for y in tokens[start:k] if y.kind == "id"]
            # `typedef float (*fn_t)(float);` names fn_t: the first id after `(*`
            for j in range(start, k - 1):
                if tokens[j].text == "(" and tokens[j + 1].text == "*" and j + 2 < k and tokens[j + 2].kind == "id":
                    known.add(tokens[j + 2].text)
                    break
            if ids:
                known.add(ids[-1].text)
            depth = 0
    return known


_POINTER_QUALS = ("const", "volatile", "restrict", "__restrict__", "__restrict")


def rewrite(tokens: list[Token], known: set, used: list, header: bool = False) -> list[Token]:
    """`tokens` with unknown type names replaced by OPAQUE; `used` collects (name, token)."""
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t.kind != "id" or t.text in known or t.text.startswith("__sr_"):
            out.append(t)
            i += 1
            continue
        # a qualified name `A::B::C`: its last part is the type
        j = i
        while j + 2 < n and tokens[j + 1].text == "::" and tokens[j + 2].kind == "id":
            j += 2
        last = tokens[j]
        prev = out[-1].text if out else ";"
        nxt = tokens[j + 1] if j + 1 < n else None
        after = tokens[j + 2] if j + 2 < n else None
        is_type = False
        if last.text not in known and nxt is not None:
            if prev in _STARTS or prev in _QUALS:
                if nxt.kind == "id" and after is not None and after.text in ("=", ";", ",", ")", "[", "("):
                    is_type = nxt.text not in _KEYWORDS or nxt.text in ("const", "__restrict__", "restrict")
                elif nxt.text in ("*", "&") and after is not None and after.kind == "id" and j + 3 < n:
                    k = j + 2  # past qualifiers: `const my_real_t* __restrict__ x,` in a header
                    while header and k + 1 < n and tokens[k].text in _POINTER_QUALS and tokens[k + 1].kind == "id":
                        k += 1
                    end = tokens[k + 1].text if k + 1 < n else ""  # `my_real_t *p = ...;` in a body
                    is_type = end in (",", ")", "[") if header else (prev in (";", "{", "}") and end in ("=", ";", "["))
            if prev == "(" and nxt.text == ")" and after is not None and (
                    after.kind in ("id", "num") or after.text in ("(", "-")):
                is_type = True  # a cast `(my_real_t)x`
            if prev == "(" and len(out) > 1 and out[-2].text == "sizeof" and nxt.text == ")":
                is_type = True
            if prev == "<" and nxt.text in (">", ","):
                is_type = True  # a template argument `static_cast<my_real_t>(x)`
        if is_type:
            used.append(("::".join(x.text for x in tokens[i:j + 1:2]), t))
            out.append(Token("id", OPAQUE, t.file, t.line, t.col))
            i = j + 1
            continue
        out.append(t)
        i += 1
    return out


def note(kernel, used: list) -> None:
    """SR141 for each unknown type a kernel's own code uses (once per name, at its first use)."""
    from ...diagnostics import Location

    seen = set()
    for name, t in used:
        if name in seen:
            continue
        seen.add(name)
        kernel.diag("SR141", f"`{name}` is not a type any header in reach defines: assumed an opaque 4-byte "
                    "scalar (not an index; its arithmetic alone is not floating-point work, mixed with a float "
                    "it counts in the float's precision)", Location(t.file, t.line, t.col))
