"""What a host variable is known to be where a kernel is launched, beyond its declaration.

launch.scan_host folds each launch with the declarations before it; this module adds the facts
that control flow and calls give:

- a `switch (threads)` arm `case 256:` (entered only by its label: the arm before it ends with
  `break` or `return`, or there is none) and the then-branch of `if (threads == 256)` run with
  threads = 256: a launch there, `k<256><<<blocks, threads>>>` with `blocks = (n + 2*threads - 1)
  / (2*threads)`, has a grid in n.  An assignment inside an arm is conditional on its label
  (`threads == 256 ? value : old`), as under an `if`;
- a variable whose address is passed (`cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, k)`)
  may be written by the callee: it is unknown from there on, never its earlier value;
- a host function's parameter stands for the caller's argument expression, written in the
  callee's names (`reduce_sum(n, t, (n + 2*t - 1) / (2*t))` gives `blocks` as
  `(size + 2*threads - 1) / (2*threads)` where `n` is passed as `size` and `t` as `threads`), so a
  binding of `threads` in the callee reaches the grid.
"""

from __future__ import annotations

from ..common.tokens import Token, match_close
from .dim3 import tok

_EXITS = ("break", "return", "continue", "goto", "throw")
_KEEP = {"sizeof", "int", "unsigned", "long", "short", "size_t", "float", "double", "const", "signed", "char",
         "std", "static_cast", "int64_t", "uint64_t", "int32_t", "uint32_t"}


def switch_arms(body: list[Token], i: int) -> list:
    """(first index, last index, variable, value tokens or None) of each arm of the `switch` at
    `i`, label included; the variable is None unless the switch is on one name.  The value is
    None for `default` and for an arm that the arm before it can fall into (then it runs for
    other values too)."""
    n = len(body)
    if i + 1 >= n or body[i + 1].text != "(":
        return []
    close = match_close(body, i + 1)
    head = body[i + 2:close]
    var = head[0].text if len(head) == 1 and head[0].kind == "id" else None
    if close + 1 >= n or body[close + 1].text != "{":
        return []
    start, end = close + 1, match_close(body, close + 1)
    labels, depth, j = [], 0, start + 1
    while j < end:
        t = body[j].text
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and t in ("case", "default"):
            colon = next((k for k in range(j + 1, end) if body[k].text == ":"), None)
            if colon is None:
                return []
            labels.append((j, colon))
            j = colon
        j += 1
    arms = []
    for k, (label, colon) in enumerate(labels):
        last = labels[k + 1][0] - 1 if k + 1 < len(labels) else end - 1
        value = body[label + 1:colon] if body[label].text == "case" else None
        if k > 0 and not _ends_arm(body, labels[k - 1][1] + 1, label):
            value = None  # the arm before falls into this one (or shares its label: `case 1: case 2:`)
        arms.append((label, last, var, value))
    return arms


def _ends_arm(body: list[Token], first: int, label: int) -> bool:
    """Does the arm body `body[first:label]` end with a jump (`break;`, `return x;`), so that
    the next label is only entered by its own value?"""
    if label <= first or body[label - 1].text not in (";", "}"):
        return False
    j = label - 1
    if body[j].text == "}":  # `case 1: { ...; break; }`: the arm's own block, not an `else { break; }`
        if _opening(body, j) != first:
            return False
        j -= 1
    k = j - 1
    while k >= first and body[k].text not in (";", "{", "}", ":"):
        k -= 1
    return k + 1 <= j and body[k + 1].text in _EXITS


def _opening(body: list[Token], close: int) -> int:
    """The index of the bracket that the `}` at `close` closes (-1 if none)."""
    depth = 0
    for k in range(close, -1, -1):
        t = body[k].text
        if t in (")", "]", "}"):
            depth += 1
        elif t in ("(", "[", "{"):
            depth -= 1
            if depth == 0:
                return k
    return -1


def equalities(cond: list[Token]) -> list:
    """(name, value tokens) for each `name == value` (or `value == name`) that the condition
    `a == b && c == d` states, value a number; nothing where it has `||` or a `?` at top level."""
    parts: list = []
    cur: list = []
    depth = 0
    for t in cond:
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        if depth == 0 and t.text in ("||", "?"):
            return []
        if depth == 0 and t.text == "&&":
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    out = []
    for p in parts:
        while len(p) >= 2 and p[0].text == "(" and match_close(p, 0) == len(p) - 1:
            p = p[1:-1]
        if len(p) == 3 and p[1].text == "==":
            a, b = p[0], p[2]
            if a.kind == "id" and b.kind == "num":
                out.append((a.text, [b]))
            elif b.kind == "id" and a.kind == "num":
                out.append((b.text, [a]))
    return out


def address_taken(body: list[Token], i: int) -> str | None:
    """The name at `i + 1` when `body[i]` is a unary `&` before a plain name (`f(&block)`)."""
    if body[i].text != "&" or i + 1 >= len(body) or body[i + 1].kind != "id":
        return None
    if i > 0 and body[i - 1].text not in ("(", ",", "=", "{"):
        return None  # a binary `a & b`
    if i + 2 < len(body) and body[i + 2].text in (".", "->", "[", "("):
        return None  # `&s.x`, `&a[0]`: not the variable itself
    return body[i + 1].text


def assigned_names(body: list[Token]) -> set:
    """Names a function body assigns (`x = `, `x += `, `x++`, `++x`) or takes the address of."""
    out = set()
    for k, t in enumerate(body):
        prev = body[k - 1].text if k > 0 else ""
        if t.kind != "id" or prev in (".", "->", "::"):
            continue
        nxt = body[k + 1].text if k + 1 < len(body) else ""
        if nxt in _ASSIGN or prev in ("++", "--") or (k > 0 and address_taken(body, k - 1) == t.text):
            out.add(t.text)
    return out


_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "++", "--"}


def passed(call_args: list, params: list, folder, callee_body: list[Token], bits: list | None = None) -> dict:
    """{callee parameter: tokens in the callee's names} for the arguments that can be written
    so: each caller name passed as a whole argument to a parameter the callee never assigns
    becomes that parameter, other names their caller expression or value (`folder`: the
    caller's scope at the call), converted to the parameter's type (`bits`: hostexpr.param_bits).
    A parameter whose argument has another name (`argv`) is left out."""
    changed = assigned_names(callee_body)
    direct: dict = {}
    for p, a in zip(params, call_args, strict=False):
        if p is not None and p not in changed and len(a) == 1 and a[0].kind == "id":
            direct.setdefault(a[0].text, p)
    out = {}
    for k, (p, a) in enumerate(zip(params, call_args, strict=False)):
        if p is None or p in changed:
            continue
        top = a
        if len(a) == 1 and a[0].kind == "id":  # the argument's own expression, not its renaming to p
            expr = folder.exprs.get(a[0].text)
            if not expr:
                continue
            top = [tok(a[0], "("), *expr, tok(a[0], ")")]
        got = _rewrite(top, direct, folder, 0)
        if got and not (len(got) == 1 and got[0].text == p):  # (an empty argument, `f(a, )`, passes nothing)
            b = bits[k] if bits and k < len(bits) else 0
            kind = "double" if b == 53 else "float" if b == 24 else "long"  # `int blocks` truncates
            at = got[0]
            out[p] = [tok(at, "("), tok(at, kind), tok(at, ")"), tok(at, "("), *got, tok(at, ")")]
    return out


def _rewrite(tokens: list[Token], direct: dict, folder, depth: int) -> list | None:
    if depth > 12:
        return None
    out: list = []
    for k, t in enumerate(tokens):
        prev = tokens[k - 1].text if k > 0 else ""
        nxt = tokens[k + 1].text if k + 1 < len(tokens) else ""
        if t.kind != "id" or prev in (".", "->", "::") or nxt in ("(", "::", "<") or t.text in _KEEP:
            out.append(t)
        elif t.text in direct:
            out.append(tok(t, direct[t.text]))
        elif folder.exprs.get(t.text):
            inner = _rewrite(folder.exprs[t.text], direct, folder, depth + 1)
            if inner is None:
                return None
            out += [tok(t, "("), *inner, tok(t, ")")]
        elif t.text not in folder.exprs and folder.values.get(t.text) is not None:
            v = int(folder.values[t.text])
            out += [tok(t, str(v))] if v >= 0 else [tok(t, "("), tok(t, "-"), tok(t, str(-v)), tok(t, ")")]
        else:
            return None
    return out

