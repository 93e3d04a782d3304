"""Parsing in pieces (frontends/parse.py): the runs of units of an included file are parsed once per
process and reused, and the result must be exactly one parse of the whole text: the same nodes,
with the same files, lines and columns, whatever came before the header and after it."""

from __future__ import annotations

import io

from pycparser import c_ast

from staticroof.frontends.c import parse as P
from staticroof.frontends.c.parse import PRELUDE, _Parser, parse_translation_unit, split_units

HEADER = '''# 1 "/opt/proj/include/vec.h" 1
typedef unsigned long size_t;
typedef struct { double x, y; } vec2;
#pragma once_only
static inline double dot2(vec2 a, vec2 b) { return a.x * b.x + a.y * b.y; }
enum { LANES = 4 };
# 3 "{main}" 2
'''


def _source(main: str, body: str) -> str:
    """Preprocessed text as `cc -E` writes it: the main file's marker, the header, then the body."""
    return f'# 1 "{main}"\n' + HEADER.replace("{main}", main) + body


def _dump(ext) -> str:
    buf = io.StringIO()
    c_ast.FileAST(ext).show(buf=buf, attrnames=True, nodenames=True, showcoord=True)
    return buf.getvalue()


def _whole(text: str, path: str) -> str:
    full = '#line 1 "<staticroof-prelude>"\n' + PRELUDE + text
    return _dump(_Parser().parse(full, filename=path).ext)


def test_a_cached_header_gives_the_nodes_of_one_parse_in_every_file(monkeypatch):
    monkeypatch.setattr(P, "_RUNS", {})
    a = _source("/src/a.c", "void scale(size_t n, vec2 *v) {\n    for (size_t i = 0; i < n; i++) v[i].x *= 2;\n}\n")
    # the same header after a longer prologue: other lines and columns before it, another body after
    b = _source("/src/b.c", "\n\n  size_t  count(vec2 *v, size_t n) { return n + LANES; }\n#pragma omp parallel\n")
    for text, path in ((a, "/src/a.c"), (b, "/src/b.c"), (a, "/src/a.c")):
        ext, diags, failed = parse_translation_unit(text, path)
        assert (diags, failed) == ([], [])
        assert _dump(ext) == _whole(text, path)
    # the prelude and the header are kept, once each; the main files' own runs are not
    assert len(P._RUNS) == 2
    assert all(key[2] in ("<staticroof-prelude>", "/opt/proj/include/vec.h") for key in P._RUNS)


def test_a_cached_run_is_not_reused_under_other_names_in_scope(monkeypatch):
    """`T x;` declares x of type T only when T is a typedef name: the run's key holds the scope."""
    monkeypatch.setattr(P, "_RUNS", {})
    header = '# 1 "/inc/t.h" 1\nT x;\nint use(void) { return (T)(x); }\n# 2 "/src/m.c" 2\n'
    for prologue in ("typedef int T;\n", "int T;\n"):
        text = '# 1 "/src/m.c"\n' + prologue + header + "int done;\n"
        try:
            want = _whole(text, "/src/m.c")
        except Exception:  # `int T; T x;` is a syntax error: the whole-text path reports it
            want = None
        ext, diags, failed = parse_translation_unit(text, "/src/m.c")
        if want is None:
            assert diags[0].code == "SR001" or failed[0][2].code == "SR001"
        else:
            assert _dump(ext) == want and diags == []


def test_a_syntax_error_is_reported_as_before(monkeypatch):
    """A file that fails is parsed as it always was: the error and the unit it costs are the same."""
    monkeypatch.setattr(P, "_RUNS", {})
    text = _source("/src/bad.c", "void ok(void) { }\nvoid broken(int n) { n = = 1; }\nvoid after(void) { }\n")
    ext, diags, failed = parse_translation_unit(text, "/src/bad.c")
    assert [name for name, _, _ in failed] == ["broken"] and diags == []
    # `# 3 "/src/bad.c" 2` after the header: `ok` is on line 3, `broken` on line 4
    assert failed[0][1].file == "/src/bad.c" and failed[0][1].line == 4
    names = {n.decl.name if isinstance(n, c_ast.FuncDef) else getattr(n, "name", None) for n in ext}
    assert names >= {"ok", "after", "dot2"} and "broken" not in names


def test_units_are_split_at_top_level_semicolons_and_function_bodies():
    text = ('# 7 "/src/u.c"\n'
            'struct s { int a; int b; } v;\n'  # `;` inside braces: one unit
            'int f(int n) { for (int i = 0; i < n; i++) { } return ";}"[0]; }\n'  # a function body, a string
            '#pragma unroll\n'
            '   char c = \';\';   int d;\n')  # a character constant; two units on one line (column 4, 22)
    assert split_units(text) == [
        ("struct s { int a; int b; } v;", "/src/u.c", 7, 1),
        ('int f(int n) { for (int i = 0; i < n; i++) { } return ";}"[0]; }', "/src/u.c", 8, 1),
        ("char c = ';';", "/src/u.c", 10, 4),
        ("int d;", "/src/u.c", 10, 20),
    ]


def test_a_header_is_reused_after_other_declarations_it_never_names(monkeypatch):
    """The variant of a run is chosen by the names its parse asks the scope about: a header after
    `typedef int A;` in one file and after `int B;` in the next parses once, since it never names A
    or B; after `typedef int vec2;` it names vec2 (its own typedef) and is parsed again (an error:
    the whole-text path reports it as before)."""
    monkeypatch.setattr(P, "_RUNS", {})
    for prologue in ("typedef int A;\n", "int B;\n", "typedef int A; int B;\n"):
        text = '# 1 "/src/m.c"\n' + prologue + HEADER.replace("{main}", "/src/m.c") + "vec2 v;\n"
        ext, diags, failed = parse_translation_unit(text, "/src/m.c")
        assert (diags, failed) == ([], []) and _dump(ext) == _whole(text, "/src/m.c")
    (variants,) = [v for key, v in P._RUNS.items() if key[2] == "/opt/proj/include/vec.h"]
    assert len(variants) == 1
    asked = dict(variants[0][0])
    assert "A" not in asked and "B" not in asked and asked["vec2"] is None and asked["size_t"] is None
    # the header leaves its typedefs and identifiers in the file scope: `vec2 v;` after it parsed
    text = '# 1 "/src/m.c"\nint vec2;\n' + HEADER.replace("{main}", "/src/m.c") + "int w;\n"
    ext, diags, failed = parse_translation_unit(text, "/src/m.c")
    assert diags[0].code == "SR001" if diags else failed[0][2].code == "SR001"
    try:
        _whole(text, "/src/m.c")
        raise AssertionError("typedef of a name declared before must fail in one parse")
    except P.c_parser.ParseError:
        pass
