"""The asynchronous copy API, rewritten on tokens into the copies it makes.

`cooperative_groups::memcpy_async(group, dst, src, bytes)`, `cuda::memcpy_async([group,] dst, src,
bytes, pipeline_or_barrier)` and `__pipeline_memcpy_async(dst, src, bytes)` copy `bytes` from `src`
(global memory) to `dst` (shared memory) without going through registers.  For the counts they are
what they move: the elements of `src` are global reads, those of `dst` shared writes, and no FLOP.
A group's copy is made once per group (by all its threads together): it becomes the loop

    if (<rank 0 of the group>) for (k = 0; k < bytes / sizeof(dst[0]); k++) dst[k] = src[k];

and a thread's own copy the loop alone.  The synchronization around them (`cg::wait`, pipeline
acquire/commit/wait/release, barriers and their tokens, `__pipeline_commit`) moves nothing and is
dropped.  A copy whose group is not known (a `thread_group` of unstated kind) is left as a call,
which the lowering reports (SR105, approximate).  `cuda::aligned_size_t<N>(bytes)` is `bytes`.
"""

from __future__ import annotations

from ..common.tokens import Token, match_angle, match_close, retext, split_commas
from . import coop

_COPIES = {"memcpy_async", "__pipeline_memcpy_async"}
_SYNC_TYPES = {"pipeline", "pipeline_shared_state", "barrier", "arrival_token"}
_SYNC_CALLS = {"__pipeline_commit", "__pipeline_wait_prior", "__pipeline_arrive_on", "wait", "wait_prior",
               "pipeline_producer_commit", "pipeline_consumer_wait_prior", "init"}
_STARTS = {";", "{", "}", ")", "else", ":"}  # what may precede a statement



def _strip_cuda(tokens: list[Token]) -> list[Token]:
    """`cuda::memcpy_async` -> `memcpy_async`, `cuda::aligned_size_t<16>(n)` -> `(n)`."""
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t.text in ("cuda", "nvcuda") and i + 2 < n and tokens[i + 1].text == "::" and \
                tokens[i + 2].text in _COPIES | _SYNC_TYPES | _SYNC_CALLS | {"aligned_size_t", "make_pipeline",
                                                                          "thread_scope", "thread_scope_block",
                                                                          "thread_scope_thread", "std"}:
            i += 2
            continue
        if t.text == "aligned_size_t" and i + 1 < n and tokens[i + 1].text == "<":
            close = match_angle(tokens, i + 1)
            if close > 0:
                i = close + 1
                continue
        out.append(t)
        i += 1
    return out


def _statement_end(tokens: list[Token], i: int) -> int:
    """Index of the `;` ending the statement that starts at i (brackets skipped)."""
    n = len(tokens)
    while i < n and tokens[i].text != ";":
        i = match_close(tokens, i) + 1 if tokens[i].text in ("(", "[", "{") else i + 1
    return i


def rewrite(tokens: list[Token], groups: dict, body: list[Token] | None = None) -> list[Token]:
    """`tokens` (a function body, after coop.rewrite: `groups` are its group variables) with the
    asynchronous copies and their synchronization rewritten (see the module)."""
    if not any(t.text in _COPIES or t.text in _SYNC_TYPES for t in tokens):
        return tokens
    toks = _strip_cuda(tokens)
    body = body if body is not None else toks
    out: list[Token] = []
    sync_names: set = set()
    i, n = 0, len(toks)
    while i < n:
        t = toks[i]
        at_start = not out or out[-1].text in _STARTS
        if at_start and t.kind == "id":
            # a pipeline/barrier declaration (`__shared__ barrier<...> bar;`, `auto pipe = make_pipeline();`)
            j = i
            while j < n and toks[j].text in ("__shared__", "static", "const", "auto", "constexpr"):
                j += 1
            if j < n and toks[j].text in _SYNC_TYPES and j + 1 < n and \
                    (toks[j + 1].text in ("<", "::") or toks[j + 1].kind == "id"):  # a declaration, not `barrier = 1;`
                end = _statement_end(toks, j)
                sync_names.update(x.text for x in toks[j:end] if x.kind == "id" and x.text not in _SYNC_TYPES)
                out += retext(t, ";")
                i = end + 1
                continue
            if t.text == "auto" and i + 3 < n and toks[i + 1].kind == "id" and toks[i + 2].text == "=" and \
                    (toks[i + 3].text == "make_pipeline" or toks[i + 3].text in sync_names):
                end = _statement_end(toks, i)
                sync_names.add(toks[i + 1].text)
                out += retext(t, ";")
                i = end + 1
                continue
            # a call on one of them (`pipe.producer_acquire();`, `bar.arrive_and_wait();`)
            if t.text in sync_names and i + 1 < n and toks[i + 1].text in (".", "->"):
                end = _statement_end(toks, i)
                out += retext(t, ";")
                i = end + 1
                continue
            if t.text in _SYNC_CALLS and i + 1 < n and toks[i + 1].text in ("(", "<"):
                end = _statement_end(toks, i)
                args = toks[i + 1:end]
                if t.text not in ("wait", "wait_prior", "init") or \
                        any(x.text in groups or x.text in sync_names for x in args):
                    out += retext(t, ";")
                    i = end + 1
                    continue
            if t.text in _COPIES and i + 1 < n and toks[i + 1].text == "(":
                close = match_close(toks, i + 1)
                if close + 1 < n and toks[close + 1].text == ";":
                    copy = _copy(t, split_commas(toks[i + 2:close]), groups, sync_names, body)
                    if copy is not None:
                        out += copy
                        i = close + 2
                        continue
        out.append(t)
        i += 1
    return out


def _copy(at: Token, args: list, groups: dict, sync_names: set, body: list[Token]) -> list[Token] | None:
    """The loop a copy makes (see the module), None if its form is not known."""
    cond = None
    if at.text == "__pipeline_memcpy_async":
        if len(args) < 3:
            return None
        dst, src, size = args[:3]
    else:
        group = coop.group_of(args[0], groups) if args else None
        if group is not None:
            if len(args) < 4:
                return None
            cond = coop.leader(group[0], group[1], body)
            if cond is None:
                return None
            dst, src, size = args[1:4]
        elif len(args) == 4:  # a thread's own copy, with its pipeline or barrier
            dst, src, size = args[:3]
        else:
            return None
    text = lambda toks: " ".join(x.text for x in toks)  # noqa: E731
    k = "__sr_ac"
    loop = (f"for (int {k} = 0; {k} < ({text(size)}) / (int)sizeof(({text(dst)})[0]); {k}++) "
            f"({text(dst)})[{k}] = ({text(src)})[{k}];")
    return retext(at, f"{{ if {cond} {loop} }}" if cond else f"{{ {loop} }}")
