"""Nothing lost, nothing silent (issue #28, item 1): a syntax error in host code, a header, a class or
another function costs that item alone.  Every kernel of a file is reported, analyzed or
`unsupported` at its own line with the reason; a file whose kernels were all lost exits 1; SR006 is
for a file that truly has no kernel.

The mutation test turns one non-kernel top-level item of each test file (a host or device function's
body, a struct's body, a declaration) into garbage and checks that every kernel reported before is
still reported."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from staticroof.cli import main
from staticroof.frontends import load

from helpers import analyze_file, codes

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for d in ("tests/data", "samples") for p in (ROOT / d).rglob("*")
               if p.suffix in (".c", ".cu") and p.is_file())
GARBAGE = " @@ garbage (( ; "


def cli(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def top_items(src: str) -> list:
    """The top-level items of a source as (start, end, inner start, inner end, kind): kind `func`
    (a function definition: inner is its body), `brace` (a struct, class or initializer: inner is
    its braces' text) or `decl` (a declaration: inner is all of it).  Comments, strings and
    preprocessor lines are skipped; `namespace` and `extern "C"` blocks are transparent."""
    items, i, n = [], 0, len(src)
    depth = paren = 0
    start = body = None
    transparent = 0
    line_start = True
    while i < n:
        c = src[i]
        if line_start and start is None and src[i:].lstrip(" \t").startswith("#"):
            while i < n and src[i] != "\n":
                i += 2 if src.startswith("\\\n", i) else 1
            continue
        line_start = c == "\n"
        if src.startswith("//", i) or src.startswith("/*", i):
            j = src.find("\n" if src[i + 1] == "/" else "*/", i + 2)
            i = n if j < 0 else j + (0 if src[i + 1] == "/" else 2)
            continue
        if c.isspace():
            i += 1
            continue
        if start is None:
            if c in "};":
                transparent -= c == "}" and transparent > 0
                i += 1
                continue
            start = i
        if c in "\"'":
            j = i + 1
            while j < n and src[j] not in (c, "\n"):
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            continue
        if c == "(":
            paren += 1
        elif c == ")":
            paren -= 1
        elif c == "{":
            if depth == 0 and paren == 0:
                if re.match(r'\s*(namespace\b[^{]*|extern\s*"C"\s*)$', src[start:i]):
                    transparent += 1
                    start = None
                    i += 1
                    continue
                body = i
            depth += 1
        elif c == "}":
            depth -= 1
            head = re.sub(r"\b(const|noexcept|override)\s*$", "", src[start:body or i].rstrip()).rstrip()
            if depth == 0 and paren == 0 and (head.endswith(")") or re.search(r"\)\s*:.*$", head, re.S)):
                items.append((start, i + 1, body + 1, i, "func"))
                start = body = None
        elif c == ";" and depth == 0 and paren == 0:
            if body is not None:
                items.append((start, i + 1, body + 1, src.rfind("}", start, i), "brace"))
            else:
                items.append((start, i + 1, start, i + 1, "decl"))
            start = body = None
        i += 1
    return items


def reported(path: Path, text: str | None = None, tmp: Path | None = None) -> set:
    """The kernels the front end reports for a file (or for `text` in its place), analyzed or
    unsupported, drivers left out."""
    if text is not None:
        assert tmp is not None
        p = tmp / path.name
        p.write_text(text)
        res, _ = load(str(p), {}, [str(path.parent)], {}, {})
    else:
        res, _ = load(str(path), {}, [], {}, {})
    base = {k.name.split("<")[0] for k in res.kernels} | {name.split("<")[0] for name, _, _ in res.failed}
    for name, loc, _ in res.failed:
        assert loc is not None and loc.line, name  # unsupported, at its own line
    return base - {d.split("<")[0] for d in getattr(res, "drivers", set())}


def mutants(path: Path, before: set):
    """(item's line, mutated text) for each non-kernel item of the file."""
    src = path.read_text()
    for start, end, a, b, kind in top_items(src):
        text = src[start:end]
        name = re.findall(r"([A-Za-z_]\w*)\s*(?:<[^<>()]*>)?\s*\(", src[start:a]) if kind == "func" else []
        if "__global__" in text or (name and name[0] in before):
            continue
        yield src.count("\n", 0, start) + 1, src[:a] + GARBAGE + src[b:]


def check_file(path: Path, tmp: Path, limit: int | None) -> None:
    before = reported(path)
    for k, (line, text) in enumerate(mutants(path, before)):
        if limit is not None and k >= limit:
            break
        lost = before - reported(path, text, tmp)
        assert not lost, f"{path.relative_to(ROOT)}: garbage in the item at line {line} lost {sorted(lost)}"


# the default run: every fourth file, its first non-kernel item (deterministic, ~10 s)
@pytest.mark.parametrize("path", FILES[::4], ids=lambda p: str(p.relative_to(ROOT)))
def test_garbage_item_loses_no_kernel(path, tmp_path):
    check_file(path, tmp_path, limit=1)


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_garbage_item_loses_no_kernel_full(path, tmp_path):
    check_file(path, tmp_path, limit=None)


def test_scanner_finds_items():
    src = ('#include <x.h>\nstruct S { int a; };\nnamespace ns {\nvoid f(int n) { g(); }\n}\n'
           'int v[3] = {1, 2, 3};\n__global__ void k(float *y) { y[0] = 1; }\n')
    kinds = [(src[a:b].split()[0], kind) for a, b, _, _, kind in top_items(src)]
    assert kinds == [("struct", "brace"), ("void", "func"), ("int", "brace"), ("__global__", "func")]


def test_unbalanced_garbage_costs_its_item(tmp_path):
    """Unbalanced brackets in host code: in a struct, a declaration, a function body (an unclosed
    `{` too): the kernels after them are still read."""
    kernels = """
__global__ void k1(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * y[i];
}
"""
    for junk in ("struct S { @@ (( ; };", "@@ garbage (( ;", "void host(int n) { if (n) { { }", "int x = ((;"):
        p = tmp_path / "k.cu"
        p.write_text(junk + "\n" + kernels)
        assert reported(p) == {"k1"}, junk


HEADER = """#pragma once
class Other {
public:
    Other(const char *name) : name_(name) {}
private:
    const char *name_;
};
template <class T>
class Base : public Other {
public:
    Base();
    virtual ~Base() = default;
    T value() const { return T(); }
};
template <class T> Base<T>::Base() : Other("x") {}
namespace util { inline int twice(int x) { return 2 * x; } }
"""

SCALE_CU = """#include "base.h"
__global__ void scale(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}
__global__ void add(float *z, const float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = x[i] + y[i];
}
"""

SCALE_C = """#include "base.h"
void scale(float *y, const float *x, float a, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i];
}
"""


@pytest.mark.parametrize("name,src", [("k.cu", SCALE_CU), ("k.c", SCALE_C)])
def test_header_out_of_class_constructor(tmp_path, name, src):
    """An included header with C++ the parser cannot read (an out-of-class constructor with an
    initializer, a class template, a namespace) costs only its own items: the kernels after it are
    exact.  scale: one multiply per element, n reads of x and n writes of y, 4 B each: W = n,
    Q = 8n; add: one add, two reads and one write: W = n, Q = 12n."""
    (tmp_path / "base.h").write_text(HEADER)
    (tmp_path / name).write_text(src)
    for n in (1000, 77):
        ks, _ = analyze_file(tmp_path / name, {"n": n})
        assert ks["scale"].exact and not ks["scale"].failed
        assert ks["scale"].total.flops.value == n and ks["scale"].total.compulsory.value == 8 * n
        if name == "k.cu":
            assert ks["add"].exact
            assert ks["add"].total.flops.value == n and ks["add"].total.compulsory.value == 12 * n


BAD_BODY = """__global__ void good(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i];
}

__global__ void bad(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = @@ garbage (( ;
}

template <typename T>
__global__ void bad_template(T *y, int n)
{
    y[0] = ] ;
}
"""


def test_kernel_with_unparsable_body_is_unsupported_at_its_line(tmp_path):
    p = tmp_path / "k.cu"
    p.write_text(BAD_BODY)
    ks, report = analyze_file(p, {"n": 100})
    assert ks["good"].exact and ks["good"].total.flops.value == 100
    for name, line, err in (("bad", 8, 11), ("bad_template", 15, 17)):
        k = ks[name]
        assert k.failed and k.location.line == line and "SR001" in codes(k)
        assert any(d.location.line == err for d in k.diagnostics if d.code == "SR001")
    assert report.failed


def test_all_kernels_lost_exits_1_with_the_reason(tmp_path):
    p = tmp_path / "k.cu"
    p.write_text("__global__ void bad(float *y, int n)\n{\n    y[0] = @@ garbage (( ;\n}\n")
    r = cli("analyze", p)
    assert r.exit_code == 1, r.output
    assert "SR006" not in r.output and "bad" in r.output and "SR001" in r.output


def test_declarations_only_is_sr006_exit_0(tmp_path):
    p = tmp_path / "k.cu"
    p.write_text("__global__ void k(float *y, int n);\nvoid host(int n);\nstruct S { int a; };\n")
    r = cli("analyze", p)
    assert r.exit_code == 0, r.output
    assert "SR006" in r.output


UNCLOSED = {
    ".c": """void first(int n, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = 2.0f * x[i];
}

void broken(int n, float *x)
{
    for (int i = 0; i < n; i++) {
        x[i] = x[i] + 1.0f;
}

static inline void later(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * x[i];
}

double *
last(int n, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 0.5 * y[i];
    return y;
}
""",
    ".cu": """__global__ void first(int n, float *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i];
}

__global__ void broken(int n, float *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = x[i] + 1.0f;
}

__device__ float sq(float v) { return v * v; }

__global__ void later(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = sq(x[i]);
}
""",
}


@pytest.mark.parametrize("suffix", sorted(UNCLOSED))
def test_a_missing_closing_brace_costs_its_function_alone(tmp_path, suffix):
    """`broken` never closes its loop's `{`: its body runs on into the definitions after it.  They are
    each parsed on their own (cut at the definitions that start a line inside its braces): `broken`
    is unsupported with SR001 naming the definition it runs into (`later`; in the .cu file the device
    function `sq` before it), the others are analyzed.  One multiply per element each: W = n (n = 37)."""
    p = tmp_path / f"k{suffix}"
    p.write_text(UNCLOSED[suffix])
    ks, _ = analyze_file(p, {"n": 37})
    assert ks["broken"].failed
    into = "`later`" if suffix == ".c" else "`sq`"
    assert any(d.code == "SR001" and into in d.message and d.location.line == 7 for d in ks["broken"].diagnostics)
    rest = {"first", "later"} | ({"last"} if suffix == ".c" else set())
    for name in rest:
        assert ks[name].exact and ks[name].total.flops.value == 37, name
    assert set(ks) == rest | {"broken"}


GLUED = """__global__ void widen(const float2 *x, float2 *y, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 ab(a, b);
        y[i] = float2(x[i].x * ab.x, x[i].y * ab.y);
    if (i < n) {
        y[i].x = 0.0f;
    }
}

__global__ void middle(const float *p, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = p[i] * 2.0f;
}

__global__ void junk(const float *x, float p[i].b;
}

__global__ void last(const float *x, float *y, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * s;
}
"""


def test_a_cut_piece_keeps_its_lines_and_its_neighbours(tmp_path):
    """Fuzz case 6837: `widen` never closes its second `if`, so its unit runs on to the stray `}` at
    line 19, and the CUDA front end's `float2(...)` rewrite puts line markers inside that unit.  The
    markers must move the lines of what follows (`last` starts at line 21, not 21 + the markers' lines),
    and the piece cut at `middle` must not fail for the broken declaration glued after it: `middle`
    and `last` are analyzed (one multiply per element: W = n = 37 each), `widen` is unsupported."""
    p = tmp_path / "glued.cu"
    p.write_text(GLUED)
    ks, _ = analyze_file(p, {"n": 37})
    assert ks["widen"].failed
    assert ks["last"].location.line == 21 and ks["middle"].location.line == 12
    for name in ("middle", "last"):
        assert ks[name].exact and ks[name].total.flops.value == 37, name
