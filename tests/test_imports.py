"""staticroof's import structure (issue #27): no import cycles, no private name imported from another
module of the package, no module over 800 lines, and the layers of the package kept apart.

Every import counts, a lazy one inside a function included (it is still a dependency, only a later
one); imports under `if TYPE_CHECKING:` do not (they never run).  A private name is `_x` (not a
dunder), imported by `from m import _x` or reached through an imported module (`m._x`).  The checker
is a few functions over a package's folder, so that a planted cycle and a planted private import in
a throwaway package show that it finds them.

"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "staticroof"
MAX_LINES = 800
FRONTENDS = "staticroof.frontends"


@dataclass(frozen=True)
class Import:
    importer: str  # the importing module
    target: str  # the module imported (a submodule where `from pkg import module` names one)
    name: str | None  # the name taken from `target` (`from target import name`), None for a module
    line: int


@dataclass(frozen=True)
class Private:
    importer: str
    owner: str  # the module that defines the private name
    name: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer}:{self.line} uses {self.owner}.{self.name}"


def find_modules(root: Path) -> dict[str, Path]:
    """Module name -> its file, for the package in folder `root` (the package is named after it)."""
    mods = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    return mods


def _type_checking(test: ast.expr) -> bool:
    return "TYPE_CHECKING" in ast.unparse(test)


def _import_nodes(tree: ast.AST):
    """Every import statement at any depth (functions, classes, branches, try blocks), except those
    under `if TYPE_CHECKING:` (its `else:` runs, and counts)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child.test):
                stack.extend(child.orelse)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child
            stack.append(child)


def _base(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module a `from ... import` reads from (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    if path.name != "__init__.py":
        parts = parts[:-1]  # a module's package; a package's __init__ is its own
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def _attribute_chain(node: ast.expr) -> str | None:
    """`a.b.c` of an attribute's value made of names only, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _attribute_chain(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def scan(root: Path) -> tuple[dict[str, Path], list[Import], list[Private]]:
    """(the package's modules, every import of one of its modules by another, every private name one
    module takes from another), for the package in folder `root`."""
    mods = find_modules(root)
    imports: list[Import] = []
    private: list[Private] = []
    for module, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        bound: dict[str, str] = {}  # a local name (or dotted chain) -> the package's module it is
        for node in _import_nodes(tree):
            if isinstance(node, ast.ImportFrom):
                base = _base(module, path, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    if sub in mods:
                        imports.append(Import(module, sub, None, node.lineno))
                        bound[alias.asname or alias.name] = sub
                        owner = base
                    elif base in mods:
                        imports.append(Import(module, base, alias.name, node.lineno))
                        owner = base
                    else:
                        continue
                    if _private(alias.name) and owner != module:
                        private.append(Private(module, owner, alias.name, node.lineno))
            else:
                for alias in node.names:
                    if alias.name in mods:
                        imports.append(Import(module, alias.name, None, node.lineno))
                        bound[alias.asname or alias.name] = alias.name
        for node in ast.walk(tree):  # `mod._name` through a module the import bound
            if isinstance(node, ast.Attribute) and _private(node.attr):
                chain = _attribute_chain(node.value)
                owner = bound.get(chain) if chain else None
                if owner is not None and owner != module:
                    private.append(Private(module, owner, node.attr, node.lineno))
    imports = [i for i in imports if i.target != i.importer]
    return mods, imports, private


def cycles(mods: dict, imports: list[Import]) -> list[list[str]]:
    """The import cycles: every strongly connected set of two or more modules, sorted (Tarjan's
    algorithm, iterative)."""
    graph: dict[str, set] = {m: set() for m in mods}
    for i in imports:
        graph[i.importer].add(i.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return sorted(found)


def long_modules(mods: dict, limit: int = MAX_LINES) -> list[str]:
    out = []
    for name, path in mods.items():
        n = path.read_text(encoding="utf-8").count("\n")
        if n > limit:
            out.append(f"{name}: {n} lines")
    return out


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def layering_violations(imports: list[Import]) -> list[str]:
    """Imports across the package's layers that must not exist: the shared frontend code imports no
    language's frontend, no language's frontend another's, and the analyses nothing of the
    frontends, the reports or the command line."""
    rules = [
        ("staticroof.frontends.common", ("staticroof.frontends.c", "staticroof.frontends.cuda",
                                         "staticroof.frontends.python")),
        ("staticroof.frontends.c", ("staticroof.frontends.cuda", "staticroof.frontends.python")),
        ("staticroof.frontends.python", ("staticroof.frontends.c", "staticroof.frontends.cuda")),
        ("staticroof.analysis", (FRONTENDS, "staticroof.reports", "staticroof.cli")),
    ]
    out = []
    for i in imports:
        for layer, forbidden in rules:
            if _under(i.importer, layer) and any(_under(i.target, f) for f in forbidden):
                out.append(f"{i.importer}:{i.line} imports {i.target}")
    return sorted(set(out))


def _cycle_message(found: list[list[str]]) -> str:
    return "import cycles:\n" + "\n".join("  " + " <-> ".join(c) for c in found)


@pytest.fixture(scope="module")
def package():
    return scan(PACKAGE)


def test_no_import_cycles(package):
    mods, imports, _ = package
    found = cycles(mods, imports)
    assert not found, _cycle_message(found)


def test_no_private_names_used_by_other_modules(package):
    _, _, private = package
    found = [str(p) for p in private]
    assert not found, "private names used across modules:\n" + "\n".join(found)


def test_no_module_over_800_lines(package):
    mods, _, _ = package
    assert not long_modules(mods), long_modules(mods)


def test_the_layers_are_kept_apart(package):
    _, imports, _ = package
    found = layering_violations(imports)
    assert not found, "\n".join(found)


def test_the_checker_finds_a_planted_cycle_and_private_imports(tmp_path):
    """A throwaway package: `a` imports `b` at load time, `b` imports `a` lazily inside a function
    (a cycle all the same), `c` takes a private name from `b` and reaches another through a module
    object, and imports under `if TYPE_CHECKING:` count for nothing."""
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "a.py").write_text("from . import b\n\n\ndef f():\n    return b.g()\n")
    (root / "b.py").write_text("def g():\n    from .a import f\n\n    return f\n\n\ndef _hidden():\n    pass\n")
    (root / "sub" / "c.py").write_text(
        "from typing import TYPE_CHECKING\n\nfrom .. import b\nfrom ..b import _hidden\n\n"
        "if TYPE_CHECKING:\n    from ..d import _typed\n\n\ndef h():\n    return b._other, _hidden\n")
    (root / "d.py").write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .sub import c\n\n"
                               "_typed = 1\n" + "x = 1\n" * (MAX_LINES + 1))
    mods, imports, private = scan(root)
    assert set(mods) == {"pkg", "pkg.sub", "pkg.a", "pkg.b", "pkg.sub.c", "pkg.d"}
    assert cycles(mods, imports) == [["pkg.a", "pkg.b"]]
    assert {(p.importer, p.owner, p.name) for p in private} == {("pkg.sub.c", "pkg.b", "_hidden"),
                                                                 ("pkg.sub.c", "pkg.b", "_other")}
    assert long_modules(mods) == [f"pkg.d: {MAX_LINES + 7} lines"]
    with pytest.raises(AssertionError, match=r"pkg\.a <-> pkg\.b"):
        found = cycles(mods, imports)
        assert not found, _cycle_message(found)
    # without the lazy import there is no cycle: the check reads function bodies, not only the top
    (root / "b.py").write_text("def g():\n    return 1\n")
    assert cycles(*scan(root)[:2]) == []


def test_layering_rules_catch_an_analysis_importing_a_report():
    found = layering_violations([Import("staticroof.analysis.points", "staticroof.reports.text", "x", 3),
                                 Import("staticroof.frontends.c.values", "staticroof.frontends.common.tokens", None, 1),
                                 Import("staticroof.frontends.common.tokens", "staticroof.frontends.cuda", None, 2)])
    assert found == ["staticroof.analysis.points:3 imports staticroof.reports.text",
                     "staticroof.frontends.common.tokens:2 imports staticroof.frontends.cuda"]
