"""Every bundled sample's documented expectations (the `staticroof:expect` blocks, derived by hand
in each file's header comment) must be reproduced exactly and symbolically."""

from __future__ import annotations

import re

import pytest

from helpers import SAMPLES, S, analyze_file, formula_agrees

_BLOCK = re.compile(r"staticroof:expect[ \t]+(\S[^\n]*?)[ \t]*\n((?:\s*\*?\s+\w+\s*=.*\n)+)")


CUDA_TESTS = SAMPLES.parent / "tests" / "data" / "cuda"
PYTHON_TESTS = SAMPLES.parent / "tests" / "data" / "python"


def sample_files():
    return (sorted(SAMPLES.glob("*.c")) + sorted(SAMPLES.glob("*.cu")) + sorted(SAMPLES.glob("*.py"))
            + sorted(CUDA_TESTS.glob("*.cu")) + sorted(PYTHON_TESTS.glob("*.py")))


def expectations():
    out = []
    for path in sample_files():
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
    documented = {p.values[0] for p in EXPECTATIONS}
    assert documented == set(sample_files())


@pytest.mark.parametrize("path,kernel,values", EXPECTATIONS)
def test_sample(path, kernel, values):
    kernels, _ = analyze_file(path)
    k = kernels[kernel]
    exact = values.pop("exact", "true").lower() != "false"
    assert not k.failed, [str(d) for d in k.diagnostics]
    assert k.exact == exact, [str(d) for d in k.diagnostics]
    t = k.total
    got = {"W": t.flops.expr, "Q": t.compulsory.expr, "Q_access": t.access.expr, "I": t.intensity.expr,
           "special": t.special.expr, "Q_shared": t.shared.expr}
    got.update({p: q.expr for p, q in t.by_precision.items()})
    numbers = {"W_value": t.flops.value, "Q_value": t.compulsory.value, "Q_access_value": t.access.value,
               "Q_shared_value": t.shared.value}
    for key, expected in values.items():
        if key in numbers:
            assert numbers[key] == S(expected), f"{kernel} {key}: got {numbers[key]}, expected {expected}"
            continue
        if not exact and key not in ("W", "fp64", "fp32", "fp16", "bf16", "special"):
            continue  # an approximate kernel's traffic is an upper bound, not a formula to match
        assert key in got, f"{key}: no such quantity"
        assert formula_agrees(got[key], S(expected), k), f"{kernel} {key}: got {got[key]}, expected {expected}"
    for prec in ("fp64", "fp32", "fp16", "bf16", "fp8"):
        if prec not in values:
            assert prec not in t.by_precision, f"{kernel}: unexpected {prec} work {t.by_precision.get(prec)}"
