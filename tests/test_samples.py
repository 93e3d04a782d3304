"""Every bundled sample's documented expectations (the `staticroof:expect` blocks, derived by hand
in each file's header comment) must be reproduced exactly and symbolically."""

from __future__ import annotations

import re

import pytest

from helpers import SAMPLES, S, analyze_file, same

_BLOCK = re.compile(r"staticroof:expect\s+(\w+)\s*\n((?:\s*\*?\s+\w+\s*=.*\n)+)")


def expectations():
    out = []
    for path in sorted(SAMPLES.glob("*.c")):
        text = path.read_text()
        for m in _BLOCK.finditer(text):
            kernel, body = m.groups()
            values = {}
            for line in body.splitlines():
                key, _, expr = line.strip().lstrip("*").strip().partition("=")
                if key.strip():
                    values[key.strip()] = expr.strip()
            out.append(pytest.param(path, kernel, values, id=f"{path.name}:{kernel}"))
    return out


EXPECTATIONS = expectations()


def test_every_sample_has_expectations():
    documented = {p.values[0].name for p in EXPECTATIONS}
    assert documented == {p.name for p in SAMPLES.glob("*.c")}


@pytest.mark.parametrize("path,kernel,values", EXPECTATIONS)
def test_sample(path, kernel, values):
    kernels, _ = analyze_file(path)
    k = kernels[kernel]
    assert k.exact, [str(d) for d in k.diagnostics]
    t = k.total
    got = {"W": t.flops.expr, "Q": t.compulsory.expr, "Q_access": t.access.expr, "I": t.intensity.expr,
           "special": t.special.expr}
    got.update({p: q.expr for p, q in t.by_precision.items()})
    for key, expected in values.items():
        assert key in got, f"{key}: no such quantity"
        assert same(got[key], S(expected)), f"{kernel} {key}: got {got[key]}, expected {expected}"
    for prec in ("fp64", "fp32", "fp16", "bf16", "fp8"):
        if prec not in values:
            assert prec not in t.by_precision, f"{kernel}: unexpected {prec} work {t.by_precision.get(prec)}"
