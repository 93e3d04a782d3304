"""The top level of a C++ file as items: function definitions (with their template headers) and
declarations, found on tokens.  Namespaces and `extern "C"` blocks are transparent, so a kernel in
`namespace ops { ... }` is an item like any other; one item's tokens never spill into the next."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...diagnostics import Location
from ..common.tokens import Token, match_angle, match_close, match_close_texts


@dataclass
class Item:
    tokens: list
    is_function: bool = False
    name: str = ""
    header: list = field(default_factory=list)  # tokens before the body
    body: list = field(default_factory=list)  # tokens inside the braces
    template: list = field(default_factory=list)  # tokens of `template <...>` parameters

    @property
    def qualifiers(self) -> set:
        """The header's words; a `constexpr` function is also `__device__` (callable from kernels,
        as nvcc allows: its calls are inlined, and fold when their arguments are constants)."""
        q = {t.text for t in self.header}
        return q | {"__device__"} if "constexpr" in q and "__global__" not in q else q


def without_alignas(tokens: list[Token]) -> list[Token]:
    """The tokens without alignment specifiers, C++11's `alignas(...)` and nvcc's `__align__(...)`
    (`struct __align__(16) Particle {...}`, `__shared__ alignas(16) float tile[256];`): an
    alignment changes no count, and C has neither word."""
    marks = [k for k, t in enumerate(tokens) if t.text in ("alignas", "__align__")]
    if not marks:
        return tokens
    out: list[Token] = []
    i = 0
    for k in marks:
        if k < i or k + 1 >= len(tokens) or tokens[k + 1].text != "(":
            continue
        out += tokens[i:k]
        i = match_close(tokens, k + 1) + 1
    return out + tokens[i:]


def split_items(tokens: list[Token]) -> list[Item]:
    # the scan reads texts from one list (most tokens are the stub headers' prototypes: attribute
    # reads were most of its time): brackets are matched on these texts
    texts = [t.text for t in tokens]
    items: list[Item] = []
    i, n = 0, len(tokens)
    open_scopes = 0
    while i < n:
        t = tokens[i]
        x = texts[i]
        if t.kind == "pragma":
            items.append(Item([t]))
            i += 1
            continue
        if x == "namespace":
            j = i + 1
            while j < n and texts[j] not in ("{", ";"):
                j += 1
            if j < n and texts[j] == "{":
                open_scopes += 1
            i = j + 1
            continue
        if x == "extern" and i + 2 < n and tokens[i + 1].kind == "str" and texts[i + 2] == "{":
            open_scopes += 1
            i += 3
            continue
        if x == "}" and open_scopes:
            open_scopes -= 1
            i += 1
            continue
        if x == "using":  # `using namespace std;`, `using std::min;`: nothing; `using X = T;` an alias item
            j = i
            while j < n and texts[j] != ";":
                j += 1
            if i + 2 < n and tokens[i + 1].kind == "id" and texts[i + 2] == "=":
                items.append(Item(tokens[i:j + 1]))
            i = j + 1
            continue
        if x == ";":
            i += 1
            continue
        start = i
        template = []
        if x == "template" and i + 1 < n and texts[i + 1] == "<":
            close = match_angle(tokens, i + 1)
            if close < 0:
                i += 1
                continue
            template = tokens[i + 2:close]
            i = close + 1
        j = i
        item = None
        while j < n:
            x = texts[j]
            if x == "(" or x == "[":
                j = _close_bracket(texts, j) + 1
                continue
            if x == "{":
                prev = texts[j - 1] if j > i else ""
                close = match_close_texts(texts, j)
                if prev == ")" or prev in ("const", "noexcept", "override"):
                    close = _body_end(texts, j, close)
                    head = tokens[i:j]
                    item = Item(tokens[start:close + 1], True, _func_name(head), head, tokens[j + 1:close], template)
                    j = close + 1
                    break
                j = close + 1
                continue
            if x == ";":
                item = Item(tokens[start:j + 1], template=template)
                j += 1
                break
            j += 1
        if item is None:
            item = Item(tokens[start:j])
        items.append(item)
        i = j
    return items


def _body_end(texts: list[str], i: int, close: int) -> int:
    """Where the body opened at `i` ends: at `close`, its matching brace, unless it holds a
    `__global__` (which no body can: its braces do not balance, a syntax error), then just before
    the declaration of that kernel, which is an item of its own."""
    try:
        g = texts.index("__global__", i + 1, close)
    except ValueError:
        return close
    k = g - 1
    while k > i and texts[k] not in (";", "{", "}"):
        k -= 1
    return k  # the body's last token: the item ends there (`tokens[start:k + 1]`)


def _close_bracket(texts: list[str], i: int) -> int:
    """The `)` or `]` closing the one at `i`; one never closed before a `;` or `}` outside braces
    within it (a syntax error: no declaration's brackets hold either) ends just before them, so one
    item's unbalanced bracket never swallows the items after it."""
    close = match_close_texts(texts, i)
    braces = 0
    for j in range(i + 1, close):
        x = texts[j]
        if x == "{":
            braces += 1
        elif x == "}":
            braces -= 1
            if braces < 0:
                return j - 1
        elif x == ";" and braces == 0:
            return j - 1
    return close


def _func_name(head: list[Token]) -> str:
    depth = 0
    for k in range(len(head) - 1, -1, -1):
        x = head[k].text
        if x == ")":
            depth += 1
        elif x == "(":
            depth -= 1
            if depth == 0 and k > 0 and head[k - 1].kind == "id":
                return head[k - 1].text
    return ""


def method_name(head: list) -> str:
    """The C function name (`__srm_Grid_scale_0`) in a member function's rewritten header."""
    return next((t.text for t in head if t.text.startswith("__srm_")), "")


def prototype_name(tokens, texts: list[str]) -> str | None:
    """The function a declaration item declares (`float sqrtf(float);`), or None (`texts`: the
    tokens' texts, which the caller has)."""
    if not texts or texts[0] in ("typedef", "struct", "union", "enum") or "(" not in texts or "=" in texts:
        return None
    k = texts.index("(")
    return texts[k - 1] if k > 0 and tokens[k - 1].kind == "id" else None


def brace_of(it: Item) -> Token:
    """The `{` that opens a function item's body."""
    k = len(it.tokens) - len(it.body) - 2
    return it.tokens[k]


def line_ranges(items) -> list:
    """(file, first line, last line) of each item, for diagnostics inside the kernels."""
    out = []
    for it in items:
        if it.tokens:
            out.append((it.tokens[0].file, it.tokens[0].line, it.tokens[-1].line))
    return out


def inside(loc: Location, ranges) -> bool:
    """Whether `loc` lies in one of `line_ranges`' ranges."""
    return any(loc.file == f and a <= loc.line <= b for f, a, b in ranges)
