"""C++ statements in kernels rewritten to C on tokens, before cuda.py's own C++-to-C rewrite.

Each rewrite keeps the tokens' locations, so a diagnostic still points at the user's line:

- cooperative groups (coop.py) and asynchronous copies (asynccopy.py);
- inline PTX, `asm volatile("..." : "=r"(out) : "r"(in));` -> `{ __sr_asm(in); out =
  __sr_asm_out(); }`: the inputs are evaluated (their reads count), the statement is SR140 (its
  own work and traffic are not counted) and each output receives an unknown value;
- `if constexpr (c)` -> `if (c)` (a constant condition: the branch not taken is folded away);
- local references, `float &r = y[i];` (references.py);
- range-for over a fixed local array, `for (float &v : vals)` / `for (auto v : arr)` -> an index
  loop over the array's extent (the element a reference or copy of `arr[k]`);
- lambdas, inlined at their calls (lambdas.py);
- type names nothing declares, as one opaque type (opaque.py).
"""

from __future__ import annotations

from ..common.tokens import Token, match_angle, match_close, retext, split_commas
from . import asynccopy, coop, opaque, references
from .containers import EXTENT
from .lambdas import inline_lambdas
from .toplevel import split_items

PRELUDE = f"typedef int {opaque.OPAQUE};\n"


class Context:
    """What the rewrites need to know about the whole file: the names of `cooperative_groups`, the
    type names it declares, and (filled in) the unknown types each function uses."""

    def __init__(self, tokens: list[Token], builtin: set, items: list | None = None):
        """`items`: split_items(tokens), when the caller has them (as they were split: unchanged)."""
        self.cg_names = coop.aliases(tokens)
        items = split_items(tokens) if items is None else items
        self.param_groups = coop.parameter_groups(items, self.cg_names)
        self.functions = {it.name: it for it in items if it.is_function}
        self.known = opaque.known_types(tokens, builtin)
        self.used: dict = {}  # function -> [(type name, token, guessed)]
        self.globals: list = []  # (declared names, [(type name, token, guessed)]) of file-scope declarations
        self._items = items
        self._values: set | None = None

    def is_value(self, name: str) -> bool:
        """Whether `name` is a file-scope variable, enumerator or function (read once, when a
        parenthesized name first needs it)."""
        if self._values is None:
            self._values = opaque.file_values(self._items, self.known)
        return name in self._values

    def declaration(self, tokens: list[Token]) -> list[Token]:
        """A file-scope declaration (`__constant__ coeff_t w[8];`) with unknown type names opaque."""
        used: list = []
        out = opaque.rewrite(tokens, self.known, used, outer=self.is_value)
        if used:
            self.globals.append(({t.text for t in tokens if t.kind == "id"}, used))
        return out

    def note(self, kernel, name: str) -> None:
        """SR141 for the unknown types the kernel's own code uses, and those of the file-scope
        variables it names."""
        used = list(self.used.get(name, []))
        words = {t.text for t in self.functions[name].tokens} if name in self.functions else set()
        for names, u in self.globals:
            if names & words - self.known:
                used += u
        opaque.note(kernel, used)


def prepare(header: list[Token], body: list[Token], ctx: Context, name: str = "") -> tuple[list, list]:
    """A device function's header and body with the C++ above rewritten (see the module docstring)."""
    groups: dict = {}
    header, body = tag_types(_without_bounds(header)), tag_types(body)
    header = coop.rewrite(header, ctx.cg_names, groups)
    groups.update(ctx.param_groups.get(name, {}))  # a `thread_group g` every caller passes a block
    body = coop.rewrite(body, ctx.cg_names, groups)
    body = asynccopy.rewrite(body, groups)
    body = device_launches(body)
    used = ctx.used.setdefault(name, [])
    params: dict = {}
    header = opaque.rewrite(header, ctx.known, used, header=True, outer=ctx.is_value, declared=params)
    # the body's names: its own blocks', then the parameters (and the function itself), then the file's
    body = opaque.rewrite(body, ctx.known, used, outer=lambda x: x in params or ctx.is_value(x))
    body = inline_asm(body)
    body = constexpr_if(body)
    body = references.rewrite(body)
    body = range_for(body)
    body = inline_lambdas(body)
    return header, body


def device_launches(tokens: list[Token]) -> list[Token]:
    """A kernel launched from a kernel (dynamic parallelism), `child<<<g, b>>>(args);` ->
    `__sr_device_launch(child, (g), (b), args);`: the lowering runs the child's threads there
    (CudaLowering.device_launch).  A launch with a shared-memory size or a stream keeps them out."""
    if not any(t.text == "<<<" for t in tokens):
        return tokens
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t.kind == "id" and i + 1 < n and tokens[i + 1].text == "<<<":
            close = next((k for k in range(i + 2, n) if tokens[k].text == ">>>"), -1)
            if close > 0 and close + 1 < n and tokens[close + 1].text == "(":
                end = match_close(tokens, close + 1)
                config = split_commas(tokens[i + 2:close])
                if len(config) >= 2:
                    args = tokens[close + 2:end]
                    out += retext(t, "__sr_device_launch (") + [t] + retext(t, ", (") + config[0] + \
                        retext(t, "), (") + config[1] + retext(t, ")") + \
                        (retext(t, ",") + args if args else []) + retext(t, ")")
                    i = end + 1
                    continue
        out.append(t)
        i += 1
    return out


def _without_bounds(tokens: list[Token]) -> list[Token]:
    """A header without `__launch_bounds__(blockSize)` / `__maxnreg__(n)` (hints to the compiler; their
    arguments are values, not the types the opaque-name pass would take them for)."""
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        if tokens[i].text in ("__launch_bounds__", "__maxnreg__") and i + 1 < n and tokens[i + 1].text == "(":
            i = match_close(tokens, i + 1) + 1
            continue
        out.append(tokens[i])
        i += 1
    return out


_TAG_TYPES = ("bool_constant", "integral_constant", "true_type", "false_type")


def tag_types(tokens: list[Token]) -> list[Token]:
    """`std::bool_constant<kFlag> flag` (a tag whose value is its type's, `std::integral_constant<int,
    4>`, `std::true_type`) -> `int flag`: a parameter that carries no data, before the template
    argument inside is read as a type."""
    if not any(t.text in _TAG_TYPES for t in tokens):
        return tokens
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        close = -1
        if t.text in ("true_type", "false_type"):
            close = i
        elif t.text in _TAG_TYPES and i + 1 < n and tokens[i + 1].text == "<":
            close = match_angle(tokens, i + 1)
        if close >= i:
            if len(out) >= 2 and out[-1].text == "::" and out[-2].text == "std":
                del out[-2:]
            out.append(Token("id", "int", t.file, t.line, t.col))
            i = close + 1
            continue
        out.append(t)
        i += 1
    return out


def constexpr_if(tokens: list[Token]) -> list[Token]:
    return [t for k, t in enumerate(tokens)
            if not (t.text == "constexpr" and k > 0 and tokens[k - 1].text == "if")]


def _operands(tokens: list[Token]) -> list[tuple[str, list[Token]]]:
    """(constraint, expression tokens) of each `"=r"(x)` in an asm operand list."""
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t.kind == "str" and i + 1 < len(tokens) and tokens[i + 1].text == "(":
            end = match_close(tokens, i + 1)
            out.append((t.text.strip('"'), tokens[i + 2:end]))
            i = end + 1
            continue
        i += 1
    return out


def inline_asm(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t.text in ("asm", "__asm__", "__asm") and (not out or out[-1].text in (";", "{", "}", ")", "else")):
            j = i + 1
            while j < n and tokens[j].text in ("volatile", "__volatile__", "goto", "inline"):
                j += 1
            if j < n and tokens[j].text == "(":
                end = match_close(tokens, j)
                sections: list[list[Token]] = []
                cur: list[Token] = []
                depth = 0
                for x in tokens[j + 1:end]:
                    if x.text in ("(", "[", "{"):
                        depth += 1
                    elif x.text in (")", "]", "}"):
                        depth -= 1
                    if x.text == ":" and depth == 0:
                        sections.append(cur)
                        cur = []
                    else:
                        cur.append(x)
                sections.append(cur)
                outs = _operands(sections[1]) if len(sections) > 1 else []
                ins = _operands(sections[2]) if len(sections) > 2 else []
                ins += [(c, e) for c, e in outs if c.startswith("+")]
                args: list[Token] = []
                for _c, e in ins:
                    args += ([retext(t, ",")[0]] if args else []) + e
                stmt = retext(t, "{ __sr_asm(") + args + retext(t, ");")
                for _c, e in outs:
                    stmt += e + retext(t, "= __sr_asm_out();")
                stmt += retext(t, "}")
                out += stmt
                i = end + 1
                if i < n and tokens[i].text == ";":
                    i += 1
                continue
        out.append(t)
        i += 1
    return out


def _extent(before: list[Token], arr: list[Token]):
    """The declared extent of a local array `T arr[EXTENT]` declared in `before`, or None."""
    if len(arr) != 1 or arr[0].kind != "id":
        return None
    for j in range(len(before) - 3, -1, -1):
        if before[j].text == arr[0].text and before[j + 1].text == "[" and j > 0 and before[j - 1].kind == "id":
            close = match_close(before, j + 1)
            if close + 1 < len(before) and before[close + 1].text in (";", "=", "["):
                return before[j + 2:close]
    return None


def range_for(tokens: list[Token]) -> list[Token]:
    """`for (DECL NAME : ARR) BODY` -> `for (int __sr_k = 0; __sr_k < EXTENT; __sr_k++) { DECL NAME =
    ARR[__sr_k]; BODY }` (a reference element: NAME stands for ARR[k]); EXTENT is a local array's
    declared extent, else `__sr_extent(ARR)`: an array's, or a container's size (containers.py)."""
    out, i, n, count = [], 0, len(tokens), 0
    while i < n:
        t = tokens[i]
        if t.text == "for" and i + 1 < n and tokens[i + 1].text == "(":
            end = match_close(tokens, i + 1)
            inner = tokens[i + 2:end]
            colon = next((k for k, x in enumerate(inner) if x.text == ":"), -1)
            if colon > 1 and not any(x.text == ";" for x in inner) and inner[colon - 1].kind == "id":
                count += 1
                name = inner[colon - 1].text
                decl = list(inner[:colon - 1])
                ref = any(x.text in ("&", "&&") for x in decl)
                arr = inner[colon + 1:]
                k = f"__sr_rf{count}"
                extent = _extent(tokens[:i], arr)
                if extent is None:  # an array's extent, a std::vector's size (containers.extent)
                    extent = retext(t, f"{EXTENT}(") + arr + retext(t, ")")
                head = retext(t, f"for (int {k} = 0; {k} < (") + extent + retext(t, f"); {k}++)")
                # the loop body: a reference stands for the element itself, a copy is a local
                body_start = end + 1
                if body_start < n and tokens[body_start].text == "{":
                    body_end = match_close(tokens, body_start)
                    body = tokens[body_start + 1:body_end]
                else:
                    body_end = body_start
                    while body_end < n and tokens[body_end].text != ";":
                        if tokens[body_end].text in ("(", "[", "{"):
                            body_end = match_close(tokens, body_end)
                        body_end += 1
                    body = tokens[body_start:body_end + 1]
                body = range_for(body)
                elem = retext(t, "(") + arr + retext(t, f")[{k}]")
                if ref:
                    body = [y for x in body for y in ((retext(x, "(") + elem + retext(x, ")"))
                                                      if x.kind == "id" and x.text == name else [x])]
                    pre: list[Token] = []
                else:
                    decl = [x for x in decl if x.text not in ("const",)]
                    pre = decl + [inner[colon - 1]] + retext(t, "=") + elem + retext(t, ";")
                out += head + retext(t, "{") + pre + body + retext(t, "}")
                i = body_end + 1
                continue
        out.append(t)
        i += 1
    return out
