"""Type names no header in reach defines (`my_real_t x;`, `Foo::Bar v;`, a typedef from a header
that is not there) become one opaque type instead of a syntax error.

pycparser needs to know every type name; a kernel that declares `my_real_t acc;` with the header
defining `my_real_t` missing would otherwise fail as a whole (SR001).  On tokens, a name in type
position (`NAME NAME`, `NAME *NAME`, `(NAME)` before an operand, `sizeof(NAME)`) that is neither a
keyword nor a type the file (with its headers) declares is replaced by `__sr_opaque`, a 4-byte
integer-like scalar: its values are not indices, arithmetic on them alone is not floating-point
work, mixed with a float it counts in the float's precision.  Each kernel that uses one gets
SR141 (approximate: the size and kind are assumed) naming the type and what was assumed.

Whether `(name)` is a cast depends on what `name` is where it is written: the rewrite keeps the
block scopes of the names the code declares as it goes (locals of each enclosing block, the
function's parameters, and `outer`: the file's variables, enumerators and functions), and a name
declared there is a value, never a type (`a[i] = (t) - a[i]` with `float t` a local subtracts).
The parentheses of a call or of `if`/`while`/`switch` never hold a cast (`cosf(t) - 1.0f`,
`if (flag) x = ...`).  A typedef or tag stays a type (pycparser keeps C's scopes for those, a local
that shadows one included).  A name neither declared nor a type in `(name) - x` or `(name) (x)` is
read as a cast to the opaque type, and its SR141 says the reading was a guess.
"""

from __future__ import annotations

from collections.abc import Callable

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
# words after which a name is not declared (`return x;`, `case N:`, `struct S {`): a keyword is in
# `known`, and only the type words and qualifiers among them start a declarator
_NOT_DECLARING = {
    "break", "case", "continue", "default", "do", "else", "enum", "for", "goto", "if", "return", "sizeof",
    "struct", "switch", "typedef", "union", "while", "class", "template", "typename", "namespace", "using",
    "new", "delete", "operator", "this", "public", "private", "protected", "friend", "decltype", "nullptr",
    "true", "false", "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast", "throw", "try", "catch",
    "alignas", "alignof", "static_assert", "typeid", "asm", "__asm__", "__volatile__", "std", "unroll",
    "__launch_bounds__", "__align__", "noexcept", "override", "final",
}
_DECLARATOR_ENDS = ("=", ";", ",", ")", "[", "(", ":", "{")
_CONDITIONS = ("if", "while", "switch")
_BLOCK_AFTER = (")", ";", "{", "}", ":", "else", "do", "try")


class _Scopes:
    """The names the code declares as values, by block (`{...}`), as a rewrite reads its tokens.

    A declarator is a name after a type (`float t`, `const T *p`, a name the rewrite made opaque) or,
    in a declaration's list, after its `,` (`float a = 1, t;`), followed by what ends a declarator.
    Declarations in `for (...)` and in a lambda's parameters belong to the enclosing block."""

    def __init__(self, known: set, outer: Callable[[str], bool] | None):
        self.known = known
        self.outer = outer
        self.blocks: list[set] = [set()]
        self.open: list[tuple[bool, bool, int]] = []  # per open bracket: (a block, list, list depth)
        self.in_list = False  # within a declaration's list: a `,` at `list_depth` starts a declarator
        self.list_depth = -1
        self.top: dict = {}  # name -> the bracket depth of its first declaration in the outer block

    def step(self, t: Token, prev: str) -> None:
        """Follow brackets and statement ends (`prev`: the text of the token emitted before `t`)."""
        x = t.text
        if x == "{":
            block = prev in _BLOCK_AFTER
            self.open.append((block, self.in_list, self.list_depth))
            if block:
                self.blocks.append(set())
                self.in_list = False
        elif x in ("(", "["):
            self.open.append((False, self.in_list, self.list_depth))
        elif x in ("}", ")", "]") and self.open:
            block, self.in_list, self.list_depth = self.open.pop()
            if block and len(self.blocks) > 1:
                self.blocks.pop()
                self.in_list = False
        elif x == ";" and len(self.open) <= self.list_depth:
            self.in_list = False

    def declares(self, out: list[Token], nxt: Token | None) -> bool:
        """Whether the name about to follow `out` (and be followed by `nxt`) is a declarator."""
        if nxt is None or nxt.text not in _DECLARATOR_ENDS:
            return False
        k = len(out) - 1
        while k >= 0 and out[k].text in ("*", "&", "&&", *_POINTER_QUALS):
            k -= 1
        if k < 0:
            return False
        p = out[k]
        if p.text == ",":
            return self.in_list and len(self.open) == self.list_depth
        return p.kind == "id" and p.text not in _NOT_DECLARING and (p.text in self.known or p.text == OPAQUE)

    def declare(self, name: str) -> None:
        self.blocks[-1].add(name)
        if len(self.blocks) == 1:
            self.top.setdefault(name, len(self.open))
        if not self.in_list:  # a `,` at this depth starts another declarator (a parameter's: a type)
            self.in_list, self.list_depth = True, len(self.open)

    def value(self, name: str) -> bool:
        """Whether `name` is declared as a value here (a local, a parameter, a file-scope name)."""
        return any(name in b for b in self.blocks) or (self.outer is not None and self.outer(name))


def rewrite(tokens: list[Token], known: set, used: list, header: bool = False,
            outer: Callable[[str], bool] | None = None, declared: dict | None = None) -> list[Token]:
    """`tokens` with unknown type names replaced by OPAQUE; `used` collects (name, token, guessed):
    `guessed` when the name was read as a cast's type though nothing declares it either way.
    `outer(name)`: whether a name of the enclosing scopes is a value (parameters, file-scope
    variables, functions).  `declared` receives the names the tokens declare outside any braces,
    each with its bracket depth (a parameter's is 1)."""
    out: list[Token] = []
    scopes = _Scopes(known, outer)
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t.kind != "id":
            scopes.step(t, out[-1].text if out else ";")
            out.append(t)
            i += 1
            continue
        if t.text in known or t.text.startswith("__sr_"):
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
        is_type = guessed = False
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
                before = out[-2] if len(out) > 1 else None
                # `if (flag) x = ...`, `cosf(t) - 1.0f`: a condition's or a call's parentheses
                call = before is not None and before.kind == "id" and (
                    before.text in _CONDITIONS or before.text not in _KEYWORDS)
                is_type = not call
                guessed = is_type and (after.kind != "id" and after.kind != "num")
            if prev == "(" and len(out) > 1 and out[-2].text == "sizeof" and nxt.text == ")":
                is_type = True
            if prev == "<" and nxt.text in (">", ","):
                is_type = True  # a template argument `static_cast<my_real_t>(x)`
        if is_type and j == i and scopes.value(t.text):
            is_type = False  # a variable, parameter or function in scope is never a type
        if is_type:
            used.append(("::".join(x.text for x in tokens[i:j + 1:2]), t, guessed))
            out.append(Token("id", OPAQUE, t.file, t.line, t.col))
            i = j + 1
            continue
        if j == i and scopes.declares(out, nxt):
            scopes.declare(t.text)
        out.append(t)
        i += 1
    if declared is not None:
        declared.update(scopes.top)
    return out


def file_values(items, known: set) -> set:
    """The value names a file declares at file scope: its variables, functions and enumerators
    (`items`: its top-level items, toplevel.split_items)."""
    names: set = set()
    for it in items:
        if it.is_function:
            names.add(it.name)
            continue
        toks = it.tokens
        top: dict = {}
        rewrite(toks, known, [], outer=None, declared=top)
        names |= {name for name, depth in top.items() if depth == 0}
        for k, t in enumerate(toks):  # `enum [tag] { A, B = 2 }`: the enumerators
            if t.text == "enum":
                m = k + 1
                while m < len(toks) and toks[m].text not in ("{", ";"):
                    m += 1
                depth = 0
                for q in range(m, len(toks)):
                    x = toks[q].text
                    depth += (x in ("{", "(", "[")) - (x in ("}", ")", "]"))
                    if depth <= 0:
                        break
                    if depth == 1 and toks[q].kind == "id" and toks[q - 1].text in ("{", ","):
                        names.add(x)
    return names


def note(kernel, used: list) -> None:
    """SR141 for each unknown type a kernel's own code uses (once per name, at its first use)."""
    from ...diagnostics import Location

    seen = set()
    for name, t, guessed in used:
        if name in seen:
            continue
        seen.add(name)
        what = (f"`({name})` is read as a cast: `{name}` is neither a variable, parameter or function in "
                "scope nor a type any header in reach defines (a header that is not there?), so the cast is "
                "a guess; the type is" if guessed else f"`{name}` is not a type any header in reach defines:")
        kernel.diag("SR141", f"{what} assumed an opaque 4-byte "
                    "scalar (not an index; its arithmetic alone is not floating-point work, mixed with a float "
                    "it counts in the float's precision)", Location(t.file, t.line, t.col))
