"""The CUDA front end's whole-file scans take shortcuts over the tokens no rule reads (issue #15:
most of a .cu file is its stub headers' tokens): `rename_operators` copies the runs between
`operator`/`fragment` tokens, `split_items` matches brackets on the tokens' texts and
`opaque.known_types` skips tokens that declare nothing.  Each must give what the token-by-token
scan gives, on real files and on the constructs that do start a rewrite."""

from __future__ import annotations

import glob
import os

from staticroof.frontends.common.tokens import Token, match_close, match_close_texts, tokenize
from staticroof.frontends.cuda import classdefs as CL, opaque, wmma as WM
from staticroof.frontends.cuda.toplevel import split_items

from helpers import ROOT

EXTRA = """
struct V { float x; __device__ float operator[](int i) const { return x; }
           __device__ V operator+(const V &o) const { return V{x + o.x}; } float operator()(int) const; };
__global__ void k(float *a) { nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half,
    nvcuda::wmma::row_major> fa; wmma::fragment<wmma::accumulator, 16, 16, 16, float> c; fragment x; operator; }
typedef struct { int a; } T1; typedef float (*fn_t)(float); using U = V; template <typename Q> struct W {};
"""


def _files() -> list[list[Token]]:
    paths = sorted(glob.glob(os.path.join(ROOT, "samples", "*.cu")) + glob.glob(os.path.join(ROOT, "grammars",
                                                                                              "cuda", "*.h")))
    out = []
    for p in paths:
        with open(p) as f:
            out.append(tokenize(f.read(), p))
    out.append(tokenize(EXTRA, "extra.cu"))
    out.append(tokenize(EXTRA + "operator", "end.cu"))
    return out


def _slow_rename(tokens: list) -> list:
    """rename_operators as it was: every token through the rewrites."""
    out: list = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        frag = WM.rewrite(tokens, i)
        if frag is not None:
            for _ in range(2):
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
                out.append(CL._tok(t, f"__sr_op_{CL.OPS[pair]}", "id"))
                i += 3
                continue
            if nxt in CL.OPS:
                out.append(CL._tok(t, f"__sr_op_{CL.OPS[nxt]}", "id"))
                i += 2
                continue
        out.append(t)
        i += 1
    return out


def _key(tokens: list) -> list:
    return [(t.kind, t.text, t.file, t.line, t.col) for t in tokens]


def test_rename_operators_is_the_token_by_token_rewrite():
    for toks in _files():
        fast = CL.rename_operators(toks)
        fast_frags = WM.prelude()
        WM.reset()
        assert _key(fast) == _key(_slow_rename(toks)) and fast_frags == WM.prelude()
    assert any(t.text.startswith("__sr_frag__") for t in CL.rename_operators(_files()[-1]))


def test_split_items_brackets_are_match_close():
    for toks in _files():
        texts = [t.text for t in toks]
        for i, x in enumerate(texts):
            if x in ("(", "[", "{"):
                assert match_close_texts(texts, i) == match_close(toks, i)
        assert split_items(toks) or not toks  # (some stub headers are empty)


def test_known_types_skips_only_tokens_that_declare_nothing():
    for toks in _files():
        assert opaque.known_types(toks, {"zz"}) == _slow_known(toks, {"zz"})


def _slow_known(tokens: list, builtin: set) -> set:
    """known_types as it was: every token through every branch."""
    known = set(builtin) | opaque._KEYWORDS
    n, depth, start = len(tokens), 0, 0
    for k, t in enumerate(tokens):
        x = t.text
        if x in ("struct", "class", "union", "enum") and k + 1 < n and tokens[k + 1].kind == "id":
            known.add(tokens[k + 1].text)
        elif x == "using" and k + 2 < n and tokens[k + 2].text == "=":
            known.add(tokens[k + 1].text)
        elif x in ("typename", "class") and k + 1 < n and tokens[k + 1].kind == "id":
            known.add(tokens[k + 1].text)
        elif x == "typedef":
            depth, start = 1, k
        elif depth and x in ("{", "}"):
            depth += 1 if x == "{" else -1
        elif depth == 1 and x == ";":
            ids = [y for y in tokens[start:k] if y.kind == "id"]
            for j in range(start, k - 1):
                if tokens[j].text == "(" and tokens[j + 1].text == "*" and j + 2 < k and tokens[j + 2].kind == "id":
                    known.add(tokens[j + 2].text)
                    break
            if ids:
                known.add(ids[-1].text)
            depth = 0
    return known
